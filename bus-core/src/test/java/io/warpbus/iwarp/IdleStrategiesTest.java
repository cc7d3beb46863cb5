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
package io.warpbus.iwarp;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IdleStrategiesTest
{
    @Test
    void shouldMapEachAliasToItsStrategy()
    {
        assertInstanceOf(BusySpinIdleStrategy.class, IdleStrategies.fromAlias("spin"));
        assertInstanceOf(YieldingIdleStrategy.class, IdleStrategies.fromAlias(" Yield "));
        assertInstanceOf(BackoffIdleStrategy.class, IdleStrategies.fromAlias("backoff"));
        assertInstanceOf(SleepingMillisIdleStrategy.class, IdleStrategies.fromAlias("sleep-2"));
    }

    @Test
    void shouldBoundTheParkOfBackoffN()
    {
        final IdleStrategy idle = IdleStrategies.fromAlias("backoff-50");
        assertInstanceOf(BackoffIdleStrategy.class, idle);
        assertTrue(idle.toString().contains("minParkPeriodNs=1000, maxParkPeriodNs=50000"), idle.toString());
        assertTrue(IdleStrategies.fromAlias("backoff").toString().contains("maxParkPeriodNs=1000000"));
        assertTrue(IdleStrategies.fromAlias("backoff-1").toString().contains("minParkPeriodNs=1000, " +
            "maxParkPeriodNs=1000"));
    }

    @Test
    void shouldParkAFixedTimeWithParkN()
    {
        final IdleStrategy idle = IdleStrategies.fromAlias("park-50");
        assertInstanceOf(SleepingIdleStrategy.class, idle);
        assertTrue(idle.toString().contains("sleepPeriodNs=50000"), idle.toString());
        assertTrue(IdleStrategies.fromAlias("park-1000000").toString().contains("sleepPeriodNs=1000000000"));
    }

    @Test
    void shouldSayWhatNMustBe()
    {
        assertEquals("idle strategy 'park-0': N in park-N must be 1 to 1000000 microseconds, not 0",
            assertThrows(IllegalArgumentException.class, () -> IdleStrategies.fromAlias("park-0")).getMessage());
        assertEquals("idle strategy 'backoff-5ms': N in backoff-N must be a number of microseconds",
            assertThrows(IllegalArgumentException.class, () -> IdleStrategies.fromAlias("backoff-5ms")).getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = { "backoff-0", "backoff-1000001", "backoff-x", "backoff-", "sleep-y", "spinny", "park-",
        "park-0", "park-1000001", "park--5", "park-1.5" })
    void shouldNameWhatIsWrongWithABadAlias(final String alias)
    {
        final IllegalArgumentException ex =
            assertThrows(IllegalArgumentException.class, () -> IdleStrategies.fromAlias(alias));
        assertTrue(ex.getMessage().contains("'" + alias + "'"), ex.getMessage());
    }

    @Test
    void shouldSayWhichAliasesExist()
    {
        assertEquals("unknown idle strategy 'fast': expected spin, noop, yield, backoff, backoff-N, park-N or " +
            "sleep-N",
            assertThrows(IllegalArgumentException.class, () -> IdleStrategies.fromAlias("fast")).getMessage());
    }
}
