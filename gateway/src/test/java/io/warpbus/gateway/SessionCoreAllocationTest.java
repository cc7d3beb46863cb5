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

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.warpbus.bus.Bus;
import io.warpbus.bus.BusContext;
import io.warpbus.gateway.metrics.GatewayMetrics;
import io.warpbus.gateway.security.CredentialStore;
import io.warpbus.gateway.session.CommandDescriptor;
import io.warpbus.gateway.session.CommandProxy;
import io.warpbus.gateway.session.Connection;
import io.warpbus.gateway.session.ConnectionTable;
import io.warpbus.gateway.session.EventDescriptor;
import io.warpbus.gateway.session.GatewayCounters;
import io.warpbus.gateway.session.InstrumentRegistry;
import io.warpbus.gateway.session.SessionCore;
import io.warpbus.gateway.session.SessionCoreContext;
import io.warpbus.iwarp.ThreadingMode;
import io.warpbus.testing.Await;
import io.warpbus.testing.ThreadAllocation;
import io.warpbus.testing.WarmUpClock;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.MessageHandler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The session loop allocates nothing in steady state: the session core's duty cycle, driven on this thread, takes
 * orders from two logged-on sessions through the command ring, sends them to a real engine over iWARP, journals and
 * queues the execution reports, and fans market data out to a subscriber, while this thread drains the connection
 * queues as the adapters' senders would. Measured by the JVM's per-thread allocation counter over windows of many
 * round trips, after a warm-up.
 */
@Timeout(180)
class SessionCoreAllocationTest
{
    private static final int WARM_UP = 20_000;
    private static final int MEASURED = 5_000;
    private static final int MAX_WINDOWS = 6;
    private static final String[] IDS = new String[64];

    static
    {
        for (int i = 0; i < IDS.length; i++)
        {
            IDS[i] = "alloc-" + i;
        }
    }

    @TempDir
    Path dir;
    private EngineFixture engine;
    private Bus bus;
    private GatewayCounters counters;
    private SessionCore core;
    private ConnectionTable connections;
    private Connection alice;
    private Connection bob;
    private long reports;
    private long marketData;
    private final MessageHandler drain = this::onEvent;

    @AfterEach
    void close()
    {
        CloseHelper.quietCloseAll(core, bus, counters, engine);
    }

    @Test
    void shouldNotAllocateInTheSessionLoop()
    {
        engine = new EngineFixture(dir, 1, false);
        final WarmUpClock engineClock = new WarmUpClock(TimeUnit.MILLISECONDS.toNanos(1));
        final BusContext busContext = new BusContext().directory(dir.resolve("gateway-bus")).name("gateway")
            .threadingMode(ThreadingMode.INVOKER);
        busContext.rnicContext().nanoClock(engineClock);
        bus = Bus.launch(busContext);
        counters = new GatewayCounters(dir.resolve("gateway-counters"));
        final CredentialStore credentials = CredentialStore.load(GatewayFixtures.writeCredentials(dir), true,
            1_000_000, 1_000_000);
        final InstrumentRegistry instruments = new InstrumentRegistry(1_000_000, Map.of(), new HashSet<>());
        connections = new ConnectionTable(8, 1024 * 1024);
        final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        final GatewayMetrics metrics = new GatewayMetrics(counters);
        metrics.bindTo(registry);
        core = new SessionCore(new SessionCoreContext()
            .bus(bus)
            .origin(1)
            .orderEntryChannel(engine.orderEntry(1))
            .executionReportChannel(engine.reports(1))
            .marketDataChannel(engine.marketData())
            .snapshotChannel(engine.snapshots())
            .journalDirectory(dir.resolve("journal"))
            .users(credentials.directory())
            .instruments(instruments)
            .connections(connections)
            .counters(counters)
            .latency(metrics::onRoundTrip)
            .maxSessions(16)
            .sessionOrderLimit(1_000_000, 1_000_000));
        final CommandProxy commands = core.commands();
        alice = connections.acquire(1, "alice");
        bob = connections.acquire(1, "bob");
        commands.logon(alice.index(), System.nanoTime(), null, credentials.directory().get("alice").index(), 60_000,
            -1, 0, 0, "alloc", "test");
        commands.logon(bob.index(), System.nanoTime(), null, credentials.directory().get("bob").index(), 60_000,
            -1, 0, 0, "alloc", "test");
        Await.until("the engine, both ways, and its instruments", 30_000, this::cycle,
            () -> core.isEngineConnected() && core.isEngineCaughtUp() && instruments.size() == 2);
        commands.subscription(CommandDescriptor.SUBSCRIBE, alice.index(), System.nanoTime(), null,
            GatewayFixtures.ACME.id(), "ACME");

        engineClock.warmingUp(true);
        trade(commands, WARM_UP);
        engineClock.warmingUp(false);
        final StringBuilder windows = new StringBuilder();
        int zeroWindowsInARow = 0;
        for (int window = 0; window < MAX_WINDOWS && zeroWindowsInARow < 2; window++)
        {
            final long before = ThreadAllocation.current();
            trade(commands, MEASURED);
            final long allocated = ThreadAllocation.current() - before;
            windows.append(allocated).append(' ');
            zeroWindowsInARow = 0 == allocated ? zeroWindowsInARow + 1 : 0;
        }

        assertTrue(marketData > WARM_UP, "market data fanned out to the subscriber: " + marketData);
        assertEquals(2, zeroWindowsInARow, "bytes allocated per window of " + MEASURED + " trades (a resting " +
            "order, an order crossing it, four execution reports, a trade and a book update): " + windows);
    }

    /**
     * Each round: alice rests a buy, bob sells into it; both are filled. Waits for each round's reports.
     */
    private void trade(final CommandProxy commands, final int rounds)
    {
        for (int i = 0; i < rounds; i++)
        {
            final String id = IDS[i & (IDS.length - 1)];
            final long expected = reports + 4;
            while (!commands.newOrder(alice.index(), System.nanoTime(), null, id, GatewayFixtures.ALICE_ACCOUNT,
                GatewayFixtures.ACME.id(), "ACME", CommandDescriptor.BUY, CommandDescriptor.LIMIT,
                CommandDescriptor.GTC, false, 10_000, 2, 10))
            {
                cycle();
            }
            while (!commands.newOrder(bob.index(), System.nanoTime(), null, id, GatewayFixtures.BOB_ACCOUNT,
                GatewayFixtures.ACME.id(), "ACME", CommandDescriptor.SELL, CommandDescriptor.LIMIT,
                CommandDescriptor.IOC, false, 10_000, 2, 10))
            {
                cycle();
            }
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (reports < expected)
            {
                cycle();
                Await.checkInterrupted();
                if (System.nanoTime() - deadline > 0)
                {
                    throw new AssertionError("round " + i + " not answered: " + reports + " of " + expected);
                }
            }
        }
    }

    private void cycle()
    {
        core.doWork();
        alice.outbound().read(drain, 64);
        bob.outbound().read(drain, 64);
    }

    private void onEvent(final int type, final DirectBuffer buffer, final int offset, final int length)
    {
        if (EventDescriptor.EXECUTION_REPORT == type)
        {
            reports++;
        }
        else if (EventDescriptor.isMarketData(type))
        {
            marketData++;
        }
    }
}
