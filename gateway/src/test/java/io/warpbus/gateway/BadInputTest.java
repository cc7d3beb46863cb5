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

import io.warpbus.gateway.session.GatewayCounterDescriptor;
import io.warpbus.gateway.session.GatewayCounters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bad input from clients: each kind of malformed, unknown, incomplete, mistyped or oversized message gets an error
 * naming the problem and the session stays up; repeated abuse ends the connection with a reason; and nothing the
 * gateway had accepted is lost when a client misbehaves.
 */
@SpringBootTest(classes = GatewayApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@Timeout(120)
class BadInputTest extends GatewayTestBase
{
    @Autowired
    GatewayCounters counters;

    @DynamicPropertySource
    static void properties(final DynamicPropertyRegistry registry)
    {
        gatewayProperties(registry);
        registry.add("warpbus.gateway.sessions.protocol-error-limit", () -> "15");
    }

    @Test
    void shouldNameWhatIsWrongWithEachBadMessageAndKeepTheSession()
    {
        try (TestClient client = client())
        {
            client.logon("alice", "alice-pw");
            assertError(client, "this is not JSON", "malformed", "malformed JSON");
            assertError(client, "[1,2,3]", "malformed", "a message must be a JSON object");
            assertError(client, "{\"type\":\"buyEverything\",\"reqId\":\"q1\"}", "unknownType",
                "unknown message type 'buyEverything'");
            assertError(client, "{\"type\":\"newOrder\",\"clOrdId\":\"x1\",\"account\":101,\"instrument\":\"ACME\"," +
                "\"side\":\"buy\",\"price\":\"100.00\"}", "missingField", "missing field 'quantity'");
            assertError(client, "{\"type\":\"cancelOrder\",\"clOrdId\":\"x1\",\"colour\":\"red\"}", "unknownField",
                "unknown field 'colour'");
            assertError(client, "{\"type\":\"newOrder\",\"clOrdId\":\"x1\",\"account\":101,\"instrument\":\"ACME\"," +
                "\"side\":\"buy\",\"price\":\"100.00\",\"quantity\":\"ten\"}", "wrongType", "field 'quantity'");
            assertError(client, "{\"type\":\"newOrder\",\"clOrdId\":\"x1\",\"account\":101,\"instrument\":\"ACME\"," +
                "\"side\":\"buy\",\"price\":100.5,\"quantity\":10}", "wrongType", "field 'price'");
            assertError(client, "{\"type\":\"newOrder\",\"clOrdId\":\"x1\",\"account\":101,\"instrument\":\"ACME\"," +
                "\"side\":\"up\",\"price\":\"100.00\",\"quantity\":10}", "invalidValue", "field 'side'");
            assertError(client, "{\"type\":\"cancelOrder\",\"clOrdId\":\"has spaces\"}", "invalidValue",
                "field 'clOrdId'");
            assertError(client, "{\"type\":\"newOrder\",\"clOrdId\":\"x1\",\"account\":101,\"instrument\":\"ACME\"," +
                "\"side\":\"buy\",\"price\":\"1e5\",\"quantity\":10}", "invalidValue", "field 'price'");
            assertError(client, "{\"type\":\"cancelOrder\",\"clOrdId\":\"a\",\"clOrdId\":\"b\"}", "malformed",
                "Duplicate");
            assertError(client, "{\"type\":\"openOrders\",\"reqId\":\"" + "x".repeat(5000) + "\"}", "tooLarge",
                "the limit is 4096");
            final int from = client.size();
            client.sendParts("{\"type\":\"openOrders\",", "\"reqId\":\"" + "y".repeat(3000), "y".repeat(3000) + "\"}");
            final JsonNode split = client.awaitType(from, "error");
            assertEquals("tooLarge", split.path("code").asString(), "a message in parts counts whole: " + split);

            final JsonNode open = client.request("{\"type\":\"openOrders\",\"reqId\":\"still-here\"}", "openOrders");
            assertEquals("still-here", open.path("reqId").asString(), "the session stays up: " + open);
            assertFalse(client.isClosed());
            OrderEntryTest.assertSequential(client);
        }
    }

    @Test
    void shouldCloseAConnectionThatKeepsSendingBadMessagesButKeepWhatItHadAccepted()
    {
        final long abuse = counters.value(GatewayCounterDescriptor.ABUSE_DISCONNECTS);
        try (TestClient bob = client())
        {
            bob.logon("bob", "bob-pw");
            final JsonNode logon;
            final long lastSeq;
            try (TestClient alice = client())
            {
                logon = alice.logon("alice", "alice-pw");
                alice.request(OrderEntryTest.order("abuse-1", GatewayFixtures.ALICE_ACCOUNT, "sell", "100.00", 10),
                    "executionReport");
                bob.send(OrderEntryTest.order("abuse-buy", GatewayFixtures.BOB_ACCOUNT, "buy", "100.00", 10));
                final JsonNode fill = alice.await((m) -> "filled".equals(m.path("execType").asString()), "the fill");
                lastSeq = fill.path("seq").asLong() - 1;
                for (int i = 0; i < 30 && !alice.isClosed(); i++)
                {
                    alice.sendRaw("{garbage " + i);
                }
                assertEquals(4004, alice.awaitClose());
                final JsonNode logout = alice.awaitType("logout");
                assertTrue(logout.path("reason").asString().startsWith("too many bad messages"), logout.toString());
            }
            assertEquals(abuse + 1, counters.value(GatewayCounterDescriptor.ABUSE_DISCONNECTS));
            try (TestClient alice = client())
            {
                alice.send("{\"type\":\"logon\",\"username\":\"alice\",\"password\":\"alice-pw\",\"resume\":{" +
                    "\"token\":\"" + logon.path("session").asString() + "\",\"fromSeq\":" + (lastSeq + 1) + "}}");
                final JsonNode fill = alice.await((m) -> "filled".equals(m.path("execType").asString()),
                    "the fill, resent");
                assertEquals("abuse-1", fill.path("clOrdId").asString(), "nothing accepted was lost: " + fill);
            }
        }
    }

    @Test
    void shouldCloseAConnectionThatSendsGarbageBeforeLoggingOn()
    {
        try (TestClient client = client())
        {
            for (int i = 0; i < 5; i++)
            {
                client.sendRaw("garbage " + i);
            }
            assertEquals(1008, client.awaitClose());
            assertEquals(5, client.ofType("error").size(), client.received().toString());
            for (final JsonNode error : client.ofType("error"))
            {
                assertEquals(0, error.path("seq").asLong(), "no session yet: " + error);
            }
        }
    }

    private static void assertError(final TestClient client, final String message, final String code,
        final String text)
    {
        final int from = client.size();
        client.sendRaw(message);
        final JsonNode error = client.awaitType(from, "error");
        assertEquals(code, error.path("code").asString(), message + " -> " + error);
        assertTrue(error.path("text").asString().contains(text), message + " -> " + error);
        assertTrue(error.path("seq").asLong() > 1, "an error on the session has its sequence number: " + error);
    }
}
