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

import org.agrona.concurrent.NanoClock;

/**
 * The engine's clock for the steady-state allocation tests: system time, except that while the test warms up each
 * reading moves it on by a step, so the engine's once-a-millisecond work (polling listeners with
 * {@code Selector.selectNow()}, checking deadlines) runs on every duty cycle of the warm-up instead of a few hundred
 * times in all. After the warm-up it runs at the system's rate from where it got to, and the measured windows see
 * the engine exactly as it runs in production.
 * <p>
 * Why it matters: before HotSpot queues a method for C2 it resolves every string literal in the method's class, on
 * the thread whose counters triggered the compile, allocating a {@code String} for each literal not yet resolved
 * (the {@code resolve_string_constants} step of {@code CompileBroker::compile_method}). That costs something only at
 * the first C2 compile of any method of a class, and never again, but it comes when the class gets hot. A warm-up of
 * so many messages makes the per-message classes hot; a path that runs by the clock gets hot by the clock, seconds
 * after start, inside whichever window is being measured. Under the accept selector's {@code selectNow()} those
 * were, in the engine's allocation test, 192 bytes when C2 took {@code ArrayDeque.pollFirst} (about 2.7 s in), 56
 * for {@code SelectorImpl.processDeregisterQueue} (3.9 s) and 120 for {@code HashSet.isEmpty} (7.4 s).
 * <p>
 * Read and switched on one thread: the tests drive their engines on their own thread.
 */
public final class WarmUpClock implements NanoClock
{
    private final long stepNs;
    private long offsetNs;
    private boolean warmingUp;

    /**
     * A clock that keeps to system time until {@link #warmingUp(boolean)} is switched on.
     *
     * @param stepNs how far each reading moves the clock on while warming up: at least the engine's slow-poll
     *               interval, so that every duty cycle polls.
     */
    public WarmUpClock(final long stepNs)
    {
        this.stepNs = stepNs;
    }

    /**
     * Start or stop moving the clock on by a step at each reading. Switch it on only once connections are
     * established, so that no handshake deadline runs out early.
     *
     * @param warmingUp true to step, false to run at the system's rate from where the clock is.
     * @return this.
     */
    public WarmUpClock warmingUp(final boolean warmingUp)
    {
        this.warmingUp = warmingUp;
        return this;
    }

    /**
     * How far the warm-up has moved the clock ahead of system time.
     *
     * @return nanoseconds ahead.
     */
    public long offsetNs()
    {
        return offsetNs;
    }

    @Override
    public long nanoTime()
    {
        if (warmingUp)
        {
            offsetNs += stepNs;
        }
        return System.nanoTime() + offsetNs;
    }
}
