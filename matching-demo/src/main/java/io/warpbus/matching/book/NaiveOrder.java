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
 * A resting order of the {@link NaiveOrderBook}: a plain mutable object.
 */
final class NaiveOrder
{
    final long orderId;
    final long clientOrderId;
    final int accountId;
    final Side side;
    final OrderType type;
    long price;
    long quantity;
    long filled;

    @SuppressWarnings("checkstyle:parameternumber")
    NaiveOrder(
        final long orderId,
        final long clientOrderId,
        final int accountId,
        final Side side,
        final OrderType type,
        final long price,
        final long quantity,
        final long filled)
    {
        this.orderId = orderId;
        this.clientOrderId = clientOrderId;
        this.accountId = accountId;
        this.side = side;
        this.type = type;
        this.price = price;
        this.quantity = quantity;
        this.filled = filled;
    }

    long leaves()
    {
        return quantity - filled;
    }
}
