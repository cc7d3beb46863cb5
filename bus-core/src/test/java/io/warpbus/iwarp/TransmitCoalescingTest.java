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

import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.NanoClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Transmit coalescing: a streaming connection's queued FPDUs wait for the next duty cycles' up to the hold or the
 * size, and nothing else waits. The engines' clock stands still while a test counts the client's socket writes, so
 * which cycle writes is decided by the code, not by how fast this machine runs the test.
 */
@Timeout(30)
class TransmitCoalescingTest
{
    private static final long HOLD_NS = TimeUnit.MICROSECONDS.toNanos(20);
    private static final int CHUNK = 2048;
    private static final int REGION = 256 * 1024;

    private final StoppableClock clock = new StoppableClock();
    private EnginePair pair;
    private MemoryRegion source;
    private MemoryRegion sink;
    private int nextOffset;
    private byte nextValue = 1;

    @AfterEach
    void tearDown()
    {
        // Closing lingers by the engines' clock: a test that failed with it stopped must not hang here.
        clock.run();
        if (null != pair)
        {
            pair.close();
        }
    }

    @Test
    void shouldHoldAStreamingConnectionsSmallWritesUntilTheHoldEndsAndDeliverThemWhole()
    {
        connect(HOLD_NS, RnicConfiguration.COALESCE_BYTES_DEFAULT);
        stream();

        final long before = writes();
        final int first = nextOffset;
        for (int i = 0; i < 4; i++)
        {
            post(CHUNK);
            pair.client.doWork();
        }
        pair.client.doWork();
        assertEquals(before, writes(), "four cycles' writes held within the hold");

        clock.advance(HOLD_NS);
        pair.client.doWork();
        assertEquals(before + 1, writes(), "all four in one socket write once the hold ended");
        clock.run();
        awaitPlaced(first, 4 * CHUNK);
    }

    @Test
    void shouldWriteAtOnceOnceTheCoalescingSizeIsQueued()
    {
        // Smaller than the assembler's own pipelining write (32 KiB), so that it is this size that sends.
        final int size = 16 * 1024;
        connect(HOLD_NS, size);
        stream();

        final long before = writes();
        final int first = nextOffset;
        final int chunks = size / CHUNK - 1;
        for (int i = 0; i < chunks; i++)
        {
            post(CHUNK);
        }
        pair.client.doWork();
        assertEquals(before, writes(), "less than the size queued: held");
        post(CHUNK);
        post(CHUNK);
        pair.client.doWork();
        assertEquals(before + 1, writes(), "the size queued goes at once, within the hold");
        clock.run();
        awaitPlaced(first, (chunks + 2) * CHUNK);
    }

    @Test
    void shouldSendAtOnceAfterACycleWithNothingToSendOrAfterASmallWrite()
    {
        connect(HOLD_NS, RnicConfiguration.COALESCE_BYTES_DEFAULT);
        stream();

        pair.client.doWork();
        long before = writes();
        post(64);
        pair.client.doWork();
        assertEquals(before + 1, writes(), "a message after a cycle with nothing to send goes at once");

        before = writes();
        post(64);
        pair.client.doWork();
        assertEquals(before + 1, writes(), "after a small write the connection no longer streams");
        clock.run();
    }

    @Test
    void shouldNeverHoldAPingPongOfMessagesOverTheStreamingSize()
    {
        connect(HOLD_NS, RnicConfiguration.COALESCE_BYTES_DEFAULT);
        stream();
        pair.client.doWork();

        // Each message waits for the one before it to be placed, as a ping waits for its pong: the cycles in between
        // have nothing to send, so none is held, though every write is over the streaming size. With the clock
        // stopped a held one would never leave.
        final int size = 4 * RnicConfiguration.STREAMING_WRITE;
        for (int i = 0; i < 10; i++)
        {
            final int first = nextOffset;
            post(size);
            awaitPlaced(first, size);
        }
    }

    @Test
    void shouldSendTheRestOfALargeMessageItBeganToSendInTheSameCycle()
    {
        connect(HOLD_NS, RnicConfiguration.COALESCE_BYTES_DEFAULT);
        stream();

        // Alone in the queue and over twice the assembler's pipelining size, so its first parts go to TCP while the
        // rest is built. The rest belongs to a message already on its way (a large ping-pong's round trip), and
        // must not wait out a hold: with the clock stopped, a hold would never end.
        final int first = nextOffset;
        final int size = 2 * SegmentAssembler.PIPELINE_THRESHOLD + 3000;
        post(size);
        pair.client.doWork();
        awaitPlaced(first, size);
    }

    @Test
    void shouldNeverHoldWhenCoalescingIsOff()
    {
        connect(0, RnicConfiguration.COALESCE_BYTES_DEFAULT);
        stream();

        final long before = writes();
        post(CHUNK);
        pair.client.doWork();
        assertEquals(before + 1, writes(), "no hold");
        clock.run();
    }

    @Test
    void shouldRefuseCoalescingSettingsOutOfRange()
    {
        final IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
            () -> new RnicContext().coalesceHoldNs(-1).conclude());
        assertTrue(negative.getMessage().contains(RnicConfiguration.COALESCE_HOLD_PROP_NAME), negative.getMessage());

        final IllegalArgumentException small = assertThrows(IllegalArgumentException.class,
            () -> new RnicContext().coalesceBytes(RnicConfiguration.STREAMING_WRITE).conclude());
        assertTrue(small.getMessage().contains(RnicConfiguration.COALESCE_BYTES_PROP_NAME), small.getMessage());

        final IllegalArgumentException large = assertThrows(IllegalArgumentException.class,
            () -> new RnicContext().ioBufferLength(256 * 1024).coalesceBytes(256 * 1024).conclude());
        assertTrue(large.getMessage().contains("at most half"), large.getMessage());
    }

    private void connect(final long holdNs, final int bytes)
    {
        pair = new EnginePair(new RnicContext().nanoClock(clock),
            new RnicContext().nanoClock(clock).coalesceHoldNs(holdNs).coalesceBytes(bytes));
        pair.connect();
        source = pair.clientPd.registerMemory(EnginePair.directBuffer(REGION), 0);
        sink = pair.serverPd.registerMemory(EnginePair.directBuffer(REGION), Access.REMOTE_WRITE);
    }

    /**
     * Stop the clock, and make one large write in one duty cycle: the connection's last socket write now makes it a
     * streaming one, and FPDUs assembled in the next cycle come in a row.
     */
    private void stream()
    {
        clock.stop();
        final long before = writes();
        post(4 * RnicConfiguration.STREAMING_WRITE);
        pair.client.doWork();
        assertEquals(before + 1, writes(), "the stream's first write");
    }

    /** Post an unsignaled RDMA Write of {@code length} bytes of a value of its own, to the same offset remotely. */
    private void post(final int length)
    {
        for (int i = 0; i < length; i++)
        {
            source.buffer().putByte(nextOffset + i, nextValue);
        }
        assertEquals(QueuePair.POSTED, pair.clientQp.postWrite(
            0, source, nextOffset, length, sink.stag(), sink.taggedOffset(nextOffset), 0));
        nextOffset += length;
        nextValue++;
    }

    private boolean placed(final int offset, final int length)
    {
        for (int i = 0; i < length; i++)
        {
            if (sink.buffer().getByte(offset + i) != source.buffer().getByte(offset + i))
            {
                return false;
            }
        }
        return true;
    }

    private void awaitPlaced(final int offset, final int length)
    {
        pair.pumpUntil(() -> placed(offset, length), length + " bytes from offset " + offset + " to be placed");
    }

    private long writes()
    {
        return pair.client.counters().socketWrites();
    }

    /** System time, or a time that only the test moves on. */
    private static final class StoppableClock implements NanoClock
    {
        private volatile boolean stopped;
        private volatile long stoppedAt;

        void stop()
        {
            stoppedAt = System.nanoTime();
            stopped = true;
        }

        void advance(final long ns)
        {
            stoppedAt += ns;
        }

        void run()
        {
            stopped = false;
        }

        @Override
        public long nanoTime()
        {
            return stopped ? stoppedAt : System.nanoTime();
        }
    }
}
