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
package io.warpbus.bus;

import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import io.warpbus.bus.protocol.FrameDescriptor;
import io.warpbus.bus.protocol.RingDescriptor;
import io.warpbus.bus.status.PeerHeartbeat;
import org.agrona.IoUtil;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * A subscriber on the same host. Its ring is a memory-mapped file whose metadata carries the commit position the
 * publisher's conductor stores (ordered) and the consumed position and heartbeat the subscriber stores.
 * <p>
 * A block or drop subscriber reads the frames in the publisher's log file itself, where the writer put them: the
 * log is its ring (ring position equals log position for these policies), so nothing is copied per subscriber and
 * the ring's own frame area is only the measure of its flow-control window. The publication keeps the log for it
 * up to its consumed position rather than to what was sent ({@link #completedLogPosition}). A conflating
 * subscriber receives selected frames, so the conductor copies them into its ring, the same data path as RDMA
 * Write minus the network.
 */
final class IpcSubscriberLink extends SubscriberLink
{
    final Path file;
    private final MappedByteBuffer mapped;
    private final UnsafeBuffer ring;
    private final UnsafeBuffer log;
    private final int trailer;
    private final IpcRendezvous rendezvous;
    /** The bus's clock, the one {@link #heartbeat} is timed on. */
    private final NanoClock clock;
    /** Does the subscriber read the publisher's log in place (block and drop), rather than a copy in its ring? */
    private final boolean readsLog;
    private final int logWindow;
    /** Dropped while reading the log in place: its unconsumed frames were moved into its ring (see close). */
    private boolean movedOut;
    private long movedAtNs;
    private long heldFrom = Long.MAX_VALUE;
    private boolean unmapped;
    /** What this side last stored in the ring's commit line (see {@link #writeCommit}). */
    private long storedCommit;
    private long storedHeartbeatMs;

    IpcSubscriberLink(
        final String name,
        final SlowConsumerPolicy policy,
        final int ringCapacity,
        final AtomicCounter positionCounter,
        final AtomicCounter lagCounter,
        final Path file,
        final MappedByteBuffer mapped,
        final LogBuffer log,
        final IpcRendezvous rendezvous,
        final NanoClock clock)
    {
        super(name, policy, ringCapacity, positionCounter, lagCounter);
        this.file = file;
        this.mapped = mapped;
        this.ring = new UnsafeBuffer(mapped);
        this.log = log.buffer;
        this.trailer = ringCapacity;
        this.rendezvous = rendezvous;
        this.clock = clock;
        this.readsLog = SlowConsumerPolicy.CONFLATE != policy;
        this.logWindow = log.windowLength;
    }

    UnsafeBuffer ring()
    {
        return ring;
    }

    @Override
    boolean writeRange(final int logOffset, final int length, final int ringOffset)
    {
        if (!readsLog)
        {
            ring.putBytes(ringOffset, log, logOffset, length);
        }
        return true;
    }

    @Override
    boolean writePadding(final int ringOffset, final int length)
    {
        ring.putShort(ringOffset + FrameDescriptor.TYPE_OFFSET, (short)FrameDescriptor.TYPE_PAD,
            ByteOrder.LITTLE_ENDIAN);
        ring.putInt(ringOffset, length, ByteOrder.LITTLE_ENDIAN);
        return true;
    }

    /**
     * Store only what changed: the subscriber's poll reads this line all the time, so each store takes the line
     * back from its core. A subscriber reading the log whose commit position is the log's own follows the log's
     * (stored once per cycle for all of them, {@link LogBuffer#storeCommit}); its ring holds a bound only while
     * its window limits it. The heartbeat is stored once a millisecond at most.
     */
    @Override
    boolean writeCommit(
        final long commitPosition,
        final long logPosition,
        final long logCommit,
        final long nowMs,
        final int sessionId,
        final int status)
    {
        if (nowMs != storedHeartbeatMs)
        {
            ring.putLongOrdered(trailer + RingDescriptor.PUBLISHER_HEARTBEAT_OFFSET, nowMs);
            storedHeartbeatMs = nowMs;
        }
        final long ringCommit = readsLog && commitPosition == logCommit ? RingDescriptor.FOLLOW_LOG_COMMIT :
            commitPosition;
        if (ringCommit != storedCommit)
        {
            ring.putLongOrdered(trailer + RingDescriptor.COMMIT_POSITION_OFFSET, ringCommit);
            storedCommit = ringCommit;
        }
        return true;
    }

    @Override
    void readCredit(final long nowNs)
    {
        heartbeat.read(ring.getLongVolatile(trailer + RingDescriptor.SUBSCRIBER_HEARTBEAT_OFFSET), nowNs);
        final long position = ring.getLongVolatile(trailer + RingDescriptor.CONSUMED_POSITION_OFFSET);
        if (position >= consumed && position <= ringPosition)
        {
            consumed = position;
        }
    }

    @Override
    boolean hasLeft()
    {
        return RingDescriptor.SUBSCRIBER_CLOSED == subscriberStatus();
    }

    int subscriberStatus()
    {
        return ring.getIntVolatile(trailer + RingDescriptor.SUBSCRIBER_STATUS_OFFSET);
    }

    @Override
    int poll(final long nowNs)
    {
        return 0;
    }

    @Override
    long completedLogPosition()
    {
        // A subscriber reading the log in place needs every byte it has not consumed.
        return readsLog ? consumed : logPosition;
    }

    @Override
    String failure()
    {
        // Plain stores into a mapped file cannot fail, and a credit out of range is ignored (see readCredit).
        return null;
    }

    @Override
    void onRetired()
    {
        rendezvous.onRetired(file);
    }

    /**
     * Every copy is done by the time send returns, and a subscriber reading the log in place has a mapping of its
     * own, which outlives the publication's. But a dropped subscriber that was reading the log may still be in a
     * poll of it after its frames were moved: until it says it has let go of the log (or has offered its ring
     * again, which it does only with no image open), has left, or has been silent (or the drop has been standing)
     * for the liveness timeout, the log from its consumed position is kept. Silent means its heartbeat has not
     * changed ({@link PeerHeartbeat}).
     */
    @Override
    boolean isDrained()
    {
        if (!movedOut || unmapped)
        {
            return true;
        }
        final long nowNs = clock.nanoTime();
        heartbeat.read(ring.getLongVolatile(trailer + RingDescriptor.SUBSCRIBER_HEARTBEAT_OFFSET), nowNs);
        final long livenessNs = TimeUnit.MILLISECONDS.toNanos(rendezvous.livenessMs());
        if (1 == ring.getIntVolatile(trailer + RingDescriptor.LOG_RELEASED_OFFSET) || hasLeft() ||
            RingDescriptor.PUBLISHER_DROPPED != ring.getIntVolatile(trailer + RingDescriptor.PUBLISHER_STATUS_OFFSET) ||
            heartbeat.silentNs(nowNs) > livenessNs || nowNs - movedAtNs > livenessNs)
        {
            heldFrom = Long.MAX_VALUE;
            unmapped = true;
            IoUtil.unmap(mapped);
            return true;
        }
        return false;
    }

    @Override
    long heldLogPosition()
    {
        return heldFrom;
    }

    /**
     * Copy what was committed to the subscriber but not yet consumed from the log into its ring (positions map to
     * the ring as they do to the log, and the sends never ran more than a ring ahead of the credit), so that a
     * dropped subscriber still delivers all it was given, as one whose frames were always copied does.
     */
    private void moveUnconsumedFrames()
    {
        final long logMask = logWindow - 1;
        long position = consumed;
        while (position < committed)
        {
            final int logOffset = (int)(position & logMask);
            final int ringOffset = (int)position & ringMask;
            final int chunk = (int)Math.min(committed - position, Math.min(logWindow - logOffset,
                ringCapacity - ringOffset));
            ring.putBytes(ringOffset, log, logOffset, chunk);
            position += chunk;
        }
        ring.putInt(trailer + RingDescriptor.LOG_WINDOW_OFFSET, 0);
        movedOut = true;
        movedAtNs = clock.nanoTime();
        heldFrom = consumed;
    }

    /**
     * Attach: record where the subscriber starts and mark the ring connected.
     */
    void attach(
        final int sessionId,
        final long position,
        final long sequence,
        final long gapFrom,
        final long gapTo,
        final long nowNs,
        final long nowMs)
    {
        join(position, nowNs);
        ring.putLong(trailer + RingDescriptor.INITIAL_POSITION_OFFSET, position);
        ring.putLong(trailer + RingDescriptor.RESUME_SEQUENCE_OFFSET, sequence);
        ring.putLong(trailer + RingDescriptor.GAP_FROM_OFFSET, gapFrom);
        ring.putLong(trailer + RingDescriptor.GAP_TO_OFFSET, gapTo);
        ring.putInt(trailer + RingDescriptor.PUBLISHER_SESSION_OFFSET, sessionId);
        ring.putLong(trailer + RingDescriptor.COMMIT_POSITION_OFFSET, position);
        storedCommit = position;
        storedHeartbeatMs = nowMs;
        ring.putLong(trailer + RingDescriptor.CONSUMED_POSITION_OFFSET, position);
        ring.putInt(trailer + RingDescriptor.LOG_WINDOW_OFFSET, readsLog ? logWindow : 0);
        ring.putLong(trailer + RingDescriptor.LOG_PID_OFFSET, ProcessHandle.current().pid());
        ring.putInt(trailer + RingDescriptor.LOG_RELEASED_OFFSET, 0);
        ring.putLongOrdered(trailer + RingDescriptor.PUBLISHER_HEARTBEAT_OFFSET, nowMs);
        ring.putIntOrdered(trailer + RingDescriptor.PUBLISHER_STATUS_OFFSET, RingDescriptor.PUBLISHER_CONNECTED);
        state = ACTIVE;
    }

    /**
     * Refuse the ring, with a reason the subscriber can read.
     *
     * @param ring   the mapped ring.
     * @param offset of the metadata.
     * @param reason why.
     */
    static void reject(final UnsafeBuffer ring, final int offset, final String reason)
    {
        RingDescriptor.putReason(ring, offset + RingDescriptor.REASON_OFFSET, reason);
        ring.putIntOrdered(offset + RingDescriptor.PUBLISHER_STATUS_OFFSET, RingDescriptor.PUBLISHER_REJECTED);
    }

    @Override
    void close(final String reason, final int status)
    {
        if (CLOSED == state)
        {
            return;
        }
        closeReason = reason;
        if (readsLog && ACTIVE == state)
        {
            // No longer the log's: what the subscriber was given, whatever the log commits from now on. A dropped
            // subscriber reads on from its ring, which holds exactly this (moveUnconsumedFrames).
            ring.putLongOrdered(trailer + RingDescriptor.COMMIT_POSITION_OFFSET, committed);
            storedCommit = committed;
        }
        if (readsLog && RingDescriptor.PUBLISHER_DROPPED == status && ACTIVE == state)
        {
            // The publication goes on reusing its log; when it closes instead, nothing writes the log again.
            moveUnconsumedFrames();
        }
        if (RingDescriptor.PUBLISHER_REJECTED == status || RingDescriptor.PUBLISHER_DROPPED == status)
        {
            RingDescriptor.putReason(ring, trailer + RingDescriptor.REASON_OFFSET, reason);
            ring.putIntOrdered(trailer + RingDescriptor.PUBLISHER_STATUS_OFFSET, status);
        }
        else
        {
            ring.putIntOrdered(trailer + RingDescriptor.PUBLISHER_STATUS_OFFSET, status);
        }
        state = CLOSED;
        if (!movedOut)
        {
            unmapped = true;
            IoUtil.unmap(mapped);
        }
    }
}
