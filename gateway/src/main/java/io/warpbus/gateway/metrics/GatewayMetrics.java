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
package io.warpbus.gateway.metrics;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.warpbus.gateway.session.GatewayCounterDescriptor;
import io.warpbus.gateway.session.GatewayCounters;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * The gateway's own meters: each {@link GatewayCounterDescriptor} counter as the meter it names (a function counter,
 * or a gauge for the session counts), read from the counters file the core writes; and the order round trip inside
 * the gateway, from a client's request received to the engine's answer queued for it, twice: as a histogram
 * ({@code warpbus.gateway.order.round.trip}, buckets Prometheus can aggregate across gateways with
 * {@code histogram_quantile}) and as percentiles of the last minute computed here
 * ({@code warpbus.gateway.order.round.trip.recent}, p50, p90, p99, p99.9: what the demo prints). Both are also
 * recorded into HdrHistogram {@link Recorder}s (wait-free, no allocation) that the operations view's sampler swaps
 * once a second for percentiles per interval ({@link #sampleInterval}).
 */
public final class GatewayMetrics implements MeterBinder
{
    /** The largest value the interval histograms hold; larger ones are recorded as this. */
    public static final long INTERVAL_HIGHEST_NS = 60_000_000_000L;

    private final GatewayCounters counters;
    private final Recorder intervalRoundTrip = new Recorder(1, INTERVAL_HIGHEST_NS, 3);
    private final Recorder intervalProcessing = new Recorder(1, INTERVAL_HIGHEST_NS, 3);
    private volatile Timer roundTrip;
    private volatile Timer recentRoundTrip;
    private volatile Timer processing;

    /**
     * Meters over the gateway's counters.
     *
     * @param counters the counters.
     */
    public GatewayMetrics(final GatewayCounters counters)
    {
        this.counters = counters;
    }

    @Override
    public void bindTo(final MeterRegistry registry)
    {
        for (final GatewayCounterDescriptor descriptor : GatewayCounterDescriptor.values())
        {
            final AtomicCounter counter = counters.get(descriptor);
            final String[] tags = null == descriptor.tagKey() ? new String[0] :
                new String[] { descriptor.tagKey(), descriptor.tagValue() };
            if (descriptor.isGauge())
            {
                Gauge.builder(descriptor.meterName(), counter, AtomicCounter::get)
                    .description(descriptor.label()).tags(tags).register(registry);
            }
            else
            {
                FunctionCounter.builder(descriptor.meterName(), counter, AtomicCounter::get)
                    .description(descriptor.label()).tags(tags).register(registry);
            }
        }
        roundTrip = Timer.builder("warpbus.gateway.order.round.trip")
            .description("order request received to the engine's answer queued, inside the gateway")
            .publishPercentileHistogram()
            .minimumExpectedValue(Duration.ofNanos(1_000))
            .maximumExpectedValue(Duration.ofSeconds(10))
            .register(registry);
        processing = Timer.builder("warpbus.gateway.order.processing")
            .description("of an order's round trip inside the gateway, the time the gateway itself spent: " +
                "request received to sent on the bus, plus the engine's answer taken to queued for the client")
            .publishPercentileHistogram()
            .minimumExpectedValue(Duration.ofNanos(1_000))
            .maximumExpectedValue(Duration.ofSeconds(10))
            .register(registry);
        recentRoundTrip = Timer.builder("warpbus.gateway.order.round.trip.recent")
            .description("order round trip inside the gateway, percentiles over the last minute")
            .publishPercentiles(0.5, 0.9, 0.99, 0.999)
            .distributionStatisticExpiry(Duration.ofMinutes(1))
            .register(registry);
    }

    /**
     * One order round trip; the session core's thread.
     *
     * @param totalNanos   request in to answer out.
     * @param gatewayNanos the part spent in the gateway.
     */
    public void onRoundTrip(final long totalNanos, final long gatewayNanos)
    {
        final Timer timer = roundTrip;
        final Timer recent = recentRoundTrip;
        final Timer own = processing;
        intervalRoundTrip.recordValue(Math.max(1, Math.min(INTERVAL_HIGHEST_NS, totalNanos)));
        intervalProcessing.recordValue(Math.max(1, Math.min(INTERVAL_HIGHEST_NS, gatewayNanos)));
        if (null != timer && null != recent && null != own)
        {
            timer.record(totalNanos, TimeUnit.NANOSECONDS);
            recent.record(totalNanos, TimeUnit.NANOSECONDS);
            own.record(gatewayNanos, TimeUnit.NANOSECONDS);
        }
    }

    /**
     * Swaps the interval histograms: what was recorded since the last call goes into the two histograms given, which
     * are reset first. One caller at a time (the operations sampler's thread).
     *
     * @param roundTripNs  receives the order round trips of the interval, in ns; from {@link #newIntervalHistogram}.
     * @param processingNs receives the gateway's own part of them, in ns; from {@link #newIntervalHistogram}.
     */
    public void sampleInterval(final Histogram roundTripNs, final Histogram processingNs)
    {
        intervalRoundTrip.getIntervalHistogramInto(roundTripNs);
        intervalProcessing.getIntervalHistogramInto(processingNs);
    }

    /**
     * A histogram of the interval recorders' range, for {@link #sampleInterval}.
     *
     * @return a new histogram.
     */
    public static Histogram newIntervalHistogram()
    {
        return new Histogram(1, INTERVAL_HIGHEST_NS, 3);
    }

    /**
     * The round-trip timer, once bound.
     *
     * @return the timer, or null before binding.
     */
    public Timer roundTrip()
    {
        return roundTrip;
    }

    /**
     * The round trip over the last minute, with percentiles 0.5, 0.9, 0.99 and 0.999.
     *
     * @return the timer, or null before the registry bound it.
     */
    public Timer recentRoundTrip()
    {
        return recentRoundTrip;
    }
}
