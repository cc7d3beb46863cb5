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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.warpbus.demo.client.LoadClientMain;
import io.warpbus.demo.engine.EngineMain;
import io.warpbus.demo.marketdata.MarketDataMain;

/**
 * {@code ./warpbus demo [--duration SECONDS] [--dir DIR]}: a small exchange on the bus, as separate processes on
 * loopback: the matching engine, a load generator that trades on it, and a market-data subscriber.
 * <pre>
 *   load client  --orders (1001)--&gt;  engine  --execution reports (1002)--&gt; load client
 *                                            --market data (1003), snapshots (1004)--&gt; md subscriber
 * </pre>
 * It picks free ports on the host (127.0.0.1 unless {@code --host}), starts the processes, prints where to look
 * (web page, metrics, data directory), then live stats every few seconds. After {@code --duration} seconds, or at
 * Ctrl-C, it stops the load first, lets every command be answered, stops the rest, prints a summary and judges the
 * run: exit code 0 when healthy, 1 with the reasons when not (a process died, no trades, sequence gaps, unanswered
 * commands, a book that market data could not rebuild), 2 for bad options.
 * <p>
 * Threads: the engine's duty cycle uses the {@code --idle} strategy ({@code spin} by default: one busy core), the
 * load client's {@code --client-idle} ({@code spin} by default: the second), the market-data subscriber backs off.
 */
public final class DemoMain
{
    private static final Set<String> OPTIONS = Set.of("duration", "dir", "rate", "instruments", "interval", "idle",
        "client-idle", "md-idle", "seed", "host", "metrics-port");
    private static final Pattern WEB = Pattern.compile(".* web=(\\S+) metrics=(\\S+) counters=(\\S+).*");
    private static final long READY_TIMEOUT_MS = 60_000;

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
        try
        {
            options = Options.parse(args, OPTIONS, Set.of());
            options.number("duration", 0, 0, 365L * 86_400);
        }
        catch (final IllegalArgumentException ex)
        {
            System.err.println("warpbus demo: " + ex.getMessage());
            System.err.println("usage: warpbus demo [--duration SECONDS] [--dir DIR] [--rate COMMANDS_PER_S] " +
                "[--instruments N] [--interval SECONDS] [--idle spin|backoff|...] [--client-idle STRATEGY] " +
                "[--md-idle STRATEGY] [--seed N] [--host ADDRESS] [--metrics-port PORT]");
            System.exit(DemoProcess.EXIT_USAGE);
            return;
        }

        final DemoMain demo = new DemoMain(System.out);
        final Thread hook = new Thread(demo::onSignal, "demo-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        int exitCode;
        try
        {
            exitCode = demo.run(options);
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
    private int run(final Options options) throws Exception
    {
        final long durationS = options.number("duration", 0, 0, 365L * 86_400);
        final long rate = options.number("rate", 20_000, 1, 10_000_000);
        final int instruments = (int)options.number("instruments", 10, 1, 1000);
        final long intervalS = options.number("interval", 5, 1, 3600);
        final String host = options.string("host", "127.0.0.1");
        final Path dir = Path.of(options.string("dir", Path.of(System.getProperty("java.io.tmpdir"),
            "warpbus-demo-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")))
            .toString())).toAbsolutePath();
        final Path busDir = dir.resolve("bus");
        final Path logs = dir.resolve("logs");
        Files.createDirectories(busDir);
        Files.createDirectories(logs);

        final int orderPort = freePort(host);
        final int enginePort = freePort(host);
        final long metricsPort = options.number("metrics-port", freePort(host), 0, 65535);
        final String orders = "warp:iwarp?endpoint=" + host + ":" + orderPort + "|stream=1001|name=orders";
        final String reports = "warp:iwarp?endpoint=" + host + ":" + enginePort + "|stream=1002|name=reports";
        final String marketData = "warp:iwarp?endpoint=" + host + ":" + enginePort + "|stream=1003|name=md";
        final String snapshots = "warp:iwarp?endpoint=" + host + ":" + enginePort + "|stream=1004|name=snapshots";

        out.println("warpbus demo: a matching engine, a load generator and a market-data subscriber on the bus");
        out.println("  data directory   " + dir);
        out.println("  engine journal   " + dir.resolve("journal") + " (the engine recovers from it on restart)");
        out.println("  rate             " + rate + " commands/s over " + instruments + " instruments" +
            (durationS > 0 ? ", for " + durationS + " s" : ", until Ctrl-C"));

        final DemoChild md = start("md", logs, MarketDataMain.class, List.of(
            "--market-data", marketData, "--snapshots", snapshots, "--dir", busDir.toString(),
            "--idle", options.string("md-idle", "backoff")));
        final DemoChild engine = start("engine", logs, EngineMain.class, List.of(
            "--order-entry", orders, "--execution-reports", reports, "--market-data", marketData,
            "--snapshots", snapshots, "--dir", busDir.toString(), "--instruments", String.valueOf(instruments),
            "--idle", options.string("idle", "spin"), "--metrics", host + ":" + metricsPort,
            "--journal", dir.resolve("journal").toString()));
        final DemoChild client = start("client", logs, LoadClientMain.class, List.of(
            "--order-entry", orders, "--execution-reports", reports, "--dir", busDir.toString(),
            "--instruments", String.valueOf(instruments), "--rate", String.valueOf(rate),
            "--seed", options.string("seed", "42"), "--idle", options.string("client-idle", "spin")));

        final List<String> problems = new ArrayList<>();
        if (!awaitReady(problems))
        {
            return finish(client, engine, md, problems, 0);
        }
        final Matcher web = WEB.matcher(engine.ready());
        if (web.matches())
        {
            out.println("  web page         " + web.group(1));
            out.println("  metrics          " + web.group(2));
            out.println("  engine counters  ./warpbus stat --dir " + Path.of(web.group(3)).getParent());
        }
        out.println("  logs             " + logs);
        out.println("  processes        engine pid " + engine.pid() + ", client pid " + client.pid() + ", md pid " +
            md.pid());
        out.println();

        final long startNs = System.nanoTime();
        final long endNs = startNs + TimeUnit.SECONDS.toNanos(durationS);
        long nextPrintNs = startNs + TimeUnit.SECONDS.toNanos(intervalS);
        while (!stopRequested.get() && (0 == durationS || System.nanoTime() - endNs < 0))
        {
            Thread.sleep(50);
            if (anyDied(problems))
            {
                break;
            }
            if (System.nanoTime() - nextPrintNs >= 0)
            {
                nextPrintNs += TimeUnit.SECONDS.toNanos(intervalS);
                printLive(engine, client, md, System.nanoTime() - startNs);
            }
        }

        return finish(client, engine, md, problems, System.nanoTime() - startNs);
    }

    private DemoChild start(final String name, final Path logs, final Class<?> main, final List<String> args)
    {
        final DemoChild child = DemoChild.start(name, logs, main.getName(), args);
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

    private void printLive(final DemoChild engine, final DemoChild client, final DemoChild md, final long elapsedNs)
    {
        out.printf(Locale.ROOT, "[%4ds] orders/s %,9.0f  trades/s %,8.0f  match p50/p99/p99.9 %s us  " +
            "order->report p50/p99/p99.9 %s us  back pressure %,d  md gaps %d%n",
            TimeUnit.NANOSECONDS.toSeconds(elapsedNs),
            engine.rate("orders_per_s"),
            engine.rate("trades_per_s"),
            micros(engine.stat("match_p50_ns"), engine.stat("match_p99_ns"), engine.stat("match_p999_ns")),
            micros(client.stat("o2r_p50"), client.stat("o2r_p99"), client.stat("o2r_p999")),
            engine.stat("back_pressure_events") + client.stat("back_pressure_events"),
            md.stat("gaps"));
        out.flush();
    }

    @SuppressWarnings("methodlength")
    private int finish(
        final DemoChild client,
        final DemoChild engine,
        final DemoChild md,
        final List<String> problems,
        final long elapsedNs) throws InterruptedException
    {
        client.stop();
        final boolean clientExited = client.awaitExit(20_000);
        engine.stop();
        md.stop();
        final boolean engineExited = engine.awaitExit(15_000);
        final boolean mdExited = md.awaitExit(15_000);
        for (final DemoChild child : List.of(client, engine, md))
        {
            final boolean exited = child == client ? clientExited : child == engine ? engineExited : mdExited;
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

        final double seconds = Math.max(1e-9, elapsedNs / 1e9);
        final long commands = engine.stat("commands");
        final long trades = engine.stat("trades");
        out.println();
        out.println("summary (" + String.format(Locale.ROOT, "%.1f", seconds) + " s of load):");
        out.printf(Locale.ROOT, "  orders     %,d commands sent, %,d answered, %,d received by the engine, %.0f/s%n",
            client.stat("sent"), client.stat("acked"), commands, commands / seconds);
        out.printf(Locale.ROOT, "  trades     %,d (%.0f/s), %,d execution reports, %,d rejected commands%n",
            trades, trades / seconds, engine.stat("reports"), engine.stat("rejects"));
        out.printf(Locale.ROOT, "  match latency p50/p99/p99.9/max %s us (engine: decode, match, publish)%n",
            micros(engine.stat("match_total_p50_ns"), engine.stat("match_total_p99_ns"),
            engine.stat("match_total_p999_ns"), engine.stat("match_total_max_ns")));
        out.printf(Locale.ROOT, "  order->report latency p50/p99/p99.9/max %s us (client clock, over the bus)%n",
            micros(client.stat("o2r_total_p50"), client.stat("o2r_total_p99"), client.stat("o2r_total_p999"),
            client.stat("o2r_total_max")));
        out.printf(Locale.ROOT, "  back pressure  engine %,d events (%,d messages waited), client %,d events%n",
            engine.stat("back_pressure_events"), engine.stat("back_pressured_messages"),
            client.stat("back_pressure_events"));
        out.printf(Locale.ROOT, "  market data    %,d messages, %,d book updates, %,d trades, %d gaps, " +
            "%d/%d instruments synced, %d snapshot checks, %d mismatches%n",
            md.stat("messages"), md.stat("book_updates"), md.stat("trades"), md.stat("gaps"),
            md.stat("synced_instruments"), engine.stat("snapshot_cycles") > 0 ? md.stat("synced_instruments") : 0,
            md.stat("snapshot_checks"), md.stat("snapshot_mismatches"));

        judge(client, engine, md, problems);
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

    private static int freePort(final String host) throws IOException
    {
        try (ServerSocket socket = new ServerSocket())
        {
            socket.bind(new InetSocketAddress(InetAddress.getByName(host), 0));
            return socket.getLocalPort();
        }
    }
}
