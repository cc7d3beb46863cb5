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

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Random;
import java.util.zip.CRC32C;

import io.warpbus.iwarp.mpa.Fpdu;
import io.warpbus.testing.ThreadAllocation;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The transmit ring against a real socket: whatever mix of copied FPDUs, gathered payloads, partial writes and
 * wrap-arounds, the bytes arrive in order, every FPDU's CRC checks out, and the pending count returns to zero.
 */
@Timeout(60)
class TransmitRingTest
{
    private ServerSocketChannel server;
    private SocketChannel sender;
    private SocketChannel receiver;
    private Rnic rnic;

    @BeforeEach
    void setUp() throws IOException
    {
        server = ServerSocketChannel.open().bind(new InetSocketAddress(EnginePair.loopback(0).getAddress(), 0));
        sender = SocketChannel.open(server.getLocalAddress());
        receiver = server.accept();
        sender.configureBlocking(false);
        rnic = Rnic.launch(new RnicContext().threadingMode(ThreadingMode.INVOKER));
    }

    @AfterEach
    void tearDown() throws IOException
    {
        rnic.close();
        sender.close();
        receiver.close();
        server.close();
    }

    @Test
    void shouldDeliverCopiedAndGatheredFpdusInOrderAcrossWraps() throws IOException
    {
        final long seed = System.nanoTime();
        final Random random = new Random(seed);
        final ProtectionDomain pd = rnic.allocateProtectionDomain();
        // Several regions, so that one write gathers pieces of different regions, and of the same one more than once.
        final MemoryRegion[] regions = regions(pd);
        final byte[][] regionBytes = new byte[regions.length][1 << 16];
        for (int r = 0; r < regions.length; r++)
        {
            random.nextBytes(regionBytes[r]);
            regions[r].buffer().putBytes(0, regionBytes[r]);
        }

        final TransmitRing ring = new TransmitRing(8192, new CRC32C());
        ring.crcEnabled = true;
        final java.io.ByteArrayOutputStream expected = new java.io.ByteArrayOutputStream();
        final java.io.ByteArrayOutputStream received = new java.io.ByteArrayOutputStream();
        final ByteBuffer in = ByteBuffer.allocate(1 << 16);
        receiver.configureBlocking(false);

        for (int i = 0; i < 2000; i++)
        {
            final boolean gather = random.nextBoolean();
            final int payload = gather ? TransmitRing.GATHER_THRESHOLD + random.nextInt(4000) : random.nextInt(300);
            final int r = random.nextInt(regions.length);
            final int index = random.nextInt(regionBytes[r].length - payload);
            final int header = 14;
            int offset;
            while ((offset = ring.claim(gather ? 2 + header + 7 : Fpdu.fpduLength(header + payload), 64)) < 0)
            {
                ring.write(sender);
                drain(receiver, in, received);
            }
            final byte[] headerBytes = new byte[header];
            random.nextBytes(headerBytes);
            ring.buffer.putBytes(offset + 2, headerBytes);
            if (gather)
            {
                // Some with the CRC deferred past the write that sends their payload, wherever writes fall.
                ring.commitGathered(offset, header, regions[r], index, payload, random.nextBoolean());
            }
            else
            {
                ring.buffer.putBytes(offset + 2 + header, regionBytes[r], index, payload);
                ring.commitFpdu(offset, header + payload);
            }
            expected.writeBytes(new byte[] { (byte)((header + payload) >> 8), (byte)(header + payload) });
            expected.writeBytes(headerBytes);
            expected.write(regionBytes[r], index, payload);
            if (random.nextInt(4) == 0)
            {
                ring.write(sender);
                drain(receiver, in, received);
            }
        }
        while (ring.pending() > 0)
        {
            ring.write(sender);
            drain(receiver, in, received);
        }
        assertEquals(ring.assembledTotal, ring.writtenTotal, "seed " + seed);
        while (received.size() < ring.writtenTotal)
        {
            drain(receiver, in, received);
        }

        // Walk the received FPDUs: check each CRC, strip pad and CRC, and compare with what was committed.
        final byte[] wire = received.toByteArray();
        final ByteBuffer direct = ByteBuffer.allocateDirect(wire.length);
        direct.put(wire).flip();
        final UnsafeBuffer view = new UnsafeBuffer(wire);
        final java.io.ByteArrayOutputStream stripped = new java.io.ByteArrayOutputStream();
        int position = 0;
        final CRC32C crc = new CRC32C();
        while (position < wire.length)
        {
            final int ulpdu = Fpdu.ulpduLength(view, position);
            final int length = Fpdu.fpduLength(ulpdu);
            final int crcOffset = position + length - 4;
            assertEquals(Fpdu.crc32c(crc, direct, position, crcOffset - position), Fpdu.getCrc(view, crcOffset),
                "CRC of the FPDU at " + position + ", seed " + seed);
            stripped.write(wire, position, 2 + ulpdu);
            position += length;
        }
        assertArrayEquals(expected.toByteArray(), stripped.toByteArray(), "seed " + seed);
        assertTrue(ring.writtenTotal > 8192 * 10, "the ring must have wrapped many times");
    }

    @Test
    void shouldWriteAHeaderAndPayloadBeforeTheirDeferredCrcAndTheTrailerWithTheNextWrite() throws IOException
    {
        final MemoryRegion region = regions(rnic.allocateProtectionDomain())[0];
        final byte[] payload = new byte[4000];
        new Random(7).nextBytes(payload);
        region.buffer().putBytes(100, payload);
        final TransmitRing ring = new TransmitRing(8192, new CRC32C());
        ring.crcEnabled = true;
        final int first = ring.claim(2 + 14 + 7, 64);
        ring.commitGathered(first, 14, region, 100, payload.length, true);
        final int second = ring.claim(Fpdu.fpduLength(14 + 30), 64);
        ring.commitFpdu(second, 14 + 30);

        assertEquals(2 + 14 + payload.length, ring.write(sender), "the first write ends with the payload");
        assertTrue(ring.stoppedAtDeferredCrc());
        final long rest = ring.pending();
        assertEquals(4 + Fpdu.fpduLength(14 + 30), rest, "the trailer and the next FPDU wait");
        assertEquals(rest, ring.write(sender), "the next write takes the trailer, its CRC now computed, and the rest");
        assertFalse(ring.stoppedAtDeferredCrc());

        final ByteBuffer in = ByteBuffer.allocateDirect((int)ring.writtenTotal);
        while (in.hasRemaining())
        {
            receiver.read(in);
        }
        final UnsafeBuffer wire = new UnsafeBuffer(in);
        final int firstLength = Fpdu.fpduLength(14 + payload.length);
        assertEquals(Fpdu.crc32c(new CRC32C(), in, 0, firstLength - 4), Fpdu.getCrc(wire, firstLength - 4));
        final byte[] sent = new byte[payload.length];
        wire.getBytes(2 + 14, sent);
        assertArrayEquals(payload, sent);
        assertEquals(Fpdu.crc32c(new CRC32C(), in, firstLength, Fpdu.fpduLength(14 + 30) - 4),
            Fpdu.getCrc(wire, (int)ring.writtenTotal - 4));
    }

    /**
     * Gathered pieces from three regions in a random order, so that where each region's pieces fall in the ring's
     * segments and in each write's list keeps changing: once every region has filled every place in a write's list,
     * the ring allocates nothing.
     */
    @Test
    void shouldNotAllocateWhileGatheringFromAnyMixOfRegions() throws IOException
    {
        final long seed = System.nanoTime();
        final Random random = new Random(seed);
        final MemoryRegion[] regions = regions(rnic.allocateProtectionDomain());
        final TransmitRing ring = new TransmitRing(8192, new CRC32C());
        ring.crcEnabled = true;
        final ByteBuffer in = ByteBuffer.allocateDirect(1 << 16);
        receiver.configureBlocking(false);

        gatherMixed(ring, regions, random, in, 300_000);
        final StringBuilder windows = new StringBuilder();
        int zeroWindowsInARow = 0;
        for (int window = 0; window < 10 && zeroWindowsInARow < 2; window++)
        {
            final long before = ThreadAllocation.current();
            gatherMixed(ring, regions, random, in, 20_000);
            final long allocated = ThreadAllocation.current() - before;
            windows.append(allocated).append(' ');
            zeroWindowsInARow = 0 == allocated ? zeroWindowsInARow + 1 : 0;
        }
        assertEquals(2, zeroWindowsInARow, "bytes allocated per window of 20,000 gathered FPDUs: " + windows +
            "(seed " + seed + ")");
    }

    private void gatherMixed(
        final TransmitRing ring,
        final MemoryRegion[] regions,
        final Random random,
        final ByteBuffer in,
        final int count) throws IOException
    {
        for (int i = 0; i < count; i++)
        {
            final int payload = TransmitRing.GATHER_THRESHOLD + random.nextInt(1000);
            int offset;
            while ((offset = ring.claim(2 + 14 + 7, 64)) < 0)
            {
                ring.write(sender);
                in.clear();
                receiver.read(in);
            }
            final MemoryRegion region = regions[random.nextInt(regions.length)];
            ring.commitGathered(offset, 14, region, random.nextInt(1 << 12), payload, random.nextBoolean());
            if (random.nextInt(3) == 0)
            {
                ring.write(sender);
                in.clear();
                receiver.read(in);
            }
        }
        while (ring.pending() > 0)
        {
            ring.write(sender);
            in.clear();
            receiver.read(in);
        }
    }

    private static MemoryRegion[] regions(final ProtectionDomain pd)
    {
        final MemoryRegion[] regions = new MemoryRegion[3];
        for (int r = 0; r < regions.length; r++)
        {
            regions[r] = pd.registerMemory(ByteBuffer.allocateDirect(1 << 16), 0);
        }
        return regions;
    }

    private static void drain(final SocketChannel channel, final ByteBuffer in, final java.io.ByteArrayOutputStream out)
        throws IOException
    {
        in.clear();
        final int read = channel.read(in);
        if (read > 0)
        {
            out.write(in.array(), 0, read);
        }
    }
}
