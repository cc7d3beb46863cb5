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

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import io.warpbus.bus.protocol.FrameDescriptor;
import io.warpbus.bus.protocol.RingDescriptor;
import io.warpbus.bus.protocol.SubscribeHandshake;
import io.warpbus.iwarp.CompletionHandler;
import io.warpbus.iwarp.CompletionQueue;
import io.warpbus.iwarp.CompletionStatus;
import io.warpbus.iwarp.MemoryRegion;
import io.warpbus.iwarp.QueuePair;
import io.warpbus.iwarp.WorkCompletion;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * A subscriber across the network: frames go by RDMA Write from the publication's registered log straight into
 * the subscriber's ring, and each batch ends with a small inline RDMA Write of the commit position into the ring's
 * metadata. Writes on one connection are placed in the order sent (TCP order, and the engine places each FPDU
 * whole with a release fence), so a subscriber that sees the commit sees the frames below it. The subscriber
 * writes its consumed position and a heartbeat into the first 16 bytes of a credit slot registered for it alone,
 * and its status at byte 16 when it leaves;
 * the slot's tail stages the reason the publisher gives when it drops the subscriber.
 */
final class RdmaSubscriberLink extends SubscriberLink implements CompletionHandler
{
    static final int CREDIT_SLOT_LENGTH = 64 + RingDescriptor.REASON_FIELD_LENGTH;
    /** Where the subscriber writes {@link RingDescriptor#SUBSCRIBER_CLOSED} before it disconnects. */
    static final int CREDIT_STATUS_OFFSET = 16;
    private static final int REASON_STAGING_OFFSET = 64;

    final QueuePair qp;
    final CompletionQueue cq;
    final MemoryRegion logRegion;
    final MemoryRegion creditRegion;
    final int ringStag;
    final long ringAddress;
    final String remote;
    private final UnsafeBuffer credit;
    private long completedLogPosition;
    private long lastCommitLogPosition;
    private boolean writtenSinceCommit;
    private String failure;

    RdmaSubscriberLink(
        final String name,
        final SubscribeHandshake.Request request,
        final AtomicCounter positionCounter,
        final AtomicCounter lagCounter,
        final QueuePair qp,
        final CompletionQueue cq,
        final MemoryRegion logRegion,
        final MemoryRegion creditRegion,
        final String remote)
    {
        super(name, SlowConsumerPolicy.fromCode(request.policy()), request.ringCapacity(), positionCounter,
            lagCounter);
        this.qp = qp;
        this.cq = cq;
        this.logRegion = logRegion;
        this.creditRegion = creditRegion;
        this.credit = creditRegion.buffer();
        this.ringStag = request.ringStag();
        this.ringAddress = request.ringAddress();
        this.remote = remote;
    }

    static UnsafeBuffer newCreditSlot()
    {
        return new UnsafeBuffer(ByteBuffer.allocateDirect(CREDIT_SLOT_LENGTH));
    }

    @Override
    void join(final long position, final long nowNs)
    {
        super.join(position, nowNs);
        completedLogPosition = position;
        lastCommitLogPosition = position;
        credit.putLong(0, position, ByteOrder.LITTLE_ENDIAN);
        credit.putLongVolatile(8, 0);
    }

    @Override
    boolean writeRange(final int logOffset, final int length, final int ringOffset)
    {
        if (QueuePair.POSTED == qp.postWrite(0, logRegion, logOffset, length, ringStag, ringAddress + ringOffset, 0))
        {
            writtenSinceCommit = true;
            return true;
        }
        return false;
    }

    @Override
    boolean writePadding(final int ringOffset, final int length)
    {
        final long header = (length & 0xFFFF_FFFFL) | ((long)FrameDescriptor.TYPE_PAD << 32) |
            ((long)FrameDescriptor.VERSION << 56);
        if (QueuePair.POSTED == qp.postWriteInline(0, header, 0, 0, 8, ringStag, ringAddress + ringOffset, 0))
        {
            writtenSinceCommit = true;
            return true;
        }
        return false;
    }

    @Override
    boolean writeCommit(
        final long commitPosition,
        final long logPosition,
        final long logCommit,
        final long nowMs,
        final int sessionId,
        final int status)
    {
        final long sessionAndStatus = (sessionId & 0xFFFF_FFFFL) | ((long)status << 32);
        if (QueuePair.POSTED == qp.postWriteInline(logPosition, commitPosition, nowMs, sessionAndStatus,
            24, ringStag, ringAddress + ringCapacity + RingDescriptor.COMMIT_POSITION_OFFSET, QueuePair.SIGNALED))
        {
            lastCommitLogPosition = logPosition;
            writtenSinceCommit = false;
            return true;
        }
        return false;
    }

    @Override
    void readCredit(final long nowNs)
    {
        heartbeat.read(credit.getLongVolatile(8), nowNs);
        final long position = credit.getLong(0, ByteOrder.LITTLE_ENDIAN);
        if (position != consumed)
        {
            if (position < consumed || position > ringPosition)
            {
                failure = "credit position " + position + " outside [" + consumed + ", " + ringPosition + "]";
                return;
            }
            consumed = position;
        }
    }

    @Override
    int poll(final long nowNs)
    {
        return cq.poll(this, 16);
    }

    @Override
    public void onCompletion(final WorkCompletion completion)
    {
        if (CompletionStatus.SUCCESS == completion.status())
        {
            completedLogPosition = Math.max(completedLogPosition, completion.workRequestId());
        }
        else if (null == failure && CompletionStatus.WORK_REQUEST_FLUSHED != completion.status())
        {
            failure = "RDMA Write to the subscriber's ring failed: " + completion.status() +
                (null != qp.errorReason() ? " (" + qp.errorReason() + ")" : "");
        }
    }

    @Override
    long completedLogPosition()
    {
        // A conflating subscriber skips frames without writing anything: once every write is complete, the
        // log up to where it has got is no longer needed.
        return !writtenSinceCommit && completedLogPosition >= lastCommitLogPosition ? logPosition :
            completedLogPosition;
    }

    @Override
    boolean hasLeft()
    {
        return RingDescriptor.SUBSCRIBER_CLOSED == credit.getIntVolatile(CREDIT_STATUS_OFFSET);
    }

    @Override
    String failure()
    {
        return failure;
    }

    @Override
    void onRetired()
    {
        // Nothing to release here: when the connection is over, the conductor closes the credit slot.
    }

    @Override
    boolean isDrained()
    {
        // Writes from the log may still be queued until the connection is over.
        return qp.state().isFinal();
    }

    @Override
    void close(final String reason, final int status)
    {
        if (CLOSED == state)
        {
            return;
        }
        closeReason = reason;
        if (ACTIVE == state)
        {
            RingDescriptor.putReason(credit, REASON_STAGING_OFFSET, reason);
            qp.postWrite(0, creditRegion, REASON_STAGING_OFFSET, RingDescriptor.REASON_FIELD_LENGTH, ringStag,
                ringAddress + ringCapacity + RingDescriptor.REASON_OFFSET, 0);
            qp.postWriteInline(logPosition, committed, System.currentTimeMillis(),
                (long)status << 32, 24, ringStag, ringAddress + ringCapacity, 0);
        }
        state = CLOSED;
        qp.disconnect();
    }
}
