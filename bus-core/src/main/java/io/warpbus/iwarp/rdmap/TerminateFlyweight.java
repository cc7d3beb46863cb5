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
package io.warpbus.iwarp.rdmap;

import java.nio.ByteOrder;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The Terminate header (RFC 5040 section 4.8), after the untagged DDP header (QN 2).
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  | Layer | EType |  Error Code   |M|D|R|       Reserved          |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |     DDP Segment Length        |  Terminated DDP Header        ~  when M / D
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  ~       Terminated RDMA Header (28 bytes, a Read Request)       ~  when R
 * </pre>
 * M: the DDP segment length is valid. D: the offending DDP header (14 or 18 bytes) follows it. R: the offending
 * Read Request header follows. The length plus the DDP header read like the start of the offending FPDU.
 */
public final class TerminateFlyweight
{
    /** Length of the Terminate Control field. */
    public static final int CONTROL_LENGTH = 4;
    /** Length of the DDP Segment Length field. */
    public static final int SEGMENT_LENGTH_LENGTH = 2;
    /** Longest Terminate header: control, length, untagged DDP header, Read Request header. */
    public static final int MAX_LENGTH = CONTROL_LENGTH + SEGMENT_LENGTH_LENGTH + 18 + ReadRequestFlyweight.LENGTH;

    /** Flag: DDP segment length valid. */
    public static final int FLAG_M = 0x80;
    /** Flag: DDP header included. */
    public static final int FLAG_D = 0x40;
    /** Flag: RDMA header included. */
    public static final int FLAG_R = 0x20;

    private DirectBuffer buffer;
    private int offset;

    /**
     * Wrap a header.
     *
     * @param buffer holding it.
     * @param offset of its first byte.
     * @return this for a fluent API.
     */
    public TerminateFlyweight wrap(final DirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    /**
     * Layer number.
     *
     * @return 0 RDMAP, 1 DDP, 2 LLP.
     */
    public int layer()
    {
        return (buffer.getByte(offset) >> 4) & 0x0F;
    }

    /**
     * Error type.
     *
     * @return EType.
     */
    public int errorType()
    {
        return buffer.getByte(offset) & 0x0F;
    }

    /**
     * Error code.
     *
     * @return code.
     */
    public int errorCode()
    {
        return buffer.getByte(offset + 1) & 0xFF;
    }

    /**
     * The M, D and R flags.
     *
     * @return flags byte masked to the three bits.
     */
    public int headerFlags()
    {
        return buffer.getByte(offset + 2) & (FLAG_M | FLAG_D | FLAG_R);
    }

    /**
     * The DDP Segment Length field, meaningful when M is set.
     *
     * @return length.
     */
    public int ddpSegmentLength()
    {
        return buffer.getShort(offset + CONTROL_LENGTH, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * Offset of the copied DDP header, meaningful when D is set.
     *
     * @return buffer offset.
     */
    public int ddpHeaderOffset()
    {
        return offset + CONTROL_LENGTH + SEGMENT_LENGTH_LENGTH;
    }

    /**
     * The error named by layer, type and code.
     *
     * @return the error, or null when no RFC defines the combination.
     */
    public TerminateError error()
    {
        return TerminateError.find(layer(), errorType(), errorCode());
    }

    /**
     * Write the Terminate Control field and, when given, the offending headers.
     *
     * @param buffer           to write into.
     * @param offset           of the first byte.
     * @param error            the error.
     * @param source           buffer holding the offending FPDU, or null for none.
     * @param fpduOffset       offset of the offending FPDU's ULPDU_Length field in source.
     * @param ddpHeaderLength  length of its DDP header (14 or 18), 0 for none.
     * @param rdmaHeaderLength length of its RDMA header to copy (28 for a Read Request), 0 for none.
     * @return bytes written.
     */
    public static int put(
        final MutableDirectBuffer buffer,
        final int offset,
        final TerminateError error,
        final DirectBuffer source,
        final int fpduOffset,
        final int ddpHeaderLength,
        final int rdmaHeaderLength)
    {
        buffer.putByte(offset, (byte)(error.layer().ordinal() << 4 | error.errorType()));
        buffer.putByte(offset + 1, (byte)error.code());
        final boolean withDdp = null != source && ddpHeaderLength > 0;
        final boolean withRdma = withDdp && rdmaHeaderLength > 0;
        buffer.putByte(offset + 2, (byte)((withDdp ? FLAG_M | FLAG_D : 0) | (withRdma ? FLAG_R : 0)));
        buffer.putByte(offset + 3, (byte)0);
        int length = CONTROL_LENGTH;
        if (withDdp)
        {
            // The DDP Segment Length is the offending FPDU's ULPDU_Length: copying it with the header reproduces
            // the start of that FPDU, as RFC 5040 section 4.8 draws it.
            final int copy = SEGMENT_LENGTH_LENGTH + ddpHeaderLength + (withRdma ? rdmaHeaderLength : 0);
            buffer.putBytes(offset + length, source, fpduOffset, copy);
            length += copy;
        }
        return length;
    }
}
