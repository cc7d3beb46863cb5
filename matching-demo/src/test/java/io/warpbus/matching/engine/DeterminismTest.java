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
import io.warpbus.matching.load.LoadGenerator;
import io.warpbus.matching.load.LoadProfile;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class DeterminismTest
{
    private static final int COMMANDS = 100_000;

    @Test
    void shouldReachTheSameStateAndEventsFromTheSameCommands()
    {
        final CountingListener first = new CountingListener();
        final CountingListener second = new CountingListener();
        final CountingListener otherSeed = new CountingListener();

        final long firstHash = run(LoadProfile.tradingDay(10, 99), first);
        final long secondHash = run(LoadProfile.tradingDay(10, 99), second);
        final long otherHash = run(LoadProfile.tradingDay(10, 100), otherSeed);

        assertEquals(firstHash, secondHash);
        assertEquals(first.digest, second.digest);
        assertEquals(first.events(), second.events());
        assertNotEquals(firstHash, otherHash);
        assertNotEquals(first.digest, otherSeed.digest);
    }

    private static long run(final LoadProfile profile, final CountingListener listener)
    {
        final LoadGenerator generator = new LoadGenerator(profile);
        listener.feedback(generator);
        final MatchingEngine engine = new MatchingEngine(new MatchingEngine.Context().listener(listener)
            .bookCapacity(8 * 1024));
        for (final Instrument instrument : profile.instruments())
        {
            engine.addInstrument(instrument);
        }
        for (final int accountId : profile.accountIds())
        {
            engine.addAccount(accountId, profile.riskLimits());
        }
        generator.prefill(engine);
        generator.generate(engine, COMMANDS);

        long hash = engine.stateHash();
        for (final Instrument instrument : profile.instruments())
        {
            assertEquals(engine.book(instrument.id()).stateHash(), engine.book(instrument.id()).stateHash());
            hash ^= engine.stateHash(instrument.id());
        }

        return hash;
    }
}
