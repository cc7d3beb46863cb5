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
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PreTradeRiskTest
{
    private static final Instrument FIVES = new Instrument(1, "FIVES", 5, 1, 2, 333, 1_000);
    private static final RiskLimits LIMITS = new RiskLimits(100, 10_000, 50);

    @Test
    void shouldRoundTheProtectionPriceInwardsOntoTheTickGrid()
    {
        assertEquals(1_030, PreTradeRisk.protectionPrice(FIVES, 1_000, Side.BUY));
        assertEquals(970, PreTradeRisk.protectionPrice(FIVES, 1_000, Side.SELL));
    }

    @Test
    void shouldNeverProtectASellBelowOneTick()
    {
        final Instrument wide = new Instrument(1, "WIDE", 5, 1, 2, 10_000, 5);
        assertEquals(5, PreTradeRisk.protectionPrice(wide, 5, Side.SELL));
        assertEquals(10, PreTradeRisk.protectionPrice(wide, 5, Side.BUY));
    }

    @Test
    void shouldCheckNotionalWithoutOverflow()
    {
        assertEquals(RejectReason.MAX_NOTIONAL_EXCEEDED, PreTradeRisk.check(
            new RiskLimits(Long.MAX_VALUE, 10_000, Long.MAX_VALUE), 0, FIVES, 1_000, Side.BUY, Long.MAX_VALUE - 2,
            Long.MAX_VALUE / 2, Long.MAX_VALUE / 2, false));
        assertEquals(RejectReason.NONE, PreTradeRisk.check(LIMITS, 0, FIVES, 1_000, Side.BUY, 1_000, 10, 10, true));
        assertEquals(RejectReason.MAX_NOTIONAL_EXCEEDED,
            PreTradeRisk.check(LIMITS, 0, FIVES, 1_000, Side.BUY, 1_005, 10, 10, true));
    }

    @Test
    void shouldCountThePositionAsIfTheOrderFilled()
    {
        assertEquals(RejectReason.NONE, PreTradeRisk.check(LIMITS, 45, FIVES, 1_000, Side.BUY, 100, 5, 5, false));
        assertEquals(RejectReason.POSITION_LIMIT_EXCEEDED,
            PreTradeRisk.check(LIMITS, 45, FIVES, 1_000, Side.BUY, 100, 6, 6, false));
        assertEquals(RejectReason.NONE, PreTradeRisk.check(LIMITS, -45, FIVES, 1_000, Side.SELL, 100, 5, 5, false));
        assertEquals(RejectReason.POSITION_LIMIT_EXCEEDED,
            PreTradeRisk.check(LIMITS, -45, FIVES, 1_000, Side.SELL, 100, 6, 6, false));
        assertEquals(RejectReason.NONE, PreTradeRisk.check(LIMITS, 45, FIVES, 1_000, Side.SELL, 100, 95, 95, false));
    }

    @Test
    void shouldCheckTheBandOnlyWhenAsked()
    {
        assertEquals(RejectReason.PRICE_OUTSIDE_BAND,
            PreTradeRisk.check(LIMITS, 0, FIVES, 1_000, Side.BUY, 1_035, 1, 1, true));
        assertEquals(RejectReason.NONE, PreTradeRisk.check(LIMITS, 0, FIVES, 1_000, Side.BUY, 1_035, 1, 1, false));
        assertEquals(RejectReason.NONE, PreTradeRisk.check(LIMITS, 0, FIVES, 1_000, Side.BUY, 1_030, 1, 1, true));
    }
}
