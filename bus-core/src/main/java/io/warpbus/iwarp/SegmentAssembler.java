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
package io.warpbus.iwarp;

import io.warpbus.iwarp.ddp.DdpHeaderFlyweight;
import io.warpbus.iwarp.mpa.Fpdu;
import io.warpbus.iwarp.mpa.RtrType;
import io.warpbus.iwarp.rdmap.RdmapOpcode;
import io.warpbus.iwarp.rdmap.ReadRequestFlyweight;
import io.warpbus.iwarp.rdmap.TerminateError;
import io.warpbus.iwarp.rdmap.TerminateFlyweight;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * Assembles outbound DDP segments: turns send queue work requests and inbound RDMA Read Requests into DDP segments
 * framed as FPDUs in the connection's transmit ring, then retires send queue completions in order. It also queues
 * the ready-to-receive message and Terminates.
 * <p>
 * Messages are sent whole, one after another, alternating between the send queue and the read responses so
 * neither starves; a message bigger than one ULPDU is segmented with increasing MO (untagged) or TO (tagged).
 * Many small FPDUs accumulate in the buffer and go out in one socket write. A send queue RDMA Read waits while
 * the negotiated ORD is in flight, and everything posted after it waits too: the send queue is processed in order.
 */
final class SegmentAssembler
{
    /** Room kept free in the transmit buffer so a Terminate can always be queued. */
    static final int TERMINATE_RESERVE =
        Fpdu.fpduLength(DdpHeaderFlyweight.UNTAGGED_HEADER_LENGTH + TerminateFlyweight.MAX_LENGTH);

    /** Pending bytes at which assembly of the last queued message pauses to write to the socket. */
    static final int PIPELINE_THRESHOLD = 32 * 1024;
    /** Pending bytes at which assembly pauses to write while more messages are queued behind. */
    static final int BATCH_THRESHOLD = 256 * 1024;
    /** Payload bytes of an FPDU from which it is written from its region even when its message is alone. */
    static final int GATHER_ALONE = 16 * 1024;

    private static final int NONE = 0;
    private static final int FROM_SEND_QUEUE = 1;
    private static final int FROM_READ_QUEUE = 2;
    private static final long READ_PENDING = Long.MAX_VALUE;

    private final Connection connection;
    private final TransmitRing out;
    private final UnsafeBuffer tx;
    private final UnsafeBuffer rx;
    private final AtomicCounter fpdusSent;
    private QueuePair qp;
    private ReadQueues reads;
    private int maxUlpdu;
    private int current = NONE;
    private int currentOffset;
    private boolean readQueueTurn;
    private long sqNext;
    private int sendMsn = 1;
    private int readMsn = 1;
    private int terminateMsn = 1;

    /**
     * Assembly for one connection.
     *
     * @param connection told of failures, and asked to write to the socket when enough is assembled.
     * @param out        the transmit ring FPDUs are assembled in.
     * @param rx         the receive buffer, from which a Terminate copies the offending headers.
     * @param fpdusSent  counts the FPDUs assembled.
     */
    SegmentAssembler(
        final Connection connection, final TransmitRing out, final UnsafeBuffer rx, final AtomicCounter fpdusSent)
    {
        this.connection = connection;
        this.out = out;
        this.tx = out.buffer;
        this.rx = rx;
        this.fpdusSent = fpdusSent;
    }

    /**
     * The queue pair whose send queue the connection serves.
     *
     * @param qp the queue pair.
     */
    void queuePair(final QueuePair qp)
    {
        this.qp = qp;
    }

    /**
     * Start full operation with what the MPA exchange settled.
     *
     * @param reads    the RDMA Read queues.
     * @param maxUlpdu the largest ULPDU to put in one FPDU.
     */
    void fullOperation(final ReadQueues reads, final int maxUlpdu)
    {
        this.reads = reads;
        this.maxUlpdu = maxUlpdu;
    }

    /**
     * Assemble as many FPDUs as the transmit buffer holds.
     *
     * @return the number of FPDUs assembled.
     */
    int assemble()
    {
        int count = 0;
        while (NONE != current || selectNext())
        {
            final boolean fromSendQueue = FROM_SEND_QUEUE == current;
            final boolean emitted = fromSendQueue ? emitSendQueueSegment() : emitReadResponseSegment();
            if (!emitted)
            {
                break;
            }
            count++;
            // Small FPDUs batch into one write. A large message alone in the queue is handed to TCP in pieces, so
            // the peer places the first FPDUs while the rest are built (pipelining: latency); with more messages
            // queued behind it, bigger batches mean fewer system calls (throughput).
            final long pending = out.pending();
            if (pending >= BATCH_THRESHOLD || (pending >= PIPELINE_THRESHOLD && !moreQueued()))
            {
                connection.flush();
            }
        }
        return count;
    }

    private boolean gathers(final MemoryRegion region, final int segment)
    {
        return segment > 0 && TransmitRing.gatherable(region, segment) && (segment >= GATHER_ALONE || moreQueued());
    }

    /**
     * Anything not yet begun: a work request in the send queue or an RDMA Read to answer.
     *
     * @return true when {@link #assemble()} has something new.
     */
    boolean hasQueued()
    {
        return null != reads && (reads.irqCount > 0 || sqNext < qp.sqTail.get());
    }

    private boolean moreQueued()
    {
        return reads.irqCount > (FROM_READ_QUEUE == current ? 1 : 0) ||
            sqNext + (FROM_SEND_QUEUE == current ? 1 : 0) < qp.sqTail.get();
    }

    private boolean selectNext()
    {
        final QueuePair qp = this.qp;
        final ReadQueues reads = this.reads;
        final boolean readResponseReady = reads.irqCount > 0;
        boolean sendQueueReady = false;
        if (sqNext < qp.sqTail.get())
        {
            final int slot = (int)sqNext & qp.sqMask;
            sendQueueReady = QueuePair.OP_READ != qp.sqOpcode[slot] || !reads.orqFull();
        }
        if (readResponseReady && (!sendQueueReady || readQueueTurn))
        {
            current = FROM_READ_QUEUE;
        }
        else if (sendQueueReady)
        {
            current = FROM_SEND_QUEUE;
        }
        else
        {
            return false;
        }
        readQueueTurn = FROM_SEND_QUEUE == current;
        currentOffset = 0;
        return true;
    }

    private boolean emitSendQueueSegment()
    {
        final QueuePair qp = this.qp;
        final int slot = (int)sqNext & qp.sqMask;
        final byte opcode = qp.sqOpcode[slot];
        final MemoryRegion region = qp.sqRegion[slot];
        if (null != region && !region.isValid())
        {
            qp.sqStatus[slot] = CompletionStatus.LOCAL_PROTECTION_ERROR;
            connection.fail(TerminateError.RDMAP_LOCAL_CATASTROPHIC, -1, 0, 0, "work request " + qp.sqWrId[slot] +
                " uses memory region 0x" + Integer.toHexString(region.stag()) + " which is no longer valid");
            return false;
        }
        if (QueuePair.OP_READ == opcode)
        {
            return emitReadRequest(qp, slot, region);
        }

        if (QueuePair.OP_WRITE_INLINE == opcode)
        {
            return emitInlineWrite(qp, slot);
        }
        final int length = qp.sqLength[slot];
        final int remaining = length - currentOffset;
        final boolean tagged = QueuePair.OP_WRITE == opcode;
        final int headerLength = tagged ? DdpHeaderFlyweight.TAGGED_HEADER_LENGTH :
            DdpHeaderFlyweight.UNTAGGED_HEADER_LENGTH;
        final int segment = Math.min(remaining, maxUlpdu - headerLength);
        final boolean gather = gathers(region, segment);
        final int offset = claim(headerLength, segment, gather);
        if (offset < 0)
        {
            return false;
        }
        final boolean last = segment == remaining;
        final int ddpOffset = offset + Fpdu.LENGTH_FIELD_LENGTH;
        if (tagged)
        {
            DdpHeaderFlyweight.putTagged(tx, ddpOffset, last, RdmapOpcode.control(RdmapOpcode.WRITE),
                qp.sqRemoteStag[slot], qp.sqRemoteTaggedOffset[slot] + currentOffset);
        }
        else
        {
            final boolean solicited = (qp.sqFlags[slot] & QueuePair.SOLICITED) != 0;
            final boolean invalidate = QueuePair.OP_SEND_INVALIDATE == opcode;
            final int rdmapOpcode = invalidate ?
                (solicited ? RdmapOpcode.SEND_SE_INVALIDATE : RdmapOpcode.SEND_INVALIDATE) :
                (solicited ? RdmapOpcode.SEND_SE : RdmapOpcode.SEND);
            DdpHeaderFlyweight.putUntagged(tx, ddpOffset, last, RdmapOpcode.control(rdmapOpcode),
                invalidate ? qp.sqInvalidateStag[slot] : 0, DdpHeaderFlyweight.QN_SEND, sendMsn, currentOffset);
        }
        commit(offset, headerLength, region, qp.sqIndex[slot] + currentOffset, segment, gather, last);
        currentOffset += segment;
        if (last)
        {
            if (!tagged)
            {
                sendMsn++;
            }
            qp.sqStatus[slot] = CompletionStatus.SUCCESS;
            qp.sqCompleteAtTxBytes[slot] = out.assembledTotal;
            finishMessage();
            sqNext++;
        }
        return true;
    }

    private boolean emitInlineWrite(final QueuePair qp, final int slot)
    {
        final int length = qp.sqLength[slot];
        final int headerLength = DdpHeaderFlyweight.TAGGED_HEADER_LENGTH;
        final int offset = out.claim(Fpdu.fpduLength(headerLength + length), TERMINATE_RESERVE);
        if (offset < 0)
        {
            return false;
        }
        final int ddpOffset = offset + Fpdu.LENGTH_FIELD_LENGTH;
        DdpHeaderFlyweight.putTagged(tx, ddpOffset, true, RdmapOpcode.control(RdmapOpcode.WRITE),
            qp.sqRemoteStag[slot], qp.sqRemoteTaggedOffset[slot]);
        final int payload = ddpOffset + headerLength;
        for (int i = 0; i < length; i++)
        {
            final long word = qp.sqInline[slot * 3 + (i >> 3)];
            tx.putByte(payload + i, (byte)(word >>> ((i & 7) << 3)));
        }
        commitFpdu(offset, headerLength + length);
        qp.sqStatus[slot] = CompletionStatus.SUCCESS;
        qp.sqCompleteAtTxBytes[slot] = out.assembledTotal;
        finishMessage();
        sqNext++;
        return true;
    }

    private boolean emitReadRequest(final QueuePair qp, final int slot, final MemoryRegion sink)
    {
        final int ulpduLength = DdpHeaderFlyweight.UNTAGGED_HEADER_LENGTH + ReadRequestFlyweight.LENGTH;
        final int offset = out.claim(Fpdu.fpduLength(ulpduLength), TERMINATE_RESERVE);
        if (offset < 0)
        {
            return false;
        }
        final int length = qp.sqLength[slot];
        final int sinkStag = null != sink ? sink.stag() : 0;
        final long sinkTo = null != sink ? sink.taggedOffset(qp.sqIndex[slot]) : 0;
        putReadRequest(offset, sinkStag, sinkTo, length, qp.sqRemoteStag[slot], qp.sqRemoteTaggedOffset[slot]);
        reads.addOutbound(sqNext, sink, qp.sqIndex[slot], length, sinkStag, sinkTo);
        qp.sqStatus[slot] = CompletionStatus.SUCCESS;
        qp.sqCompleteAtTxBytes[slot] = READ_PENDING;
        finishMessage();
        sqNext++;
        return true;
    }

    private void putReadRequest(
        final int offset,
        final int sinkStag,
        final long sinkTo,
        final int length,
        final int sourceStag,
        final long sourceTo)
    {
        final int ddpOffset = offset + Fpdu.LENGTH_FIELD_LENGTH;
        DdpHeaderFlyweight.putUntagged(tx, ddpOffset, true, RdmapOpcode.control(RdmapOpcode.READ_REQUEST), 0,
            DdpHeaderFlyweight.QN_READ_REQUEST, readMsn++, 0);
        ReadRequestFlyweight.put(tx, ddpOffset + DdpHeaderFlyweight.UNTAGGED_HEADER_LENGTH, sinkStag, sinkTo,
            length, sourceStag, sourceTo);
        commitFpdu(offset, DdpHeaderFlyweight.UNTAGGED_HEADER_LENGTH + ReadRequestFlyweight.LENGTH);
    }

    private boolean emitReadResponseSegment()
    {
        final ReadQueues reads = this.reads;
        final int slot = reads.irqHead;
        final MemoryRegion region = reads.irqRegion[slot];
        if (null != region && !region.isValid())
        {
            connection.fail(TerminateError.RDMAP_LOCAL_CATASTROPHIC, -1, 0, 0, "the source region 0x" +
                Integer.toHexString(region.stag()) + " of an RDMA Read was invalidated before the response was sent");
            return false;
        }
        final int length = reads.irqLength[slot];
        final int remaining = length - currentOffset;
        final int headerLength = DdpHeaderFlyweight.TAGGED_HEADER_LENGTH;
        final int segment = Math.min(remaining, maxUlpdu - headerLength);
        final boolean gather = gathers(region, segment);
        final int offset = claim(headerLength, segment, gather);
        if (offset < 0)
        {
            return false;
        }
        final boolean last = segment == remaining;
        final int ddpOffset = offset + Fpdu.LENGTH_FIELD_LENGTH;
        DdpHeaderFlyweight.putTagged(tx, ddpOffset, last, RdmapOpcode.control(RdmapOpcode.READ_RESPONSE),
            reads.irqSinkStag[slot], reads.irqSinkTaggedOffset[slot] + currentOffset);
        commit(offset, headerLength, region, reads.irqIndex[slot] + currentOffset, segment, gather, last);
        currentOffset += segment;
        if (last)
        {
            reads.removeInbound();
            finishMessage();
        }
        return true;
    }

    /**
     * Claim room for one FPDU: all of it, or only its header, pad and CRC when the payload is gathered from its
     * region. Payloads are gathered while more messages are queued (throughput), and from {@link #GATHER_ALONE}
     * bytes when alone: a lone message's small FPDUs are copied, which measured a little faster for latency since
     * the ring stays hot and the write takes fewer pieces, while copying a large one costs more than the gathering
     * write (a 64 KiB ping-pong's round trip, 2-3 us of about 46; docs/performance.md).
     */
    private int claim(final int headerLength, final int payloadLength, final boolean gather)
    {
        final int length = gather ?
            Fpdu.LENGTH_FIELD_LENGTH + headerLength + 3 + Fpdu.CRC_LENGTH :
            Fpdu.fpduLength(headerLength + payloadLength);
        return out.claim(length, TERMINATE_RESERVE);
    }

    /**
     * Complete an FPDU whose header is in place: copy the payload into the ring and frame it, or leave the payload
     * in its region for the gathering write. A gathered FPDU of a message alone in the queue with more FPDUs to
     * come has its CRC computed after it is written: the pipelining write sends it at once, and its trailer goes
     * with the next FPDU.
     */
    private void commit(
        final int offset,
        final int headerLength,
        final MemoryRegion region,
        final int index,
        final int payloadLength,
        final boolean gather,
        final boolean last)
    {
        if (gather)
        {
            out.commitGathered(offset, headerLength, region, index, payloadLength, !last && !moreQueued());
            fpdusSent.incrementOrdered();
            return;
        }
        if (payloadLength > 0)
        {
            tx.putBytes(offset + Fpdu.LENGTH_FIELD_LENGTH + headerLength, region.buffer(), index, payloadLength);
        }
        commitFpdu(offset, headerLength + payloadLength);
    }

    private void commitFpdu(final int offset, final int ulpduLength)
    {
        out.commitFpdu(offset, ulpduLength);
        fpdusSent.incrementOrdered();
    }

    private void finishMessage()
    {
        current = NONE;
        currentOffset = 0;
    }

    /**
     * Queue the initiator's ready-to-receive message, the first FPDU of a peer-to-peer connection.
     *
     * @param type the negotiated RTR type.
     */
    void emitReadyToReceive(final RtrType type)
    {
        switch (type)
        {
            case WRITE:
            {
                final int ulpduLength = DdpHeaderFlyweight.TAGGED_HEADER_LENGTH;
                final int offset = out.claim(Fpdu.fpduLength(ulpduLength), 0);
                DdpHeaderFlyweight.putTagged(tx, offset + Fpdu.LENGTH_FIELD_LENGTH, true,
                    RdmapOpcode.control(RdmapOpcode.WRITE), 0, 0L);
                commitFpdu(offset, ulpduLength);
                break;
            }
            case READ:
            {
                final int offset = out.claim(
                    Fpdu.fpduLength(DdpHeaderFlyweight.UNTAGGED_HEADER_LENGTH + ReadRequestFlyweight.LENGTH), 0);
                putReadRequest(offset, 0, 0L, 0, 0, 0L);
                reads.addOutbound(ReadQueues.RTR_POSITION, null, 0, 0, 0, 0L);
                break;
            }
            default:
            {
                final int ulpduLength = DdpHeaderFlyweight.UNTAGGED_HEADER_LENGTH;
                final int offset = out.claim(Fpdu.fpduLength(ulpduLength), 0);
                DdpHeaderFlyweight.putUntagged(tx, offset + Fpdu.LENGTH_FIELD_LENGTH, true,
                    RdmapOpcode.control(RdmapOpcode.SEND), 0, DdpHeaderFlyweight.QN_SEND, sendMsn++, 0);
                commitFpdu(offset, ulpduLength);
                break;
            }
        }
    }

    /**
     * Queue a Terminate after what is already in the transmit buffer (the reserve guarantees room).
     *
     * @param error            the error.
     * @param fpduOffset       offending FPDU in the receive buffer, or -1.
     * @param ddpHeaderLength  its DDP header length to copy, 0 for none.
     * @param rdmaHeaderLength its RDMA header length to copy, 0 for none.
     */
    void emitTerminate(
        final TerminateError error, final int fpduOffset, final int ddpHeaderLength, final int rdmaHeaderLength)
    {
        final int offset = out.claim(TERMINATE_RESERVE, 0);
        if (offset < 0)
        {
            return;
        }
        final int ddpOffset = offset + Fpdu.LENGTH_FIELD_LENGTH;
        DdpHeaderFlyweight.putUntagged(tx, ddpOffset, true, RdmapOpcode.control(RdmapOpcode.TERMINATE), 0,
            DdpHeaderFlyweight.QN_TERMINATE, terminateMsn++, 0);
        final int termLength = TerminateFlyweight.put(tx, ddpOffset + DdpHeaderFlyweight.UNTAGGED_HEADER_LENGTH,
            error, fpduOffset >= 0 ? rx : null, fpduOffset, ddpHeaderLength, rdmaHeaderLength);
        commitFpdu(offset, DdpHeaderFlyweight.UNTAGGED_HEADER_LENGTH + termLength);
    }

    /**
     * An RDMA Read Response completed the outbound read at the head of the ORQ.
     */
    void onReadComplete()
    {
        final ReadQueues reads = this.reads;
        final long position = reads.orqPosition[reads.orqHead];
        reads.removeOutbound();
        if (ReadQueues.RTR_POSITION != position)
        {
            final QueuePair qp = this.qp;
            qp.sqCompleteAtTxBytes[(int)position & qp.sqMask] = 0;
        }
    }

    /**
     * Raise completions for send queue entries that have finished, in posting order.
     *
     * @return the number retired.
     */
    int retire()
    {
        final QueuePair qp = this.qp;
        final CompletionQueue cq = qp.sendCompletionQueue;
        final long written = out.writtenTotal;
        long head = qp.sqHead.getPlain();
        int count = 0;
        while (head < sqNext)
        {
            final int slot = (int)head & qp.sqMask;
            if (qp.sqCompleteAtTxBytes[slot] > written)
            {
                break;
            }
            final CompletionStatus status = qp.sqStatus[slot];
            if (CompletionStatus.SUCCESS != status || (qp.sqFlags[slot] & QueuePair.SIGNALED) != 0)
            {
                if (!cq.hasCapacity(1))
                {
                    break;
                }
                cq.add(qp.sqWrId[slot], Flusher.completionOpcode(qp.sqOpcode[slot]), status, qp.sqLength[slot],
                    qp.number, 0, 0);
            }
            head++;
            count++;
        }
        if (count > 0)
        {
            qp.sqHead.lazySet(head);
        }
        return count;
    }

    /**
     * Is everything posted so far sent and every read answered?
     *
     * @param inputEnded the peer will send nothing more, so outstanding reads will not be answered.
     * @return true when the connection can be closed without losing work.
     */
    boolean isDrained(final boolean inputEnded)
    {
        final QueuePair qp = this.qp;
        final ReadQueues reads = this.reads;
        return NONE == current && (null == qp || sqNext == qp.sqTail.get()) &&
            reads.irqCount == 0 && (inputEnded || reads.orqCount == 0);
    }

    /**
     * The connection is closing for good: settle the status of every entry this side has started.
     */
    void finalizeSendQueue()
    {
        final QueuePair qp = this.qp;
        final long written = out.writtenTotal;
        for (long position = qp.sqHead.getPlain(); position < sqNext; position++)
        {
            final int slot = (int)position & qp.sqMask;
            if (CompletionStatus.SUCCESS == qp.sqStatus[slot] && qp.sqCompleteAtTxBytes[slot] > written)
            {
                qp.sqStatus[slot] = CompletionStatus.WORK_REQUEST_FLUSHED;
            }
        }
        if (FROM_SEND_QUEUE == current && CompletionStatus.LOCAL_PROTECTION_ERROR == qp.sqStatus[(int)sqNext &
            qp.sqMask])
        {
            sqNext++;
        }
        qp.sqFinalized = sqNext;
    }
}
