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

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

import io.warpbus.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code GET /api/admin/operations}, what the web page's operations view reads: admin only (a page's request with
 * {@code X-Requested-With} gets its 401 without a Basic challenge, so a browser shows no dialog), and after orders
 * went through a real engine, the per-second round trip and throughput, the engine link, the gateway's and the bus's
 * counters, the publication and its subscriber, the subscriptions with their policy and the sessions with their rates.
 */
@SpringBootTest(classes = GatewayApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@Timeout(120)
class OperationsEndpointTest extends GatewayTestBase
{
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final HttpClient http = HttpClient.newHttpClient();

    @DynamicPropertySource
    static void properties(final DynamicPropertyRegistry registry)
    {
        gatewayProperties(registry);
    }

    @Test
    void shouldKeepTheOperationsEndpointToTheAdminRole() throws Exception
    {
        assertEquals(401, get(null, false).statusCode(), "no credentials");
        assertEquals(403, get(basic("alice", "alice-pw"), false).statusCode(), "not an admin");
        final HttpResponse<String> fromPage = get(basic("admin", "wrong"), true);
        assertEquals(401, fromPage.statusCode(), "wrong password");
        assertFalse(fromPage.headers().firstValue("WWW-Authenticate").isPresent(),
            "no Basic challenge to a page's request: " + fromPage.headers().map());
        assertTrue(get(basic("admin", "wrong"), false).headers().firstValue("WWW-Authenticate").isPresent(),
            "a challenge to anyone else");
    }

    @Test
    void shouldShowLatencyThroughputCountersBusAndSessions() throws Exception
    {
        try (TestClient alice = client(); TestClient bob = client())
        {
            alice.logon("alice", "alice-pw");
            bob.logon("bob", "bob-pw");
            alice.request("{\"type\":\"subscribe\",\"instrument\":\"ACME\"}", "subscribed");
            final int from = alice.size();
            alice.send(OrderEntryTest.order("ops-1", GatewayFixtures.ALICE_ACCOUNT, "buy", "100.00", 10));
            bob.send(OrderEntryTest.order("ops-2", GatewayFixtures.BOB_ACCOUNT, "sell", "100.00", 10));
            alice.await(from, (m) -> "filled".equals(m.path("execType").asString()), "alice's fill");

            final JsonNode[] answer = new JsonNode[1];
            Await.until("a sample with the orders' round trip and rates", TestClient.TIMEOUT_MS, () -> Await.sleep(200),
                () ->
            {
                final HttpResponse<String> response = get(basic("admin", "admin-pw"), true);
                assertEquals(200, response.statusCode(), response.body());
                answer[0] = JSON.readTree(response.body());
                // The bus counters reach Micrometer on the binder's next refresh (every second), so the
                // engine's subscriber to the order publication may be listed a sample after the rates.
                // The engine's figures come from its HTTP side, sampled by the engine every two seconds.
                return hasValue(answer[0].path("series").path("rttP50Us")) &&
                    maximum(answer[0].path("series").path("ordersPerS")) > 0 &&
                    answer[0].path("publications").path(0).has("subscriber") &&
                    hasValue(answer[0].path("series").path("engineMatchP50Us")) &&
                    answer[0].path("matchingEngine").path("counters").path("trades").asLong() >= 1;
            });
            final JsonNode operations = answer[0];
            final JsonNode series = operations.path("series");
            final int samples = series.path("timeMs").size();
            for (final String name : new String[] { "rttP50Us", "rttP99Us", "rttMaxUs", "ownP50Us", "ordersPerS",
                "reportsPerS", "marketDataPerS", "busMessagesReceivedPerS", "backPressurePerS", "engineMatchP50Us",
                "engineMatchP99Us", "engineMatchP999Us", "engineOrdersPerS", "engineTradesPerS" })
            {
                assertEquals(samples, series.path(name).size(), name + " has a value or null per sample");
            }
            assertTrue(maximum(series.path("rttMaxUs")) >= maximum(series.path("rttP50Us")), series.toString());
            assertTrue(maximum(series.path("ordersPerS")) > 0, series.toString());

            assertTrue(operations.path("engine").path("engine connected").asBoolean(), operations.toString());
            final JsonNode matchingEngine = operations.path("matchingEngine");
            assertTrue(matchingEngine.path("error").isNull(), matchingEngine.toString());
            assertEquals(engine().engineUrl() + "stats.json", matchingEngine.path("source").asString());
            assertTrue(matchingEngine.path("counters").path("commands").asLong() >= 2, matchingEngine.toString());
            assertTrue(matchingEngine.path("counters").has("backPressureEvents"), matchingEngine.toString());
            assertTrue(maximum(series.path("engineMatchP99Us")) >= maximum(series.path("engineMatchP50Us")),
                series.toString());
            assertTrue(maximum(series.path("engineMatchP50Us")) < maximum(series.path("rttMaxUs")),
                "a match takes less than the gateway's whole round trip: " + series);
            assertTrue(maximum(series.path("engineOrdersPerS")) > 0, series.toString());
            assertTrue(operations.path("gateway").path("orders.sent").asLong() >= 2, operations.toString());
            assertTrue(operations.path("gateway").path("sessions.connected").asLong() >= 2, operations.toString());
            assertTrue(operations.path("bus").has("back.pressure.events"), operations.toString());
            assertTrue(operations.path("bus").has("slow.consumer.drops"), operations.toString());
            assertTrue(operations.path("rnic").size() > 0, operations.toString());

            final JsonNode publication = operations.path("publications").path(0);
            assertTrue(publication.path("position").asLong() > 0, operations.path("publications").toString());
            assertTrue(publication.path("subscriber").asString().contains("@"), publication.toString());
            assertTrue(publication.has("lag"), publication.toString());

            final JsonNode subscriptions = operations.path("subscriptions");
            assertEquals(4, subscriptions.size(), "reports, market data, snapshots, drop copy: " + subscriptions);
            assertEquals("drop copy", subscriptions.path(3).path("channel").asString());
            assertEquals("execution reports", subscriptions.path(0).path("channel").asString());
            assertEquals("market data", subscriptions.path(1).path("channel").asString());
            assertEquals("block", subscriptions.path(1).path("policy").asString());
            assertTrue(subscriptions.path(1).path("position").asLong() > 0, subscriptions.toString());

            boolean aliceListed = false;
            for (final JsonNode session : operations.path("sessions"))
            {
                if ("alice".equals(session.path("user").asString()))
                {
                    aliceListed = true;
                    assertEquals("connected", session.path("state").asString());
                    assertTrue(session.path("ageMs").asLong() >= 0, session.toString());
                    assertTrue(session.path("messagesInPerS").isNumber(), session.toString());
                    assertEquals(65536, session.path("queueCapacity").asInt(), session.toString());
                }
            }
            assertTrue(aliceListed, operations.path("sessions").toString());
        }
    }

    private static boolean hasValue(final JsonNode values)
    {
        for (final JsonNode value : values)
        {
            if (value.isNumber())
            {
                return true;
            }
        }
        return false;
    }

    private static double maximum(final JsonNode values)
    {
        double maximum = 0;
        for (final JsonNode value : values)
        {
            if (value.isNumber())
            {
                maximum = Math.max(maximum, value.asDouble());
            }
        }
        return maximum;
    }

    private HttpResponse<String> get(final String authorization, final boolean fromPage)
    {
        final HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port +
            "/api/admin/operations")).timeout(Duration.ofSeconds(10));
        if (null != authorization)
        {
            request.header("Authorization", authorization);
        }
        if (fromPage)
        {
            request.header("X-Requested-With", "XMLHttpRequest");
        }
        try
        {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        }
        catch (final Exception ex)
        {
            throw new IllegalStateException("GET /api/admin/operations: " + ex, ex);
        }
    }

    private static String basic(final String user, final String password)
    {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }
}
