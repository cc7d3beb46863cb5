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

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static io.warpbus.testing.WireTestSupport.bytes;
import static io.warpbus.testing.WireTestSupport.directBuffer;
import static io.warpbus.testing.WireTestSupport.hex;
import static io.warpbus.testing.WireTestSupport.replay;
import static io.warpbus.testing.WireTestSupport.seed;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class ReadRequestFlyweightTest
{
    private static final int CAPACITY = 128;
    private static final String HEADER =
        "11 22 33 44" + // sink STag
        "01 02 03 04 05 06 07 08" + // sink TO
        "80 00 00 01" + // RDMA Read Message Size
        "aa bb cc dd" + // source STag
        "f1 f2 f3 f4 f5 f6 f7 f8"; // source TO

    private final UnsafeBuffer buffer = directBuffer(CAPACITY);
    private final ReadRequestFlyweight header = new ReadRequestFlyweight();

    @Test
    void shouldEncodeFieldsInRfc5040Order()
    {
        final int length = ReadRequestFlyweight.put(
            buffer, 20, 0x11223344, 0x0102030405060708L, 0x80000001, 0xAABBCCDD, 0xF1F2F3F4F5F6F7F8L);

        assertEquals(28, length);
        assertArrayEquals(hex(HEADER), bytes(buffer, 20, 28));
    }

    @Test
    void shouldDecodeHandWrittenHeader()
    {
        buffer.putBytes(6, hex(HEADER));

        header.wrap(buffer, 6);

        assertEquals(0x11223344, header.sinkStag());
        assertEquals(0x0102030405060708L, header.sinkTaggedOffset());
        assertEquals(0x80000001L, header.size());
        assertEquals(0xAABBCCDD, header.sourceStag());
        assertEquals(0xF1F2F3F4F5F6F7F8L, header.sourceTaggedOffset());
    }

    @Test
    void shouldReadLargestSizeAsUnsigned()
    {
        buffer.putBytes(12, hex("ff ff ff ff"));

        assertEquals(4294967295L, header.wrap(buffer, 0).size());
    }

    @Test
    void shouldWriteOnlyTwentyEightBytes()
    {
        buffer.setMemory(0, CAPACITY, (byte)0x5A);

        ReadRequestFlyweight.put(buffer, 1, -1, -1L, -1, -1, -1L);

        assertEquals((byte)0x5A, buffer.getByte(0));
        assertEquals((byte)0x5A, buffer.getByte(29));
    }

    @Test
    void shouldDecodeWhatWasEncodedForRandomFields()
    {
        final long seed = seed();
        final Random random = new Random(seed);
        for (int i = 0; i < 10_000; i++)
        {
            final String at = replay(seed, i);
            final int offset = random.nextInt(CAPACITY - ReadRequestFlyweight.LENGTH + 1);
            final int sinkStag = random.nextInt();
            final long sinkTo = random.nextLong();
            final int size = random.nextInt();
            final int srcStag = random.nextInt();
            final long srcTo = random.nextLong();

            ReadRequestFlyweight.put(buffer, offset, sinkStag, sinkTo, size, srcStag, srcTo);
            header.wrap(buffer, offset);

            assertEquals(sinkStag, header.sinkStag(), at);
            assertEquals(sinkTo, header.sinkTaggedOffset(), at);
            assertEquals(size & 0xFFFFFFFFL, header.size(), at);
            assertEquals(srcStag, header.sourceStag(), at);
            assertEquals(srcTo, header.sourceTaggedOffset(), at);
        }
    }
}
