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

import java.util.HashSet;
import java.util.Set;

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
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A client too slow for its own execution reports: when its queue has no room for one, the session is caught up
 * from the journal, as a resumed one is, instead of being disconnected; it gets every report once, in an unbroken
 * sequence, and goes on live.
 */
@SpringBootTest(classes = GatewayApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@Timeout(120)
class CatchUpTest extends GatewayTestBase
{
    @Autowired
    GatewayCounters counters;

    @DynamicPropertySource
    static void properties(final DynamicPropertyRegistry registry)
    {
        gatewayProperties(registry);
        registry.add("warpbus.gateway.sessions.socket-send-buffer", () -> "8192");
        registry.add("warpbus.gateway.sessions.slow-consumer-timeout", () -> "30s");
        floodProperties(registry);
    }

    @Test
    void shouldCatchUpAClientTooSlowForItsOwnReportsFromTheJournal()
    {
        final long catchUps = counters.value(GatewayCounterDescriptor.CATCH_UPS);
        final long disconnects = counters.value(GatewayCounterDescriptor.SLOW_CONSUMER_DISCONNECTS);
        try (RawWebSocket slow = new RawWebSocket(wsPort(), 4096))
        {
            slow.send("{\"type\":\"logon\",\"username\":\"bob\",\"password\":\"bob-pw\"}");
            final JsonNode logon = slow.read();
            assertEquals("logon", logon.path("type").asString(), String.valueOf(logon));

            // Immediate-or-cancel orders that find nothing to trade with: accepted, then their remainder cancelled.
            final int orders = 2000;
            for (int i = 0; i < orders; i++)
            {
                slow.send("{\"type\":\"newOrder\",\"clOrdId\":\"slow-" + i + "\",\"account\":" +
                    GatewayFixtures.BOB_ACCOUNT + ",\"instrument\":\"BETA\",\"side\":\"buy\",\"price\":\"45.00\"," +
                    "\"quantity\":1,\"timeInForce\":\"ioc\"}");
            }
            Await.until("the gateway to catch the slow client up from its journal", TestClient.TIMEOUT_MS,
                () -> counters.value(GatewayCounterDescriptor.CATCH_UPS) > catchUps);

            long expectedSeq = logon.path("seq").asLong() + 1;
            final Set<String> reports = new HashSet<>();
            final Set<String> answered = new HashSet<>();
            while (answered.size() < orders)
            {
                final JsonNode message = slow.read();
                assertNotNull(message, "still connected after " + answered.size() + " reports: " +
                    slow.closeCode() + " " + slow.closeReason());
                assertEquals(expectedSeq, message.path("seq").asLong(), "an unbroken sequence: " + message);
                if ("gapFill".equals(message.path("type").asString()))
                {
                    expectedSeq = message.path("newSeq").asLong();
                    continue;
                }
                expectedSeq++;
                if ("executionReport".equals(message.path("type").asString()))
                {
                    assertTrue(reports.add(message.path("clOrdId").asString() + " " +
                        message.path("execType").asString()), "each report once: " + message);
                    if ("cancelled".equals(message.path("execType").asString()))
                    {
                        answered.add(message.path("clOrdId").asString());
                    }
                }
            }

            slow.send("{\"type\":\"testRequest\",\"testId\":\"live-again\"}");
            final JsonNode heartbeat = slow.readUntil((m) -> "live-again".equals(m.path("testId").asString()));
            assertNotNull(heartbeat, "live again after the catch-up");
            assertEquals(expectedSeq, heartbeat.path("seq").asLong(), heartbeat.toString());
        }
        assertEquals(disconnects, counters.value(GatewayCounterDescriptor.SLOW_CONSUMER_DISCONNECTS),
            "caught up, not disconnected");
    }
}
