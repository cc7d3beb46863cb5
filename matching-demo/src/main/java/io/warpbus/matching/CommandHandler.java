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

/**
 * The three order-entry commands, with primitive arguments so that a decoder, a load generator or a test can call
 * them without allocating. The matching engine implements it; so can anything that forwards commands.
 * <p>
 * Orders are named by the account's client order id, unique among the account's live orders. A replace amends the
 * order in place and keeps its client order id.
 */
public interface CommandHandler
{
    /**
     * Submit a new order.
     *
     * @param clientOrderId the account's id for the order.
     * @param accountId     owner.
     * @param instrumentId  what to trade.
     * @param side          buy or sell.
     * @param type          limit, market or post-only.
     * @param timeInForce   good till cancelled, immediate or cancel, fill or kill.
     * @param price         limit price in price units, ignored for market orders.
     * @param quantity      quantity in quantity units.
     * @param timestampNs   time of the command, carried into every event it causes.
     */
    @SuppressWarnings("checkstyle:parameternumber")
    void newOrder(
        long clientOrderId,
        int accountId,
        int instrumentId,
        Side side,
        OrderType type,
        TimeInForce timeInForce,
        long price,
        long quantity,
        long timestampNs);

    /**
     * Cancel a live order.
     *
     * @param clientOrderId the account's id for the order.
     * @param accountId     owner.
     * @param instrumentId  instrument of the order.
     * @param timestampNs   time of the command.
     */
    void cancel(long clientOrderId, int accountId, int instrumentId, long timestampNs);

    /**
     * Amend a live order's price and total quantity. The order keeps its time priority when neither the price changes
     * nor the quantity grows; otherwise it goes to the back of its (new) price level, trading first if it now crosses.
     *
     * @param clientOrderId the account's id for the order.
     * @param accountId     owner.
     * @param instrumentId  instrument of the order.
     * @param newPrice      new limit price.
     * @param newQuantity   new total quantity, including what has traded; must be above it.
     * @param timestampNs   time of the command.
     */
    void replace(
        long clientOrderId,
        int accountId,
        int instrumentId,
        long newPrice,
        long newQuantity,
        long timestampNs);
}
