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

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Only a user with the {@code trader} role trades: a viewer's new orders, cancels and amends are rejected at the
 * gateway with reason 507 (no trader role) even on an account of its own, and nothing reaches the engine; it still gets
 * the market data it is entitled to, and a trader beside it trades as before.
 */
@SpringBootTest(classes = GatewayApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@Timeout(120)
class TradingRolesTest extends GatewayTestBase
{
    @DynamicPropertySource
    static void properties(final DynamicPropertyRegistry registry)
    {
        gatewayProperties(registry);
    }

    @Test
    void shouldRejectTheOrdersCancelsAndAmendsOfAUserWithoutTheTraderRole()
    {
        try (TestClient vera = client())
        {
            final JsonNode logon = vera.logon("vera", "vera-pw");
            assertEquals("logon", logon.path("type").asString(), logon.toString());
            assertEquals("[\"viewer\"]", logon.path("roles").toString());
            assertEquals("[" + GatewayFixtures.VIEWER_ACCOUNT + "]", logon.path("accounts").toString());

            assertRefusedForItsRole(vera, OrderEntryTest.order("vera-1", GatewayFixtures.VIEWER_ACCOUNT, "buy",
                "99.00", 10), "rejected", "vera-1");
            assertRefusedForItsRole(vera, "{\"type\":\"cancelOrder\",\"clOrdId\":\"vera-1\"}", "cancelRejected",
                "vera-1");
            assertRefusedForItsRole(vera, "{\"type\":\"replaceOrder\",\"clOrdId\":\"vera-1\"," +
                "\"price\":\"98.00\",\"quantity\":20}", "replaceRejected", "vera-1");
            final JsonNode open = vera.request("{\"type\":\"openOrders\"}", "openOrders");
            assertEquals(0, open.path("orders").size(), "nothing reached the engine: " + open);
            OrderEntryTest.assertSequential(vera);
        }
        try (TestClient alice = client())
        {
            alice.logon("alice", "alice-pw");
            final JsonNode accepted = alice.request(OrderEntryTest.order("trader-1", GatewayFixtures.ALICE_ACCOUNT,
                "buy", "99.00", 10), "executionReport");
            assertEquals("new", accepted.path("execType").asString(), "a trader trades: " + accepted);
            final JsonNode cancelled = alice.request("{\"type\":\"cancelOrder\",\"clOrdId\":\"trader-1\"}",
                "executionReport");
            assertEquals("cancelled", cancelled.path("execType").asString(), cancelled.toString());
        }
    }

    @Test
    void shouldServeAViewerTheMarketDataItIsEntitledTo()
    {
        try (TestClient vera = client())
        {
            vera.logon("vera", "vera-pw");
            final JsonNode subscribed = vera.request("{\"type\":\"subscribe\",\"instrument\":\"ACME\"}", "subscribed");
            assertEquals("ACME", subscribed.path("instrument").asString(), subscribed.toString());
            final JsonNode book = vera.awaitType("book");
            assertEquals("ACME", book.path("instrument").asString(), book.toString());
            final JsonNode refused = vera.request("{\"type\":\"subscribe\",\"instrument\":\"BETA\"}", "error");
            assertEquals("unknownInstrument", refused.path("code").asString(), "not entitled to BETA: " + refused);
        }
    }

    private static void assertRefusedForItsRole(final TestClient client, final String request, final String execType,
        final String clientOrderId)
    {
        final JsonNode report = client.request(request, "executionReport");
        assertEquals(execType, report.path("execType").asString(), request + " -> " + report);
        assertEquals(507, report.path("reason").asInt(), report.toString());
        assertEquals("user has no trader role", report.path("text").asString());
        assertEquals(clientOrderId, report.path("clOrdId").asString());
        assertTrue(report.path("requestOnly").asBoolean(), report.toString());
    }
}
