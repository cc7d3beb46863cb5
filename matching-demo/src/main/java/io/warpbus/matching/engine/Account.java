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
package io.warpbus.matching.engine;

import java.util.Arrays;

import io.warpbus.matching.RiskLimits;
import org.agrona.collections.Long2LongHashMap;

/**
 * What the engine knows about one account: its risk limits, its net position per instrument (indexed by the
 * instrument's registration index) and its live orders, client order id to engine order id.
 */
final class Account
{
    static final long NO_ORDER = 0;

    private final int id;
    private final RiskLimits limits;
    private final Long2LongHashMap liveOrders;
    private long[] positions;

    Account(final int id, final RiskLimits limits, final int instrumentCount, final int initialOrderCapacity)
    {
        this.id = id;
        this.limits = limits;
        this.liveOrders = new Long2LongHashMap(initialOrderCapacity, 0.65f, NO_ORDER);
        this.positions = new long[instrumentCount];
    }

    int id()
    {
        return id;
    }

    RiskLimits limits()
    {
        return limits;
    }

    /**
     * Engine order id of a live order.
     *
     * @return the order id, or {@link #NO_ORDER}.
     */
    long liveOrderId(final long clientOrderId)
    {
        return liveOrders.get(clientOrderId);
    }

    boolean hasLiveOrder(final long clientOrderId)
    {
        return NO_ORDER != liveOrders.get(clientOrderId);
    }

    void onLive(final long clientOrderId, final long orderId)
    {
        liveOrders.put(clientOrderId, orderId);
    }

    void onDone(final long clientOrderId)
    {
        liveOrders.remove(clientOrderId);
    }

    int liveOrderCount()
    {
        return liveOrders.size();
    }

    long position(final int instrumentIndex)
    {
        return positions[instrumentIndex];
    }

    void addPosition(final int instrumentIndex, final long delta)
    {
        positions[instrumentIndex] += delta;
    }

    void position(final int instrumentIndex, final long position)
    {
        positions[instrumentIndex] = position;
    }

    /**
     * Make room for positions in newly added instruments; admin path, may allocate.
     */
    void instrumentCount(final int instrumentCount)
    {
        if (instrumentCount > positions.length)
        {
            positions = Arrays.copyOf(positions, instrumentCount);
        }
    }
}
