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

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.IdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A sender with no connections parks long and is woken by its waker; with connections, or with work, its back-off
 * decides.
 */
@Timeout(30)
class DrainerIdleStrategyTest
{
    private static final int ADAPTER = 3;
    /** Longer than the test's timeout: a park that ends before it was ended by the wake-up. */
    private static final long LONG_PARK_NS = TimeUnit.MINUTES.toNanos(5);

    private final AtomicInteger busyIdles = new AtomicInteger();
    private final AtomicInteger busyResets = new AtomicInteger();
    private final IdleStrategy busy = new IdleStrategy()
    {
        @Override
        public void idle(final int workCount)
        {
            busyIdles.incrementAndGet();
        }

        @Override
        public void idle()
        {
            busyIdles.incrementAndGet();
        }

        @Override
        public void reset()
        {
            busyResets.incrementAndGet();
        }
    };

    @Test
    void shouldParkUntilWokenWhileTheAdapterHasNoConnections() throws Exception
    {
        try (ConnectionTable table = new ConnectionTable(2, ConnectionTable.MIN_QUEUE_BYTES))
        {
            final DrainerIdleStrategy strategy = new DrainerIdleStrategy(table, ADAPTER, busy, LONG_PARK_NS);
            final Thread sender = new Thread(() -> strategy.idle(0), "sender");
            sender.start();
            // Still parked well after a back-off's longest park would have ended.
            final long parkedUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
            while (System.nanoTime() - parkedUntil < 0)
            {
                assertTrue(sender.isAlive(), "the sender stopped parking on its own");
                Thread.sleep(10);
            }
            assertEquals(Thread.State.TIMED_WAITING, sender.getState());
            LockSupport.unpark(sender);
            sender.join(TimeUnit.SECONDS.toMillis(20));
            assertFalse(sender.isAlive(), "the waker did not end the park");
            assertEquals(0, busyIdles.get(), "no back-off while there is nothing to drain");
        }
    }

    @Test
    void shouldBackOffWhileTheAdapterHasConnections()
    {
        try (ConnectionTable table = new ConnectionTable(2, ConnectionTable.MIN_QUEUE_BYTES))
        {
            final DrainerIdleStrategy strategy = new DrainerIdleStrategy(table, ADAPTER, busy, LONG_PARK_NS);
            table.acquire(ADAPTER + 1, "another adapter's");
            // A permit first, so that the park this takes returns at once.
            LockSupport.unpark(Thread.currentThread());
            strategy.idle(0);
            assertEquals(0, busyIdles.get(), "parked: the other adapter's connection is not this sender's");

            final Connection connection = table.acquire(ADAPTER, "ours");
            strategy.idle(0);
            strategy.idle();
            assertEquals(2, busyIdles.get());

            connection.retire();
            table.release(connection);
            LockSupport.unpark(Thread.currentThread());
            strategy.idle(0);
            assertEquals(2, busyIdles.get(), "parked again once the last connection left");
        }
    }

    @Test
    void shouldLeaveWorkToTheBackOffEvenWithoutConnections()
    {
        try (ConnectionTable table = new ConnectionTable(1, ConnectionTable.MIN_QUEUE_BYTES))
        {
            final DrainerIdleStrategy strategy = new DrainerIdleStrategy(table, ADAPTER, busy, LONG_PARK_NS);
            strategy.idle(3);
            assertEquals(1, busyIdles.get());
            strategy.reset();
            assertEquals(1, busyResets.get());
        }
    }

    @Test
    void shouldRefuseAParkThatIsNotPositive()
    {
        try (ConnectionTable table = new ConnectionTable(1, ConnectionTable.MIN_QUEUE_BYTES))
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> new DrainerIdleStrategy(table, ADAPTER, busy, 0));
            assertTrue(ex.getMessage().contains("quiet park must be positive"), ex.getMessage());
        }
    }
}
