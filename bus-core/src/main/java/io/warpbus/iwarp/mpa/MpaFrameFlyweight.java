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

import java.nio.ByteOrder;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The MPA Request and Reply frames of the startup phase (RFC 5044 section 7.1.1, RFC 6581 sections 6 and 9).
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |      Key: "MPA ID Req Frame" or "MPA ID Rep Frame" (16)       |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |M|C|R|S|  Res  |     Rev       |          PD_Length            |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |A|B|        IRD (14)           |C|D|        ORD (14)           |  only when S=1 (RFC 6581 section 9)
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |               Private Data (PD_Length bytes, at most 512)     ~
 * </pre>
 * M: the sender of the frame wants markers in FPDUs sent to it. C: the sender wants CRC (CRC is used when either
 * frame has C=1). R: in a Reply, the connection is rejected. S: private data starts with the 4 bytes of enhanced
 * connection data; PD_Length counts them.
 */
public final class MpaFrameFlyweight
{
    /** Length of the fixed part: key, flags, revision and PD_Length. */
    public static final int HEADER_LENGTH = 20;
    /** Length of the RFC 6581 enhanced connection data at the start of the private data. */
    public static final int ENHANCED_DATA_LENGTH = 4;
    /** Most private data a frame may carry (RFC 5044 section 7.1.1). */
    public static final int MAX_PRIVATE_DATA_LENGTH = 512;
    /** Longest frame. */
    public static final int MAX_FRAME_LENGTH = HEADER_LENGTH + MAX_PRIVATE_DATA_LENGTH;

    /** Flag bits of byte 16. */
    public static final int FLAG_MARKERS = 0x80;
    /** CRC wanted. */
    public static final int FLAG_CRC = 0x40;
    /** Rejected (Reply only). */
    public static final int FLAG_REJECT = 0x20;
    /** Enhanced connection data present (RFC 6581). */
    public static final int FLAG_ENHANCED = 0x10;

    /** Peer-to-peer model (A). */
    public static final int ENHANCED_PEER_TO_PEER = 0x8000;
    /** Zero-length Send ready-to-receive (B). */
    public static final int ENHANCED_RTR_SEND = 0x4000;
    /** Zero-length RDMA Write ready-to-receive (C), in the ORD half-word. */
    public static final int ENHANCED_RTR_WRITE = 0x8000;
    /** Zero-length RDMA Read ready-to-receive (D), in the ORD half-word. */
    public static final int ENHANCED_RTR_READ = 0x4000;
    /** Mask of the 14-bit IRD and ORD values. */
    public static final int IRD_ORD_MASK = 0x3FFF;
    /** IRD/ORD value meaning "no automatic negotiation" (RFC 6581 section 9.1). */
    public static final int IRD_ORD_NO_NEGOTIATION = 0x3FFF;

    private static final byte[] REQUEST_KEY = {
        'M', 'P', 'A', ' ', 'I', 'D', ' ', 'R', 'e', 'q', ' ', 'F', 'r', 'a', 'm', 'e' };
    private static final byte[] REPLY_KEY = {
        'M', 'P', 'A', ' ', 'I', 'D', ' ', 'R', 'e', 'p', ' ', 'F', 'r', 'a', 'm', 'e' };
    private static final int KEY_LENGTH = 16;
    private static final int FLAGS_OFFSET = 16;
    private static final int REVISION_OFFSET = 17;
    private static final int PD_LENGTH_OFFSET = 18;
    private static final int IRD_OFFSET = 20;
    private static final int ORD_OFFSET = 22;

    /** Which key a frame starts with. */
    public enum Kind
    {
        /** "MPA ID Req Frame". */
        REQUEST,
        /** "MPA ID Rep Frame". */
        REPLY,
        /** Neither key. */
        UNKNOWN
    }

    private DirectBuffer buffer;
    private int offset;

    /**
     * Wrap a frame.
     *
     * @param buffer holding the frame.
     * @param offset of its first byte.
     * @return this for a fluent API.
     */
    public MpaFrameFlyweight wrap(final DirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    /**
     * Which key the frame carries; needs 16 bytes.
     *
     * @return the kind.
     */
    public Kind kind()
    {
        if (keyEquals(REQUEST_KEY))
        {
            return Kind.REQUEST;
        }
        return keyEquals(REPLY_KEY) ? Kind.REPLY : Kind.UNKNOWN;
    }

    /**
     * The flags byte (M, C, R, S and the reserved bits).
     *
     * @return flags as an unsigned byte.
     */
    public int flags()
    {
        return buffer.getByte(offset + FLAGS_OFFSET) & 0xFF;
    }

    /**
     * Is a flag set?
     *
     * @param flag one of the FLAG_ constants.
     * @return true when set.
     */
    public boolean hasFlag(final int flag)
    {
        return (flags() & flag) != 0;
    }

    /**
     * MPA revision.
     *
     * @return the revision as an unsigned byte.
     */
    public int revision()
    {
        return buffer.getByte(offset + REVISION_OFFSET) & 0xFF;
    }

    /**
     * Length of the private data, including enhanced data when S=1.
     *
     * @return PD_Length.
     */
    public int privateDataLength()
    {
        return buffer.getShort(offset + PD_LENGTH_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * Whole frame length as declared by PD_Length.
     *
     * @return 20 + PD_Length.
     */
    public int frameLength()
    {
        return HEADER_LENGTH + privateDataLength();
    }

    /**
     * Does the frame carry RFC 6581 enhanced connection data? Only from revision 2: in a revision 1 frame the S bit
     * is reserved and not checked (RFC 5044 section 7.1.1).
     *
     * @return true when the revision is at least 2 and S=1.
     */
    public boolean isEnhanced()
    {
        return revision() >= 2 && hasFlag(FLAG_ENHANCED);
    }

    /**
     * The IRD half-word of the enhanced data, with the A and B flags.
     *
     * @return 16 bits.
     */
    public int enhancedIrdWord()
    {
        return buffer.getShort(offset + IRD_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * The ORD half-word of the enhanced data, with the C and D flags.
     *
     * @return 16 bits.
     */
    public int enhancedOrdWord()
    {
        return buffer.getShort(offset + ORD_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * Offset of the application's part of the private data (after the enhanced data when S=1).
     *
     * @return buffer offset.
     */
    public int applicationDataOffset()
    {
        return offset + HEADER_LENGTH + (isEnhanced() ? ENHANCED_DATA_LENGTH : 0);
    }

    /**
     * Length of the application's part of the private data.
     *
     * @return bytes, never negative for a frame that passed {@link #validate(int)}.
     */
    public int applicationDataLength()
    {
        return privateDataLength() - (isEnhanced() ? ENHANCED_DATA_LENGTH : 0);
    }

    /**
     * Copy the application's private data out.
     *
     * @return a new array.
     */
    public byte[] applicationData()
    {
        final byte[] data = new byte[applicationDataLength()];
        buffer.getBytes(applicationDataOffset(), data);
        return data;
    }

    /**
     * Check the frame for the faults RFC 5044 section 7.1.2 says close the connection.
     * <p>
     * A Reply must also be of a revision this peer speaks, 1 or 2: section 7.1.1 says a receiver that cannot
     * interoperate with the revision MUST close the connection. A Request's revision is left to
     * {@link MpaNegotiation#refusal(MpaFrameFlyweight)}, so that, as appendix C asks, it gets a rejecting Reply.
     *
     * @param expected the key this side expects.
     * @return null when well formed, else what is wrong.
     */
    public String validate(final Kind expected)
    {
        final Kind kind = kind();
        if (kind != expected)
        {
            return Kind.UNKNOWN == kind ?
                "MPA " + expected.name().toLowerCase() + " frame has an unknown key" :
                "MPA " + expected.name().toLowerCase() + " expected but an MPA " + kind.name().toLowerCase() +
                " frame arrived (both sides acting as " + (Kind.REQUEST == kind ? "initiator)" : "responder)");
        }
        final int pdLength = privateDataLength();
        if (pdLength > MAX_PRIVATE_DATA_LENGTH)
        {
            return "MPA " + expected.name().toLowerCase() + " private data length " + pdLength +
                " exceeds the limit of " + MAX_PRIVATE_DATA_LENGTH;
        }
        if (isEnhanced() && pdLength < ENHANCED_DATA_LENGTH)
        {
            return "MPA " + expected.name().toLowerCase() + " has the enhanced (S) flag but only " + pdLength +
                " bytes of private data";
        }
        final int revision = revision();
        if (Kind.REPLY == expected && revision != 1 && revision != 2)
        {
            return "MPA reply revision " + revision + " is not supported: this peer speaks revisions 1 and 2";
        }
        return null;
    }

    /**
     * Encode a frame.
     *
     * @param buffer          to write into.
     * @param offset          where the frame starts.
     * @param kind            request or reply.
     * @param flags           FLAG_ constants (FLAG_ENHANCED is set here when enhanced is true).
     * @param revision        MPA revision.
     * @param enhanced        whether to write the 4 bytes of enhanced data.
     * @param irdWord         IRD value with the A and B flags, when enhanced.
     * @param ordWord         ORD value with the C and D flags, when enhanced.
     * @param applicationData private data from the application, may be empty.
     * @return the frame length.
     */
    public static int encode(
        final MutableDirectBuffer buffer,
        final int offset,
        final Kind kind,
        final int flags,
        final int revision,
        final boolean enhanced,
        final int irdWord,
        final int ordWord,
        final byte[] applicationData)
    {
        final int pdLength = applicationData.length + (enhanced ? ENHANCED_DATA_LENGTH : 0);
        if (pdLength > MAX_PRIVATE_DATA_LENGTH)
        {
            throw new IllegalArgumentException("private data of " + applicationData.length +
                " bytes is too long: at most " + (MAX_PRIVATE_DATA_LENGTH - (enhanced ? ENHANCED_DATA_LENGTH : 0)));
        }
        buffer.putBytes(offset, Kind.REQUEST == kind ? REQUEST_KEY : REPLY_KEY);
        buffer.putByte(offset + FLAGS_OFFSET, (byte)(flags | (enhanced ? FLAG_ENHANCED : 0)));
        buffer.putByte(offset + REVISION_OFFSET, (byte)revision);
        buffer.putShort(offset + PD_LENGTH_OFFSET, (short)pdLength, ByteOrder.BIG_ENDIAN);
        int dataOffset = offset + HEADER_LENGTH;
        if (enhanced)
        {
            buffer.putShort(offset + IRD_OFFSET, (short)irdWord, ByteOrder.BIG_ENDIAN);
            buffer.putShort(offset + ORD_OFFSET, (short)ordWord, ByteOrder.BIG_ENDIAN);
            dataOffset += ENHANCED_DATA_LENGTH;
        }
        buffer.putBytes(dataOffset, applicationData);
        return HEADER_LENGTH + pdLength;
    }

    private boolean keyEquals(final byte[] key)
    {
        for (int i = 0; i < KEY_LENGTH; i++)
        {
            if (buffer.getByte(offset + i) != key[i])
            {
                return false;
            }
        }
        return true;
    }
}
