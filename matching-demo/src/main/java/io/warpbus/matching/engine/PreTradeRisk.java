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
import io.warpbus.matching.RiskLimits;
import io.warpbus.matching.Side;
import io.warpbus.orderentry.RejectReason;

/**
 * The per-account pre-trade checks and the price band arithmetic, as pure functions of their arguments.
 */
final class PreTradeRisk
{
    private PreTradeRisk()
    {
    }

    /**
     * Check an order against the account's limits and the instrument's band, in this order: maximum order quantity,
     * maximum notional, price band, position limit.
     *
     * @param limits        of the account.
     * @param position      of the account in the instrument now.
     * @param instrument    traded.
     * @param lastPrice     last trade price of the instrument.
     * @param side          of the order.
     * @param price         limit price, or protection price of a market order.
     * @param orderQuantity total quantity of the order.
     * @param openQuantity  what could still trade: the order quantity less what has traded.
     * @param checkBand     false for market orders, whose protection price is the band's edge by construction, and
     *                      for amendments that keep the price.
     * @return {@link RejectReason#NONE} if the order passes, the first failing check otherwise.
     */
    @SuppressWarnings("checkstyle:parameternumber")
    static RejectReason check(
        final RiskLimits limits,
        final long position,
        final Instrument instrument,
        final long lastPrice,
        final Side side,
        final long price,
        final long orderQuantity,
        final long openQuantity,
        final boolean checkBand)
    {
        if (orderQuantity > limits.maxOrderQuantity())
        {
            return RejectReason.MAX_ORDER_QUANTITY_EXCEEDED;
        }
        if (openQuantity > limits.maxNotional() / price)
        {
            return RejectReason.MAX_NOTIONAL_EXCEEDED;
        }
        if (checkBand && Math.abs(price - lastPrice) > instrument.bandWidth(lastPrice))
        {
            return RejectReason.PRICE_OUTSIDE_BAND;
        }

        final long limit = limits.positionLimit();
        final boolean overLimit = Side.BUY == side ? openQuantity > limit - position : openQuantity > limit + position;
        if (overLimit)
        {
            return RejectReason.POSITION_LIMIT_EXCEEDED;
        }

        return RejectReason.NONE;
    }

    /**
     * The worst price a market order may trade at: the edge of the price band around the last trade price, rounded
     * inwards onto the tick grid, and never below one tick.
     *
     * @param instrument traded.
     * @param lastPrice  last trade price.
     * @param side       of the market order.
     * @return the protection price.
     */
    static long protectionPrice(final Instrument instrument, final long lastPrice, final Side side)
    {
        final long tickSize = instrument.tickSize();
        final long band = instrument.bandWidth(lastPrice);
        if (Side.BUY == side)
        {
            final long edge = lastPrice + band;
            return edge - edge % tickSize;
        }

        final long edge = lastPrice - band;
        final long ceiling = ((edge + tickSize - 1) / tickSize) * tickSize;
        return Math.max(ceiling, tickSize);
    }
}
