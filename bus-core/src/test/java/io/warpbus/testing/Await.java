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
package io.warpbus.testing;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waiting in tests, with a deadline and a description, so that a test never hangs and its failure says what it was
 * waiting for. Loops check the thread's interrupt flag, so JUnit's {@code @Timeout} can stop them.
 */
public final class Await
{
    private Await()
    {
    }

    /**
     * Wait until a condition holds, running a step (driving agents, polling) between checks.
     *
     * @param description what is awaited, for the failure message.
     * @param timeoutMs   how long to wait.
     * @param step        run before each check; may be a no-op.
     * @param condition   checked after each step.
     * @throws AssertionError when the time is up, naming the description.
     */
    public static void until(
        final String description, final long timeoutMs, final Runnable step, final BooleanSupplier condition)
    {
        until(() -> description, timeoutMs, step, condition);
    }

    /**
     * Wait until a condition holds, running a step between checks, with a description made only on failure: for
     * messages that carry what the test saw so far (events, errors, a child's output).
     *
     * @param description what is awaited and what was seen, for the failure message.
     * @param timeoutMs   how long to wait.
     * @param step        run before each check; may be a no-op.
     * @param condition   checked after each step.
     * @throws AssertionError when the time is up, naming the description.
     */
    public static void until(
        final Supplier<String> description, final long timeoutMs, final Runnable step, final BooleanSupplier condition)
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (true)
        {
            step.run();
            if (condition.getAsBoolean())
            {
                return;
            }
            checkInterrupted();
            if (System.nanoTime() - deadlineNs > 0)
            {
                throw new AssertionError("timed out after " + timeoutMs + " ms waiting for " + description.get());
            }
        }
    }

    /**
     * Wait until a condition holds, sleeping a millisecond between checks: for conditions another thread or
     * process makes true.
     *
     * @param description what is awaited, for the failure message.
     * @param timeoutMs   how long to wait.
     * @param condition   checked every millisecond.
     * @throws AssertionError when the time is up, naming the description.
     */
    public static void until(final String description, final long timeoutMs, final BooleanSupplier condition)
    {
        until(description, timeoutMs, Await::sleepBriefly, condition);
    }

    /**
     * Wait until a condition holds, sleeping a millisecond between checks, with a description made only on failure.
     *
     * @param description what is awaited and what was seen, for the failure message.
     * @param timeoutMs   how long to wait.
     * @param condition   checked every millisecond.
     * @throws AssertionError when the time is up, naming the description.
     */
    public static void until(final Supplier<String> description, final long timeoutMs, final BooleanSupplier condition)
    {
        until(description, timeoutMs, Await::sleepBriefly, condition);
    }

    /**
     * Sleep for a while, as a step between checks; an interrupt (a test timeout) ends the wait.
     *
     * @param ms how long.
     * @throws IllegalStateException when interrupted.
     */
    public static void sleep(final long ms)
    {
        try
        {
            Thread.sleep(ms);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }

    /**
     * Throw if the current thread was interrupted (by a test timeout), so that a loop stops.
     *
     * @throws IllegalStateException when interrupted.
     */
    public static void checkInterrupted()
    {
        if (Thread.currentThread().isInterrupted())
        {
            throw new IllegalStateException("interrupted");
        }
    }

    private static void sleepBriefly()
    {
        sleep(1);
    }
}
