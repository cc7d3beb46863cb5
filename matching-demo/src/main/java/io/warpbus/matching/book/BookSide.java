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

import io.warpbus.matching.Side;

import static io.warpbus.matching.book.OrderStore.NULL_SLOT;

/**
 * One side of a {@link DirectOrderBook}: its price levels, sorted, each with an intrusive FIFO of orders.
 * <p>
 * Levels live in preallocated slots (price, total quantity, order count, head and tail order slot). Which slot holds
 * which price is kept in two parallel arrays sorted by key, {@code price} for bids and {@code -price} for asks, so
 * that on both sides the best level is the last element: matching takes and removes it in O(1), a new level is
 * placed by binary search and an {@code arraycopy} of the levels that are better than it, which near the top of the
 * book are few.
 * <pre>
 *   index:        0        1       ...   count - 1
 *   keys          worst    ...             best
 *   levelSlots    -> level slot: price, quantity, orderCount, head -> order -> order -> ... <- tail
 * </pre>
 * Depth, as market data counts it, is {@code count - index}: 1 for the best level.
 */
final class BookSide
{
    private final Side side;
    private final OrderStore orders;
    private final long[] keys;
    private final int[] levelSlots;
    private final long[] levelPrices;
    private final long[] levelQuantities;
    private final int[] levelOrderCounts;
    private final int[] levelHeads;
    private final int[] levelTails;
    private final int[] nextFreeLevel;
    private int freeLevelHead;
    private int count;

    BookSide(final Side side, final OrderStore orders, final int capacity)
    {
        this.side = side;
        this.orders = orders;
        keys = new long[capacity];
        levelSlots = new int[capacity];
        levelPrices = new long[capacity];
        levelQuantities = new long[capacity];
        levelOrderCounts = new int[capacity];
        levelHeads = new int[capacity];
        levelTails = new int[capacity];
        nextFreeLevel = new int[capacity];
        for (int i = 0; i < capacity; i++)
        {
            nextFreeLevel[i] = i + 1 < capacity ? i + 1 : NULL_SLOT;
        }
        freeLevelHead = 0;
    }

    Side side()
    {
        return side;
    }

    int levelCount()
    {
        return count;
    }

    /**
     * Level slot at a depth, counted from 0 for the best level.
     */
    int levelAt(final int depthIndex)
    {
        return levelSlots[count - 1 - depthIndex];
    }

    int bestLevel()
    {
        return 0 == count ? NULL_SLOT : levelSlots[count - 1];
    }

    long bestPrice()
    {
        return 0 == count ? OrderBook.NULL_PRICE : levelPrices[levelSlots[count - 1]];
    }

    long price(final int level)
    {
        return levelPrices[level];
    }

    long quantity(final int level)
    {
        return levelQuantities[level];
    }

    int orderCount(final int level)
    {
        return levelOrderCounts[level];
    }

    int head(final int level)
    {
        return levelHeads[level];
    }

    /**
     * Depth of a level, 1 for the best.
     */
    int depth(final int level)
    {
        return count - indexOf(key(levelPrices[level]));
    }

    /**
     * Append a stored order to the back of the queue at its price, creating the level if there is none.
     *
     * @return true if the level was created.
     */
    boolean append(final int slot)
    {
        final long key = key(orders.prices[slot]);
        final int index = indexOf(key);
        final boolean created = index < 0;
        final int level;
        if (created)
        {
            level = insertLevel(-index - 1, key, orders.prices[slot]);
        }
        else
        {
            level = levelSlots[index];
        }

        final int tail = levelTails[level];
        orders.prev[slot] = tail;
        orders.next[slot] = NULL_SLOT;
        if (NULL_SLOT == tail)
        {
            levelHeads[level] = slot;
        }
        else
        {
            orders.next[tail] = slot;
        }
        levelTails[level] = slot;
        orders.levels[slot] = level;
        levelOrderCounts[level]++;
        levelQuantities[level] += orders.leaves(slot);

        return created;
    }

    /**
     * Take an order out of its level's queue, leaving the level in place even when it is now empty: the caller
     * reports the level and then calls {@link #removeLevel(int)}.
     */
    void unlink(final int slot)
    {
        final int level = orders.levels[slot];
        final int before = orders.prev[slot];
        final int after = orders.next[slot];
        if (NULL_SLOT == before)
        {
            levelHeads[level] = after;
        }
        else
        {
            orders.next[before] = after;
        }
        if (NULL_SLOT == after)
        {
            levelTails[level] = before;
        }
        else
        {
            orders.prev[after] = before;
        }
        orders.prev[slot] = NULL_SLOT;
        orders.next[slot] = NULL_SLOT;
        orders.levels[slot] = NULL_SLOT;
        levelOrderCounts[level]--;
        levelQuantities[level] -= orders.leaves(slot);
    }

    /**
     * Move an order to the back of its level, losing its time priority.
     */
    void moveToBack(final int slot)
    {
        unlink(slot);
        append(slot);
    }

    /**
     * Adjust a level's total after an order at it traded or was amended in place.
     */
    void addQuantity(final int level, final long delta)
    {
        levelQuantities[level] += delta;
    }

    /**
     * Remove an empty level.
     */
    void removeLevel(final int level)
    {
        final int last = count - 1;
        if (levelSlots[last] != level)
        {
            final int index = indexOf(key(levelPrices[level]));
            System.arraycopy(keys, index + 1, keys, index, last - index);
            System.arraycopy(levelSlots, index + 1, levelSlots, index, last - index);
        }
        count = last;
        levelHeads[level] = NULL_SLOT;
        levelTails[level] = NULL_SLOT;
        nextFreeLevel[level] = freeLevelHead;
        freeLevelHead = level;
    }

    private int insertLevel(final int index, final long key, final long price)
    {
        final int level = freeLevelHead;
        if (NULL_SLOT == level)
        {
            throw new IllegalStateException("no free price level: " + keys.length);
        }
        freeLevelHead = nextFreeLevel[level];

        System.arraycopy(keys, index, keys, index + 1, count - index);
        System.arraycopy(levelSlots, index, levelSlots, index + 1, count - index);
        keys[index] = key;
        levelSlots[index] = level;
        count++;

        levelPrices[level] = price;
        levelQuantities[level] = 0;
        levelOrderCounts[level] = 0;
        levelHeads[level] = NULL_SLOT;
        levelTails[level] = NULL_SLOT;

        return level;
    }

    private long key(final long price)
    {
        return Side.BUY == side ? price : -price;
    }

    /**
     * Binary search, searching from the best end first since most activity is at the top of the book.
     *
     * @return the index of the key, or {@code -(insertion point) - 1}.
     */
    private int indexOf(final long key)
    {
        final long[] keys = this.keys;
        final int last = count - 1;
        if (last >= 0 && keys[last] <= key)
        {
            return keys[last] == key ? last : -(last + 1) - 1;
        }

        int low = 0;
        int high = last;
        while (low <= high)
        {
            final int mid = (low + high) >>> 1;
            final long midKey = keys[mid];
            if (midKey < key)
            {
                low = mid + 1;
            }
            else if (midKey > key)
            {
                high = mid - 1;
            }
            else
            {
                return mid;
            }
        }

        return -(low + 1);
    }
}
