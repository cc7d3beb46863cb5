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

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IdlePlanTest
{
    @Test
    void shouldSpinNothingOnTwoCores()
    {
        final IdlePlan plan = IdlePlan.choose(2, null, null, null, false);
        assertEquals("backoff-50", plan.engine());
        assertEquals("backoff-50", plan.client());
        assertEquals("backoff", plan.md());
        assertTrue(plan.toString().startsWith("engine backoff-50, client backoff-50, md backoff (2 cores for five " +
            "processes: nothing busy-spins"), plan.toString());
        assertEquals(30, plan.warmupSeconds());
        assertTrue(plan.toString().contains("the warm-up is 30 s unless --warmup says"), plan.toString());
    }

    @Test
    void shouldSpinTheEngineOnlyOnThreeCores()
    {
        final IdlePlan plan = IdlePlan.choose(3, null, null, null, false);
        assertEquals("spin", plan.engine());
        assertEquals("backoff-50", plan.client());
        assertEquals(5, plan.warmupSeconds());
    }

    @Test
    void shouldSpinEngineAndClientWhenTwoCoresAreLeftForTheRest()
    {
        final IdlePlan plan = IdlePlan.choose(4, null, null, null, false);
        assertEquals("spin", plan.engine());
        assertEquals("spin", plan.client());
        assertEquals("backoff", plan.md());
        assertTrue(plan.toString().contains("4 cores: the engine and the load client busy-spin on one each, 2 left"),
            plan.toString());
    }

    @Test
    void shouldTakeWhatTheUserChoseAndSaySo()
    {
        final IdlePlan plan = IdlePlan.choose(2, "spin", null, "yield", false);
        assertEquals("spin", plan.engine());
        assertEquals("backoff-50", plan.client());
        assertEquals("yield", plan.md());
        assertTrue(plan.toString().endsWith("; the options given override it)"), plan.toString());
    }

    @Test
    void shouldNameTheOptionWithAnUnknownStrategy()
    {
        assertEquals("--client-idle: unknown idle strategy 'fast': expected spin, noop, yield, backoff, " +
            "backoff-N, park-N or sleep-N",
            assertThrows(IllegalArgumentException.class, () -> IdlePlan.choose(8, null, "fast", null, false))
            .getMessage());
    }

    @Test
    void shouldParkAFixedTimeAndSpinNothingWhenRealtime()
    {
        for (final int cores : new int[] { 2, 8 })
        {
            final IdlePlan plan = IdlePlan.choose(cores, null, null, null, true);
            assertTrue(plan.realtime());
            assertEquals("park-50", plan.engine());
            assertEquals("park-50", plan.client());
            assertEquals("backoff", plan.md());
            assertEquals(30, plan.warmupSeconds());
            assertTrue(plan.toString().contains("--realtime on: the engine and the load client run at SCHED_FIFO 1 " +
                "from the end of the warm-up and park 50 us whenever idle"), plan.toString());
            assertTrue(plan.toString().contains("their latency grows"), plan.toString());
        }
        assertFalse(IdlePlan.choose(2, null, null, null, false).realtime());
    }

    @Test
    void shouldRefuseAStrategyThatNeverParksForARealtimeThread()
    {
        assertEquals("--idle spin with --realtime on: a thread at SCHED_FIFO that never parks keeps its core from " +
            "every other thread; use park-N or backoff-N",
            assertThrows(IllegalArgumentException.class, () -> IdlePlan.choose(2, "spin", null, null, true))
            .getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> IdlePlan.choose(2, null, " Yield", null, true))
            .getMessage().startsWith("--client-idle  Yield with --realtime on"));
        assertEquals("park-20", IdlePlan.choose(2, "park-20", "backoff-50", "spin", true).engine());
    }
}
