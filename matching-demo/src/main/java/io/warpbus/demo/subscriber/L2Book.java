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
package io.warpbus.demo.subscriber;

import java.util.Arrays;

import io.warpbus.matching.OrderType;
import io.warpbus.matching.Side;
import io.warpbus.matching.book.OrderBook;
import io.warpbus.matching.book.OrderVisitor;
import org.agrona.collections.Long2LongHashMap;

/**
 * An L2 (price level) book rebuilt from market data: per side, price to total quantity and to order count. Applying
 * an update allocates only when a side holds more levels than ever before.
 */
public final class L2Book
{
    private final Long2LongHashMap bidQuantities = new Long2LongHashMap(0);
    private final Long2LongHashMap askQuantities = new Long2LongHashMap(0);
    private final Long2LongHashMap bidOrders = new Long2LongHashMap(0);
    private final Long2LongHashMap askOrders = new Long2LongHashMap(0);

    /**
     * Set a level's state; a quantity of 0 (or a delete) removes it.
     *
     * @param side       of the level.
     * @param price      of the level.
     * @param quantity   total at the level, 0 to remove.
     * @param orderCount orders at the level.
     */
    public void set(final Side side, final long price, final long quantity, final long orderCount)
    {
        final Long2LongHashMap quantities = Side.BUY == side ? bidQuantities : askQuantities;
        final Long2LongHashMap orders = Side.BUY == side ? bidOrders : askOrders;
        if (quantity <= 0)
        {
            quantities.remove(price);
            orders.remove(price);
        }
        else
        {
            quantities.put(price, quantity);
            orders.put(price, orderCount);
        }
    }

    /**
     * Remove every level.
     */
    public void clear()
    {
        bidQuantities.clear();
        askQuantities.clear();
        bidOrders.clear();
        askOrders.clear();
    }

    /**
     * Make this book a copy of another.
     *
     * @param other to copy.
     */
    public void copyFrom(final L2Book other)
    {
        clear();
        other.bidQuantities.forEach((price, quantity) -> bidQuantities.put(price, quantity));
        other.askQuantities.forEach((price, quantity) -> askQuantities.put(price, quantity));
        other.bidOrders.forEach((price, count) -> bidOrders.put(price, count));
        other.askOrders.forEach((price, count) -> askOrders.put(price, count));
    }

    /**
     * Number of levels on a side.
     *
     * @param side the side.
     * @return the count.
     */
    public int levelCount(final Side side)
    {
        return (Side.BUY == side ? bidQuantities : askQuantities).size();
    }

    /**
     * Quantity at a level.
     *
     * @param side  the side.
     * @param price the price.
     * @return the quantity, 0 if there is no level.
     */
    public long quantity(final Side side, final long price)
    {
        return (Side.BUY == side ? bidQuantities : askQuantities).get(price);
    }

    /**
     * Best price of a side.
     *
     * @param side the side.
     * @return highest bid or lowest ask, {@link OrderBook#NULL_PRICE} if empty.
     */
    public long bestPrice(final Side side)
    {
        final long[] prices = prices(side);
        if (0 == prices.length)
        {
            return OrderBook.NULL_PRICE;
        }
        return Side.BUY == side ? prices[prices.length - 1] : prices[0];
    }

    /**
     * Is the book crossed (best bid at or above best ask)?
     *
     * @return true if crossed.
     */
    public boolean isCrossed()
    {
        final long bid = bestPrice(Side.BUY);
        final long ask = bestPrice(Side.SELL);
        return OrderBook.NULL_PRICE != bid && OrderBook.NULL_PRICE != ask && bid >= ask;
    }

    /**
     * Text of the book, best levels first, for comparisons and failure messages; allocates.
     *
     * @return e.g. {@code bids[10000x5/2 9999x3/1] asks[10001x4/1]}.
     */
    public String describe()
    {
        final StringBuilder builder = new StringBuilder("bids[");
        appendSide(builder, Side.BUY);
        builder.append("] asks[");
        appendSide(builder, Side.SELL);
        return builder.append(']').toString();
    }

    /**
     * Same levels, quantities and order counts?
     *
     * @param other another book.
     * @return true if equal.
     */
    public boolean sameAs(final L2Book other)
    {
        return bidQuantities.equals(other.bidQuantities) && askQuantities.equals(other.askQuantities) &&
            bidOrders.equals(other.bidOrders) && askOrders.equals(other.askOrders);
    }

    /**
     * The L2 view of a matching engine's book, quantities in lots.
     *
     * @param book    the engine's book, read on its thread.
     * @param lotSize of the instrument.
     * @return a new L2 book.
     */
    public static L2Book of(final OrderBook book, final long lotSize)
    {
        final L2Book l2 = new L2Book();
        book.forEachOrder(new OrderVisitor()
        {
            @Override
            @SuppressWarnings("checkstyle:parameternumber")
            public void onOrder(
                final long orderId,
                final long clientOrderId,
                final int accountId,
                final Side side,
                final OrderType type,
                final long price,
                final long quantity,
                final long filledQuantity)
            {
                final Long2LongHashMap quantities = Side.BUY == side ? l2.bidQuantities : l2.askQuantities;
                final Long2LongHashMap orders = Side.BUY == side ? l2.bidOrders : l2.askOrders;
                quantities.put(price, quantities.get(price) + (quantity - filledQuantity) / lotSize);
                orders.put(price, orders.get(price) + 1);
            }
        });
        return l2;
    }

    private long[] prices(final Side side)
    {
        final Long2LongHashMap quantities = Side.BUY == side ? bidQuantities : askQuantities;
        final long[] prices = new long[quantities.size()];
        final Long2LongHashMap.KeyIterator keys = quantities.keySet().iterator();
        for (int i = 0; i < prices.length; i++)
        {
            prices[i] = keys.nextValue();
        }
        Arrays.sort(prices);
        return prices;
    }

    private void appendSide(final StringBuilder builder, final Side side)
    {
        final long[] prices = prices(side);
        final Long2LongHashMap orders = Side.BUY == side ? bidOrders : askOrders;
        for (int i = 0; i < prices.length; i++)
        {
            final long price = Side.BUY == side ? prices[prices.length - 1 - i] : prices[i];
            builder.append(i > 0 ? " " : "").append(price).append('x').append(quantity(side, price)).append('/')
                .append(orders.get(price));
        }
    }
}
