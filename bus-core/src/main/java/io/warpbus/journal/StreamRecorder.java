/*
 * Copyright 2026 the WarpBus authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.warpbus.journal;

import io.warpbus.bus.Bus;
import io.warpbus.bus.ChannelUri;
import io.warpbus.bus.Header;
import io.warpbus.bus.Image;
import io.warpbus.bus.ImageListener;
import io.warpbus.bus.Subscription;
import org.agrona.DirectBuffer;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.EpochNanoClock;

/**
 * The standalone recorder: subscribes to a stream published by another process, records every frame into the
 * journal, and serves replays of what it recorded at its replay endpoint, which it announces to the publisher in
 * its subscribe request (the publisher passes it on to every subscriber that joins after, so they find the replay
 * service without configuration).
 * <p>
 * After a crash it resumes: it subscribes from the sequence after the last one recorded, so the publisher sends
 * from there while its retained log holds it; a range the publisher no longer holds is a gap, logged and counted,
 * never filled with anything else. A frame with a sequence already recorded is skipped: the journal holds each
 * sequence once. Since the recorder resumes after its last sequence, such frames mean a publisher that restarted
 * its numbering (without {@code initial-sequence}); the first of each session is reported, naming the fix.
 */
public final class StreamRecorder implements Agent, AutoCloseable
{
    private final Bus bus;
    private final JournalWriter writer;
    private final ReplayService replayService;
    private final Subscription subscription;
    private final String replayEndpoint;
    private final ErrorHandler errorHandler;
    private final EpochNanoClock clock;
    private final io.warpbus.bus.FragmentHandler handler = this::onFragment;
    private long recorded;
    private long duplicates;
    private long gaps;
    private int reportedSession;
    private boolean closed;

    /**
     * Start recording.
     *
     * @param bus            the bus to subscribe and serve replays on.
     * @param journal        where to record.
     * @param channel        the live stream's channel.
     * @param replayEndpoint host:port to serve replays at (and announce).
     * @param errorHandler   told of gaps and failures.
     */
    public StreamRecorder(
        final Bus bus, final Journal journal, final String channel, final String replayEndpoint,
        final ErrorHandler errorHandler)
    {
        final ChannelUri uri = ChannelUri.parse(channel);
        if (uri.isReplay() || uri.has("announce-replay"))
        {
            throw new IllegalArgumentException("channel '" + channel + "': record a live channel (no replay-from, " +
                "no announce-replay)");
        }
        this.bus = bus;
        this.errorHandler = errorHandler;
        this.replayEndpoint = replayEndpoint;
        this.clock = journal.context().epochNanoClock();
        this.writer = journal.writer(uri.streamId());
        this.replayService = new ReplayService(journal, errorHandler);
        try
        {
            bus.addReplayEndpoint(replayEndpoint, replayService);
        }
        catch (final RuntimeException ex)
        {
            writer.close();
            throw ex;
        }
        final long last = writer.lastSequence();
        this.subscription = bus.addSubscription(channel + "|announce-replay=" + replayEndpoint + "|name=recorder-" +
            ProcessHandle.current().pid(), new ImageListener()
            {
                @Override
                public void onGap(
                    final Image image, final long fromSequence, final long toSequence, final long position)
                {
                    gaps++;
                    errorHandler.onError(new JournalException("stream " + uri.streamId() + ": sequences " +
                        fromSequence + " to " + toSequence + " were not received (the publisher no longer held " +
                        "them); the journal has a hole there"));
                }
            }, last >= 0 ? last + 1 : -1, last >= 0 ? lastSession(journal, uri.streamId(), last) : 0);
    }

    /**
     * The publisher session of the last record: a recorder resumes by sequence within that session (a publisher
     * that restarted since, with another session, is resumed by its own rules).
     */
    private static int lastSession(final Journal journal, final int streamId, final long last)
    {
        final int[] session = { 0 };
        try (JournalReader reader = journal.reader(streamId))
        {
            reader.seekToSequence(last);
            reader.poll((sequence, sessionId, flags, publishedNs, receivedNs, buffer, offset, length) ->
                session[0] = sessionId, 1);
        }
        return session[0];
    }

    @Override
    public int doWork()
    {
        if (closed)
        {
            return 0;
        }
        return subscription.poll(handler, 256) + replayService.doWork();
    }

    @Override
    public String roleName()
    {
        return "warpbus-recorder";
    }

    /**
     * Frames recorded since start.
     *
     * @return the count.
     */
    public long recorded()
    {
        return recorded;
    }

    /**
     * Frames received again with a sequence already recorded, and skipped.
     *
     * @return the count.
     */
    public long duplicates()
    {
        return duplicates;
    }

    /**
     * Gaps reported by the bus.
     *
     * @return the count.
     */
    public long gaps()
    {
        return gaps;
    }

    /**
     * The last sequence recorded.
     *
     * @return the sequence, -1 when none.
     */
    public long lastSequence()
    {
        return writer.lastSequence();
    }

    /**
     * Is it receiving the live stream now?
     *
     * @return true while connected to the publisher.
     */
    public boolean isConnected()
    {
        return subscription.images().length > 0;
    }

    /**
     * The replay service.
     *
     * @return it.
     */
    public ReplayService replayService()
    {
        return replayService;
    }

    /**
     * Where replays are served.
     *
     * @return host:port.
     */
    public String replayEndpoint()
    {
        return replayEndpoint;
    }

    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            subscription.close();
            bus.removeReplayEndpoint(replayEndpoint);
            replayService.close();
            writer.close();
        }
    }

    private void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        final long sequence = header.sequence();
        if (sequence <= writer.lastSequence())
        {
            duplicates++;
            if (header.sessionId() != reportedSession)
            {
                reportedSession = header.sessionId();
                errorHandler.onError(new JournalException("stream " + header.streamId() + ": publisher session " +
                    header.sessionId() + " sends sequence " + sequence + ", at or below the last recorded " +
                    writer.lastSequence() + "; not recorded (a restarted publisher continues the stream with " +
                    "initial-sequence=" + (writer.lastSequence() + 1) + ")"));
            }
            return;
        }
        try
        {
            writer.append(sequence, header.sessionId(), header.flags(), header.timestampNs(), clock.nanoTime(),
                buffer, offset, length);
            recorded++;
            final RuntimeException retention = writer.retentionFailure();
            if (null != retention)
            {
                errorHandler.onError(retention);
            }
        }
        catch (final RuntimeException ex)
        {
            errorHandler.onError(ex);
        }
    }
}
