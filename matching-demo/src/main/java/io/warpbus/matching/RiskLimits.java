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
 * Pre-trade risk limits of one account, applied to every instrument alike.
 *
 * @param maxOrderQuantity largest order quantity, positive.
 * @param maxNotional      largest {@code price * quantity} of what an order could still trade, in price units times
 *                         quantity units, positive. A market order is valued at its protection price, the edge of
 *                         the price band.
 * @param positionLimit    largest absolute net position per instrument, counted as if the order filled completely,
 *                         positive. Other open orders of the account are not counted.
 */
public record RiskLimits(long maxOrderQuantity, long maxNotional, long positionLimit)
{
    /**
     * Validates the limits.
     *
     * @throws IllegalArgumentException if a limit is not positive.
     */
    public RiskLimits
    {
        if (maxOrderQuantity <= 0 || maxNotional <= 0 || positionLimit <= 0)
        {
            throw new IllegalArgumentException("risk limits must be positive: " + maxOrderQuantity + ", " +
                maxNotional + ", " + positionLimit);
        }
    }
}
