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
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import io.warpbus.iwarp.ddp.DdpHeaderFlyweight;
import io.warpbus.iwarp.mpa.Fpdu;
import io.warpbus.iwarp.rdmap.RdmapOpcode;
import io.warpbus.testing.ThreadAllocation;
import io.warpbus.testing.WarmUpClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Proves the data path allocates nothing once warm: posting, the engine's duty cycle on both sides (socket I/O,
 * CRC, placement, large Writes, payloads placed straight from the socket, completion retirement, and the listener and
 * deadline polls it makes once a millisecond) and completion polling, measured by the JVM's per-thread allocation
 * counter over many operations.
 */
@Timeout(120)
class SteadyStateAllocationTest
{
    private static final int WARM_UP = 150_000;
    private static final int MEASURED = 50_000;
    private static final int MAX_WINDOWS = 4;
    private static final int LARGE_WRITE = 32 * 1024;
    private static final int LARGE_WARM_UP = 20_000;
    private static final int LARGE_MEASURED = 5_000;
    /** Payload bytes of a Write that arrive with its header; the rest is placed straight from the socket. */
    private static final int FIRST_PIECE = 8192;
    /**
     * Longest wait for one step: the loops spin without checking for interruption, so the test's timeout could
     * not stop them.
     */
    private static final long WAIT_LIMIT_NS = TimeUnit.SECONDS.toNanos(10);

    private final WarmUpClock clock = new WarmUpClock(RnicAgent.SLOW_POLL_INTERVAL_NS);
    private EnginePair pair;
    private MemoryRegion clientSource;
    private MemoryRegion serverSink;
    private MemoryRegion serverRecv;
    private MemoryRegion serverSource;
    private MemoryRegion clientSink;
    private MemoryRegion clientLargeSource;
    private final MemoryRegion[] serverLargeSinks = new MemoryRegion[2];
    private long largeSequence;
    private final CountingHandler clientHandler = new CountingHandler();
    private final CountingHandler serverHandler = new CountingHandler();

    @AfterEach
    void tearDown()
    {
        if (null != pair)
        {
            pair.close();
        }
    }

    @Test
    void shouldNotAllocateInSteadyState() throws IOException
    {
        pair = new EnginePair(new RnicContext().nanoClock(clock), new RnicContext().nanoClock(clock));
        clientSource = pair.clientPd.registerMemory(EnginePair.directBuffer(4096), 0);
        clientSink = pair.clientPd.registerMemory(EnginePair.directBuffer(4096), Access.LOCAL_WRITE);
        serverSink = pair.serverPd.registerMemory(EnginePair.directBuffer(4096), Access.REMOTE_WRITE);
        serverRecv = pair.serverPd.registerMemory(EnginePair.directBuffer(4096), Access.LOCAL_WRITE);
        serverSource = pair.serverPd.registerMemory(EnginePair.directBuffer(4096), Access.REMOTE_READ);
        clientLargeSource = pair.clientPd.registerMemory(EnginePair.directBuffer(LARGE_WRITE), 0);
        serverLargeSinks[0] = pair.serverPd.registerMemory(EnginePair.directBuffer(LARGE_WRITE), Access.REMOTE_WRITE);
        serverLargeSinks[1] = pair.serverPd.registerMemory(EnginePair.directBuffer(LARGE_WRITE), Access.REMOTE_WRITE);
        for (int i = 0; i < 64; i++)
        {
            pair.serverQp.postRecv(i, serverRecv, 0, 4096);
        }
        pair.connect();

        // The warm-up polls the listener and checks deadlines on every duty cycle instead of once a millisecond
        // (see WarmUpClock), so the JIT is done with that path before anything is measured: the first C2 compile
        // of a class resolves its string literals, allocating, and on a path run by the clock that came seconds in,
        // inside a window (56 bytes for the JDK's SelectorImpl, 192 for ArrayDeque, 120 for HashSet).
        clock.warmingUp(true);
        runOperations(WARM_UP);
        runLargeWrites(LARGE_WARM_UP);
        clock.warmingUp(false);
        assertTrue(clock.offsetNs() >= WARM_UP * RnicAgent.SLOW_POLL_INTERVAL_NS, "warm-up duty cycles polled");
        // And a part at the system's rate: with the clock stepping a millisecond a reading, a streaming connection's
        // writes were never held (a hold is 20 us), and the first holds would come, and be compiled, in a window.
        runOperations(WARM_UP / 3);
        runLargeWrites(LARGE_WARM_UP / 2);
        // The JDK links some socket natives lazily, the first time a path is taken (a short write under load, for
        // example), and that costs a one-off allocation of a few dozen bytes. Steady state means it does not come
        // back: two consecutive windows must allocate nothing, and every window is reported if they never do.
        final StringBuilder windows = new StringBuilder();
        final int zeroWindowsInARow = measureWindows(() ->
        {
            runOperations(MEASURED);
            runLargeWrites(LARGE_MEASURED);
        }, windows);

        assertTrue(serverHandler.count >= WARM_UP + MEASURED, "operations did not complete: " + serverHandler.count);
        assertEquals(2, zeroWindowsInARow,
            "bytes allocated per window of " + MEASURED + " rounds of Writes, Sends and Reads and " + LARGE_MEASURED +
            " large Writes: " + windows);
    }

    @Test
    void shouldNotAllocateWhilePlacingPayloadsStraightFromTheSocket() throws IOException
    {
        pair = new EnginePair(new RnicContext().nanoClock(clock), new RnicContext().nanoClock(clock));
        final MemoryRegion sink = pair.serverPd.registerMemory(EnginePair.directBuffer(LARGE_WRITE),
            Access.REMOTE_WRITE);
        try (RawPeer peer = new RawPeer(pair.listen()))
        {
            peer.sendRequest(16, 1, new byte[0]);
            pair.awaitServerEvent(ConnectionEventType.CONNECT_REQUEST).request()
                .accept(pair.serverQp, new ConnectionParameters());
            for (int i = 0; i < 100; i++)
            {
                pair.server.doWork();
            }
            assertEquals(0, peer.readReply()[16] & 0x20, "the connection was rejected");
            peer.sendWriteRtr();
            pair.awaitServerEvent(ConnectionEventType.ESTABLISHED);

            // Two Writes of the whole region that differ in two bytes, each framed once and sent in two pieces: the
            // header with the first 8 KiB of payload, then the rest once the server has read that. Its read ends
            // inside the FPDU with 24 KiB still to come, which it reads straight into the region.
            final byte[][][] writes = new byte[2][][];
            for (int w = 0; w < 2; w++)
            {
                final byte[] payload = new byte[LARGE_WRITE];
                payload[FIRST_PIECE - 1] = (byte)(w + 1);
                payload[LARGE_WRITE - 1] = (byte)(w + 1);
                final byte[] fpdu = peer.taggedFpdu(DdpHeaderFlyweight.VERSION, RdmapOpcode.control(RdmapOpcode.WRITE),
                    sink.stag(), sink.address(), payload, true);
                final int split = Fpdu.LENGTH_FIELD_LENGTH + DdpHeaderFlyweight.TAGGED_HEADER_LENGTH + FIRST_PIECE;
                writes[w] = new byte[][] { Arrays.copyOfRange(fpdu, 0, split), Arrays.copyOfRange(fpdu, split,
                    fpdu.length) };
            }

            clock.warmingUp(true);
            placeInPieces(peer, sink, writes, LARGE_WARM_UP);
            clock.warmingUp(false);
            placeInPieces(peer, sink, writes, LARGE_WARM_UP / 2);
            final long sentBefore = largeSequence;
            final long placedBefore = pair.server.counters().fpdusPlacedDirectly();
            final StringBuilder windows = new StringBuilder();
            final int zeroWindowsInARow = measureWindows(() -> placeInPieces(peer, sink, writes, LARGE_MEASURED),
                windows);

            assertEquals(largeSequence - sentBefore, pair.server.counters().fpdusPlacedDirectly() - placedBefore,
                "measured Writes placed straight from the socket");
            assertEquals(2, zeroWindowsInARow, "bytes allocated (by the server's engine and the raw peer's " +
                "socket writes) per window of " + LARGE_MEASURED + " Writes placed in two pieces: " + windows);
        }
    }

    /**
     * Run windows of work, each measured, until two in a row allocate nothing or {@link #MAX_WINDOWS} have run.
     *
     * @param work    one window's work; made before the first window, so making it is not measured.
     * @param windows gets the bytes allocated in each window.
     * @return the windows in a row at the end that allocated nothing.
     */
    private static int measureWindows(final Window work, final StringBuilder windows) throws IOException
    {
        int zeroWindowsInARow = 0;
        for (int window = 0; window < MAX_WINDOWS && zeroWindowsInARow < 2; window++)
        {
            final long before = ThreadAllocation.current();
            work.run();
            final long allocated = ThreadAllocation.current() - before;
            windows.append(allocated).append(' ');
            zeroWindowsInARow = 0 == allocated ? zeroWindowsInARow + 1 : 0;
        }
        return zeroWindowsInARow;
    }

    /** One measured window's work. */
    private interface Window
    {
        void run() throws IOException;
    }

    private void placeInPieces(final RawPeer peer, final MemoryRegion sink, final byte[][][] writes, final int count)
        throws IOException
    {
        for (int i = 0; i < count; i++)
        {
            final byte value = (byte)((i & 1) + 1);
            final byte[][] pieces = writes[i & 1];
            largeSequence++;
            peer.sendRaw(pieces[0]);
            long deadlineNs = System.nanoTime() + WAIT_LIMIT_NS;
            while (sink.buffer().getByteVolatile(FIRST_PIECE - 1) != value)
            {
                pair.server.doWork();
                failAfter(deadlineNs, "the first piece of a Write to be placed");
            }
            peer.sendRaw(pieces[1]);
            deadlineNs = System.nanoTime() + WAIT_LIMIT_NS;
            while (sink.buffer().getByteVolatile(LARGE_WRITE - 1) != value)
            {
                pair.server.doWork();
                failAfter(deadlineNs, "the rest of a Write to be placed straight from the socket");
            }
        }
    }

    /**
     * Each round: an unsignaled 64-byte Write and a signaled 64-byte Send from the client, every fourth round a
     * 4 KiB Write and every eighth a 4 KiB RDMA Read (both sent from their regions without a copy); the server
     * reposts each receive. Both engines run on this thread.
     */
    private void runOperations(final int rounds)
    {
        final QueuePair client = pair.clientQp;
        final QueuePair server = pair.serverQp;
        final int target = serverHandler.count + rounds;
        final long deadlineNs = System.nanoTime() + 6 * WAIT_LIMIT_NS;
        int sent = 0;
        while (serverHandler.count < target)
        {
            failAfter(deadlineNs, "a run of operations to complete");
            if (sent < rounds && client.sendQueueAvailable() >= 4 && sent - serverHandler.countSince(target,
                rounds) < 32)
            {
                client.postWrite(0, clientSource, 0, 64, serverSink.stag(), serverSink.address(), 0);
                client.postSend(1, clientSource, 64, 64, QueuePair.SIGNALED);
                if ((sent & 7) == 0)
                {
                    // Large enough that the response's payload is written from its region, not copied.
                    client.postRead(2, clientSink, 0, 4096, serverSource.stag(), serverSource.address(), 0);
                }
                if ((sent & 3) == 0)
                {
                    client.postWrite(3, clientSource, 0, 4096, serverSink.stag(), serverSink.address(), 0);
                }

                sent++;
            }
            pair.server.doWork();
            pair.client.doWork();
            pair.clientCq.poll(clientHandler, 64);
            final int received = pair.serverCq.poll(serverHandler, 64);
            for (int i = 0; i < received; i++)
            {
                server.postRecv(i, serverRecv, 0, 4096);
            }
        }
    }

    /**
     * 32 KiB Writes one at a time into two regions in turn, each awaited (its last 8 bytes) and followed by a few
     * idle duty cycles: the receiver is then waiting when the next one comes, reads its header alone and places its
     * payload straight from the socket.
     */
    private void runLargeWrites(final int count)
    {
        for (int i = 0; i < count; i++)
        {
            final long sequence = ++largeSequence;
            final MemoryRegion sink = serverLargeSinks[i & 1];
            clientLargeSource.buffer().putLong(LARGE_WRITE - 8, sequence);
            pair.clientQp.postWrite(4, clientLargeSource, 0, LARGE_WRITE, sink.stag(), sink.address(), 0);
            final long deadlineNs = System.nanoTime() + WAIT_LIMIT_NS;
            while (sink.buffer().getLongVolatile(LARGE_WRITE - 8) != sequence)
            {
                pair.client.doWork();
                pair.server.doWork();
                failAfter(deadlineNs, "a large Write to be placed");
            }
            for (int idle = 0; idle < 4; idle++)
            {
                pair.client.doWork();
                pair.server.doWork();
            }
        }
    }

    private static void failAfter(final long deadlineNs, final String what)
    {
        if (System.nanoTime() - deadlineNs > 0)
        {
            throw new AssertionError("timed out waiting for " + what);
        }
    }

    private static final class CountingHandler implements CompletionHandler
    {
        int count;

        @Override
        public void onCompletion(final WorkCompletion completion)
        {
            if (CompletionStatus.SUCCESS != completion.status())
            {
                throw new IllegalStateException("completion failed: " + completion.status());
            }
            count++;
        }

        int countSince(final int target, final int rounds)
        {
            return count - (target - rounds);
        }
    }
}
