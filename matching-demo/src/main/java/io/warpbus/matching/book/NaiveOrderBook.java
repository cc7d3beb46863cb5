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

import java.util.ArrayList;
import java.util.List;

import io.warpbus.matching.BookAction;
import io.warpbus.matching.ExecType;
import io.warpbus.matching.Instrument;
import io.warpbus.matching.MatchingEventListener;
import io.warpbus.matching.OrderType;
import io.warpbus.matching.SelfTradePrevention;
import io.warpbus.matching.Side;
import io.warpbus.matching.TimeInForce;
import io.warpbus.orderentry.RejectReason;

/**
 * The reference book, written to be obviously correct rather than fast: each side is one list of order objects in
 * priority order (best price first, oldest first at a price); everything else, levels included, is found by
 * scanning those lists. It allocates freely. Tests run it side by side with {@link DirectOrderBook} and require the
 * same events and state hash after every command.
 */
public final class NaiveOrderBook implements OrderBook
{
    private final Instrument instrument;
    private final int capacity;
    private final SelfTradePrevention selfTradePrevention;
    private final MatchingEventListener listener;
    private final List<NaiveOrder> bids = new ArrayList<>();
    private final List<NaiveOrder> asks = new ArrayList<>();
    private long lastTradePrice;
    private long lastTradeId;

    /**
     * Make an empty book.
     *
     * @param instrument          to trade.
     * @param capacity            most resting orders, both sides together.
     * @param selfTradePrevention what to do when an account's orders meet.
     * @param listener            to report every change to.
     */
    public NaiveOrderBook(
        final Instrument instrument,
        final int capacity,
        final SelfTradePrevention selfTradePrevention,
        final MatchingEventListener listener)
    {
        this.instrument = instrument;
        this.capacity = capacity;
        this.selfTradePrevention = selfTradePrevention;
        this.listener = listener;
        this.lastTradePrice = instrument.referencePrice();
    }

    @Override
    public Instrument instrument()
    {
        return instrument;
    }

    @Override
    public int capacity()
    {
        return capacity;
    }

    @Override
    public int orderCount()
    {
        return bids.size() + asks.size();
    }

    @Override
    public int levelCount(final Side side)
    {
        int levels = 0;
        long previousPrice = NULL_PRICE;
        for (final NaiveOrder order : orders(side))
        {
            if (order.price != previousPrice)
            {
                levels++;
                previousPrice = order.price;
            }
        }

        return levels;
    }

    @Override
    public long bestPrice(final Side side)
    {
        final List<NaiveOrder> orders = orders(side);
        return orders.isEmpty() ? NULL_PRICE : orders.get(0).price;
    }

    @Override
    public long lastTradePrice()
    {
        return lastTradePrice;
    }

    @Override
    public long lastTradeId()
    {
        return lastTradeId;
    }

    @Override
    public boolean containsOrder(final long orderId)
    {
        return null != find(orderId);
    }

    @Override
    public Side orderSide(final long orderId)
    {
        final NaiveOrder order = find(orderId);
        return null == order ? null : order.side;
    }

    @Override
    public OrderType orderType(final long orderId)
    {
        final NaiveOrder order = find(orderId);
        return null == order ? null : order.type;
    }

    @Override
    public long orderPrice(final long orderId)
    {
        final NaiveOrder order = find(orderId);
        return null == order ? NULL_PRICE : order.price;
    }

    @Override
    public long orderQuantity(final long orderId)
    {
        final NaiveOrder order = find(orderId);
        return null == order ? 0 : order.quantity;
    }

    @Override
    public long orderFilledQuantity(final long orderId)
    {
        final NaiveOrder order = find(orderId);
        return null == order ? 0 : order.filled;
    }

    @Override
    public long fillableQuantity(final Side side, final long limitPrice, final int accountId, final long quantity)
    {
        long fillable = 0;
        for (final NaiveOrder resting : orders(side.opposite()))
        {
            if (!OrderBook.crosses(side, limitPrice, resting.price))
            {
                break;
            }
            if (resting.accountId == accountId)
            {
                if (SelfTradePrevention.CANCEL_AGGRESSOR == selfTradePrevention)
                {
                    break;
                }
            }
            else
            {
                fillable += resting.leaves();
            }
        }

        return Math.min(fillable, quantity);
    }

    @Override
    @SuppressWarnings("checkstyle:parameternumber")
    public void newOrder(
        final long orderId,
        final long clientOrderId,
        final int accountId,
        final Side side,
        final OrderType type,
        final TimeInForce timeInForce,
        final long price,
        final long quantity,
        final long timestampNs)
    {
        final NaiveOrder order = new NaiveOrder(orderId, clientOrderId, accountId, side, type, price, quantity, 0);
        report(order, ExecType.NEW, RejectReason.NONE, 0, 0, timestampNs);
        final boolean stoppedBySelfTrade = match(order, timestampNs);
        finish(order, TimeInForce.GTC == timeInForce, stoppedBySelfTrade, timestampNs);
    }

    @Override
    public void cancel(final long orderId, final long timestampNs)
    {
        final NaiveOrder order = find(orderId);
        final int depth = depth(order.side, order.price);
        report(order, ExecType.CANCELLED, RejectReason.NONE, 0, 0, timestampNs);
        orders(order.side).remove(order);
        reportLevel(order.side, order.price, depth, timestampNs);
    }

    @Override
    public void replace(final long orderId, final long newPrice, final long newQuantity, final long timestampNs)
    {
        final NaiveOrder order = find(orderId);
        final List<NaiveOrder> sameSide = orders(order.side);
        final long oldPrice = order.price;
        final long oldQuantity = order.quantity;
        final int depth = depth(order.side, oldPrice);

        order.price = newPrice;
        order.quantity = newQuantity;
        report(order, ExecType.REPLACED, RejectReason.NONE, 0, 0, timestampNs);

        if (newPrice == oldPrice && newQuantity <= oldQuantity)
        {
            if (newQuantity != oldQuantity)
            {
                reportLevel(order.side, oldPrice, depth, timestampNs);
            }
            return;
        }

        sameSide.remove(order);
        if (newPrice == oldPrice)
        {
            sameSide.add(insertionIndex(order.side, newPrice), order);
            reportLevel(order.side, oldPrice, depth, timestampNs);
            return;
        }

        reportLevel(order.side, oldPrice, depth, timestampNs);
        final boolean stoppedBySelfTrade = match(order, timestampNs);
        finish(order, true, stoppedBySelfTrade, timestampNs);
    }

    @Override
    public void forEachOrder(final OrderVisitor visitor)
    {
        for (final NaiveOrder order : allOrdersInPriority())
        {
            visitor.onOrder(
                order.orderId, order.clientOrderId, order.accountId, order.side, order.type, order.price,
                order.quantity, order.filled);
        }
    }

    @Override
    @SuppressWarnings("checkstyle:parameternumber")
    public void restoreOrder(
        final long orderId,
        final long clientOrderId,
        final int accountId,
        final Side side,
        final OrderType type,
        final long price,
        final long quantity,
        final long filledQuantity)
    {
        final NaiveOrder order = new NaiveOrder(orderId, clientOrderId, accountId, side, type, price, quantity,
            filledQuantity);
        orders(side).add(insertionIndex(side, price), order);
    }

    @Override
    public void restoreLastTrade(final long lastTradePrice, final long lastTradeId)
    {
        this.lastTradePrice = lastTradePrice;
        this.lastTradeId = lastTradeId;
    }

    @Override
    public long stateHash()
    {
        long hash = StateHash.mix(StateHash.SEED, instrument.id());
        hash = StateHash.mix(hash, levelCount(Side.BUY));
        for (final NaiveOrder order : bids)
        {
            hash = hashOrder(hash, order);
        }
        hash = StateHash.mix(hash, levelCount(Side.SELL));
        for (final NaiveOrder order : asks)
        {
            hash = hashOrder(hash, order);
        }
        hash = StateHash.mix(hash, lastTradePrice);
        return StateHash.mix(hash, lastTradeId);
    }

    /**
     * Trade the incoming order against the front of the other side while it crosses and has quantity left.
     *
     * @return true if it stopped at the account's own order under {@link SelfTradePrevention#CANCEL_AGGRESSOR}.
     */
    private boolean match(final NaiveOrder incoming, final long timestampNs)
    {
        final Side otherSide = incoming.side.opposite();
        final List<NaiveOrder> others = orders(otherSide);
        long touchedPrice = NULL_PRICE;
        boolean stoppedBySelfTrade = false;

        while (incoming.leaves() > 0 && !others.isEmpty())
        {
            final NaiveOrder resting = others.get(0);
            if (!OrderBook.crosses(incoming.side, incoming.price, resting.price))
            {
                break;
            }
            if (NULL_PRICE != touchedPrice && resting.price != touchedPrice)
            {
                reportLevel(otherSide, touchedPrice, 1, timestampNs);
                touchedPrice = NULL_PRICE;
            }

            if (resting.accountId == incoming.accountId)
            {
                if (SelfTradePrevention.CANCEL_AGGRESSOR == selfTradePrevention)
                {
                    stoppedBySelfTrade = true;
                    break;
                }
                report(resting, ExecType.CANCELLED, RejectReason.SELF_TRADE_PREVENTED, 0, 0, timestampNs);
                others.remove(0);
            }
            else
            {
                trade(incoming, resting, timestampNs);
                if (0 == resting.leaves())
                {
                    others.remove(0);
                }
            }
            touchedPrice = resting.price;
        }

        if (NULL_PRICE != touchedPrice)
        {
            reportLevel(otherSide, touchedPrice, 1, timestampNs);
        }

        return stoppedBySelfTrade;
    }

    private void trade(final NaiveOrder incoming, final NaiveOrder resting, final long timestampNs)
    {
        final long quantity = Math.min(incoming.leaves(), resting.leaves());
        final long price = resting.price;
        incoming.filled += quantity;
        resting.filled += quantity;
        lastTradePrice = price;
        lastTradeId++;

        listener.onTrade(
            instrument.id(), lastTradeId, price, quantity, incoming.side, incoming.orderId, resting.orderId,
            timestampNs);
        report(resting, fillType(resting), RejectReason.NONE, price, quantity, timestampNs);
        report(incoming, fillType(incoming), RejectReason.NONE, price, quantity, timestampNs);
    }

    private void finish(
        final NaiveOrder order, final boolean mayRest, final boolean stoppedBySelfTrade, final long timestampNs)
    {
        if (0 == order.leaves())
        {
            return;
        }

        if (mayRest && !stoppedBySelfTrade)
        {
            final boolean newLevel = 0 == ordersAt(order.side, order.price);
            orders(order.side).add(insertionIndex(order.side, order.price), order);
            listener.onBookLevel(
                instrument.id(), order.side, newLevel ? BookAction.ADD : BookAction.CHANGE, order.price,
                quantityAt(order.side, order.price), ordersAt(order.side, order.price), depth(order.side, order.price),
                timestampNs);
        }
        else
        {
            final RejectReason reason = stoppedBySelfTrade ?
                RejectReason.SELF_TRADE_PREVENTED : RejectReason.IMMEDIATE_REMAINDER;
            listener.onExecution(
                instrument.id(), order.orderId, order.clientOrderId, order.accountId, order.side, ExecType.CANCELLED,
                reason, order.price, order.quantity, 0, 0, order.filled, 0, timestampNs);
        }
    }

    private void report(
        final NaiveOrder order,
        final ExecType execType,
        final RejectReason reason,
        final long lastPrice,
        final long lastQuantity,
        final long timestampNs)
    {
        final long leaves = ExecType.CANCELLED == execType ? 0 : order.leaves();
        listener.onExecution(
            instrument.id(), order.orderId, order.clientOrderId, order.accountId, order.side, execType, reason,
            order.price, order.quantity, lastPrice, lastQuantity, order.filled, leaves, timestampNs);
    }

    /**
     * Report the level at a price after it lost orders or quantity: DELETE if nothing is left there.
     */
    private void reportLevel(final Side side, final long price, final int depth, final long timestampNs)
    {
        final int orderCount = ordersAt(side, price);
        listener.onBookLevel(
            instrument.id(), side, 0 == orderCount ? BookAction.DELETE : BookAction.CHANGE, price,
            quantityAt(side, price), orderCount, depth, timestampNs);
    }

    private static ExecType fillType(final NaiveOrder order)
    {
        return 0 == order.leaves() ? ExecType.FILLED : ExecType.PARTIALLY_FILLED;
    }

    private static long hashOrder(final long hash, final NaiveOrder order)
    {
        return StateHash.order(
            hash, order.orderId, order.clientOrderId, order.accountId, order.side, order.type, order.price,
            order.quantity, order.filled);
    }

    private List<NaiveOrder> orders(final Side side)
    {
        return Side.BUY == side ? bids : asks;
    }

    private List<NaiveOrder> allOrdersInPriority()
    {
        final List<NaiveOrder> all = new ArrayList<>(bids);
        all.addAll(asks);
        return all;
    }

    private NaiveOrder find(final long orderId)
    {
        for (final NaiveOrder order : bids)
        {
            if (order.orderId == orderId)
            {
                return order;
            }
        }
        for (final NaiveOrder order : asks)
        {
            if (order.orderId == orderId)
            {
                return order;
            }
        }

        return null;
    }

    private static boolean isBetter(final Side side, final long price, final long than)
    {
        return Side.BUY == side ? price > than : price < than;
    }

    /**
     * Where a new order at a price goes: after every order at a better or the same price.
     */
    private int insertionIndex(final Side side, final long price)
    {
        final List<NaiveOrder> orders = orders(side);
        int index = 0;
        while (index < orders.size() && !isBetter(side, price, orders.get(index).price))
        {
            index++;
        }

        return index;
    }

    private int ordersAt(final Side side, final long price)
    {
        int count = 0;
        for (final NaiveOrder order : orders(side))
        {
            if (order.price == price)
            {
                count++;
            }
        }

        return count;
    }

    private long quantityAt(final Side side, final long price)
    {
        long quantity = 0;
        for (final NaiveOrder order : orders(side))
        {
            if (order.price == price)
            {
                quantity += order.leaves();
            }
        }

        return quantity;
    }

    /**
     * 1 plus the number of distinct prices better than this one on the side.
     */
    private int depth(final Side side, final long price)
    {
        int depth = 1;
        long previousPrice = NULL_PRICE;
        for (final NaiveOrder order : orders(side))
        {
            if (isBetter(side, order.price, price) && order.price != previousPrice)
            {
                depth++;
                previousPrice = order.price;
            }
        }

        return depth;
    }
}
