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
import java.nio.charset.StandardCharsets;
import java.util.Random;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The server's side of RFC 6455 framing: masked client frames decoded in place, every rule of section 5 that makes
 * a frame invalid, oversize frames reported from their header alone, and any bytes at all decoded without an
 * exception.
 */
class ServerFramesTest
{
    private static final byte[] MASK = { 0x37, (byte)0xfa, 0x21, 0x3d };

    private final ServerFrames frames = new ServerFrames();

    @Test
    void shouldDecodeTheRfcsMaskedHelloExample()
    {
        // RFC 6455 5.7: a single-frame masked text message containing "Hello".
        final ByteBuffer in = ByteBuffer.wrap(new byte[] { (byte)0x81, (byte)0x85, 0x37, (byte)0xfa, 0x21, 0x3d,
            0x7f, (byte)0x9f, 0x4d, 0x51, 0x58 });

        assertEquals(ServerFrames.FRAME, frames.decode(in, 4096));
        assertTrue(frames.fin);
        assertEquals(ServerFrames.OP_TEXT, frames.opcode);
        assertEquals(11, frames.frameLength());
        assertEquals("Hello", new String(in.array(), frames.payloadOffset, (int)frames.payloadLength,
            StandardCharsets.UTF_8));
        assertEquals(0, in.position(), "decoding does not consume");
    }

    @Test
    void shouldDecodeSixteenAndSixtyFourBitLengths()
    {
        final byte[] medium = new byte[300];
        final byte[] large = new byte[70_000];
        new Random(7).nextBytes(large);

        assertEquals(ServerFrames.FRAME, frames.decode(ByteBuffer.wrap(clientFrame(0x82, medium)), 100_000));
        assertEquals(300, frames.payloadLength);
        assertEquals(2 + 2 + 4, frames.headerLength);
        final ByteBuffer in = ByteBuffer.wrap(clientFrame(0x82, large));
        assertEquals(ServerFrames.FRAME, frames.decode(in, 100_000));
        assertEquals(70_000, frames.payloadLength);
        assertEquals(2 + 8 + 4, frames.headerLength);
        assertEquals(large[69_999], in.get(frames.payloadOffset + 69_999), "unmasked in place");
    }

    @Test
    void shouldWaitForTheRestOfAFrameThatArrivedInPieces()
    {
        final byte[] whole = clientFrame(0x81, "{\"type\":\"heartbeat\"}".getBytes(StandardCharsets.UTF_8));
        for (int cut = 0; cut < whole.length; cut++)
        {
            assertEquals(ServerFrames.NEED_MORE, frames.decode(ByteBuffer.wrap(whole, 0, cut), 4096), "cut at " +
                cut);
        }
        assertEquals(ServerFrames.FRAME, frames.decode(ByteBuffer.wrap(whole), 4096));
    }

    @Test
    void shouldReportAnOversizeDataFrameFromItsHeader()
    {
        final ByteBuffer header = ByteBuffer.allocate(14).put((byte)0x81).put((byte)(0x80 | 127)).putLong(1L << 40)
            .put(MASK).flip();

        assertEquals(ServerFrames.OVERSIZE, frames.decode(header, 4096));
        assertEquals(1L << 40, frames.payloadLength);
        assertEquals(14, frames.headerLength);
    }

    @Test
    void shouldRefuseWhatSectionFiveForbids()
    {
        assertInvalid(new byte[] { (byte)0x81, 0x00 }, "unmasked");
        assertInvalid(new byte[] { (byte)0xC1, (byte)0x80, 0, 0, 0, 0 }, "reserved bits");
        assertInvalid(new byte[] { (byte)0x83, (byte)0x80, 0, 0, 0, 0 }, "opcode 3");
        assertInvalid(new byte[] { (byte)0x8B, (byte)0x80, 0, 0, 0, 0 }, "opcode 11");
        assertInvalid(new byte[] { (byte)0x09, (byte)0x80, 0, 0, 0, 0 }, "fragmented ping");
        assertInvalid(new byte[] { (byte)0x89, (byte)(0x80 | 126), 0, 126, 0, 0, 0, 0 }, "ping of 126 bytes");
        assertInvalid(new byte[] { (byte)0x82, (byte)(0x80 | 127), (byte)0x80, 0, 0, 0, 0, 0, 0, 0 },
            "negative 64-bit length");
    }

    @Test
    void shouldWriteHeadersAClientCanRead()
    {
        for (final int length : new int[] { 0, 125, 126, 65_535, 65_536 })
        {
            final ByteBuffer out = ByteBuffer.allocate(ServerFrames.MAX_SERVER_HEADER);
            ServerFrames.putHeader(out, ServerFrames.OP_TEXT, length);

            assertEquals(ServerFrames.headerLength(length), out.position(), "header of " + length);
            assertEquals((byte)0x81, out.get(0));
            final int length7 = out.get(1) & 0x7F;
            assertEquals(0, out.get(1) & 0x80, "a server never masks");
            final long decoded = length7 < 126 ? length7 : 126 == length7 ? out.getShort(2) & 0xFFFF : out.getLong(2);
            assertEquals(length, decoded);
        }
    }

    @Test
    void shouldDecodeRandomAndMutatedBytesWithoutAnException()
    {
        final Random random = new Random(42);
        final byte[] valid = clientFrame(0x81, "{\"type\":\"logon\"}".getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < 100_000; i++)
        {
            final byte[] bytes;
            if (0 == (i & 1))
            {
                bytes = new byte[random.nextInt(32)];
                random.nextBytes(bytes);
            }
            else
            {
                bytes = valid.clone();
                bytes[random.nextInt(bytes.length)] ^= (byte)(1 << random.nextInt(8));
            }
            final ByteBuffer in = ByteBuffer.wrap(bytes);
            final int result = frames.decode(in, 4096);
            if (ServerFrames.FRAME == result)
            {
                assertTrue(frames.frameLength() <= bytes.length, "a frame within the bytes given");
                assertTrue(frames.payloadLength <= 4096);
            }
            if (ServerFrames.INVALID == result)
            {
                assertFalse(frames.error.isEmpty());
            }
        }
    }

    private void assertInvalid(final byte[] frame, final String what)
    {
        assertEquals(ServerFrames.INVALID, frames.decode(ByteBuffer.wrap(frame), 4096), what);
        assertFalse(frames.error.isEmpty(), what);
    }

    /**
     * A frame as a client sends it, masked.
     */
    static byte[] clientFrame(final int first, final byte[] payload)
    {
        final int lengthBytes = payload.length < 126 ? 0 : payload.length <= 0xFFFF ? 2 : 8;
        final ByteBuffer frame = ByteBuffer.allocate(2 + lengthBytes + 4 + payload.length);
        frame.put((byte)first);
        if (0 == lengthBytes)
        {
            frame.put((byte)(0x80 | payload.length));
        }
        else if (2 == lengthBytes)
        {
            frame.put((byte)(0x80 | 126)).putShort((short)payload.length);
        }
        else
        {
            frame.put((byte)(0x80 | 127)).putLong(payload.length);
        }
        frame.put(MASK);
        for (int i = 0; i < payload.length; i++)
        {
            frame.put((byte)(payload[i] ^ MASK[i & 3]));
        }
        return frame.array();
    }
}
