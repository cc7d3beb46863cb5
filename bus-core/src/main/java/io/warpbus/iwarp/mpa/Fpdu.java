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
package io.warpbus.iwarp.mpa;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Framing of FPDUs in MPA full operation (RFC 5044 section 4.1), without markers.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |          ULPDU_Length         |            ULPDU              ~
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  ~                               |       PAD (0-3, zeros)        |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                          CRC32C                               |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * ULPDU_Length counts only the ULPDU. PAD makes the FPDU a multiple of 4 bytes. The CRC covers ULPDU_Length,
 * ULPDU and PAD. It is the standard CRC-32C (as {@link CRC32C} computes it) sent least significant byte first:
 * RFC 5044 does not say so in words, but its Figure 5 example, and iSCSI's digests it refers to, only check out
 * that way. The field is present even when CRC is not in use.
 */
public final class Fpdu
{
    /** Bytes of the ULPDU_Length field. */
    public static final int LENGTH_FIELD_LENGTH = 2;
    /** Bytes of the CRC field. */
    public static final int CRC_LENGTH = 4;
    /** Largest ULPDU a sender may post (RFC 5044 section 3). */
    public static final int MAX_SEND_ULPDU = 64768;
    /** Smallest MULPDU (RFC 5044 section 3). */
    public static final int MIN_MULPDU = 128;
    /** Largest FPDU a receiver can see: ULPDU_Length is 16 bits. */
    public static final int MAX_RECEIVE_FPDU = LENGTH_FIELD_LENGTH + 0xFFFF + 3 + CRC_LENGTH;

    private Fpdu()
    {
    }

    /**
     * Pad bytes after a ULPDU of this length.
     *
     * @param ulpduLength ULPDU_Length.
     * @return 0 to 3.
     */
    public static int padLength(final int ulpduLength)
    {
        return -(LENGTH_FIELD_LENGTH + ulpduLength) & 3;
    }

    /**
     * Whole FPDU length for a ULPDU of this length.
     *
     * @param ulpduLength ULPDU_Length.
     * @return bytes on the wire.
     */
    public static int fpduLength(final int ulpduLength)
    {
        return (LENGTH_FIELD_LENGTH + ulpduLength + 3 & ~3) + CRC_LENGTH;
    }

    /**
     * ULPDU_Length of the FPDU at {@code offset}.
     *
     * @param buffer holding at least two bytes at offset.
     * @param offset FPDU start.
     * @return the length, 0 to 65535.
     */
    public static int ulpduLength(final DirectBuffer buffer, final int offset)
    {
        return buffer.getShort(offset, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * MULPDU for an effective MSS with no markers (RFC 5044 section 4.5), clamped to [128, 64768].
     *
     * @param emss effective maximum segment size.
     * @return the largest ULPDU to put in one FPDU.
     */
    public static int mulpdu(final int emss)
    {
        final int mulpdu = emss - (LENGTH_FIELD_LENGTH + CRC_LENGTH + emss % 4);
        return Math.max(MIN_MULPDU, Math.min(MAX_SEND_ULPDU, mulpdu));
    }

    /**
     * Write ULPDU_Length and zero the pad after a ULPDU already in place.
     *
     * @param buffer      holding the FPDU.
     * @param offset      FPDU start.
     * @param ulpduLength length of the ULPDU at offset + 2.
     * @return offset of the CRC field.
     */
    public static int frame(final MutableDirectBuffer buffer, final int offset, final int ulpduLength)
    {
        buffer.putShort(offset, (short)ulpduLength, ByteOrder.BIG_ENDIAN);
        int index = offset + LENGTH_FIELD_LENGTH + ulpduLength;
        for (int pad = padLength(ulpduLength); pad > 0; pad--)
        {
            buffer.putByte(index++, (byte)0);
        }
        return index;
    }

    /**
     * Compute the CRC-32C of {@code [offset, offset + length)} of a direct buffer without allocating.
     *
     * @param crc    a reusable CRC32C.
     * @param bytes  the direct byte buffer behind the data.
     * @param offset first byte.
     * @param length number of bytes.
     * @return the CRC value.
     */
    public static int crc32c(final CRC32C crc, final ByteBuffer bytes, final int offset, final int length)
    {
        crc.reset();
        final int limit = bytes.limit();
        final int position = bytes.position();
        bytes.limit(offset + length).position(offset);
        crc.update(bytes);
        bytes.limit(limit).position(position);
        return (int)crc.getValue();
    }

    /**
     * Store a CRC value in the wire's byte order.
     *
     * @param buffer to write into.
     * @param index  of the CRC field.
     * @param crc    the value.
     */
    public static void putCrc(final MutableDirectBuffer buffer, final int index, final int crc)
    {
        buffer.putInt(index, crc, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * Read the CRC field.
     *
     * @param buffer holding the FPDU.
     * @param index  of the CRC field.
     * @return the value.
     */
    public static int getCrc(final DirectBuffer buffer, final int index)
    {
        return buffer.getInt(index, ByteOrder.LITTLE_ENDIAN);
    }
}
