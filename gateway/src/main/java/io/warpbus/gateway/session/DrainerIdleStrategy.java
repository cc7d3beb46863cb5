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
import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

/**
 * The idle strategy of a sender that drains one adapter's outbound queues: {@code busy} (a back-off) while the
 * adapter has connections, parks of {@code quietParkNs} while it has none. The core wakes a sender only while its
 * adapter has connections ({@link ConnectionTable#wakeDrainers()}), so a back-off of at most 200 us would wake an
 * unused sender 5,000 times a second for nothing; in the demo on two cores the FIX sender, with no FIX session,
 * took 7 % of a core so (docs/performance.md, "The demo on two cores"). A new connection's first events wake the
 * sender at once; anything else that comes while it parks waits at most one quiet park.
 */
public final class DrainerIdleStrategy implements IdleStrategy
{
    private static final long QUIET_PARK_NS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final int SENDER_SPINS = 10;
    private static final int SENDER_YIELDS = 5;
    private static final long SENDER_MIN_PARK_NS = 1_000;
    private static final long SENDER_MAX_PARK_NS = 200_000;

    private final ConnectionTable connections;
    private final int adapter;
    private final IdleStrategy busy;
    private final long quietParkNs;

    /**
     * A strategy for one sender.
     *
     * @param connections the table the sender drains.
     * @param adapter     the adapter whose connections it drains.
     * @param busy        the strategy while the adapter has connections.
     * @param quietParkNs how long to park while it has none; the sender's waker ends a park early.
     */
    public DrainerIdleStrategy(
        final ConnectionTable connections, final int adapter, final IdleStrategy busy, final long quietParkNs)
    {
        if (quietParkNs <= 0)
        {
            throw new IllegalArgumentException("quiet park must be positive: " + quietParkNs + " ns");
        }
        this.connections = connections;
        this.adapter = adapter;
        this.busy = busy;
        this.quietParkNs = quietParkNs;
    }

    /**
     * The strategy of the gateway's senders: a back-off of 10 spins, 5 yields and parks of 1 to 200 us while the
     * adapter has connections, parks of 10 ms while it has none.
     *
     * @param connections the table the sender drains.
     * @param adapter     the adapter whose connections it drains.
     * @return the strategy.
     */
    public static DrainerIdleStrategy forSender(final ConnectionTable connections, final int adapter)
    {
        return new DrainerIdleStrategy(connections, adapter, new BackoffIdleStrategy(SENDER_SPINS, SENDER_YIELDS,
            SENDER_MIN_PARK_NS, SENDER_MAX_PARK_NS), QUIET_PARK_NS);
    }

    @Override
    public void idle(final int workCount)
    {
        if (workCount <= 0 && 0 == connections.inUse(adapter))
        {
            busy.reset();
            LockSupport.parkNanos(quietParkNs);
        }
        else
        {
            busy.idle(workCount);
        }
    }

    @Override
    public void idle()
    {
        idle(0);
    }

    @Override
    public void reset()
    {
        busy.reset();
    }

    @Override
    public String alias()
    {
        return "drainer";
    }
}
