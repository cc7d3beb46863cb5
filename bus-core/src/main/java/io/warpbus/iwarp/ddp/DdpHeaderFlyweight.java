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
package io.warpbus.iwarp.ddp;

import java.nio.ByteOrder;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A DDP segment header (RFC 5041 sections 4.1 to 4.3), wrapped at the first byte of the ULPDU.
 * <pre>
 * Tagged (14 bytes):
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |T|L| Rsvd  | DV|   RsvdULP     |             STag              ~
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  ~      STag      |            Tagged Offset (64)                ~
 *  ~                                                               |
 *
 * Untagged (18 bytes):
 *  |T|L| Rsvd  | DV|   RsvdULP     |     RsvdULP (32 bits)         ~
 *  ~               |          Queue Number (32)                    ~
 *  ~               |  Message Sequence Number (32)                 ~
 *  ~               |          Message Offset (32)                  ~
 * </pre>
 * T: tagged model. L: last segment of the message. DV: DDP version, 1. The first 8 RsvdULP bits carry the RDMAP
 * control byte; the next 32 (untagged only) carry RDMAP's Invalidate STag. All fields are big-endian.
 */
public final class DdpHeaderFlyweight
{
    /** Length of a tagged header. */
    public static final int TAGGED_HEADER_LENGTH = 14;
    /** Length of an untagged header. */
    public static final int UNTAGGED_HEADER_LENGTH = 18;
    /** The DDP version this implementation speaks. */
    public static final int VERSION = 1;

    /** Tagged flag in the control byte. */
    public static final int FLAG_TAGGED = 0x80;
    /** Last flag in the control byte. */
    public static final int FLAG_LAST = 0x40;
    private static final int VERSION_MASK = 0x03;

    /** Queue number of Sends. */
    public static final int QN_SEND = 0;
    /** Queue number of RDMA Read Requests. */
    public static final int QN_READ_REQUEST = 1;
    /** Queue number of Terminates. */
    public static final int QN_TERMINATE = 2;

    private static final int CONTROL_OFFSET = 0;
    private static final int RSVD_ULP_OFFSET = 1;
    private static final int STAG_OFFSET = 2;
    private static final int TAGGED_OFFSET_OFFSET = 6;
    private static final int RSVD_ULP32_OFFSET = 2;
    private static final int QN_OFFSET = 6;
    private static final int MSN_OFFSET = 10;
    private static final int MO_OFFSET = 14;

    private DirectBuffer buffer;
    private int offset;

    /**
     * Wrap a header.
     *
     * @param buffer holding the segment.
     * @param offset of the control byte.
     * @return this for a fluent API.
     */
    public DdpHeaderFlyweight wrap(final DirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    /**
     * Offset the flyweight is wrapped at.
     *
     * @return the offset.
     */
    public int offset()
    {
        return offset;
    }

    /**
     * The control byte.
     *
     * @return T, L, reserved and DV bits as an unsigned byte.
     */
    public int control()
    {
        return buffer.getByte(offset + CONTROL_OFFSET) & 0xFF;
    }

    /**
     * Tagged model?
     *
     * @return true when T=1.
     */
    public boolean isTagged()
    {
        return (control() & FLAG_TAGGED) != 0;
    }

    /**
     * Last segment of its message?
     *
     * @return true when L=1.
     */
    public boolean isLast()
    {
        return (control() & FLAG_LAST) != 0;
    }

    /**
     * DDP version.
     *
     * @return DV.
     */
    public int version()
    {
        return control() & VERSION_MASK;
    }

    /**
     * First 8 bits of RsvdULP: the RDMAP control byte.
     *
     * @return unsigned byte.
     */
    public int rsvdUlp()
    {
        return buffer.getByte(offset + RSVD_ULP_OFFSET) & 0xFF;
    }

    /**
     * Header length for this segment's model.
     *
     * @return 14 or 18.
     */
    public int headerLength()
    {
        return isTagged() ? TAGGED_HEADER_LENGTH : UNTAGGED_HEADER_LENGTH;
    }

    /**
     * Tagged: the STag.
     *
     * @return STag.
     */
    public int stag()
    {
        return buffer.getInt(offset + STAG_OFFSET, ByteOrder.BIG_ENDIAN);
    }

    /**
     * Tagged: the tagged offset (unsigned 64 bits on the wire).
     *
     * @return TO.
     */
    public long taggedOffset()
    {
        return buffer.getLong(offset + TAGGED_OFFSET_OFFSET, ByteOrder.BIG_ENDIAN);
    }

    /**
     * Untagged: the 32 RsvdULP bits after the RDMAP control byte (RDMAP's Invalidate STag).
     *
     * @return the field.
     */
    public int rsvdUlp32()
    {
        return buffer.getInt(offset + RSVD_ULP32_OFFSET, ByteOrder.BIG_ENDIAN);
    }

    /**
     * Untagged: queue number.
     *
     * @return QN (unsigned 32 bits on the wire).
     */
    public int queueNumber()
    {
        return buffer.getInt(offset + QN_OFFSET, ByteOrder.BIG_ENDIAN);
    }

    /**
     * Untagged: message sequence number.
     *
     * @return MSN.
     */
    public int msn()
    {
        return buffer.getInt(offset + MSN_OFFSET, ByteOrder.BIG_ENDIAN);
    }

    /**
     * Untagged: message offset of this segment's payload.
     *
     * @return MO (unsigned 32 bits on the wire).
     */
    public int messageOffset()
    {
        return buffer.getInt(offset + MO_OFFSET, ByteOrder.BIG_ENDIAN);
    }

    /**
     * Write a tagged header.
     *
     * @param buffer       to write into.
     * @param offset       of the control byte.
     * @param last         L flag.
     * @param rsvdUlp      RDMAP control byte.
     * @param stag         STag.
     * @param taggedOffset TO.
     * @return the header length.
     */
    public static int putTagged(
        final MutableDirectBuffer buffer,
        final int offset,
        final boolean last,
        final int rsvdUlp,
        final int stag,
        final long taggedOffset)
    {
        buffer.putByte(offset + CONTROL_OFFSET, (byte)(FLAG_TAGGED | (last ? FLAG_LAST : 0) | VERSION));
        buffer.putByte(offset + RSVD_ULP_OFFSET, (byte)rsvdUlp);
        buffer.putInt(offset + STAG_OFFSET, stag, ByteOrder.BIG_ENDIAN);
        buffer.putLong(offset + TAGGED_OFFSET_OFFSET, taggedOffset, ByteOrder.BIG_ENDIAN);
        return TAGGED_HEADER_LENGTH;
    }

    /**
     * Write an untagged header.
     *
     * @param buffer        to write into.
     * @param offset        of the control byte.
     * @param last          L flag.
     * @param rsvdUlp       RDMAP control byte.
     * @param rsvdUlp32     the next 32 RsvdULP bits (Invalidate STag or 0).
     * @param queueNumber   QN.
     * @param msn           MSN.
     * @param messageOffset MO.
     * @return the header length.
     */
    public static int putUntagged(
        final MutableDirectBuffer buffer,
        final int offset,
        final boolean last,
        final int rsvdUlp,
        final int rsvdUlp32,
        final int queueNumber,
        final int msn,
        final int messageOffset)
    {
        buffer.putByte(offset + CONTROL_OFFSET, (byte)((last ? FLAG_LAST : 0) | VERSION));
        buffer.putByte(offset + RSVD_ULP_OFFSET, (byte)rsvdUlp);
        buffer.putInt(offset + RSVD_ULP32_OFFSET, rsvdUlp32, ByteOrder.BIG_ENDIAN);
        buffer.putInt(offset + QN_OFFSET, queueNumber, ByteOrder.BIG_ENDIAN);
        buffer.putInt(offset + MSN_OFFSET, msn, ByteOrder.BIG_ENDIAN);
        buffer.putInt(offset + MO_OFFSET, messageOffset, ByteOrder.BIG_ENDIAN);
        return UNTAGGED_HEADER_LENGTH;
    }
}
