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

import io.warpbus.matching.Instrument;
import io.warpbus.matching.MatchingEventListener;
import io.warpbus.matching.OrderType;
import io.warpbus.matching.SelfTradePrevention;
import io.warpbus.matching.Side;
import io.warpbus.matching.TimeInForce;

/**
 * Central limit order book of one instrument: holds resting orders in price-time priority and matches incoming ones
 * against them, reporting every change to the {@link MatchingEventListener} it was built with, in the order that
 * interface documents.
 * <p>
 * A book trusts its caller: commands reach it already validated and risk-checked by the engine, which also decides
 * beforehand whether a post-only order would cross ({@link #bestPrice(Side)}) and whether a fill-or-kill order can
 * fill ({@link #fillableQuantity(Side, long, int, long)}). The engine never lets a good-till-cancelled order in when
 * {@link #orderCount()} has reached {@link #capacity()}.
 * <p>
 * Implementations are single-threaded and must produce the same events and the same {@link #stateHash()} for the
 * same calls: {@link DirectOrderBook} for speed, {@link NaiveOrderBook} as the obviously correct reference.
 */
public interface OrderBook
{
    /**
     * Price returned for an empty side.
     */
    long NULL_PRICE = Long.MIN_VALUE;

    /**
     * The instrument this book trades.
     *
     * @return the instrument definition.
     */
    Instrument instrument();

    /**
     * Most orders the book can hold.
     *
     * @return the capacity in orders.
     */
    int capacity();

    /**
     * Resting orders, both sides.
     *
     * @return the number of resting orders.
     */
    int orderCount();

    /**
     * Number of price levels on one side.
     *
     * @param side of the book.
     * @return the number of distinct prices with resting orders.
     */
    int levelCount(Side side);

    /**
     * Best price on one side: highest bid, lowest ask.
     *
     * @param side of the book.
     * @return the best price, or {@link #NULL_PRICE} if the side is empty.
     */
    long bestPrice(Side side);

    /**
     * Price of the last trade, or the instrument's reference price before the first.
     *
     * @return the last trade price.
     */
    long lastTradePrice();

    /**
     * Id of the last trade, 0 before the first.
     *
     * @return the last trade id.
     */
    long lastTradeId();

    /**
     * Is the order resting in this book?
     *
     * @param orderId engine-assigned order id.
     * @return true if it is.
     */
    boolean containsOrder(long orderId);

    /**
     * Side of a resting order.
     *
     * @param orderId of a resting order.
     * @return its side, or null if it is not resting here.
     */
    Side orderSide(long orderId);

    /**
     * Type of a resting order, {@link OrderType#LIMIT} or {@link OrderType#POST_ONLY}.
     *
     * @param orderId of a resting order.
     * @return its type, or null if it is not resting here.
     */
    OrderType orderType(long orderId);

    /**
     * Limit price of a resting order.
     *
     * @param orderId of a resting order.
     * @return its price, or {@link #NULL_PRICE} if it is not resting here.
     */
    long orderPrice(long orderId);

    /**
     * Total quantity of a resting order, traded and open.
     *
     * @param orderId of a resting order.
     * @return its quantity, or 0 if it is not resting here.
     */
    long orderQuantity(long orderId);

    /**
     * Quantity a resting order has traded.
     *
     * @param orderId of a resting order.
     * @return its cumulative quantity, or 0 if it is not resting here.
     */
    long orderFilledQuantity(long orderId);

    /**
     * How much an incoming order could trade right now, under the book's self-trade prevention: orders of the same
     * account are left out under {@link SelfTradePrevention#CANCEL_RESTING} and end the count under
     * {@link SelfTradePrevention#CANCEL_AGGRESSOR}. Changes nothing.
     *
     * @param side       of the incoming order.
     * @param limitPrice of the incoming order.
     * @param accountId  of the incoming order.
     * @param quantity   wanted; the count stops there.
     * @return the quantity that would trade, at most {@code quantity}.
     */
    long fillableQuantity(Side side, long limitPrice, int accountId, long quantity);

    /**
     * Accept a validated order: report it, match it, then rest the remainder (good till cancelled) or cancel it.
     *
     * @param orderId       engine-assigned id, not in the book.
     * @param clientOrderId the account's id for the order.
     * @param accountId     owner.
     * @param side          buy or sell.
     * @param type          order type.
     * @param timeInForce   time in force, valid for the type.
     * @param price         limit price; for a market order, its protection price.
     * @param quantity      positive quantity.
     * @param timestampNs   time of the command.
     */
    @SuppressWarnings("checkstyle:parameternumber")
    void newOrder(
        long orderId,
        long clientOrderId,
        int accountId,
        Side side,
        OrderType type,
        TimeInForce timeInForce,
        long price,
        long quantity,
        long timestampNs);

    /**
     * Cancel a resting order on the account's request.
     *
     * @param orderId     of a resting order.
     * @param timestampNs time of the command.
     */
    void cancel(long orderId, long timestampNs);

    /**
     * Amend a resting order. Keeps its time priority if the price is unchanged and the quantity does not grow;
     * otherwise it goes to the back of the queue at its price, matching first if the price moved across the book.
     *
     * @param orderId     of a resting order.
     * @param newPrice    new limit price, on the tick grid.
     * @param newQuantity new total quantity, above the order's filled quantity.
     * @param timestampNs time of the command.
     */
    void replace(long orderId, long newPrice, long newQuantity, long timestampNs);

    /**
     * Visit every resting order in priority order: bids best first, then asks best first, oldest first at a price.
     *
     * @param visitor called once per order.
     */
    void forEachOrder(OrderVisitor visitor);

    /**
     * Put an order back at the back of its price level without any event, when restoring an encoded engine state.
     * Orders must come in the priority order {@link #forEachOrder(OrderVisitor)} gave them.
     *
     * @param orderId        engine-assigned id.
     * @param clientOrderId  the account's id for the order.
     * @param accountId      owner.
     * @param side           buy or sell.
     * @param type           {@link OrderType#LIMIT} or {@link OrderType#POST_ONLY}.
     * @param price          limit price.
     * @param quantity       total quantity.
     * @param filledQuantity quantity traded, below {@code quantity}.
     */
    @SuppressWarnings("checkstyle:parameternumber")
    void restoreOrder(
        long orderId,
        long clientOrderId,
        int accountId,
        Side side,
        OrderType type,
        long price,
        long quantity,
        long filledQuantity);

    /**
     * Set the last trade price and id when restoring an encoded engine state.
     *
     * @param lastTradePrice as {@link #lastTradePrice()} returned.
     * @param lastTradeId    as {@link #lastTradeId()} returned.
     */
    void restoreLastTrade(long lastTradePrice, long lastTradeId);

    /**
     * Hash of the book's whole state: every resting order in priority order with all its fields, the last trade
     * price and id. Equal books give equal hashes whatever their implementation.
     *
     * @return the hash.
     * @see StateHash
     */
    long stateHash();

    /**
     * Does an incoming order at a limit price trade with a resting price?
     *
     * @param side         of the incoming order.
     * @param limitPrice   of the incoming order.
     * @param restingPrice price on the other side.
     * @return true if they cross.
     */
    static boolean crosses(final Side side, final long limitPrice, final long restingPrice)
    {
        return Side.BUY == side ? restingPrice <= limitPrice : restingPrice >= limitPrice;
    }
}
