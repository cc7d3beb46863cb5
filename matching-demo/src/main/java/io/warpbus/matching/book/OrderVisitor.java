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

/**
 * Receives the resting orders of a book one by one, in priority order; see {@link OrderBook#forEachOrder}.
 */
@FunctionalInterface
public interface OrderVisitor
{
    /**
     * One resting order.
     *
     * @param orderId        engine-assigned id.
     * @param clientOrderId  the account's id for the order.
     * @param accountId      owner.
     * @param side           buy or sell.
     * @param type           {@link OrderType#LIMIT} or {@link OrderType#POST_ONLY}.
     * @param price          limit price.
     * @param quantity       total quantity.
     * @param filledQuantity quantity traded so far.
     */
    @SuppressWarnings("checkstyle:parameternumber")
    void onOrder(
        long orderId,
        long clientOrderId,
        int accountId,
        Side side,
        OrderType type,
        long price,
        long quantity,
        long filledQuantity);
}
