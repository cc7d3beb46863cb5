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

import java.util.List;

import io.warpbus.matching.Instrument;
import io.warpbus.matching.OrderType;
import io.warpbus.matching.RiskLimits;
import io.warpbus.matching.SelfTradePrevention;
import io.warpbus.matching.Side;
import io.warpbus.matching.TimeInForce;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The example of docs/matching-engine.md, kept compiling and true.
 */
class DocumentedExampleTest
{
    @Test
    void shouldRunTheDocumentedExample()
    {
        final EventLog listener = new EventLog();
        final long nowNs = 1_000;

        final MatchingEngine engine = new MatchingEngine(new MatchingEngine.Context()
            .listener(listener)
            .selfTradePrevention(SelfTradePrevention.CANCEL_RESTING)
            .bookCapacity(64 * 1024));
        engine.addInstrument(new Instrument(1, "ACME", 5, 1, 2, 500, 10_000));
        engine.addAccount(7, new RiskLimits(10_000, 50_000_000_000L, 100_000));

        engine.newOrder(1001, 7, 1, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, 9_995, 100, nowNs);
        engine.replace(1001, 7, 1, 10_000, 80, nowNs);
        engine.cancel(1001, 7, 1, nowNs);

        assertEquals(List.of(
            "NEW o1 c1001 a7 BUY 100@9995 last 0@0 cum 0 leaves 100",
            "L2 BUY ADD 9995 qty 100 n 1 d 1",
            "REPLACED o1 c1001 a7 BUY 80@10000 last 0@0 cum 0 leaves 80",
            "L2 BUY DELETE 9995 qty 0 n 0 d 1",
            "L2 BUY ADD 10000 qty 80 n 1 d 1",
            "CANCELLED o1 c1001 a7 BUY 80@10000 last 0@0 cum 0 leaves 0",
            "L2 BUY DELETE 10000 qty 0 n 0 d 1"), listener.drain());
    }
}
