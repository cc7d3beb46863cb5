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
package io.warpbus.gateway.admin;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import com.sun.net.httpserver.HttpServer;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.warpbus.gateway.metrics.GatewayMetrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The operations view's sampler: per-interval percentiles of the round trips recorded since the last sample, rates
 * from the counters' change, a ring of the last {@value OperationsSampler#CAPACITY} samples, oldest first, and the
 * matching engine's figures read from an HTTP server that answers as the engine's {@code stats.json} does.
 */
@Timeout(30)
class OperationsSamplerTest
{
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final GatewayMetrics metrics = new GatewayMetrics(null);

    @Test
    void shouldGiveTheIntervalsPercentilesAndNullForASecondWithoutOrders()
    {
        try (OperationsSampler sampler = new OperationsSampler(registry, metrics, 0))
        {
            for (int micros = 1; micros <= 1000; micros++)
            {
                metrics.onRoundTrip(micros * 1_000L, micros * 100L);
            }
            sampler.sample();
            sampler.sample();
            final Map<String, Object> series = sampler.series();
            final Double[] p50 = (Double[])series.get("rttP50Us");
            final Double[] p99 = (Double[])series.get("rttP99Us");
            final Double[] max = (Double[])series.get("rttMaxUs");
            final Double[] own = (Double[])series.get("ownP50Us");
            assertEquals(2, p50.length);
            assertEquals(500, p50[0], 1.0);
            assertEquals(990, p99[0], 1.0);
            assertEquals(1000, max[0], 1.0);
            assertEquals(50, own[0], 0.1);
            assertNull(p50[1], "nothing recorded in the second interval");
        }
    }

    @Test
    void shouldGiveRatesFromTheCountersChange()
    {
        final AtomicLong sent = new AtomicLong();
        FunctionCounter.builder("warpbus.gateway.orders.sent", sent, AtomicLong::get).register(registry);
        sent.addAndGet(7);
        final AtomicLong nowNs = new AtomicLong(1_000_000_000L);
        try (OperationsSampler sampler = new OperationsSampler(registry, metrics, 0, null,
            () -> 1_700_000_000_000L + nowNs.get() / 1_000_000, nowNs::get))
        {
            sent.addAndGet(20);
            nowNs.addAndGet(200_000_000L);
            sampler.sample();
            sent.addAndGet(50);
            nowNs.addAndGet(250_000_000L);
            sampler.sample();
            final Map<String, Object> series = sampler.series();
            final Double[] orders = (Double[])series.get("ordersPerS");
            assertEquals(100.0, orders[0], 1e-9, "the first sample counts from the sampler's start, not before it");
            assertEquals(200.0, orders[1], 1e-9);
            assertEquals(0.0, ((Double[])series.get("marketDataPerS"))[1], "a meter that is absent counts 0");
        }
    }

    @Test
    void shouldTimeTheRatesWhateverTheWallClockDoes()
    {
        final AtomicLong sent = new AtomicLong();
        FunctionCounter.builder("warpbus.gateway.orders.sent", sent, AtomicLong::get).register(registry);
        final AtomicLong wallMs = new AtomicLong(1_700_000_000_000L);
        final AtomicLong nowNs = new AtomicLong(5_000_000_000L);
        try (OperationsSampler sampler = new OperationsSampler(registry, metrics, 0, null, wallMs::get, nowNs::get))
        {
            final long[] wallSteps = { 1_000, -3_600_000, 7_200_000, 1_000 };
            for (final long step : wallSteps)
            {
                sent.addAndGet(500);
                nowNs.addAndGet(1_000_000_000L);
                wallMs.addAndGet(step);
                sampler.sample();
            }
            final Map<String, Object> series = sampler.series();
            final Double[] orders = (Double[])series.get("ordersPerS");
            final long[] timeMs = (long[])series.get("timeMs");
            for (int i = 0; i < wallSteps.length; i++)
            {
                assertEquals(500.0, orders[i], 1e-9, "sample " + i + " after a wall-clock step of " + wallSteps[i] +
                    " ms, one second apart on the monotonic clock");
            }
            assertEquals(1_700_000_000_000L + 1_000 - 3_600_000, timeMs[1], "samples are stamped by the wall clock");
        }
    }

    @Test
    void shouldKeepTheLastSamplesOldestFirst()
    {
        try (OperationsSampler sampler = new OperationsSampler(registry, metrics, 0))
        {
            for (int i = 0; i < OperationsSampler.CAPACITY + 5; i++)
            {
                metrics.onRoundTrip((i + 1) * 1_000L, 1_000L);
                sampler.sample();
            }
            final Map<String, Object> series = sampler.series();
            final long[] timeMs = (long[])series.get("timeMs");
            final Double[] max = (Double[])series.get("rttMaxUs");
            assertEquals(OperationsSampler.CAPACITY, timeMs.length);
            for (final String name : OperationsSampler.SERIES)
            {
                assertEquals(OperationsSampler.CAPACITY, ((Double[])series.get(name)).length, name);
            }
            for (int i = 1; i < timeMs.length; i++)
            {
                assertTrue(timeMs[i] >= timeMs[i - 1], "oldest first");
            }
            assertEquals(6, max[0], 0.01, "the five oldest samples are gone");
            assertEquals(OperationsSampler.CAPACITY + 5, max[max.length - 1], 0.5);
        }
    }

    private static final String ENGINE_STATS = "{\"commands\":120,\"trades\":40,\"reports\":200,\"rejects\":3," +
        "\"messageRejects\":0,\"ordersPerSecond\":12.5,\"tradesPerSecond\":4.0,\"matchP50Ns\":2100," +
        "\"matchP99Ns\":9800,\"matchP999Ns\":15000,\"matchTotalP50Ns\":2000,\"matchTotalP99Ns\":9000," +
        "\"matchTotalP999Ns\":14000,\"matchTotalMaxNs\":40000,\"backPressureEvents\":0," +
        "\"backPressuredMessages\":0,\"unsent\":0,\"unsentReports\":0,\"snapshotCycles\":17}";

    /**
     * An HTTP server on loopback whose {@code /stats.json} answers with a status and body the test sets.
     */
    private static HttpServer engine(final AtomicInteger status, final AtomicReference<String> body) throws IOException
    {
        final HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 4);
        server.createContext("/stats.json", (exchange) ->
        {
            final byte[] bytes = body.get().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status.get(), bytes.length);
            try (OutputStream out = exchange.getResponseBody())
            {
                out.write(bytes);
            }
        });
        server.start();
        return server;
    }

    private static URI address(final HttpServer server)
    {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
    }

    @Test
    void shouldRecordTheEnginesMatchLatencyAndKeepItsCounters() throws IOException
    {
        final AtomicInteger status = new AtomicInteger(200);
        final AtomicReference<String> body = new AtomicReference<>(ENGINE_STATS);
        final HttpServer server = engine(status, body);
        try (OperationsSampler sampler = new OperationsSampler(registry, metrics, 0,
            new EngineStatsReader(address(server), Duration.ofSeconds(2))))
        {
            sampler.sample();
            body.set(ENGINE_STATS.replace("\"ordersPerSecond\":12.5", "\"ordersPerSecond\":0.0"));
            sampler.sample();
            final Map<String, Object> series = sampler.series();
            assertEquals(2.1, ((Double[])series.get("engineMatchP50Us"))[0], 1e-9);
            assertEquals(9.8, ((Double[])series.get("engineMatchP99Us"))[0], 1e-9);
            assertEquals(15.0, ((Double[])series.get("engineMatchP999Us"))[0], 1e-9);
            assertEquals(12.5, ((Double[])series.get("engineOrdersPerS"))[0], 1e-9);
            assertEquals(4.0, ((Double[])series.get("engineTradesPerS"))[0], 1e-9);
            assertNull(((Double[])series.get("engineMatchP50Us"))[1], "an engine interval without commands");
            assertEquals(0.0, ((Double[])series.get("engineOrdersPerS"))[1], 1e-9);
            assertNull(sampler.engineError());
            assertEquals(address(server) + "stats.json", sampler.engineSource());
            assertEquals(120.0, sampler.engineCounters().get("commands"));
            assertEquals(17.0, sampler.engineCounters().get("snapshotCycles"));
            assertNull(sampler.engineCounters().get("matchP50Ns"), "the interval's figures are series, not counters");
        }
        finally
        {
            server.stop(0);
        }
    }

    @Test
    void shouldSayWhyTheEnginesFiguresAreMissingAndRecordNoValue() throws IOException
    {
        final AtomicInteger status = new AtomicInteger(503);
        final AtomicReference<String> body = new AtomicReference<>("{\"status\":\"DOWN\"}");
        final HttpServer server = engine(status, body);
        try (OperationsSampler sampler = new OperationsSampler(registry, metrics, 0,
            new EngineStatsReader(address(server), Duration.ofSeconds(2))))
        {
            sampler.sample();
            assertEquals("the engine at " + address(server) + "stats.json answered HTTP 503", sampler.engineError());
            assertTrue(sampler.engineCounters().isEmpty());
            assertNull(((Double[])sampler.series().get("engineMatchP50Us"))[0]);
            assertNull(((Double[])sampler.series().get("engineOrdersPerS"))[0]);

            status.set(200);
            body.set("<html>not the engine</html>");
            sampler.sample();
            assertTrue(sampler.engineError().startsWith("the engine's answer at " + address(server) +
                "stats.json is not JSON"), sampler.engineError());

            body.set("[1, 2]");
            sampler.sample();
            assertTrue(sampler.engineError().endsWith("is not a JSON object"), sampler.engineError());

            body.set(ENGINE_STATS);
            sampler.sample();
            assertNull(sampler.engineError(), "a good read clears the error");
            assertEquals(40.0, sampler.engineCounters().get("trades"));
        }
        finally
        {
            server.stop(0);
        }
        try (OperationsSampler sampler = new OperationsSampler(registry, metrics, 0,
            new EngineStatsReader(address(server), Duration.ofMillis(500))))
        {
            sampler.sample();
            assertTrue(sampler.engineError().startsWith("the engine at " + address(server) + "stats.json did not " +
                "answer"), sampler.engineError());
        }
    }

    @Test
    void shouldRefuseAnEngineAddressThatIsNotHttp()
    {
        final IllegalArgumentException scheme = assertThrows(IllegalArgumentException.class,
            () -> new OperationsProperties(URI.create("ftp://engine:9101/"), Duration.ofMillis(800)));
        assertEquals("warpbus.gateway.operations.engine-url must be an http or https address such as " +
            "http://engine:9101/, not ftp://engine:9101/", scheme.getMessage());
        assertThrows(IllegalArgumentException.class,
            () -> new OperationsProperties(URI.create("http:/stats"), Duration.ofMillis(800)));
        assertThrows(IllegalArgumentException.class,
            () -> new OperationsProperties(URI.create("http://engine:9101/"), Duration.ZERO));
        assertEquals("http://engine:9101/stats.json", new EngineStatsReader(URI.create("http://engine:9101"),
            Duration.ofMillis(800)).statsUri().toString(), "stats.json relative to the address, with or without /");
    }
}
