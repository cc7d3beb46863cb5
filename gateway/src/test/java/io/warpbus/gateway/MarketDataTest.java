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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Market data to apps: a book on subscribe, then increments and trades with a per-instrument sequence that rebuild
 * the same book a late subscriber is given; entitlements; and a client too slow to read, which gets conflated books
 * (counted) while the fast clients' updates keep arriving in order, and is disconnected if it stays behind.
 */
@SpringBootTest(classes = GatewayApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@Timeout(180)
class MarketDataTest extends GatewayTestBase
{
    @Autowired
    GatewayCounters counters;

    @DynamicPropertySource
    static void properties(final DynamicPropertyRegistry registry)
    {
        gatewayProperties(registry);
        registry.add("warpbus.gateway.sessions.socket-send-buffer", () -> "8192");
        registry.add("warpbus.gateway.sessions.slow-consumer-timeout", () -> "3s");
        registry.add("warpbus.gateway.sessions.max-open-orders", () -> "10000");
        floodProperties(registry);
    }

    @Test
    void shouldGiveABookThenIncrementsThatRebuildWhatALateSubscriberIsGiven()
    {
        try (TestClient early = client(); TestClient bob = client())
        {
            early.logon("alice", "alice-pw");
            bob.logon("bob", "bob-pw");
            final JsonNode subscribed = early.request("{\"type\":\"subscribe\",\"instrument\":\"BETA\"," +
                "\"reqId\":\"s1\"}", "subscribed");
            assertEquals("s1", subscribed.path("reqId").asString());
            final JsonNode first = early.awaitType("book");
            assertEquals("subscribed", first.path("reason").asString(), first.toString());

            for (int i = 0; i < 20; i++)
            {
                bob.send(beta("md-" + i, i % 2 == 0 ? "buy" : "sell", i % 2 == 0 ? "49.0" + (i % 10) : "51.0" +
                    (i % 10), 5 + i));
            }
            Await.until("bob's answers", TestClient.TIMEOUT_MS,
                () -> bob.ofType("executionReport").size() >= 20);
            // Another account takes bob's offers: bob's own would be cancelled to prevent a self-trade.
            early.send(beta("md-cross", "buy", "51.09", 100).replace("\"account\":" + GatewayFixtures.BOB_ACCOUNT,
                "\"account\":" + GatewayFixtures.ALICE_ACCOUNT));
            final long lastMdSeq = early.await((m) -> "trade".equals(m.path("type").asString()), "a trade")
                .path("mdSeq").asLong();
            assertTrue(lastMdSeq > 0);

            try (TestClient late = client())
            {
                late.logon("admin", "admin-pw");
                late.request("{\"type\":\"subscribe\",\"instrument\":\"BETA\"}", "subscribed");
                final JsonNode snapshot = late.awaitType("book");
                final ClientBook rebuilt = new ClientBook("BETA");
                early.await((m) -> m.path("mdSeq").asLong() >= snapshot.path("mdSeq").asLong() &&
                    "BETA".equals(m.path("instrument").asString()), "the early client at the snapshot's sequence");
                for (final JsonNode message : early.received())
                {
                    if (message.path("mdSeq").asLong() <= snapshot.path("mdSeq").asLong())
                    {
                        rebuilt.apply(message);
                    }
                }
                final ClientBook given = new ClientBook("BETA");
                given.apply(snapshot);
                assertEquals(0, rebuilt.gaps(), "increments arrive with consecutive sequences");
                assertEquals(given.levels(), rebuilt.levels(), "the increments rebuild the late subscriber's book");
                assertEquals(snapshot.path("mdSeq").asLong(), rebuilt.mdSeq());
            }
            final JsonNode unsubscribed = early.request("{\"type\":\"unsubscribe\",\"instrument\":\"BETA\"}",
                "unsubscribed");
            assertEquals("BETA", unsubscribed.path("instrument").asString());
            final JsonNode twice = early.request("{\"type\":\"unsubscribe\",\"instrument\":\"BETA\"}", "error");
            assertEquals("subscriptionState", twice.path("code").asString(), twice.toString());
        }
    }

    @Test
    void shouldOnlyShowAUserTheInstrumentsItIsEntitledTo()
    {
        try (TestClient carol = client())
        {
            carol.logon("carol", "carol-pw");
            final JsonNode list = carol.request("{\"type\":\"instruments\"}", "instruments");
            assertEquals(1, list.path("instruments").size(), list.toString());
            final JsonNode acme = list.path("instruments").path(0);
            assertEquals("ACME", acme.path("symbol").asString());
            assertEquals("0.05", acme.path("tickSize").asString());
            assertEquals(10, acme.path("lotSize").asLong());
            assertEquals(10_000, acme.path("maxQuantity").asLong());
            final JsonNode refused = carol.request("{\"type\":\"subscribe\",\"instrument\":\"BETA\"}", "error");
            assertEquals("unknownInstrument", refused.path("code").asString(), refused.toString());
            assertTrue(refused.path("text").asString().endsWith("BETA"), refused.toString());
            final JsonNode unknown = carol.request("{\"type\":\"subscribe\",\"instrument\":\"ZZZ\"}", "error");
            assertEquals("unknownInstrument", unknown.path("code").asString());
        }
    }

    @Test
    void shouldConflateASlowClientWithoutHoldingUpTheFastOnes() throws InterruptedException
    {
        try (TestClient fast = client(); RawWebSocket slow = new RawWebSocket(wsPort(), 4096);
            TestClient bob = client())
        {
            // The longest heartbeat allowed: these clients do not heartbeat, and the test outlasts the default.
            fast.send("{\"type\":\"logon\",\"username\":\"alice\",\"password\":\"alice-pw\"," +
                "\"heartbeatMs\":60000}");
            fast.awaitType("logon");
            bob.logon("bob", "bob-pw");
            // The slow client never speaks either, and must be ended as slow, not as silent.
            slow.send("{\"type\":\"logon\",\"username\":\"admin\",\"password\":\"admin-pw\"," +
                "\"heartbeatMs\":60000}");
            assertEquals("logon", slow.read().path("type").asString());
            fast.request("{\"type\":\"subscribe\",\"instrument\":\"ACME\"}", "subscribed");
            fast.awaitType("book");
            slow.send("{\"type\":\"subscribe\",\"instrument\":\"ACME\"}");
            slow.readUntil((m) -> "book".equals(m.path("type").asString()));
            final long conflatedBefore = counters.value(GatewayCounterDescriptor.CONFLATED_UPDATES);

            // The slow client reads nothing now: its socket fills, then its queue, then it is conflated.
            // No more than it takes: the slow-consumer timeout (3 s) runs from the first conflated update.
            final int orders = 1500;
            final int sent = flood(bob, orders, "slow-a",
                () -> counters.value(GatewayCounterDescriptor.CONFLATED_UPDATES) > conflatedBefore);
            assertTrue(sent < orders, "conflated after " + sent + " orders");
            final JsonNode conflated = slow.readUntil((m) -> "conflated".equals(m.path("reason").asString()));
            assertEquals("book", conflated.path("type").asString(), conflated.toString());

            final ClientBook fastBook = new ClientBook("ACME");
            fast.await((m) -> m.path("mdSeq").asLong() >= conflated.path("mdSeq").asLong() &&
                "ACME".equals(m.path("instrument").asString()), "the fast client at the conflated book's sequence");
            for (final JsonNode message : fast.received())
            {
                if (message.path("mdSeq").asLong() <= conflated.path("mdSeq").asLong())
                {
                    fastBook.apply(message);
                }
            }
            assertEquals(0, fastBook.gaps(), "the fast client got every update in order");
            assertTrue(fastBook.updates() > 100, "updates the fast client got: " + fastBook.updates());
            final ClientBook slowBook = new ClientBook("ACME");
            slowBook.apply(conflated);
            assertEquals(fastBook.levels(), slowBook.levels(), "the conflated book is the latest state");

            // Stay behind for longer than the slow-consumer timeout: disconnected with the reason.
            final long slowDisconnects = counters.value(GatewayCounterDescriptor.SLOW_CONSUMER_DISCONNECTS);
            flood(bob, orders, "slow-b");
            Thread.sleep(4_000);
            flood(bob, 100, "slow-c");
            Await.until("the slow client's disconnect", TestClient.TIMEOUT_MS,
                () -> counters.value(GatewayCounterDescriptor.SLOW_CONSUMER_DISCONNECTS) > slowDisconnects);
            assertNull(slow.readUntil((m) -> false), "the connection ends");
            // With its socket still full, the close frame cannot get past what is queued: the TCP connection ends.
            assertTrue(1008 == slow.closeCode() && slow.closeReason().startsWith("slow consumer") ||
                1006 == slow.closeCode(), "closed as a slow consumer: " + slow.closeCode() + " " + slow.closeReason());
            assertFalse(fast.isClosed(), "the fast client is unaffected: " + fast.closeReason());
            fast.checkSchema();
        }
    }

    /**
     * Bob's resting orders, in batches he reads the answers of: a client must read its own reports, or its queue
     * fills and it is disconnected to resume later.
     */
    private static void flood(final TestClient bob, final int orders, final String prefix)
    {
        flood(bob, orders, prefix, () -> false);
    }

    /**
     * As many as {@code orders}, stopping at the first batch after which {@code enough} holds.
     *
     * @return how many were sent.
     */
    static int flood(final TestClient bob, final int orders, final String prefix,
        final java.util.function.BooleanSupplier enough)
    {
        final int before = bob.ofType("executionReport").size();
        int count = orders;
        for (int i = 0; i < orders; i++)
        {
            if (i % 50 == 0)
            {
                final int sent = i;
                Await.until("bob's answers", TestClient.TIMEOUT_MS,
                    () -> bob.ofType("executionReport").size() >= before + sent);
                if (i > 0 && enough.getAsBoolean())
                {
                    count = i;
                    break;
                }
            }
            // Resting orders on both sides, each a new level or a change: one book update each.
            final String side = i % 2 == 0 ? "buy" : "sell";
            final String price = i % 2 == 0 ? "9" + (i % 10) + ".00" : "10" + (5 + i % 5) + ".00";
            bob.send("{\"type\":\"newOrder\",\"clOrdId\":\"" + prefix + "-" + i + "\",\"account\":" +
                GatewayFixtures.BOB_ACCOUNT + ",\"instrument\":\"ACME\",\"side\":\"" + side + "\",\"price\":\"" +
                price + "\",\"quantity\":10}");
        }
        final int sent = count;
        Await.until("bob's answers", TestClient.TIMEOUT_MS,
            () -> bob.ofType("executionReport").size() >= before + sent);
        return sent;
    }

    private static String beta(final String clientOrderId, final String side, final String price,
        final long quantity)
    {
        return "{\"type\":\"newOrder\",\"clOrdId\":\"" + clientOrderId + "\",\"account\":" +
            GatewayFixtures.BOB_ACCOUNT + ",\"instrument\":\"BETA\",\"side\":\"" + side + "\",\"price\":\"" + price +
            "\",\"quantity\":" + quantity + "}";
    }
}
