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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The operators' side: the admin REST API and the actuator behind the admin role, health with its liveness and
 * readiness groups, and the Prometheus scrape with the gateway's, the bus's and the engine link's meters.
 */
@SpringBootTest(classes = GatewayApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@Timeout(120)
class OperationsTest extends GatewayTestBase
{
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final HttpClient http = HttpClient.newHttpClient();

    @DynamicPropertySource
    static void properties(final DynamicPropertyRegistry registry)
    {
        gatewayProperties(registry);
    }

    @Test
    void shouldKeepTheAdminApiAndTheActuatorToTheAdminRole() throws Exception
    {
        assertEquals(401, get("/api/admin/sessions", null).statusCode(), "no credentials");
        assertEquals(401, get("/api/admin/sessions", basic("admin", "wrong")).statusCode(), "wrong password");
        assertEquals(403, get("/api/admin/sessions", basic("alice", "alice-pw")).statusCode(), "not an admin");
        assertEquals(403, get("/actuator/metrics", basic("alice", "alice-pw")).statusCode());
        assertEquals(200, get("/actuator/metrics", basic("admin", "admin-pw")).statusCode());
        assertEquals(200, get("/actuator/prometheus", null).statusCode(), "Prometheus scrapes without credentials");
        assertEquals(403, get("/somewhere/else", basic("admin", "admin-pw")).statusCode(), "nothing else is open");
    }

    @Test
    void shouldListEndAndBlockSessions() throws Exception
    {
        try (TestClient alice = client(); TestClient carol = client())
        {
            final String token = alice.logon("alice", "alice-pw").path("session").asString();
            alice.request("{\"type\":\"subscribe\",\"instrument\":\"ACME\"}", "subscribed");
            carol.logon("carol", "carol-pw");

            final HttpResponse<String> list = get("/api/admin/sessions", basic("admin", "admin-pw"));
            assertEquals(200, list.statusCode(), list.body());
            final JsonNode sessions = JSON.readTree(list.body());
            JsonNode mine = null;
            for (final JsonNode session : sessions)
            {
                if (token.equals(session.path("token").asString()))
                {
                    mine = session;
                }
            }
            assertTrue(null != mine, "alice's session is listed: " + list.body());
            assertEquals("alice", mine.path("user").asString());
            assertEquals("connected", mine.path("state").asString());
            assertEquals("[\"ACME\"]", mine.path("subscriptions").toString());
            assertTrue(mine.path("address").asString().startsWith("127.0.0.1:"), mine.toString());

            final HttpResponse<String> ended = send("DELETE", "/api/admin/sessions/" + token + "?reason=maintenance",
                basic("admin", "admin-pw"));
            assertEquals(200, ended.statusCode(), ended.body());
            final JsonNode logout = alice.awaitType("logout");
            assertEquals("maintenance", logout.path("reason").asString(), logout.toString());
            alice.awaitClose();
            assertEquals(404, send("DELETE", "/api/admin/sessions/" + token, basic("admin", "admin-pw"))
                .statusCode(), "an ended session is gone");

            final HttpResponse<String> blocked = send("POST", "/api/admin/users/carol/block",
                basic("admin", "admin-pw"));
            assertEquals(200, blocked.statusCode(), blocked.body());
            assertEquals(1, JSON.readTree(blocked.body()).path("sessionsEnded").asInt());
            assertEquals("user blocked by an operator", carol.awaitType("logout").path("reason").asString());
            try (TestClient again = client())
            {
                assertEquals("logonRejected", again.logon("carol", "carol-pw").path("type").asString());
            }
            assertEquals(401, get("/api/admin/sessions", basic("carol", "carol-pw")).statusCode(),
                "a blocked user cannot use HTTP either");
            assertEquals(200, send("DELETE", "/api/admin/users/carol/block", basic("admin", "admin-pw")).statusCode());
            try (TestClient again = client())
            {
                assertEquals("logon", again.logon("carol", "carol-pw").path("type").asString(), "unblocked");
            }
            assertEquals(404, send("POST", "/api/admin/users/nobody/block", basic("admin", "admin-pw")).statusCode());
        }
    }

    @Test
    void shouldHaltAnInstrumentAtTheGateway() throws Exception
    {
        try (TestClient alice = client())
        {
            alice.logon("alice", "alice-pw");
            assertEquals(200, send("POST", "/api/admin/instruments/BETA/halt", basic("admin", "admin-pw"))
                .statusCode());
            final JsonNode refused = alice.request(OrderEntryTest.order("halted-1", GatewayFixtures.ALICE_ACCOUNT,
                "buy", "49.00", 1).replace("ACME", "BETA"), "executionReport");
            assertEquals(503, refused.path("reason").asInt(), refused.toString());
            assertEquals(200, send("DELETE", "/api/admin/instruments/BETA/halt", basic("admin", "admin-pw"))
                .statusCode());
            final JsonNode accepted = alice.request(OrderEntryTest.order("halted-2", GatewayFixtures.ALICE_ACCOUNT,
                "buy", "49.00", 1).replace("ACME", "BETA"), "executionReport");
            assertEquals("new", accepted.path("execType").asString(), accepted.toString());
            alice.request("{\"type\":\"cancelOrder\",\"clOrdId\":\"halted-2\"}", "executionReport");
        }
    }

    @Test
    void shouldReportHealthWithLivenessAndReadinessGroups() throws Exception
    {
        Await.until("the gateway to be ready", TestClient.TIMEOUT_MS,
            () -> get("/actuator/health/readiness", null).statusCode() == 200);
        final JsonNode anonymous = JSON.readTree(get("/actuator/health", null).body());
        assertEquals("UP", anonymous.path("status").asString(), anonymous.toString());
        assertTrue(anonymous.path("components").isMissingNode(), "no details without the admin role: " + anonymous);
        final JsonNode notAdmin = JSON.readTree(get("/actuator/health", basic("alice", "alice-pw")).body());
        assertTrue(notAdmin.path("components").isMissingNode(), "no details for a trader: " + notAdmin);
        final JsonNode health = JSON.readTree(get("/actuator/health", basic("admin", "admin-pw")).body());
        assertEquals("UP", health.path("status").asString(), health.toString());
        assertEquals("UP", health.path("components").path("engine").path("status").asString(), health.toString());
        assertTrue(health.path("components").path("engine").path("details").path("caughtUp").asBoolean());
        assertEquals("UP", health.path("components").path("journal").path("status").asString());
        assertEquals("UP", health.path("components").path("sessionCore").path("status").asString());
        final JsonNode trading = health.path("components").path("tradingServer");
        assertEquals("UP", trading.path("status").asString(), health.toString());
        assertEquals(wsPort(), trading.path("details").path("port").asInt());
        assertEquals("gateway-nio-ws", trading.path("details").path("thread").asString(), trading.toString());
        final JsonNode liveness = JSON.readTree(get("/actuator/health/liveness", null).body());
        assertEquals("UP", liveness.path("status").asString(), liveness.toString());
    }

    @Test
    void shouldExportTheGatewaysAndTheBussMetersToPrometheus() throws Exception
    {
        try (TestClient alice = client())
        {
            alice.logon("alice", "alice-pw");
            alice.request(OrderEntryTest.order("metrics-1", GatewayFixtures.ALICE_ACCOUNT, "buy", "90.00", 10),
                "executionReport");
            alice.request("{\"type\":\"cancelOrder\",\"clOrdId\":\"metrics-1\"}", "executionReport");
            final String[] scrape = new String[1];
            Await.until("the meters", TestClient.TIMEOUT_MS, () ->
            {
                scrape[0] = get("/actuator/prometheus", null).body();
                return scrape[0].contains("warpbus_gateway_order_round_trip_seconds_count") &&
                    scrape[0].contains("warpbus_subscriber_lag");
            });
            final String text = scrape[0];
            for (final String meter : new String[] {
                "warpbus_gateway_logons_total", "warpbus_gateway_sessions_connected",
                "warpbus_gateway_logon_failures_total{", "warpbus_gateway_orders_sent_total",
                "warpbus_gateway_conflated_updates_total", "warpbus_gateway_rate_limit_rejects_total",
                "warpbus_gateway_order_round_trip_seconds_bucket{",
                "warpbus_gateway_order_round_trip_recent_seconds{", "warpbus_bus_messages_sent_total",
                "warpbus_publication_position{", "warpbus_rnic_fpdus_sent_total{", "application=\"warpbus-gateway\"" })
            {
                assertTrue(text.contains(meter), meter + " in the scrape");
            }
            assertTrue(text.contains("quantile=\"0.99\""), "round-trip percentiles");
            final double total = sample(text, "warpbus_gateway_order_round_trip_seconds_sum");
            final double own = sample(text, "warpbus_gateway_order_processing_seconds_sum");
            assertEquals(sample(text, "warpbus_gateway_order_round_trip_seconds_count"),
                sample(text, "warpbus_gateway_order_processing_seconds_count"), "one of each per request");
            assertTrue(own > 0 && own < total, "the gateway's own time is a part of the round trip: " + own +
                " of " + total);
        }
    }

    private static double sample(final String scrape, final String name)
    {
        for (final String line : scrape.split("\n"))
        {
            if (line.startsWith(name + "{") || line.startsWith(name + " "))
            {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        throw new AssertionError(name + " not in the scrape");
    }

    private HttpResponse<String> get(final String path, final String authorization)
    {
        return send("GET", path, authorization);
    }

    private HttpResponse<String> send(final String method, final String path, final String authorization)
    {
        final HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .method(method, HttpRequest.BodyPublishers.noBody());
        if (null != authorization)
        {
            request.header("Authorization", authorization);
        }
        try
        {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        }
        catch (final java.io.IOException ex)
        {
            throw new java.io.UncheckedIOException(ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    private static String basic(final String user, final String password)
    {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }
}
