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
package io.warpbus.matching;

import io.warpbus.orderentry.RejectReason;

/**
 * Everything the engine tells the world, called on the engine's thread while it handles a command, with primitive
 * arguments so that nothing is allocated per event. Implementations must not call back into the engine.
 * <p>
 * Order of events for one command, which both book implementations keep exactly:
 * <ol>
 *     <li>a new order: {@link ExecType#NEW}; then per match {@link #onTrade}, the resting order's fill, the
 *     incoming order's fill; {@link #onBookLevel} for a resting level each time matching leaves it (one event per
 *     level per command, {@link BookAction#CHANGE} or {@link BookAction#DELETE}); finally either
 *     {@link BookAction#ADD} or {@link BookAction#CHANGE} where the remainder rests, or {@link ExecType#CANCELLED}
 *     for a remainder that may not rest;</li>
 *     <li>a cancel: {@link ExecType#CANCELLED}, then the level change;</li>
 *     <li>a replace: {@link ExecType#REPLACED}, the level change where the order was, then as for a new order when
 *     it moved to another price;</li>
 *     <li>a refused request: one {@link ExecType#REJECTED}, {@link ExecType#CANCEL_REJECTED} or
 *     {@link ExecType#REPLACE_REJECTED} and nothing else.</li>
 * </ol>
 */
public interface MatchingEventListener
{
    /**
     * An execution report for one order. The argument list mirrors an execution report message field for field, so
     * an encoder writes each argument straight into its field.
     *
     * @param instrumentId       instrument of the order.
     * @param orderId            engine-assigned id, unique in the engine, increasing; 0 for a rejected new order.
     * @param clientOrderId      the account's id for the order.
     * @param accountId          owner of the order.
     * @param side               side of the order; null on a rejection that cannot know it (a missing side, a
     *                           cancel or replace of an unknown order).
     * @param execType           what happened.
     * @param reason             why, for rejections and engine-initiated cancels; {@link RejectReason#NONE} otherwise.
     * @param price              limit price of the order (the protection price for a market order; the requested
     *                           price on a rejection).
     * @param orderQuantity      total quantity of the order (the requested quantity on a rejection).
     * @param lastPrice          price of this fill, 0 if this is not a fill.
     * @param lastQuantity       quantity of this fill, 0 if this is not a fill.
     * @param cumulativeQuantity quantity traded so far (on a refused replace, the order's as it stays; 0 on other
     *                           rejections).
     * @param leavesQuantity     quantity still open, 0 once the order is done (on a refused replace, the order's as
     *                           it stays; 0 on other rejections).
     * @param timestampNs        time of the command that caused the report.
     */
    @SuppressWarnings("checkstyle:parameternumber")
    void onExecution(
        int instrumentId,
        long orderId,
        long clientOrderId,
        int accountId,
        Side side,
        ExecType execType,
        RejectReason reason,
        long price,
        long orderQuantity,
        long lastPrice,
        long lastQuantity,
        long cumulativeQuantity,
        long leavesQuantity,
        long timestampNs);

    /**
     * A trade between an incoming (aggressor) order and a resting one, at the resting order's price.
     *
     * @param instrumentId     instrument traded.
     * @param tradeId          unique within the instrument, increasing from 1.
     * @param price            trade price.
     * @param quantity         traded quantity.
     * @param aggressorSide    side of the incoming order.
     * @param aggressorOrderId order id of the incoming order.
     * @param restingOrderId   order id of the resting order.
     * @param timestampNs      time of the command that caused the trade.
     */
    void onTrade(
        int instrumentId,
        long tradeId,
        long price,
        long quantity,
        Side aggressorSide,
        long aggressorOrderId,
        long restingOrderId,
        long timestampNs);

    /**
     * An L2 change: the new state of one price level.
     *
     * @param instrumentId instrument of the book.
     * @param side         side of the level.
     * @param action       added, changed or deleted.
     * @param price        price of the level.
     * @param quantity     total open quantity at the level after the change, 0 on delete.
     * @param orderCount   number of orders at the level after the change, 0 on delete.
     * @param depth        1 plus the number of better levels on the side, at the time of the change.
     * @param timestampNs  time of the command that caused the change.
     */
    void onBookLevel(
        int instrumentId,
        Side side,
        BookAction action,
        long price,
        long quantity,
        int orderCount,
        int depth,
        long timestampNs);
}
