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

import java.nio.file.Path;

import io.warpbus.testing.BusTestWatcher;
import io.warpbus.testing.FreePorts;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Two gateways side by side against one engine, each with its own order-entry stream and report route: a fill
 * between their clients reaches each side through its own gateway only, and the same user with the same client
 * order id on both gets two orders, each reported where it was entered.
 */
@Timeout(180)
@ExtendWith(BusTestWatcher.class)
class TwoGatewaysTest
{
    @TempDir
    Path dir;
    private EngineFixture engine;
    private GatewayProcess first;
    private GatewayProcess second;

    @AfterEach
    void close()
    {
        CloseHelper.quietCloseAll(first, second, engine);
    }

    @Test
    void shouldRouteEveryReportToTheGatewayAndSessionThatOwnTheOrder()
    {
        engine = new EngineFixture(dir, 2, false);
        final Path credentials = GatewayFixtures.writeCredentials(dir);
        first = GatewayProcess.start("gateway-1", dir, credentials, engine, 1, FreePorts.loopback());
        second = GatewayProcess.start("gateway-2", dir, credentials, engine, 2, FreePorts.loopback());

        try (TestClient alice = new TestClient(first.port()); TestClient bob = new TestClient(second.port());
            TestClient aliceAgain = new TestClient(second.port()))
        {
            alice.logon("alice", "alice-pw");
            bob.logon("bob", "bob-pw");
            aliceAgain.logon("alice", "alice-pw");

            alice.request(OrderEntryTest.order("two-1", GatewayFixtures.ALICE_ACCOUNT, "sell", "100.00", 20),
                "executionReport");
            final JsonNode same = aliceAgain.request(OrderEntryTest.order("two-1", GatewayFixtures.ALICE_ACCOUNT,
                "sell", "100.50", 10), "executionReport");
            assertEquals("new", same.path("execType").asString(), "another gateway, another order: " + same);

            bob.send(OrderEntryTest.order("two-buy", GatewayFixtures.BOB_ACCOUNT, "buy", "100.00", 20));
            final JsonNode bobFill = bob.await((m) -> "filled".equals(m.path("execType").asString()), "bob's fill");
            assertEquals("two-buy", bobFill.path("clOrdId").asString());
            final JsonNode aliceFill = alice.await((m) -> "filled".equals(m.path("execType").asString()),
                "alice's fill, through the first gateway");
            assertEquals("100.00", aliceFill.path("lastPrice").asString());

            assertEquals(2, alice.ofType("executionReport").size(), "new and filled: " + alice.received());
            assertEquals(1, aliceAgain.ofType("executionReport").size(),
                "the second gateway's alice saw only her own order there: " + aliceAgain.received());
            assertEquals("100.50", aliceAgain.ofType("executionReport").get(0).path("price").asString());
            for (final JsonNode report : bob.ofType("executionReport"))
            {
                assertEquals("two-buy", report.path("clOrdId").asString(), "bob saw only his own: " + report);
            }
            alice.checkSchema();
            bob.checkSchema();
            aliceAgain.request("{\"type\":\"cancelOrder\",\"clOrdId\":\"two-1\"}", "executionReport");
        }
    }
}
