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

import java.util.Random;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static io.warpbus.testing.WireTestSupport.bytes;
import static io.warpbus.testing.WireTestSupport.directBuffer;
import static io.warpbus.testing.WireTestSupport.hex;
import static io.warpbus.testing.WireTestSupport.replay;
import static io.warpbus.testing.WireTestSupport.seed;
import static io.warpbus.testing.WireTestSupport.toHex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DdpHeaderFlyweightTest
{
    private static final int ITERATIONS = 10_000;
    private static final int CAPACITY = 256;
    private static final byte SENTINEL = (byte)0xA5;

    private final UnsafeBuffer buffer = directBuffer(CAPACITY);
    private final DdpHeaderFlyweight header = new DdpHeaderFlyweight();

    @Test
    void shouldUseRfc5041HeaderLengthsQueueNumbersAndVersion()
    {
        assertEquals(14, DdpHeaderFlyweight.TAGGED_HEADER_LENGTH);
        assertEquals(18, DdpHeaderFlyweight.UNTAGGED_HEADER_LENGTH);
        assertEquals(1, DdpHeaderFlyweight.VERSION);
        assertEquals(0, DdpHeaderFlyweight.QN_SEND);
        assertEquals(1, DdpHeaderFlyweight.QN_READ_REQUEST);
        assertEquals(2, DdpHeaderFlyweight.QN_TERMINATE);
    }

    @Test
    void shouldEncodeLastSegmentOfRdmaWrite()
    {
        final int length = DdpHeaderFlyweight.putTagged(buffer, 0, true, 0x40, 0x12345678, 0x0102030405060708L);

        assertEquals(14, length);
        assertArrayEquals(hex("c1 40 12 34 56 78 01 02 03 04 05 06 07 08"), bytes(buffer, 0, 14));
    }

    @Test
    void shouldEncodeMiddleSegmentOfReadResponse()
    {
        DdpHeaderFlyweight.putTagged(buffer, 0, false, 0x42, 0xFEDCBA98, 0xFFFFFFFF00000010L);

        assertArrayEquals(hex("81 42 fe dc ba 98 ff ff ff ff 00 00 00 10"), bytes(buffer, 0, 14));
    }

    @Test
    void shouldEncodeLastSegmentOfSend()
    {
        final int length = DdpHeaderFlyweight.putUntagged(buffer, 0, true, 0x43, 0, 0, 1, 0);

        assertEquals(18, length);
        assertArrayEquals(hex("41 43 00 00 00 00 00 00 00 00 00 00 00 01 00 00 00 00"), bytes(buffer, 0, 18));
    }

    @Test
    void shouldEncodeMiddleSegmentOfSendWithInvalidateAndItsStag()
    {
        DdpHeaderFlyweight.putUntagged(buffer, 0, false, 0x44, 0xCAFEBABE, 0, 0x01020304, 1482);

        assertArrayEquals(hex("01 44 ca fe ba be 00 00 00 00 01 02 03 04 00 00 05 ca"), bytes(buffer, 0, 18));
    }

    @Test
    void shouldEncodeReadRequestOnQueueOne()
    {
        DdpHeaderFlyweight.putUntagged(buffer, 0, true, 0x41, 0, DdpHeaderFlyweight.QN_READ_REQUEST, 7, 0);

        assertArrayEquals(hex("41 41 00 00 00 00 00 00 00 01 00 00 00 07 00 00 00 00"), bytes(buffer, 0, 18));
    }

    @Test
    void shouldEncodeTerminateOnQueueTwo()
    {
        DdpHeaderFlyweight.putUntagged(buffer, 0, true, 0x47, 0, DdpHeaderFlyweight.QN_TERMINATE, 1, 0);

        assertArrayEquals(hex("41 47 00 00 00 00 00 00 00 02 00 00 00 01 00 00 00 00"), bytes(buffer, 0, 18));
    }

    @Test
    void shouldEncodeUnsignedFieldsAboveTwoToTheThirtyOne()
    {
        DdpHeaderFlyweight.putUntagged(buffer, 0, true, 0x43, 0, 0xFFFFFFFF, 0x80000000, 0xFFFFFFFE);

        assertArrayEquals(hex("ff ff ff ff 80 00 00 00 ff ff ff fe"), bytes(buffer, 6, 12));
    }

    @Test
    void shouldWriteOnlyTheTaggedHeaderBytes()
    {
        buffer.setMemory(0, CAPACITY, SENTINEL);

        DdpHeaderFlyweight.putTagged(buffer, 10, true, 0x40, -1, -1L);

        assertEquals(SENTINEL, buffer.getByte(9));
        assertEquals(SENTINEL, buffer.getByte(24));
    }

    @Test
    void shouldWriteOnlyTheUntaggedHeaderBytes()
    {
        buffer.setMemory(0, CAPACITY, SENTINEL);

        DdpHeaderFlyweight.putUntagged(buffer, 10, true, 0x43, -1, -1, -1, -1);

        assertEquals(SENTINEL, buffer.getByte(9));
        assertEquals(SENTINEL, buffer.getByte(28));
    }

    @Test
    void shouldDecodeHandWrittenTaggedHeader()
    {
        buffer.putBytes(3, hex("c1 42 89 ab cd ef 80 00 00 00 00 00 12 34"));

        header.wrap(buffer, 3);

        assertEquals(3, header.offset());
        assertEquals(0xC1, header.control());
        assertTrue(header.isTagged(), "T");
        assertTrue(header.isLast(), "L");
        assertEquals(1, header.version());
        assertEquals(0x42, header.rsvdUlp());
        assertEquals(14, header.headerLength());
        assertEquals(0x89ABCDEF, header.stag());
        assertEquals(0x8000000000001234L, header.taggedOffset());
    }

    @Test
    void shouldDecodeHandWrittenUntaggedHeader()
    {
        buffer.putBytes(5, hex("01 46 11 22 33 44 00 00 00 00 00 00 00 02 00 00 05 ca"));

        header.wrap(buffer, 5);

        assertFalse(header.isTagged(), "T");
        assertFalse(header.isLast(), "L");
        assertEquals(1, header.version());
        assertEquals(0x46, header.rsvdUlp());
        assertEquals(18, header.headerLength());
        assertEquals(0x11223344, header.rsvdUlp32());
        assertEquals(0, header.queueNumber());
        assertEquals(2, header.msn());
        assertEquals(1482, header.messageOffset());
    }

    @ParameterizedTest(name = "control {0}: T={1} L={2} DV={3}")
    @CsvSource({
        "0x00, false, false, 0",
        "0x41, false, true, 1",
        "0xc1, true, true, 1",
        "0x81, true, false, 1",
        "0x40, false, true, 0",
        "0x43, false, true, 3",
        "0xbe, true, false, 2",
        "0x3d, false, false, 1",
        "0xff, true, true, 3" })
    void shouldDecodeControlBitsIgnoringReservedOnes(
        final String control, final boolean tagged, final boolean last, final int version)
    {
        buffer.putByte(0, (byte)Integer.decode(control).intValue());

        header.wrap(buffer, 0);

        assertEquals(tagged, header.isTagged(), "T");
        assertEquals(last, header.isLast(), "L");
        assertEquals(version, header.version(), "DV");
        assertEquals(tagged ? 14 : 18, header.headerLength());
    }

    @Test
    void shouldDecodeWhatWasEncodedForRandomTaggedFields()
    {
        final long seed = seed();
        final Random random = new Random(seed);
        for (int i = 0; i < ITERATIONS; i++)
        {
            final String at = replay(seed, i);
            final int offset = random.nextInt(CAPACITY - 14 + 1);
            final boolean last = random.nextBoolean();
            final int rsvdUlp = random.nextInt(256);
            final int stag = random.nextInt();
            final long taggedOffset = random.nextLong();

            assertEquals(14, DdpHeaderFlyweight.putTagged(buffer, offset, last, rsvdUlp, stag, taggedOffset), at);
            header.wrap(buffer, offset);

            assertTrue(header.isTagged(), at);
            assertEquals(last, header.isLast(), at);
            assertEquals(1, header.version(), at);
            assertEquals(rsvdUlp, header.rsvdUlp(), at);
            assertEquals(stag, header.stag(), at);
            assertEquals(taggedOffset, header.taggedOffset(), at);
            assertEquals(14, header.headerLength(), at);
        }
    }

    @Test
    void shouldDecodeWhatWasEncodedForRandomUntaggedFields()
    {
        final long seed = seed();
        final Random random = new Random(seed);
        for (int i = 0; i < ITERATIONS; i++)
        {
            final String at = replay(seed, i);
            final int offset = random.nextInt(CAPACITY - 18 + 1);
            final boolean last = random.nextBoolean();
            final int rsvdUlp = random.nextInt(256);
            final int rsvdUlp32 = random.nextInt();
            final int queueNumber = random.nextInt();
            final int msn = random.nextInt();
            final int messageOffset = random.nextInt();

            assertEquals(18, DdpHeaderFlyweight.putUntagged(
                buffer, offset, last, rsvdUlp, rsvdUlp32, queueNumber, msn, messageOffset), at);
            header.wrap(buffer, offset);

            assertFalse(header.isTagged(), at);
            assertEquals(last, header.isLast(), at);
            assertEquals(1, header.version(), at);
            assertEquals(rsvdUlp, header.rsvdUlp(), at);
            assertEquals(rsvdUlp32, header.rsvdUlp32(), at);
            assertEquals(queueNumber, header.queueNumber(), at);
            assertEquals(msn, header.msn(), at);
            assertEquals(messageOffset, header.messageOffset(), at);
            assertEquals(18, header.headerLength(), at);
        }
    }

    @Test
    void shouldDecodeRandomBytesAsBigEndianFieldsWithoutThrowing()
    {
        final long seed = seed();
        final Random random = new Random(seed);
        final byte[] raw = new byte[18];
        for (int i = 0; i < ITERATIONS; i++)
        {
            random.nextBytes(raw);
            final int offset = random.nextInt(CAPACITY - raw.length + 1);
            buffer.putBytes(offset, raw);
            final String at = replay(seed, i) + " header " + toHex(raw);

            assertDoesNotThrow(() -> header.wrap(buffer, offset), at);
            assertEquals(raw[0] & 0xFF, header.control(), at);
            assertEquals((raw[0] & 0x80) != 0, header.isTagged(), at);
            assertEquals((raw[0] & 0x40) != 0, header.isLast(), at);
            assertEquals(raw[0] & 0x03, header.version(), at);
            assertEquals(raw[1] & 0xFF, header.rsvdUlp(), at);
            assertEquals((raw[0] & 0x80) != 0 ? 14 : 18, header.headerLength(), at);
            assertEquals(bigEndianInt(raw, 2), header.stag(), at);
            assertEquals((long)bigEndianInt(raw, 6) << 32 | bigEndianInt(raw, 10) & 0xFFFFFFFFL,
                header.taggedOffset(), at);
            assertEquals(bigEndianInt(raw, 2), header.rsvdUlp32(), at);
            assertEquals(bigEndianInt(raw, 6), header.queueNumber(), at);
            assertEquals(bigEndianInt(raw, 10), header.msn(), at);
            assertEquals(bigEndianInt(raw, 14), header.messageOffset(), at);
        }
    }

    private static int bigEndianInt(final byte[] bytes, final int index)
    {
        return (bytes[index] & 0xFF) << 24 | (bytes[index + 1] & 0xFF) << 16 | (bytes[index + 2] & 0xFF) << 8 |
            bytes[index + 3] & 0xFF;
    }
}
