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

import io.warpbus.matching.BookAction;
import io.warpbus.matching.ExecType;
import io.warpbus.matching.Instrument;
import io.warpbus.matching.MatchingEventListener;
import io.warpbus.matching.OrderType;
import io.warpbus.matching.SelfTradePrevention;
import io.warpbus.matching.Side;
import io.warpbus.matching.TimeInForce;
import io.warpbus.orderentry.RejectReason;

import static io.warpbus.matching.book.OrderStore.NULL_SLOT;

/**
 * The fast book: orders in a preallocated {@link OrderStore} (structure of arrays), each side a {@link BookSide} of
 * sorted price levels with intrusive FIFO queues, order ids found through a primitive hash map. Nothing is allocated
 * after construction: a command costs a hash lookup, a binary search over the levels when a new price appears, and
 * O(1) per order it trades with.
 */
public final class DirectOrderBook implements OrderBook
{
    private final Instrument instrument;
    private final int instrumentId;
    private final SelfTradePrevention selfTradePrevention;
    private final MatchingEventListener listener;
    private final OrderStore orders;
    private final BookSide bids;
    private final BookSide asks;
    private long lastTradePrice;
    private long lastTradeId;
    private boolean stoppedBySelfTrade;

    /**
     * Make an empty book with all its memory.
     *
     * @param instrument          to trade.
     * @param capacity            most resting orders, both sides together.
     * @param selfTradePrevention what to do when an account's orders meet.
     * @param listener            to report every change to.
     */
    public DirectOrderBook(
        final Instrument instrument,
        final int capacity,
        final SelfTradePrevention selfTradePrevention,
        final MatchingEventListener listener)
    {
        this.instrument = instrument;
        this.instrumentId = instrument.id();
        this.selfTradePrevention = selfTradePrevention;
        this.listener = listener;
        this.orders = new OrderStore(capacity);
        this.bids = new BookSide(Side.BUY, orders, capacity);
        this.asks = new BookSide(Side.SELL, orders, capacity);
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
        return orders.capacity();
    }

    @Override
    public int orderCount()
    {
        return orders.size();
    }

    @Override
    public int levelCount(final Side side)
    {
        return bookSide(side).levelCount();
    }

    @Override
    public long bestPrice(final Side side)
    {
        return bookSide(side).bestPrice();
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
        return NULL_SLOT != orders.slot(orderId);
    }

    @Override
    public Side orderSide(final long orderId)
    {
        final int slot = orders.slot(orderId);
        return NULL_SLOT == slot ? null : orders.side(slot);
    }

    @Override
    public OrderType orderType(final long orderId)
    {
        final int slot = orders.slot(orderId);
        return NULL_SLOT == slot ? null : orders.type(slot);
    }

    @Override
    public long orderPrice(final long orderId)
    {
        final int slot = orders.slot(orderId);
        return NULL_SLOT == slot ? NULL_PRICE : orders.prices[slot];
    }

    @Override
    public long orderQuantity(final long orderId)
    {
        final int slot = orders.slot(orderId);
        return NULL_SLOT == slot ? 0 : orders.quantities[slot];
    }

    @Override
    public long orderFilledQuantity(final long orderId)
    {
        final int slot = orders.slot(orderId);
        return NULL_SLOT == slot ? 0 : orders.filled[slot];
    }

    @Override
    public long fillableQuantity(final Side side, final long limitPrice, final int accountId, final long quantity)
    {
        final BookSide opposite = bookSide(side.opposite());
        final boolean stopAtSelf = SelfTradePrevention.CANCEL_AGGRESSOR == selfTradePrevention;
        long fillable = 0;
        final int levels = opposite.levelCount();
        for (int depthIndex = 0; depthIndex < levels; depthIndex++)
        {
            final int level = opposite.levelAt(depthIndex);
            if (!OrderBook.crosses(side, limitPrice, opposite.price(level)))
            {
                break;
            }

            for (int slot = opposite.head(level); NULL_SLOT != slot; slot = orders.next[slot])
            {
                if (orders.accountIds[slot] == accountId)
                {
                    if (stopAtSelf)
                    {
                        return fillable;
                    }
                }
                else
                {
                    fillable += orders.leaves(slot);
                    if (fillable >= quantity)
                    {
                        return quantity;
                    }
                }
            }
        }

        return fillable;
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
        listener.onExecution(
            instrumentId, orderId, clientOrderId, accountId, side, ExecType.NEW, RejectReason.NONE,
            price, quantity, 0, 0, 0, quantity, timestampNs);

        final long filled = match(orderId, clientOrderId, accountId, side, price, quantity, 0, timestampNs);
        finishAggressor(
            orderId, clientOrderId, accountId, side, type, TimeInForce.GTC == timeInForce, price, quantity, filled,
            timestampNs);
    }

    @Override
    public void cancel(final long orderId, final long timestampNs)
    {
        final int slot = orders.slot(orderId);
        if (NULL_SLOT == slot)
        {
            throw new IllegalArgumentException("no resting order " + orderId);
        }

        final BookSide bookSide = bookSide(orders.side(slot));
        final int level = orders.levels[slot];
        final int depth = bookSide.depth(level);
        reportCancelled(slot, RejectReason.NONE, timestampNs);
        bookSide.unlink(slot);
        orders.free(slot);
        reportLevel(bookSide, level, depth, timestampNs);
    }

    @Override
    public void replace(final long orderId, final long newPrice, final long newQuantity, final long timestampNs)
    {
        final int slot = orders.slot(orderId);
        if (NULL_SLOT == slot)
        {
            throw new IllegalArgumentException("no resting order " + orderId);
        }

        final long oldPrice = orders.prices[slot];
        final long oldQuantity = orders.quantities[slot];
        final long filled = orders.filled[slot];
        final BookSide bookSide = bookSide(orders.side(slot));
        final int level = orders.levels[slot];
        final int depth = bookSide.depth(level);

        if (newPrice == oldPrice)
        {
            orders.quantities[slot] = newQuantity;
            bookSide.addQuantity(level, newQuantity - oldQuantity);
            if (newQuantity > oldQuantity)
            {
                bookSide.moveToBack(slot);
            }
            reportReplaced(slot, timestampNs);
            if (newQuantity != oldQuantity)
            {
                reportLevel(bookSide, level, depth, timestampNs);
            }
            return;
        }

        final long clientOrderId = orders.clientOrderIds[slot];
        final int accountId = orders.accountIds[slot];
        final Side side = bookSide.side();
        final OrderType type = orders.type(slot);
        listener.onExecution(
            instrumentId, orderId, clientOrderId, accountId, side, ExecType.REPLACED, RejectReason.NONE,
            newPrice, newQuantity, 0, 0, filled, newQuantity - filled, timestampNs);
        bookSide.unlink(slot);
        orders.free(slot);
        reportLevel(bookSide, level, depth, timestampNs);

        final long nowFilled = match(
            orderId, clientOrderId, accountId, side, newPrice, newQuantity, filled, timestampNs);
        finishAggressor(
            orderId, clientOrderId, accountId, side, type, true, newPrice, newQuantity, nowFilled, timestampNs);
    }

    @Override
    public void forEachOrder(final OrderVisitor visitor)
    {
        visitSide(bids, visitor);
        visitSide(asks, visitor);
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
        final int slot = orders.allocate(
            orderId, clientOrderId, accountId, side, type, price, quantity, filledQuantity);
        bookSide(side).append(slot);
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
        long hash = StateHash.mix(StateHash.SEED, instrumentId);
        hash = hashSide(bids, hash);
        hash = hashSide(asks, hash);
        hash = StateHash.mix(hash, lastTradePrice);
        return StateHash.mix(hash, lastTradeId);
    }

    /**
     * Trade an incoming order against the other side, best price first, oldest first at a price, for as long as it
     * crosses and has quantity left. Reports trades and fills as they happen and each resting level once, when
     * matching leaves it. Sets {@link #stoppedBySelfTrade} if it met the account's own order under
     * {@link SelfTradePrevention#CANCEL_AGGRESSOR}.
     *
     * @return the incoming order's filled quantity afterwards.
     */
    @SuppressWarnings("checkstyle:parameternumber")
    private long match(
        final long orderId,
        final long clientOrderId,
        final int accountId,
        final Side side,
        final long limitPrice,
        final long quantity,
        final long filledBefore,
        final long timestampNs)
    {
        final BookSide opposite = bookSide(side.opposite());
        final OrderStore orders = this.orders;
        final boolean cancelAggressor = SelfTradePrevention.CANCEL_AGGRESSOR == selfTradePrevention;
        long filled = filledBefore;
        stoppedBySelfTrade = false;

        while (filled < quantity && opposite.levelCount() > 0)
        {
            final int level = opposite.bestLevel();
            final long levelPrice = opposite.price(level);
            if (!OrderBook.crosses(side, limitPrice, levelPrice))
            {
                break;
            }

            boolean touched = false;
            int slot = opposite.head(level);
            while (filled < quantity && NULL_SLOT != slot)
            {
                final int nextSlot = orders.next[slot];
                if (orders.accountIds[slot] == accountId)
                {
                    if (cancelAggressor)
                    {
                        stoppedBySelfTrade = true;
                        break;
                    }
                    reportCancelled(slot, RejectReason.SELF_TRADE_PREVENTED, timestampNs);
                    opposite.unlink(slot);
                    orders.free(slot);
                }
                else
                {
                    final long tradeQuantity = Math.min(quantity - filled, orders.leaves(slot));
                    filled += tradeQuantity;
                    fillResting(opposite, slot, levelPrice, tradeQuantity, side, orderId, timestampNs);
                    listener.onExecution(
                        instrumentId, orderId, clientOrderId, accountId, side,
                        filled == quantity ? ExecType.FILLED : ExecType.PARTIALLY_FILLED, RejectReason.NONE,
                        limitPrice, quantity, levelPrice, tradeQuantity, filled, quantity - filled, timestampNs);
                }
                touched = true;
                slot = nextSlot;
            }

            if (touched)
            {
                reportLevel(opposite, level, 1, timestampNs);
            }
            if (stoppedBySelfTrade)
            {
                break;
            }
        }

        return filled;
    }

    private void fillResting(
        final BookSide bookSide,
        final int slot,
        final long price,
        final long quantity,
        final Side aggressorSide,
        final long aggressorOrderId,
        final long timestampNs)
    {
        final OrderStore orders = this.orders;
        final long restingOrderId = orders.orderIds[slot];
        final long orderQuantity = orders.quantities[slot];
        final long filled = orders.filled[slot] + quantity;
        orders.filled[slot] = filled;
        bookSide.addQuantity(orders.levels[slot], -quantity);
        lastTradePrice = price;

        listener.onTrade(
            instrumentId, ++lastTradeId, price, quantity, aggressorSide, aggressorOrderId, restingOrderId, timestampNs);
        listener.onExecution(
            instrumentId, restingOrderId, orders.clientOrderIds[slot], orders.accountIds[slot], bookSide.side(),
            filled == orderQuantity ? ExecType.FILLED : ExecType.PARTIALLY_FILLED, RejectReason.NONE,
            price, orderQuantity, price, quantity, filled, orderQuantity - filled, timestampNs);

        if (filled == orderQuantity)
        {
            bookSide.unlink(slot);
            orders.free(slot);
        }
    }

    @SuppressWarnings("checkstyle:parameternumber")
    private void finishAggressor(
        final long orderId,
        final long clientOrderId,
        final int accountId,
        final Side side,
        final OrderType type,
        final boolean mayRest,
        final long price,
        final long quantity,
        final long filled,
        final long timestampNs)
    {
        if (filled == quantity)
        {
            return;
        }

        if (mayRest && !stoppedBySelfTrade)
        {
            final int slot = orders.allocate(orderId, clientOrderId, accountId, side, type, price, quantity, filled);
            final BookSide bookSide = bookSide(side);
            final boolean created = bookSide.append(slot);
            final int level = orders.levels[slot];
            listener.onBookLevel(
                instrumentId, side, created ? BookAction.ADD : BookAction.CHANGE, price, bookSide.quantity(level),
                bookSide.orderCount(level), bookSide.depth(level), timestampNs);
        }
        else
        {
            listener.onExecution(
                instrumentId, orderId, clientOrderId, accountId, side, ExecType.CANCELLED,
                stoppedBySelfTrade ? RejectReason.SELF_TRADE_PREVENTED : RejectReason.IMMEDIATE_REMAINDER,
                price, quantity, 0, 0, filled, 0, timestampNs);
        }
    }

    private void reportCancelled(final int slot, final RejectReason reason, final long timestampNs)
    {
        final OrderStore orders = this.orders;
        listener.onExecution(
            instrumentId, orders.orderIds[slot], orders.clientOrderIds[slot], orders.accountIds[slot],
            orders.side(slot), ExecType.CANCELLED, reason, orders.prices[slot], orders.quantities[slot], 0, 0,
            orders.filled[slot], 0, timestampNs);
    }

    private void reportReplaced(final int slot, final long timestampNs)
    {
        final OrderStore orders = this.orders;
        listener.onExecution(
            instrumentId, orders.orderIds[slot], orders.clientOrderIds[slot], orders.accountIds[slot],
            orders.side(slot), ExecType.REPLACED, RejectReason.NONE, orders.prices[slot], orders.quantities[slot],
            0, 0, orders.filled[slot], orders.leaves(slot), timestampNs);
    }

    /**
     * Report a level that lost orders or quantity: DELETE, removing it, if it has no orders left, CHANGE otherwise.
     */
    private void reportLevel(final BookSide bookSide, final int level, final int depth, final long timestampNs)
    {
        final int orderCount = bookSide.orderCount(level);
        final long price = bookSide.price(level);
        if (0 == orderCount)
        {
            bookSide.removeLevel(level);
            listener.onBookLevel(instrumentId, bookSide.side(), BookAction.DELETE, price, 0, 0, depth, timestampNs);
        }
        else
        {
            listener.onBookLevel(
                instrumentId, bookSide.side(), BookAction.CHANGE, price, bookSide.quantity(level), orderCount, depth,
                timestampNs);
        }
    }

    private BookSide bookSide(final Side side)
    {
        return Side.BUY == side ? bids : asks;
    }

    private void visitSide(final BookSide bookSide, final OrderVisitor visitor)
    {
        final OrderStore orders = this.orders;
        final int levels = bookSide.levelCount();
        for (int depthIndex = 0; depthIndex < levels; depthIndex++)
        {
            for (int slot = bookSide.head(bookSide.levelAt(depthIndex)); NULL_SLOT != slot; slot = orders.next[slot])
            {
                visitor.onOrder(
                    orders.orderIds[slot], orders.clientOrderIds[slot], orders.accountIds[slot], orders.side(slot),
                    orders.type(slot), orders.prices[slot], orders.quantities[slot], orders.filled[slot]);
            }
        }
    }

    private long hashSide(final BookSide bookSide, final long initialHash)
    {
        final OrderStore orders = this.orders;
        long hash = StateHash.mix(initialHash, bookSide.levelCount());
        final int levels = bookSide.levelCount();
        for (int depthIndex = 0; depthIndex < levels; depthIndex++)
        {
            for (int slot = bookSide.head(bookSide.levelAt(depthIndex)); NULL_SLOT != slot; slot = orders.next[slot])
            {
                hash = StateHash.order(
                    hash, orders.orderIds[slot], orders.clientOrderIds[slot], orders.accountIds[slot],
                    orders.side(slot), orders.type(slot), orders.prices[slot], orders.quantities[slot],
                    orders.filled[slot]);
            }
        }

        return hash;
    }
}
