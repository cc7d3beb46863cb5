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

import java.nio.ByteBuffer;
import java.nio.file.Path;

import io.warpbus.bus.Bus;
import io.warpbus.bus.BusContext;
import io.warpbus.bus.ExclusivePublication;
import io.warpbus.iwarp.ThreadingMode;
import io.warpbus.orderentry.sbe.MessageHeaderEncoder;
import io.warpbus.orderentry.sbe.NewOrderEncoder;
import io.warpbus.orderentry.sbe.OrderType;
import io.warpbus.orderentry.sbe.Side;
import io.warpbus.orderentry.sbe.TimeInForce;
import io.warpbus.testing.Await;
import java.util.List;
import io.warpbus.testing.BusTestWatcher;
import io.warpbus.testing.FreePorts;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A gateway killed with {@code kill -9} and started again on its journal: the client resumes its session, gets what
 * it had missed from the gateway's journal and what the engine reported while the gateway was down (asked of the
 * engine by the restarted gateway), each exactly once and in order.
 */
@Timeout(180)
@ExtendWith(BusTestWatcher.class)
class GatewayRestartTest
{
    private static final String ORDERS_SENT = "warpbus_gateway_orders_sent_total";

    @TempDir
    Path dir;
    private EngineFixture engine;
    private GatewayProcess gateway;
    private Bus direct;
    private Path credentials;
    private int port;
    private List<String> properties;

    @AfterEach
    void close()
    {
        CloseHelper.quietCloseAll(gateway, direct, engine);
    }

    @Test
    void shouldResumeAfterAKillWithNothingLostAndNothingTwice() throws InterruptedException
    {
        startEngineAndGateway(List.of());

        final String token;
        try (TestClient alice = new TestClient(port))
        {
            token = alice.logon("alice", "alice-pw").path("session").asString();
            final JsonNode accepted = alice.request(OrderEntryTest.order("kill-1", GatewayFixtures.ALICE_ACCOUNT,
                "sell", "100.00", 30), "executionReport");
            assertEquals("new", accepted.path("execType").asString(), accepted.toString());
            assertEquals(2, accepted.path("seq").asLong());
        }
        killAndFillWhileDead();
        try (TestClient alice = new TestClient(port))
        {
            // Resume from 2: the order's acceptance (in the gateway's journal) and both fills (from the engine).
            alice.send("{\"type\":\"logon\",\"username\":\"alice\",\"password\":\"alice-pw\",\"resume\":{" +
                "\"token\":\"" + token + "\",\"fromSeq\":2}}");
            final JsonNode logon = alice.awaitType("logon");
            assertTrue(logon.path("resumed").asBoolean(), logon.toString());
            alice.await((m) -> "filled".equals(m.path("execType").asString()), "the last fill" + gateway.dump());
            final List<JsonNode> reports = alice.ofType("executionReport");
            assertEquals(3, reports.size(), "new, then two fills, each once: " + alice.received());
            assertEquals("new", reports.get(0).path("execType").asString());
            assertEquals(2, reports.get(0).path("seq").asLong(), "resent with its own sequence number");
            assertEquals("partiallyFilled", reports.get(1).path("execType").asString());
            assertEquals(10, reports.get(1).path("cumQuantity").asLong());
            assertEquals("filled", reports.get(2).path("execType").asString());
            assertEquals(30, reports.get(2).path("cumQuantity").asLong());
            assertEquals(reports.get(1).path("seq").asLong() + 1, reports.get(2).path("seq").asLong());
            assertTrue(reports.get(1).path("seq").asLong() > 2);
            final JsonNode open = alice.request("{\"type\":\"openOrders\"}", "openOrders");
            assertEquals(0, open.path("orders").size(), "the restarted gateway knows the order is done: " + open);
            alice.checkSchema();
        }
    }

    @Test
    void shouldNumberOnPastWhatTheClientSawBeforeAKillMarketDataIncludedAndKeepHerSubscription()
        throws InterruptedException
    {
        startEngineAndGateway(List.of());

        final String token;
        final long lastSeen;
        try (TestClient alice = new TestClient(port))
        {
            token = alice.logon("alice", "alice-pw").path("session").asString();
            alice.request("{\"type\":\"subscribe\",\"instrument\":\"ACME\"}", "subscribed");
            alice.awaitType("book");
            alice.request(OrderEntryTest.order("kill-2", GatewayFixtures.ALICE_ACCOUNT, "sell", "100.00", 30),
                "executionReport");
            // Her own order's book update: a number the journal, which keeps no market data, does not hold.
            alice.await((m) -> "bookUpdate".equals(m.path("type").asString()), "the book update of her order");
            lastSeen = alice.received().get(alice.size() - 1).path("seq").asLong();
        }
        killAndFillWhileDead();
        try (TestClient alice = new TestClient(port))
        {
            alice.send("{\"type\":\"logon\",\"username\":\"alice\",\"password\":\"alice-pw\",\"resume\":{" +
                "\"token\":\"" + token + "\",\"fromSeq\":" + (lastSeen + 1) + "}}");
            final JsonNode logon = alice.awaitType("logon");
            assertTrue(logon.path("resumed").asBoolean(), "resumed from past the journal's last record: " + logon);
            alice.await((m) -> "filled".equals(m.path("execType").asString()), "the last fill" + gateway.dump());
            final List<JsonNode> reports = alice.ofType("executionReport");
            assertEquals(2, reports.size(), "both fills, reported while the gateway was down: " + alice.received());
            assertEquals("partiallyFilled", reports.get(0).path("execType").asString());
            assertTrue(reports.get(0).path("seq").asLong() > lastSeen, "numbered past what she saw: " +
                reports.get(0) + " after " + lastSeen);
            assertEquals(reports.get(0).path("seq").asLong() + 1, reports.get(1).path("seq").asLong());

            // Her market-data subscription outlived the gateway: a whole book on resuming, and it can be ended.
            final JsonNode book = alice.await((m) -> "book".equals(m.path("type").asString()) &&
                "resumed".equals(m.path("reason").asString()), "the book of her subscription" + gateway.dump());
            assertEquals("ACME", book.path("instrument").asString(), book.toString());
            final JsonNode unsubscribed = alice.request("{\"type\":\"unsubscribe\",\"instrument\":\"ACME\"}",
                "unsubscribed");
            assertEquals("ACME", unsubscribed.path("instrument").asString(), unsubscribed.toString());
            alice.checkSchema();
        }
    }

    @Test
    void shouldCancelTheOrdersOfASessionCutOffByAKillOnceRestartedWithCancelOnDisconnect() throws InterruptedException
    {
        startEngineAndGateway(List.of("--warpbus.gateway.sessions.cancel-on-disconnect=true"));

        final String token;
        final long lastSeen;
        try (TestClient alice = new TestClient(port))
        {
            token = alice.logon("alice", "alice-pw").path("session").asString();
            final JsonNode resting = alice.request(OrderEntryTest.order("kill-3", GatewayFixtures.ALICE_ACCOUNT,
                "sell", "100.00", 30), "executionReport");
            assertEquals("new", resting.path("execType").asString(), resting.toString());
            lastSeen = resting.path("seq").asLong();
            // Killed while alice is connected: the dead gateway never saw her go.
            gateway.kill();
        }

        restartGateway();
        try (TestClient alice = new TestClient(port))
        {
            alice.send("{\"type\":\"logon\",\"username\":\"alice\",\"password\":\"alice-pw\",\"resume\":{" +
                "\"token\":\"" + token + "\",\"fromSeq\":" + (lastSeen + 1) + "}}");
            assertTrue(alice.awaitType("logon").path("resumed").asBoolean(), alice.received().toString());
            final JsonNode cancelled = alice.await((m) -> "executionReport".equals(m.path("type").asString()),
                "the cancel the restarted gateway sent" + gateway.dump());
            assertEquals("kill-3", cancelled.path("clOrdId").asString(), cancelled.toString());
            assertEquals("cancelled", cancelled.path("execType").asString(), cancelled.toString());
            final JsonNode open = alice.request("{\"type\":\"openOrders\"}", "openOrders");
            assertEquals(0, open.path("orders").size(), "nothing left live: " + open);
        }
    }

    /**
     * Carol's order fills alice's while alice's cancel of it is on its way, and the gateway dies before the engine
     * answers either. The restarted gateway learns the fill as it catches up, finishes the order, and must still
     * route the engine's reject of the cancel, which comes after, to alice.
     */
    @Test
    void shouldAnswerACancelThatCrossedAFillWhileTheGatewayWasDead() throws InterruptedException
    {
        startEngineAndGateway(List.of());

        final String token;
        final long lastSeen;
        try (TestClient alice = new TestClient(port); TestClient carol = new TestClient(port))
        {
            token = alice.logon("alice", "alice-pw").path("session").asString();
            carol.logon("carol", "carol-pw");
            final JsonNode resting = alice.request(OrderEntryTest.order("kill-4", GatewayFixtures.ALICE_ACCOUNT,
                "sell", "100.00", 30), "executionReport");
            lastSeen = resting.path("seq").asLong();
            final double sent = gateway.metric(ORDERS_SENT);
            engine.pause(true);
            try
            {
                carol.send(OrderEntryTest.ioc("carol-ioc", GatewayFixtures.CAROL_ACCOUNT, "buy", "100.00", 30));
                Await.until("carol's order on its way to the engine", TestClient.TIMEOUT_MS,
                    () -> gateway.metric(ORDERS_SENT) == sent + 1);
                alice.send("{\"type\":\"cancelOrder\",\"clOrdId\":\"kill-4\"}");
                Await.until("alice's cancel on its way to the engine", TestClient.TIMEOUT_MS,
                    () -> gateway.metric(ORDERS_SENT) == sent + 2);
                gateway.kill();
            }
            finally
            {
                engine.pause(false);
            }
        }
        Await.until("the engine to fill alice's order and answer her cancel", TestClient.TIMEOUT_MS,
            () -> engine.service().lastExecId(1) >= 5);

        restartGateway();
        try (TestClient alice = new TestClient(port))
        {
            alice.send("{\"type\":\"logon\",\"username\":\"alice\",\"password\":\"alice-pw\",\"resume\":{" +
                "\"token\":\"" + token + "\",\"fromSeq\":" + (lastSeen + 1) + "}}");
            assertTrue(alice.awaitType("logon").path("resumed").asBoolean(), alice.received().toString());
            final JsonNode answer = alice.await((m) -> "cancelRejected".equals(m.path("execType").asString()),
                "the engine's answer to her cancel" + gateway.dump());
            final List<JsonNode> reports = alice.ofType("executionReport");
            assertEquals(2, reports.size(), "her fill, then the answer: " + alice.received());
            assertEquals("filled", reports.get(0).path("execType").asString(), reports.toString());
            assertEquals("kill-4", answer.path("clOrdId").asString(), answer.toString());
            assertEquals("filled", answer.path("orderStatus").asString(), "the order as it ended: " + answer);
            assertEquals(30, answer.path("cumQuantity").asLong(), answer.toString());
            assertEquals(reports.get(0).path("seq").asLong() + 1, answer.path("seq").asLong());
            assertEquals(0.0, gateway.metric("warpbus_gateway_unroutable_reports_total"), gateway.dump());
        }
    }

    private void startEngineAndGateway(final List<String> properties)
    {
        engine = new EngineFixture(dir, 1, false);
        credentials = GatewayFixtures.writeCredentials(dir);
        port = FreePorts.loopback();
        this.properties = properties;
        restartGateway();
    }

    private void restartGateway()
    {
        gateway = GatewayProcess.start("gateway", dir, credentials, engine, 1, port, properties);
    }

    private void killAndFillWhileDead() throws InterruptedException
    {
        gateway.kill();

        // While the gateway is dead, a direct client of the engine takes alice's offer twice.
        direct = Bus.launch(new BusContext().directory(dir.resolve("direct-bus")).name("direct")
            .threadingMode(ThreadingMode.INVOKER));
        final ExclusivePublication orders = direct.addExclusivePublication(engine.directOrderEntry());
        Await.until("the engine to subscribe to the direct client", TestClient.TIMEOUT_MS, direct::doWork,
            orders::isConnected);
        buy(orders, 1, 10);
        buy(orders, 2, 20);
        Await.until("the engine to fill alice's order", TestClient.TIMEOUT_MS, direct::doWork,
            () -> engine.service().lastExecId(1) >= 3);

        restartGateway();
    }

    private void buy(final ExclusivePublication orders, final long clientOrderId, final long lots)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(128));
        final NewOrderEncoder order = new NewOrderEncoder().wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .accountId(GatewayFixtures.CAROL_ACCOUNT).instrumentId(GatewayFixtures.ACME.id())
            .clientOrderId(clientOrderId).side(Side.Buy).orderType(OrderType.Limit)
            .timeInForce(TimeInForce.ImmediateOrCancel).price(10_000).quantity(lots / 10).sendingTime(1);
        final int length = MessageHeaderEncoder.ENCODED_LENGTH + order.encodedLength();
        Await.until("the direct client's order to go out", TestClient.TIMEOUT_MS, direct::doWork,
            () -> orders.offer(buffer, 0, length) > 0);
    }
}
