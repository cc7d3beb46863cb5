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
package io.warpbus.demo.service;

import java.util.Locale;

import io.warpbus.demo.Stats;
import org.HdrHistogram.Histogram;

/**
 * Samples the engine service's counters and service-time recorder once an interval, off the engine thread: rates
 * over the last interval, percentiles over the last interval and since the start. One sampling thread calls
 * {@link #sample(long)}; any thread reads the published {@link Sample}.
 */
public final class EngineStats
{
    private final EngineService service;
    private final EngineCounters counters;
    private final Histogram total;
    private Histogram interval;
    private volatile Sample last = new Sample(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    private long lastCommands;
    private long lastTrades;
    private long lastSampleNs;

    /**
     * Sample a service.
     *
     * @param service the engine service.
     * @param nowNs   monotonic time of the start.
     */
    public EngineStats(final EngineService service, final long nowNs)
    {
        this.service = service;
        this.counters = service.counters();
        this.total = new Histogram(OrderEntryHandler.maxLatencyNs(), 3);
        this.interval = service.serviceTime().getIntervalHistogram();
        this.lastSampleNs = nowNs;
    }

    /**
     * Take a sample.
     *
     * @param nowNs monotonic time.
     * @return the sample, also published to {@link #last()}.
     */
    public synchronized Sample sample(final long nowNs)
    {
        interval = service.serviceTime().getIntervalHistogram(interval);
        total.add(interval);
        final long commands = counters.commands();
        final long trades = counters.trades();
        final double seconds = Math.max(1e-9, (nowNs - lastSampleNs) / 1e9);
        final Sample sample = new Sample(
            commands,
            trades,
            counters.executionReports(),
            counters.rejects(),
            counters.messageRejects(),
            (commands - lastCommands) / seconds,
            (trades - lastTrades) / seconds,
            percentile(interval, 50),
            percentile(interval, 99),
            percentile(interval, 99.9),
            percentile(total, 50),
            percentile(total, 99),
            percentile(total, 99.9),
            total.getMaxValue(),
            counters.backPressureEvents(),
            counters.backPressuredMessages(),
            counters.notConnected() + counters.failed(),
            counters.unsentReports(),
            counters.snapshotCycles());
        lastCommands = commands;
        lastTrades = trades;
        lastSampleNs = nowNs;
        last = sample;

        return sample;
    }

    /**
     * The latest sample.
     *
     * @return the sample.
     */
    public Sample last()
    {
        return last;
    }

    /**
     * The {@code STATS engine ...} line of a sample.
     *
     * @param sample the sample.
     * @return the line.
     */
    public static String line(final Sample sample)
    {
        return new Stats().begin("engine")
            .add("commands", sample.commands())
            .add("trades", sample.trades())
            .add("reports", sample.reports())
            .add("rejects", sample.rejects())
            .add("message_rejects", sample.messageRejects())
            .add("orders_per_s", sample.ordersPerSecond())
            .add("trades_per_s", sample.tradesPerSecond())
            .add("match_p50_ns", sample.matchP50Ns())
            .add("match_p99_ns", sample.matchP99Ns())
            .add("match_p999_ns", sample.matchP999Ns())
            .add("match_total_p50_ns", sample.matchTotalP50Ns())
            .add("match_total_p99_ns", sample.matchTotalP99Ns())
            .add("match_total_p999_ns", sample.matchTotalP999Ns())
            .add("match_total_max_ns", sample.matchTotalMaxNs())
            .add("back_pressure_events", sample.backPressureEvents())
            .add("back_pressured_messages", sample.backPressuredMessages())
            .add("unsent", sample.unsent())
            .add("unsent_reports", sample.unsentReports())
            .add("snapshot_cycles", sample.snapshotCycles())
            .toString();
    }

    /**
     * The sample as a JSON object.
     *
     * @param sample the sample.
     * @return JSON text.
     */
    public static String json(final Sample sample)
    {
        return String.format(Locale.ROOT, "{\"commands\":%d,\"trades\":%d,\"reports\":%d,\"rejects\":%d," +
            "\"messageRejects\":%d,\"ordersPerSecond\":%.1f,\"tradesPerSecond\":%.1f,\"matchP50Ns\":%d," +
            "\"matchP99Ns\":%d,\"matchP999Ns\":%d,\"matchTotalP50Ns\":%d,\"matchTotalP99Ns\":%d," +
            "\"matchTotalP999Ns\":%d,\"matchTotalMaxNs\":%d,\"backPressureEvents\":%d," +
            "\"backPressuredMessages\":%d,\"unsent\":%d,\"unsentReports\":%d,\"snapshotCycles\":%d}",
            sample.commands(), sample.trades(), sample.reports(), sample.rejects(), sample.messageRejects(),
            sample.ordersPerSecond(), sample.tradesPerSecond(), sample.matchP50Ns(), sample.matchP99Ns(),
            sample.matchP999Ns(), sample.matchTotalP50Ns(), sample.matchTotalP99Ns(), sample.matchTotalP999Ns(),
            sample.matchTotalMaxNs(), sample.backPressureEvents(), sample.backPressuredMessages(), sample.unsent(),
            sample.unsentReports(), sample.snapshotCycles());
    }

    private static long percentile(final Histogram histogram, final double percentile)
    {
        return 0 == histogram.getTotalCount() ? 0 : histogram.getValueAtPercentile(percentile);
    }

    /**
     * One sample: totals, rates over the last interval, service-time percentiles over the last interval and in total.
     *
     * @param commands              commands received.
     * @param trades                trades.
     * @param reports               execution reports.
     * @param rejects               refused commands.
     * @param messageRejects        undecodable messages.
     * @param ordersPerSecond       commands per second, last interval.
     * @param tradesPerSecond       trades per second, last interval.
     * @param matchP50Ns            service time p50, last interval.
     * @param matchP99Ns            service time p99, last interval.
     * @param matchP999Ns           service time p99.9, last interval.
     * @param matchTotalP50Ns       service time p50, since the start.
     * @param matchTotalP99Ns       service time p99, since the start.
     * @param matchTotalP999Ns      service time p99.9, since the start.
     * @param matchTotalMaxNs       service time maximum, since the start.
     * @param backPressureEvents    offers refused with back pressure.
     * @param backPressuredMessages messages that waited for back pressure.
     * @param unsent                messages not sent (no subscriber, closed), all streams.
     * @param unsentReports         execution reports and message rejects not sent.
     * @param snapshotCycles        snapshot cycles published.
     */
    public record Sample(
        long commands,
        long trades,
        long reports,
        long rejects,
        long messageRejects,
        double ordersPerSecond,
        double tradesPerSecond,
        long matchP50Ns,
        long matchP99Ns,
        long matchP999Ns,
        long matchTotalP50Ns,
        long matchTotalP99Ns,
        long matchTotalP999Ns,
        long matchTotalMaxNs,
        long backPressureEvents,
        long backPressuredMessages,
        long unsent,
        long unsentReports,
        long snapshotCycles)
    {
    }
}
