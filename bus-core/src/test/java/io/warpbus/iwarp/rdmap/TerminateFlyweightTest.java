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

import java.util.Random;

import io.warpbus.iwarp.ddp.DdpHeaderFlyweight;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static io.warpbus.testing.WireTestSupport.bytes;
import static io.warpbus.testing.WireTestSupport.directBuffer;
import static io.warpbus.testing.WireTestSupport.hex;
import static io.warpbus.testing.WireTestSupport.replay;
import static io.warpbus.testing.WireTestSupport.seed;
import static io.warpbus.testing.WireTestSupport.toHex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

class TerminateFlyweightTest
{
    private static final int ITERATIONS = 10_000;
    private static final int CAPACITY = 256;
    private static final byte SENTINEL = (byte)0xEE;
    /** An RDMA Write FPDU start: ULPDU_Length 30, tagged + last, STag 0x1234, TO 0x1000, then payload. */
    private static final String WRITE_FPDU =
        "00 1e c1 40 00 00 12 34 00 00 00 00 00 00 10 00 ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab";
    /** A Read Request FPDU: QN 1, MSN 3, sink STag 5 at TO 0x2000, 0x1000 bytes from STag 0xbeef at TO 0x40. */
    private static final String READ_REQUEST_FPDU =
        "00 2e 41 41 00 00 00 00 00 00 00 01 00 00 00 03 00 00 00 00" +
        "00 00 00 05 00 00 00 00 00 00 20 00 00 00 10 00 00 00 be ef 00 00 00 00 00 00 00 40";
    /** A zero-length Send FPDU, QN 0, MSN 9. */
    private static final String SEND_FPDU = "00 12 41 43 00 00 00 00 00 00 00 00 00 00 00 09 00 00 00 00";

    private final UnsafeBuffer buffer = directBuffer(CAPACITY);
    private final UnsafeBuffer source = directBuffer(CAPACITY);
    private final TerminateFlyweight terminate = new TerminateFlyweight();

    @Test
    void shouldAllowForUntaggedAndReadRequestHeaders()
    {
        // 4 control + 2 segment length + 18 untagged DDP header + 28 Read Request header.
        assertEquals(52, TerminateFlyweight.MAX_LENGTH);
    }

    @Test
    void shouldCopyLengthAndTaggedHeaderForDdpInvalidStag()
    {
        buffer.setMemory(0, CAPACITY, SENTINEL);
        source.putBytes(8, hex(WRITE_FPDU));

        final int length = TerminateFlyweight.put(
            buffer, 0, TerminateError.DDP_TAGGED_INVALID_STAG, source, 8, DdpHeaderFlyweight.TAGGED_HEADER_LENGTH, 0);

        assertEquals(20, length);
        assertArrayEquals(
            hex("11 00 c0 00 00 1e c1 40 00 00 12 34 00 00 00 00 00 00 10 00 ee"), bytes(buffer, 0, 21));
    }

    @Test
    void shouldCopyUntaggedAndReadRequestHeadersForRemoteProtectionError()
    {
        buffer.setMemory(0, CAPACITY, SENTINEL);
        source.putBytes(0, hex(READ_REQUEST_FPDU));

        final int length = TerminateFlyweight.put(buffer, 4, TerminateError.RDMAP_INVALID_STAG, source, 0,
            DdpHeaderFlyweight.UNTAGGED_HEADER_LENGTH, ReadRequestFlyweight.LENGTH);

        assertEquals(52, length);
        assertArrayEquals(hex("01 00 e0 00" + READ_REQUEST_FPDU + "ee"), bytes(buffer, 4, 53));
    }

    @Test
    void shouldCopyUntaggedHeaderWithoutRdmaHeaderForRemoteOperationError()
    {
        source.putBytes(0, hex(SEND_FPDU));

        final int length = TerminateFlyweight.put(buffer, 0, TerminateError.RDMAP_UNEXPECTED_OPCODE, source, 0,
            DdpHeaderFlyweight.UNTAGGED_HEADER_LENGTH, 0);

        assertEquals(24, length);
        assertArrayEquals(hex("02 06 c0 00" + SEND_FPDU), bytes(buffer, 0, 24));
    }

    @Test
    void shouldWriteOnlyControlForMpaError()
    {
        buffer.setMemory(0, CAPACITY, (byte)0xFF);

        final int length = TerminateFlyweight.put(buffer, 0, TerminateError.MPA_CRC, null, 0, 0, 0);

        assertEquals(4, length);
        assertArrayEquals(hex("20 02 00 00 ff"), bytes(buffer, 0, 5));
    }

    @Test
    void shouldWriteOnlyControlForRdmapLocalCatastrophic()
    {
        buffer.setMemory(0, CAPACITY, (byte)0xFF);

        final int length = TerminateFlyweight.put(buffer, 0, TerminateError.RDMAP_LOCAL_CATASTROPHIC, null, 0, 0, 0);

        assertEquals(4, length);
        assertArrayEquals(hex("00 00 00 00 ff"), bytes(buffer, 0, 5));
    }

    @Test
    void shouldNotCopyRdmaHeaderWithoutDdpHeader()
    {
        source.putBytes(0, hex(READ_REQUEST_FPDU));

        final int length = TerminateFlyweight.put(buffer, 0, TerminateError.RDMAP_INVALID_STAG, source, 0, 0,
            ReadRequestFlyweight.LENGTH);

        assertEquals(4, length);
        assertArrayEquals(hex("01 00 00 00"), bytes(buffer, 0, 4));
    }

    @Test
    void shouldDecodeHandWrittenTerminateControl()
    {
        buffer.putBytes(10, hex("12 05 ff ff 01 23"));

        terminate.wrap(buffer, 10);

        assertEquals(1, terminate.layer());
        assertEquals(2, terminate.errorType());
        assertEquals(5, terminate.errorCode());
        assertEquals(TerminateFlyweight.FLAG_M | TerminateFlyweight.FLAG_D | TerminateFlyweight.FLAG_R,
            terminate.headerFlags());
        assertEquals(0x0123, terminate.ddpSegmentLength());
        assertEquals(16, terminate.ddpHeaderOffset());
        assertSame(TerminateError.DDP_UNTAGGED_TOO_LONG, terminate.error());
    }

    @Test
    void shouldUseRfc5040FlagBits()
    {
        assertEquals(0x80, TerminateFlyweight.FLAG_M);
        assertEquals(0x40, TerminateFlyweight.FLAG_D);
        assertEquals(0x20, TerminateFlyweight.FLAG_R);
    }

    @Test
    void shouldDecodeTopLayerNibbleUnsigned()
    {
        buffer.putBytes(0, hex("f3 80 00 00"));

        terminate.wrap(buffer, 0);

        assertEquals(15, terminate.layer());
        assertEquals(3, terminate.errorType());
        assertEquals(0x80, terminate.errorCode());
        assertNull(terminate.error());
    }

    @Test
    void shouldLetCopiedTaggedHeaderBeReadWhereTerminateSaysItIs()
    {
        source.putBytes(0, hex(WRITE_FPDU));
        TerminateFlyweight.put(buffer, 2, TerminateError.DDP_TAGGED_BASE_BOUNDS, source, 0, 14, 0);

        terminate.wrap(buffer, 2);
        final DdpHeaderFlyweight copied = new DdpHeaderFlyweight().wrap(buffer, terminate.ddpHeaderOffset());

        assertEquals(30, terminate.ddpSegmentLength());
        assertEquals(0x1234, copied.stag());
        assertEquals(0x1000L, copied.taggedOffset());
    }

    @Test
    void shouldDecodeWhatWasEncodedForRandomErrorsAndHeaders()
    {
        final long seed = seed();
        final Random random = new Random(seed);
        final TerminateError[] errors = TerminateError.values();
        final int[] ddpLengths = {
            0, DdpHeaderFlyweight.TAGGED_HEADER_LENGTH, DdpHeaderFlyweight.UNTAGGED_HEADER_LENGTH };
        final byte[] fpdu = new byte[64];
        for (int i = 0; i < ITERATIONS; i++)
        {
            final String at = replay(seed, i);
            final TerminateError error = errors[random.nextInt(errors.length)];
            random.nextBytes(fpdu);
            final int fpduOffset = random.nextInt(CAPACITY - fpdu.length + 1);
            source.putBytes(fpduOffset, fpdu);
            final boolean withSource = random.nextInt(4) != 0;
            final int ddpLength = ddpLengths[random.nextInt(ddpLengths.length)];
            final int rdmaLength = random.nextBoolean() ? ReadRequestFlyweight.LENGTH : 0;
            final int offset = random.nextInt(CAPACITY - TerminateFlyweight.MAX_LENGTH + 1);
            final boolean withDdp = withSource && ddpLength > 0;
            final boolean withRdma = withDdp && rdmaLength > 0;
            final int copied = withDdp ? 2 + ddpLength + (withRdma ? rdmaLength : 0) : 0;

            final int length = TerminateFlyweight.put(
                buffer, offset, error, withSource ? source : null, fpduOffset, ddpLength, rdmaLength);
            terminate.wrap(buffer, offset);

            assertEquals(4 + copied, length, at);
            assertSame(error, terminate.error(), at);
            assertEquals(error.layer().ordinal(), terminate.layer(), at);
            assertEquals(error.errorType(), terminate.errorType(), at);
            assertEquals(error.code(), terminate.errorCode(), at);
            assertEquals((withDdp ? 0xC0 : 0) | (withRdma ? 0x20 : 0), terminate.headerFlags(), at);
            assertEquals(0, buffer.getByte(offset + 2) & 0x1F, at);
            assertEquals(0, buffer.getByte(offset + 3), at);
            if (withDdp)
            {
                assertEquals((fpdu[0] & 0xFF) << 8 | fpdu[1] & 0xFF, terminate.ddpSegmentLength(), at);
                assertArrayEquals(bytes(source, fpduOffset, copied), bytes(buffer, offset + 4, copied), at);
            }
        }
    }

    @Test
    void shouldDecodeRandomBytesWithoutThrowing()
    {
        final long seed = seed();
        final Random random = new Random(seed);
        final byte[] raw = new byte[8];
        for (int i = 0; i < ITERATIONS; i++)
        {
            random.nextBytes(raw);
            if (random.nextBoolean())
            {
                // Keep the layer and type in the defined range half the time so matches happen.
                raw[0] = (byte)(random.nextInt(3) << 4 | random.nextInt(3));
                raw[1] = (byte)random.nextInt(10);
            }
            final int offset = random.nextInt(CAPACITY - raw.length + 1);
            buffer.putBytes(offset, raw);
            final String at = replay(seed, i) + " terminate " + toHex(raw);
            final int layer = (raw[0] & 0xF0) >> 4;
            final int errorType = raw[0] & 0x0F;
            final int code = raw[1] & 0xFF;

            final TerminateError error = assertDoesNotThrow(() -> terminate.wrap(buffer, offset).error(), at);

            assertEquals(layer, terminate.layer(), at);
            assertEquals(errorType, terminate.errorType(), at);
            assertEquals(code, terminate.errorCode(), at);
            assertEquals(raw[2] & 0xE0, terminate.headerFlags(), at);
            assertEquals((raw[4] & 0xFF) << 8 | raw[5] & 0xFF, terminate.ddpSegmentLength(), at);
            assertSame(expectedError(layer, errorType, code), error, at);
        }
    }

    /**
     * The error with these numbers, by a plain scan of the table; RDMAP local catastrophic takes any code.
     */
    private static TerminateError expectedError(final int layer, final int errorType, final int code)
    {
        for (final TerminateError candidate : TerminateError.values())
        {
            final boolean anyCode = TerminateError.RDMAP_LOCAL_CATASTROPHIC == candidate;
            if (candidate.layer().ordinal() == layer && candidate.errorType() == errorType &&
                (anyCode || candidate.code() == code))
            {
                return candidate;
            }
        }
        return null;
    }
}
