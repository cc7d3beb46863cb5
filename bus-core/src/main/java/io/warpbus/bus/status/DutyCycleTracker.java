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
package io.warpbus.bus.status;

import org.agrona.concurrent.status.AtomicCounter;

/**
 * Measures the time between successive calls on a duty-cycle loop and reports it through two counters: the
 * longest cycle seen ({@link SystemCounterDescriptor#DUTY_CYCLE_MAX_NS}) and the number of cycles longer than a
 * threshold ({@link SystemCounterDescriptor#DUTY_CYCLE_STALLS}).
 * <p>
 * Each tracker is used by one thread: call {@link #measureAndUpdate(long)} once per duty cycle with
 * {@link System#nanoTime()}. Several trackers (one per agent thread) may share the two counters: the maximum is
 * raised with compare-and-set and stalls are counted with an atomic increment, both only on the rare cycles that
 * need it, so the common cycle costs a subtraction and two comparisons.
 */
public final class DutyCycleTracker
{
    private final AtomicCounter maxCycleTimeNs;
    private final AtomicCounter stalls;
    private final long stallThresholdNs;
    private long lastTimestampNs;
    private long localMaxCycleTimeNs;
    private boolean started;

    /**
     * A tracker updating two counters.
     *
     * @param maxCycleTimeNs   counter raised to the longest cycle time seen, in ns.
     * @param stalls           counter incremented for each cycle longer than {@code stallThresholdNs}.
     * @param stallThresholdNs cycles strictly longer than this, in ns, are stalls; must be positive.
     */
    public DutyCycleTracker(final AtomicCounter maxCycleTimeNs, final AtomicCounter stalls, final long stallThresholdNs)
    {
        if (stallThresholdNs <= 0)
        {
            throw new IllegalArgumentException("stallThresholdNs must be positive: " + stallThresholdNs);
        }
        this.maxCycleTimeNs = maxCycleTimeNs;
        this.stalls = stalls;
        this.stallThresholdNs = stallThresholdNs;
    }

    /**
     * A tracker updating the system counters {@link SystemCounterDescriptor#DUTY_CYCLE_MAX_NS} and
     * {@link SystemCounterDescriptor#DUTY_CYCLE_STALLS}; the stalls counter's label is updated to show the
     * threshold.
     *
     * @param systemCounters   holding the two counters.
     * @param stallThresholdNs cycles strictly longer than this, in ns, are stalls; must be positive.
     * @return a new tracker.
     */
    public static DutyCycleTracker of(final SystemCounters systemCounters, final long stallThresholdNs)
    {
        final AtomicCounter stalls = systemCounters.get(SystemCounterDescriptor.DUTY_CYCLE_STALLS);
        final DutyCycleTracker tracker = new DutyCycleTracker(
            systemCounters.get(SystemCounterDescriptor.DUTY_CYCLE_MAX_NS), stalls, stallThresholdNs);
        stalls.updateLabel(SystemCounterDescriptor.DUTY_CYCLE_STALLS.label() + " of " + stallThresholdNs + " ns");
        return tracker;
    }

    /**
     * Start (or restart) measuring from a point in time, e.g. when the agent starts or resumes after an expected
     * pause; the time before it is not counted as a cycle.
     *
     * @param nowNs {@link System#nanoTime()}.
     */
    public void reset(final long nowNs)
    {
        lastTimestampNs = nowNs;
        started = true;
    }

    /**
     * Measure the cycle that ends now and update the counters. The first call without a {@link #reset(long)} only
     * starts measuring.
     *
     * @param nowNs {@link System#nanoTime()}.
     */
    public void measureAndUpdate(final long nowNs)
    {
        if (!started)
        {
            reset(nowNs);
            return;
        }

        final long cycleTimeNs = nowNs - lastTimestampNs;
        lastTimestampNs = nowNs;

        if (cycleTimeNs > localMaxCycleTimeNs)
        {
            localMaxCycleTimeNs = cycleTimeNs;
            proposeMax(cycleTimeNs);
        }
        if (cycleTimeNs > stallThresholdNs)
        {
            stalls.increment();
        }
    }

    /**
     * The stall threshold.
     *
     * @return ns.
     */
    public long stallThresholdNs()
    {
        return stallThresholdNs;
    }

    /**
     * The longest cycle this tracker measured (the counter may hold a longer one from another tracker).
     *
     * @return ns, 0 before the first cycle.
     */
    public long maxCycleTimeNs()
    {
        return localMaxCycleTimeNs;
    }

    private void proposeMax(final long cycleTimeNs)
    {
        long current = maxCycleTimeNs.get();
        while (cycleTimeNs > current && !maxCycleTimeNs.compareAndSet(current, cycleTimeNs))
        {
            current = maxCycleTimeNs.get();
        }
    }
}
