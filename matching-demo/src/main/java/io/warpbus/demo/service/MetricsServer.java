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

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import java.util.function.ToDoubleFunction;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.system.DiskSpaceMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.warpbus.bus.status.CountersFile;
import io.warpbus.metrics.BusCountersMeterBinder;
import org.agrona.CloseHelper;

/**
 * The engine's HTTP side, on its own thread: {@code /metrics} in the Prometheus text format (Micrometer meters that
 * only read the engine's counters and the latest {@link EngineStats} sample), {@code /stats.json} with the sample,
 * and {@code /} a small page that polls it every second. Never touches the engine thread.
 */
public final class MetricsServer implements AutoCloseable
{
    private final HttpServer server;
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final EngineStats stats;
    private volatile BooleanSupplier healthy = () -> true;
    private CountersFile busCounters;
    private BusCountersMeterBinder busMeters;

    /**
     * Bind and start.
     *
     * @param address where to listen; port 0 for a free one.
     * @param service the engine service whose counters to expose.
     * @param stats   the sampled statistics.
     * @throws IOException if the address cannot be bound.
     */
    public MetricsServer(final InetSocketAddress address, final EngineService service, final EngineStats stats)
        throws IOException
    {
        this.stats = stats;
        final EngineCounters counters = service.counters();
        counter("warpbus_engine_new_orders", "New orders received", counters, EngineCounters::newOrders);
        counter("warpbus_engine_commands", "Commands received (new, cancel, replace)", counters,
            EngineCounters::commands);
        counter("warpbus_engine_trades", "Trades", counters, EngineCounters::trades);
        counter("warpbus_engine_execution_reports", "Execution reports sent", counters,
            EngineCounters::executionReports);
        counter("warpbus_engine_resent_reports", "Execution reports sent again on resend requests", counters,
            EngineCounters::resentReports);
        counter("warpbus_engine_rejects", "Commands refused by validation or risk", counters, EngineCounters::rejects);
        counter("warpbus_engine_message_rejects", "Undecodable order-entry messages", counters,
            EngineCounters::messageRejects);
        counter("warpbus_engine_back_pressure_events", "Offers refused with back pressure", counters,
            EngineCounters::backPressureEvents);
        counter("warpbus_engine_back_pressured_messages", "Messages that waited for back pressure", counters,
            EngineCounters::backPressuredMessages);
        counter("warpbus_engine_unsent_messages", "Messages not sent: no subscriber or publication closed", counters,
            (c) -> c.notConnected() + c.failed());
        counter("warpbus_engine_market_data_messages", "Incremental market-data messages", counters,
            EngineCounters::marketDataMessages);
        counter("warpbus_engine_snapshot_cycles", "Market-data snapshot cycles", counters,
            EngineCounters::snapshotCycles);
        gauge("warpbus_engine_orders_per_second", "Commands per second over the last interval",
            (s) -> s.last().ordersPerSecond());
        gauge("warpbus_engine_trades_per_second", "Trades per second over the last interval",
            (s) -> s.last().tradesPerSecond());
        latency("0.5", (s) -> s.last().matchP50Ns());
        latency("0.99", (s) -> s.last().matchP99Ns());
        latency("0.999", (s) -> s.last().matchP999Ns());

        server = HttpServer.create(address, 16);
        server.createContext("/metrics", (exchange) -> respond(exchange, "text/plain; version=0.0.4; charset=utf-8",
            registry.scrape()));
        server.createContext("/stats.json", (exchange) -> respond(exchange, "application/json",
            EngineStats.json(stats.last())));
        server.createContext("/health", (exchange) ->
        {
            final boolean up = healthy.getAsBoolean();
            respond(exchange, up ? 200 : 503, "application/json", up ? "{\"status\":\"UP\"}" :
                "{\"status\":\"DOWN\"}");
        });
        server.createContext("/", (exchange) -> respond(exchange, "text/html; charset=utf-8", PAGE));
        server.setExecutor(Executors.newSingleThreadExecutor((runnable) ->
        {
            final Thread thread = new Thread(runnable, "engine-http");
            thread.setDaemon(true);
            return thread;
        }));
        server.start();
    }

    /**
     * Where the server listens.
     *
     * @return the bound address.
     */
    public InetSocketAddress address()
    {
        return server.getAddress();
    }

    /**
     * The registry, for tests.
     *
     * @return the Prometheus registry.
     */
    public PrometheusMeterRegistry registry()
    {
        return registry;
    }

    /**
     * Export the engine's bus counters too (subscriber lag, back pressure, slow-consumer drops, gaps, disconnects,
     * the iWARP engine's counters), under the same names as every other WarpBus process ({@link
     * BusCountersMeterBinder}), tagged {@code bus=NAME}; refreshed every second as streams come and go.
     *
     * @param busCountersFile the bus's counters file ({@code Bus.countersFile()}).
     * @param busName         the {@code bus} tag.
     * @return this.
     */
    public synchronized MetricsServer busCounters(final Path busCountersFile, final String busName)
    {
        if (null != busMeters)
        {
            throw new IllegalStateException("bus counters already exported");
        }
        busCounters = CountersFile.mapExisting(busCountersFile.getParent());
        busMeters = new BusCountersMeterBinder(busCounters.countersReader(), Tags.of("bus", busName))
            .refreshEvery(1_000);
        busMeters.bindTo(registry);
        return this;
    }

    /**
     * Export the free and total space of the file system holding a directory (the journal's):
     * {@code disk_free_bytes} and {@code disk_total_bytes} tagged {@code path}, as the gateway's do.
     *
     * @param directory the directory.
     * @return this.
     */
    public MetricsServer diskSpace(final Path directory)
    {
        new DiskSpaceMetrics(directory.toFile()).bindTo(registry);
        return this;
    }

    /**
     * What {@code /health} answers: 200 {@code UP} while the supplier says so, 503 {@code DOWN} otherwise.
     *
     * @param healthy whether the engine is running (called on the HTTP thread).
     * @return this.
     */
    public MetricsServer health(final BooleanSupplier healthy)
    {
        this.healthy = healthy;
        return this;
    }

    @Override
    public synchronized void close()
    {
        server.stop(0);
        CloseHelper.quietCloseAll(busMeters, busCounters);
        registry.close();
    }

    private void counter(
        final String name, final String description, final EngineCounters counters,
        final ToDoubleFunction<EngineCounters> value)
    {
        FunctionCounter.builder(name, counters, value).description(description).register(registry);
    }

    private void gauge(final String name, final String description, final ToDoubleFunction<EngineStats> value)
    {
        Gauge.builder(name, stats, value).description(description).register(registry);
    }

    private void latency(final String quantile, final ToDoubleFunction<EngineStats> nanos)
    {
        Gauge.builder("warpbus_engine_match_latency_seconds", stats, (s) -> nanos.applyAsDouble(s) / 1e9)
            .description("Command service time (decode, match, publish) over the last interval")
            .tag("quantile", quantile)
            .register(registry);
    }

    private static void respond(final HttpExchange exchange, final String contentType, final String body)
        throws IOException
    {
        respond(exchange, 200, contentType, body);
    }

    private static void respond(final HttpExchange exchange, final int status, final String contentType,
        final String body) throws IOException
    {
        final byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody())
        {
            out.write(bytes);
        }
    }

    private static final String PAGE = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>WarpBus matching engine</title>
        <style>
          body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
          h1 { font-size: 1.4em; }
          table { border-collapse: collapse; }
          td { padding: 0.3em 1em; border-bottom: 1px solid #ddd; }
          td.v { text-align: right; font-variant-numeric: tabular-nums; font-weight: 600; }
          .muted { color: #777; font-size: 0.9em; }
        </style>
        </head>
        <body>
        <h1>WarpBus matching engine</h1>
        <p class="muted">Live from <a href="stats.json">stats.json</a>, refreshed every second.
          Prometheus: <a href="metrics">/metrics</a>.</p>
        <table id="stats"></table>
        <script>
        const rows = [
          ["orders/s (last interval)", "ordersPerSecond"], ["trades/s (last interval)", "tradesPerSecond"],
          ["match latency p50 (ns)", "matchP50Ns"], ["match latency p99 (ns)", "matchP99Ns"],
          ["match latency p99.9 (ns)", "matchP999Ns"], ["match latency p99 since start (ns)", "matchTotalP99Ns"],
          ["commands", "commands"], ["trades", "trades"], ["execution reports", "reports"],
          ["rejected commands", "rejects"], ["undecodable messages", "messageRejects"],
          ["back-pressure events", "backPressureEvents"], ["back-pressured messages", "backPressuredMessages"],
          ["unsent messages", "unsent"], ["snapshot cycles", "snapshotCycles"]];
        async function refresh() {
          try {
            const s = await (await fetch("stats.json", {cache: "no-store"})).json();
            document.getElementById("stats").innerHTML = rows.map(([label, key]) =>
              "<tr><td>" + label + "</td><td class='v'>" + Number(s[key]).toLocaleString() + "</td></tr>").join("");
          } catch (e) {
            document.getElementById("stats").innerHTML = "<tr><td>engine not answering</td></tr>";
          }
        }
        refresh();
        setInterval(refresh, 1000);
        </script>
        </body>
        </html>
        """;
}
