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
package io.warpbus.matching.load;

import io.warpbus.matching.Side;
import org.agrona.collections.Long2LongHashMap;

/**
 * The quotes the generator's market makers believe they have resting, per instrument: preallocated pools of client
 * order id, maker and side, with removal by swapping in the pool's last entry and a client order id to slot map
 * sized so that it never grows.
 * <pre>
 *   slot = instrument * capacity + i,  0 &lt;= i &lt; counts[instrument]
 * </pre>
 */
final class TrackedQuotes
{
    static final int NONE = -1;

    private final int capacity;
    private final long[] clientOrderIds;
    private final int[] makers;
    private final Side[] sides;
    private final int[] counts;
    private final Long2LongHashMap slotByClientOrderId;

    TrackedQuotes(final int instruments, final int capacity)
    {
        this.capacity = capacity;
        clientOrderIds = new long[instruments * capacity];
        makers = new int[instruments * capacity];
        sides = new Side[instruments * capacity];
        counts = new int[instruments];
        slotByClientOrderId = new Long2LongHashMap(instruments * capacity * 2, 0.65f, NONE);
    }

    int size()
    {
        return slotByClientOrderId.size();
    }

    int count(final int instrument)
    {
        return counts[instrument];
    }

    boolean isFull(final int instrument)
    {
        return capacity == counts[instrument];
    }

    int slot(final int instrument, final int index)
    {
        return instrument * capacity + index;
    }

    int instrument(final int slot)
    {
        return slot / capacity;
    }

    long clientOrderId(final int slot)
    {
        return clientOrderIds[slot];
    }

    int maker(final int slot)
    {
        return makers[slot];
    }

    Side side(final int slot)
    {
        return sides[slot];
    }

    void add(final int instrument, final long clientOrderId, final int maker, final Side side)
    {
        final int slot = instrument * capacity + counts[instrument]++;
        clientOrderIds[slot] = clientOrderId;
        makers[slot] = maker;
        sides[slot] = side;
        slotByClientOrderId.put(clientOrderId, slot);
    }

    void remove(final int slot)
    {
        final int instrument = slot / capacity;
        final int last = instrument * capacity + --counts[instrument];
        slotByClientOrderId.remove(clientOrderIds[slot]);
        if (last != slot)
        {
            clientOrderIds[slot] = clientOrderIds[last];
            makers[slot] = makers[last];
            sides[slot] = sides[last];
            slotByClientOrderId.put(clientOrderIds[slot], slot);
        }
        sides[last] = null;
    }

    /**
     * Forget a quote if it is tracked.
     */
    void remove(final long clientOrderId)
    {
        final long slot = slotByClientOrderId.get(clientOrderId);
        if (NONE != slot)
        {
            remove((int)slot);
        }
    }
}
