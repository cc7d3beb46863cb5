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
package io.warpbus.bus;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

import io.warpbus.iwarp.ThreadingMode;
import io.warpbus.testing.Await;
import org.agrona.collections.LongArrayList;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bus's clock reads. The publisher timestamp in each frame: one clock read per offer by default, one per duty
 * cycle for offers on the bus's thread with {@code timestamp=cycle}, and still one per offer from any other thread
 * (the bus's epoch nanosecond clock here counts its reads, so every read gives a new, larger value). The epoch
 * milliseconds of heartbeats and liveness: read once a millisecond, not on every duty cycle.
 */
@Timeout(60)
class BusClockTest
{
    @TempDir
    Path dir;
    private Bus bus;
    private Subscription subscription;
    private final AtomicLong clockReads = new AtomicLong();
    private final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
    private final LongArrayList timestamps = new LongArrayList();

    @AfterEach
    void tearDown()
    {
        if (null != bus)
        {
            bus.close();
        }
    }

    @Test
    void shouldReadTheClockForEveryOfferByDefault()
    {
        final long[] stamps = threeOffersThenTwoAfterADutyCycle("warp:ipc?stream=3");
        for (int i = 1; i < stamps.length; i++)
        {
            assertTrue(stamps[i] > stamps[i - 1], "frame " + i + ": " + timestamps);
        }
    }

    @Test
    void shouldShareOneClockReadBetweenOffersOfOneDutyCycle()
    {
        final long[] stamps = threeOffersThenTwoAfterADutyCycle("warp:ipc?stream=3|timestamp=cycle");
        assertEquals(stamps[0], stamps[1], timestamps.toString());
        assertEquals(stamps[0], stamps[2], timestamps.toString());
        assertTrue(stamps[3] > stamps[2], "a new duty cycle reads the clock again: " + timestamps);
        assertEquals(stamps[3], stamps[4], timestamps.toString());
    }

    @Test
    void shouldReadTheClockForEveryOfferFromAnotherThread() throws Exception
    {
        final Publication publication = launch("warp:ipc?stream=3|timestamp=cycle");
        final Thread other = new Thread(() -> offer(publication, 3), "other-publisher");
        other.start();
        other.join(10_000);

        final long[] stamps = receive(3);
        assertTrue(stamps[1] > stamps[0] && stamps[2] > stamps[1], timestamps.toString());
    }

    @Test
    void shouldReadTheEpochMillisecondClockAtMostOnceAMillisecond()
    {
        final AtomicLong epochReads = new AtomicLong();
        bus = Bus.launch(new BusContext().directory(dir).name("epoch").threadingMode(ThreadingMode.INVOKER)
            .epochClock(() ->
            {
                epochReads.incrementAndGet();
                return System.currentTimeMillis();
            }));
        bus.doWork();
        final long before = epochReads.get();
        final long start = System.nanoTime();
        final int cycles = 20_000;
        for (int i = 0; i < cycles; i++)
        {
            bus.doWork();
        }
        final long elapsedMs = (System.nanoTime() - start) / 1_000_000;
        final long reads = epochReads.get() - before;
        assertTrue(reads <= elapsedMs + 1, reads + " reads in " + cycles + " duty cycles over " + elapsedMs + " ms");
        assertTrue(reads >= 1 || elapsedMs < 2, "no read over " + elapsedMs + " ms");
    }

    private long[] threeOffersThenTwoAfterADutyCycle(final String channel)
    {
        final Publication publication = launch(channel);
        offer(publication, 3);
        bus.doWork();
        offer(publication, 2);
        return receive(5);
    }

    private Publication launch(final String channel)
    {
        final BusContext context = new BusContext().directory(dir).name("stamps").threadingMode(ThreadingMode.INVOKER)
            .termLength(64 * 1024).window(1024 * 1024).ringCapacity(256 * 1024)
            .epochNanoClock(() -> 1_000_000_000L * clockReads.incrementAndGet());
        bus = Bus.launch(context);
        subscription = bus.addSubscription(channel);
        final Publication publication = bus.addExclusivePublication(channel);
        while (!publication.isConnected())
        {
            Await.checkInterrupted();
            bus.doWork();
        }
        return publication;
    }

    private void offer(final Publication publication, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            message.putLong(0, i);
            while (publication.offer(message, 0, 8) < 0)
            {
                Await.checkInterrupted();
                Thread.onSpinWait();
            }
        }
    }

    private long[] receive(final int count)
    {
        while (timestamps.size() < count)
        {
            Await.checkInterrupted();
            bus.doWork();
            subscription.poll((buffer, offset, length, header) -> timestamps.addLong(header.timestampNs()), 10);
        }
        assertEquals(count, timestamps.size(), "frames received");
        return timestamps.toLongArray();
    }
}
