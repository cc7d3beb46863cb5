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

import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

/**
 * Idle strategies chosen by alias, so threading is configuration.
 * <ul>
 *     <li>{@code spin}: busy spin with a CPU pause hint: production and benchmarks.</li>
 *     <li>{@code noop}: busy spin with no hint.</li>
 *     <li>{@code yield}: {@link Thread#yield()} when idle.</li>
 *     <li>{@code backoff}: spin, then yield, then park up to 1 ms: tests and shared machines.</li>
 *     <li>{@code backoff-N}: the same with parks of at most N microseconds (1 to 1,000,000): a shared machine where
 *     latency still matters, at the price of more wake-ups.</li>
 *     <li>{@code park-N}: park N microseconds (1 to 1,000,000) whenever idle, with no spinning or yielding first: a
 *     thread at a real-time priority, which must give its core back at once (a spin or a yield would keep it).</li>
 *     <li>{@code sleep-N}: sleep N milliseconds when idle.</li>
 * </ul>
 */
public final class IdleStrategies
{
    private IdleStrategies()
    {
    }

    /**
     * Create a new idle strategy from its alias.
     *
     * @param alias one of the aliases above.
     * @return a new instance.
     * @throws IllegalArgumentException naming the alias when it is unknown.
     */
    public static IdleStrategy fromAlias(final String alias)
    {
        final String name = alias.trim().toLowerCase();
        switch (name)
        {
            case "spin":
                return new BusySpinIdleStrategy();
            case "noop":
                return NoOpIdleStrategy.INSTANCE;
            case "yield":
                return YieldingIdleStrategy.INSTANCE;
            case "backoff":
                return new BackoffIdleStrategy(
                    10, 20, TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.MILLISECONDS.toNanos(1));
            default:
                if (name.startsWith("backoff-"))
                {
                    return backoff(alias, name.substring("backoff-".length()));
                }
                if (name.startsWith("park-"))
                {
                    return new SleepingIdleStrategy(
                        TimeUnit.MICROSECONDS.toNanos(micros(alias, "park-N", name.substring("park-".length()))));
                }
                if (name.startsWith("sleep-"))
                {
                    try
                    {
                        return new SleepingMillisIdleStrategy(Long.parseLong(name.substring("sleep-".length())));
                    }
                    catch (final NumberFormatException ex)
                    {
                        throw new IllegalArgumentException(
                            "idle strategy '" + alias + "': N in sleep-N must be a number");
                    }
                }
                throw new IllegalArgumentException(
                    "unknown idle strategy '" + alias + "': expected spin, noop, yield, backoff, backoff-N, " +
                    "park-N or sleep-N");
        }
    }

    private static IdleStrategy backoff(final String alias, final String maxParkUs)
    {
        final long maxParkNs = TimeUnit.MICROSECONDS.toNanos(micros(alias, "backoff-N", maxParkUs));
        return new BackoffIdleStrategy(10, 20, Math.min(TimeUnit.MICROSECONDS.toNanos(1), maxParkNs), maxParkNs);
    }

    private static long micros(final String alias, final String form, final String value)
    {
        final long micros;
        try
        {
            micros = Long.parseLong(value);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("idle strategy '" + alias + "': N in " + form + " must be a number " +
                "of microseconds");
        }
        if (micros < 1 || micros > 1_000_000)
        {
            throw new IllegalArgumentException("idle strategy '" + alias + "': N in " + form + " must be 1 to " +
                "1000000 microseconds, not " + micros);
        }
        return micros;
    }
}
