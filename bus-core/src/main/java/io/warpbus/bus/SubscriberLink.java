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

import io.warpbus.bus.protocol.FrameDescriptor;
import io.warpbus.bus.protocol.RingDescriptor;
import io.warpbus.bus.status.PeerHeartbeat;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * One subscriber of a publication, as the publisher's conductor sees it: where its ring is, how far it has been
 * sent and committed, and how far it has consumed (its credit). Subclasses move the bytes: RDMA Write for iWARP;
 * for IPC nothing, the subscriber reading the publisher's mapped log, except a copy into a conflating ring.
 * <p>
 * Block and drop subscribers receive the log verbatim: ring position equals log position, and each send is one
 * contiguous range per wrap of the log or the ring (both whole numbers of terms, so frames never straddle an end).
 * A conflating subscriber receives selected frames one by one, so its ring position runs on its own and a padding
 * frame fills the end of its ring when a frame would not fit.
 */
abstract class SubscriberLink
{
    static final int PENDING = 0;
    static final int ACTIVE = 1;
    static final int CLOSED = 2;

    final String name;
    /** The name the subscriber gave itself (without its address): two subscriptions may not share it. */
    String clientName;
    /** A durable subscriber's key (its announced replay endpoint), or null: see {@link DurableSubscriberTracker}. */
    String durableKey;
    /** Drop policy: bytes behind that get the subscriber dropped. */
    long dropLag;
    /** Drop policy: how long it may stay behind without consuming, 0 for no limit. */
    long dropAfterNs;
    /** When the subscriber last consumed something or was caught up. */
    long progressNs;
    private long progressPosition;
    final SlowConsumerPolicy policy;
    final int ringCapacity;
    final int ringMask;
    final AtomicCounter positionCounter;
    final AtomicCounter lagCounter;
    int state = PENDING;
    /** Next log position to send. */
    long logPosition;
    /** Next ring position to write (equals logPosition unless conflating). */
    long ringPosition;
    /** Ring position the subscriber may read up to. */
    long committed;
    /** Ring position of the last commit whose write has completed (the log below it may be reused). */
    long completedLog;
    /** Subscriber's consumed ring position. */
    long consumed;
    long lastCommitNs;
    /** The subscriber's heartbeat, read with its credit. */
    final PeerHeartbeat heartbeat = new PeerHeartbeat();
    long conflatedCount;
    String closeReason;
    private Long2LongHashMap latestByKey;

    SubscriberLink(
        final String name,
        final SlowConsumerPolicy policy,
        final int ringCapacity,
        final AtomicCounter positionCounter,
        final AtomicCounter lagCounter)
    {
        this.name = name;
        this.policy = policy;
        this.ringCapacity = ringCapacity;
        this.ringMask = ringCapacity - 1;
        this.positionCounter = positionCounter;
        this.lagCounter = lagCounter;
    }

    void join(final long position, final long nowNs)
    {
        logPosition = position;
        ringPosition = position;
        committed = position;
        completedLog = position;
        consumed = position;
        lastCommitNs = nowNs;
        heartbeat.heard(nowNs);
        progressNs = nowNs;
        progressPosition = position;
    }

    /**
     * Why a drop subscriber should be dropped now, or null.
     *
     * @param published the publisher's position.
     * @param nowNs     now.
     * @return the reason, or null.
     */
    final String dropReason(final long published, final long nowNs)
    {
        final long lag = published - consumed;
        if (consumed != progressPosition || 0 == lag)
        {
            progressPosition = consumed;
            progressNs = nowNs;
        }
        if (SlowConsumerPolicy.DROP != policy)
        {
            return null;
        }
        if (lag > dropLag)
        {
            return "slow consumer: " + lag + " bytes behind, more than the drop lag of " + dropLag;
        }
        if (dropAfterNs > 0 && nowNs - progressNs > dropAfterNs)
        {
            return "slow consumer: consumed nothing for " + (nowNs - progressNs) / 1_000_000 + " ms while " + lag +
                " bytes behind (lag-timeout " + dropAfterNs / 1_000_000 + " ms)";
        }
        return null;
    }

    /** Copy or write log bytes into the subscriber's ring; false when the transport is full for now. */
    abstract boolean writeRange(int logOffset, int length, int ringOffset);

    /** Write a padding frame of {@code length} bytes at a ring offset (conflation only). */
    abstract boolean writePadding(int ringOffset, int length);

    /**
     * Publish the commit position (and a heartbeat) to the subscriber; false when it must be retried.
     *
     * @param commitPosition ring position the subscriber may read up to.
     * @param logPosition    log position of everything written so far (the log below it is no longer needed
     *                       once this write completes).
     * @param logCommit      the log's own commit position this cycle (the published position), which a subscriber
     *                       reading the log in place follows while its commit position equals it.
     * @param nowMs          heartbeat time.
     * @param sessionId      the publication's session.
     * @param status         publisher status for the ring metadata.
     * @return true when posted.
     */
    abstract boolean writeCommit(
        long commitPosition, long logPosition, long logCommit, long nowMs, int sessionId, int status);

    /** The subscriber's consumed ring position and heartbeat, refreshed into {@link #consumed}. */
    abstract void readCredit(long nowNs);

    /** Transport-specific progress (completions); returns work done. */
    abstract int poll(long nowNs);

    /** Log position below which the transport no longer needs log bytes. */
    abstract long completedLogPosition();

    /** Has the subscriber said it is leaving (its subscription closed)? */
    abstract boolean hasLeft();

    /** Tell the subscriber why it is being dropped, then let it go. */
    abstract void close(String reason, int status);

    /**
     * A transport failure or malformed credit seen since the last check: the subscriber must be dropped.
     *
     * @return the failure, or null.
     */
    abstract String failure();

    /** Called once when the publication stops serving this subscriber, after {@link #close}. */
    abstract void onRetired();

    /**
     * Is the transport done with the publication's log? Until then a closing publication keeps its log.
     *
     * @return true when nothing more will be read from the log for this subscriber.
     */
    abstract boolean isDrained();

    /**
     * Where a retired link still needs the log kept (its transport or its subscriber still reads it), or
     * {@link Long#MAX_VALUE}. The cleaner does not reuse the log from there while the link is draining.
     *
     * @return the position.
     */
    long heldLogPosition()
    {
        return Long.MAX_VALUE;
    }

    /**
     * Send what is published and fits the subscriber's ring.
     *
     * @return work done.
     */
    final int send(final LogBuffer log, final long published, final long nowNs, final long nowMs,
        final int sessionId, final int keyOffset, final int keyLength, final long heartbeatIntervalNs)
    {
        int work = 0;
        if (SlowConsumerPolicy.CONFLATE == policy && keyLength > 0)
        {
            work += sendConflated(log, published, keyOffset, keyLength);
        }
        else
        {
            work += sendRange(log, published);
        }
        final long commit = SlowConsumerPolicy.CONFLATE == policy && keyLength > 0 ? ringPosition :
            frameBoundary(log, published);
        if (commit > committed || nowNs - lastCommitNs >= heartbeatIntervalNs)
        {
            if (writeCommit(commit, logPosition, published, nowMs, sessionId, RingDescriptor.PUBLISHER_CONNECTED))
            {
                committed = commit;
                lastCommitNs = nowNs;
                work++;
            }
        }
        return work;
    }

    private int sendRange(final LogBuffer log, final long published)
    {
        final long space = consumed + ringCapacity - ringPosition;
        long remaining = Math.min(published - logPosition, space);
        int work = 0;
        while (remaining > 0)
        {
            final int logOffset = log.offset(logPosition);
            final int ringOffset = (int)ringPosition & ringMask;
            final int chunk = (int)Math.min(remaining, Math.min(log.windowLength - logOffset,
                ringCapacity - ringOffset));
            if (!writeRange(logOffset, chunk, ringOffset))
            {
                break;
            }
            logPosition += chunk;
            ringPosition += chunk;
            remaining -= chunk;
            work++;
        }
        return work;
    }

    /**
     * The commit position for a block or drop subscriber: everything sent when the published position was
     * reached, else the last whole frame sent.
     */
    private long frameBoundary(final LogBuffer log, final long published)
    {
        if (logPosition == published)
        {
            return ringPosition;
        }
        long position = committed;
        final UnsafeBuffer buffer = log.buffer;
        while (position < logPosition)
        {
            final int length = FrameDescriptor.frameLength(buffer, log.offset(position));
            if (length < FrameDescriptor.MIN_FRAME_LENGTH)
            {
                break;
            }
            final long next = position + FrameDescriptor.alignedLength(length - FrameDescriptor.HEADER_LENGTH);
            if (next > logPosition)
            {
                break;
            }
            position = next;
        }
        return position;
    }

    /**
     * Conflation: while the pending frames fit the ring, send them all; when they do not, send only the latest
     * frame of each key (fragmented messages and frames too short to carry a key are always sent).
     */
    private int sendConflated(final LogBuffer log, final long published, final int keyOffset, final int keyLength)
    {
        final UnsafeBuffer buffer = log.buffer;
        final long pending = published - logPosition;
        if (pending <= 0)
        {
            return 0;
        }
        final boolean conflate = pending > consumed + ringCapacity - ringPosition;
        if (conflate)
        {
            if (null == latestByKey)
            {
                latestByKey = new Long2LongHashMap(4096, 0.6f, -1L);
            }
            latestByKey.clear();
            for (long position = logPosition; position < published; )
            {
                final int offset = log.offset(position);
                final int length = FrameDescriptor.frameLength(buffer, offset);
                if (length < FrameDescriptor.MIN_FRAME_LENGTH)
                {
                    break;
                }
                if (keyed(buffer, offset, length, keyOffset, keyLength))
                {
                    latestByKey.put(key(buffer, offset, keyOffset, keyLength), position);
                }
                position += FrameDescriptor.alignedLength(length - FrameDescriptor.HEADER_LENGTH);
            }
        }
        int work = 0;
        while (logPosition < published)
        {
            final int offset = log.offset(logPosition);
            final int length = FrameDescriptor.frameLength(buffer, offset);
            if (length < FrameDescriptor.MIN_FRAME_LENGTH)
            {
                break;
            }
            final int aligned = FrameDescriptor.alignedLength(length - FrameDescriptor.HEADER_LENGTH);
            final boolean data = FrameDescriptor.TYPE_DATA == FrameDescriptor.type(buffer, offset);
            final boolean skip = !data || (conflate && keyed(buffer, offset, length, keyOffset, keyLength) &&
                latestByKey.get(key(buffer, offset, keyOffset, keyLength)) != logPosition);
            if (skip)
            {
                if (data)
                {
                    conflatedCount++;
                }
                logPosition += aligned;
                continue;
            }
            final int ringOffset = (int)ringPosition & ringMask;
            final int pad = ringOffset + aligned > ringCapacity ? ringCapacity - ringOffset : 0;
            if (ringPosition + pad + aligned > consumed + ringCapacity)
            {
                break;
            }
            if (pad > 0)
            {
                if (!writePadding(ringOffset, pad))
                {
                    break;
                }
                ringPosition += pad;
            }
            if (!writeRange(offset, aligned, (int)ringPosition & ringMask))
            {
                break;
            }
            ringPosition += aligned;
            logPosition += aligned;
            work++;
        }
        return work;
    }

    private static boolean keyed(
        final UnsafeBuffer buffer, final int offset, final int length, final int keyOffset, final int keyLength)
    {
        return FrameDescriptor.TYPE_DATA == FrameDescriptor.type(buffer, offset) &&
            FrameDescriptor.FLAGS_UNFRAGMENTED == FrameDescriptor.flags(buffer, offset) &&
            length >= FrameDescriptor.HEADER_LENGTH + keyOffset + keyLength;
    }

    private static long key(final UnsafeBuffer buffer, final int offset, final int keyOffset, final int keyLength)
    {
        final int index = offset + FrameDescriptor.HEADER_LENGTH + keyOffset;
        return 4 == keyLength ? buffer.getInt(index, java.nio.ByteOrder.LITTLE_ENDIAN) :
            buffer.getLong(index, java.nio.ByteOrder.LITTLE_ENDIAN);
    }

    /** Lag of the subscriber behind the published log, in bytes. */
    final long lag(final long published)
    {
        return published - (SlowConsumerPolicy.CONFLATE == policy ? logPosition : consumed);
    }

    @Override
    public String toString()
    {
        return getClass().getSimpleName() + "{" + name + ", policy=" + policy + ", sent=" + logPosition +
            ", consumed=" + consumed + '}';
    }
}
