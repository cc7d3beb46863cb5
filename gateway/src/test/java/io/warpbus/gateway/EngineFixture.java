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
package io.warpbus.gateway;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.warpbus.bus.Bus;
import io.warpbus.bus.BusContext;
import io.warpbus.demo.AppCounters;
import io.warpbus.demo.service.EngineContext;
import io.warpbus.demo.service.EngineService;
import io.warpbus.demo.service.EngineStats;
import io.warpbus.demo.service.MetricsServer;
import io.warpbus.iwarp.ThreadingMode;
import io.warpbus.testing.FreePorts;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;

/**
 * A real matching engine for the gateway's tests: the engine service on its own bus and thread in the test's JVM,
 * with a default route for a direct client on the bus (orders on {@link #directOrderEntry()}) and one route per
 * gateway (origin {@code n} orders on the gateway's endpoint, reports on stream 1010 + n of the
 * engine's endpoint), market data on 1003, snapshots on 1004 and the drop-copy stream (every report of every
 * route) on 1005, which every gateway subscribes to. Its HTTP side ({@link MetricsServer}: {@code stats.json},
 * {@code /metrics}) listens on a free loopback port, its statistics sampled every {@value #STATS_INTERVAL_MS} ms,
 * and the gateways are pointed at it for the operations view's engine figures.
 */
final class EngineFixture implements AutoCloseable
{
    final int enginePort = FreePorts.loopback();
    /** Where a direct client of the default route (origin 0) publishes its orders. */
    final int directPort = FreePorts.loopback();
    final int[] gatewayPorts;
    private final Bus bus;
    private final AppCounters counters;
    private final EngineService service;
    private final AgentRunner runner;
    private final EngineStats stats;
    private final MetricsServer metrics;
    private final ScheduledExecutorService statsSampler;
    /** While set, the engine's agent does nothing: commands wait in the bus, unread, in the order they came. */
    private volatile boolean paused;

    /** Longer than the gateway's one-second reads, so each engine interval is read at least once. */
    static final long STATS_INTERVAL_MS = 2_000;

    /**
     * Start an engine for some gateways.
     *
     * @param dir      where its bus, counters and journal go.
     * @param gateways how many gateways (origins 1 to n).
     * @param journal  journal the engine (so it can be restarted), or not.
     */
    EngineFixture(final Path dir, final int gateways, final boolean journal)
    {
        gatewayPorts = new int[gateways];
        for (int i = 0; i < gateways; i++)
        {
            gatewayPorts[i] = FreePorts.loopback();
        }
        bus = Bus.launch(new BusContext().directory(dir.resolve("engine-bus")).name("engine")
            .threadingMode(ThreadingMode.INVOKER));
        counters = new AppCounters(dir.resolve("engine-app"));
        final EngineContext context = new EngineContext()
            .bus(bus)
            .counters(counters)
            .orderEntryChannel(directOrderEntry())
            .executionReportChannel(directReports())
            .marketDataChannel(marketData())
            .snapshotChannel(snapshots())
            .dropCopyChannel(dropCopy())
            .snapshotIntervalNs(200_000_000L)
            .instruments(GatewayFixtures.instruments())
            .journalDirectory(journal ? dir.resolve("engine-journal") : null);
        for (int origin = 1; origin <= gateways; origin++)
        {
            context.route(origin, orderEntry(origin), reports(origin));
        }
        for (final long account : GatewayFixtures.ACCOUNTS)
        {
            context.account((int)account, GatewayFixtures.LIMITS);
        }
        service = new EngineService(context);
        runner = new AgentRunner(new BackoffIdleStrategy(100, 10, 1_000, 100_000), Throwable::printStackTrace,
            null, new Agent()
            {
                @Override
                public void onStart()
                {
                    service.onStart();
                }

                @Override
                public int doWork() throws Exception
                {
                    return paused ? 0 : service.doWork();
                }

                @Override
                public void onClose()
                {
                    service.onClose();
                }

                @Override
                public String roleName()
                {
                    return service.roleName();
                }
            });
        AgentRunner.startOnThread(runner);
        stats = new EngineStats(service, System.nanoTime());
        try
        {
            metrics = new MetricsServer(new InetSocketAddress("127.0.0.1", 0), service, stats);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("the engine's HTTP side cannot listen on 127.0.0.1", ex);
        }
        statsSampler = Executors.newSingleThreadScheduledExecutor((task) ->
        {
            final Thread thread = new Thread(task, "engine-fixture-stats");
            thread.setDaemon(true);
            return thread;
        });
        statsSampler.scheduleAtFixedRate(() -> stats.sample(System.nanoTime()), STATS_INTERVAL_MS,
            STATS_INTERVAL_MS, TimeUnit.MILLISECONDS);
    }

    /**
     * The engine's HTTP address, as the demo's banner gives it ({@code engine page}).
     *
     * @return {@code http://127.0.0.1:PORT/}.
     */
    String engineUrl()
    {
        return "http://127.0.0.1:" + metrics.address().getPort() + "/";
    }

    String directOrderEntry()
    {
        return GatewayFixtures.channel(directPort, 1001);
    }

    String directReports()
    {
        return GatewayFixtures.channel(enginePort, 1002);
    }

    String orderEntry(final int origin)
    {
        return GatewayFixtures.channel(gatewayPorts[origin - 1], 1001);
    }

    String reports(final int origin)
    {
        return GatewayFixtures.channel(enginePort, 1010 + origin);
    }

    String marketData()
    {
        return GatewayFixtures.channel(enginePort, 1003);
    }

    String snapshots()
    {
        return GatewayFixtures.channel(enginePort, 1004);
    }

    String dropCopy()
    {
        return GatewayFixtures.channel(enginePort, 1005);
    }

    /**
     * The properties that point a gateway of an origin at this engine.
     *
     * @param origin of the gateway.
     * @return {@code --warpbus.gateway...} arguments.
     */
    String[] gatewayArguments(final int origin)
    {
        return new String[] {
            "--warpbus.gateway.origin=" + origin,
            "--warpbus.gateway.channels.order-entry=" + orderEntry(origin),
            "--warpbus.gateway.channels.execution-reports=" + reports(origin),
            "--warpbus.gateway.channels.market-data=" + marketData(),
            "--warpbus.gateway.channels.snapshots=" + snapshots(),
            "--warpbus.gateway.operations.engine-url=" + engineUrl(),
            "--warpbus.gateway.channels.drop-copy=" + dropCopy(),
        };
    }

    /**
     * Stop or restart the engine's work, to line commands up behind each other: the engine then takes them in one
     * go, in order. Keep a pause well under the bus's liveness timeout.
     *
     * @param paused whether the engine stands still.
     */
    void pause(final boolean paused)
    {
        this.paused = paused;
    }

    EngineService service()
    {
        return service;
    }

    Bus bus()
    {
        return bus;
    }

    @Override
    public void close()
    {
        service.stopRetrying();
        statsSampler.shutdownNow();
        CloseHelper.quietCloseAll(metrics, runner, bus, counters);
    }
}
