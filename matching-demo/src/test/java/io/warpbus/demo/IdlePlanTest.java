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

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IdlePlanTest
{
    private static final String REFUSED = "'chrt -f -p 1 42' exited 1: chrt: failed to set pid 42's policy: " +
        "Operation not permitted (a real-time priority needs root or CAP_SYS_NICE)";
    private static final Supplier<String> PERMITTED = () -> null;
    private static final Supplier<String> NOT_PERMITTED = () -> REFUSED;
    private static final Supplier<String> NOT_ASKED = () ->
    {
        throw new AssertionError("asked whether real-time is permitted where it would not be used");
    };

    @Test
    void shouldSpinNothingOnTwoCoresWhereRealtimeIsNotPermitted()
    {
        final IdlePlan plan = IdlePlan.choose(2, null, null, null, null, NOT_PERMITTED);
        assertEquals("backoff-50", plan.engine());
        assertEquals("backoff-50", plan.client());
        assertEquals("backoff", plan.md());
        assertFalse(plan.realtime());
        assertTrue(plan.toString().startsWith("engine backoff-50, client backoff-50, md backoff (2 cores for five " +
            "processes: nothing busy-spins"), plan.toString());
        assertEquals(30, plan.warmupSeconds());
        assertTrue(plan.toString().contains("the warm-up is 30 s unless --warmup says"), plan.toString());
        assertTrue(plan.toString().endsWith("; not at a real-time priority: " + REFUSED + ")"), plan.toString());
    }

    @Test
    void shouldRunEngineAndClientAtFifoOnTwoCoresWherePermitted()
    {
        final IdlePlan plan = IdlePlan.choose(2, null, null, null, "auto", PERMITTED);
        assertTrue(plan.realtime());
        assertEquals("park-50", plan.engine());
        assertEquals("park-50", plan.client());
        assertEquals("backoff", plan.md());
        assertEquals(30, plan.warmupSeconds());
        assertEquals("engine park-50, client park-50, md backoff (2 cores for five processes and permitted: the " +
            "engine and the load client run at SCHED_FIFO 1 from halfway through the warm-up and park 50 us " +
            "whenever idle, so a command wakes them at once; the gateway, its load and the market-data subscriber " +
            "get what they leave, and their latency grows (--realtime off to leave them all equal))", plan.toString());
        assertEquals(plan.toString(), IdlePlan.choose(2, null, null, null, null, PERMITTED).toString());
        assertTrue(IdlePlan.choose(3, null, null, null, null, PERMITTED).realtime());
    }

    @Test
    void shouldLeaveAutoRealtimeOutOfAWarmupTooShortForTheJit()
    {
        final IdlePlan plan = IdlePlan.choose(2, null, null, null, "auto", PERMITTED);
        assertSame(plan, plan.forWarmup(30));
        assertSame(plan, plan.forWarmup(3600));
        final IdlePlan shortRun = plan.forWarmup(10);
        assertFalse(shortRun.realtime());
        assertEquals("backoff-50", shortRun.engine());
        assertEquals("backoff-50", shortRun.client());
        assertEquals("backoff", shortRun.md());
        assertEquals("engine backoff-50, client backoff-50, md backoff (2 cores for five processes: nothing " +
            "busy-spins (a spinner would take a core the others need); the engine and the load client park at most " +
            "50 us when idle; the warm-up is 30 s unless --warmup says (the JIT of five JVMs holds the load back " +
            "that long); not at a real-time priority: a 10 s warm-up is too short for it (the threads are raised " +
            "halfway through one of at least 30 s, once the JIT has compiled the hot paths: --duration 60 or more))",
            shortRun.toString());
        assertTrue(plan.forWarmup(29).toString().contains("a 29 s warm-up is too short"));
        assertTrue(IdlePlan.choose(2, null, null, "sleep-1", null, PERMITTED).forWarmup(0).toString()
            .endsWith("--duration 60 or more); the options given override it)"));
    }

    @Test
    void shouldKeepRealtimeOnAndOffWhateverTheWarmup()
    {
        final IdlePlan on = IdlePlan.choose(2, null, null, null, "on", PERMITTED);
        assertSame(on, on.forWarmup(0));
        final IdlePlan off = IdlePlan.choose(2, null, null, null, "off", NOT_ASKED);
        assertSame(off, off.forWarmup(0));
        final IdlePlan refused = IdlePlan.choose(2, null, null, null, null, NOT_PERMITTED);
        assertSame(refused, refused.forWarmup(5));
    }

    @Test
    void shouldLeaveRealtimeOffWhereAsked()
    {
        final IdlePlan plan = IdlePlan.choose(2, null, null, null, " OFF", NOT_ASKED);
        assertFalse(plan.realtime());
        assertEquals("backoff-50", plan.engine());
        assertFalse(plan.toString().contains("real-time"), plan.toString());
    }

    @Test
    void shouldLeaveRealtimeOffWhereTheUserChoseAStrategy()
    {
        final IdlePlan plan = IdlePlan.choose(2, "backoff", null, null, null, NOT_ASKED);
        assertFalse(plan.realtime());
        assertEquals("backoff", plan.engine());
        assertEquals("backoff-50", plan.client());
        assertFalse(IdlePlan.choose(2, null, "backoff", null, "auto", NOT_ASKED).realtime());
        assertTrue(IdlePlan.choose(2, null, null, "sleep-1", "auto", PERMITTED).realtime());
    }

    @Test
    void shouldSpinTheEngineOnlyOnThreeCoresWhereRealtimeIsNotPermitted()
    {
        final IdlePlan plan = IdlePlan.choose(3, null, null, null, null, NOT_PERMITTED);
        assertEquals("spin", plan.engine());
        assertEquals("backoff-50", plan.client());
        assertEquals(5, plan.warmupSeconds());
    }

    @Test
    void shouldSpinEngineAndClientWhenTwoCoresAreLeftForTheRest()
    {
        final IdlePlan plan = IdlePlan.choose(4, null, null, null, null, NOT_ASKED);
        assertEquals("spin", plan.engine());
        assertEquals("spin", plan.client());
        assertEquals("backoff", plan.md());
        assertFalse(plan.realtime());
        assertTrue(plan.toString().contains("4 cores: the engine and the load client busy-spin on one each, 2 left"),
            plan.toString());
    }

    @Test
    void shouldTakeWhatTheUserChoseAndSaySo()
    {
        final IdlePlan plan = IdlePlan.choose(2, "spin", null, "yield", null, NOT_ASKED);
        assertEquals("spin", plan.engine());
        assertEquals("backoff-50", plan.client());
        assertEquals("yield", plan.md());
        assertTrue(plan.toString().endsWith("; the options given override it)"), plan.toString());
    }

    @Test
    void shouldNameTheOptionWithAnUnknownValue()
    {
        assertEquals("--client-idle: unknown idle strategy 'fast': expected spin, noop, yield, backoff, " +
            "backoff-N, park-N or sleep-N",
            assertThrows(IllegalArgumentException.class, () -> IdlePlan.choose(8, null, "fast", null, null, NOT_ASKED))
            .getMessage());
        assertEquals("--realtime yes: expected on, off or auto",
            assertThrows(IllegalArgumentException.class, () -> IdlePlan.choose(2, null, null, null, "yes", NOT_ASKED))
            .getMessage());
    }

    @Test
    void shouldAskForRealtimeOnAnyMachineWithOn()
    {
        final AtomicInteger asked = new AtomicInteger();
        final IdlePlan plan = IdlePlan.choose(8, null, null, null, "on", () ->
        {
            asked.incrementAndGet();
            return null;
        });
        assertEquals(1, asked.get());
        assertTrue(plan.realtime());
        assertEquals("park-50", plan.engine());
        assertEquals("park-50", plan.client());
        assertTrue(plan.toString().startsWith("engine park-50, client park-50, md backoff (8 cores, --realtime on: " +
            "the engine and the load client run at SCHED_FIFO 1"), plan.toString());
        assertEquals(30, plan.warmupSeconds());
    }

    @Test
    void shouldFailWithTheReasonWhereRealtimeOnIsRefused()
    {
        assertEquals("--realtime on: " + REFUSED, assertThrows(IllegalStateException.class,
            () -> IdlePlan.choose(2, null, null, null, "on", NOT_PERMITTED)).getMessage());
    }

    @Test
    void shouldRefuseAStrategyThatNeverParksForARealtimeThread()
    {
        assertEquals("--idle spin with --realtime on: a thread at SCHED_FIFO that never parks keeps its core from " +
            "every other thread; use park-N or backoff-N",
            assertThrows(IllegalArgumentException.class, () -> IdlePlan.choose(2, "spin", null, null, "on", PERMITTED))
            .getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> IdlePlan.choose(2, null, " Yield", null, "on", PERMITTED))
            .getMessage().startsWith("--client-idle  Yield with --realtime on"));
        assertEquals("park-20", IdlePlan.choose(2, "park-20", "backoff-50", "spin", "on", PERMITTED).engine());
    }
}
