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

import io.warpbus.marketdata.sbe.UpdateAction;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

class EnumCodesTest
{
    @Test
    void shouldLookUpEveryCodeAndNothingElse()
    {
        for (final ExecType type : ExecType.values())
        {
            assertSame(type, ExecType.get(type.code()));
        }
        for (final OrderType type : OrderType.values())
        {
            assertSame(type, OrderType.get(type.code()));
        }
        for (final TimeInForce timeInForce : TimeInForce.values())
        {
            assertSame(timeInForce, TimeInForce.get(timeInForce.code()));
        }
        for (final SelfTradePrevention policy : SelfTradePrevention.values())
        {
            assertSame(policy, SelfTradePrevention.get(policy.code()));
        }
        assertNull(ExecType.get(ExecType.values().length));
        assertNull(Side.get(2));
        assertSame(Side.SELL, Side.BUY.opposite());
        assertSame(Side.BUY, Side.SELL.opposite());
    }

    @Test
    void shouldUseTheMarketDataSchemaValuesForSideAndBookAction()
    {
        assertEquals(io.warpbus.marketdata.sbe.Side.Buy.value(), Side.BUY.code());
        assertEquals(io.warpbus.marketdata.sbe.Side.Sell.value(), Side.SELL.code());
        assertEquals(UpdateAction.Add.value(), BookAction.ADD.code());
        assertEquals(UpdateAction.Change.value(), BookAction.CHANGE.code());
        assertEquals(UpdateAction.Delete.value(), BookAction.DELETE.code());
    }
}
