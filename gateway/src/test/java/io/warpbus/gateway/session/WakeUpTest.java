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
package io.warpbus.gateway.session;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import io.warpbus.testing.Await;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The threads that hand work to each other wake each other: a thread parked with no time limit, as an idle
 * strategy's park is at its longest, only returns here because it is unparked.
 */
@Timeout(30)
class WakeUpTest
{
    @Test
    void shouldWakeTheCoreWhenACommandIsQueued() throws InterruptedException
    {
        final ManyToOneRingBuffer ring = new ManyToOneRingBuffer(new UnsafeBuffer(ByteBuffer.allocateDirect(
            64 * 1024 + RingBufferDescriptor.TRAILER_LENGTH)));
        final CommandProxy proxy = new CommandProxy(ring);
        final Thread core = parkedUntil(() -> ring.size() > 0);
        proxy.consumer(core);
        awaitParked(core);

        assertTrue(proxy.simple(CommandDescriptor.LOGOUT, 0, 1L, "r1"));
        core.join(TimeUnit.SECONDS.toMillis(10));
        assertTrue(!core.isAlive(), "the core took the command");
    }

    @Test
    void shouldWakeTheSenderWhenTheCoreHasQueuedSomething() throws InterruptedException
    {
        try (ConnectionTable table = new ConnectionTable(1, ConnectionTable.MIN_QUEUE_BYTES))
        {
            final Connection connection = table.acquire(1, "socket");
            final Thread sender = parkedUntil(() -> connection.outbound().size() > 0);
            table.addDrainer(1, () -> LockSupport.unpark(sender));
            awaitParked(sender);

            assertTrue(connection.outbound().write(EventDescriptor.HEARTBEAT, new UnsafeBuffer(new byte[64]), 0,
                64));
            table.wakeDrainers();
            sender.join(TimeUnit.SECONDS.toMillis(10));
            assertTrue(!sender.isAlive(), "the sender saw the queued event");
        }
    }

    @Test
    void shouldWakeOnlyTheDrainersOfAdaptersWithConnections()
    {
        try (ConnectionTable table = new ConnectionTable(2, ConnectionTable.MIN_QUEUE_BYTES))
        {
            final AtomicInteger first = new AtomicInteger();
            final AtomicInteger second = new AtomicInteger();
            table.addDrainer(1, first::incrementAndGet);
            table.addDrainer(2, second::incrementAndGet);
            final Connection connection = table.acquire(2, "socket");

            table.wakeDrainers();
            assertEquals(0, first.get(), "adapter 1 has no connection");
            assertEquals(1, second.get());
            assertEquals(1, table.inUse(2));

            connection.retire();
            table.release(connection);
            table.wakeDrainers();
            assertEquals(1, second.get(), "adapter 2 has none any more");
        }
    }

    private static Thread parkedUntil(final BooleanSupplier condition)
    {
        final Thread thread = new Thread(() ->
        {
            while (!condition.getAsBoolean())
            {
                LockSupport.park();
            }
        });
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static void awaitParked(final Thread thread) throws InterruptedException
    {
        Await.until(thread.getName() + " to park", 10_000, () -> Thread.State.WAITING == thread.getState());
        // Parked once more: nothing but an unpark can end this wait.
        Thread.sleep(50);
    }
}
