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
package io.warpbus.demo.client;

import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.warpbus.bus.Bus;
import io.warpbus.demo.DemoProcess;
import io.warpbus.demo.Options;
import io.warpbus.demo.RealtimeScheduling;
import io.warpbus.demo.Stats;
import io.warpbus.iwarp.IdleStrategies;
import org.HdrHistogram.Histogram;
import org.agrona.CloseHelper;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SystemNanoClock;

/**
 * The load-generator process:
 * <pre>
 * LoadClientMain --order-entry CHANNEL --execution-reports CHANNEL [--dir DIR] [--name NAME] [--idle STRATEGY]
 *                [--rate COMMANDS_PER_S] [--instruments N] [--seed N] [--count N] [--stats-interval-ms MS]
 *                [--realtime off|PRIORITY] [--realtime-after SECONDS]
 * </pre>
 * Prints {@code READY client}, a {@code STATS client ...} line every interval, and on {@code stop} (or the end of
 * standard input, or {@code --count} commands) stops sending, waits up to 10 s for every command to be answered,
 * prints its last stats and {@code STOPPED client settled=true|false}. With {@code --realtime PRIORITY} the
 * duty-cycle thread runs at {@code SCHED_FIFO} from {@code --realtime-after} seconds after the start, and the client
 * says {@code REALTIME client ...} then ({@link RealtimeScheduling}).
 */
public final class LoadClientMain
{
    private static final Set<String> OPTIONS = Set.of("order-entry", "execution-reports", "dir", "name", "idle",
        "rate", "instruments", "seed", "count", "stats-interval-ms", "realtime", "realtime-after");

    private LoadClientMain()
    {
    }

    /**
     * Run the client until stopped.
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
            options.required("order-entry");
            options.required("execution-reports");
            RealtimeScheduling.fromOptions(options);
        }
        catch (final IllegalArgumentException ex)
        {
            System.err.println("client: " + ex.getMessage());
            System.exit(DemoProcess.EXIT_USAGE);
            return;
        }
        System.exit(run(options));
    }

    static int run(final Options options) throws Exception
    {
        final Path dir = Path.of(options.string("dir", System.getProperty("java.io.tmpdir") + "/warpbus-client"));
        final String name = options.string("name", "client");
        final long rate = options.number("rate", 20_000, 1, 10_000_000);
        final int instruments = (int)options.number("instruments", 10, 1, 1000);
        final long seed = options.number("seed", 42, 0, Long.MAX_VALUE);
        final long count = options.number("count", Long.MAX_VALUE, 0, Long.MAX_VALUE);
        final long statsIntervalMs = options.number("stats-interval-ms", 1000, 10, 60_000);
        final RealtimeScheduling realtime = RealtimeScheduling.fromOptions(options);
        if (!realtime.permitted("client"))
        {
            return DemoProcess.EXIT_FAILED;
        }

        final CountDownLatch stop = DemoProcess.stopSignal();
        final Bus bus = DemoProcess.launchBus(dir, name);
        final LoadClient client = new LoadClient(bus, options.required("order-entry"),
            options.required("execution-reports"), DemoProcess.profile(instruments, seed, rate), count,
            SystemNanoClock.INSTANCE);
        final AgentRunner runner = new AgentRunner(IdleStrategies.fromAlias(options.string("idle", "backoff")),
            (throwable) -> System.err.println("client: " + throwable), null, client);
        final Sampler sampler = new Sampler(client);
        boolean settled = false;
        try
        {
            AgentRunner.startOnThread(runner, realtime.threadFactory());
            realtime.start("client", stop, System.out);
            System.out.println("READY client pid=" + ProcessHandle.current().pid() + " rate=" + rate +
                " instruments=" + instruments + " seed=" + seed + " bus=" + bus.countersFile());
            System.out.flush();
            DemoProcess.everyInterval(stop, statsIntervalMs, () ->
            {
                System.out.println(sampler.line(System.nanoTime()));
                System.out.flush();
                if (client.isDone())
                {
                    stop.countDown();
                }
            });
            client.stopSending();
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!client.isSettled() && System.nanoTime() - deadline < 0)
            {
                Thread.sleep(10);
            }
            settled = client.isSettled();
        }
        finally
        {
            CloseHelper.quietClose(runner);
            System.out.println(sampler.line(System.nanoTime()));
            System.out.println("STOPPED client settled=" + settled + " errors=" + bus.errorCount());
            System.out.flush();
            CloseHelper.quietClose(bus);
        }

        return null == realtime.failure() ? DemoProcess.EXIT_OK : DemoProcess.EXIT_FAILED;
    }

    /**
     * Builds the client's stats lines from its counters and latency recorder, on one thread: {@code o2r_*} are the
     * percentiles of the last interval, {@code o2r_hist} the whole histogram since the start (the demo subtracts two
     * of them for any window it needs).
     */
    static final class Sampler
    {
        private final LoadClient client;
        private final Histogram total = new Histogram(60_000_000_000L, 3);
        private Histogram interval;
        private long lastSent;
        private long lastNs = System.nanoTime();

        Sampler(final LoadClient client)
        {
            this.client = client;
            this.interval = client.latency().getIntervalHistogram();
        }

        synchronized String line(final long nowNs)
        {
            interval = client.latency().getIntervalHistogram(interval);
            total.add(interval);
            final long sent = client.sent();
            final double rate = (sent - lastSent) / Math.max(1e-9, (nowNs - lastNs) / 1e9);
            lastSent = sent;
            lastNs = nowNs;
            return new Stats().begin("client")
                .add("sent", sent)
                .add("acked", client.acked())
                .add("reports", client.reports())
                .add("fills", client.fills())
                .add("rejects", client.rejects())
                .add("unexpected_rejects", client.unexpectedRejects())
                .add("message_rejects", client.messageRejects())
                .add("exec_id_gaps", client.execIdGaps())
                .add("resend_requests", client.resendRequests())
                .add("resent_reports", client.resentReports())
                .add("duplicate_reports", client.duplicateReports())
                .add("back_pressure_events", client.backPressureEvents())
                .add("not_connected", client.notConnected())
                .add("orders_per_s", rate)
                .add("o2r", interval)
                .addEncoded("o2r_hist", total)
                .toString();
        }
    }
}
