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

import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Measurement;
import io.warpbus.gateway.metrics.GatewayMetrics;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.SystemNanoClock;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Samples the gateway once a second for the operations view: the order round trip inside the gateway (p50, p99 and
 * max of the second, and the gateway's own p50) from {@link GatewayMetrics}' interval histograms, and throughput as
 * the per-second change of the gateway's and its bus's counters, read from the meter registry; and, when the matching
 * engine's HTTP address is configured, the engine's match latency percentiles, rates and counters
 * ({@link EngineStatsReader}, read outside the sampler's lock so the endpoint never waits for the engine). Keeps the
 * last {@value #CAPACITY} samples in a ring. Runs on its own daemon thread, not on the session core's.
 */
@Component
class OperationsSampler implements AutoCloseable
{
    static final int CAPACITY = 300;
    static final long INTERVAL_MS = 1_000;

    /** The series, in the order of {@link #series} and of the JSON the operations endpoint gives. */
    static final String[] SERIES = { "rttP50Us", "rttP99Us", "rttMaxUs", "ownP50Us", "ownP99Us", "ordersPerS",
        "reportsPerS", "marketDataPerS", "messagesInPerS", "messagesOutPerS", "busMessagesSentPerS",
        "busMessagesReceivedPerS", "backPressurePerS", "engineMatchP50Us", "engineMatchP99Us", "engineMatchP999Us",
        "engineOrdersPerS", "engineTradesPerS" };

    /** The engine's fields behind the engine series, from "engineMatchP50Us" on, and their factor to the unit. */
    private static final String[] ENGINE_FIELDS = { "matchP50Ns", "matchP99Ns", "matchP999Ns", "ordersPerSecond",
        "tradesPerSecond" };
    private static final double[] ENGINE_FACTORS = { 1e-3, 1e-3, 1e-3, 1, 1 };
    private static final int FIRST_ENGINE = 13;

    /** The counters whose per-second change are the rate series, from "ordersPerS" on. */
    private static final String[] RATE_METERS = { "warpbus.gateway.orders.sent", "warpbus.gateway.reports.out",
        "warpbus.gateway.market.data.out", "warpbus.gateway.messages.in", "warpbus.gateway.messages.out",
        "warpbus.bus.messages.sent", "warpbus.bus.messages.received", "warpbus.bus.back.pressure.events" };
    private static final int FIRST_RATE = 5;
    /** The shortest interval a rate is taken over (two samples in the same instant would divide by nothing). */
    private static final long MIN_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private final MeterRegistry registry;
    private final GatewayMetrics metrics;
    private final Histogram roundTrip = GatewayMetrics.newIntervalHistogram();
    private final Histogram processing = GatewayMetrics.newIntervalHistogram();
    private final long[] timeMs = new long[CAPACITY];
    private final double[][] series = new double[SERIES.length][CAPACITY];
    private final double[] lastTotals = new double[RATE_METERS.length];
    private final ScheduledExecutorService executor;
    private final EngineStatsReader engineReader;
    private volatile String lastError;
    private volatile Map<String, Double> engineCounters = Map.of();
    private volatile String engineError;
    private final EpochClock epochClock;
    private final NanoClock nanoClock;
    private long lastSampleNs;
    private int count;
    private int next;

    @Autowired
    OperationsSampler(final MeterRegistry registry, final GatewayMetrics metrics, final OperationsProperties properties)
    {
        this(registry, metrics, INTERVAL_MS, null == properties.engineUrl() ? null :
            new EngineStatsReader(properties.engineUrl(), properties.engineStatsTimeout()));
    }

    /**
     * A sampler without the engine's figures.
     *
     * @param registry   the meters to read.
     * @param metrics    the gateway's meters, with the interval histograms.
     * @param intervalMs the sampling interval; 0 for no thread (tests call {@link #sample()}).
     */
    OperationsSampler(final MeterRegistry registry, final GatewayMetrics metrics, final long intervalMs)
    {
        this(registry, metrics, intervalMs, null);
    }

    /**
     * A sampler that samples every {@code intervalMs} on its own thread, or only when {@link #sample()} is called.
     *
     * @param registry   the meters to read.
     * @param metrics    the gateway's meters, with the interval histograms.
     * @param intervalMs   the sampling interval; 0 for no thread (tests call {@link #sample()}).
     * @param engineReader reads the matching engine's figures; null for none.
     */
    OperationsSampler(final MeterRegistry registry, final GatewayMetrics metrics, final long intervalMs,
        final EngineStatsReader engineReader)
    {
        this(registry, metrics, intervalMs, engineReader, SystemEpochClock.INSTANCE, SystemNanoClock.INSTANCE);
    }

    /**
     * A sampler with its clocks given: each sample is stamped with the wall clock, for display, and its rates are
     * per second of the monotonic clock, so that a step of the host's clock (NTP) does not distort them.
     *
     * @param registry     the meters to read.
     * @param metrics      the gateway's meters, with the interval histograms.
     * @param intervalMs   the sampling interval; 0 for no thread (tests call {@link #sample()}).
     * @param engineReader reads the matching engine's figures; null for none.
     * @param epochClock   stamps the samples.
     * @param nanoClock    times the intervals the rates are taken over.
     */
    OperationsSampler(final MeterRegistry registry, final GatewayMetrics metrics, final long intervalMs,
        final EngineStatsReader engineReader, final EpochClock epochClock, final NanoClock nanoClock)
    {
        this.registry = registry;
        this.epochClock = epochClock;
        this.nanoClock = nanoClock;
        this.metrics = metrics;
        this.engineReader = engineReader;
        // The first sample's rates count from here, so that what happened before it is not lost to the view.
        for (int i = 0; i < RATE_METERS.length; i++)
        {
            lastTotals[i] = total(registry, RATE_METERS[i]);
        }
        lastSampleNs = nanoClock.nanoTime();
        if (intervalMs > 0)
        {
            this.executor = Executors.newSingleThreadScheduledExecutor((task) ->
            {
                final Thread thread = new Thread(task, "gateway-ops-sampler");
                thread.setDaemon(true);
                return thread;
            });
            executor.scheduleAtFixedRate(this::sampleOrRecord, intervalMs, intervalMs, TimeUnit.MILLISECONDS);
        }
        else
        {
            this.executor = null;
        }
    }

    private void sampleOrRecord()
    {
        try
        {
            sample();
        }
        catch (final RuntimeException ex)
        {
            // A failed sample must not end the schedule (an executor drops a task that throws); the view shows it.
            lastError = ex.toString();
        }
    }

    /**
     * The last sample's failure, shown by the operations view.
     *
     * @return the exception's text, or null when none failed.
     */
    String lastError()
    {
        return lastError;
    }

    /**
     * The engine's counters as its last read gave them.
     *
     * @return by the engine's names; empty before the first read, after a failed one or without an engine address.
     */
    Map<String, Double> engineCounters()
    {
        return engineCounters;
    }

    /**
     * Why the last read of the engine's figures failed.
     *
     * @return what went wrong, with the address; null when it worked or there is no engine address.
     */
    String engineError()
    {
        return engineError;
    }

    /**
     * Where the engine's figures are read from.
     *
     * @return the address, or null when none is configured.
     */
    String engineSource()
    {
        return null == engineReader ? null : engineReader.statsUri().toString();
    }

    /**
     * Takes one sample: the interval's latency percentiles, the counters' change since the last sample and the
     * engine's figures.
     */
    void sample()
    {
        Map<String, Double> engine = null;
        if (null != engineReader)
        {
            try
            {
                engine = engineReader.read();
                engineError = null;
                final Map<String, Double> counters = new LinkedHashMap<>(engine);
                for (final String field : ENGINE_FIELDS)
                {
                    counters.remove(field);
                }
                engineCounters = Collections.unmodifiableMap(counters);
            }
            catch (final IOException ex)
            {
                engineError = ex.getMessage();
                engineCounters = Map.of();
            }
        }
        record(engine);
    }

    private synchronized void record(final Map<String, Double> engine)
    {
        final long nowNs = nanoClock.nanoTime();
        metrics.sampleInterval(roundTrip, processing);
        final int slot = next;
        timeMs[slot] = epochClock.time();
        final boolean orders = roundTrip.getTotalCount() > 0;
        series[0][slot] = orders ? roundTrip.getValueAtPercentile(50) / 1_000.0 : Double.NaN;
        series[1][slot] = orders ? roundTrip.getValueAtPercentile(99) / 1_000.0 : Double.NaN;
        series[2][slot] = orders ? roundTrip.getMaxValue() / 1_000.0 : Double.NaN;
        series[3][slot] = orders ? processing.getValueAtPercentile(50) / 1_000.0 : Double.NaN;
        series[4][slot] = orders ? processing.getValueAtPercentile(99) / 1_000.0 : Double.NaN;
        final double seconds = Math.max(MIN_INTERVAL_NS, nowNs - lastSampleNs) / 1e9;
        for (int i = 0; i < RATE_METERS.length; i++)
        {
            final double total = total(registry, RATE_METERS[i]);
            series[FIRST_RATE + i][slot] = Math.max(0, total - lastTotals[i]) / seconds;
            lastTotals[i] = total;
        }
        // An engine interval without commands has no percentiles: no value, as for the gateway's own.
        final boolean engineOrders = null != engine && engine.getOrDefault("ordersPerSecond", 0.0) > 0;
        for (int i = 0; i < ENGINE_FIELDS.length; i++)
        {
            final Double value = null == engine ? null : engine.get(ENGINE_FIELDS[i]);
            final boolean latency = i < 3;
            series[FIRST_ENGINE + i][slot] = null == value || (latency && !engineOrders) ? Double.NaN :
                value * ENGINE_FACTORS[i];
        }
        lastSampleNs = nowNs;
        next = (slot + 1) % CAPACITY;
        count = Math.min(CAPACITY, count + 1);
    }

    /**
     * The samples held, oldest first.
     *
     * @return {@code timeMs} and each of {@link #SERIES}, as arrays of equal length (null for no value).
     */
    synchronized Map<String, Object> series()
    {
        final Map<String, Object> result = new LinkedHashMap<>();
        final int first = (next - count + CAPACITY) % CAPACITY;
        final long[] times = new long[count];
        for (int i = 0; i < count; i++)
        {
            times[i] = timeMs[(first + i) % CAPACITY];
        }
        result.put("timeMs", times);
        for (int s = 0; s < SERIES.length; s++)
        {
            final Double[] values = new Double[count];
            for (int i = 0; i < count; i++)
            {
                final double value = series[s][(first + i) % CAPACITY];
                values[i] = Double.isNaN(value) ? null : Math.round(value * 100) / 100.0;
            }
            result.put(SERIES[s], values);
        }
        return result;
    }

    /**
     * The sum of the values of every meter with a name, whatever its tags.
     *
     * @param registry the registry.
     * @param name     the meter's name.
     * @return the sum; 0 when there is no such meter.
     */
    static double total(final MeterRegistry registry, final String name)
    {
        double total = 0;
        for (final Meter meter : registry.find(name).meters())
        {
            total += value(meter);
        }
        return total;
    }

    /**
     * A counter's count or a gauge's value.
     *
     * @param meter the meter.
     * @return its first measurement, 0 when it has none or it is not a number.
     */
    static double value(final Meter meter)
    {
        for (final Measurement measurement : meter.measure())
        {
            final double value = measurement.getValue();
            return Double.isFinite(value) ? value : 0;
        }
        return 0;
    }

    @Override
    public void close()
    {
        if (null != executor)
        {
            executor.shutdownNow();
        }
    }
}
