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
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.warpbus.iwarp.ddp.DdpHeaderFlyweight;
import io.warpbus.iwarp.rdmap.RdmapOpcode;
import io.warpbus.testing.Await;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Feeds random and mutated frames to a live engine. Whatever arrives, the engine must only ever fail the one
 * connection (reporting an {@link IwarpException}, never another exception), never write outside the regions the
 * peer holds STags for, and keep serving other peers.
 */
@Timeout(120)
class EngineFuzzTest
{
    private static final int ITERATIONS = 400;
    private static final int GUARD = 256;
    private static final int REGION = 1024;

    @Test
    void shouldSurviveRandomAndMutatedFramesWithoutTouchingMemoryOutsideRegions() throws IOException
    {
        final long seed = System.nanoTime();
        final Random random = new Random(seed);
        final List<Throwable> errors = new CopyOnWriteArrayList<>();
        final List<ConnectionEvent> events = new ArrayList<>();
        try (Rnic server = Rnic.launch(new RnicContext().name("fuzz").threadingMode(ThreadingMode.DEDICATED)
            .idleStrategy("backoff").mpaTimeoutNs(TimeUnit.SECONDS.toNanos(2)).errorHandler(errors::add)))
        {
            final ProtectionDomain pd = server.allocateProtectionDomain();
            final CompletionQueue cq = server.createCompletionQueue(4096);
            final UnsafeBuffer memory = new UnsafeBuffer(ByteBuffer.allocateDirect(GUARD + REGION + GUARD));
            memory.setMemory(0, memory.capacity(), (byte)0xEE);
            final MemoryRegion region = pd.registerMemory(new UnsafeBuffer(memory, GUARD, REGION),
                Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ);
            final InetSocketAddress address =
                server.connectionManager().listen(EnginePair.loopback(0), 64, null).localAddress();

            for (int i = 0; i < ITERATIONS; i++)
            {
                try (RawPeer peer = new RawPeer(address))
                {
                    peer.sendRequest(4, 1, new byte[0]);
                    final QueuePair qp = acceptNext(server, pd, cq, region, events, seed);
                    peer.readReply();
                    peer.sendWriteRtr();
                    final byte[] frames = mutatedFrames(peer, random, region);
                    peer.sendRaw(frames);
                    // A probe that only a live connection answers; a failed one answers with Terminate or close.
                    peer.sendRaw(peer.readRequestFpdu(1, 0, 8, region.stag(), region.address()));
                    drain(peer);
                    assertTrue(qp.state() != QueuePairState.IDLE, "seed " + seed);
                }
            }

            for (int i = 0; i < GUARD; i++)
            {
                assertEquals((byte)0xEE, memory.getByte(i), "guard before the region touched, seed " + seed);
                assertEquals((byte)0xEE, memory.getByte(GUARD + REGION + i), "guard after the region touched, seed " +
                    seed);
            }
            for (final Throwable error : errors)
            {
                if (!(error instanceof IwarpException))
                {
                    throw new AssertionError("engine raised " + error + " (seed " + seed + ")", error);
                }
            }

            // The engine still serves a well-behaved peer.
            try (RawPeer peer = new RawPeer(address))
            {
                peer.sendRequest(4, 1, new byte[0]);
                acceptNext(server, pd, cq, region, events, seed);
                peer.readReply();
                peer.sendWriteRtr();
                peer.sendRaw(peer.readRequestFpdu(77, 0, 8, region.stag(), region.address()));
                final UnsafeBuffer response = new UnsafeBuffer(peer.readFpdu());
                assertEquals(RdmapOpcode.READ_RESPONSE, RdmapOpcode.opcode(response.getByte(1)), "seed " + seed);
                assertEquals(77, new DdpHeaderFlyweight().wrap(response, 0).stag(), "seed " + seed);
            }
        }
    }

    private static byte[] mutatedFrames(final RawPeer peer, final Random random, final MemoryRegion region)
    {
        final int count = 1 + random.nextInt(4);
        final java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < count; i++)
        {
            final byte[] payload = new byte[random.nextInt(64)];
            random.nextBytes(payload);
            final byte[] frame;
            switch (random.nextInt(5))
            {
                case 0:
                    frame = peer.taggedFpdu(1, RdmapOpcode.control(RdmapOpcode.WRITE), region.stag(),
                        region.address() + random.nextInt(REGION + 64) - 32, payload, random.nextBoolean());
                    break;
                case 1:
                    frame = peer.untaggedFpdu(1, RdmapOpcode.control(random.nextInt(16)), random.nextInt(),
                        random.nextInt(4), random.nextInt(3), random.nextInt(REGION * 2), payload,
                            random.nextBoolean());
                    break;
                case 2:
                    frame = peer.readRequestFpdu(random.nextInt(), random.nextLong(), random.nextInt(REGION * 2),
                        random.nextBoolean() ? region.stag() : random.nextInt(), region.address() + random.nextInt(64));
                    break;
                case 3:
                    frame = peer.taggedFpdu(random.nextInt(4), random.nextInt(256), random.nextInt(),
                        random.nextLong(), payload, random.nextBoolean());
                    break;
                default:
                    frame = peer.taggedFpdu(1, RdmapOpcode.control(RdmapOpcode.WRITE), region.stag(),
                        region.address(), payload, true);
                    break;
            }
            // Mutate a few bytes; half the time keep the CRC right so the frame reaches DDP and RDMAP.
            final int flips = random.nextInt(3);
            for (int f = 0; f < flips; f++)
            {
                frame[2 + random.nextInt(Math.max(1, frame.length - 6))] ^= (byte)(1 << random.nextInt(8));
            }
            if (flips > 0 && random.nextBoolean())
            {
                fixCrc(frame);
            }
            out.writeBytes(frame);
        }
        return out.toByteArray();
    }

    private static void fixCrc(final byte[] frame)
    {
        final ByteBuffer direct = ByteBuffer.allocateDirect(frame.length);
        direct.put(frame).flip();
        final int ulpdu = ((frame[0] & 0xFF) << 8) | (frame[1] & 0xFF);
        final int fpduLength = io.warpbus.iwarp.mpa.Fpdu.fpduLength(ulpdu);
        if (fpduLength == frame.length)
        {
            final int crc = io.warpbus.iwarp.mpa.Fpdu.crc32c(new java.util.zip.CRC32C(), direct, 0, frame.length - 4);
            io.warpbus.iwarp.mpa.Fpdu.putCrc(new UnsafeBuffer(frame), frame.length - 4, crc);
        }
    }

    private static void drain(final RawPeer peer)
    {
        try
        {
            for (int i = 0; i < 64; i++)
            {
                final byte[] ulpdu = peer.readFpdu();
                final int opcode = RdmapOpcode.opcode(ulpdu[1]);
                if (RdmapOpcode.TERMINATE == opcode || RdmapOpcode.READ_RESPONSE == opcode && (ulpdu[0] & 0x40) != 0)
                {
                    return;
                }
            }
        }
        catch (final IOException ignore)
        {
            // Closed by the engine, or the fuzzed stream confused the peer's own framing: both are fine here.
        }
    }

    private static QueuePair acceptNext(
        final Rnic server,
        final ProtectionDomain pd,
        final CompletionQueue cq,
        final MemoryRegion region,
        final List<ConnectionEvent> events,
        final long seed)
    {
        final QueuePair[] accepted = new QueuePair[1];
        Await.until("a connect request (seed " + seed + ")", 10_000, Thread::onSpinWait, () ->
        {
            server.connectionManager().poll(events::add, 64);
            cq.poll((wc) -> { }, 4096);
            for (final ConnectionEvent event : events)
            {
                if (ConnectionEventType.CONNECT_REQUEST == event.type())
                {
                    events.clear();
                    accepted[0] = pd.createQueuePair(new QueuePairAttributes().completionQueue(cq));
                    accepted[0].postRecv(1, region, 0, 64);
                    event.request().accept(accepted[0], new ConnectionParameters());
                    return true;
                }
            }
            return false;
        });
        return accepted[0];
    }
}
