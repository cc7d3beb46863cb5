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
import io.warpbus.matching.MatchingEventListener;
import io.warpbus.matching.RiskLimits;
import io.warpbus.matching.SelfTradePrevention;
import io.warpbus.matching.book.OrderBookFactory;

/**
 * The engine every scenario and random test starts from.
 * <pre>
 *   instrument 1  "ONE"  tick 1, lot 1,  reference 100,  band 10% (10 either side at 100)
 *   instrument 2  "TWO"  tick 5, lot 10, reference 1000, band 5%  (50 either side at 1000)
 *   accounts 1-4  wide limits
 *   account 9     max order quantity 100, max notional 5,000, position limit 50
 * </pre>
 */
final class TestEngines
{
    static final Instrument ONE = new Instrument(1, "ONE", 1, 1, 2, 1_000, 100);
    static final Instrument TWO = new Instrument(2, "TWO", 5, 10, 2, 500, 1_000);
    static final RiskLimits WIDE = new RiskLimits(1_000_000, 1_000_000_000_000L, 1_000_000);
    static final RiskLimits TIGHT = new RiskLimits(100, 5_000, 50);
    static final int[] WIDE_ACCOUNTS = { 1, 2, 3, 4 };
    static final int TIGHT_ACCOUNT = 9;

    private TestEngines()
    {
    }

    static MatchingEngine newEngine(
        final OrderBookFactory factory,
        final SelfTradePrevention selfTradePrevention,
        final int bookCapacity,
        final MatchingEventListener listener)
    {
        final MatchingEngine engine = emptyEngine(factory, selfTradePrevention, bookCapacity, listener);
        engine.addInstrument(ONE);
        engine.addInstrument(TWO);
        for (final int accountId : WIDE_ACCOUNTS)
        {
            engine.addAccount(accountId, WIDE);
        }
        engine.addAccount(TIGHT_ACCOUNT, TIGHT);

        return engine;
    }

    static MatchingEngine emptyEngine(
        final OrderBookFactory factory,
        final SelfTradePrevention selfTradePrevention,
        final int bookCapacity,
        final MatchingEventListener listener)
    {
        return new MatchingEngine(new MatchingEngine.Context()
            .listener(listener)
            .orderBookFactory(factory)
            .selfTradePrevention(selfTradePrevention)
            .bookCapacity(bookCapacity)
            .accountOrderCapacity(64));
    }
}
