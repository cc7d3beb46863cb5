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
package io.warpbus.gateway.admin;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.warpbus.gateway.metrics.GatewayMetrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The operations view's sampler: per-interval percentiles of the round trips recorded since the last sample, rates
 * from the counters' change, and a ring of the last {@value OperationsSampler#CAPACITY} samples, oldest first.
 */
@Timeout(30)
class OperationsSamplerTest
{
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final GatewayMetrics metrics = new GatewayMetrics(null);

    @Test
    void shouldGiveTheIntervalsPercentilesAndNullForASecondWithoutOrders()
    {
        try (OperationsSampler sampler = new OperationsSampler(registry, metrics, 0))
        {
            for (int micros = 1; micros <= 1000; micros++)
            {
                metrics.onRoundTrip(micros * 1_000L, micros * 100L);
            }
            sampler.sample();
            sampler.sample();
            final Map<String, Object> series = sampler.series();
            final Double[] p50 = (Double[])series.get("rttP50Us");
            final Double[] p99 = (Double[])series.get("rttP99Us");
            final Double[] max = (Double[])series.get("rttMaxUs");
            final Double[] own = (Double[])series.get("ownP50Us");
            assertEquals(2, p50.length);
            assertEquals(500, p50[0], 1.0);
            assertEquals(990, p99[0], 1.0);
            assertEquals(1000, max[0], 1.0);
            assertEquals(50, own[0], 0.1);
            assertNull(p50[1], "nothing recorded in the second interval");
        }
    }

    @Test
    void shouldGiveRatesFromTheCountersChange() throws InterruptedException
    {
        final AtomicLong sent = new AtomicLong();
        FunctionCounter.builder("warpbus.gateway.orders.sent", sent, AtomicLong::get).register(registry);
        sent.addAndGet(7);
        try (OperationsSampler sampler = new OperationsSampler(registry, metrics, 0))
        {
            sent.addAndGet(20);
            Thread.sleep(200);
            sampler.sample();
            sent.addAndGet(50);
            Thread.sleep(200);
            sampler.sample();
            final Map<String, Object> series = sampler.series();
            final long[] timeMs = (long[])series.get("timeMs");
            final Double[] orders = (Double[])series.get("ordersPerS");
            assertTrue(orders[0] > 0 && orders[0] <= 20 / 0.2, "the first sample counts from the sampler's start, " +
                "not from before it: " + orders[0]);
            final double expected = 50 / ((timeMs[1] - timeMs[0]) / 1_000.0);
            assertEquals(expected, orders[1], 0.01);
            assertEquals(0.0, ((Double[])series.get("marketDataPerS"))[1], "a meter that is absent counts 0");
        }
    }

    @Test
    void shouldKeepTheLastSamplesOldestFirst()
    {
        try (OperationsSampler sampler = new OperationsSampler(registry, metrics, 0))
        {
            for (int i = 0; i < OperationsSampler.CAPACITY + 5; i++)
            {
                metrics.onRoundTrip((i + 1) * 1_000L, 1_000L);
                sampler.sample();
            }
            final Map<String, Object> series = sampler.series();
            final long[] timeMs = (long[])series.get("timeMs");
            final Double[] max = (Double[])series.get("rttMaxUs");
            assertEquals(OperationsSampler.CAPACITY, timeMs.length);
            for (final String name : OperationsSampler.SERIES)
            {
                assertEquals(OperationsSampler.CAPACITY, ((Double[])series.get(name)).length, name);
            }
            for (int i = 1; i < timeMs.length; i++)
            {
                assertTrue(timeMs[i] >= timeMs[i - 1], "oldest first");
            }
            assertEquals(6, max[0], 0.01, "the five oldest samples are gone");
            assertEquals(OperationsSampler.CAPACITY + 5, max[max.length - 1], 0.5);
        }
    }
}
