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

import java.lang.management.ManagementFactory;
import java.util.Arrays;

import io.warpbus.matching.ExecType;
import io.warpbus.matching.Instrument;
import io.warpbus.matching.load.LoadGenerator;
import io.warpbus.matching.load.LoadProfile;
import io.warpbus.orderentry.RejectReason;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hot path allocates nothing in steady state: the load generator drives the engine on {@code DirectOrderBook}
 * (the default) through a listener that allocates nothing either, and the thread's allocated bytes are read around
 * several windows of 200,000 commands after a warm-up. The least window must be 0 bytes: an allocation per command,
 * however rare its path, shows in every window, while a one-off allocation by the JVM on this thread as the JIT
 * settles shows in one at most. The per-window numbers are printed to the test's output.
 */
class AllocationTest
{
    private static final int WARM_UP_COMMANDS = 400_000;
    private static final int WINDOW_COMMANDS = 200_000;
    private static final int WINDOWS = 5;

    @ParameterizedTest(name = "{0} on {1} instrument(s), feedback {2}")
    @CsvSource({
        "fixedMix, 1, false",
        "fixedMix, 10, false",
        "tradingDay, 10, true"
    })
    void shouldNotAllocateInSteadyState(final String preset, final int instruments, final boolean feedback)
    {
        final LoadProfile profile = "fixedMix".equals(preset) ?
            LoadProfile.fixedMix(instruments, 17) : LoadProfile.tradingDay(instruments, 17);
        final LoadGenerator generator = new LoadGenerator(profile);
        final CountingListener listener = new CountingListener();
        if (feedback)
        {
            listener.feedback(generator);
        }
        final MatchingEngine engine = new MatchingEngine(new MatchingEngine.Context()
            .listener(listener)
            .bookCapacity(16 * 1024)
            .accountOrderCapacity(16 * 1024));
        for (final Instrument instrument : profile.instruments())
        {
            engine.addInstrument(instrument);
        }
        for (final int accountId : profile.accountIds())
        {
            engine.addAccount(accountId, profile.riskLimits());
        }

        generator.prefill(engine);
        generator.generate(engine, WARM_UP_COMMANDS);

        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final long threadId = Thread.currentThread().getId();
        final long[] windows = new long[WINDOWS];
        long leastAllocated = Long.MAX_VALUE;
        for (int i = 0; i < WINDOWS; i++)
        {
            final long before = threads.getThreadAllocatedBytes(threadId);
            generator.generate(engine, WINDOW_COMMANDS);
            windows[i] = threads.getThreadAllocatedBytes(threadId) - before;
            leastAllocated = Math.min(leastAllocated, windows[i]);
        }

        System.out.println(preset + " on " + instruments + " instrument(s), feedback " + feedback + ": bytes per " +
            "window of " + WINDOW_COMMANDS + " commands " + Arrays.toString(windows) + "; events " + listener.events() +
            ", trades " + listener.trades + ", exec types " + Arrays.toString(listener.execTypes) +
            ", unknown-order rejects " + listener.reasons[RejectReason.UNKNOWN_ORDER.code()]);
        assertEquals(0, leastAllocated, "bytes allocated per window of " + WINDOW_COMMANDS + " commands: " +
            Arrays.toString(windows));
        assertTrue(listener.trades > WINDOWS * WINDOW_COMMANDS / 20, "too few trades to be a fair test");
        assertTrue(listener.execTypes[ExecType.REPLACED.code()] > 0);
        assertTrue(listener.execTypes[ExecType.CANCELLED.code()] > 0);
    }
}
