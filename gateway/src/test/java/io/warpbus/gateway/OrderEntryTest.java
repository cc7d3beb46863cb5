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

import io.warpbus.gateway.session.GatewayCounterDescriptor;
import io.warpbus.gateway.session.GatewayCounters;
import io.warpbus.testing.Await;
import io.warpbus.orderentry.RejectReason;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Orders through the gateway to a real engine: accepted, amended, cancelled, filled against another user's order,
 * and every refusal the gateway makes itself, each answered with the client's order id, a reason code and a text.
 */
@SpringBootTest(classes = GatewayApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@Timeout(120)
class OrderEntryTest extends GatewayTestBase
{
    private static int nextOrder;

    @Autowired
    GatewayCounters counters;

    @DynamicPropertySource
    static void properties(final DynamicPropertyRegistry registry)
    {
        gatewayProperties(registry);
    }

    @Test
    void shouldAcceptAmendAndCancelAnOrder()
    {
        try (TestClient alice = client())
        {
            final JsonNode logon = alice.logon("alice", "alice-pw");
            assertEquals("logon", logon.path("type").asString(), logon.toString());
            assertEquals(1, logon.path("seq").asLong());
            assertEquals("[101,102]", logon.path("accounts").toString());

            final String id = id("amend");
            final JsonNode accepted = alice.request(order(id, GatewayFixtures.ALICE_ACCOUNT, "buy", "99.00", 10),
                "executionReport");
            assertEquals(id, accepted.path("clOrdId").asString());
            assertEquals("new", accepted.path("execType").asString(), accepted.toString());
            assertEquals("new", accepted.path("orderStatus").asString());
            assertEquals("99.00", accepted.path("price").asString());
            assertEquals(10, accepted.path("leavesQuantity").asLong());
            assertTrue(accepted.path("orderId").asLong() > 0);

            final JsonNode replaced = alice.request("{\"type\":\"replaceOrder\",\"clOrdId\":\"" + id +
                "\",\"price\":\"98.50\",\"quantity\":30}", "executionReport");
            assertEquals("replaced", replaced.path("execType").asString(), replaced.toString());
            assertEquals("98.50", replaced.path("price").asString());
            assertEquals(30, replaced.path("quantity").asLong());

            final JsonNode open = alice.request("{\"type\":\"openOrders\",\"reqId\":\"r1\"}", "openOrders");
            assertEquals("r1", open.path("reqId").asString());
            assertEquals(1, open.path("orders").size(), open.toString());
            assertEquals(id, open.path("orders").path(0).path("clOrdId").asString());

            final JsonNode cancelled = alice.request("{\"type\":\"cancelOrder\",\"clOrdId\":\"" + id + "\"}",
                "executionReport");
            assertEquals("cancelled", cancelled.path("execType").asString(), cancelled.toString());
            assertEquals("cancelled", cancelled.path("orderStatus").asString());
            assertEquals(0, cancelled.path("leavesQuantity").asLong());
            assertEquals(0, alice.request("{\"type\":\"openOrders\"}", "openOrders").path("orders").size());
            assertSequential(alice);
        }
    }

    @Test
    void shouldFillAgainstAnotherUsersOrderAndReportBothSides()
    {
        try (TestClient alice = client(); TestClient bob = client())
        {
            alice.logon("alice", "alice-pw");
            final JsonNode bobLogon = bob.logonWithKey(GatewayFixtures.BOB_KEY, GatewayFixtures.BOB_SECRET,
                System.currentTimeMillis(), "nonce-fill-0000001");
            assertEquals("logon", bobLogon.path("type").asString(), bobLogon.toString());
            assertEquals("bob", bobLogon.path("user").asString());

            final String sell = id("sell");
            alice.request(order(sell, GatewayFixtures.ALICE_ACCOUNT, "sell", "101.00", 50), "executionReport");
            final String buy = id("buy");
            final int from = bob.size();
            bob.send(order(buy, GatewayFixtures.BOB_ACCOUNT, "buy", "101.00", 20));
            final JsonNode bobFill = bob.await(from, (m) -> "filled".equals(m.path("execType").asString()),
                "bob's fill");
            assertEquals(buy, bobFill.path("clOrdId").asString());
            assertEquals(20, bobFill.path("lastQuantity").asLong(), bobFill.toString());
            assertEquals("101.00", bobFill.path("lastPrice").asString());
            assertEquals("101", bobFill.path("avgPrice").asString());
            final JsonNode aliceFill = alice.await((m) -> "partiallyFilled".equals(m.path("execType").asString()),
                "alice's fill");
            assertEquals(sell, aliceFill.path("clOrdId").asString());
            assertEquals(20, aliceFill.path("cumQuantity").asLong(), aliceFill.toString());
            assertEquals(30, aliceFill.path("leavesQuantity").asLong());
            for (final JsonNode report : alice.ofType("executionReport"))
            {
                assertEquals(sell, report.path("clOrdId").asString(), "only alice's own orders: " + report);
            }
            alice.request("{\"type\":\"cancelOrder\",\"clOrdId\":\"" + sell + "\"}", "executionReport");
        }
    }

    /**
     * Bob's order fills alice's while her cancel (or replace) of it is on its way: the engine fills it, then answers
     * her request with a reject after the order's last report. The gateway has finished with the order by then and
     * must still route that answer to her, with the order as it ended.
     */
    @ParameterizedTest
    @ValueSource(strings = { "cancelOrder", "replaceOrder" })
    void shouldAnswerARequestThatCrossesTheFillOfItsOrder(final String request)
    {
        try (TestClient alice = client(); TestClient bob = client())
        {
            alice.logon("alice", "alice-pw");
            bob.logonWithKey(GatewayFixtures.BOB_KEY, GatewayFixtures.BOB_SECRET, System.currentTimeMillis(),
                "nonce-cross-" + request);
            final String sell = id("crossed");
            alice.request(order(sell, GatewayFixtures.ALICE_ACCOUNT, "sell", "101.00", 10), "executionReport");
            final long unroutable = counters.value(GatewayCounterDescriptor.UNROUTABLE_REPORTS);
            final long sent = counters.value(GatewayCounterDescriptor.ORDERS_SENT);
            engine().pause(true);
            try
            {
                bob.send(ioc(id("ioc"), GatewayFixtures.BOB_ACCOUNT, "buy", "101.00", 10));
                Await.until("bob's order on its way to the engine", TestClient.TIMEOUT_MS,
                    () -> counters.value(GatewayCounterDescriptor.ORDERS_SENT) == sent + 1);
                alice.send("cancelOrder".equals(request) ?
                    "{\"type\":\"cancelOrder\",\"clOrdId\":\"" + sell + "\"}" :
                    "{\"type\":\"replaceOrder\",\"clOrdId\":\"" + sell + "\",\"price\":\"102.00\",\"quantity\":10}");
                Await.until("her " + request + " on its way to the engine", TestClient.TIMEOUT_MS,
                    () -> counters.value(GatewayCounterDescriptor.ORDERS_SENT) == sent + 2);
            }
            finally
            {
                engine().pause(false);
            }
            final String rejected = "cancelOrder".equals(request) ? "cancelRejected" : "replaceRejected";
            final JsonNode answer = alice.await((m) -> rejected.equals(m.path("execType").asString()),
                "the engine's answer to her " + request);
            final JsonNode filled = alice.await((m) -> "filled".equals(m.path("execType").asString()), "her fill");
            assertEquals(sell, answer.path("clOrdId").asString(), answer.toString());
            assertEquals("filled", answer.path("orderStatus").asString(), "the order as it ended: " + answer);
            assertEquals(10, answer.path("cumQuantity").asLong(), answer.toString());
            assertEquals(0, answer.path("leavesQuantity").asLong(), answer.toString());
            assertTrue(answer.path("execId").asLong() > filled.path("execId").asLong(),
                "the engine's answer, after the fill: " + filled + " then " + answer);
            assertEquals(filled.path("seq").asLong() + 1, answer.path("seq").asLong());
            assertEquals(unroutable, counters.value(GatewayCounterDescriptor.UNROUTABLE_REPORTS));
            assertSequential(alice);
        }
    }

    @Test
    void shouldRefuseWhatTheGatewayRulesForbidWithTheReasonAndTheClientOrderId()
    {
        try (TestClient alice = client())
        {
            alice.logon("alice", "alice-pw");
            final JsonNode notEntitled = assertRejected(alice, order(id("acct"), GatewayFixtures.BOB_ACCOUNT, "buy",
                "99.5", 10), RejectReason.NOT_ENTITLED);
            assertEquals("99.50", notEntitled.path("price").asString(), "the price as the client sent it, at the " +
                "instrument's scale: " + notEntitled);
            final JsonNode offTick = assertRejected(alice, order(id("tick"), GatewayFixtures.ALICE_ACCOUNT, "buy",
                "99.03", 10), RejectReason.PRICE_OFF_TICK_GRID);
            assertEquals("99.03", offTick.path("price").asString(), offTick.toString());
            assertRejected(alice, order(id("decimals"), GatewayFixtures.ALICE_ACCOUNT, "buy", "99.001", 10),
                RejectReason.PRICE_OFF_TICK_GRID);
            assertRejected(alice, order(id("lot"), GatewayFixtures.ALICE_ACCOUNT, "buy", "99.00", 15),
                RejectReason.QUANTITY_OFF_LOT_SIZE);
            assertRejected(alice, order(id("max"), GatewayFixtures.ALICE_ACCOUNT, "buy", "99.00", 10_010),
                RejectReason.QUANTITY_OUTSIDE_LIMITS);
            assertRejected(alice, order(id("zero"), GatewayFixtures.ALICE_ACCOUNT, "buy", "99.00", 0),
                RejectReason.INVALID_QUANTITY);
            assertRejected(alice, "{\"type\":\"newOrder\",\"clOrdId\":\"" + id("noprice") + "\",\"account\":" +
                GatewayFixtures.ALICE_ACCOUNT + ",\"instrument\":\"ACME\",\"side\":\"buy\",\"quantity\":10}",
                RejectReason.INVALID_PRICE);
            assertRejected(alice, "{\"type\":\"newOrder\",\"clOrdId\":\"" + id("gtcmarket") + "\",\"account\":" +
                GatewayFixtures.ALICE_ACCOUNT + ",\"instrument\":\"ACME\",\"side\":\"buy\",\"orderType\":\"market\"" +
                ",\"quantity\":10}", RejectReason.INVALID_TIME_IN_FORCE);
            assertRejected(alice, "{\"type\":\"newOrder\",\"clOrdId\":\"" + id("unknown") + "\",\"account\":" +
                GatewayFixtures.ALICE_ACCOUNT + ",\"instrument\":\"NOPE\",\"side\":\"buy\",\"price\":\"1.00\"," +
                "\"quantity\":10}", RejectReason.UNKNOWN_INSTRUMENT);
            assertRejected(alice, "{\"type\":\"cancelOrder\",\"clOrdId\":\"never-sent\"}", RejectReason.UNKNOWN_ORDER);

            final String live = id("dup");
            alice.request(order(live, GatewayFixtures.ALICE_ACCOUNT, "buy", "90.00", 10), "executionReport");
            final JsonNode duplicate = assertRejected(alice, order(live, GatewayFixtures.ALICE_ACCOUNT, "buy",
                "90.00", 10), RejectReason.DUPLICATE_CLIENT_ORDER_ID);
            assertTrue(duplicate.path("requestOnly").asBoolean(), "the live order is untouched: " + duplicate);
            final JsonNode open = alice.request("{\"type\":\"openOrders\"}", "openOrders");
            assertEquals(1, open.path("orders").size(), "the first order is still live: " + open);
            alice.request("{\"type\":\"cancelOrder\",\"clOrdId\":\"" + live + "\"}", "executionReport");
            assertTrue(counters.value(GatewayCounterDescriptor.GATEWAY_REJECTS) >= 10);
            assertSequential(alice);
        }
    }

    @Test
    void shouldRateLimitAUsersOrders()
    {
        try (TestClient carol = client())
        {
            carol.logon("carol", "carol-pw");
            final long before = counters.value(GatewayCounterDescriptor.RATE_LIMIT_REJECTS);
            for (int i = 0; i < 20; i++)
            {
                carol.send(order(id("rate"), GatewayFixtures.CAROL_ACCOUNT, "buy", "10.00", 10));
            }
            carol.await((m) -> 20 == carol.ofType("executionReport").size(), "an answer to every order");
            final List<JsonNode> reports = carol.ofType("executionReport");
            long limited = 0;
            for (final JsonNode report : reports)
            {
                if (RejectReason.RATE_LIMITED.code() == report.path("reason").asInt())
                {
                    limited++;
                    assertEquals("rejected", report.path("execType").asString());
                    assertEquals(RejectReason.RATE_LIMITED.text(), report.path("text").asString());
                }
            }
            assertTrue(limited >= 10, "carol may send 5 at once and 5 a second: " + limited + " of 20 limited");
            assertEquals(limited, counters.value(GatewayCounterDescriptor.RATE_LIMIT_REJECTS) - before);
        }
    }

    private static JsonNode assertRejected(final TestClient client, final String request, final RejectReason reason)
    {
        final JsonNode report = client.request(request, "executionReport");
        assertEquals(reason.code(), report.path("reason").asInt(), request + " -> " + report);
        assertEquals(reason.text(), report.path("text").asString());
        assertTrue(report.path("execType").asString().endsWith("ejected"), report.toString());
        assertTrue(report.path("clOrdId").asString().length() > 0, "names the client's order id: " + report);
        return report;
    }

    private static synchronized String id(final String what)
    {
        return what + "-" + ++nextOrder;
    }

    static String order(final String clientOrderId, final long account, final String side, final String price,
        final long quantity)
    {
        return "{\"type\":\"newOrder\",\"clOrdId\":\"" + clientOrderId + "\",\"account\":" + account +
            ",\"instrument\":\"ACME\",\"side\":\"" + side + "\",\"price\":\"" + price + "\",\"quantity\":" +
            quantity + "}";
    }

    static String ioc(final String clientOrderId, final long account, final String side, final String price,
        final long quantity)
    {
        final String order = order(clientOrderId, account, side, price, quantity);
        return order.substring(0, order.length() - 1) + ",\"timeInForce\":\"ioc\"}";
    }

    static void assertSequential(final TestClient client)
    {
        long expected = 1;
        for (final JsonNode message : client.received())
        {
            assertEquals(expected++, message.path("seq").asLong(), "sequence numbers of " + client.received());
        }
    }
}
