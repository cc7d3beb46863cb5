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

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.warpbus.bus.Bus;
import io.warpbus.bus.BusContext;
import io.warpbus.bus.ExclusivePublication;
import io.warpbus.bus.Subscription;
import io.warpbus.demo.client.LoadClient;
import io.warpbus.demo.service.EngineContext;
import io.warpbus.demo.service.EngineService;
import io.warpbus.iwarp.ThreadingMode;
import io.warpbus.matching.load.LoadProfile;
import io.warpbus.orderentry.sbe.EngineHeartbeatDecoder;
import io.warpbus.orderentry.sbe.ExecutionReportDecoder;
import io.warpbus.orderentry.sbe.MessageHeaderDecoder;
import io.warpbus.orderentry.sbe.MessageHeaderEncoder;
import io.warpbus.orderentry.sbe.NewOrderEncoder;
import io.warpbus.orderentry.sbe.OrderType;
import io.warpbus.orderentry.sbe.ResendRequestEncoder;
import io.warpbus.orderentry.sbe.Side;
import io.warpbus.orderentry.sbe.TimeInForce;
import io.warpbus.testing.Await;
import io.warpbus.testing.FreePorts;
import org.agrona.CloseHelper;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Execution reports sent again on a {@code ResendRequest}: the engine holds the most recent ones, byte for byte, and
 * publishes a requested range in order, skipping what it no longer holds; the load client notices reports it
 * missed (here, dropped as a slow consumer beyond the publisher's window) and gets them back.
 */
@Timeout(60)
class ResendTest
{
    private static final long DEADLINE_NS = TimeUnit.SECONDS.toNanos(20);
    private static final int UNKNOWN_INSTRUMENT = 999;

    @TempDir
    Path dir;
    private EngineRig rig;
    private EngineService engine;
    private final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(128));
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();

    @AfterEach
    void close()
    {
        CloseHelper.quietClose(rig);
    }

    @Test
    void shouldResendHeldReportsInOrderAndSkipThoseNoLongerHeld() throws IOException
    {
        rig = new EngineRig(dir);
        final Bus clientBus = rig.clientBus;
        engine = new EngineService(engineContext().reportHistory(16));
        final ExclusivePublication orders = clientBus.addExclusivePublication(rig.channels.orders);
        awaitTrue(engine::isOrderEntryConnected, "the engine to subscribe");

        // Forty orders answered while no one listens: their reports reach nobody.
        for (int clientOrderId = 1; clientOrderId <= 40; clientOrderId++)
        {
            offer(orders, unknownInstrumentOrder(clientOrderId));
        }
        awaitTrue(() -> 40 == engine.lastExecId(), "forty rejections");
        assertEquals(40, engine.counters().unsentReports());

        final Subscription reports = clientBus.addSubscription(rig.channels.reports);
        final List<long[]> received = new ArrayList<>();
        final long[] greeting = { -1 };
        final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
        final ExecutionReportDecoder report = new ExecutionReportDecoder();
        final EngineHeartbeatDecoder heartbeat = new EngineHeartbeatDecoder();
        final Runnable poll = () -> reports.poll((buffer, offset, length, frameHeader) ->
        {
            headerDecoder.wrap(buffer, offset);
            if (ExecutionReportDecoder.TEMPLATE_ID == headerDecoder.templateId())
            {
                report.wrapAndApplyHeader(buffer, offset, headerDecoder);
                received.add(new long[] { report.execId(), report.clientOrderId() });
            }
            else if (EngineHeartbeatDecoder.TEMPLATE_ID == headerDecoder.templateId())
            {
                greeting[0] = heartbeat.wrapAndApplyHeader(buffer, offset, headerDecoder).lastExecId();
            }
        }, 64);
        awaitTrue(() ->
        {
            poll.run();
            return greeting[0] >= 0;
        }, "the engine's greeting");
        assertEquals(40, greeting[0], "the greeting names the last exec id");

        resend(orders, 1, 0);
        awaitTrue(() ->
        {
            poll.run();
            return received.size() >= 16;
        }, "the resent reports");
        resend(orders, 30, 33);
        awaitTrue(() ->
        {
            poll.run();
            return received.size() >= 20;
        }, "the second range");

        final List<long[]> expected = new ArrayList<>();
        for (int execId = 25; execId <= 40; execId++)
        {
            expected.add(new long[] { execId, execId });
        }
        for (int execId = 30; execId <= 33; execId++)
        {
            expected.add(new long[] { execId, execId });
        }
        assertEquals(expected.size(), received.size());
        for (int i = 0; i < expected.size(); i++)
        {
            assertEquals(expected.get(i)[0], received.get(i)[0], "exec id of resent report " + i);
            assertEquals(expected.get(i)[1], received.get(i)[1], "client order id of resent report " + i);
        }
        assertEquals(20, engine.counters().resentReports());
    }

    @Test
    void shouldRecoverReportsMissedWhileDroppedAsASlowConsumer() throws IOException
    {
        // A small publisher window, so that a subscriber dropped for long enough cannot be caught up by the bus.
        rig = new EngineRig(dir, Bus.launch(new BusContext().directory(dir).name("engine")
            .threadingMode(ThreadingMode.INVOKER).termLength(64 * 1024).window(2 * 1024 * 1024)
            .ringCapacity(1024 * 1024)));
        final String otherOrders = "warp:iwarp?endpoint=127.0.0.1:" + FreePorts.loopback() + "|stream=1001";
        engine = new EngineService(engineContext().orderEntryChannel(otherOrders));
        final LoadProfile profile = LoadProfile.tradingDay(2, 11).commandsPerSecond(50_000);
        final LoadClient client = new LoadClient(rig.clientBus, rig.channels.orders,
            rig.channels.reports + "|policy=drop|ring=256k|lag=192k", profile, 500, SystemNanoClock.INSTANCE);
        final ExclusivePublication other = rig.engineBus.addExclusivePublication(otherOrders);

        awaitTrue(() ->
        {
            client.doWork();
            return client.isDone();
        }, "the client's first commands answered");
        final long before = client.highestExecId();

        // Another client's orders, while this one is not read: its link falls behind and is dropped.
        for (int clientOrderId = 1; clientOrderId <= 20_000; clientOrderId++)
        {
            offer(other, unknownInstrumentOrder(clientOrderId));
        }
        awaitTrue(() -> before + 20_000 == engine.lastExecId(), "the other client's orders answered");
        assertTrue(engine.counters().unsentReports() > 0, "reports went to nobody while the client was dropped");

        awaitTrue(() ->
        {
            client.doWork();
            return client.highestExecId() == engine.lastExecId() && !client.isRepairing();
        }, "the client to catch up");

        assertTrue(client.resentReports() > 0, "reports recovered by resend: " + client.resentReports());
        assertEquals(0, client.execIdGaps(), "reports missing for good; resend requests " + client.resendRequests() +
            ", resent " + client.resentReports() + " of the engine's " + engine.counters().resentReports() +
            ", duplicates " + client.duplicateReports() + ", unsent " + engine.counters().unsentReports());
        assertEquals(client.highestExecId(), client.reports(), "every exec id taken exactly once");
        assertEquals(client.resentReports(), engine.counters().resentReports() - client.duplicateReports());
    }

    /**
     * The engine of both tests: the rig's channels, two instruments and their accounts.
     */
    private EngineContext engineContext()
    {
        return rig.context(LoadProfile.tradingDay(2, 11));
    }

    /**
     * A new order that is rejected (and so gets exactly one report) without touching any book.
     */
    private int unknownInstrumentOrder(final long clientOrderId)
    {
        final NewOrderEncoder order = new NewOrderEncoder().wrapAndApplyHeader(message, 0, header)
            .accountId(1).instrumentId(UNKNOWN_INSTRUMENT).clientOrderId(clientOrderId).side(Side.Buy)
            .orderType(OrderType.Limit).timeInForce(TimeInForce.GoodTillCancel).price(100).quantity(1).sendingTime(1);
        return MessageHeaderEncoder.ENCODED_LENGTH + order.encodedLength();
    }

    private void resend(final ExclusivePublication orders, final long from, final long to)
    {
        final ResendRequestEncoder request = new ResendRequestEncoder().wrapAndApplyHeader(message, 0, header)
            .fromExecId(from).toExecId(to).sendingTime(1);
        offer(orders, MessageHeaderEncoder.ENCODED_LENGTH + request.encodedLength());
    }

    private void offer(final ExclusivePublication publication, final int length)
    {
        Await.until("an offer on " + publication.channel() + " to be accepted",
            TimeUnit.NANOSECONDS.toMillis(DEADLINE_NS), this::drive, () -> publication.offer(message, 0, length) >= 0);
        drive();
    }

    private void awaitTrue(final java.util.function.BooleanSupplier condition, final String what)
    {
        Await.until(what, TimeUnit.NANOSECONDS.toMillis(DEADLINE_NS), this::drive, condition);
    }

    private void drive()
    {
        Await.checkInterrupted();
        engine.doWork();
        rig.clientBus.doWork();
    }
}
