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

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.warpbus.bus.Bus;
import io.warpbus.demo.AppCounters;
import io.warpbus.demo.DemoProcess;
import io.warpbus.demo.Options;
import io.warpbus.demo.RealtimeScheduling;
import io.warpbus.iwarp.IdleStrategies;
import io.warpbus.matching.RiskLimits;
import io.warpbus.matching.load.LoadProfile;
import org.agrona.CloseHelper;
import org.agrona.concurrent.AgentRunner;

/**
 * The matching-engine process:
 * <pre>
 * EngineMain --order-entry CHANNEL[,CHANNEL...] --execution-reports CHANNEL --market-data CHANNEL
 *            --snapshots CHANNEL [--route ORIGIN;ORDER_ENTRY_CHANNEL;REPORT_CHANNEL ...] [--drop-copy CHANNEL]
 *            [--dir DIR] [--name NAME] [--idle spin|backoff|...] [--metrics HOST:PORT|off]
 *            [--instruments N] [--account ID:MAX_QTY:MAX_NOTIONAL:POSITION_LIMIT ...] [--snapshot-interval-ms MS]
 *            [--stats-interval-ms MS] [--book-capacity N] [--journal DIR|off] [--recovery-snapshot-interval-ms MS]
 *            [--realtime off|PRIORITY] [--realtime-after SECONDS]
 * </pre>
 * Each {@code --route} adds a gateway: its order-entry stream, whose client order ids carry {@code ORIGIN} (1 to
 * 65535) in their top 16 bits, and the stream its execution reports go back on ({@link EngineContext}); the
 * {@code --order-entry} channels are the default route (origin 0), answered on {@code --execution-reports}.
 * {@code --drop-copy} adds a stream with every report of every route.
 * <p>
 * With {@code --journal DIR} every order-entry message is journaled before it is processed and the engine recovers
 * its state from {@code DIR} on start (newest checkpoint plus the journal after it), printing
 * {@code RECOVERED engine ...} with what it restored and the resulting state hash before {@code READY}. The option
 * {@code --recovery-snapshot-interval-ms} sets the checkpoint interval and the line's {@code snapshot-sequence} is the
 * restored checkpoint's journal sequence: both keep the names scripts already use.
 * With {@code --realtime PRIORITY} the duty-cycle thread runs at {@code SCHED_FIFO} from {@code --realtime-after}
 * seconds after the start, and the engine says {@code REALTIME engine ...} then ({@link RealtimeScheduling}).
 * Every option also reads from the system property {@code warpbus.demo.NAME}. Prints {@code READY engine ...} with
 * its metrics URL, a {@code STATS engine ...} line every interval, and {@code STOPPED engine ...} when its parent
 * says {@code stop} on standard input or goes away, or on SIGTERM or SIGINT; each of these closes the service, which
 * writes a last checkpoint when journaling.
 */
public final class EngineMain
{
    /** How long a SIGTERM waits for the orderly stop before the JVM halts. */
    static final long SHUTDOWN_GRACE_MS = 20_000;

    private static final Set<String> OPTIONS = Set.of("order-entry", "execution-reports", "market-data", "snapshots",
        "route", "drop-copy", "dir", "name", "idle", "metrics", "instruments", "account", "snapshot-interval-ms",
        "stats-interval-ms", "book-capacity", "journal", "recovery-snapshot-interval-ms", "realtime", "realtime-after");

    private EngineMain()
    {
    }

    /**
     * Run the engine until stopped.
     *
     * @param args options.
     * @throws Exception on failure to start.
     */
    public static void main(final String[] args) throws Exception
    {
        final Options options;
        try
        {
            options = Options.parse(args, OPTIONS, Set.of());
            if (options.list("order-entry").isEmpty() && options.list("route").isEmpty())
            {
                throw new IllegalArgumentException("option --order-entry or --route is required");
            }
            RealtimeScheduling.fromOptions(options);
        }
        catch (final IllegalArgumentException ex)
        {
            System.err.println("engine: " + ex.getMessage());
            System.exit(DemoProcess.EXIT_USAGE);
            return;
        }
        System.exit(run(options));
    }

    static int run(final Options options) throws Exception
    {
        final Path dir = Path.of(options.string("dir", System.getProperty("java.io.tmpdir") + "/warpbus-engine"));
        final String name = options.string("name", "engine");
        final int instrumentCount = (int)options.number("instruments", 10, 1, 1000);
        final long statsIntervalMs = options.number("stats-interval-ms", 1000, 10, 60_000);

        final String journal = options.string("journal", "off");
        final EngineContext context = context(options, instrumentCount, journal);
        final RealtimeScheduling realtime = RealtimeScheduling.fromOptions(options);
        if (!realtime.permitted("engine"))
        {
            return DemoProcess.EXIT_FAILED;
        }
        try
        {
            addRoutesAndAccounts(options, context, instrumentCount);
        }
        catch (final IllegalArgumentException ex)
        {
            System.err.println("engine: " + ex.getMessage());
            return DemoProcess.EXIT_USAGE;
        }

        final CountDownLatch stop = DemoProcess.stopSignal();
        final AppCounters counters = new AppCounters(dir.resolve(name + "-app"));
        final Bus bus = DemoProcess.launchBus(dir, name);
        final EngineService service;
        try
        {
            service = new EngineService(context.bus(bus).counters(counters));
        }
        catch (final RuntimeException ex)
        {
            System.err.println("engine: cannot start: " + ex);
            CloseHelper.quietCloseAll(bus, counters);
            return DemoProcess.EXIT_FAILED;
        }
        if (!"off".equals(journal))
        {
            printRecovered(journal, service);
        }

        // SIGTERM (a container's stop) closes the service like a parent's stop: it writes its last checkpoint.
        final CountDownLatch stopped = new CountDownLatch(1);
        DemoProcess.stopOnShutdown(stop, stopped, SHUTDOWN_GRACE_MS);
        final AgentRunner runner = new AgentRunner(IdleStrategies.fromAlias(options.string("idle", "backoff")),
            (throwable) ->
            {
                counters.onError(throwable);
                System.err.println("engine: " + throwable);
            },
            null, service);
        final EngineStats stats = new EngineStats(service, System.nanoTime());
        MetricsServer metrics = null;
        try
        {
            AgentRunner.startOnThread(runner, realtime.threadFactory());
            realtime.start("engine", stop, System.out);
            final String metricsAddress = options.string("metrics", "127.0.0.1:0");
            String url = "off";
            if (!"off".equals(metricsAddress))
            {
                final int colon = metricsAddress.lastIndexOf(':');
                metrics = new MetricsServer(new InetSocketAddress(metricsAddress.substring(0, colon),
                    Integer.parseInt(metricsAddress.substring(colon + 1))), service, stats)
                    .busCounters(bus.countersFile(), name)
                    .health(() -> !runner.isClosed() && null != runner.thread() && runner.thread().isAlive());
                if (!"off".equals(journal))
                {
                    metrics.diskSpace(Path.of(journal));
                }
                url = "http://" + metrics.address().getHostString() + ":" + metrics.address().getPort() + "/";
            }
            System.out.println("READY engine pid=" + ProcessHandle.current().pid() + " web=" + url + " metrics=" +
                ("off".equals(url) ? "off" : url + "metrics") + " counters=" + counters.path() + " bus=" +
                bus.countersFile());
            System.out.flush();
            DemoProcess.everyInterval(stop, statsIntervalMs, () ->
            {
                System.out.println(EngineStats.line(stats.sample(System.nanoTime())));
                System.out.flush();
            });
        }
        finally
        {
            service.stopRetrying();
            CloseHelper.quietClose(runner);
            final EngineStats.Sample last = stats.sample(System.nanoTime());
            System.out.println(EngineStats.line(last));
            System.out.println("STOPPED engine errors=" + (counters.errorCount() + bus.errorCount()));
            System.out.flush();
            CloseHelper.quietCloseAll(metrics, bus, counters);
            stopped.countDown();
        }

        return null == realtime.failure() ? DemoProcess.EXIT_OK : DemoProcess.EXIT_FAILED;
    }

    private static EngineContext context(final Options options, final int instrumentCount, final String journal)
    {
        final EngineContext context = new EngineContext()
            .executionReportChannel(options.required("execution-reports"))
            .marketDataChannel(options.required("market-data"))
            .snapshotChannel(options.required("snapshots"))
            .instruments(DemoProcess.instruments(instrumentCount))
            .bookCapacity((int)options.number("book-capacity", 64 * 1024, 16, 16 * 1024 * 1024))
            .snapshotIntervalNs(TimeUnit.MILLISECONDS.toNanos(options.number("snapshot-interval-ms", 1000, 10,
            3_600_000)))
            .checkpointIntervalNs(TimeUnit.MILLISECONDS.toNanos(options.number("recovery-snapshot-interval-ms",
            10_000, 10, 86_400_000)))
            .journalDirectory("off".equals(journal) ? null : Path.of(journal));
        for (final String channel : options.list("order-entry"))
        {
            context.orderEntryChannel(channel);
        }
        return context;
    }

    private static void addRoutesAndAccounts(final Options options, final EngineContext context,
        final int instrumentCount)
    {
        context.dropCopyChannel(options.string("drop-copy", null));
        for (final String route : options.list("route"))
        {
            final String[] parts = route.split(";");
            if (3 != parts.length || !parts[0].matches("[0-9]{1,5}"))
            {
                throw new IllegalArgumentException("--route " + route +
                    " must be ORIGIN;ORDER_ENTRY_CHANNEL;REPORT_CHANNEL");
            }
            try
            {
                context.route(Integer.parseInt(parts[0]), parts[1], parts[2]);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new IllegalArgumentException("--route " + route + ": " + ex.getMessage(), ex);
            }
        }
        final LoadProfile profile = LoadProfile.tradingDay(instrumentCount, 1);
        for (final int accountId : profile.accountIds())
        {
            context.account(accountId, profile.riskLimits());
        }
        for (final String account : options.list("account"))
        {
            final String[] parts = account.split(":");
            if (4 != parts.length || !account.matches("[0-9]+(:[0-9]+){3}"))
            {
                throw new IllegalArgumentException("--account " + account +
                    " must be ID:MAX_QTY:MAX_NOTIONAL:POSITION_LIMIT (numbers)");
            }
            context.account(Integer.parseInt(parts[0]), new RiskLimits(
                Long.parseLong(parts[1]), Long.parseLong(parts[2]), Long.parseLong(parts[3])));
        }
    }

    private static void printRecovered(final String journal, final EngineService service)
    {
        System.out.println("RECOVERED engine journal=" + journal + " snapshot-sequence=" +
            service.recoveredCheckpointSequence() + " replayed=" + service.replayedMessages() + " journal-sequence=" +
            service.journalSequence() + " last-order-id=" + service.engine().lastOrderId() + " last-exec-id=" +
            service.lastExecId() + " state-hash=" + Long.toHexString(service.engine().stateHash()));
        System.out.flush();
    }
}
