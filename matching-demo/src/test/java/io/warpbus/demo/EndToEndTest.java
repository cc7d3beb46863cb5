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

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import io.warpbus.bus.Bus;
import io.warpbus.bus.Subscription;
import io.warpbus.demo.client.LoadClient;
import io.warpbus.demo.service.EngineService;
import io.warpbus.demo.service.EngineStats;
import io.warpbus.demo.service.MetricsServer;
import io.warpbus.demo.subscriber.L2Book;
import io.warpbus.demo.subscriber.MarketDataClient;
import io.warpbus.matching.Instrument;
import io.warpbus.matching.load.LoadProfile;
import io.warpbus.testing.Await;
import org.agrona.CloseHelper;
import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine service, the load client and two market-data subscribers over the iWARP bus on loopback, in one
 * process on one thread ({@code INVOKER} buses): every command is answered, no execution report is missing, and
 * every book rebuilt from market data equals the engine's book, for a subscriber there from the start and for one
 * that joins half way through from the snapshot stream. The metrics endpoint serves what happened.
 */
@Timeout(120)
class EndToEndTest
{
    private static final int COMMANDS = 30_000;
    private static final int INSTRUMENTS = 3;

    @TempDir
    Path dir;
    private EngineRig rig;
    private EngineService engine;
    private LoadClient client;
    private MetricsServer metrics;

    @AfterEach
    void close()
    {
        CloseHelper.quietCloseAll(metrics, rig);
    }

    @Test
    void shouldAnswerEveryCommandAndRebuildEveryBookFromMarketData() throws Exception
    {
        rig = new EngineRig(dir);
        final DemoRig channels = rig.channels;
        final Bus clientBus = rig.clientBus;
        final LoadProfile profile = LoadProfile.tradingDay(INSTRUMENTS, 7).commandsPerSecond(200_000);
        engine = new EngineService(rig.context(profile).snapshotIntervalNs(TimeUnit.MILLISECONDS.toNanos(20)));
        client = new LoadClient(
            clientBus, channels.orders, channels.reports, profile, COMMANDS, SystemNanoClock.INSTANCE);
        final MarketDataClient early = new MarketDataClient();
        final Subscription earlyIncremental = clientBus.addSubscription(channels.marketData);
        final Subscription earlySnapshots = clientBus.addSubscription(channels.snapshots);
        final MarketDataClient late = new MarketDataClient();
        Subscription lateIncremental = null;
        Subscription lateSnapshots = null;

        while (!earlyIncremental.isConnected())
        {
            Await.checkInterrupted();
            engine.doWork();
            client.doWork();
        }
        while (!client.isDone())
        {
            Await.checkInterrupted();
            engine.doWork();
            client.doWork();
            earlySnapshots.poll(early.snapshotHandler(), 256);
            earlyIncremental.poll(early.incrementalHandler(), 256);
            if (null == lateIncremental && client.sent() > COMMANDS / 2)
            {
                lateIncremental = clientBus.addSubscription(channels.marketData);
                lateSnapshots = clientBus.addSubscription(channels.snapshots);
            }
            if (null != lateIncremental)
            {
                lateSnapshots.poll(late.snapshotHandler(), 256);
                lateIncremental.poll(late.incrementalHandler(), 256);
            }
        }
        // Let market data drain, the late joiner take a snapshot of the final state, and the early subscriber compare
        // a snapshot taken at rest with its book.
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() - deadline < 0 &&
            !(allEqual(early, profile) && allEqual(late, profile) && early.snapshotChecks() >= INSTRUMENTS))
        {
            Await.checkInterrupted();
            engine.doWork();
            client.doWork();
            earlySnapshots.poll(early.snapshotHandler(), 256);
            earlyIncremental.poll(early.incrementalHandler(), 256);
            lateSnapshots.poll(late.snapshotHandler(), 256);
            lateIncremental.poll(late.incrementalHandler(), 256);
        }

        final int prefill = INSTRUMENTS * profile.prefillQuotesPerInstrument();
        assertEquals(COMMANDS + prefill, client.sent(), "commands sent");
        assertEquals(client.sent(), client.acked(), "every command answered once");
        assertEquals(client.sent(), engine.counters().commands(), "every command reached the engine");
        assertEquals(0, client.execIdGaps(), "execution reports missing");
        assertEquals(engine.lastExecId(), client.reports(), "every execution report received");
        assertEquals(0, client.messageRejects());
        assertEquals(0, client.unexpectedRejects(),
            () -> "only unknown-order, post-only and filled-quantity rejections expected: " + rejectReasons());
        assertTrue(engine.counters().trades() > COMMANDS / 20, "trades: " + engine.counters().trades());
        assertEquals(engine.counters().trades(), early.trades(), "trades on market data");
        assertEquals(0, early.gaps(), "sequence gaps");
        assertEquals(0, early.crossedBooks(), "crossed books");
        assertEquals(0, early.snapshotMismatches(), "snapshots that disagreed with the incrementals");
        assertTrue(early.snapshotChecks() >= INSTRUMENTS, "snapshots compared: " + early.snapshotChecks());
        assertTrue(late.syncs() >= INSTRUMENTS, "late joiner synced from snapshots: " + late.syncs());
        assertEquals(0, late.gaps(), "late joiner's sequence gaps");
        for (final Instrument instrument : profile.instruments())
        {
            final L2Book expected = L2Book.of(engine.engine().book(instrument.id()), instrument.lotSize());
            assertTrue(expected.levelCount(io.warpbus.matching.Side.BUY) > 0, "a book with depth");
            assertEquals(expected.describe(), early.book(instrument.id()).describe(),
                "book of " + instrument.symbol() + " rebuilt from market data from the start");
            assertEquals(expected.describe(), late.book(instrument.id()).describe(),
                "book of " + instrument.symbol() + " rebuilt by the late joiner");
        }

        assertMetricsServed();
    }

    private void assertMetricsServed() throws Exception
    {
        final EngineStats stats = new EngineStats(engine, System.nanoTime());
        final boolean[] healthy = {true};
        metrics = new MetricsServer(new java.net.InetSocketAddress("127.0.0.1", 0), engine, stats)
            .busCounters(rig.engineBus.countersFile(), "engine")
            .diskSpace(dir)
            .health(() -> healthy[0]);
        stats.sample(System.nanoTime());
        final String base = "http://127.0.0.1:" + metrics.address().getPort();
        final HttpClient http = HttpClient.newHttpClient();
        final String scrape = get(http, base + "/metrics");
        assertTrue(scrape.contains("warpbus_engine_trades_total " + engine.counters().trades()),
            "trades in the Prometheus scrape:\n" + scrape);
        assertTrue(scrape.contains("warpbus_engine_match_latency_seconds{quantile=\"0.99\"}"), scrape);
        assertTrue(get(http, base + "/stats.json").contains("\"trades\":" + engine.counters().trades()));
        assertTrue(get(http, base + "/").contains("WarpBus matching engine"));
        // The engine's bus counters and its journal's disk, under the names the gateway and the recorder use.
        assertTrue(scrape.contains("warpbus_bus_messages_sent_total{bus=\"engine\"}"), scrape);
        assertTrue(scrape.contains("warpbus_publication_position{"), scrape);
        assertTrue(scrape.contains("disk_free_bytes{path="), scrape);
        assertEquals(200, status(http, base + "/health"));
        healthy[0] = false;
        assertEquals(503, status(http, base + "/health"));
    }

    private String rejectReasons()
    {
        final StringBuilder builder = new StringBuilder();
        for (final io.warpbus.orderentry.RejectReason reason : io.warpbus.orderentry.RejectReason.values())
        {
            if (client.rejects(reason.code()) > 0)
            {
                builder.append(reason).append('=').append(client.rejects(reason.code())).append(' ');
            }
        }
        return builder.toString();
    }

    private boolean allEqual(final MarketDataClient md, final LoadProfile profile)
    {
        for (final Instrument instrument : profile.instruments())
        {
            final L2Book book = md.book(instrument.id());
            if (null == book || !md.isSynced(instrument.id()) ||
                !L2Book.of(engine.engine().book(instrument.id()), instrument.lotSize()).sameAs(book))
            {
                return false;
            }
        }
        return true;
    }

    private static int status(final HttpClient http, final String url) throws Exception
    {
        return http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(url))
            .timeout(java.time.Duration.ofSeconds(5)).build(), java.net.http.HttpResponse.BodyHandlers.discarding())
            .statusCode();
    }

    private static String get(final HttpClient http, final String url) throws Exception
    {
        final HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url)).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), url);
        return response.body();
    }
}
