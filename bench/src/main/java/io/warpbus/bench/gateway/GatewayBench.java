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
package io.warpbus.bench.gateway;

import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.warpbus.bench.BenchReport;
import io.warpbus.bench.ChildOutput;
import io.warpbus.demo.DemoProcess;
import io.warpbus.demo.service.EngineMain;
import io.warpbus.gateway.GatewayApplication;
import io.warpbus.gateway.client.GatewayLoad;
import io.warpbus.matching.Instrument;
import io.warpbus.matching.RiskLimits;
import org.HdrHistogram.Histogram;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;

/**
 * The gateway under many sessions: a matching engine and a gateway, each a JVM of its own, and in this JVM a
 * {@link GatewayLoad} of WebSocket sessions on loopback, every one subscribed to one instrument's market data, some
 * of them trading. Each measurement window reports the sessions held, the market-data messages the clients received
 * per second, the clients' order round trip (request sent to its first execution report), the gateway's own
 * in-to-out round trip and the part of it spent in the gateway, its heap, its CPU, and the updates it conflated.
 * <pre>
 * ./warpbus bench gateway [--quick] [--sessions N] [--ordering N] [--rate ORDERS_PER_S] [--instruments N]
 *                         [--engine-idle STRATEGY] [--gateway-idle STRATEGY] [--windows N] [--window-s S]
 *                         [--protocol ws|fix]
 * </pre>
 * Writes {@code target/bench/gateway.json}: system {@code warpbus-gateway}, case {@code ws-sessions}, medians over
 * the windows. The three JVMs share the machine's cores; the output says how. With {@code --protocol fix} the load
 * is {@link FixLoad}'s QuickFIX/J sessions on the gateway's FIX acceptor instead (20 by default, every one trading,
 * no market data), case {@code fix-sessions}, written to {@code target/bench/gateway-fix.json} in the same format.
 */
public final class GatewayBench
{
    private static final String SUITE = "gateway";
    private static final String SYSTEM = "warpbus-gateway";
    private static final String CASE = "ws-sessions";
    private static final String FIX_CASE = "fix-sessions";
    private static final int USERS = 20;
    private static final int FIRST_ACCOUNT = 7001;
    /** Linux's USER_HZ, the unit of /proc/PID/stat's CPU times. */
    private static final int CLOCK_TICKS = 100;
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[^}]*\\})? (\\S+)$");

    private final Map<String, String> options;
    private final boolean quick;
    private final Path dir;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final List<Process> processes = new ArrayList<>();
    private String caseName = CASE;

    private GatewayBench(final Map<String, String> options, final boolean quick) throws IOException
    {
        this.options = options;
        this.quick = quick;
        this.dir = Files.createTempDirectory("warpbus-bench-gateway");
    }

    /**
     * Run the suite.
     *
     * @param args options.
     * @throws Exception when it cannot run.
     */
    public static void main(final String[] args) throws Exception
    {
        boolean quick = false;
        final Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++)
        {
            if ("--quick".equals(args[i]))
            {
                quick = true;
            }
            else if (args[i].startsWith("--") && i + 1 < args.length)
            {
                options.put(args[i].substring(2), args[++i]);
            }
            else
            {
                System.err.println("unknown option '" + args[i] + "': usage: warpbus bench gateway [--quick] " +
                    "[--sessions N] [--ordering N] [--rate ORDERS_PER_S] [--instruments N] [--engine-idle S] " +
                    "[--gateway-idle S] [--windows N] [--window-s S] [--server trading|web] " +
                    "[--trading-thread own|session-core] [--protocol ws|fix]");
                System.exit(2);
            }
        }
        final GatewayBench bench = new GatewayBench(options, quick);
        try
        {
            bench.run();
        }
        finally
        {
            bench.stopAll();
        }
    }

    private long option(final String name, final long defaultValue)
    {
        return Long.parseLong(options.getOrDefault(name, String.valueOf(defaultValue)));
    }

    @SuppressWarnings("checkstyle:MethodLength")
    private void run() throws Exception
    {
        final String protocol = options.getOrDefault("protocol", "ws");
        if (!"ws".equals(protocol) && !"fix".equals(protocol))
        {
            throw new IllegalArgumentException("--protocol " + protocol + ": it is 'ws' or 'fix'");
        }
        final boolean fix = "fix".equals(protocol);
        caseName = fix ? FIX_CASE : CASE;
        final int sessions = (int)option("sessions", fix ? 20 : 2000);
        final int ordering = (int)option("ordering", 100);
        final long rate = option("rate", 1000);
        final int instrumentCount = (int)option("instruments", 10);
        final int windows = (int)option("windows", quick ? 1 : 3);
        final long windowS = option("window-s", quick ? 10 : 20);
        final long warmUpS = quick ? 5 : 15;
        final String engineIdle = options.getOrDefault("engine-idle", "backoff");
        final String gatewayIdle = options.getOrDefault("gateway-idle", "backoff");
        // The gateway's own trading server, or the web server's /ws endpoint.
        final String server = options.getOrDefault("server", "trading");
        if (!"trading".equals(server) && !"web".equals(server))
        {
            throw new IllegalArgumentException("--server " + server + ": it is 'trading' or 'web'");
        }
        // The trading server on a thread of its own, or on the session core's.
        final String tradingThread = options.getOrDefault("trading-thread", "own");
        if (!"own".equals(tradingThread) && !"session-core".equals(tradingThread))
        {
            throw new IllegalArgumentException("--trading-thread " + tradingThread + ": it is 'own' or 'session-core'");
        }

        final String host = "127.0.0.1";
        final int enginePort = freePort(host);
        final int gatewayOrderPort = freePort(host);
        final int httpPort = freePort(host);
        final int tradingPort = freePort(host);
        final int fixPort = freePort(host);
        final String orders = "warp:iwarp?endpoint=" + host + ":" + gatewayOrderPort + "|stream=1011|name=orders";
        final String reports = "warp:iwarp?endpoint=" + host + ":" + enginePort + "|stream=1012|name=reports";
        final String unused = "warp:iwarp?endpoint=" + host + ":" + enginePort + "|stream=1002|name=unused";
        final String marketData = "warp:iwarp?endpoint=" + host + ":" + enginePort + "|stream=1003|name=md";
        final String snapshots = "warp:iwarp?endpoint=" + host + ":" + enginePort + "|stream=1004|name=snapshots";

        if (fix)
        {
            System.out.println("gateway suite, FIX" + (quick ? " (--quick)" : "") + ": " + sessions + " FIX 4.4 " +
                "sessions (QuickFIX/J initiators) on loopback, every one trading, " + rate + " requests/s in all, " +
                "round robin (limit orders that rest a few ticks from the reference price, one in ten crossing " +
                "IOC, cancels of the oldest of 5 resting orders); medians over " + windows + " windows of " +
                windowS + " s after " + warmUpS + " s of warm-up");
            System.out.println("processes sharing the cores: the matching engine (JVM, idle " + engineIdle + "), " +
                "the gateway (JVM, session core idle " + gatewayIdle + ", QuickFIX/J's thread per session and " +
                "its FIX sender), and the load (this JVM: one QuickFIX/J initiator thread and a pacer)");
        }
        else
        {
            System.out.println("gateway suite" + (quick ? " (--quick)" : "") + ": " + sessions + " WebSocket " +
                "sessions on loopback, each subscribed to one of " + instrumentCount + " instruments, " + ordering +
                " of them trading " + rate + " requests/s in all, through the gateway's " + ("trading".equals(server) ?
                "own trading server" : "web server's /ws endpoint") + " (--server trading|web) (new orders near " +
                "the last trade, some crossing, cancels of the oldest of 5 resting orders); medians over " + windows +
                " windows of " + windowS + " s after " + warmUpS + " s of warm-up");
            System.out.println("processes sharing the cores: the matching engine (JVM, idle " + engineIdle + "), the " +
                "gateway (JVM, session core idle " + gatewayIdle + ", " + ("web".equals(server) ?
                "Tomcat's threads and its WebSocket sender" : "own".equals(tradingThread) ?
                "its trading server's thread (--trading-thread own|session-core)" :
                "its trading server on the session core's thread (--trading-thread own|session-core)") + "), and the " +
                "load (this JVM: NIO WebSocket clients on 2 selector threads and a pacer)");
        }
        System.out.println(BenchReport.conditions());
        System.out.println();

        final Instrument[] instruments = DemoProcess.instruments(instrumentCount);
        final RiskLimits limits = new RiskLimits(1_000_000, Long.MAX_VALUE / 4, Long.MAX_VALUE / 4);
        final List<String> engineArgs = new ArrayList<>(List.of("--execution-reports", unused, "--market-data",
            marketData, "--snapshots", snapshots, "--route", "1;" + orders + ";" + reports, "--dir",
            dir.resolve("engine-bus").toString(), "--instruments", String.valueOf(instrumentCount), "--idle",
            engineIdle, "--metrics", "off", "--snapshot-interval-ms", "1000"));
        for (int i = 0; i < USERS; i++)
        {
            engineArgs.addAll(List.of("--account", (FIRST_ACCOUNT + i) + ":" + limits.maxOrderQuantity() + ":" +
                limits.maxNotional() + ":" + limits.positionLimit()));
        }
        final Process engine = start(EngineMain.class.getName(), List.of("-Xmx512m"), engineArgs);
        awaitLine(engine, "READY engine", 60);

        final String fixPassword = Base64.getUrlEncoder().withoutPadding().encodeToString(
            new SecureRandom().generateSeed(12));
        final List<GatewayLoad.Login> logins = writeCredentials(dir.resolve("credentials.json"), fixPassword);
        final List<String> gatewayArgs = new ArrayList<>(List.of(
            "--server.address=" + host, "--server.port=" + httpPort,
            "--warpbus.gateway.trading.address=" + host, "--warpbus.gateway.trading.port=" + tradingPort,
            "--warpbus.gateway.trading.thread=" + tradingThread,
            "--spring.main.banner-mode=off", "--logging.level.root=WARN",
            "--warpbus.gateway.name=bench-gateway", "--warpbus.gateway.origin=1",
            "--warpbus.gateway.idle-strategy=" + gatewayIdle,
            "--warpbus.gateway.bus-directory=" + dir.resolve("gateway-bus"),
            "--warpbus.gateway.credentials-file=" + dir.resolve("credentials.json"),
            "--warpbus.gateway.journal.directory=" + dir.resolve("gateway-journal"),
            "--warpbus.gateway.sessions.max-sessions=" + (sessions + 100),
            "--warpbus.gateway.sessions.socket-send-buffer=" + option("socket-send-buffer", 0),
            "--warpbus.gateway.channels.order-entry=" + orders,
            "--warpbus.gateway.channels.execution-reports=" + reports,
            "--warpbus.gateway.channels.market-data=" + marketData,
            "--warpbus.gateway.channels.snapshots=" + snapshots));
        if (fix)
        {
            gatewayArgs.addAll(List.of("--warpbus.gateway.fix.port=" + fixPort, "--warpbus.gateway.fix.address=" +
                host));
            for (int i = 0; i < sessions; i++)
            {
                gatewayArgs.add("--warpbus.gateway.fix.sessions[" + i + "].sender-comp-id=" + FixLoad.compId(i));
            }
        }
        final Process gateway = start(GatewayApplication.class.getName(), List.of("-Xmx1g",
            "-XX:MaxDirectMemorySize=512m"), gatewayArgs);
        final URI metricsUri = URI.create("http://" + host + ":" + httpPort + "/actuator/prometheus");
        awaitGateway(gateway, URI.create("http://" + host + ":" + httpPort + "/actuator/health/readiness"));

        final List<String> symbols = new ArrayList<>();
        final Map<String, String> references = new LinkedHashMap<>();
        for (final Instrument instrument : instruments)
        {
            symbols.add(instrument.symbol());
            references.put(instrument.symbol(), BigDecimal.valueOf(instrument.referencePrice(),
                instrument.priceScale()).toPlainString());
        }
        final long connectStartNs = System.nanoTime();
        final BenchReport report = new BenchReport(SUITE, SYSTEM);
        if (fix)
        {
            final List<FixLoad.Login> fixLogins = new ArrayList<>();
            for (final GatewayLoad.Login login : logins)
            {
                fixLogins.add(new FixLoad.Login("bench-" + (login.account() - FIRST_ACCOUNT), fixPassword,
                    login.account()));
            }
            try (FixLoad load = new FixLoad(host, fixPort, fixLogins, sessions, rate, List.of(instruments)))
            {
                load.start(60_000);
                System.out.printf(Locale.ROOT, "%,d FIX sessions logged on in %.1f s%n",
                    load.snapshot().sessionsLoggedOn(), (System.nanoTime() - connectStartNs) / 1e9);
                measureWindows(report, () -> LoadFigures.of(load.snapshot()), "FIX", metricsUri, gateway.pid(),
                    warmUpS, windows, windowS);
                if (!load.stopOrdering(10_000))
                {
                    System.out.println("warning: not every FIX request was answered within 10 s of the end");
                }
                System.out.println("FIX rejects by reason: " + load.rejectReasons());
            }
            finish(report, "gateway-fix.json");
            return;
        }
        final URI wsUri = URI.create("ws://" + host + ":" + ("trading".equals(server) ? tradingPort : httpPort) +
            "/ws");
        try (GatewayLoad load = new GatewayLoad(new GatewayLoad.Settings(wsUri, logins, sessions, ordering, rate,
            symbols, 1, references, 5, 30_000, 20_260_101L)))
        {
            System.out.printf(Locale.ROOT, "%,d sessions logged on and subscribed in %.1f s%n",
                load.snapshot().sessionsLoggedOn(), (System.nanoTime() - connectStartNs) / 1e9);
            measureWindows(report, () -> LoadFigures.of(load.snapshot()), "WebSocket", metricsUri, gateway.pid(),
                warmUpS, windows, windowS);
            if (!load.stopOrdering(10_000))
            {
                System.out.println("warning: not every request was answered within 10 s of the end");
            }
        }
        finish(report, "gateway.json");
    }

    private static void finish(final BenchReport report, final String file) throws IOException
    {
        System.out.println();
        report.printTable(System.out);
        final Path json = BenchReport.output(file);
        report.writeJson(json);
        System.out.println();
        System.out.println("wrote " + json.toAbsolutePath());
    }

    /**
     * What a window reads from either load at its end.
     *
     * @param marketData market-data messages received so far, or -1 for a load without market data (FIX).
     */
    private record LoadFigures(int sessions, long requests, long rejects, long closed, long marketData,
        Histogram roundTrips)
    {
        static LoadFigures of(final GatewayLoad.Snapshot snapshot)
        {
            return new LoadFigures(snapshot.sessionsLoggedOn(), snapshot.requestsSent(), snapshot.rejects(),
                snapshot.unexpectedCloses(), snapshot.marketDataMessages(), snapshot.roundTrips());
        }

        static LoadFigures of(final FixLoad.Snapshot snapshot)
        {
            return new LoadFigures(snapshot.sessionsLoggedOn(), snapshot.requestsSent(), snapshot.rejects(),
                snapshot.logouts(), -1, snapshot.roundTrips());
        }
    }

    /**
     * The warm-up, then the measured windows, the same for both protocols: the load's own figures, the gateway's
     * histograms and counters as differences between two scrapes, and its CPU time.
     */
    private void measureWindows(final BenchReport report, final Supplier<LoadFigures> load, final String protocol,
        final URI metricsUri, final long gatewayPid, final long warmUpS, final int windows, final long windowS)
        throws Exception
    {
        // The load's startup garbage (the sessions' buffers, logon) collected now, in the warm-up, not in a window.
        System.gc();
        Thread.sleep(TimeUnit.SECONDS.toMillis(warmUpS));
        LoadFigures before = load.get();
        Map<String, Double> metricsBefore = scrape(metricsUri);
        long cpuBefore = cpuTicks(gatewayPid);
        long startNs = System.nanoTime();
        for (int window = 0; window < windows; window++)
        {
            Thread.sleep(TimeUnit.SECONDS.toMillis(windowS));
            final LoadFigures after = load.get();
            final Map<String, Double> metricsAfter = scrape(metricsUri);
            final long cpuAfter = cpuTicks(gatewayPid);
            final long endNs = System.nanoTime();
            final double seconds = (endNs - startNs) / 1e9;
            final Histogram rtt = after.roundTrips();
            final double requestsPerS = (after.requests() - before.requests()) / seconds;
            final double heapMb = sum(metricsAfter, "jvm_memory_used_bytes", "area=\"heap\"") / 1e6;
            final double cpuPct = 100.0 * (cpuAfter - cpuBefore) / CLOCK_TICKS / seconds;
            record(report, "sessions_held", after.sessions(), "sessions");
            if (after.marketData() >= 0)
            {
                record(report, "md_msgs_per_s", (after.marketData() - before.marketData()) / seconds, "msgs/s");
            }
            record(report, "orders_per_s", requestsPerS, "reqs/s");
            record(report, "order_rtt_p50_ns", percentile(rtt, 50), "ns");
            record(report, "order_rtt_p99_ns", percentile(rtt, 99), "ns");
            record(report, "order_rtt_p999_ns", percentile(rtt, 99.9), "ns");
            record(report, "gw_in_out_p50_ns", delta(metricsBefore, metricsAfter,
                "warpbus_gateway_order_round_trip_seconds", 0.5) * 1e9, "ns");
            record(report, "gw_in_out_p99_ns", delta(metricsBefore, metricsAfter,
                "warpbus_gateway_order_round_trip_seconds", 0.99) * 1e9, "ns");
            record(report, "gw_own_p50_ns", delta(metricsBefore, metricsAfter,
                "warpbus_gateway_order_processing_seconds", 0.5) * 1e9, "ns");
            record(report, "gw_own_p99_ns", delta(metricsBefore, metricsAfter,
                "warpbus_gateway_order_processing_seconds", 0.99) * 1e9, "ns");
            record(report, "heap_mb", heapMb, "MB");
            record(report, "gw_cpu_pct", cpuPct, "% of a core");
            if (after.marketData() >= 0)
            {
                record(report, "conflated_per_s", (sum(metricsAfter, "warpbus_gateway_conflated_updates_total", "") -
                    sum(metricsBefore, "warpbus_gateway_conflated_updates_total", "")) / seconds, "updates/s");
            }
            record(report, "rejects", after.rejects() - before.rejects(), "requests");
            record(report, "closed_sessions", after.closed(), "sessions");
            System.out.printf(Locale.ROOT, "window %d: %,d %s sessions, %s%,.0f requests/s, round trip " +
                "p50/p99/p99.9 %,.0f/%,.0f/%,.0f us (%,d answers), gateway heap %.0f MB, CPU %.0f%%%n", window + 1,
                after.sessions(), protocol, after.marketData() < 0 ? "" : String.format(Locale.ROOT,
                "%,.0f md msgs/s, ", (after.marketData() - before.marketData()) / seconds), requestsPerS,
                percentile(rtt, 50) / 1e3, percentile(rtt, 99) / 1e3, percentile(rtt, 99.9) / 1e3,
                rtt.getTotalCount(), heapMb, cpuPct);
            before = after;
            metricsBefore = metricsAfter;
            cpuBefore = cpuAfter;
            startNs = endNs;
        }
    }

    private void record(final BenchReport report, final String metric, final double value, final String unit)
    {
        report.add(caseName, SYSTEM, metric, value, unit);
    }

    private static double percentile(final Histogram histogram, final double percentile)
    {
        return 0 == histogram.getTotalCount() ? Double.NaN : histogram.getValueAtPercentile(percentile);
    }

    /**
     * A quantile of what a Prometheus histogram counted between two scrapes, interpolated inside its bucket.
     */
    static double delta(final Map<String, Double> before, final Map<String, Double> after, final String name,
        final double quantile)
    {
        final List<double[]> buckets = new ArrayList<>();
        final String prefix = name + "_bucket{";
        for (final Map.Entry<String, Double> sample : after.entrySet())
        {
            final String key = sample.getKey();
            if (!key.startsWith(prefix))
            {
                continue;
            }
            final int le = key.indexOf("le=\"");
            final String bound = key.substring(le + 4, key.indexOf('"', le + 4));
            final double upper = "+Inf".equals(bound) ? Double.POSITIVE_INFINITY : Double.parseDouble(bound);
            buckets.add(new double[] { upper, sample.getValue() - before.getOrDefault(key, 0.0) });
        }
        buckets.sort((a, b) -> Double.compare(a[0], b[0]));
        if (buckets.isEmpty() || buckets.get(buckets.size() - 1)[1] <= 0)
        {
            return Double.NaN;
        }
        final double rank = quantile * buckets.get(buckets.size() - 1)[1];
        double lower = 0;
        double countBelow = 0;
        for (final double[] bucket : buckets)
        {
            if (bucket[1] >= rank)
            {
                if (Double.isInfinite(bucket[0]))
                {
                    return lower;
                }
                final double inBucket = bucket[1] - countBelow;
                return inBucket <= 0 ? bucket[0] : lower + (bucket[0] - lower) * (rank - countBelow) / inBucket;
            }
            lower = bucket[0];
            countBelow = bucket[1];
        }
        return lower;
    }

    private static double sum(final Map<String, Double> samples, final String name, final String label)
    {
        double total = 0;
        for (final Map.Entry<String, Double> sample : samples.entrySet())
        {
            final String key = sample.getKey();
            if ((key.equals(name) || key.startsWith(name + "{")) && key.contains(label))
            {
                total += sample.getValue();
            }
        }
        return total;
    }

    private Map<String, Double> scrape(final URI uri) throws IOException, InterruptedException
    {
        final HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10))
            .build(), HttpResponse.BodyHandlers.ofString());
        if (200 != response.statusCode())
        {
            throw new IllegalStateException(uri + " answered " + response.statusCode());
        }
        final Map<String, Double> samples = new LinkedHashMap<>();
        for (final String line : response.body().split("\n"))
        {
            final Matcher matcher = SAMPLE.matcher(line);
            if (!line.startsWith("#") && matcher.matches())
            {
                samples.put(matcher.group(1) + (null == matcher.group(2) ? "" : matcher.group(2)),
                    Double.parseDouble(matcher.group(3)));
            }
        }
        return samples;
    }

    private static long cpuTicks(final long pid) throws IOException
    {
        // /proc/PID/stat: fields 14 and 15 (utime, stime) after the command name in parentheses.
        final String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        final String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    private List<GatewayLoad.Login> writeCredentials(final Path file, final String password) throws IOException
    {
        // Cost 4: the FIX sessions log on with it at the start, and the gateway checks each; not a measured path.
        final String hash = "{bcrypt}" + new BCryptPasswordEncoder(4).encode(password);
        final SecureRandom random = new SecureRandom();
        final List<GatewayLoad.Login> logins = new ArrayList<>();
        final StringBuilder json = new StringBuilder("{\"users\":[");
        for (int i = 0; i < USERS; i++)
        {
            final byte[] secret = new byte[32];
            random.nextBytes(secret);
            final String key = String.format(Locale.ROOT, "AK-BENCH-%04d", i);
            final long account = FIRST_ACCOUNT + i;
            json.append(i > 0 ? "," : "").append("{\"name\":\"bench-").append(i).append("\",\"password\":\"")
                .append(hash).append("\",\"accounts\":[")
                .append(account).append("],\"ordersPerSecond\":100000,\"orderBurst\":100000,\"apiKeys\":[{\"id\":\"")
                .append(key).append("\",\"secret\":\"").append(Base64.getEncoder().encodeToString(secret))
                .append("\"}]}");
            logins.add(new GatewayLoad.Login(null, null, key, secret, account));
        }
        json.append("]}");
        Files.writeString(file, json);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return logins;
    }

    private Process start(final String main, final List<String> jvmFlags, final List<String> args) throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (final String arg : ManagementFactory.getRuntimeMXBean().getInputArguments())
        {
            if (!arg.startsWith("-Xmx"))
            {
                command.add(arg);
            }
        }
        command.addAll(jvmFlags);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main);
        command.addAll(args);
        final Process process = new ProcessBuilder(command).redirectError(dir.resolve(
            main.substring(main.lastIndexOf('.') + 1) + ".err").toFile()).start();
        processes.add(process);
        return process;
    }

    /**
     * Wait for a line of a child's output, and keep reading the rest so that the child never blocks on a full pipe.
     */
    private void awaitLine(final Process process, final String prefix, final long timeoutS) throws Exception
    {
        try
        {
            ChildOutput.follow(process, "bench-output", prefix, null).awaitMarker(timeoutS);
        }
        catch (final IllegalStateException ex)
        {
            throw new IllegalStateException(ex.getMessage() + "; its errors: " +
                Files.readString(dir.resolve("EngineMain.err")), ex);
        }
    }

    /**
     * Wait until the gateway is ready: its readiness group (engine connected both ways, journal writable) is up.
     */
    private void awaitGateway(final Process gateway, final URI readiness) throws Exception
    {
        final Thread drain = new Thread(() ->
        {
            try
            {
                gateway.getInputStream().transferTo(OutputStream.nullOutputStream());
            }
            catch (final IOException ignore)
            {
                // The gateway ended.
            }
        }, "bench-gateway-output");
        drain.setDaemon(true);
        drain.start();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (true)
        {
            if (!gateway.isAlive() || System.nanoTime() > deadline)
            {
                throw new IllegalStateException("the gateway did not become ready within 120 s; its errors: " +
                    Files.readString(dir.resolve("GatewayApplication.err")));
            }
            try
            {
                final HttpResponse<String> response = http.send(HttpRequest.newBuilder(readiness)
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
                if (200 == response.statusCode())
                {
                    return;
                }
            }
            catch (final IOException ex)
            {
                // Not serving yet.
            }
            Thread.sleep(250);
        }
    }

    private static int freePort(final String host) throws IOException
    {
        try (ServerSocket socket = new ServerSocket())
        {
            socket.bind(new InetSocketAddress(InetAddress.getByName(host), 0));
            return socket.getLocalPort();
        }
    }

    private void stopAll() throws InterruptedException
    {
        for (final Process process : processes)
        {
            process.destroy();
        }
        for (final Process process : processes)
        {
            if (!process.waitFor(15, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
            }
        }
    }
}
