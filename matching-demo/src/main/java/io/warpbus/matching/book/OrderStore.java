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
package io.warpbus.matching.book;

import io.warpbus.matching.OrderType;
import io.warpbus.matching.Side;
import org.agrona.collections.Long2LongHashMap;

/**
 * The resting orders of a {@link DirectOrderBook}, preallocated as a structure of arrays indexed by slot, with a free
 * list threaded through {@link #next} and an order id to slot map sized so that it never grows.
 * <p>
 * The arrays are package-private for the book and its {@link BookSide}s, which own them: a slot's {@link #prev},
 * {@link #next} and {@link #levels} belong to the side the order rests on, the rest to the book.
 * <pre>
 *   slot:       0      1      2      3   ...  capacity - 1
 *   orderIds    [..]   [..]   [..]   [..]
 *   prev/next   intrusive FIFO of the order's price level; free slots chained through next
 *   levels      level slot of the order's price level in its BookSide
 * </pre>
 */
final class OrderStore
{
    static final int NULL_SLOT = -1;

    final long[] orderIds;
    final long[] clientOrderIds;
    final long[] prices;
    final long[] quantities;
    final long[] filled;
    final int[] accountIds;
    final int[] prev;
    final int[] next;
    final int[] levels;
    final byte[] sides;
    final byte[] types;

    private final Long2LongHashMap slotByOrderId;
    private int freeHead;
    private int size;

    OrderStore(final int capacity)
    {
        if (capacity < 1)
        {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }

        orderIds = new long[capacity];
        clientOrderIds = new long[capacity];
        prices = new long[capacity];
        quantities = new long[capacity];
        filled = new long[capacity];
        accountIds = new int[capacity];
        prev = new int[capacity];
        next = new int[capacity];
        levels = new int[capacity];
        sides = new byte[capacity];
        types = new byte[capacity];
        slotByOrderId = new Long2LongHashMap(capacity * 2, 0.65f, NULL_SLOT);

        for (int i = 0; i < capacity; i++)
        {
            next[i] = i + 1 < capacity ? i + 1 : NULL_SLOT;
        }
        freeHead = 0;
    }

    int capacity()
    {
        return orderIds.length;
    }

    int size()
    {
        return size;
    }

    int slot(final long orderId)
    {
        return (int)slotByOrderId.get(orderId);
    }

    @SuppressWarnings("checkstyle:parameternumber")
    int allocate(
        final long orderId,
        final long clientOrderId,
        final int accountId,
        final Side side,
        final OrderType type,
        final long price,
        final long quantity,
        final long filledQuantity)
    {
        final int slot = freeHead;
        if (NULL_SLOT == slot)
        {
            throw new IllegalStateException("order store full: " + orderIds.length);
        }

        freeHead = next[slot];
        orderIds[slot] = orderId;
        clientOrderIds[slot] = clientOrderId;
        accountIds[slot] = accountId;
        sides[slot] = (byte)side.code();
        types[slot] = (byte)type.code();
        prices[slot] = price;
        quantities[slot] = quantity;
        filled[slot] = filledQuantity;
        prev[slot] = NULL_SLOT;
        next[slot] = NULL_SLOT;
        levels[slot] = NULL_SLOT;
        slotByOrderId.put(orderId, slot);
        size++;

        return slot;
    }

    void free(final int slot)
    {
        slotByOrderId.remove(orderIds[slot]);
        next[slot] = freeHead;
        prev[slot] = NULL_SLOT;
        freeHead = slot;
        size--;
    }

    long leaves(final int slot)
    {
        return quantities[slot] - filled[slot];
    }

    Side side(final int slot)
    {
        return Side.get(sides[slot]);
    }

    OrderType type(final int slot)
    {
        return OrderType.get(types[slot]);
    }
}
