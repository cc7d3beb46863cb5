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

import java.lang.invoke.VarHandle;

import io.warpbus.iwarp.ddp.DdpHeaderFlyweight;
import io.warpbus.iwarp.mpa.Fpdu;
import io.warpbus.iwarp.mpa.RtrType;
import io.warpbus.iwarp.rdmap.RdmapOpcode;
import io.warpbus.iwarp.rdmap.ReadRequestFlyweight;
import io.warpbus.iwarp.rdmap.TerminateError;
import io.warpbus.iwarp.rdmap.TerminateFlyweight;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Places inbound DDP segments: validates each FPDU's DDP and RDMAP headers and places its payload in the region
 * or posted receive buffer it targets; queues inbound RDMA Read Requests and hands Terminates to the connection.
 * <p>
 * Checks run in the order of RFC 5041 section 7 and RFC 5040 section 7.2: DDP version and queue number, RDMAP
 * version and opcode, then the buffer: for tagged segments the STag (known, valid, of this stream's protection
 * domain), the rights, a tagged offset that does not wrap and a range inside the region; for untagged segments the
 * MSN, a posted buffer, and a message offset and length that fit it. The first failure ends the connection with
 * the Terminate RFC 5040 section 4.8 prescribes, copying the offending headers; nothing is placed outside a region
 * the peer holds a valid STag for. Payload is copied straight from the receive buffer into the target region.
 */
final class SegmentPlacer
{
    static final int CONSUMED = 0;
    static final int BLOCKED = 1;
    static final int FAILED = 2;

    private final Connection connection;
    private final UnsafeBuffer rx;
    private final StagTable stagTable;
    private final SegmentAssembler assembler;
    private final DdpHeaderFlyweight ddp = new DdpHeaderFlyweight();
    private final ReadRequestFlyweight readRequest = new ReadRequestFlyweight();
    private final TerminateFlyweight terminate = new TerminateFlyweight();
    private int expectedSendMsn = 1;
    private int expectedReadMsn = 1;
    private int expectedTerminateMsn = 1;
    private boolean firstFpduPending;
    private RtrType expectedRtr;
    private QueuePair qp;
    private ReadQueues reads;
    private MemoryRegion writeRegion;

    /**
     * Placement for one connection.
     *
     * @param connection told of failures, Terminates and the first FPDU.
     * @param rx         the receive buffer FPDUs are placed from.
     * @param stagTable  the engine's STags.
     * @param assembler  the same connection's outbound side, told when an RDMA Read completes.
     */
    SegmentPlacer(
        final Connection connection, final UnsafeBuffer rx, final StagTable stagTable, final SegmentAssembler assembler)
    {
        this.connection = connection;
        this.rx = rx;
        this.stagTable = stagTable;
        this.assembler = assembler;
    }

    /**
     * The queue pair whose receive queue and protection domain the connection serves.
     *
     * @param qp the queue pair.
     */
    void queuePair(final QueuePair qp)
    {
        this.qp = qp;
    }

    /**
     * The RDMA Read queues, once the MPA exchange has sized them.
     *
     * @param reads the queues.
     */
    void readQueues(final ReadQueues reads)
    {
        this.reads = reads;
    }

    /**
     * The responder waits for the initiator's first FPDU; in the peer-to-peer model it must be this RTR.
     *
     * @param rtr the negotiated RTR type, or null when any valid FPDU will do.
     */
    void expectFirstFpdu(final RtrType rtr)
    {
        firstFpduPending = true;
        expectedRtr = rtr;
    }

    /**
     * Process one FPDU whose CRC has been checked.
     *
     * @param fpduOffset  offset of its ULPDU_Length field in the receive buffer.
     * @param ulpduLength its ULPDU length.
     * @return {@link #CONSUMED}, {@link #BLOCKED} (a completion queue is full: try again later) or
     * {@link #FAILED} (the connection is terminating).
     */
    int onFpdu(final int fpduOffset, final int ulpduLength)
    {
        final int ddpOffset = fpduOffset + Fpdu.LENGTH_FIELD_LENGTH;
        if (ulpduLength < 2)
        {
            return fail(TerminateError.RDMAP_CATASTROPHIC_STREAM, -1, 0, 0,
                "an FPDU with a ULPDU of " + ulpduLength + " bytes cannot hold a DDP header");
        }
        ddp.wrap(rx, ddpOffset);
        final boolean tagged = ddp.isTagged();
        final int headerLength = tagged ? DdpHeaderFlyweight.TAGGED_HEADER_LENGTH :
            DdpHeaderFlyweight.UNTAGGED_HEADER_LENGTH;
        if (ulpduLength < headerLength)
        {
            return fail(TerminateError.RDMAP_CATASTROPHIC_STREAM, -1, 0, 0, "a " + (tagged ? "tagged" : "untagged") +
                " DDP segment of " + ulpduLength + " bytes is shorter than its " + headerLength + "-byte header");
        }
        if (DdpHeaderFlyweight.VERSION != ddp.version())
        {
            return fail(
                tagged ? TerminateError.DDP_TAGGED_INVALID_VERSION : TerminateError.DDP_UNTAGGED_INVALID_VERSION,
                fpduOffset, headerLength, 0, "DDP version " + ddp.version() + " (expected 1)");
        }
        final int queueNumber = tagged ? -1 : ddp.queueNumber();
        if (!tagged && (queueNumber < DdpHeaderFlyweight.QN_SEND || queueNumber > DdpHeaderFlyweight.QN_TERMINATE))
        {
            return fail(TerminateError.DDP_UNTAGGED_INVALID_QN, fpduOffset, headerLength, 0,
                "untagged DDP segment for queue number " + Integer.toUnsignedString(queueNumber));
        }
        final int control = ddp.rsvdUlp();
        if (RdmapOpcode.VERSION != RdmapOpcode.version(control))
        {
            return fail(TerminateError.RDMAP_INVALID_VERSION, fpduOffset, headerLength, 0,
                "RDMAP version " + RdmapOpcode.version(control) + " (expected 1)");
        }
        final int opcode = RdmapOpcode.opcode(control);
        final int payloadLength = ulpduLength - headerLength;
        if (firstFpduPending && null != expectedRtr)
        {
            return onReadyToReceive(fpduOffset, headerLength, opcode, payloadLength);
        }

        final int result;
        switch (opcode)
        {
            case RdmapOpcode.WRITE:
                result = tagged ? onWrite(fpduOffset, payloadLength) : unexpected(fpduOffset, headerLength, opcode);
                break;
            case RdmapOpcode.READ_RESPONSE:
                result = tagged ? onReadResponse(fpduOffset, payloadLength) :
                    unexpected(fpduOffset, headerLength, opcode);
                break;
            case RdmapOpcode.READ_REQUEST:
                result = DdpHeaderFlyweight.QN_READ_REQUEST == queueNumber ?
                    onReadRequest(fpduOffset, payloadLength) : unexpected(fpduOffset, headerLength, opcode);
                break;
            case RdmapOpcode.SEND:
            case RdmapOpcode.SEND_INVALIDATE:
            case RdmapOpcode.SEND_SE:
            case RdmapOpcode.SEND_SE_INVALIDATE:
                result = DdpHeaderFlyweight.QN_SEND == queueNumber ?
                    onSend(fpduOffset, payloadLength, opcode) : unexpected(fpduOffset, headerLength, opcode);
                break;
            case RdmapOpcode.TERMINATE:
                result = DdpHeaderFlyweight.QN_TERMINATE == queueNumber ?
                    onTerminate(payloadLength) : unexpected(fpduOffset, headerLength, opcode);
                break;
            default:
                result = unexpected(fpduOffset, headerLength, opcode);
                break;
        }
        if (CONSUMED == result && firstFpduPending)
        {
            firstFpduPending = false;
            connection.onFirstFpdu();
        }
        return result;
    }

    /**
     * Can the FPDU at an offset, whose headers have arrived but not all its payload, be placed straight from the
     * socket? Only an RDMA Write that passes every check {@link #onFpdu} would make can; anything else waits until
     * all of it is buffered, and is placed or refused there.
     *
     * @param fpduOffset  offset of its ULPDU_Length field in the receive buffer.
     * @param ulpduLength its ULPDU length.
     * @return the index in {@link #directRegion()} where its payload goes, or -1.
     */
    int directWriteIndex(final int fpduOffset, final int ulpduLength)
    {
        if (firstFpduPending || null == qp)
        {
            return -1;
        }
        ddp.wrap(rx, fpduOffset + Fpdu.LENGTH_FIELD_LENGTH);
        final int control = ddp.rsvdUlp();
        if (!ddp.isTagged() || DdpHeaderFlyweight.VERSION != ddp.version() ||
            RdmapOpcode.VERSION != RdmapOpcode.version(control) || RdmapOpcode.WRITE != RdmapOpcode.opcode(control))
        {
            return -1;
        }
        final int index = writeIndex(fpduOffset, ulpduLength - DdpHeaderFlyweight.TAGGED_HEADER_LENGTH, false);
        return index >= 0 && null != writeRegion.placementView() ? index : -1;
    }

    /**
     * The region of the last {@link #directWriteIndex} that found one.
     *
     * @return the region.
     */
    MemoryRegion directRegion()
    {
        return writeRegion;
    }

    private int onReadyToReceive(
        final int fpduOffset, final int headerLength, final int opcode, final int payloadLength)
    {
        final boolean matches;
        switch (expectedRtr)
        {
            case WRITE:
                matches = RdmapOpcode.WRITE == opcode && ddp.isTagged() && ddp.isLast() && 0 == payloadLength;
                break;
            case READ:
                matches = RdmapOpcode.READ_REQUEST == opcode && !ddp.isTagged() &&
                    ReadRequestFlyweight.LENGTH == payloadLength &&
                    0 == readRequest.wrap(rx, ddp.offset() + headerLength).size();
                break;
            default:
                matches = RdmapOpcode.SEND == opcode && !ddp.isTagged() && ddp.isLast() && 0 == payloadLength;
                break;
        }
        if (!matches)
        {
            return fail(TerminateError.MPA_NO_MATCHING_RTR, fpduOffset, headerLength, 0,
                "the first FPDU was a " + RdmapOpcode.name(opcode) + " of " + payloadLength +
                " bytes, not the negotiated zero-length " + expectedRtr.name().toLowerCase() + " RTR");
        }
        // The RTR is processed as the ordinary zero-length message it is (a Send consumes a receive buffer).
        expectedRtr = null;
        return onFpdu(fpduOffset, headerLength + payloadLength);
    }

    private int onWrite(final int fpduOffset, final int length)
    {
        if (0 == length)
        {
            // RFC 5041 section 5.2: the STag and TO of a zero-length tagged segment are not checked.
            return CONSUMED;
        }
        final int index = writeIndex(fpduOffset, length, true);
        if (index < 0)
        {
            return FAILED;
        }
        writeRegion.buffer().putBytes(index, rx, ddp.offset() + DdpHeaderFlyweight.TAGGED_HEADER_LENGTH, length);
        // Data placed by this FPDU is visible before anything a later FPDU places (commit words, completions).
        VarHandle.releaseFence();
        return CONSUMED;
    }

    /**
     * Check the target of the RDMA Write in {@link #ddp}: its STag, protection domain, rights and range.
     *
     * @param fpduOffset offset of the FPDU in the receive buffer.
     * @param length     its payload length.
     * @param refuse     true to fail the connection with the RFC's Terminate when a check fails.
     * @return the index in {@link #writeRegion} where the payload goes, or -1.
     */
    private int writeIndex(final int fpduOffset, final int length, final boolean refuse)
    {
        final int stag = ddp.stag();
        final MemoryRegion region = stagTable.lookup(stag);
        if (null == region || !region.isValid())
        {
            return refuse(refuse, TerminateError.DDP_TAGGED_INVALID_STAG, fpduOffset,
                "RDMA Write to " + (null == region ? "unknown" : "invalidated") + " STag 0x" + hex(stag));
        }
        if (region.protectionDomain() != qp.protectionDomain)
        {
            return refuse(refuse, TerminateError.DDP_TAGGED_STAG_NOT_ASSOCIATED, fpduOffset,
                "RDMA Write to STag 0x" + hex(stag) + " of another protection domain");
        }
        if (!Access.allows(region.access(), Access.REMOTE_WRITE))
        {
            return refuse(refuse, TerminateError.RDMAP_ACCESS_RIGHTS, fpduOffset,
                "RDMA Write to STag 0x" + hex(stag) + " which grants " + Access.toString(region.access()));
        }
        writeRegion = region;
        return placementIndex(region, ddp.taggedOffset(), length, fpduOffset, "RDMA Write", refuse);
    }

    private int refuse(final boolean refuse, final TerminateError error, final int fpduOffset, final String reason)
    {
        if (refuse)
        {
            fail(error, fpduOffset, DdpHeaderFlyweight.TAGGED_HEADER_LENGTH, 0, reason);
        }
        return -1;
    }

    private int onReadResponse(final int fpduOffset, final int length)
    {
        final ReadQueues reads = this.reads;
        final int hdr = DdpHeaderFlyweight.TAGGED_HEADER_LENGTH;
        if (0 == reads.orqCount)
        {
            return fail(TerminateError.RDMAP_UNEXPECTED_OPCODE, fpduOffset, hdr, 0,
                "RDMA Read Response with no RDMA Read outstanding");
        }
        final int slot = reads.orqHead;
        final int expectedStag = reads.orqSinkStag[slot];
        final int total = reads.orqLength[slot];
        final int received = reads.orqReceived;
        if (0 != length || 0 != total)
        {
            if (ddp.stag() != expectedStag)
            {
                return fail(TerminateError.DDP_TAGGED_INVALID_STAG, fpduOffset, hdr, 0,
                    "RDMA Read Response to STag 0x" +
                    hex(ddp.stag()) + ", but the outstanding read asked for STag 0x" + hex(expectedStag));
            }
            final long expectedTo = reads.orqSinkTaggedOffset[slot] + received;
            if (ddp.taggedOffset() != expectedTo || length > total - received)
            {
                return fail(TerminateError.DDP_TAGGED_BASE_BOUNDS, fpduOffset, hdr, 0, "RDMA Read Response of " +
                    length + " bytes at TO 0x" + Long.toHexString(ddp.taggedOffset()) +
                    " does not continue the read of " +
                    total + " bytes at TO 0x" + Long.toHexString(expectedTo) + " (" + received + " received)");
            }
        }
        if (length > 0)
        {
            final MemoryRegion sink = reads.orqRegion[slot];
            if (null == sink || !sink.isValid())
            {
                return fail(TerminateError.DDP_TAGGED_INVALID_STAG, fpduOffset, hdr, 0,
                    "the sink region of an RDMA Read was invalidated before its response arrived");
            }
            sink.buffer().putBytes(reads.orqIndex[slot] + received, rx, ddp.offset() + hdr, length);
            reads.orqReceived = received + length;
        }
        if (ddp.isLast())
        {
            if (reads.orqReceived != total)
            {
                return fail(TerminateError.DDP_TAGGED_BASE_BOUNDS, fpduOffset, hdr, 0,
                    "RDMA Read Response ended after " +
                    reads.orqReceived + " of " + total + " bytes");
            }
            VarHandle.releaseFence();
            assembler.onReadComplete();
        }
        return CONSUMED;
    }

    private int onReadRequest(final int fpduOffset, final int payloadLength)
    {
        final int hdr = DdpHeaderFlyweight.UNTAGGED_HEADER_LENGTH;
        if (ddp.msn() != expectedReadMsn)
        {
            return fail(TerminateError.DDP_UNTAGGED_MSN_RANGE, fpduOffset, hdr, 0, "RDMA Read Request with MSN " +
                Integer.toUnsignedString(ddp.msn()) + ", expected " + Integer.toUnsignedString(expectedReadMsn));
        }
        if (0 != ddp.messageOffset())
        {
            return fail(TerminateError.DDP_UNTAGGED_INVALID_MO, fpduOffset, hdr, 0,
                "RDMA Read Request with message offset " + Integer.toUnsignedString(ddp.messageOffset()));
        }
        if (ReadRequestFlyweight.LENGTH != payloadLength || !ddp.isLast())
        {
            return fail(TerminateError.RDMAP_OPERATION_UNSPECIFIED, fpduOffset, hdr, 0, "RDMA Read Request of " +
                payloadLength + " bytes" + (ddp.isLast() ? "" : " without the Last flag") +
                ", expected one segment of " +
                ReadRequestFlyweight.LENGTH);
        }
        final ReadQueues reads = this.reads;
        final int rdmaHdr = ReadRequestFlyweight.LENGTH;
        if (reads.irqFull())
        {
            // No RFC names this error; like Linux siw, report a catastrophic error localized to the stream.
            return fail(TerminateError.RDMAP_CATASTROPHIC_STREAM, fpduOffset, hdr, rdmaHdr,
                "RDMA Read Request beyond the negotiated IRD of " + reads.irdCapacity);
        }
        readRequest.wrap(rx, ddp.offset() + hdr);
        final long size = readRequest.size();
        MemoryRegion region = null;
        int index = 0;
        if (size > 0)
        {
            final int stag = readRequest.sourceStag();
            final long sourceTo = readRequest.sourceTaggedOffset();
            region = stagTable.lookup(stag);
            if (null == region || !region.isValid())
            {
                return fail(TerminateError.RDMAP_INVALID_STAG, fpduOffset, hdr, rdmaHdr, "RDMA Read from " +
                    (null == region ? "unknown" : "invalidated") + " STag 0x" + hex(stag));
            }
            if (region.protectionDomain() != qp.protectionDomain)
            {
                return fail(TerminateError.RDMAP_STAG_NOT_ASSOCIATED, fpduOffset, hdr, rdmaHdr,
                    "RDMA Read from STag 0x" + hex(stag) + " of another protection domain");
            }
            if (!Access.allows(region.access(), Access.REMOTE_READ))
            {
                return fail(TerminateError.RDMAP_ACCESS_RIGHTS, fpduOffset, hdr, rdmaHdr,
                    "RDMA Read from STag 0x" + hex(stag) + " which grants " + Access.toString(region.access()));
            }
            if (Long.compareUnsigned(sourceTo + size, sourceTo) < 0)
            {
                return fail(TerminateError.RDMAP_TO_WRAP, fpduOffset, hdr, rdmaHdr,
                    "RDMA Read of " + size + " bytes at TO 0x" + Long.toHexString(sourceTo) + " wraps");
            }
            index = size > Integer.MAX_VALUE ? -1 : region.indexOf(sourceTo, (int)size);
            if (index < 0)
            {
                return fail(TerminateError.RDMAP_BASE_BOUNDS, fpduOffset, hdr, rdmaHdr, "RDMA Read of " + size +
                    " bytes at TO 0x" + Long.toHexString(sourceTo) + " outside STag 0x" + hex(stag) + " (" +
                    region.length() + " bytes at 0x" + Long.toHexString(region.address()) + ")");
            }
        }
        reads.addInbound(region, index, (int)size, readRequest.sinkStag(), readRequest.sinkTaggedOffset());
        expectedReadMsn++;
        return CONSUMED;
    }

    private int onSend(final int fpduOffset, final int length, final int opcode)
    {
        final int hdr = DdpHeaderFlyweight.UNTAGGED_HEADER_LENGTH;
        final QueuePair qp = this.qp;
        if (ddp.msn() != expectedSendMsn)
        {
            return fail(TerminateError.DDP_UNTAGGED_MSN_RANGE, fpduOffset, hdr, 0, RdmapOpcode.name(opcode) +
                " with MSN " + Integer.toUnsignedString(ddp.msn()) + ", expected " +
                Integer.toUnsignedString(expectedSendMsn));
        }
        final long head = qp.rqHead.getPlain();
        if (head == qp.rqTail.get())
        {
            return fail(TerminateError.DDP_UNTAGGED_NO_BUFFER, fpduOffset, hdr, 0, RdmapOpcode.name(opcode) +
                " arrived with no receive buffer posted");
        }
        final boolean last = ddp.isLast();
        if (last && !qp.receiveCompletionQueue.hasCapacity(1))
        {
            return BLOCKED;
        }
        final int slot = (int)head & qp.rqMask;
        final long messageOffset = ddp.messageOffset() & 0xFFFF_FFFFL;
        final int capacity = qp.rqLength[slot];
        if (messageOffset > capacity)
        {
            return fail(TerminateError.DDP_UNTAGGED_INVALID_MO, fpduOffset, hdr, 0, RdmapOpcode.name(opcode) +
                " segment at message offset " + messageOffset + " beyond the " + capacity + "-byte receive buffer");
        }
        if (messageOffset + length > capacity)
        {
            return fail(TerminateError.DDP_UNTAGGED_TOO_LONG, fpduOffset, hdr, 0,
                RdmapOpcode.name(opcode) + " of at least " +
                (messageOffset + length) + " bytes does not fit the " + capacity + "-byte receive buffer");
        }
        if (length > 0)
        {
            final MemoryRegion region = qp.rqRegion[slot];
            if (!region.isValid())
            {
                return fail(TerminateError.RDMAP_LOCAL_CATASTROPHIC, -1, 0, 0,
                    "the posted receive buffer's region was invalidated");
            }
            region.buffer().putBytes(qp.rqIndex[slot] + (int)messageOffset, rx, ddp.offset() + hdr, length);
        }
        if (!last)
        {
            return CONSUMED;
        }

        int flags = RdmapOpcode.solicited(opcode) ? WorkCompletion.FLAG_SOLICITED : 0;
        int invalidated = 0;
        if (RdmapOpcode.invalidates(opcode))
        {
            invalidated = ddp.rsvdUlp32();
            final MemoryRegion target = stagTable.lookup(invalidated);
            if (null == target || target.protectionDomain() != qp.protectionDomain)
            {
                return fail(TerminateError.RDMAP_PROTECTION_CANNOT_INVALIDATE, fpduOffset, hdr, 0,
                    "Send with Invalidate names STag 0x" + hex(invalidated) + ", which is not of this stream");
            }
            if (!target.invalidateRemotely())
            {
                return fail(TerminateError.RDMAP_OPERATION_CANNOT_INVALIDATE, fpduOffset, hdr, 0,
                    "Send with Invalidate names STag 0x" + hex(invalidated) + ", which does not allow remote " +
                    "invalidation or is already invalid");
            }
            flags |= WorkCompletion.FLAG_INVALIDATED;
        }
        VarHandle.releaseFence();
        qp.receiveCompletionQueue.add(qp.rqWrId[slot], CompletionOpcode.RECV, CompletionStatus.SUCCESS,
            (int)messageOffset + length, qp.number, flags, invalidated);
        qp.rqRegion[slot] = null;
        qp.rqHead.lazySet(head + 1);
        expectedSendMsn++;
        return CONSUMED;
    }

    private int onTerminate(final int payloadLength)
    {
        if (ddp.msn() != expectedTerminateMsn || payloadLength < TerminateFlyweight.CONTROL_LENGTH)
        {
            connection.onTerminate(null, "a malformed Terminate (" + payloadLength + " bytes, MSN " +
                Integer.toUnsignedString(ddp.msn()) + ")");
            return FAILED;
        }
        expectedTerminateMsn++;
        terminate.wrap(rx, ddp.offset() + DdpHeaderFlyweight.UNTAGGED_HEADER_LENGTH);
        final TerminateError error = terminate.error();
        final String detail = null != error ? error.describe() : "undefined error (layer " + terminate.layer() +
            ", type " + terminate.errorType() + ", code 0x" + Integer.toHexString(terminate.errorCode()) + ")";
        connection.onTerminate(error, detail);
        return FAILED;
    }

    private int unexpected(final int fpduOffset, final int headerLength, final int opcode)
    {
        return fail(TerminateError.RDMAP_UNEXPECTED_OPCODE, fpduOffset, headerLength, 0,
            RdmapOpcode.name(opcode) + " in a" + (ddp.isTagged() ? " tagged" : "n untagged") + " DDP segment" +
            (ddp.isTagged() ? "" : " for queue " + Integer.toUnsignedString(ddp.queueNumber())));
    }

    /**
     * Validate a tagged placement's offset against a region.
     *
     * @return the index in the region, or -1 (after failing the connection when {@code refuse}).
     */
    private int placementIndex(
        final MemoryRegion region,
        final long taggedOffset,
        final int length,
        final int fpduOffset,
        final String what,
        final boolean refuse)
    {
        if (Long.compareUnsigned(taggedOffset + length, taggedOffset) < 0)
        {
            return refuse(refuse, TerminateError.DDP_TAGGED_TO_WRAP, fpduOffset, what + " of " + length +
                " bytes at TO 0x" + Long.toHexString(taggedOffset) + " wraps");
        }
        final int index = region.indexOf(taggedOffset, length);
        if (index < 0)
        {
            return refuse(refuse, TerminateError.DDP_TAGGED_BASE_BOUNDS, fpduOffset, what + " of " + length +
                " bytes at TO 0x" + Long.toHexString(taggedOffset) + " outside STag 0x" + hex(region.stag()) + " (" +
                region.length() + " bytes at 0x" + Long.toHexString(region.address()) + ")");
        }
        return index;
    }

    private int fail(
        final TerminateError error,
        final int fpduOffset,
        final int ddpHeaderLength,
        final int rdmaHeaderLength,
        final String reason)
    {
        connection.fail(error, fpduOffset, ddpHeaderLength, rdmaHeaderLength, reason);
        return FAILED;
    }

    private static String hex(final int value)
    {
        return Integer.toHexString(value);
    }
}
