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

import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.CRC32C;

import io.warpbus.iwarp.ddp.DdpHeaderFlyweight;
import io.warpbus.iwarp.mpa.Fpdu;
import io.warpbus.iwarp.rdmap.RdmapOpcode;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The receive side's buffer handling alone, fed by a channel that hands out bytes in the pieces a test chooses.
 */
class FpduReaderTest
{
    /** The smallest receive buffer the engine allows: two maximum FPDUs. */
    private static final int CAPACITY = 2 * Fpdu.MAX_RECEIVE_FPDU;

    /** Tagged segments placed straight from the socket go to this region's memory. */
    private static final int REGION_LENGTH = 1 << 17;

    private final FpduReader reader = new FpduReader(CAPACITY, true);
    private final ScriptedChannel channel = new ScriptedChannel();
    private Rnic rnic;

    @AfterEach
    void tearDown()
    {
        if (null != rnic)
        {
            rnic.close();
        }
    }

    @Test
    void shouldFindAnFpduOnlyOnceAllOfItHasArrived() throws Exception
    {
        final byte[] fpdu = fpdu(100, 1);
        reader.crcEnabled(true);
        channel.add(Arrays.copyOfRange(fpdu, 0, 1));
        channel.add(Arrays.copyOfRange(fpdu, 1, 50));
        channel.add(Arrays.copyOfRange(fpdu, 50, fpdu.length));

        assertEquals(1, reader.read(channel));
        assertEquals(FpduReader.INCOMPLETE, reader.nextUlpduLength());
        assertEquals(49, reader.read(channel));
        assertEquals(FpduReader.INCOMPLETE, reader.nextUlpduLength());
        assertEquals(fpdu.length - 50, reader.read(channel));

        assertEquals(100, reader.nextUlpduLength());
        assertTrue(reader.crcMatches(fpdu.length));
        reader.consume(fpdu.length);
        assertEquals(0, reader.buffered());
        assertEquals(FpduReader.INCOMPLETE, reader.nextUlpduLength());
    }

    @Test
    void shouldMoveAPartialFpduToTheFrontWhenTheEndOfTheBufferIsNear() throws Exception
    {
        final byte[] first = fpdu(60_000, 1);
        final byte[] second = fpdu(60_000, 2);
        final byte[] third = fpdu(60_000, 3);
        reader.crcEnabled(true);
        channel.add(concat(first, second, Arrays.copyOfRange(third, 0, 1_000)));
        channel.add(Arrays.copyOfRange(third, 1_000, third.length));

        reader.read(channel);
        reader.consume(Fpdu.fpduLength(reader.nextUlpduLength()));
        reader.consume(Fpdu.fpduLength(reader.nextUlpduLength()));
        assertEquals(first.length + second.length, reader.start());
        assertEquals(FpduReader.INCOMPLETE, reader.nextUlpduLength());

        // The rest of the third FPDU does not fit behind it: it is read only after moving to the front.
        assertEquals(third.length - 1_000, reader.read(channel));

        assertEquals(0, reader.start());
        assertEquals(60_000, reader.nextUlpduLength());
        assertTrue(reader.crcMatches(third.length));
        final byte[] placed = new byte[third.length];
        reader.buffer().getBytes(0, placed);
        assertArrayEquals(third, placed);
    }

    @Test
    void shouldProcessAWaitingMaximumFpduBeforeReadingMore() throws Exception
    {
        final byte[] largest = fpdu(0xFFFF, 4);
        final byte[] next = fpdu(10, 5);
        channel.add(concat(largest, Arrays.copyOfRange(next, 0, 4)));
        channel.add(Arrays.copyOfRange(next, 4, next.length));
        reader.read(channel);
        final int readsBefore = channel.reads;

        assertEquals(0, reader.read(channel));
        assertEquals(readsBefore, channel.reads, "the socket must not be read");

        assertEquals(0xFFFF, reader.nextUlpduLength());
        reader.consume(largest.length);
        assertEquals(next.length - 4, reader.read(channel));
        assertEquals(0, reader.start());
        assertEquals(10, reader.nextUlpduLength());
    }

    @Test
    void shouldTellHowACrcDidNotMatch() throws Exception
    {
        final byte[] fpdu = fpdu(40, 6);
        final int sent = new UnsafeBuffer(fpdu).getInt(fpdu.length - Fpdu.CRC_LENGTH, java.nio.ByteOrder.LITTLE_ENDIAN);
        fpdu[10] ^= 0x01;
        channel.add(fpdu);
        reader.read(channel);

        assertTrue(reader.crcMatches(fpdu.length), "CRCs are not checked until negotiated");
        reader.crcEnabled(true);
        assertFalse(reader.crcMatches(fpdu.length));
        assertEquals(sent, reader.receivedCrc());
        assertNotEquals(sent, reader.computedCrc());
    }

    @Test
    void shouldSeeTheInputEndInsideAnFpdu() throws Exception
    {
        final byte[] fpdu = fpdu(40, 7);
        channel.add(Arrays.copyOfRange(fpdu, 0, 10));
        channel.endOfStream = true;

        assertEquals(10, reader.read(channel));
        assertFalse(reader.endedInsideFpdu());
        assertEquals(FpduReader.END_OF_STREAM, reader.read(channel));

        assertTrue(reader.inputEnded());
        assertTrue(reader.endedInsideFpdu());
        final int reads = channel.reads;
        assertEquals(0, reader.read(channel));
        assertEquals(reads, channel.reads, "an ended input is not read again");
    }

    @Test
    void shouldSeeTheInputEndInsideTheLengthField() throws Exception
    {
        channel.add(new byte[] { 0 });
        channel.endOfStream = true;

        reader.read(channel);
        reader.read(channel);

        assertTrue(reader.endedInsideFpdu());
    }

    @Test
    void shouldNotCallAnInputEndedBetweenFpdusTruncated() throws Exception
    {
        final byte[] fpdu = fpdu(40, 8);
        channel.add(fpdu);
        channel.endOfStream = true;

        reader.read(channel);
        assertEquals(FpduReader.END_OF_STREAM, reader.read(channel));

        assertFalse(reader.endedInsideFpdu());
        reader.consume(fpdu.length);
        assertFalse(reader.endedInsideFpdu());
    }

    @Test
    void shouldReadAQuietSocketOnlyEveryFewCyclesUntilBytesArrive() throws Exception
    {
        for (int i = 0; i < FpduReader.QUIET_AFTER_EMPTY_READS; i++)
        {
            assertEquals(0, reader.readQuietly(channel));
        }
        assertEquals(FpduReader.QUIET_AFTER_EMPTY_READS, channel.reads);

        for (int i = 0; i < 2 * FpduReader.QUIET_READ_EVERY; i++)
        {
            reader.readQuietly(channel);
        }
        assertEquals(FpduReader.QUIET_AFTER_EMPTY_READS + 2, channel.reads);

        channel.add(fpdu(20, 9));
        int cycles = 0;
        while (0 == reader.readQuietly(channel))
        {
            cycles++;
        }
        assertTrue(cycles < FpduReader.QUIET_READ_EVERY, "cycles " + cycles);
        final int reads = channel.reads;
        reader.readQuietly(channel);
        reader.readQuietly(channel);
        assertEquals(reads + 2, channel.reads, "eager again once bytes arrived");
    }

    @Test
    void shouldReadAWholeLargeFpduThatHasArrivedInOneRead() throws Exception
    {
        final byte[] large = fpdu(20_000, 1);
        final byte[] next = fpdu(20_000, 2);
        channel.add(large);
        assertEquals(large.length, reader.read(channel));
        reader.consume(Fpdu.fpduLength(reader.nextUlpduLength()));

        assertEquals(0, reader.read(channel), "the peer has sent nothing more");
        channel.add(next);
        final int reads = channel.reads;
        assertEquals(next.length, reader.read(channel), "a reader that waited still reads all there is");
        assertEquals(reads + 1, channel.reads, "in one system call, not one for the header and one for the rest");
        assertEquals(FpduReader.INCOMPLETE, reader.directCandidate(), "nothing of it is left to place from the socket");
        assertEquals(20_000, reader.nextUlpduLength());
    }

    @Test
    void shouldNotOfferFpdusForDirectPlacementWithoutIt() throws Exception
    {
        final FpduReader buffered = new FpduReader(CAPACITY, false);
        final byte[] next = fpdu(20_000, 2);
        channel.add(Arrays.copyOfRange(next, 0, 100));
        channel.add(Arrays.copyOfRange(next, 100, next.length));

        assertEquals(100, buffered.read(channel));
        assertEquals(FpduReader.INCOMPLETE, buffered.directCandidate());
        assertEquals(FpduReader.INCOMPLETE, buffered.nextUlpduLength());
        assertEquals(next.length - 100, buffered.read(channel));
        assertEquals(20_000, buffered.nextUlpduLength());
    }

    @Test
    void shouldPlaceAPayloadArrivingInRandomPiecesStraightIntoTheRegionAndCheckItsCrc() throws Exception
    {
        final MemoryRegion region = region();
        final long seed = System.nanoTime();
        final Random random = new Random(seed);
        reader.crcEnabled(true);
        for (int round = 0; round < 200; round++)
        {
            final int payloadLength = FpduReader.DIRECT_PLACEMENT_MIN + random.nextInt(60_000);
            final int index = random.nextInt(REGION_LENGTH - payloadLength);
            final byte[] fpdu = taggedFpdu(random, payloadLength);
            final int corrupt = random.nextInt(4);
            final int flipped = 0 == corrupt ? 2 + random.nextInt(fpdu.length - 2) : -1;
            if (flipped >= 0)
            {
                fpdu[flipped] ^= (byte)(1 << random.nextInt(8));
            }
            final int withHeader = 16 + random.nextInt(payloadLength - FpduReader.DIRECT_PLACEMENT_MIN + 1);
            channel.add(Arrays.copyOfRange(fpdu, 0, withHeader));
            for (int at = withHeader; at < fpdu.length; )
            {
                final int piece = Math.min(fpdu.length - at, 1 + random.nextInt(9_000));
                channel.add(Arrays.copyOfRange(fpdu, at, at + piece));
                at += piece;
            }
            final String context = "seed " + seed + " round " + round;
            reader.read(channel);
            assertEquals(FpduReader.INCOMPLETE, reader.nextUlpduLength(), context);
            final int ulpduLength = reader.directCandidate();
            assertEquals(payloadLength + DdpHeaderFlyweight.TAGGED_HEADER_LENGTH, ulpduLength, context);
            reader.placeDirectly(region, index, ulpduLength);
            assertEquals(0, reader.buffered(), context);

            int result = FpduReader.DIRECT_PENDING;
            for (int reads = 0; FpduReader.DIRECT_PENDING == result; reads++)
            {
                assertTrue(reads < 1_000, context);
                reader.read(channel);
                result = reader.completeDirect();
            }

            assertEquals(flipped >= 0 ? FpduReader.DIRECT_CRC_MISMATCH : FpduReader.DIRECT_PLACED, result,
                context + " flipped byte " + flipped);
            assertEquals(flipped >= 0, reader.computedCrc() != reader.receivedCrc(), context);
            assertFalse(reader.placingDirectly(), context);
            assertEquals(0, reader.buffered(), "the trailer was consumed, " + context);
            final byte[] placed = new byte[payloadLength];
            region.buffer().getBytes(index, placed);
            if (flipped < 0 || flipped >= fpdu.length - Fpdu.CRC_LENGTH)
            {
                assertArrayEquals(Arrays.copyOfRange(fpdu, 16, 16 + payloadLength), placed, context);
            }
        }
    }

    @Test
    void shouldSeeTheInputEndInsideAPayloadPlacedStraightFromTheSocket() throws Exception
    {
        final MemoryRegion region = region();
        final byte[] fpdu = taggedFpdu(new Random(1), 10_000);
        channel.add(Arrays.copyOfRange(fpdu, 0, 100));
        channel.add(Arrays.copyOfRange(fpdu, 100, 5_000));
        channel.endOfStream = true;
        reader.read(channel);
        reader.placeDirectly(region, 0, reader.directCandidate());
        assertEquals(4_900, reader.read(channel));
        assertFalse(reader.endedInsideFpdu());

        assertEquals(FpduReader.END_OF_STREAM, reader.read(channel));
        assertEquals(FpduReader.DIRECT_PENDING, reader.completeDirect());
        assertTrue(reader.endedInsideFpdu());
    }

    @Test
    void shouldStopPlacingIntoARegionBeingDeregistered() throws Exception
    {
        final MemoryRegion region = region();
        final MemoryRegion other = region();
        final byte[] fpdu = taggedFpdu(new Random(2), 10_000);
        channel.add(Arrays.copyOfRange(fpdu, 0, 100));
        channel.add(Arrays.copyOfRange(fpdu, 100, fpdu.length));
        reader.read(channel);
        reader.placeDirectly(region, 0, reader.directCandidate());

        assertFalse(reader.stopPlacingInto(other));
        assertTrue(reader.placingDirectly());
        assertTrue(reader.stopPlacingInto(region));
        assertFalse(reader.placingDirectly());
        assertEquals(0, reader.read(channel), "nothing more is read");
        assertEquals(0, region.buffer().getByte(200), "nothing more was placed");
    }

    @Test
    void shouldNotOfferAnFpduWhosePayloadHasMostlyArrivedForDirectPlacement() throws Exception
    {
        final byte[] fpdu = fpdu(20_000, 1);
        channel.add(Arrays.copyOfRange(fpdu, 0, 15));
        channel.add(Arrays.copyOfRange(fpdu, 15, fpdu.length - FpduReader.DIRECT_PLACEMENT_MIN));
        reader.read(channel);
        assertEquals(FpduReader.INCOMPLETE, reader.directCandidate(), "the header has not all arrived");
        reader.read(channel);
        assertEquals(FpduReader.INCOMPLETE, reader.directCandidate(), "too little of the payload is to come");
    }

    @Test
    void shouldPlaceAPayloadThatHasAllArrivedWhileItsTrailerIsMissing() throws Exception
    {
        final MemoryRegion region = region();
        reader.crcEnabled(true);
        final byte[] fpdu = taggedFpdu(new Random(3), 10_000);
        final int trailer = fpdu.length - 16 - 10_000;
        channel.add(Arrays.copyOfRange(fpdu, 0, fpdu.length - trailer));
        reader.read(channel);
        assertEquals(FpduReader.INCOMPLETE, reader.nextUlpduLength());
        assertEquals(14 + 10_000, reader.directCandidate(), "the whole payload is in; only the trailer is not");
        reader.placeDirectly(region, 0, 14 + 10_000);
        final byte[] placed = new byte[10_000];
        region.buffer().getBytes(0, placed);
        assertArrayEquals(Arrays.copyOfRange(fpdu, 16, 16 + 10_000), placed, "placed before the trailer came");
        assertEquals(FpduReader.DIRECT_PENDING, reader.completeDirect());

        channel.add(concat(Arrays.copyOfRange(fpdu, fpdu.length - trailer, fpdu.length), fpdu(40, 9)));
        reader.read(channel);
        assertEquals(FpduReader.DIRECT_PLACED, reader.completeDirect());
        assertEquals(40, reader.nextUlpduLength(), "the FPDU after the trailer came in the same read");

        final byte[] partOfTrailer = taggedFpdu(new Random(4), 10_000);
        channel.add(Arrays.copyOfRange(partOfTrailer, 0, partOfTrailer.length - 2));
        reader.consume(Fpdu.fpduLength(40));
        reader.read(channel);
        assertEquals(FpduReader.INCOMPLETE, reader.directCandidate(), "part of the trailer is in: nothing to place");
    }

    private MemoryRegion region()
    {
        if (null == rnic)
        {
            rnic = Rnic.launch(new RnicContext().threadingMode(ThreadingMode.INVOKER));
        }
        return rnic.allocateProtectionDomain().registerMemory(ByteBuffer.allocateDirect(REGION_LENGTH),
            Access.LOCAL_WRITE | Access.REMOTE_WRITE);
    }

    /**
     * A framed tagged RDMA Write with random payload and a valid CRC (the reader checks only framing and CRC).
     */
    private static byte[] taggedFpdu(final Random random, final int payloadLength)
    {
        final int ulpduLength = DdpHeaderFlyweight.TAGGED_HEADER_LENGTH + payloadLength;
        final byte[] bytes = new byte[Fpdu.fpduLength(ulpduLength)];
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        DdpHeaderFlyweight.putTagged(buffer, Fpdu.LENGTH_FIELD_LENGTH, true,
            RdmapOpcode.control(RdmapOpcode.WRITE), 0x1234, 0L);
        final byte[] payload = new byte[payloadLength];
        random.nextBytes(payload);
        buffer.putBytes(Fpdu.LENGTH_FIELD_LENGTH + DdpHeaderFlyweight.TAGGED_HEADER_LENGTH, payload);
        final int crcOffset = Fpdu.frame(buffer, 0, ulpduLength);
        final CRC32C crc = new CRC32C();
        crc.update(bytes, 0, crcOffset);
        Fpdu.putCrc(buffer, crcOffset, (int)crc.getValue());
        return bytes;
    }

    /**
     * A framed FPDU with a valid CRC.
     */
    private static byte[] fpdu(final int ulpduLength, final int fill)
    {
        final byte[] bytes = new byte[Fpdu.fpduLength(ulpduLength)];
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        for (int i = 0; i < ulpduLength; i++)
        {
            bytes[Fpdu.LENGTH_FIELD_LENGTH + i] = (byte)(fill + i);
        }
        final int crcOffset = Fpdu.frame(buffer, 0, ulpduLength);
        final CRC32C crc = new CRC32C();
        crc.update(bytes, 0, crcOffset);
        Fpdu.putCrc(buffer, crcOffset, (int)crc.getValue());
        return bytes;
    }

    private static byte[] concat(final byte[]... parts)
    {
        final java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (final byte[] part : parts)
        {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    /**
     * Hands out the queued chunks, each as far as the reader's buffer has room, then 0 or the end of the stream.
     */
    private static final class ScriptedChannel implements ReadableByteChannel
    {
        private final ArrayDeque<ByteBuffer> chunks = new ArrayDeque<>();
        private boolean endOfStream;
        private int reads;

        void add(final byte[] chunk)
        {
            chunks.add(ByteBuffer.wrap(chunk));
        }

        @Override
        public int read(final ByteBuffer dst)
        {
            reads++;
            final ByteBuffer chunk = chunks.peek();
            if (null == chunk)
            {
                return endOfStream ? -1 : 0;
            }
            final int length = Math.min(dst.remaining(), chunk.remaining());
            dst.put(chunk.slice().limit(length));
            chunk.position(chunk.position() + length);
            if (!chunk.hasRemaining())
            {
                chunks.poll();
            }
            return length;
        }

        @Override
        public boolean isOpen()
        {
            return true;
        }

        @Override
        public void close()
        {
        }
    }
}
