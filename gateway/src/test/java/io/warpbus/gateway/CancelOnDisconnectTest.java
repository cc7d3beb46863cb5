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

import java.util.List;
import java.util.function.Consumer;

import io.warpbus.gateway.session.GatewayCounterDescriptor;
import io.warpbus.gateway.session.GatewayCounters;
import io.warpbus.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * With cancel-on-disconnect, a session's live orders are cancelled however its connection ends: the client going
 * away, or the gateway ending a silent session. The session resumes and finds the cancels among what it missed.
 */
@SpringBootTest(classes = GatewayApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@Timeout(120)
class CancelOnDisconnectTest extends GatewayTestBase
{
    @Autowired
    GatewayCounters counters;

    @DynamicPropertySource
    static void properties(final DynamicPropertyRegistry registry)
    {
        gatewayProperties(registry);
        registry.add("warpbus.gateway.sessions.cancel-on-disconnect", () -> "true");
    }

    @Test
    void shouldCancelTheOrdersOfAClientThatWentAway()
    {
        shouldCancelOnDisconnect("gone", TestClient::close);
    }

    @Test
    void shouldCancelTheOrdersOfASessionTheGatewayEndedForSilence()
    {
        shouldCancelOnDisconnect("silent", (client) ->
        {
            final JsonNode logout = client.awaitType("logout");
            assertTrue(logout.path("reason").asString().startsWith("heartbeat timeout"), logout.toString());
        });
    }

    /**
     * Carol's order fills alice's while the gateway's own cancel of it (alice went away) is on its way: the engine
     * rejects that cancel after the fill. The gateway takes the reject itself; alice, resuming, finds her fill and
     * no answer to a request she never made.
     */
    @Test
    void shouldKeepTheAnswerToItsOwnCancelThatCrossedAFill()
    {
        final String token;
        final long lastSeen;
        final long unroutable = counters.value(GatewayCounterDescriptor.UNROUTABLE_REPORTS);
        final long engineRejects = counters.value(GatewayCounterDescriptor.ENGINE_REJECTS);
        try (TestClient carol = client())
        {
            carol.logon("carol", "carol-pw");
            final TestClient alice = client();
            token = alice.logon("alice", "alice-pw").path("session").asString();
            final JsonNode resting = alice.request(OrderEntryTest.order("own-1", GatewayFixtures.ALICE_ACCOUNT,
                "sell", "101.00", 10), "executionReport");
            lastSeen = resting.path("seq").asLong();
            final long sent = counters.value(GatewayCounterDescriptor.ORDERS_SENT);
            final long connected = counters.value(GatewayCounterDescriptor.SESSIONS_CONNECTED);
            engine().pause(true);
            try
            {
                carol.send(OrderEntryTest.ioc("own-ioc", GatewayFixtures.CAROL_ACCOUNT, "buy", "101.00", 10));
                Await.until("carol's order on its way to the engine", TestClient.TIMEOUT_MS,
                    () -> counters.value(GatewayCounterDescriptor.ORDERS_SENT) == sent + 1);
                alice.close();
                // The gateway sends its cancel as it detaches the session, before it counts the session gone.
                Await.until("alice's session detached and her order's cancel sent", TestClient.TIMEOUT_MS,
                    () -> counters.value(GatewayCounterDescriptor.SESSIONS_CONNECTED) == connected - 1);
            }
            finally
            {
                engine().pause(false);
            }
            Await.until("the engine's reject of the gateway's cancel", TestClient.TIMEOUT_MS,
                () -> counters.value(GatewayCounterDescriptor.ENGINE_REJECTS) == engineRejects + 1);
        }
        try (TestClient alice = client())
        {
            alice.send("{\"type\":\"logon\",\"username\":\"alice\",\"password\":\"alice-pw\",\"resume\":{" +
                "\"token\":\"" + token + "\",\"fromSeq\":" + (lastSeen + 1) + "}}");
            assertTrue(alice.awaitType("logon").path("resumed").asBoolean(), alice.received().toString());
            alice.await((m) -> "filled".equals(m.path("execType").asString()), "her fill among what was missed");
            // Anything resent comes before the answer to a request made after the logon.
            alice.request("{\"type\":\"openOrders\"}", "openOrders");
            final List<JsonNode> reports = alice.ofType("executionReport");
            assertEquals(1, reports.size(), "the fill alone: " + alice.received());
            assertEquals("own-1", reports.get(0).path("clOrdId").asString(), reports.toString());
        }
        assertEquals(unroutable, counters.value(GatewayCounterDescriptor.UNROUTABLE_REPORTS));
    }

    private void shouldCancelOnDisconnect(final String name, final Consumer<TestClient> disconnect)
    {
        final String token;
        final long lastSeen;
        try (TestClient alice = client())
        {
            alice.send("{\"type\":\"logon\",\"username\":\"alice\",\"password\":\"alice-pw\",\"heartbeatMs\":1000}");
            token = alice.awaitType("logon").path("session").asString();
            final JsonNode resting = alice.request(OrderEntryTest.order(name + "-1", GatewayFixtures.ALICE_ACCOUNT,
                "sell", "110.00", 10), "executionReport");
            assertEquals("new", resting.path("execType").asString(), resting.toString());
            lastSeen = resting.path("seq").asLong();
            disconnect.accept(alice);
        }
        try (TestClient alice = client())
        {
            alice.send("{\"type\":\"logon\",\"username\":\"alice\",\"password\":\"alice-pw\",\"resume\":{" +
                "\"token\":\"" + token + "\",\"fromSeq\":" + (lastSeen + 1) + "}}");
            final JsonNode resumed = alice.awaitType("logon");
            assertTrue(resumed.path("resumed").asBoolean(), resumed.toString());
            final JsonNode cancelled = alice.await((m) -> "executionReport".equals(m.path("type").asString()),
                "the cancel among what was missed");
            assertEquals(name + "-1", cancelled.path("clOrdId").asString(), cancelled.toString());
            assertEquals("cancelled", cancelled.path("execType").asString(), cancelled.toString());
            final JsonNode open = alice.request("{\"type\":\"openOrders\"}", "openOrders");
            assertEquals(0, open.path("orders").size(), "nothing left live: " + open);
        }
    }
}
