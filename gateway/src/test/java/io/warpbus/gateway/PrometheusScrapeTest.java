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
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import io.warpbus.testing.Await;
import io.warpbus.testing.FreePorts;
import io.warpbus.testing.RequiredTools;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real Prometheus server (Debian's {@code prometheus}) scrapes the gateway's {@code /actuator/prometheus}, and the
 * test reads a bus meter and a gateway meter back through Prometheus's HTTP query API.
 */
@SpringBootTest(classes = GatewayApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@Tag("prometheus")
@Timeout(120)
class PrometheusScrapeTest extends GatewayTestBase
{
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** One client for every query: a client per request leaves its connections open. */
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static volatile String lastAnswer;
    private Process prometheus;

    @DynamicPropertySource
    static void properties(final DynamicPropertyRegistry registry)
    {
        gatewayProperties(registry);
    }

    @AfterEach
    void stopPrometheus() throws InterruptedException, IOException
    {
        if (null != prometheus)
        {
            Files.createDirectories(Path.of("target"));
            Files.copy(dir.resolve("prometheus.log"), Path.of("target", "prometheus-scrape-test.log"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            prometheus.destroy();
            if (!prometheus.waitFor(10, TimeUnit.SECONDS))
            {
                prometheus.destroyForcibly();
            }
        }
    }

    @Test
    void shouldBeScrapedByARealPrometheus() throws Exception
    {
        RequiredTools.require("the Prometheus scrape test", "prometheus");
        try (TestClient alice = client())
        {
            alice.logon("alice", "alice-pw");
            final int prometheusPort = FreePorts.loopback();
            final Path config = dir.resolve("prometheus.yml");
            Files.writeString(config, "global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: gateway\n" +
                "    metrics_path: /actuator/prometheus\n    static_configs:\n      - targets: ['127.0.0.1:" + port +
                "']\n");
            prometheus = new ProcessBuilder(RequiredTools.find("prometheus"), "--config.file=" + config,
                "--storage.tsdb.path=" + dir.resolve("prometheus-data"),
                "--web.listen-address=127.0.0.1:" + prometheusPort)
                .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();

            final JsonNode[] result = new JsonNode[1];
            try
            {
                Await.until("Prometheus to have scraped the bus's meters", 60_000, PrometheusScrapeTest::pause, () ->
                {
                    result[0] = query(prometheusPort,
                        "warpbus_bus_messages_sent_total{application=\"warpbus-gateway\"}");
                    return null != result[0] && result[0].size() > 0;
                });
            }
            catch (final AssertionError ex)
            {
                throw new AssertionError(ex.getMessage() + "; targets: " + get(prometheusPort, "/api/v1/targets") +
                    "; last answer: " + lastAnswer, ex);
            }
            final JsonNode sample = result[0].path(0);
            assertEquals("gateway", sample.path("metric").path("job").asString(), sample.toString());
            assertEquals("gateway-test", sample.path("metric").path("bus").asString(), sample.toString());
            assertTrue(Double.parseDouble(sample.path("value").path(1).asString()) > 0, sample.toString());

            final JsonNode logons = query(prometheusPort, "warpbus_gateway_logons_total");
            assertTrue(null != logons && logons.size() > 0 &&
                Double.parseDouble(logons.path(0).path("value").path(1).asString()) >= 1, "logons: " + logons);
        }
    }

    private static void pause()
    {
        try
        {
            Thread.sleep(200);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    private static JsonNode query(final int port, final String promql)
    {
        final String body = get(port, "/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
        return null == body ? null : JSON.readTree(body).path("data").path("result");
    }

    private static String get(final int port, final String path)
    {
        try
        {
            final HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(
                "http://127.0.0.1:" + port + path)).timeout(java.time.Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
            lastAnswer = response.statusCode() + " " + response.body();
            return 200 == response.statusCode() ? response.body() : null;
        }
        catch (final IOException ex)
        {
            lastAnswer = ex.toString();
            return null;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }
}
