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
package io.warpbus.demo;

import io.warpbus.matching.ExecType;
import io.warpbus.matching.OrderType;
import io.warpbus.matching.Side;
import io.warpbus.matching.TimeInForce;
import io.warpbus.orderentry.sbe.ExecutionReportDecoder;
import io.warpbus.orderentry.sbe.MessageHeaderDecoder;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The order-entry schema's codes are the matching core's, so the service maps them without a table, and the
 * schema keeps its routing key where a gateway reads it.
 */
class OrderEntryCodesTest
{
    @Test
    void shouldShareEveryCodeWithTheMatchingCore()
    {
        for (final Side side : Side.values())
        {
            assertEquals(side.name(), upper(io.warpbus.orderentry.sbe.Side.get((short)side.code()).name()));
        }
        for (final OrderType type : OrderType.values())
        {
            assertEquals(type.name(), upper(io.warpbus.orderentry.sbe.OrderType.get((short)type.code()).name()));
        }
        assertEquals(io.warpbus.orderentry.sbe.TimeInForce.GoodTillCancel,
            io.warpbus.orderentry.sbe.TimeInForce.get((short)TimeInForce.GTC.code()));
        assertEquals(io.warpbus.orderentry.sbe.TimeInForce.ImmediateOrCancel,
            io.warpbus.orderentry.sbe.TimeInForce.get((short)TimeInForce.IOC.code()));
        assertEquals(io.warpbus.orderentry.sbe.TimeInForce.FillOrKill,
            io.warpbus.orderentry.sbe.TimeInForce.get((short)TimeInForce.FOK.code()));
        for (final ExecType execType : ExecType.values())
        {
            assertEquals(execType.name(),
                upper(io.warpbus.orderentry.sbe.ExecType.get((short)execType.code()).name()));
        }
    }

    @Test
    void shouldPutTheAccountFirstInEveryExecutionReport()
    {
        assertEquals(2, MessageHeaderDecoder.SCHEMA_ID);
        assertEquals(0, ExecutionReportDecoder.accountIdEncodingOffset());
    }

    private static String upper(final String camel)
    {
        return camel.replaceAll("([a-z])([A-Z])", "$1_$2").toUpperCase();
    }
}
