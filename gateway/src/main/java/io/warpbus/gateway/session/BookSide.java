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

import java.util.Arrays;

/**
 * One side of an L2 book, price levels kept sorted best first (bids descending, asks ascending) in parallel arrays,
 * so that a whole-book message is a straight copy and an update a binary search. Grows only past its initial
 * capacity. Owned by the session core's thread.
 */
final class BookSide
{
    private final boolean bids;
    private long[] prices;
    private long[] quantities;
    private int[] orders;
    private int size;

    BookSide(final boolean bids, final int initialCapacity)
    {
        this.bids = bids;
        prices = new long[initialCapacity];
        quantities = new long[initialCapacity];
        orders = new int[initialCapacity];
    }

    int size()
    {
        return size;
    }

    long price(final int level)
    {
        return prices[level];
    }

    long quantity(final int level)
    {
        return quantities[level];
    }

    int orders(final int level)
    {
        return orders[level];
    }

    void clear()
    {
        size = 0;
    }

    /**
     * Set a level, adding it if new; a quantity of zero or less removes it.
     *
     * @param price     the level's price.
     * @param quantity  total at the level.
     * @param orderCount orders at the level.
     */
    void set(final long price, final long quantity, final int orderCount)
    {
        final int index = find(price);
        if (quantity <= 0)
        {
            if (index >= 0)
            {
                System.arraycopy(prices, index + 1, prices, index, size - index - 1);
                System.arraycopy(quantities, index + 1, quantities, index, size - index - 1);
                System.arraycopy(orders, index + 1, orders, index, size - index - 1);
                size--;
            }
            return;
        }
        if (index >= 0)
        {
            quantities[index] = quantity;
            orders[index] = orderCount;
            return;
        }
        final int insert = -index - 1;
        if (size == prices.length)
        {
            final int capacity = 2 * prices.length;
            prices = Arrays.copyOf(prices, capacity);
            quantities = Arrays.copyOf(quantities, capacity);
            orders = Arrays.copyOf(orders, capacity);
        }
        System.arraycopy(prices, insert, prices, insert + 1, size - insert);
        System.arraycopy(quantities, insert, quantities, insert + 1, size - insert);
        System.arraycopy(orders, insert, orders, insert + 1, size - insert);
        prices[insert] = price;
        quantities[insert] = quantity;
        orders[insert] = orderCount;
        size++;
    }

    /**
     * Quantity at a price.
     *
     * @param price the price.
     * @return the quantity, 0 when there is no level.
     */
    long quantityAt(final long price)
    {
        final int index = find(price);
        return index >= 0 ? quantities[index] : 0;
    }

    void copyFrom(final BookSide other)
    {
        if (prices.length < other.size)
        {
            prices = new long[other.prices.length];
            quantities = new long[other.prices.length];
            orders = new int[other.prices.length];
        }
        System.arraycopy(other.prices, 0, prices, 0, other.size);
        System.arraycopy(other.quantities, 0, quantities, 0, other.size);
        System.arraycopy(other.orders, 0, orders, 0, other.size);
        size = other.size;
    }

    /**
     * Binary search in best-first order.
     *
     * @return the index, or -(insertion point) - 1.
     */
    private int find(final long price)
    {
        int low = 0;
        int high = size - 1;
        while (low <= high)
        {
            final int mid = (low + high) >>> 1;
            final long midPrice = prices[mid];
            if (midPrice == price)
            {
                return mid;
            }
            final boolean before = bids ? midPrice > price : midPrice < price;
            if (before)
            {
                low = mid + 1;
            }
            else
            {
                high = mid - 1;
            }
        }
        return -(low + 1);
    }
}
