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

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.warpbus.bus.Bus;
import io.warpbus.bus.BusContext;
import io.warpbus.bus.ExclusivePublication;
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
import io.warpbus.orderentry.sbe.MessageHeaderEncoder;
import io.warpbus.orderentry.sbe.NewOrderEncoder;
import io.warpbus.orderentry.sbe.OrderType;
import io.warpbus.orderentry.sbe.Side;
import io.warpbus.orderentry.sbe.TimeInForce;
import io.warpbus.testing.Await;
import io.warpbus.testing.ThreadAllocation;
import io.warpbus.testing.WarmUpClock;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
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
 * queues as the adapters' senders would. A direct client of the engine (another route) trades too, and a drop-copy
 * session of alice's gets a copy of every fill of her accounts: of this gateway's from the core itself, of the
 * direct client's from the engine's drop-copy stream.
 * Measured by the JVM's per-thread allocation counter over windows of many round trips, after a warm-up.
 */
@Timeout(180)
class SessionCoreAllocationTest
{
    private static final int WARM_UP = 20_000;
    private static final int MEASURED = 5_000;
    private static final int MAX_WINDOWS = 6;
    /** Alice's order: new, partly filled, filled; bob's: new, filled. */
    private static final int REPORTS_A_ROUND = 5;
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
    private Connection aliceCopy;
    private long reports;
    private long marketData;
    private long copies;
    private ExclusivePublication directOrders;
    private final UnsafeBuffer directBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(128));
    private final NewOrderEncoder directOrder = new NewOrderEncoder();
    private final MessageHeaderEncoder directHeader = new MessageHeaderEncoder();
    private long directOrderId;
    private final MessageHandler drain = this::onEvent;
    private final MessageHandler drainCopies = this::onCopy;

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
            .dropCopyChannel(engine.dropCopy())
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
        aliceCopy = connections.acquire(1, "alice-copy");
        commands.logon(alice.index(), System.nanoTime(), null, credentials.directory().get("alice").index(), 60_000,
            -1, 0, 0, "alloc", "test");
        commands.logon(bob.index(), System.nanoTime(), null, credentials.directory().get("bob").index(), 60_000,
            -1, 0, 0, "alloc", "test");
        commands.logon(aliceCopy.index(), System.nanoTime(), null, credentials.directory().get("alice").index(),
            60_000, -1, 0, 0, "alloc-copy", "test", CommandDescriptor.LOGON_DROP_COPY);
        directOrders = bus.addExclusivePublication(engine.directOrderEntry());
        Await.until("the engine, both ways, its instruments and the direct client", 30_000, this::cycle,
            () -> core.isEngineConnected() && core.isEngineCaughtUp() && instruments.size() == 2 &&
            directOrders.isConnected());
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
        // Each round, two fills of alice's order and the direct client's fill on her second account.
        assertEquals(3 * (reports / REPORTS_A_ROUND), copies, "fills copied to alice's drop copy, against " + reports +
            " reports");
        assertEquals(2, zeroWindowsInARow, "bytes allocated per window of " + MEASURED + " rounds (a resting " +
            "order, two orders crossing it, five execution reports, three drop copies, two trades and their book " +
            "updates): " + windows);
    }

    /**
     * Each round: alice rests a buy of three lots, bob sells two into it, and once alice's order rests, the direct
     * client sells the third from alice's second account. Waits for each round's reports and copies.
     */
    private void trade(final CommandProxy commands, final int rounds)
    {
        for (int i = 0; i < rounds; i++)
        {
            final String id = IDS[i & (IDS.length - 1)];
            final long start = reports;
            final long expected = reports + REPORTS_A_ROUND;
            final long expectedCopies = copies + 3;
            while (!commands.newOrder(alice.index(), System.nanoTime(), null, id, GatewayFixtures.ALICE_ACCOUNT,
                GatewayFixtures.ACME.id(), "ACME", CommandDescriptor.BUY, CommandDescriptor.LIMIT,
                CommandDescriptor.GTC, false, 10_000, 2, 30))
            {
                cycle();
            }
            while (!commands.newOrder(bob.index(), System.nanoTime(), null, id, GatewayFixtures.BOB_ACCOUNT,
                GatewayFixtures.ACME.id(), "ACME", CommandDescriptor.SELL, CommandDescriptor.LIMIT,
                CommandDescriptor.IOC, false, 10_000, 2, 20))
            {
                cycle();
            }
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            // Alice's order's first report (it rests) comes before bob's, which follows it on the same stream.
            awaitRound(i, start + 1, 0, deadline);
            encodeDirectSell();
            while (directOrders.offer(directBuffer, 0, MessageHeaderEncoder.ENCODED_LENGTH +
                directOrder.encodedLength()) <= 0)
            {
                cycle();
            }
            awaitRound(i, expected, expectedCopies, deadline);
        }
    }

    private void awaitRound(final int round, final long minReports, final long minCopies, final long deadline)
    {
        while (reports < minReports || copies < minCopies)
        {
            cycle();
            Await.checkInterrupted();
            if (System.nanoTime() - deadline > 0)
            {
                throw new AssertionError("round " + round + " not answered: " + reports + " reports, " + copies +
                    " copies");
            }
        }
    }

    /**
     * The direct client's sell of one lot (ten units) from alice's second account, IOC, into alice's resting buy.
     */
    private void encodeDirectSell()
    {
        directOrder.wrapAndApplyHeader(directBuffer, 0, directHeader)
            .accountId(GatewayFixtures.ALICE_SECOND_ACCOUNT).instrumentId(GatewayFixtures.ACME.id())
            .clientOrderId(++directOrderId).side(Side.Sell).orderType(OrderType.Limit)
            .timeInForce(TimeInForce.ImmediateOrCancel).price(10_000).quantity(1).sendingTime(1);
    }

    private void cycle()
    {
        core.doWork();
        alice.outbound().read(drain, 64);
        bob.outbound().read(drain, 64);
        aliceCopy.outbound().read(drainCopies, 64);
    }

    private void onCopy(final int type, final DirectBuffer buffer, final int offset, final int length)
    {
        if (EventDescriptor.EXECUTION_REPORT == type)
        {
            copies++;
        }
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
