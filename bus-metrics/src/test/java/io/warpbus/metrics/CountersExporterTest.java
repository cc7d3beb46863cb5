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

    @AfterEach
    void close()
    {
        CloseHelper.quietCloseAll(exporter, bus);
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
