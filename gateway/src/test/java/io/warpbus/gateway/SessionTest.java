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

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sessions: both kinds of logon and every way one fails, heartbeats and the silence timeout, logout, and a session
 * resumed on a new connection with what it missed resent, nothing lost and nothing twice.
 */
@SpringBootTest(classes = GatewayApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@Timeout(120)
class SessionTest extends GatewayTestBase
{
    @Autowired
    GatewayCounters counters;

    @DynamicPropertySource
    static void properties(final DynamicPropertyRegistry registry)
    {
        gatewayProperties(registry);
        // Failures from these tests must not throttle the others: they all come from 127.0.0.1.
        registry.add("warpbus.gateway.logon.max-failures", () -> "1000");
    }

    @Test
    void shouldAnswerAClientsPingsBeforeAndAfterLogon()
    {
        // Pongs must leave a quiet socket at once, whichever server answers the pings.
        try (RawWebSocket client = new RawWebSocket(wsPort(), 64 * 1024))
        {
            client.ping(new byte[] { 1, 2, 3 });
            assertArrayEquals(new byte[] { 1, 2, 3 }, client.readPong(), "the pong before logon");
            client.send("{\"type\":\"logon\",\"username\":\"bob\",\"password\":\"bob-pw\"}");
            assertEquals("logon", client.read().path("type").asString());
            client.ping(new byte[] { 9 });
            assertArrayEquals(new byte[] { 9 }, client.readPong(), "the pong after logon");
        }
    }

    @Test
    void shouldRefuseWrongPasswordsAndUnknownUsersAlikeAndCountThem()
    {
        final long badPassword = counters.value(GatewayCounterDescriptor.LOGON_FAILED_BAD_PASSWORD);
        final long unknownUser = counters.value(GatewayCounterDescriptor.LOGON_FAILED_UNKNOWN_USER);
        try (TestClient client = client())
        {
            final JsonNode refused = client.logon("alice", "not-alice-pw");
            assertEquals("logonRejected", refused.path("type").asString(), refused.toString());
            assertEquals(0, refused.path("seq").asLong());
            assertEquals("unknown user or wrong password", refused.path("reason").asString());
            assertEquals(1008, client.awaitClose());
        }
        try (TestClient client = client())
        {
            final JsonNode refused = client.logon("mallory", "whatever");
            assertEquals("unknown user or wrong password", refused.path("reason").asString(),
                "an unknown user is not told apart from a wrong password");
            client.awaitClose();
        }
        assertEquals(badPassword + 1, counters.value(GatewayCounterDescriptor.LOGON_FAILED_BAD_PASSWORD));
        assertEquals(unknownUser + 1, counters.value(GatewayCounterDescriptor.LOGON_FAILED_UNKNOWN_USER));
    }

    @Test
    void shouldCheckApiKeySignaturesTimestampsAndNonces()
    {
        final long now = System.currentTimeMillis();
        try (TestClient client = client())
        {
            final JsonNode refused = client.logonWithKey(GatewayFixtures.BOB_KEY, "wrong secret of 32 bytes ......"
                .getBytes(java.nio.charset.StandardCharsets.US_ASCII), now, "nonce-bad-signature-1");
            assertEquals("bad signature", refused.path("reason").asString(), refused.toString());
        }
        try (TestClient client = client())
        {
            final JsonNode refused = client.logonWithKey(GatewayFixtures.BOB_KEY, GatewayFixtures.BOB_SECRET,
                now - 120_000, "nonce-stale-timestamp-1");
            assertTrue(refused.path("reason").asString().startsWith("timestamp "), refused.toString());
        }
        try (TestClient client = client())
        {
            final JsonNode refused = client.logonWithKey("AK-NOBODY-01", GatewayFixtures.BOB_SECRET, now,
                "nonce-unknown-key-0001");
            assertEquals("unknown API key", refused.path("reason").asString(), refused.toString());
        }
        try (TestClient first = client(); TestClient replay = client())
        {
            final JsonNode accepted = first.logonWithKey(GatewayFixtures.BOB_KEY, GatewayFixtures.BOB_SECRET, now,
                "nonce-used-once-00001");
            assertEquals("logon", accepted.path("type").asString(), accepted.toString());
            final JsonNode replayed = replay.logonWithKey(GatewayFixtures.BOB_KEY, GatewayFixtures.BOB_SECRET, now,
                "nonce-used-once-00001");
            assertEquals("nonce already used: a logon cannot be replayed", replayed.path("reason").asString());
            assertTrue(counters.value(GatewayCounterDescriptor.LOGON_FAILED_REPLAYED_NONCE) >= 1);
        }
    }

    @Test
    void shouldAnswerOnlyALogonBeforeOneAndRefuseASecond()
    {
        try (TestClient client = client())
        {
            client.sendRaw("{\"type\":\"openOrders\"}");
            final JsonNode error = client.awaitType("error");
            assertEquals("notLoggedOn", error.path("code").asString(), error.toString());
            assertEquals(0, error.path("seq").asLong());
            client.logon("alice", "alice-pw");
            final JsonNode second = client.request("{\"type\":\"logon\",\"username\":\"alice\",\"password\":\"x\"}",
                "error");
            assertEquals("alreadyLoggedOn", second.path("code").asString(), second.toString());
            assertTrue(second.path("seq").asLong() > 1, "answered on the session: " + second);
        }
    }

    @Test
    void shouldNegotiateTheHeartbeatAndEndASilentSession()
    {
        final long timeouts = counters.value(GatewayCounterDescriptor.HEARTBEAT_TIMEOUTS);
        try (TestClient client = client())
        {
            client.send("{\"type\":\"logon\",\"username\":\"alice\",\"password\":\"alice-pw\",\"heartbeatMs\":100}");
            final JsonNode logon = client.awaitType("logon");
            assertEquals(1000, logon.path("heartbeatMs").asLong(), "raised to the shortest interval allowed");
            final JsonNode heartbeat = client.awaitType("heartbeat");
            assertTrue(heartbeat.path("seq").asLong() > 1);
            final JsonNode test = client.awaitType("testRequest");
            assertEquals("silence", test.path("testId").asString());
            final JsonNode logout = client.awaitType("logout");
            assertTrue(logout.path("reason").asString().startsWith("heartbeat timeout"), logout.toString());
            assertEquals(4001, client.awaitClose());
        }
        assertEquals(timeouts + 1, counters.value(GatewayCounterDescriptor.HEARTBEAT_TIMEOUTS));
    }

    @Test
    void shouldKeepASessionThatAnswersTestRequests() throws InterruptedException
    {
        try (TestClient client = client())
        {
            client.send("{\"type\":\"logon\",\"username\":\"alice\",\"password\":\"alice-pw\",\"heartbeatMs\":1000}");
            client.awaitType("logon");
            final JsonNode answer = client.request("{\"type\":\"testRequest\",\"testId\":\"ping-1\"}", "heartbeat");
            assertEquals("ping-1", answer.path("testId").asString(), answer.toString());
            final long deadline = System.currentTimeMillis() + 3_500;
            while (System.currentTimeMillis() < deadline)
            {
                client.send("{\"type\":\"heartbeat\"}");
                Thread.sleep(300);
            }
            assertFalse(client.isClosed(), "a client that heartbeats stays connected");
            assertEquals(0, client.ofType("logout").size());
        }
    }

    @Test
    void shouldLogOutCleanlyAndNotResumeAnEndedSession()
    {
        final String token;
        try (TestClient client = client())
        {
            token = client.logon("alice", "alice-pw").path("session").asString();
            final JsonNode logout = client.request("{\"type\":\"logout\"}", "logout");
            assertEquals("logout", logout.path("reason").asString());
            assertEquals(1000, client.awaitClose());
        }
        try (TestClient client = client())
        {
            client.send("{\"type\":\"logon\",\"username\":\"alice\",\"password\":\"alice-pw\",\"resume\":{" +
                "\"token\":\"" + token + "\",\"fromSeq\":2}}");
            final JsonNode refused = client.awaitType("logonRejected");
            assertEquals("cannot resume: unknown, ended or expired session", refused.path("reason").asString());
        }
    }

    @Test
    void shouldResumeOnANewConnectionWithWhatWasMissedResentInOrder()
    {
        try (TestClient bob = client())
        {
            bob.logon("bob", "bob-pw");
            final JsonNode logon;
            final long lastSeen;
            final String sell = "resume-sell-1";
            try (TestClient alice = client())
            {
                logon = alice.logon("alice", "alice-pw");
                alice.request(OrderEntryTest.order(sell, GatewayFixtures.ALICE_ACCOUNT, "sell", "105.00", 30),
                    "executionReport");
                lastSeen = alice.received().get(alice.size() - 1).path("seq").asLong();
            }
            // Alice is gone; her order fills twice while she is away.
            bob.request(OrderEntryTest.order("resume-buy-1", GatewayFixtures.BOB_ACCOUNT, "buy", "105.00", 10),
                "executionReport");
            bob.send(OrderEntryTest.order("resume-buy-2", GatewayFixtures.BOB_ACCOUNT, "buy", "105.00", 20));
            bob.await((m) -> "filled".equals(m.path("execType").asString()) &&
                "resume-buy-2".equals(m.path("clOrdId").asString()), "bob's second fill");

            try (TestClient alice = client())
            {
                alice.send("{\"type\":\"logon\",\"username\":\"alice\",\"password\":\"alice-pw\",\"resume\":{" +
                    "\"token\":\"" + logon.path("session").asString() + "\",\"fromSeq\":" + (lastSeen + 1) + "}}");
                final JsonNode resumed = alice.awaitType("logon");
                assertTrue(resumed.path("resumed").asBoolean(), resumed.toString());
                assertEquals(lastSeen + 1, resumed.path("resend").path("from").asLong(), resumed.toString());
                final long to = resumed.path("resend").path("to").asLong();
                assertEquals(lastSeen + 2, to, "two fills missed");
                alice.await((m) -> to == m.path("seq").asLong(), "the resend");
                final JsonNode first = alice.received().get(1);
                final JsonNode second = alice.received().get(2);
                assertEquals(lastSeen + 1, first.path("seq").asLong());
                assertEquals("partiallyFilled", first.path("execType").asString(), first.toString());
                assertEquals(10, first.path("cumQuantity").asLong());
                assertEquals("filled", second.path("execType").asString(), second.toString());
                assertEquals(30, second.path("cumQuantity").asLong());
                assertEquals(sell, second.path("clOrdId").asString());
                // Live again after the resend, numbering on from the logon's.
                final JsonNode open = alice.request("{\"type\":\"openOrders\"}", "openOrders");
                assertEquals(resumed.path("seq").asLong() + 1, open.path("seq").asLong(), open.toString());
                assertEquals(3, alice.ofType("executionReport").size() + alice.ofType("logon").size(),
                    "nothing twice: " + alice.received());
            }
        }
    }
}
