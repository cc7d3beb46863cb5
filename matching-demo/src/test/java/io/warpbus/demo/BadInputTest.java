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
package io.warpbus.demo;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.warpbus.bus.ExclusivePublication;
import io.warpbus.bus.Subscription;
import io.warpbus.demo.service.EngineService;
import io.warpbus.matching.ExecType;
import io.warpbus.matching.Instrument;
import io.warpbus.matching.RiskLimits;
import io.warpbus.orderentry.RejectReason;
import io.warpbus.orderentry.sbe.CancelOrderEncoder;
import io.warpbus.orderentry.sbe.ExecutionReportDecoder;
import io.warpbus.orderentry.sbe.MessageHeaderDecoder;
import io.warpbus.orderentry.sbe.MessageHeaderEncoder;
import io.warpbus.orderentry.sbe.MessageRejectDecoder;
import io.warpbus.orderentry.sbe.MessageRejectReason;
import io.warpbus.orderentry.sbe.NewOrderEncoder;
import io.warpbus.orderentry.sbe.OrderType;
import io.warpbus.orderentry.sbe.Side;
import io.warpbus.orderentry.sbe.TimeInForce;
import io.warpbus.testing.Await;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bad input at the service boundary, sent over the bus as a client would: every refused command is answered with a
 * rejected execution report and its reason code, every undecodable message with a MessageReject, the engine's state
 * hash does not move, and a good order afterwards is accepted as usual.
 */
@Timeout(60)
class BadInputTest
{
    private static final int INSTRUMENT = 1;
    private static final int ACCOUNT = 7;
    private static final int SMALL_ACCOUNT = 8;

    @TempDir
    Path dir;
    private EngineRig rig;
    private EngineService engine;
    private ExclusivePublication orders;
    private Subscription reports;
    private final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(256));
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final NewOrderEncoder newOrder = new NewOrderEncoder();
    private final List<Object[]> received = new ArrayList<>();
    private long clientOrderId = 100;

    @BeforeEach
    void start() throws Exception
    {
        rig = new EngineRig(dir);
        engine = new EngineService(rig.context()
            .instruments(new Instrument(INSTRUMENT, "ACME", 5, 1, 2, 500, 10_000))
            .account(ACCOUNT, new RiskLimits(10_000, 50_000_000_000L, 100_000))
            .account(SMALL_ACCOUNT, new RiskLimits(100, 50_000_000_000L, 100_000)));
        // The test's side shares the engine's bus, so that driving the engine drives both.
        orders = rig.engineBus.addExclusivePublication(rig.channels.orders);
        reports = rig.engineBus.addSubscription(rig.channels.reports);
        // The subscriber side connects first; reports reach it once the engine's publication counts it too.
        while (!orders.isConnected() || !reports.isConnected() || !engine.isExecutionReportStreamConnected())
        {
            Await.checkInterrupted();
            engine.doWork();
        }
        // A resting order, so that the book and positions have something to keep unchanged.
        final Object[] report = sendNewOrder(ACCOUNT, INSTRUMENT, Side.Buy, 9_995, 10, ++clientOrderId);
        assertEquals(ExecType.NEW, report[0]);
    }

    @AfterEach
    void close()
    {
        CloseHelper.quietClose(rig);
    }

    @Test
    void shouldRejectBusinessErrorsWithTheirReasonAndLeaveTheBookAlone()
    {
        assertRejected(RejectReason.UNKNOWN_INSTRUMENT, sendNewOrder(ACCOUNT, 99, Side.Buy, 10_000, 10,
            ++clientOrderId));
        assertRejected(RejectReason.INVALID_QUANTITY, sendNewOrder(ACCOUNT, INSTRUMENT, Side.Buy, 10_000, 0,
            ++clientOrderId));
        assertRejected(RejectReason.INVALID_QUANTITY, sendNewOrder(ACCOUNT, INSTRUMENT, Side.Buy, 10_000, -5,
            ++clientOrderId));
        assertRejected(RejectReason.PRICE_OFF_TICK_GRID, sendNewOrder(ACCOUNT, INSTRUMENT, Side.Buy, 10_002, 10,
            ++clientOrderId));
        assertRejected(RejectReason.DUPLICATE_CLIENT_ORDER_ID, sendNewOrder(ACCOUNT, INSTRUMENT, Side.Buy, 9_990, 10,
            101));
        assertRejected(RejectReason.MAX_ORDER_QUANTITY_EXCEEDED, sendNewOrder(SMALL_ACCOUNT, INSTRUMENT, Side.Sell,
            10_005, 1_000, ++clientOrderId));
        assertRejected(RejectReason.UNKNOWN_ACCOUNT, sendNewOrder(12345, INSTRUMENT, Side.Sell, 10_005, 10,
            ++clientOrderId));
        assertRejected(RejectReason.INVALID_SIDE, sendNewOrder(ACCOUNT, INSTRUMENT, Side.NULL_VAL, 10_005, 10,
            ++clientOrderId));

        final long hash = engine.engine().stateHash();
        final CancelOrderEncoder cancel = new CancelOrderEncoder();
        cancel.wrapAndApplyHeader(buffer, 0, header).accountId(ACCOUNT).instrumentId(INSTRUMENT)
            .clientOrderId(4242).sendingTime(1);
        final Object[] cancelReport = send(MessageHeaderEncoder.ENCODED_LENGTH + cancel.encodedLength());
        assertEquals(ExecType.CANCEL_REJECTED, cancelReport[0]);
        assertEquals(RejectReason.UNKNOWN_ORDER.code(), cancelReport[1]);
        assertEquals(hash, engine.engine().stateHash(), "state after a refused cancel");

        assertEquals(ExecType.NEW, sendNewOrder(ACCOUNT, INSTRUMENT, Side.Sell, 10_050, 10, ++clientOrderId)[0],
            "a good order after the bad ones");
        assertEquals(2, engine.engine().book(INSTRUMENT).orderCount());
        assertEquals(0, engine.counters().messageRejects());
    }

    @Test
    void shouldRejectUndecodableMessagesWithAMessageRejectAndKeepRunning()
    {
        final long hash = engine.engine().stateHash();
        final int goodLength = encodeNewOrder(ACCOUNT, INSTRUMENT, Side.Buy, 9_990, 10, ++clientOrderId);

        buffer.putShort(4, (short)99);
        assertMessageReject(MessageRejectReason.UnknownSchema, send(goodLength));
        encodeNewOrder(ACCOUNT, INSTRUMENT, Side.Buy, 9_990, 10, clientOrderId);
        buffer.putShort(6, (short)(MessageHeaderDecoder.SCHEMA_VERSION + 1));
        assertMessageReject(MessageRejectReason.UnsupportedVersion, send(goodLength));
        encodeNewOrder(ACCOUNT, INSTRUMENT, Side.Buy, 9_990, 10, clientOrderId);
        buffer.putShort(2, (short)77);
        assertMessageReject(MessageRejectReason.UnknownTemplate, send(goodLength));
        encodeNewOrder(ACCOUNT, INSTRUMENT, Side.Buy, 9_990, 10, clientOrderId);
        assertMessageReject(MessageRejectReason.Truncated, send(goodLength - 9));
        assertMessageReject(MessageRejectReason.Truncated, send(5));
        encodeNewOrder(ACCOUNT, INSTRUMENT, Side.Buy, 9_990, 10, clientOrderId);
        buffer.putShort(0, (short)8);
        assertMessageReject(MessageRejectReason.BlockTooShort, send(goodLength));

        assertEquals(hash, engine.engine().stateHash(), "state after undecodable messages");
        assertEquals(6, engine.counters().messageRejects());
        assertTrue(rig.counters.errorCount() >= 5, "undecodable messages recorded in the error log");
        assertEquals(ExecType.NEW, sendNewOrder(ACCOUNT, INSTRUMENT, Side.Buy, 9_990, 10, clientOrderId)[0],
            "the same order, well formed, is accepted");
    }

    private void assertRejected(final RejectReason reason, final Object[] report)
    {
        final long hash = engine.engine().stateHash();
        assertEquals(ExecType.REJECTED, report[0], () -> "exec type for " + reason);
        assertEquals(reason.code(), report[1], () -> "reason code for " + reason);
        assertEquals(1, engine.engine().book(INSTRUMENT).orderCount(), "book unchanged");
        assertEquals(hash, engine.engine().stateHash());
    }

    private static void assertMessageReject(final MessageRejectReason reason, final Object[] report)
    {
        assertEquals("MessageReject", report[0]);
        assertEquals(reason, report[1]);
    }

    private Object[] sendNewOrder(
        final int accountId, final int instrumentId, final Side side, final long price, final long quantity,
        final long id)
    {
        return send(encodeNewOrder(accountId, instrumentId, side, price, quantity, id));
    }

    private int encodeNewOrder(
        final int accountId, final int instrumentId, final Side side, final long price, final long quantity,
        final long id)
    {
        newOrder.wrapAndApplyHeader(buffer, 0, header)
            .accountId(accountId)
            .instrumentId(instrumentId)
            .clientOrderId(id)
            .side(side)
            .orderType(OrderType.Limit)
            .timeInForce(TimeInForce.GoodTillCancel)
            .price(price)
            .quantity(quantity)
            .sendingTime(System.nanoTime());
        return MessageHeaderEncoder.ENCODED_LENGTH + newOrder.encodedLength();
    }

    /**
     * Publish the buffer's first bytes and return the first answer: {exec type, reason code} or {"MessageReject",
     * reason}.
     */
    private Object[] send(final int length)
    {
        received.clear();
        while (orders.offer(buffer, 0, length) < 0)
        {
            Await.checkInterrupted();
            engine.doWork();
        }
        final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
        final ExecutionReportDecoder report = new ExecutionReportDecoder();
        final MessageRejectDecoder reject = new MessageRejectDecoder();
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (received.isEmpty() && System.nanoTime() - deadline < 0)
        {
            Await.checkInterrupted();
            engine.doWork();
            reports.poll((buf, offset, len, frame) ->
            {
                headerDecoder.wrap(buf, offset);
                if (ExecutionReportDecoder.TEMPLATE_ID == headerDecoder.templateId())
                {
                    report.wrapAndApplyHeader(buf, offset, headerDecoder);
                    received.add(new Object[] { ExecType.get(report.execTypeRaw()), report.reason() });
                }
                else if (MessageRejectDecoder.TEMPLATE_ID == headerDecoder.templateId())
                {
                    reject.wrapAndApplyHeader(buf, offset, headerDecoder);
                    assertEquals(orders.sessionId(), reject.sessionId(), "the reject names the sender's session");
                    received.add(new Object[] { "MessageReject", reject.reason() });
                }
            }, 10);
        }
        assertNotNull(received.isEmpty() ? null : received.get(0), "an answer within 10 s");
        return received.get(0);
    }
}
