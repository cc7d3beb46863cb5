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
import java.util.List;

import io.warpbus.bus.Bus;
import io.warpbus.bus.BusContext;
import io.warpbus.bus.ExclusivePublication;
import io.warpbus.gateway.fix.FixSessionStateFiles;
import io.warpbus.iwarp.ThreadingMode;
import io.warpbus.orderentry.sbe.MessageHeaderEncoder;
import io.warpbus.orderentry.sbe.NewOrderEncoder;
import io.warpbus.orderentry.sbe.OrderType;
import io.warpbus.orderentry.sbe.Side;
import io.warpbus.orderentry.sbe.TimeInForce;
import io.warpbus.testing.Await;
import io.warpbus.testing.BusTestWatcher;
import io.warpbus.testing.FreePorts;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import quickfix.FieldNotFound;
import quickfix.Message;
import quickfix.field.MsgType;

import static io.warpbus.gateway.FixTestClient.field;
import static io.warpbus.gateway.FixTestClient.report;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A gateway with a FIX session killed with {@code kill -9} while its FIX client is logged on, the client's order
 * filled while the gateway is dead, and the gateway started again on its journal and FIX store: the client's
 * QuickFIX/J initiator reconnects on its own, the FIX sequence numbers go on from where they were (QuickFIX/J's file
 * store survived), and the two fills reach the client exactly once, the acceptance it had before not again. The kill
 * comes once the adapter has noted the acceptance as delivered: a kill between QuickFIX/J storing a report and that
 * note sends the report again after the restart, as docs/fix.md says, and the client's receiving it does not mean the
 * note is made (the gateway's sender can be preempted right after its socket write wakes the client).
 */
@Timeout(180)
@ExtendWith(BusTestWatcher.class)
class FixRestartTest
{
    @TempDir
    Path dir;
    private EngineFixture engine;
    private GatewayProcess gateway;
    private FixTestClient alice;
    private Bus direct;
    private Path credentials;
    private int port;
    private int fixPort;

    @AfterEach
    void close()
    {
        CloseHelper.quietCloseAll(alice, gateway, direct, engine);
    }

    @Test
    void shouldDeliverWhatWasFilledWhileTheGatewayWasDeadExactlyOnce() throws InterruptedException, FieldNotFound
    {
        engine = new EngineFixture(dir, 1, false);
        credentials = GatewayFixtures.writeCredentials(dir);
        port = FreePorts.loopback();
        fixPort = FreePorts.loopback();
        startGateway();

        alice = new FixTestClient(fixPort, "ALICE", "WARPBUS", dir.resolve("fix-client"), "alice", "alice-pw")
            .start().awaitLogon();
        final long deliveredBefore = lastDelivered();
        alice.send(FixOrderEntryTest.order("kill-fix-1", GatewayFixtures.ALICE_ACCOUNT, quickfix.field.Side.SELL,
            "100.00", "30"));
        final Message accepted = alice.await(report("kill-fix-1", '0'), "the order accepted");
        final int acceptedSeq = accepted.getHeader().getInt(34);
        Await.until(() -> "the adapter to note the acceptance delivered" + gateway.dump(), FixTestClient.TIMEOUT_MS,
            () -> lastDelivered() > deliveredBefore);

        gateway.kill();
        fillWhileDead();
        startGateway();

        final Message last = alice.await(report("kill-fix-1", 'F').and((m) -> "2".equals(field(m, 39))),
            "the last fill after the restart" + gateway.dump());
        assertEquals("30", field(last, 14), last.toString());
        assertEquals("0", field(last, 151));
        assertEquals("20", field(last, 32));
        assertEquals("100.00", field(last, 31));
        assertEquals("100", field(last, 6));
        assertTrue(alice.isLoggedOn());

        final List<Message> reports = alice.received().stream()
            .filter(FixTestClient.type(MsgType.EXECUTION_REPORT)).toList();
        assertEquals(3, reports.size(), "new, then two fills, each once: " + reports);
        assertEquals("0", field(reports.get(0), 150));
        assertEquals("F", field(reports.get(1), 150));
        assertEquals("1", field(reports.get(1), 39));
        assertEquals("10", field(reports.get(1), 32));
        assertEquals("10", field(reports.get(1), 14));
        assertEquals("20", field(reports.get(1), 151));
        int previous = acceptedSeq;
        for (final Message message : alice.received())
        {
            final int seq = message.getHeader().getInt(34);
            if (seq > acceptedSeq)
            {
                assertEquals(previous + 1, seq, "the gateway's FIX numbers go on from its store: " +
                    alice.received());
                previous = seq;
            }
        }
        assertTrue(previous > acceptedSeq + 2, "a logon and two fills after the acceptance: " + alice.received());
    }

    private void startGateway()
    {
        gateway = GatewayProcess.start("gateway", dir, credentials, engine, 1, port, List.of(
            "--warpbus.gateway.fix.port=" + fixPort, "--warpbus.gateway.fix.address=127.0.0.1",
            "--warpbus.gateway.fix.sessions[0].sender-comp-id=ALICE"));
    }

    /**
     * The core sequence number of the last event the gateway's FIX adapter handed to QuickFIX/J, from its session
     * state file in the FIX store directory.
     */
    private long lastDelivered()
    {
        return FixSessionStateFiles.lastDelivered(
            dir.resolve("gateway-journal").resolve("fix").resolve("ALICE-WARPBUS.warpbus"));
    }

    private void fillWhileDead()
    {
        direct = Bus.launch(new BusContext().directory(dir.resolve("direct-bus")).name("direct")
            .threadingMode(ThreadingMode.INVOKER));
        final ExclusivePublication orders = direct.addExclusivePublication(engine.directOrderEntry());
        Await.until("the engine to subscribe to the direct client", FixTestClient.TIMEOUT_MS, direct::doWork,
            orders::isConnected);
        buy(orders, 1, 10);
        buy(orders, 2, 20);
        Await.until("the engine to fill alice's order", FixTestClient.TIMEOUT_MS, direct::doWork,
            () -> engine.service().lastExecId(1) >= 3);
    }

    private void buy(final ExclusivePublication orders, final long clientOrderId, final long units)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(128));
        final NewOrderEncoder order = new NewOrderEncoder().wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .accountId(GatewayFixtures.CAROL_ACCOUNT).instrumentId(GatewayFixtures.ACME.id())
            .clientOrderId(clientOrderId).side(Side.Buy).orderType(OrderType.Limit)
            .timeInForce(TimeInForce.ImmediateOrCancel).price(10_000).quantity(units / 10).sendingTime(1);
        final int length = MessageHeaderEncoder.ENCODED_LENGTH + order.encodedLength();
        Await.until("the direct client's order to go out", FixTestClient.TIMEOUT_MS, direct::doWork,
            () -> orders.offer(buffer, 0, length) > 0);
    }
}
