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
package io.warpbus.demo.subscriber;

import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

import io.warpbus.bus.Bus;
import io.warpbus.bus.Subscription;
import io.warpbus.demo.DemoProcess;
import io.warpbus.demo.Options;
import io.warpbus.demo.Stats;
import io.warpbus.iwarp.IdleStrategies;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;

/**
 * The market-data subscriber process:
 * <pre>
 * MarketDataMain --market-data CHANNEL --snapshots CHANNEL [--dir DIR] [--name NAME] [--idle STRATEGY]
 *                [--stats-interval-ms MS]
 * </pre>
 * Prints {@code READY md}, a {@code STATS md ...} line every interval (messages, book updates, trades, sequence
 * gaps, synced instruments, snapshot checks and mismatches) and {@code STOPPED md} when told to stop.
 */
public final class MarketDataMain
{
    private static final Set<String> OPTIONS = Set.of("market-data", "snapshots", "dir", "name", "idle",
        "stats-interval-ms");
    private static final int FRAGMENT_LIMIT = 256;

    private MarketDataMain()
    {
    }

    /**
     * Run the subscriber until stopped.
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
            options.required("market-data");
            options.required("snapshots");
        }
        catch (final IllegalArgumentException ex)
        {
            System.err.println("md: " + ex.getMessage());
            System.exit(DemoProcess.EXIT_USAGE);
            return;
        }
        System.exit(run(options));
    }

    static int run(final Options options) throws Exception
    {
        final Path dir = Path.of(options.string("dir", System.getProperty("java.io.tmpdir") + "/warpbus-md"));
        final String name = options.string("name", "md");
        final long statsIntervalMs = options.number("stats-interval-ms", 1000, 10, 60_000);

        final CountDownLatch stop = DemoProcess.stopSignal();
        final Bus bus = DemoProcess.launchBus(dir, name);
        final MarketDataClient client = new MarketDataClient();
        final Subscription incremental = bus.addSubscription(options.required("market-data"));
        final Subscription snapshots = bus.addSubscription(options.required("snapshots"));
        final Agent agent = new Agent()
        {
            @Override
            public int doWork()
            {
                // Snapshots first: a snapshot of sequence S is published after the incrementals up to S.
                return bus.doWork() + snapshots.poll(client.snapshotHandler(), FRAGMENT_LIMIT) +
                    incremental.poll(client.incrementalHandler(), FRAGMENT_LIMIT);
            }

            @Override
            public String roleName()
            {
                return "md-subscriber";
            }
        };
        final AgentRunner runner = new AgentRunner(IdleStrategies.fromAlias(options.string("idle", "backoff")),
            (throwable) -> System.err.println("md: " + throwable), null, agent);
        try
        {
            AgentRunner.startOnThread(runner);
            System.out.println("READY md pid=" + ProcessHandle.current().pid() + " bus=" + bus.countersFile());
            System.out.flush();
            DemoProcess.everyInterval(stop, statsIntervalMs, () ->
            {
                System.out.println(line(client));
                System.out.flush();
            });
        }
        finally
        {
            CloseHelper.quietClose(runner);
            System.out.println(line(client));
            System.out.println("STOPPED md errors=" + bus.errorCount());
            System.out.flush();
            CloseHelper.quietCloseAll(incremental, snapshots, bus);
        }

        return DemoProcess.EXIT_OK;
    }

    static String line(final MarketDataClient client)
    {
        return new Stats().begin("md")
            .add("messages", client.messages())
            .add("book_updates", client.bookUpdates())
            .add("trades", client.trades())
            .add("heartbeats", client.heartbeats())
            .add("gaps", client.gaps())
            .add("duplicates", client.duplicates())
            .add("unknown", client.unknown())
            .add("synced_instruments", client.syncedInstruments())
            .add("snapshots", client.snapshots())
            .add("snapshot_checks", client.snapshotChecks())
            .add("snapshot_mismatches", client.snapshotMismatches())
            .add("crossed_books", client.crossedBooks())
            .toString();
    }
}
