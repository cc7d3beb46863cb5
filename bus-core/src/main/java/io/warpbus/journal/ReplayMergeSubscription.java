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

import java.util.concurrent.TimeUnit;

import io.warpbus.bus.Bus;
import io.warpbus.bus.ChannelUri;
import io.warpbus.bus.ControlledFragmentHandler;
import io.warpbus.bus.FragmentHandler;
import io.warpbus.bus.Header;
import io.warpbus.bus.Image;
import io.warpbus.bus.ImageListener;
import io.warpbus.bus.Subscription;
import org.agrona.DirectBuffer;

/**
 * A subscription that delivers an unbroken, in-order run of sequences: live frames, with every gap the bus reports
 * (a reconnect beyond the publisher's retained log, a slow-consumer drop) filled from the stream's recorder by a
 * replay, and, given a start sequence, the history from there replayed and then merged into the live stream without
 * a gap or a duplicate.
 * <p>
 * How: the live subscription resumes at the wanted sequence, so the publisher sends from there when its retained
 * log still holds it and otherwise reports the missing range. A live frame beyond the next sequence wanted is left
 * in the ring (a controlled poll aborts it) while a bounded replay of the missing range, asked of the replay
 * endpoint the publisher told the image (or the one given here), delivers it; then live delivery resumes at that
 * frame. Frames already delivered are skipped by sequence. A range that cannot be replayed (no recorder, before its
 * retention, a refusal) is reported to the listener and skipped; the application then sees exactly that gap.
 * <p>
 * Sequences must run on across publisher restarts ({@code initial-sequence} on a restarted publication), as the
 * journal requires: a stream that starts again from 0 looks like frames already delivered. Replayed frames keep
 * their recorded session, so a message split between a replay and the live stream reassembles as one.
 * <p>
 * Poll it from one thread. The live path allocates nothing; a repair creates a subscription.
 */
public final class ReplayMergeSubscription implements AutoCloseable
{
    /**
     * What the merge reports. Called on the polling thread.
     */
    public interface Listener
    {
        /**
         * A missing range is being replayed.
         *
         * @param fromSequence first sequence replayed.
         * @param toSequence   last sequence replayed.
         * @param endpoint     the replay endpoint asked.
         */
        default void onRepair(final long fromSequence, final long toSequence, final String endpoint)
        {
        }

        /**
         * A missing range could not be replayed and is skipped.
         *
         * @param fromSequence first sequence lost.
         * @param toSequence   last sequence lost.
         * @param reason       why.
         */
        default void onUnrepairedGap(final long fromSequence, final long toSequence, final String reason)
        {
        }
    }

    private static final long REPAIR_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);
    private static final long RETRY_DELAY_NS = TimeUnit.MILLISECONDS.toNanos(20);

    private final Bus bus;
    private final ChannelUri liveChannel;
    private final String replayEndpoint;
    private final Listener listener;
    private final Subscription live;
    private final ControlledFragmentHandler liveHandler = this::onLiveFragment;
    private final FragmentHandler replayHandler = this::onReplayFragment;
    private FragmentHandler handler;
    private Subscription replay;
    private long nextSequence;
    private long repairTo = -1;
    private String repairEndpoint;
    private long repairDeadlineNs;
    private long retryAtNs;
    private boolean retryPending;
    private long repairs;
    private long repairedMessages;
    private long unrepairedMessages;

    /**
     * Subscribe live, repairing gaps from the stream's recorder.
     *
     * @param bus            the bus.
     * @param liveChannel    the live stream's channel (iwarp or ipc).
     * @param fromSequence   first sequence wanted (history before the live edge is replayed), or -1 to start live.
     * @param replayEndpoint host:port of the replay service, or null to use the one the publisher announces.
     * @param listener       told of repairs and of ranges that could not be repaired; may be null.
     */
    public ReplayMergeSubscription(
        final Bus bus,
        final String liveChannel,
        final long fromSequence,
        final String replayEndpoint,
        final Listener listener)
    {
        this.bus = bus;
        this.liveChannel = ChannelUri.parse(liveChannel);
        if (this.liveChannel.isReplay())
        {
            throw new IllegalArgumentException("channel '" + liveChannel + "': give the live channel, not a replay");
        }
        this.replayEndpoint = replayEndpoint;
        this.listener = null != listener ? listener : new Listener()
        {
        };
        this.nextSequence = fromSequence;
        this.live = bus.addSubscription(liveChannel, new ImageListener()
        {
        }, fromSequence, 0);
    }

    /**
     * Deliver up to {@code fragmentLimit} fragments, in sequence order, from the live stream or a repair.
     *
     * @param handler       receives them.
     * @param fragmentLimit most to deliver.
     * @return fragments delivered, or work done.
     */
    public int poll(final FragmentHandler handler, final int fragmentLimit)
    {
        this.handler = handler;
        if (retryPending)
        {
            if (System.nanoTime() - retryAtNs < 0)
            {
                return 0;
            }
            retryPending = false;
            openReplay();
        }
        if (null != replay)
        {
            return pollReplay(fragmentLimit);
        }
        if (nextSequence >= 0)
        {
            // A range missed at join is known before the next live frame comes (the publisher may be quiet).
            final Image[] images = live.images();
            for (final Image image : images)
            {
                if (image.joinGapTo() >= nextSequence)
                {
                    startRepair(image.joinGapTo(), image.replayEndpoint());
                    return 1;
                }
            }
        }
        return live.controlledPoll(liveHandler, fragmentLimit);
    }

    /**
     * The next sequence the application will see.
     *
     * @return the sequence, or -1 before the first frame of a live start.
     */
    public long nextSequence()
    {
        return nextSequence;
    }

    /**
     * Ranges replayed (or being replayed).
     *
     * @return the count.
     */
    public long repairs()
    {
        return repairs;
    }

    /**
     * Messages delivered from replays.
     *
     * @return the count.
     */
    public long repairedMessages()
    {
        return repairedMessages;
    }

    /**
     * Messages skipped because their range could not be replayed.
     *
     * @return the count.
     */
    public long unrepairedMessages()
    {
        return unrepairedMessages;
    }

    /**
     * The live subscription (for its images and counters).
     *
     * @return the subscription.
     */
    public Subscription live()
    {
        return live;
    }

    @Override
    public void close()
    {
        closeReplay();
        live.close();
    }

    private ControlledFragmentHandler.Action onLiveFragment(
        final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        final long sequence = header.sequence();
        if (nextSequence < 0)
        {
            nextSequence = sequence;
        }
        if (sequence < nextSequence)
        {
            return ControlledFragmentHandler.Action.CONTINUE;
        }
        if (sequence > nextSequence && startRepair(sequence - 1, header.image().replayEndpoint()))
        {
            return ControlledFragmentHandler.Action.ABORT;
        }
        handler.onFragment(buffer, offset, length, header);
        nextSequence = sequence + 1;
        return ControlledFragmentHandler.Action.CONTINUE;
    }

    private void onReplayFragment(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        final long sequence = header.sequence();
        if (sequence < nextSequence || sequence > repairTo)
        {
            return;
        }
        handler.onFragment(buffer, offset, length, header);
        nextSequence = sequence + 1;
        repairedMessages++;
    }

    /**
     * Replay from the next sequence wanted to {@code to}, or report the range lost when there is no replay endpoint.
     *
     * @return true when a replay is under way.
     */
    private boolean startRepair(final long to, final String imageEndpoint)
    {
        final String endpoint = null != replayEndpoint ? replayEndpoint : imageEndpoint;
        if (endpoint.isEmpty())
        {
            unrepaired(nextSequence, to, "no replay endpoint: no recorder announced one for stream " +
                liveChannel.streamId());
            return false;
        }
        repairEndpoint = endpoint;
        repairTo = to;
        repairs++;
        repairDeadlineNs = System.nanoTime() + REPAIR_TIMEOUT_NS;
        listener.onRepair(nextSequence, repairTo, endpoint);
        openReplay();
        return null != replay;
    }

    private int pollReplay(final int fragmentLimit)
    {
        final int fragments = replay.poll(replayHandler, fragmentLimit);
        if (nextSequence > repairTo)
        {
            closeReplay();
        }
        else if (replay.isEnded())
        {
            final String reason = replay.endReason();
            closeReplay();
            if (reason.contains("beyond the live edge") && System.nanoTime() - repairDeadlineNs < 0)
            {
                // The recorder has not recorded that far yet: it is a subscriber too, a little behind.
                retryPending = true;
                retryAtNs = System.nanoTime() + RETRY_DELAY_NS;
            }
            else
            {
                unrepaired(nextSequence, repairTo, reason);
            }
        }
        else if (System.nanoTime() - repairDeadlineNs > 0 && 0 == fragments)
        {
            closeReplay();
            unrepaired(nextSequence, repairTo, "replay from " + repairEndpoint + " made no progress for " +
                TimeUnit.NANOSECONDS.toSeconds(REPAIR_TIMEOUT_NS) + " s");
        }
        else if (fragments > 0)
        {
            repairDeadlineNs = System.nanoTime() + REPAIR_TIMEOUT_NS;
        }
        return fragments;
    }

    private void openReplay()
    {
        try
        {
            replay = bus.addSubscription("warp:iwarp?endpoint=" + repairEndpoint + "|stream=" +
                liveChannel.streamId() + "|replay-from=" + nextSequence + "|replay-to=" + repairTo + "|ring=" +
                liveChannel.size("ring", bus.context().ringCapacity()));
        }
        catch (final IllegalArgumentException ex)
        {
            // An endpoint that makes no channel: nothing to replay from.
            retryPending = false;
            unrepaired(nextSequence, repairTo, "bad replay endpoint '" + repairEndpoint + "': " + ex.getMessage());
        }
    }

    private void closeReplay()
    {
        if (null != replay)
        {
            replay.close();
            replay = null;
        }
    }

    private void unrepaired(final long from, final long to, final String reason)
    {
        if (to >= from)
        {
            unrepairedMessages += to - from + 1;
            listener.onUnrepairedGap(from, to, reason);
        }
        nextSequence = to + 1;
    }
}
