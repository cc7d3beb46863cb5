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

import io.warpbus.matching.Instrument;
import io.warpbus.matching.OrderType;
import io.warpbus.matching.Side;
import io.warpbus.matching.TimeInForce;
import io.warpbus.matching.book.OrderBook;
import io.warpbus.orderentry.RejectReason;

/**
 * The engine's checks of a command before it reaches a book, as functions of what they look at, each returning
 * {@link RejectReason#NONE} or the first check that failed. The order of the checks is part of the contract: it
 * decides which reason a command failing several gets.
 */
final class CommandValidation
{
    private CommandValidation()
    {
    }

    /**
     * Checks of a new order that do not depend on the book: instrument, account, side, order type, time in force
     * for the type, quantity positive and in whole lots, price positive and on the tick grid (not for market orders),
     * client order id not live.
     *
     * @param instrument null if the id is unknown.
     * @param account    null if the id is unknown.
     */
    @SuppressWarnings("checkstyle:parameternumber")
    static RejectReason newOrder(
        final Instrument instrument,
        final Account account,
        final long clientOrderId,
        final Side side,
        final OrderType type,
        final TimeInForce timeInForce,
        final long price,
        final long quantity)
    {
        if (null == instrument)
        {
            return RejectReason.UNKNOWN_INSTRUMENT;
        }
        if (null == account)
        {
            return RejectReason.UNKNOWN_ACCOUNT;
        }
        if (null == side)
        {
            return RejectReason.INVALID_SIDE;
        }
        if (null == type)
        {
            return RejectReason.INVALID_ORDER_TYPE;
        }
        if (!isValid(type, timeInForce))
        {
            return RejectReason.INVALID_TIME_IN_FORCE;
        }

        final RejectReason invalid = priceAndQuantity(instrument, OrderType.MARKET != type, price, quantity);
        if (RejectReason.NONE != invalid)
        {
            return invalid;
        }
        if (account.hasLiveOrder(clientOrderId))
        {
            return RejectReason.DUPLICATE_CLIENT_ORDER_ID;
        }

        return RejectReason.NONE;
    }

    /**
     * Checks of a new order against the book, after risk: room for an order that may rest, a post-only order would
     * not cross, a fill-or-kill order can fill.
     */
    @SuppressWarnings("checkstyle:parameternumber")
    static RejectReason book(
        final OrderBook book,
        final int accountId,
        final Side side,
        final OrderType type,
        final TimeInForce timeInForce,
        final long limitPrice,
        final long quantity)
    {
        if (TimeInForce.GTC == timeInForce && book.orderCount() >= book.capacity())
        {
            return RejectReason.BOOK_FULL;
        }
        if (OrderType.POST_ONLY == type && wouldCross(book, side, limitPrice))
        {
            return RejectReason.POST_ONLY_WOULD_CROSS;
        }
        if (TimeInForce.FOK == timeInForce && book.fillableQuantity(side, limitPrice, accountId, quantity) < quantity)
        {
            return RejectReason.FOK_NOT_FILLABLE;
        }

        return RejectReason.NONE;
    }

    /**
     * Checks that a cancel or replace names a live order: instrument, account, order live in that instrument's book.
     *
     * @param book    of the instrument, null if the id is unknown.
     * @param account null if the id is unknown.
     * @param orderId the account's live order for the client order id, {@link Account#NO_ORDER} if none.
     */
    static RejectReason existing(final OrderBook book, final Account account, final long orderId)
    {
        if (null == book)
        {
            return RejectReason.UNKNOWN_INSTRUMENT;
        }
        if (null == account)
        {
            return RejectReason.UNKNOWN_ACCOUNT;
        }
        if (Account.NO_ORDER == orderId || !book.containsOrder(orderId))
        {
            return RejectReason.UNKNOWN_ORDER;
        }

        return RejectReason.NONE;
    }

    /**
     * Checks of a replace of a live order, after {@link #existing}: quantity and price as for a new order, the new
     * quantity above what has traded, then risk unless the amendment only lowers the quantity (which can only reduce
     * risk), with the band only if the price moves, and finally a post-only order would not cross.
     */
    @SuppressWarnings("checkstyle:parameternumber")
    static RejectReason replace(
        final Instrument instrument,
        final Account account,
        final long position,
        final OrderBook book,
        final long orderId,
        final long newPrice,
        final long newQuantity)
    {
        final RejectReason invalid = priceAndQuantity(instrument, true, newPrice, newQuantity);
        if (RejectReason.NONE != invalid)
        {
            return invalid;
        }

        final long filled = book.orderFilledQuantity(orderId);
        if (newQuantity <= filled)
        {
            return RejectReason.QUANTITY_NOT_ABOVE_FILLED;
        }

        final Side side = book.orderSide(orderId);
        final boolean priceMoves = newPrice != book.orderPrice(orderId);
        if (priceMoves || newQuantity > book.orderQuantity(orderId))
        {
            final RejectReason risk = PreTradeRisk.check(
                account.limits(), position, instrument, book.lastTradePrice(), side, newPrice, newQuantity,
                newQuantity - filled, priceMoves);
            if (RejectReason.NONE != risk)
            {
                return risk;
            }
        }
        if (priceMoves && OrderType.POST_ONLY == book.orderType(orderId) && wouldCross(book, side, newPrice))
        {
            return RejectReason.POST_ONLY_WOULD_CROSS;
        }

        return RejectReason.NONE;
    }

    private static RejectReason priceAndQuantity(
        final Instrument instrument, final boolean hasPrice, final long price, final long quantity)
    {
        if (quantity <= 0)
        {
            return RejectReason.INVALID_QUANTITY;
        }
        if (!instrument.isWholeLots(quantity))
        {
            return RejectReason.QUANTITY_OFF_LOT_SIZE;
        }
        if (hasPrice)
        {
            if (price <= 0)
            {
                return RejectReason.INVALID_PRICE;
            }
            if (!instrument.isOnTickGrid(price))
            {
                return RejectReason.PRICE_OFF_TICK_GRID;
            }
        }

        return RejectReason.NONE;
    }

    private static boolean isValid(final OrderType type, final TimeInForce timeInForce)
    {
        if (null == timeInForce)
        {
            return false;
        }

        switch (type)
        {
            case MARKET:
                return TimeInForce.GTC != timeInForce;
            case POST_ONLY:
                return TimeInForce.GTC == timeInForce;
            default:
                return true;
        }
    }

    private static boolean wouldCross(final OrderBook book, final Side side, final long price)
    {
        final long bestOther = book.bestPrice(side.opposite());
        return OrderBook.NULL_PRICE != bestOther && OrderBook.crosses(side, price, bestOther);
    }
}
