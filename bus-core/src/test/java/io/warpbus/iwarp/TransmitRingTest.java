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
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
        final MemoryRegion region = pd.registerMemory(ByteBuffer.allocateDirect(1 << 16), 0);
        final byte[] regionBytes = new byte[1 << 16];
        random.nextBytes(regionBytes);
        region.buffer().putBytes(0, regionBytes);

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
            final int index = random.nextInt(regionBytes.length - payload);
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
                ring.commitGathered(offset, header, region, index, payload);
            }
            else
            {
                ring.buffer.putBytes(offset + 2 + header, regionBytes, index, payload);
                ring.commitFpdu(offset, header + payload);
            }
            expected.writeBytes(new byte[] { (byte)((header + payload) >> 8), (byte)(header + payload) });
            expected.writeBytes(headerBytes);
            expected.write(regionBytes, index, payload);
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
