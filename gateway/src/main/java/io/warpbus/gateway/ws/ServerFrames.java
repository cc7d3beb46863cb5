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
package io.warpbus.gateway.ws;

import java.nio.ByteBuffer;

/**
 * WebSocket framing (RFC 6455 section 5.2) as a server sees it: frames from a client are masked (section 5.3) and
 * are decoded and unmasked in place; frames to a client are written unmasked. One instance per I/O thread: the
 * fields describe the frame the last {@link #decode} found.
 */
final class ServerFrames
{
    static final int OP_CONTINUATION = 0x0;
    static final int OP_TEXT = 0x1;
    static final int OP_BINARY = 0x2;
    static final int OP_CLOSE = 0x8;
    static final int OP_PING = 0x9;
    static final int OP_PONG = 0xA;
    /** The longest frame header a server writes: two bytes and a 64-bit length; clients add a 4-byte mask. */
    static final int MAX_SERVER_HEADER = 10;
    /** Control frames carry at most this many bytes and are never fragmented (section 5.5). */
    static final int MAX_CONTROL_PAYLOAD = 125;

    /** Not a whole frame yet. */
    static final int NEED_MORE = 0;
    /** A whole frame: {@link #opcode}, {@link #fin}, payload at {@link #payloadOffset}, unmasked. */
    static final int FRAME = 1;
    /** A data frame whose payload exceeds the limit: its header is {@link #headerLength} bytes, to skip after. */
    static final int OVERSIZE = 2;
    /** A frame that breaks the protocol: {@link #error} says how; the connection ends with 1002. */
    static final int INVALID = 3;

    private static final int MASK_BIT = 0x80;
    private static final int FIN_BIT = 0x80;
    private static final int RESERVED_BITS = 0x70;
    private static final int LENGTH_16 = 126;
    private static final int LENGTH_64 = 127;
    private static final int MASK_KEY_BYTES = 4;

    boolean fin;
    int opcode;
    int headerLength;
    int payloadOffset;
    long payloadLength;
    String error;

    /**
     * Decode the frame that starts at the buffer's position, without moving it.
     *
     * @param buffer          bytes from the client, readable between position and limit.
     * @param maxPayloadBytes the largest data frame payload to decode; longer ones are reported as {@link #OVERSIZE}.
     * @return {@link #NEED_MORE}, {@link #FRAME}, {@link #OVERSIZE} or {@link #INVALID}.
     */
    int decode(final ByteBuffer buffer, final int maxPayloadBytes)
    {
        final int start = buffer.position();
        final int available = buffer.limit() - start;
        if (available < 2)
        {
            return NEED_MORE;
        }
        final int first = buffer.get(start) & 0xFF;
        final int second = buffer.get(start + 1) & 0xFF;
        fin = (first & FIN_BIT) != 0;
        opcode = first & 0x0F;
        if ((first & RESERVED_BITS) != 0)
        {
            return invalid("a frame with reserved bits set, but no extension was negotiated");
        }
        if ((second & MASK_BIT) == 0)
        {
            return invalid("an unmasked frame: a client must mask every frame (RFC 6455 5.1)");
        }
        if (opcode > OP_BINARY && opcode < OP_CLOSE || opcode > OP_PONG)
        {
            return invalid("unknown opcode " + opcode);
        }
        final int length7 = second & 0x7F;
        int header = 2;
        long length = length7;
        if (LENGTH_16 == length7)
        {
            if (available < 4)
            {
                return NEED_MORE;
            }
            length = buffer.getShort(start + 2) & 0xFFFF;
            header = 4;
        }
        else if (LENGTH_64 == length7)
        {
            if (available < 10)
            {
                return NEED_MORE;
            }
            length = buffer.getLong(start + 2);
            header = 10;
            if (length < 0)
            {
                return invalid("a 64-bit payload length with its most significant bit set");
            }
        }
        if (opcode >= OP_CLOSE && (!fin || length > MAX_CONTROL_PAYLOAD))
        {
            return invalid("a control frame that is fragmented or longer than 125 bytes");
        }
        header += MASK_KEY_BYTES;
        headerLength = header;
        payloadLength = length;
        if (length > maxPayloadBytes)
        {
            return OVERSIZE;
        }
        if (available < header + length)
        {
            return NEED_MORE;
        }
        payloadOffset = start + header;
        final int maskOffset = start + header - MASK_KEY_BYTES;
        for (int i = 0; i < length; i++)
        {
            final int index = payloadOffset + i;
            buffer.put(index, (byte)(buffer.get(index) ^ buffer.get(maskOffset + (i & 3))));
        }
        return FRAME;
    }

    /**
     * The whole frame's length after a {@link #FRAME}.
     *
     * @return header and payload bytes.
     */
    int frameLength()
    {
        return headerLength + (int)payloadLength;
    }

    private int invalid(final String why)
    {
        error = why;
        return INVALID;
    }

    /**
     * Write the header of an unmasked, final frame.
     *
     * @param out           where to, with room for {@link #MAX_SERVER_HEADER} bytes.
     * @param opcode        the frame's opcode.
     * @param payloadLength bytes that follow.
     */
    static void putHeader(final ByteBuffer out, final int opcode, final int payloadLength)
    {
        out.put((byte)(FIN_BIT | opcode));
        if (payloadLength < LENGTH_16)
        {
            out.put((byte)payloadLength);
        }
        else if (payloadLength <= 0xFFFF)
        {
            out.put((byte)LENGTH_16);
            out.putShort((short)payloadLength);
        }
        else
        {
            out.put((byte)LENGTH_64);
            out.putLong(payloadLength);
        }
    }

    /**
     * The header's length for a payload.
     *
     * @param payloadLength bytes of payload.
     * @return 2, 4 or 10.
     */
    static int headerLength(final int payloadLength)
    {
        return payloadLength < LENGTH_16 ? 2 : payloadLength <= 0xFFFF ? 4 : MAX_SERVER_HEADER;
    }
}
