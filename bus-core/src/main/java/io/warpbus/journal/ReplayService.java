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

import java.util.ArrayList;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import io.warpbus.bus.ExclusivePublication;
import io.warpbus.bus.Publication;
import io.warpbus.bus.ReplayProvider;
import org.agrona.DirectBuffer;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Serves replays of a journal over the bus. Register it with {@link io.warpbus.bus.Bus#addReplayEndpoint}; each
 * request the bus accepts becomes a session that reads the stream's records from the requested sequence (or time)
 * and offers them, with their recorded flags and publisher timestamps, into a publication of its own, whose frames
 * reach the requester's ring by RDMA Write like live ones. A session ends after the last sequence asked for, or,
 * when the request follows the recording ({@code replay-to} absent), when its subscriber leaves. A session meeting
 * a hole in the journal ends there, with an error naming the stream and the sequence: the requester sees the
 * replay end early and knows exactly what it lacks.
 * <p>
 * Requests are checked on the bus's thread (unknown stream, before retention, beyond the live edge, an empty
 * range); sessions run in {@link #doWork()}, on whichever thread drives this agent.
 */
public final class ReplayService implements ReplayProvider, Agent, AutoCloseable
{
    private static final int RECORDS_PER_SESSION_CYCLE = 64;
    private static final long JOIN_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    private final Journal journal;
    private final ErrorHandler errorHandler;
    private final ManyToOneConcurrentLinkedQueue<Session> started = new ManyToOneConcurrentLinkedQueue<>();
    private final ArrayList<Session> sessions = new ArrayList<>();
    private long replays;
    private volatile boolean closed;

    /**
     * Serve replays of a journal.
     *
     * @param journal      the journal read.
     * @param errorHandler told of holes and failed sessions.
     */
    public ReplayService(final Journal journal, final ErrorHandler errorHandler)
    {
        this.journal = journal;
        this.errorHandler = errorHandler;
    }

    @Override
    public long onReplayRequest(
        final int streamId, final long fromSequence, final long toSequence, final long fromTimeNs,
        final String subscriber)
    {
        if (closed)
        {
            throw new JournalException("the replay service is closed");
        }
        if (Arrays.binarySearch(journal.streams(), streamId) < 0)
        {
            throw new JournalException("stream " + streamId + " is not recorded here (recorded: " +
                Arrays.toString(journal.streams()) + ")");
        }
        try (JournalReader reader = journal.reader(streamId))
        {
            final long first = reader.firstSequence();
            final long last = reader.lastSequence();
            if (first < 0)
            {
                throw new JournalException("stream " + streamId + " has nothing recorded yet");
            }
            long from = fromSequence;
            if (fromSequence < 0)
            {
                if (fromTimeNs < 0)
                {
                    throw new JournalException("stream " + streamId + ": a replay needs a sequence or a time");
                }
                from = reader.seekToTimestamp(fromTimeNs);
                if (from < 0)
                {
                    from = last + 1;
                }
            }
            if (from < first)
            {
                throw new JournalException("sequence " + from + " is before retention: stream " + streamId +
                    " is recorded from sequence " + first + " to " + last);
            }
            if (from > last + 1)
            {
                throw new JournalException("sequence " + from + " is beyond the live edge: stream " + streamId +
                    " is recorded up to sequence " + last);
            }
            if (toSequence >= 0 && toSequence < from)
            {
                throw new JournalException("replay-to " + toSequence + " is before the start " + from);
            }
            return from;
        }
    }

    @Override
    public void onReplayStarted(final ExclusivePublication publication, final long fromSequence, final long toSequence)
    {
        started.offer(new Session(publication, fromSequence, toSequence));
    }

    @Override
    public int doWork()
    {
        int work = 0;
        Session session;
        while (null != (session = started.poll()))
        {
            if (closed)
            {
                session.publication.close();
                continue;
            }
            try
            {
                session.open(System.nanoTime());
                sessions.add(session);
                replays++;
            }
            catch (final RuntimeException ex)
            {
                session.publication.close();
                errorHandler.onError(ex);
            }
            work++;
        }
        final long nowNs = System.nanoTime();
        for (int i = sessions.size() - 1; i >= 0; i--)
        {
            final Session s = sessions.get(i);
            try
            {
                work += s.doWork(nowNs);
            }
            catch (final RuntimeException ex)
            {
                errorHandler.onError(new JournalException("stream " + s.publication.streamId() + ": replay ended " +
                    "at sequence " + s.nextSequence + ": " + ex.getMessage(), ex));
                s.finish();
            }
            if (s.finished)
            {
                s.release();
                sessions.remove(i);
            }
        }
        return work;
    }

    @Override
    public String roleName()
    {
        return "warpbus-replay";
    }

    /**
     * Replays started since this service was created.
     *
     * @return the count.
     */
    public long replays()
    {
        return replays;
    }

    /**
     * End every replay; new requests are refused. Call it from the thread that runs {@link #doWork()}, after
     * removing the replay endpoint from the bus (as {@link StreamRecorder#close()} does), so no request is still on
     * its way in.
     */
    @Override
    public void close()
    {
        closed = true;
        for (final Session session : sessions)
        {
            session.finish();
            session.release();
        }
        sessions.clear();
        Session session;
        while (null != (session = started.poll()))
        {
            session.publication.close();
        }
    }

    /**
     * One replay: a reader positioned at the start, a publication, and one record held back when the publication
     * pushed back.
     */
    private final class Session implements JournalHandler
    {
        final ExclusivePublication publication;
        final long toSequence;
        final UnsafeBuffer pending;
        long nextSequence;
        JournalReader reader;
        long joinDeadlineNs;
        boolean connected;
        boolean finished;
        boolean holding;
        int pendingLength;
        int pendingFlags;
        int pendingSession;
        long pendingTimestampNs;

        Session(final ExclusivePublication publication, final long fromSequence, final long toSequence)
        {
            this.publication = publication;
            this.nextSequence = fromSequence;
            this.toSequence = toSequence;
            this.pending = new UnsafeBuffer(new byte[publication.maxPayloadLength()]);
        }

        void open(final long nowNs)
        {
            reader = journal.reader(publication.streamId());
            reader.seekToSequence(nextSequence);
            joinDeadlineNs = nowNs + JOIN_TIMEOUT_NS;
        }

        int doWork(final long nowNs)
        {
            if (publication.isClosed())
            {
                finish();
                return 1;
            }
            if (!connected)
            {
                if (!publication.isConnected())
                {
                    if (nowNs - joinDeadlineNs > 0)
                    {
                        finish();
                        return 1;
                    }
                    return 0;
                }
                connected = true;
            }
            else if (!publication.isConnected())
            {
                // Its subscriber left (or was lost): nobody to replay to.
                finish();
                return 1;
            }
            int work = 0;
            if (holding)
            {
                if (publication.offerRecorded(pending, 0, pendingLength, pendingSession, pendingFlags,
                    pendingTimestampNs) < 0)
                {
                    return 0;
                }
                holding = false;
                advance();
                work++;
            }
            while (!finished && !holding && work < RECORDS_PER_SESSION_CYCLE && reader.poll(this, 1) > 0)
            {
                work++;
            }
            return work;
        }

        @Override
        public void onRecord(
            final long sequence,
            final int sessionId,
            final int flags,
            final long publisherTimestampNs,
            final long receiveTimestampNs,
            final DirectBuffer buffer,
            final int offset,
            final int length)
        {
            if (sequence != nextSequence)
            {
                errorHandler.onError(new JournalException("stream " + publication.streamId() + ": the journal " +
                    "has a hole at sequence " + nextSequence + " (next recorded is " + sequence + "); the replay " +
                    "ends there"));
                finish();
                return;
            }
            final long result = publication.offerRecorded(buffer, offset, length, sessionId, flags,
                publisherTimestampNs);
            if (result == Publication.CLOSED)
            {
                finish();
                return;
            }
            if (result < 0)
            {
                pending.putBytes(0, buffer, offset, length);
                pendingLength = length;
                pendingFlags = flags;
                pendingSession = sessionId;
                pendingTimestampNs = publisherTimestampNs;
                holding = true;
                return;
            }
            advance();
        }

        private void advance()
        {
            if (nextSequence++ == toSequence)
            {
                finish();
            }
        }

        void finish()
        {
            if (!finished)
            {
                finished = true;
                publication.close();
            }
        }

        /**
         * Close the reader: only outside its poll (finish may be called from a record handler).
         */
        void release()
        {
            if (null != reader)
            {
                reader.close();
                reader = null;
            }
        }
    }
}
