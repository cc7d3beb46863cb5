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
package io.warpbus.demo;

import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.warpbus.demo.client.LoadClientMain;
import io.warpbus.demo.service.EngineMain;
import io.warpbus.demo.subscriber.MarketDataMain;
import io.warpbus.matching.Instrument;
import io.warpbus.matching.RiskLimits;
import org.HdrHistogram.Histogram;

/**
 * {@code ./warpbus demo [--duration SECONDS] [--dir DIR]}: a small exchange on the bus, as separate processes on
 * loopback: the matching engine, a load generator that trades on it, a market-data subscriber, and a gateway that
 * trading apps (and a person, with {@code ./warpbus client}) log on to, with a second load trading
 * through it.
 * <pre>
 *   load client  --orders (1001)--&gt;  engine  --execution reports (1002)--&gt; load client
 *                                            --market data (1003), snapshots (1004)--&gt; md subscriber, gateway
 *   gateway      --orders (1011)--&gt;  engine  --execution reports (1012), drop copy (1005)--&gt; gateway
 *   gateway load --WebSocket--&gt; gateway
 * </pre>
 * It picks free ports on the host (127.0.0.1 unless {@code --host}), writes the gateway's credentials with a demo user
 * whose password is generated for the run, starts the processes, prints where to look (the gateway's WebSocket, FIX
 * acceptor (an order-entry session, {@value #FIX_SENDER_COMP_ID} to {@value #FIX_TARGET_COMP_ID}, and a drop-copy
 * session, {@value #FIX_DROP_COPY_COMP_ID}) and
 * operators' API, the demo user, metrics, data directory), then live stats every few seconds. After {@code --duration}
 * seconds, or at Ctrl-C, it stops the loads first, lets every command be answered, stops the rest, prints a summary
 * and judges the run: exit code 0 when healthy, 1 with the reasons when not (a process died, no trades, sequence
 * gaps, unanswered commands, a book that market data could not rebuild, a gateway session lost), 2 for bad options.
 * <p>
 * The gateway is a Spring Boot application of the {@code gateway} module, which this module cannot depend on (the
 * gateway's tests run this engine); it runs with the class path in the system property
 * {@value #GATEWAY_CLASSPATH_PROPERTY}, which {@code ./warpbus demo} sets, or with the demo's own class path when
 * that holds the gateway.
 * <p>
 * Threads: the engine's duty cycle uses the {@code --idle} strategy, the load client's {@code --client-idle}, the
 * market-data subscriber's {@code --md-idle}; unless given they are chosen from the machine's cores by
 * {@link IdlePlan} (busy-spin only where a core is free for it), and the banner says what was chosen and why. The
 * gateway backs off. Where the engine and the load client cannot both spin, the demo may (root or
 * {@code CAP_SYS_NICE}) and the warm-up is long enough ({@link IdlePlan#forWarmup}), their duty-cycle threads run at
 * {@code SCHED_FIFO} from halfway through the warm-up and park a fixed time when idle
 * ({@code --realtime auto|on|off}; the demo checks before it starts anything). The processes reach each other over
 * iWARP on loopback, or on two cores or fewer through shared memory ({@code --transport}, {@link DemoTransport}).
 * <p>
 * Latency: the first {@code --warmup} seconds of load (5, or 30 where nothing spins; at most half of
 * {@code --duration}) are reported on a line of their own and kept out of the summary's percentiles; each live line
 * covers the whole interval since the last one ({@link LatencyWindows}).
 */
public final class DemoMain
{
    /**
     * System property with the gateway's class path.
     */
    public static final String GATEWAY_CLASSPATH_PROPERTY = "warpbus.demo.gateway.classpath";
    private static final Set<String> OPTIONS = Set.of("duration", "dir", "rate", "instruments", "interval", "idle",
        "client-idle", "md-idle", "warmup", "seed", "host", "metrics-port", "gateway-port", "gateway-rate",
        "gateway-sessions", "gateway-fix-port", "transport", "realtime");
    private static final String GATEWAY_MAIN = "io.warpbus.gateway.demo.DemoGatewayMain";
    private static final String GATEWAY_LOAD_MAIN = "io.warpbus.gateway.demo.DemoGatewayLoadMain";
    private static final String CREDENTIALS_MAIN = "io.warpbus.gateway.security.CredentialsTool";
    private static final Pattern GATEWAY = Pattern.compile(
        ".* ws=(\\S+) http=(\\S+) metrics=(\\S+) counters=(\\S+).*");
    private static final int GATEWAY_ORIGIN = 1;
    private static final int[] DEMO_ACCOUNTS = { 9001, 9002 };
    private static final int LOAD_ACCOUNT = 9003;
    private static final String DEMO_USER = "demo";
    /**
     * The SenderCompID of the demo's FIX order-entry session (the client's side).
     */
    public static final String FIX_SENDER_COMP_ID = "DEMO_OMS";
    /**
     * The gateway's CompID on the demo's FIX session, the client's TargetCompID.
     */
    public static final String FIX_TARGET_COMP_ID = "WARPBUS";
    /**
     * The SenderCompID of the demo's FIX drop-copy session: every fill of the demo user's accounts, from any route.
     */
    public static final String FIX_DROP_COPY_COMP_ID = "DEMO_DC";
    private static final Pattern WEB = Pattern.compile(".* web=(\\S+) metrics=(\\S+) counters=(\\S+).*");
    private static final long READY_TIMEOUT_MS = 60_000;
    private static final String O2R_HISTOGRAM = "o2r_hist";

    private final PrintStream out;
    private final AtomicBoolean stopRequested = new AtomicBoolean();
    private final CountDownLatch finished = new CountDownLatch(1);
    private final List<DemoChild> children = new ArrayList<>();

    private DemoMain(final PrintStream out)
    {
        this.out = out;
    }

    /**
     * Run the demo.
     *
     * @param args options.
     */
    public static void main(final String[] args)
    {
        final Options options;
        final IdlePlan idle;
        try
        {
            options = Options.parse(args, OPTIONS, Set.of());
            options.number("duration", 0, 0, 365L * 86_400);
            options.number("warmup", 5, 0, 3600);
            transport(options);
            // Before anything starts: a refused --realtime on is the user's to fix, not a child failing mid-run.
            idle = idlePlan(options);
        }
        catch (final IllegalStateException ex)
        {
            System.err.println("warpbus demo: " + ex.getMessage());
            System.exit(DemoProcess.EXIT_FAILED);
            return;
        }
        catch (final IllegalArgumentException ex)
        {
            System.err.println("warpbus demo: " + ex.getMessage());
            System.err.println("usage: warpbus demo [--duration SECONDS] [--dir DIR] [--rate COMMANDS_PER_S] " +
                "[--instruments N] [--interval SECONDS] [--warmup SECONDS] [--idle spin|backoff|...] " +
                "[--client-idle STRATEGY] [--md-idle STRATEGY] [--seed N] [--host ADDRESS] [--metrics-port PORT] " +
                "[--gateway-port PORT] [--gateway-fix-port PORT] [--gateway-rate ORDERS_PER_S] " +
                "[--gateway-sessions N] [--transport ipc|iwarp] [--realtime auto|on|off]");
            System.exit(DemoProcess.EXIT_USAGE);
            return;
        }

        final DemoMain demo = new DemoMain(System.out);
        final Thread hook = new Thread(demo::onSignal, "demo-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        int exitCode;
        try
        {
            exitCode = demo.run(options, idle);
        }
        catch (final Exception ex)
        {
            System.err.println("warpbus demo: " + ex);
            demo.killAll();
            exitCode = DemoProcess.EXIT_FAILED;
        }
        finally
        {
            demo.finished.countDown();
        }
        if (!demo.stopRequested.get())
        {
            Runtime.getRuntime().removeShutdownHook(hook);
        }
        System.exit(exitCode);
    }

    private void onSignal()
    {
        if (stopRequested.compareAndSet(false, true))
        {
            out.println();
            out.println("warpbus demo: stopping (Ctrl-C)...");
        }
        try
        {
            if (!finished.await(40, TimeUnit.SECONDS))
            {
                killAll();
            }
        }
        catch (final InterruptedException ex)
        {
            killAll();
        }
    }

    @SuppressWarnings("methodlength")
    private int run(final Options options, final IdlePlan chosen) throws Exception
    {
        final long durationS = options.number("duration", 0, 0, 365L * 86_400);
        final long rate = options.number("rate", 20_000, 1, 10_000_000);
        final int instruments = (int)options.number("instruments", 10, 1, 1000);
        final long intervalS = options.number("interval", 5, 1, 3600);
        final long askedWarmupS = options.number("warmup", chosen.warmupSeconds(), 0, 3600);
        final long warmupS = durationS > 0 ? Math.min(askedWarmupS, durationS / 2) : askedWarmupS;
        final IdlePlan idle = chosen.forWarmup(warmupS);
        final String host = options.string("host", "127.0.0.1");
        final Path dir = Path.of(options.string("dir", Path.of(System.getProperty("java.io.tmpdir"),
            "warpbus-demo-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")))
            .toString())).toAbsolutePath();
        final Path busDir = dir.resolve("bus");
        final Path logs = dir.resolve("logs");
        final Path gatewayDir = dir.resolve("gateway");
        final long gatewayRate = options.number("gateway-rate", 300, 0, 100_000);
        final long gatewaySessions = options.number("gateway-sessions", 4, 1, 1000);
        final String gatewayClasspath = gatewayClasspath();
        Files.createDirectories(busDir);
        Files.createDirectories(logs);
        Files.createDirectories(gatewayDir);

        final int orderPort = freePort(host);
        final int enginePort = freePort(host);
        final int gatewayOrderPort = freePort(host);
        final long metricsPort = options.number("metrics-port", freePort(host), 0, 65535);
        final long gatewayPort = options.number("gateway-port", freePort(host), 0, 65535);
        // Not 0: the banner prints the port a FIX client connects to.
        final long fixPort = options.number("gateway-fix-port", freePort(host), 1, 65535);
        final DemoTransport transport = transport(options);
        final String orders = transport.channel(host, orderPort, 1001, "orders");
        final String reports = transport.channel(host, enginePort, 1002, "reports");
        final String marketData = transport.channel(host, enginePort, 1003, "md");
        final String snapshots = transport.channel(host, enginePort, 1004, "snapshots");
        final String dropCopy = transport.channel(host, enginePort, 1005, "drop-copy");
        final String gatewayOrders = transport.channel(host, gatewayOrderPort, 1011, "gateway-orders");
        final String gatewayReports = transport.channel(host, enginePort, 1012, "gateway-reports");
        // A publisher refuses a second subscriber of the same name: the gateway's are its own.
        final String gatewayMarketData = transport.channel(host, enginePort, 1003, "gateway-md");
        final String gatewaySnapshots = transport.channel(host, enginePort, 1004, "gateway-snapshots");
        final String gatewayDropCopy = transport.channel(host, enginePort, 1005, "gateway-drop-copy");

        out.println("warpbus demo: a matching engine, a load generator, a market-data subscriber and a gateway " +
            "with a second load");
        out.println("  data directory   " + dir);
        out.println("  engine journal   " + dir.resolve("journal") + " (the engine recovers from it on restart)");
        out.println("  rate             " + rate + " commands/s over " + instruments + " instruments on the bus, " +
            gatewayRate + " orders/s over " + gatewaySessions + " gateway sessions" +
            (durationS > 0 ? ", for " + durationS + " s" : ", until Ctrl-C") + ", the first " + warmupS +
            " s as warm-up");
        out.println("  idle             " + idle);
        out.println("  transport        " + transport);

        final List<String> engineArgs = new ArrayList<>(List.of(
            "--order-entry", orders, "--execution-reports", reports, "--market-data", marketData,
            "--snapshots", snapshots, "--dir", busDir.toString(), "--instruments", String.valueOf(instruments),
            "--idle", idle.engine(), "--metrics", host + ":" + metricsPort,
            "--journal", dir.resolve("journal").toString(),
            "--route", GATEWAY_ORIGIN + ";" + gatewayOrders + ";" + gatewayReports, "--drop-copy", dropCopy));
        engineArgs.addAll(realtimeArgs(idle, warmupS));
        final RiskLimits limits = DemoProcess.profile(instruments, 1, rate).riskLimits();
        for (final int account : new int[] { DEMO_ACCOUNTS[0], DEMO_ACCOUNTS[1], LOAD_ACCOUNT })
        {
            engineArgs.addAll(List.of("--account", account + ":" + limits.maxOrderQuantity() + ":" +
                limits.maxNotional() + ":" + limits.positionLimit()));
        }
        final DemoChild md = start("md", logs, MarketDataMain.class, List.of(
            "--market-data", marketData, "--snapshots", snapshots, "--dir", busDir.toString(),
            "--idle", idle.md()));
        final DemoChild engine = start("engine", logs, EngineMain.class, engineArgs);

        final List<String> problems = new ArrayList<>();
        final DemoCredentials credentials;
        try
        {
            credentials = DemoCredentials.write(gatewayDir, logs, gatewayClasspath, CREDENTIALS_MAIN, DEMO_USER,
                DEMO_ACCOUNTS, LOAD_ACCOUNT);
        }
        catch (final IllegalStateException ex)
        {
            problems.add(ex.getMessage());
            return finish(List.of(engine, md), problems, 0, null);
        }
        final List<String> gatewayArgs = new ArrayList<>(List.of(
            "--server.address=" + host, "--server.port=" + gatewayPort,
            "--warpbus.gateway.name=demo-gateway", "--warpbus.gateway.origin=" + GATEWAY_ORIGIN,
            "--warpbus.gateway.bus-directory=" + busDir,
            "--warpbus.gateway.credentials-file=" + credentials.file(),
            "--warpbus.gateway.journal.directory=" + gatewayDir.resolve("journal"),
            "--warpbus.gateway.sessions.max-sessions=256",
            // Five JVMs share the demo's cores: the load's sessions may fall behind for a while without being dropped.
            "--warpbus.gateway.sessions.slow-consumer-timeout=60s",
            "--warpbus.gateway.channels.order-entry=" + gatewayOrders,
            "--warpbus.gateway.channels.execution-reports=" + gatewayReports,
            "--warpbus.gateway.channels.market-data=" + gatewayMarketData,
            "--warpbus.gateway.channels.snapshots=" + gatewaySnapshots,
            "--warpbus.gateway.channels.drop-copy=" + gatewayDropCopy,
            "--warpbus.gateway.fix.port=" + fixPort, "--warpbus.gateway.fix.address=" + host,
            "--warpbus.gateway.fix.sessions[0].sender-comp-id=" + FIX_SENDER_COMP_ID,
            "--warpbus.gateway.fix.sessions[0].target-comp-id=" + FIX_TARGET_COMP_ID,
            "--warpbus.gateway.fix.sessions[0].type=order-entry",
            "--warpbus.gateway.fix.sessions[1].sender-comp-id=" + FIX_DROP_COPY_COMP_ID,
            "--warpbus.gateway.fix.sessions[1].target-comp-id=" + FIX_TARGET_COMP_ID,
            "--warpbus.gateway.fix.sessions[1].type=drop-copy"));
        if (0 != metricsPort)
        {
            // The operations view shows the engine's match latency and counters, read from its HTTP side.
            gatewayArgs.add("--warpbus.gateway.operations.engine-url=http://" +
                (host.contains(":") ? "[" + host + "]" : host) + ":" + metricsPort + "/");
        }
        final DemoChild gateway = start("gateway", logs, GATEWAY_MAIN, gatewayClasspath, gatewayArgs);
        if (!awaitReady(problems))
        {
            return finish(List.of(gateway, engine, md), problems, 0, null);
        }
        final Matcher gatewayAddresses = GATEWAY.matcher(gateway.ready());
        if (!gatewayAddresses.matches())
        {
            problems.add("gateway: unexpected ready line " + gateway.ready());
            return finish(List.of(gateway, engine, md), problems, 0, null);
        }
        final List<String> symbols = new ArrayList<>();
        final List<String> references = new ArrayList<>();
        for (final Instrument instrument : DemoProcess.instruments(instruments))
        {
            if (symbols.size() < 4)
            {
                symbols.add(instrument.symbol());
                references.add(instrument.symbol() + "=" + BigDecimal.valueOf(instrument.referencePrice(),
                    instrument.priceScale()).toPlainString());
            }
        }
        // The loads start once the engine and the gateway are up: a load paced from its own start would otherwise
        // fall behind while the gateway starts (the JIT takes the cores) and catch up in a burst.
        final List<String> clientArgs = new ArrayList<>(List.of(
            "--order-entry", orders, "--execution-reports", reports, "--dir", busDir.toString(),
            "--instruments", String.valueOf(instruments), "--rate", String.valueOf(rate),
            "--seed", options.string("seed", "42"), "--idle", idle.client()));
        clientArgs.addAll(realtimeArgs(idle, warmupS));
        final DemoChild client = start("client", logs, LoadClientMain.class, clientArgs);
        final DemoChild gatewayLoad = start("gwload", logs, GATEWAY_LOAD_MAIN, gatewayClasspath, List.of(
            "--url", gatewayAddresses.group(1), "--api-key", credentials.loadKey(), "--secret-file",
            credentials.loadSecretFile().toString(), "--account", String.valueOf(LOAD_ACCOUNT),
            "--sessions", String.valueOf(gatewaySessions), "--rate", String.valueOf(gatewayRate),
            "--instruments", String.join(",", symbols), "--reference", String.join(",", references)));
        if (!awaitReady(problems))
        {
            return finish(List.of(gatewayLoad, client, gateway, engine, md), problems, 0, null);
        }
        final Matcher web = WEB.matcher(engine.ready());
        if (web.matches())
        {
            out.println("  engine page      " + web.group(1));
            out.println("  engine metrics   " + web.group(2));
            out.println("  engine counters  ./warpbus stat --dir " + Path.of(web.group(3)).getParent());
        }
        out.println("  gateway          " + gatewayAddresses.group(1) + "  (WebSocket JSON, docs/gateway.md)");
        out.println("  gateway page     " + gatewayAddresses.group(2) + "  (trade and operations in a browser, " +
            "docs/web.md; log on as the demo user)");
        out.println("  gateway admin    " + gatewayAddresses.group(2) + "api/admin/sessions  (HTTP Basic as the demo " +
            "user)");
        out.println("  gateway metrics  " + gatewayAddresses.group(3));
        out.println("  gateway FIX      " + host + ":" + fixPort + "  (FIX 4.4 order entry, SenderCompID " +
            FIX_SENDER_COMP_ID + ", TargetCompID " + FIX_TARGET_COMP_ID + ", log on as the demo user; docs/fix.md)");
        out.println("  gateway FIX copy " + host + ":" + fixPort + "  (FIX 4.4 drop copy, SenderCompID " +
            FIX_DROP_COPY_COMP_ID + ": every fill of the demo user's accounts, from any route)");
        out.println("  demo user        " + DEMO_USER + " / " + credentials.password() + "  (accounts " +
            DEMO_ACCOUNTS[0] + ", " + DEMO_ACCOUNTS[1] + "; trader and admin; generated for this run)");
        out.println("  try              WARPBUS_PASSWORD='" + credentials.password() + "' ./warpbus client --url " +
            gatewayAddresses.group(1) + " --user " + DEMO_USER + " --account " + DEMO_ACCOUNTS[0] + " --subscribe " +
            symbols.get(0));
        out.println("  logs             " + logs);
        out.println("  processes        engine pid " + engine.pid() + ", client pid " + client.pid() + ", md pid " +
            md.pid() + ", gateway pid " + gateway.pid() + ", gwload pid " + gatewayLoad.pid());
        out.println();

        final long startNs = System.nanoTime();
        final long endNs = startNs + TimeUnit.SECONDS.toNanos(durationS);
        final LatencyWindows latency = new LatencyWindows(startNs, TimeUnit.SECONDS.toNanos(warmupS));
        long nextPrintNs = startNs + TimeUnit.SECONDS.toNanos(intervalS);
        while (!stopRequested.get() && (0 == durationS || System.nanoTime() - endNs < 0))
        {
            Thread.sleep(50);
            latency.observe(client.stats().get(O2R_HISTOGRAM), System.nanoTime());
            if (anyDied(problems))
            {
                break;
            }
            if (System.nanoTime() - nextPrintNs >= 0)
            {
                nextPrintNs += TimeUnit.SECONDS.toNanos(intervalS);
                printLive(engine, client, md, gateway, gatewayLoad, latency, System.nanoTime() - startNs);
            }
        }

        return finish(List.of(gatewayLoad, client, gateway, engine, md), problems, System.nanoTime() - startNs,
            latency);
    }

    private static DemoTransport transport(final Options options)
    {
        return DemoTransport.choose(Runtime.getRuntime().availableProcessors(), options.string("transport", null));
    }

    private static IdlePlan idlePlan(final Options options)
    {
        return IdlePlan.choose(Runtime.getRuntime().availableProcessors(), options.string("idle", null),
            options.string("client-idle", null), options.string("md-idle", null), options.string("realtime", null),
            () -> RealtimeScheduling.refusal(IdlePlan.REALTIME_PRIORITY));
    }

    /**
     * The options that raise a child's duty-cycle thread halfway through the warm-up, when the plan says so: late
     * enough that the JIT, whose threads run at the normal policy, has compiled the hot paths, and early enough that
     * the other processes settle into what the real-time threads leave them before the warm-up ends. Raised at its
     * end, the subscribers fell behind for the next few seconds in one run of three, inside the measured window
     * (docs/performance.md, "The real-time order path, built").
     */
    private static List<String> realtimeArgs(final IdlePlan idle, final long warmupS)
    {
        return idle.realtime() ? List.of("--realtime", String.valueOf(IdlePlan.REALTIME_PRIORITY),
            "--realtime-after", String.valueOf(warmupS / 2)) : List.of();
    }

    /**
     * The gateway's class path: the system property, else the demo's own when it holds the gateway.
     */
    private static String gatewayClasspath()
    {
        final String property = System.getProperty(GATEWAY_CLASSPATH_PROPERTY);
        if (null != property && !property.isBlank())
        {
            return property;
        }
        try
        {
            Class.forName(GATEWAY_MAIN, false, DemoMain.class.getClassLoader());
            return System.getProperty("java.class.path");
        }
        catch (final ClassNotFoundException ex)
        {
            throw new IllegalStateException("the demo needs the gateway, which is not on the class path: run it " +
                "with ./warpbus demo (which builds the gateway), or set -D" + GATEWAY_CLASSPATH_PROPERTY);
        }
    }

    private DemoChild start(final String name, final Path logs, final Class<?> main, final List<String> args)
    {
        return start(name, logs, main.getName(), System.getProperty("java.class.path"), args);
    }

    private DemoChild start(final String name, final Path logs, final String main, final String classpath,
        final List<String> args)
    {
        final DemoChild child = DemoChild.start(name, logs, main, classpath, args);
        synchronized (children)
        {
            children.add(child);
        }
        return child;
    }

    private boolean awaitReady(final List<String> problems) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(READY_TIMEOUT_MS);
        for (final DemoChild child : children)
        {
            while (null == child.ready())
            {
                if (!child.isAlive())
                {
                    problems.add(child.name + " exited with " + child.exitValue() + " while starting:\n    " +
                        child.errorTail());
                    return false;
                }
                if (System.nanoTime() - deadline > 0 || stopRequested.get())
                {
                    problems.add(child.name + " did not start within " + READY_TIMEOUT_MS + " ms");
                    return false;
                }
                Thread.sleep(20);
            }
        }
        return true;
    }

    private boolean anyDied(final List<String> problems)
    {
        boolean died = false;
        for (final DemoChild child : children)
        {
            if (!child.isAlive())
            {
                problems.add(child.name + " (pid " + child.pid() + ") died with exit code " + child.exitValue() +
                    ":\n    " + child.errorTail());
                died = true;
            }
        }
        return died;
    }

    private void printLatencySummary(final LatencyWindows latency, final long elapsedNs)
    {
        final Histogram measured = latency.measured();
        final Histogram warmup = latency.warmup();
        if (latency.warmedUp())
        {
            out.printf(Locale.ROOT, "  order->report latency p50/p99/p99.9/max %s us over %,d reports after the " +
                "warm-up (client clock, over the bus)%n", percentiles(measured, true), measured.getTotalCount());
        }
        out.printf(Locale.ROOT, "  warm-up    %s: order->report p50/p99/p99.9/max %s us over %,d reports (JIT " +
            "compilation, connections and books filling; %s)%n",
            latency.warmedUp() ? String.format(Locale.ROOT, "the first %.1f s", latency.warmupNs(elapsedNs) / 1e9) :
            "the whole run", percentiles(warmup, true), warmup.getTotalCount(),
            latency.warmedUp() ? "not in the percentiles above" : "the run ended before the warm-up did");
    }

    /**
     * p50/p99/p99.9 (and max) of a histogram of nanoseconds, in microseconds.
     */
    private static String percentiles(final Histogram histogram, final boolean withMax)
    {
        if (0 == histogram.getTotalCount())
        {
            return withMax ? micros(0, 0, 0, 0) : micros(0, 0, 0);
        }
        final String percentiles = micros(histogram.getValueAtPercentile(50), histogram.getValueAtPercentile(99),
            histogram.getValueAtPercentile(99.9));
        return withMax ? percentiles + "/" + micros(histogram.getMaxValue()) : percentiles;
    }

    private void printLive(final DemoChild engine, final DemoChild client, final DemoChild md,
        final DemoChild gateway, final DemoChild gatewayLoad, final LatencyWindows latency, final long elapsedNs)
    {
        final Histogram window = latency.nextWindow();
        final boolean warmingUp = !latency.warmedUp();
        out.printf(Locale.ROOT, "[%4ds] orders/s %,9.0f  trades/s %,8.0f  match p50/p99/p99.9 %s us  " +
            "order->report p50/p99/p99.9 %s us%s  back pressure %,d  md gaps %d%n",
            TimeUnit.NANOSECONDS.toSeconds(elapsedNs),
            engine.rate("orders_per_s"),
            engine.rate("trades_per_s"),
            micros(engine.stat("match_p50_ns"), engine.stat("match_p99_ns"), engine.stat("match_p999_ns")),
            percentiles(window, false), warmingUp ? " (warm-up)" : "",
            engine.stat("back_pressure_events") + client.stat("back_pressure_events"),
            md.stat("gaps"));
        out.printf(Locale.ROOT, "        gateway sessions %,d  orders %,d  rejects %,d  in->out p50/p99 %s us  " +
            "client round trip p50/p99 %s us  md out %,d  conflated %,d%n",
            gateway.stat("sessions"),
            gateway.stat("orders"),
            gateway.stat("gateway_rejects") + gateway.stat("engine_rejects"),
            micros(gateway.stat("rtt_p50_ns"), gateway.stat("rtt_p99_ns")),
            micros(gatewayLoad.stat("rtt_p50"), gatewayLoad.stat("rtt_p99")),
            gateway.stat("md_out"),
            gateway.stat("conflated"));
        out.flush();
    }

    /**
     * Stop the children in the given order (loads first, so that every command they sent is answered), then print
     * the summary and the verdict.
     */
    @SuppressWarnings("methodlength")
    private int finish(final List<DemoChild> stopOrder, final List<String> problems, final long elapsedNs,
        final LatencyWindows latency) throws InterruptedException
    {
        for (final DemoChild child : stopOrder)
        {
            child.stop();
            final boolean exited = child.awaitExit(20_000);
            if (!exited)
            {
                problems.add(child.name + " did not stop when asked and was killed");
            }
            else if (null == child.stopped() && problems.stream().noneMatch((p) -> p.startsWith(child.name)))
            {
                problems.add(child.name + " exited with " + child.exitValue() + " without stopping cleanly:\n    " +
                    child.errorTail());
            }
        }
        final DemoChild client = named(stopOrder, "client");
        final DemoChild engine = named(stopOrder, "engine");
        final DemoChild md = named(stopOrder, "md");
        final DemoChild gateway = named(stopOrder, "gateway");
        final DemoChild gatewayLoad = named(stopOrder, "gwload");
        if (null == client)
        {
            // Something failed before the loads started: there is nothing to sum up.
            return verdict(problems);
        }

        final long commands = engine.stat("commands");
        final long trades = engine.stat("trades");
        out.println();
        out.println("summary (" + String.format(Locale.ROOT, "%.1f", elapsedNs / 1e9) + " s of load):");
        out.printf(Locale.ROOT, "  orders     %,d commands sent, %,d answered, %,d received by the engine, %s/s%n",
            client.stat("sent"), client.stat("acked"), commands, perSecond(commands, elapsedNs));
        out.printf(Locale.ROOT, "  trades     %,d (%s/s), %,d execution reports, %,d rejected commands%n",
            trades, perSecond(trades, elapsedNs), engine.stat("reports"), engine.stat("rejects"));
        out.printf(Locale.ROOT, "  match latency p50/p99/p99.9/max %s us (engine: decode, match, publish)%n",
            micros(engine.stat("match_total_p50_ns"), engine.stat("match_total_p99_ns"),
            engine.stat("match_total_p999_ns"), engine.stat("match_total_max_ns")));
        if (null != latency)
        {
            latency.observe(client.stats().get(O2R_HISTOGRAM), System.nanoTime());
            printLatencySummary(latency, elapsedNs);
        }
        out.printf(Locale.ROOT, "  back pressure  engine %,d events (%,d messages waited), client %,d events%n",
            engine.stat("back_pressure_events"), engine.stat("back_pressured_messages"),
            client.stat("back_pressure_events"));
        out.printf(Locale.ROOT, "  market data    %,d messages, %,d book updates, %,d trades, %d gaps, " +
            "%d/%d instruments synced, %d snapshot checks, %d mismatches%n",
            md.stat("messages"), md.stat("book_updates"), md.stat("trades"), md.stat("gaps"),
            md.stat("synced_instruments"), engine.stat("snapshot_cycles") > 0 ? md.stat("synced_instruments") : 0,
            md.stat("snapshot_checks"), md.stat("snapshot_mismatches"));
        if (null != gateway)
        {
            out.printf(Locale.ROOT, "  gateway    %,d sessions held at the end, %,d logons (%,d failed), %,d orders " +
                "to the engine, %,d reports out, %,d rejects (%,d by the gateway), %,d market-data messages out, " +
                "%,d conflated%n",
                gateway.stat("sessions"), gateway.stat("logons"), gateway.stat("logon_failures"),
                gateway.stat("orders"), gateway.stat("reports"),
                gateway.stat("gateway_rejects") + gateway.stat("engine_rejects"), gateway.stat("gateway_rejects"),
                gateway.stat("md_out"), gateway.stat("conflated"));
            out.printf(Locale.ROOT, "  gateway order round trip p50/p99/p99.9 %s us in->out inside the gateway " +
                "(last minute), max %s us over %,d requests%n",
                micros(gateway.stat("rtt_p50_ns"), gateway.stat("rtt_p99_ns"), gateway.stat("rtt_p999_ns")),
                micros(gateway.stat("rtt_max_ns")), gateway.stat("rtt_count"));
        }
        if (null != gatewayLoad)
        {
            out.printf(Locale.ROOT, "  gateway load   %,d requests sent over WebSocket, %,d answered, %,d fills, " +
                "round trip p50/p99/p99.9/max %s us (client clock)%n",
                gatewayLoad.stat("sent"), gatewayLoad.stat("answered"), gatewayLoad.stat("fills"),
                micros(gatewayLoad.stat("rtt_total_p50"), gatewayLoad.stat("rtt_total_p99"),
                gatewayLoad.stat("rtt_total_p999"), gatewayLoad.stat("rtt_total_max")));
        }

        judge(client, engine, md, problems);
        judgeGateway(gateway, gatewayLoad, problems);
        return verdict(problems);
    }

    private int verdict(final List<String> problems)
    {
        if (problems.isEmpty())
        {
            out.println("RESULT: HEALTHY");
            out.flush();
            return DemoProcess.EXIT_OK;
        }
        out.println("RESULT: UNHEALTHY");
        for (final String problem : problems)
        {
            out.println("  - " + problem);
        }
        out.flush();
        return DemoProcess.EXIT_FAILED;
    }

    private static String perSecond(final long count, final long elapsedNs)
    {
        // A run that failed while starting had no load phase to divide by.
        return elapsedNs < 100_000_000L ? "-" : String.format(Locale.ROOT, "%,.0f", count * 1e9 / elapsedNs);
    }

    private static DemoChild named(final List<DemoChild> children, final String name)
    {
        for (final DemoChild child : children)
        {
            if (child.name.equals(name))
            {
                return child;
            }
        }
        return null;
    }

    private static void judgeGateway(final DemoChild gateway, final DemoChild gatewayLoad,
        final List<String> problems)
    {
        if (null == gateway || null == gatewayLoad)
        {
            return;
        }
        if (gatewayLoad.stat("sent") <= 0)
        {
            problems.add("no orders sent through the gateway");
        }
        if (null != gatewayLoad.stopped() && !gatewayLoad.stopped().contains("settled=true"))
        {
            problems.add("gateway orders unanswered: " + gatewayLoad.stat("sent") + " sent, " +
                gatewayLoad.stat("answered") + " answered");
        }
        if (gatewayLoad.stat("closes") > 0)
        {
            problems.add("the gateway closed or lost " + gatewayLoad.stat("closes") + " load sessions");
        }
        if (gateway.stat("lost_orders") > 0)
        {
            problems.add("the gateway lost " + gateway.stat("lost_orders") + " orders");
        }
        if (gateway.stat("errors") > 0)
        {
            problems.add("the gateway counted " + gateway.stat("errors") + " errors (see logs/gateway.out)");
        }
    }

    private static void judge(
        final DemoChild client, final DemoChild engine, final DemoChild md, final List<String> problems)
    {
        if (engine.stat("trades") <= 0)
        {
            problems.add("no trades");
        }
        if (client.stat("sent") <= 0)
        {
            problems.add("no orders sent");
        }
        if (null != client.stopped() && !client.stopped().contains("settled=true"))
        {
            problems.add("commands unanswered: " + client.stat("sent") + " sent, " + client.stat("acked") +
                " answered");
        }
        if (client.stat("exec_id_gaps") > 0)
        {
            problems.add("execution reports missing: " + client.stat("exec_id_gaps") + " execIds skipped");
        }
        if (md.stat("gaps") > 0)
        {
            problems.add("market-data sequence gaps: " + md.stat("gaps") + " messages missing");
        }
        if (md.stat("snapshot_mismatches") > 0)
        {
            problems.add("market-data book differs from the snapshot " + md.stat("snapshot_mismatches") + " times");
        }
        if (md.stat("crossed_books") > 0)
        {
            problems.add("rebuilt book crossed " + md.stat("crossed_books") + " times");
        }
        if (md.stat("trades") != engine.stat("trades") && md.stat("synced_instruments") > 0 &&
            md.stat("trades") > engine.stat("trades"))
        {
            problems.add("market data shows more trades (" + md.stat("trades") + ") than the engine made (" +
                engine.stat("trades") + ")");
        }
        if (engine.stat("message_rejects") > 0 || client.stat("message_rejects") > 0)
        {
            problems.add("undecodable order-entry messages: " + engine.stat("message_rejects"));
        }
        if (engine.stat("unsent_reports") > 0)
        {
            problems.add("execution reports not sent: " + engine.stat("unsent_reports"));
        }
    }

    private void killAll()
    {
        synchronized (children)
        {
            for (final DemoChild child : children)
            {
                child.kill();
            }
        }
    }

    private static String micros(final long... nanos)
    {
        final StringBuilder builder = new StringBuilder();
        for (final long ns : nanos)
        {
            builder.append(builder.length() > 0 ? "/" : "").append(String.format(Locale.ROOT, "%.1f", ns / 1000.0));
        }
        return builder.toString();
    }

    /**
     * A port free now that a child process listens on seconds later. It comes from below Linux's ephemeral range
     * (32768 and up): one from that range can be taken meanwhile by the local end of any outgoing connection, and
     * the child then fails with "Address already in use" (seen in CI).
     */
    private static int freePort(final String host) throws IOException
    {
        final InetAddress address = InetAddress.getByName(host);
        for (int attempt = 0; attempt < 200; attempt++)
        {
            final int port = ThreadLocalRandom.current().nextInt(20_000, 32_768);
            try (ServerSocket socket = new ServerSocket())
            {
                socket.bind(new InetSocketAddress(address, port));
                return port;
            }
            catch (final IOException inUse)
            {
                // taken: try another
            }
        }
        throw new IOException("no free port on " + host + " in 20000-32767 after 200 attempts");
    }
}
