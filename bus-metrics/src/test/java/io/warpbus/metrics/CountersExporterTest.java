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
package io.warpbus.metrics;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.warpbus.bus.Bus;
import io.warpbus.bus.BusContext;
import io.warpbus.iwarp.ThreadingMode;
import io.warpbus.testing.Await;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The exporter over a real bus's counters file, scraped over HTTP: the bus's meters and the disk's, health while
 * the bus lives and after it closes, and bad options explained.
 */
@Timeout(60)
class CountersExporterTest
{
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path dir;
    private Bus bus;
    private CountersExporter exporter;

    private volatile boolean driving;
    private Thread driver;

    @AfterEach
    void close() throws InterruptedException
    {
        stopDriving();
        CloseHelper.quietCloseAll(exporter, bus);
    }

    private static BusContext context(final Path root, final String name, final long clockOffsetMs)
    {
        return new BusContext().directory(root).name(name).threadingMode(ThreadingMode.INVOKER)
            .epochClock(() -> System.currentTimeMillis() + clockOffsetMs);
    }

    private void startDriving()
    {
        driving = true;
        driver = new Thread(() ->
        {
            while (driving)
            {
                bus.doWork();
                Thread.onSpinWait();
            }
        }, "bus-driver");
        driver.setDaemon(true);
        driver.start();
    }

    private void stopDriving() throws InterruptedException
    {
        driving = false;
        if (null != driver)
        {
            driver.join(5_000);
            assertTrue(!driver.isAlive(), "the bus driver did not stop");
            driver = null;
        }
    }

    @Test
    void shouldServeALiveBussCountersAndDropThemWhenItCloses() throws Exception
    {
        final Path root = dir.resolve("shm");
        bus = Bus.launch(new BusContext().directory(root).name("record-1").threadingMode(ThreadingMode.INVOKER));
        bus.doWork();
        exporter = CountersExporter.start(new String[] {"--root", root.toString(), "--disk", dir.toString(),
            "--listen", "127.0.0.1:0", "--interval-ms", "100"}, System.err);

        assertEquals(1, exporter.busCount());
        final HttpResponse<String> metrics = get("/metrics");
        assertEquals(200, metrics.statusCode());
        assertTrue(metrics.body().contains("warpbus_bus_messages_sent_total{application=\"warpbus-recorder\"," +
            "bus=\"record-1\"}"), metrics.body());
        assertTrue(metrics.body().contains("disk_free_bytes{"), metrics.body());
        assertTrue(metrics.body().contains("warpbus_exporter_buses{application=\"warpbus-recorder\"} 1.0"),
            metrics.body());
        assertEquals(200, get("/health").statusCode());

        bus.close();
        bus = null;
        Await.until("the closed bus to be dropped", 10_000, () -> 0 == exporter.busCount());
        final HttpResponse<String> health = get("/health");
        assertEquals(503, health.statusCode());
        assertTrue(health.body().contains("\"buses\":0"), health.body());
        assertTrue(!get("/metrics").body().contains("bus=\"record-1\""));
    }

    /**
     * A bus whose heartbeats read an hour behind the exporter's clock, as every live bus's do for a moment after the
     * host's clock steps forward. The exporter times the heartbeat's changing on its own monotonic clock, so it
     * exports the bus once it is heard and keeps it through more than one liveness timeout (5 s).
     */
    @Test
    void shouldExportALiveBusWhateverItsClockSays() throws Exception
    {
        final Path root = dir.resolve("shm");
        bus = Bus.launch(context(root, "behind", -TimeUnit.HOURS.toMillis(1)));
        startDriving();
        exporter = CountersExporter.start(new String[] {"--root", root.toString(), "--listen", "127.0.0.1:0",
            "--interval-ms", "100"}, System.err);

        Await.until("the bus to be exported", 10_000, () -> 1 == exporter.busCount());
        final long endNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(6_500);
        while (System.nanoTime() - endNs < 0)
        {
            assertEquals(1, exporter.busCount(), "a live bus was dropped");
            Thread.sleep(50);
        }
        assertEquals(200, get("/health").statusCode());
    }

    /**
     * A bus whose heartbeats read an hour ahead of the exporter's clock, as a bus that died just before the host's
     * clock stepped back does. When it stops beating it is dropped after the liveness timeout, not an hour later; it
     * stays dropped while its heartbeat stands still, and comes back when it beats again.
     */
    @Test
    void shouldDropABusThatStopsBeatingWhateverItsClockSays() throws Exception
    {
        final Path root = dir.resolve("shm");
        bus = Bus.launch(context(root, "ahead", TimeUnit.HOURS.toMillis(1)));
        bus.doWork();
        startDriving();
        exporter = CountersExporter.start(new String[] {"--root", root.toString(), "--listen", "127.0.0.1:0",
            "--interval-ms", "100"}, System.err);
        assertEquals(1, exporter.busCount());

        stopDriving();
        final long stoppedNs = System.nanoTime();
        Await.until("the silent bus to be dropped", 15_000, () -> 0 == exporter.busCount());
        final long silentMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stoppedNs);
        assertTrue(silentMs >= 4_000, "dropped after " + silentMs + " ms, before the liveness timeout");
        assertEquals(503, get("/health").statusCode());
        Thread.sleep(500);
        assertEquals(0, exporter.busCount(), "a bus whose heartbeat stands still was exported again");

        startDriving();
        Await.until("the bus beating again to be exported again", 10_000, () -> 1 == exporter.busCount());
    }

    @Test
    void shouldExplainBadOptions() throws IOException
    {
        for (final List<String> args : List.of(List.of("--listen", "127.0.0.1:0"),
            List.of("--root", dir.toString(), "--listen", "nohost"),
            List.of("--root", dir.toString(), "--disk", dir.resolve("missing").toString()),
            List.of("--root", dir.toString(), "--interval-ms", "-5"),
            List.of("--root"),
            List.of("--bogus", "1")))
        {
            final ByteArrayOutputStream err = new ByteArrayOutputStream();
            assertNull(CountersExporter.start(args.toArray(new String[0]), new PrintStream(err, true,
                StandardCharsets.UTF_8)), args.toString());
            final String message = err.toString(StandardCharsets.UTF_8);
            assertTrue(message.startsWith("warpbus metrics: ") && message.contains("usage:"), message);
        }
    }

    private HttpResponse<String> get(final String path) throws IOException, InterruptedException
    {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + exporter.address().getPort() +
            path)).timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
