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

import io.warpbus.bus.protocol.FrameDescriptor;
import io.warpbus.bus.protocol.RingDescriptor;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * A subscriber on the same host: its ring is a memory-mapped file the publisher's conductor copies frames into,
 * then stores the commit position with an ordered store, the same data path as RDMA Write minus the network.
 * The subscriber stores its consumed position and heartbeat in the same file.
 */
final class IpcSubscriberLink extends SubscriberLink
{
    final Path file;
    private final MappedByteBuffer mapped;
    private final UnsafeBuffer ring;
    private final UnsafeBuffer log;
    private final int trailer;
    private final IpcRendezvous rendezvous;

    IpcSubscriberLink(
        final String name,
        final SlowConsumerPolicy policy,
        final int ringCapacity,
        final AtomicCounter positionCounter,
        final AtomicCounter lagCounter,
        final Path file,
        final MappedByteBuffer mapped,
        final UnsafeBuffer log,
        final IpcRendezvous rendezvous)
    {
        super(name, policy, ringCapacity, positionCounter, lagCounter);
        this.file = file;
        this.mapped = mapped;
        this.ring = new UnsafeBuffer(mapped);
        this.log = log;
        this.trailer = ringCapacity;
        this.rendezvous = rendezvous;
    }

    UnsafeBuffer ring()
    {
        return ring;
    }

    @Override
    boolean writeRange(final int logOffset, final int length, final int ringOffset)
    {
        ring.putBytes(ringOffset, log, logOffset, length);
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

    @Override
    boolean writeCommit(
        final long commitPosition, final long logPosition, final long nowMs, final int sessionId, final int status)
    {
        ring.putLongOrdered(trailer + RingDescriptor.PUBLISHER_HEARTBEAT_OFFSET, nowMs);
        ring.putLongOrdered(trailer + RingDescriptor.COMMIT_POSITION_OFFSET, commitPosition);
        return true;
    }

    @Override
    void readCredit(final long nowNs)
    {
        final long heartbeat = ring.getLongVolatile(trailer + RingDescriptor.SUBSCRIBER_HEARTBEAT_OFFSET);
        if (heartbeat != lastSubscriberHeartbeat)
        {
            lastSubscriberHeartbeat = heartbeat;
            lastHeardNs = nowNs;
        }
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
        return logPosition;
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

    @Override
    boolean isDrained()
    {
        // Every copy is done by the time send returns.
        return true;
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
        ring.putLong(trailer + RingDescriptor.CONSUMED_POSITION_OFFSET, position);
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
        IoUtil.unmap(mapped);
    }
}
