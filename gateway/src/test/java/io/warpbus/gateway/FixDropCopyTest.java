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
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.warpbus.testing.BusTestWatcher;
import io.warpbus.testing.FreePorts;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Message;
import quickfix.field.MsgType;
import tools.jackson.databind.JsonNode;

import static io.warpbus.gateway.FixTestClient.field;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Drop copy across gateways: two gateways in JVMs of their own against one engine that publishes its drop-copy
 * stream; a FIX drop-copy session on the second gateway, logged on as alice, gets every fill of alice's accounts
 * exactly once, those of orders entered on the first gateway (from the engine's drop-copy stream) as well as those
 * of the second gateway's own orders (from its own report route), and none of accounts alice is not entitled to.
 */
@Timeout(180)
@ExtendWith(BusTestWatcher.class)
class FixDropCopyTest
{
    @TempDir
    Path dir;
    private EngineFixture engine;
    private GatewayProcess first;
    private GatewayProcess second;
    private FixTestClient drop;

    @AfterEach
    void close()
    {
        CloseHelper.quietCloseAll(drop, first, second, engine);
    }

    @Test
    void shouldCopyEveryFillOfTheUsersAccountsFromEitherGatewayExactlyOnce()
    {
        engine = new EngineFixture(dir, 2, false);
        final Path credentials = GatewayFixtures.writeCredentials(dir);
        final int fixPort = FreePorts.loopback();
        first = GatewayProcess.start("gateway-1", dir, credentials, engine, 1, FreePorts.loopback());
        second = GatewayProcess.start("gateway-2", dir, credentials, engine, 2, FreePorts.loopback(), List.of(
            "--warpbus.gateway.fix.port=" + fixPort, "--warpbus.gateway.fix.address=127.0.0.1",
            "--warpbus.gateway.fix.sessions[0].sender-comp-id=DROP",
            "--warpbus.gateway.fix.sessions[0].type=drop-copy"));
        drop = new FixTestClient(fixPort, "DROP", "WARPBUS", dir.resolve("fix-drop"), "alice", "alice-pw")
            .start().awaitLogon();

        try (TestClient aliceOnFirst = new TestClient(first.port());
            TestClient bobOnFirst = new TestClient(first.port());
            TestClient aliceOnSecond = new TestClient(second.port());
            TestClient carolOnSecond = new TestClient(second.port());
            TestClient wsDrop = new TestClient(second.port()))
        {
            wsDrop.send("{\"type\":\"logon\",\"username\":\"alice\",\"password\":\"alice-pw\",\"dropCopy\":true}");
            wsDrop.awaitType("logon");
            aliceOnFirst.logon("alice", "alice-pw");
            bobOnFirst.logon("bob", "bob-pw");
            aliceOnSecond.logon("alice", "alice-pw");
            carolOnSecond.logon("carol", "carol-pw");

            // Not alice's accounts: bob's order on the first gateway fills against carol's on the second.
            bobOnFirst.request(OrderEntryTest.order("dc-bob", GatewayFixtures.BOB_ACCOUNT, "sell", "101.00", 10),
                "executionReport");
            carolOnSecond.send(OrderEntryTest.order("dc-carol", GatewayFixtures.CAROL_ACCOUNT, "buy", "101.00", 10));
            carolOnSecond.await((m) -> "filled".equals(m.path("execType").asString()), "carol's fill");

            // Alice's: two resting sells on the second gateway, swept by her buy on the first one.
            aliceOnSecond.request(OrderEntryTest.order("dc-s1", GatewayFixtures.ALICE_SECOND_ACCOUNT, "sell",
                "100.00", 10), "executionReport");
            aliceOnSecond.request(OrderEntryTest.order("dc-s2", GatewayFixtures.ALICE_SECOND_ACCOUNT, "sell",
                "100.50", 10), "executionReport");
            aliceOnFirst.send(OrderEntryTest.order("dc-buy", GatewayFixtures.ALICE_ACCOUNT, "buy", "100.50", 20));
            final JsonNode filled = aliceOnFirst.await((m) -> "filled".equals(m.path("execType").asString()),
                "alice's buy filled on the first gateway");
            final String buyOrderId = filled.path("orderId").asString();

            final Message last = drop.await((m) -> MsgType.EXECUTION_REPORT.equals(FixTestClient.msgType(m)) &&
                "2".equals(field(m, 39)) && "101".equals(field(m, 1)), "the copy of the buy's last fill");
            drop.await(FixTestClient.report("dc-s1", 'F'), "the copy of the first sell's fill");
            drop.await(FixTestClient.report("dc-s2", 'F'), "the copy of the second sell's fill");

            assertEquals(buyOrderId, field(last, 37), "the engine's order id: " + last);
            assertTrue(field(last, 11).startsWith("R1."), "named after the first gateway's route: " + last);
            assertEquals("100.25", field(last, 6), "the average of both fills: " + last);
            assertEquals("20", field(last, 14));
            assertEquals("0", field(last, 151));
            assertEquals("1", field(last, 54));
            assertEquals("Y", field(last, 797));
            assertNull(field(last, 40), "another gateway's order type is not on the engine's report: " + last);

            final List<Message> copies = drop.received().stream()
                .filter(FixTestClient.type(MsgType.EXECUTION_REPORT)).toList();
            assertEquals(4, copies.size(), "two fills of the buy, one of each sell, each once: " + copies);
            final Set<String> execIds = new HashSet<>();
            int ofFirst = 0;
            for (final Message copy : copies)
            {
                assertEquals("F", field(copy, 150), copy.toString());
                assertEquals("Y", field(copy, 797), copy.toString());
                assertTrue(Set.of("101", "102").contains(field(copy, 1)), "alice's accounts only: " + copy);
                assertTrue(execIds.add(field(copy, 17)), "exec ids unique: " + copies);
                ofFirst += "101".equals(field(copy, 1)) ? 1 : 0;
            }
            assertEquals(2, ofFirst, "both fills of the first gateway's order: " + copies);

            // A WebSocket logon with dropCopy gets the same four.
            final JsonNode wsLast = wsDrop.await((m) -> "executionReport".equals(m.path("type").asString()) &&
                "filled".equals(m.path("execType").asString()) && 101 == m.path("account").asLong(),
                "the WebSocket drop copy of the buy's last fill");
            assertEquals(buyOrderId, wsLast.path("orderId").asString(), wsLast.toString());
            assertEquals(field(last, 11), wsLast.path("clOrdId").asString(), wsLast.toString());
            assertEquals("100.25", wsLast.path("avgPrice").asString(), wsLast.toString());
            wsDrop.await((m) -> "dc-s2".equals(m.path("clOrdId").asString()), "the WebSocket copy of dc-s2's fill");
            wsDrop.await((m) -> "dc-s1".equals(m.path("clOrdId").asString()), "the WebSocket copy of dc-s1's fill");
            assertEquals(4, wsDrop.ofType("executionReport").size(), "each fill once: " + wsDrop.received());
            wsDrop.checkSchema();
            final Message firstFill = copies.stream().filter((m) -> "101".equals(field(m, 1))).findFirst()
                .orElseThrow();
            assertEquals("1", field(firstFill, 39), "partly filled first: " + firstFill);
            assertEquals("100.00", field(firstFill, 31));
            assertEquals("10", field(firstFill, 32));
            assertEquals("10", field(firstFill, 151));
            assertEquals("100", field(firstFill, 6));
            assertTrue(field(firstFill, 17).startsWith("1."), "the route's exec id, with its origin: " + firstFill);
        }
    }
}
