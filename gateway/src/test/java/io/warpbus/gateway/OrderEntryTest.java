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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Orders through the gateway to a real engine: accepted, cancelled, filled against another user's order, and every
 * refusal the gateway makes itself, each answered with the client's order id, a reason code and a text.
 */
@SpringBootTest(classes = GatewayApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@Timeout(120)
class OrderEntryTest extends GatewayTestBase
{
    @Autowired
    GatewayCounters counters;

    @DynamicPropertySource
    static void properties(final DynamicPropertyRegistry registry)
    {
        gatewayProperties(registry);
    }

    @Test
    void shouldAcceptAndCancelAnOrder()
    {
        try (TestClient alice = client())
        {
            final JsonNode logon = alice.logon("alice", "alice-pw");
            assertEquals("logon", logon.path("type").asString(), logon.toString());
            assertEquals(1, logon.path("seq").asLong());
            awaitEngine();

            alice.send(order("a-1", GatewayFixtures.ALICE_ACCOUNT, "buy", "99.00", 10));
            final JsonNode accepted = alice.await((m) -> "executionReport".equals(m.path("type").asString()),
                "the order's report");
            assertEquals("a-1", accepted.path("clOrdId").asString());
            assertEquals("new", accepted.path("execType").asString(), accepted.toString());
            assertEquals("99.00", accepted.path("price").asString());
            assertEquals(10, accepted.path("leavesQuantity").asLong());
            assertTrue(accepted.path("orderId").asLong() > 0);

            final int from = alice.size();
            alice.send("{\"type\":\"cancelOrder\",\"clOrdId\":\"a-1\"}");
            final JsonNode cancelled = alice.awaitType(from, "executionReport");
            assertEquals("cancelled", cancelled.path("execType").asString(), cancelled.toString());
            assertEquals(0, cancelled.path("leavesQuantity").asLong());
            assertSequential(alice);
        }
    }

    private void awaitEngine()
    {
        Await.until("the gateway to see the engine", TestClient.TIMEOUT_MS,
            () -> counters.value(GatewayCounterDescriptor.ERRORS) >= 0 && engineReady());
    }

    private boolean engineReady()
    {
        return engine.service().isOrderEntryConnected();
    }

    static String order(final String clientOrderId, final long account, final String side, final String price,
        final long quantity)
    {
        return "{\"type\":\"newOrder\",\"clOrdId\":\"" + clientOrderId + "\",\"account\":" + account +
            ",\"instrument\":\"ACME\",\"side\":\"" + side + "\",\"price\":\"" + price + "\",\"quantity\":" +
            quantity + "}";
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
