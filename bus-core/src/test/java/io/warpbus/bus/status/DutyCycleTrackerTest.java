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
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class DutyCycleTrackerTest
{
    private static final long THRESHOLD_NS = 1_000;

    private final CountersManager manager = SystemCountersTest.newCountersManager(32);
    private final AtomicCounter maxCycleTime = manager.newCounter("max");
    private final AtomicCounter stalls = manager.newCounter("stalls");
    private final DutyCycleTracker tracker = new DutyCycleTracker(maxCycleTime, stalls, THRESHOLD_NS);

    @Test
    void shouldOnlyStartMeasuringOnTheFirstCall()
    {
        tracker.measureAndUpdate(5_000_000);
        assertEquals(0, maxCycleTime.get());
        assertEquals(0, stalls.get());

        tracker.measureAndUpdate(5_000_300);
        assertEquals(300, maxCycleTime.get());
        assertEquals(300, tracker.maxCycleTimeNs());
    }

    @Test
    void shouldTrackTheLongestCycle()
    {
        tracker.reset(0);
        tracker.measureAndUpdate(100);
        tracker.measureAndUpdate(600);
        tracker.measureAndUpdate(650);
        assertEquals(500, maxCycleTime.get());
        assertEquals(0, stalls.get());
    }

    @Test
    void shouldCountCyclesStrictlyOverTheThresholdAsStalls()
    {
        tracker.reset(0);
        tracker.measureAndUpdate(THRESHOLD_NS);
        assertEquals(0, stalls.get(), "at the threshold is not a stall");
        tracker.measureAndUpdate(2 * THRESHOLD_NS + 1);
        tracker.measureAndUpdate(2 * THRESHOLD_NS + 2);
        tracker.measureAndUpdate(5 * THRESHOLD_NS);
        assertEquals(2, stalls.get());
        assertEquals(3 * THRESHOLD_NS - 2, maxCycleTime.get());
    }

    @Test
    void shouldNotCountThePauseBeforeAReset()
    {
        tracker.reset(0);
        tracker.measureAndUpdate(100);
        tracker.reset(1_000_000);
        tracker.measureAndUpdate(1_000_200);
        assertEquals(200, maxCycleTime.get());
        assertEquals(0, stalls.get());
    }

    @Test
    void shouldKeepTheMaximumOfTrackersSharingTheCounters()
    {
        final DutyCycleTracker other = new DutyCycleTracker(maxCycleTime, stalls, THRESHOLD_NS);
        tracker.reset(0);
        other.reset(0);
        tracker.measureAndUpdate(5_000);
        other.measureAndUpdate(3_000);
        assertEquals(5_000, maxCycleTime.get(), "a shorter cycle of another tracker does not lower the maximum");
        assertEquals(3_000, other.maxCycleTimeNs());
        assertEquals(2, stalls.get());
    }

    @Test
    void shouldUpdateTheSystemCountersAndShowTheThreshold()
    {
        final SystemCounters systemCounters = new SystemCounters(manager);
        final DutyCycleTracker systemTracker = DutyCycleTracker.of(systemCounters, 2_000_000);
        assertEquals(2_000_000, systemTracker.stallThresholdNs());
        assertEquals("Duty cycle stalls over threshold of 2000000 ns",
            systemCounters.get(SystemCounterDescriptor.DUTY_CYCLE_STALLS).label());

        systemTracker.reset(0);
        systemTracker.measureAndUpdate(3_000_000);
        assertEquals(3_000_000, systemCounters.get(SystemCounterDescriptor.DUTY_CYCLE_MAX_NS).get());
        assertEquals(1, systemCounters.get(SystemCounterDescriptor.DUTY_CYCLE_STALLS).get());
    }

    @Test
    void shouldRejectANonPositiveThreshold()
    {
        assertThrows(IllegalArgumentException.class, () -> new DutyCycleTracker(maxCycleTime, stalls, 0));
    }
}
