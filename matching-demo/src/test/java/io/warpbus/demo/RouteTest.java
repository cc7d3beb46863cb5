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

import io.warpbus.bus.Bus;
import io.warpbus.bus.ExclusivePublication;
import io.warpbus.bus.Subscription;
import io.warpbus.demo.service.EngineContext;
import io.warpbus.demo.service.EngineService;
import io.warpbus.matching.load.LoadProfile;
import io.warpbus.orderentry.RejectReason;
import io.warpbus.orderentry.sbe.CancelOrderEncoder;
import io.warpbus.orderentry.sbe.EngineHeartbeatDecoder;
import io.warpbus.orderentry.sbe.ExecType;
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
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Routes: each gateway's execution reports come back on its own stream, by the origin in the top 16 bits of the
 * client order id, resting orders' fills included; exec ids count per route; a command naming another origin is
 * refused on its own stream; the drop copy gets everything; resend and recovery work per route.
 */
@Timeout(60)
class RouteTest
{
    private static final long TIMEOUT_MS = 20_000;
    private static final LoadProfile PROFILE = LoadProfile.tradingDay(2, 11);
    private static final int INSTRUMENT = 1;
    private static final long PRICE = LoadProfile.FIRST_REFERENCE_PRICE;
    private static final long GATEWAY_1 = 1L << 48;
    private static final long GATEWAY_2 = 2L << 48;

    @TempDir
    Path dir;
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(128));
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private Bus engineBus;
    private Bus clientBus;
    private EngineService engine;
    private String dropCopy;
    private String[] orders;
    private String[] reports;
    private DemoRig rig;

    @AfterEach
    void close()
    {
        if (null != engine)
        {
            engine.onClose();
        }
        for (int i = closeables.size() - 1; i >= 0; i--)
        {
            CloseHelper.quietClose(closeables.get(i));
        }
    }

    @Test
    void shouldRouteEachReportToTheRouteOfItsOrdersOrigin() throws IOException
    {
        start(null);
        final ExclusivePublication[] publications = publications();
        final Reports copies = new Reports(clientBus.addSubscription(dropCopy));
        final Reports[] received = subscribe();
        Await.until("the drop copy's greeting", TIMEOUT_MS, this::drive,
            () -> copies.poll() >= 0 && 0 == copies.greeting());

        // Gateway 1 rests a sell; gateway 2 takes it; the default route's client rests a buy below.
        offer(publications[1], newOrder(GATEWAY_1 | 1, 1, Side.Sell, PRICE, 10));
        offer(publications[2], newOrder(GATEWAY_2 | 1, 2, Side.Buy, PRICE, 4));
        offer(publications[0], newOrder(7, 3, Side.Buy, PRICE - 10, 5));
        Await.until("every report", TIMEOUT_MS, this::drive,
            () -> received[1].poll() + received[2].poll() + received[0].poll() + copies.poll() >= 0 &&
            received[1].size() >= 2 && received[2].size() >= 2 && received[0].size() >= 1 && copies.size() >= 5);

        for (int route = 0; route < 3; route++)
        {
            for (int i = 0; i < received[route].size(); i++)
            {
                assertEquals(route, received[route].clientOrderId(i) >>> 48, "origin of a report on route " + route);
                assertEquals(i + 1, received[route].execId(i), "exec ids count per route");
            }
        }
        assertEquals(ExecType.New, received[1].execType(0));
        assertEquals(ExecType.PartiallyFilled, received[1].execType(1), "the resting order's fill reached its owner");
        assertEquals(4, received[1].lastQuantity(1));
        assertEquals(ExecType.Filled, received[2].execType(received[2].size() - 1));
        assertEquals(2, received[1].size());
        assertEquals(1, received[0].size());
        assertEquals(received[0].size() + received[1].size() + received[2].size(), copies.size(),
            "the drop copy has every report of every route");
        assertEquals(2, engine.lastExecId(1));
        assertEquals(1, engine.lastExecId());
    }

    @Test
    void shouldRefuseACommandOfAnotherOriginOnTheStreamItCameOn() throws IOException
    {
        start(null);
        final ExclusivePublication[] publications = publications();
        final Reports[] received = subscribe();

        offer(publications[1], newOrder(GATEWAY_2 | 5, 1, Side.Buy, PRICE, 1));
        offer(publications[1], cancel(GATEWAY_2 | 6, 1));
        offer(publications[0], newOrder(GATEWAY_1 | 7, 1, Side.Buy, PRICE, 1));
        Await.until("the rejections", TIMEOUT_MS, this::drive,
            () -> received[1].poll() + received[0].poll() >= 0 && received[1].size() >= 2 && received[0].size() >= 1);

        assertEquals(ExecType.Rejected, received[1].execType(0));
        assertEquals(RejectReason.WRONG_ORIGIN.code(), received[1].reason(0));
        assertEquals(ExecType.CancelRejected, received[1].execType(1));
        assertEquals(RejectReason.WRONG_ORIGIN.code(), received[1].reason(1));
        assertEquals(ExecType.Rejected, received[0].execType(0));
        assertEquals(RejectReason.WRONG_ORIGIN.code(), received[0].reason(0));
        received[2].poll();
        assertEquals(0, received[2].size(), "nothing reached the origin the commands claimed");
        assertEquals(0, engine.engine().liveOrderCount(1), "no order entered the book");
    }

    @Test
    void shouldResendARoutesOwnReportsAndKeepNumberingAcrossARestart() throws IOException
    {
        start(dir.resolve("journal"));
        ExclusivePublication[] publications = publications();
        Reports[] received = subscribe();
        for (int i = 1; i <= 5; i++)
        {
            offer(publications[1], newOrder(GATEWAY_1 | i, 1, Side.Sell, PRICE + i, 1));
            offer(publications[2], newOrder(GATEWAY_2 | i, 2, Side.Buy, PRICE - i, 1));
        }
        final Reports first = received[1];
        Await.until("five reports on route 1", TIMEOUT_MS, this::drive, () -> first.poll() >= 0 && first.size() >= 5);

        restart(dir.resolve("journal"));
        publications = publications();
        received = subscribe();
        final Reports resent = received[1];
        Await.until("the greeting", TIMEOUT_MS, this::drive, () -> resent.poll() >= 0 && resent.greeting() >= 0);
        assertEquals(5, resent.greeting(), "the restarted engine names route 1's last exec id");
        offer(publications[1], resend(2, 0));
        offer(publications[1], newOrder(GATEWAY_1 | 6, 1, Side.Sell, PRICE + 6, 1));
        Await.until("the resent reports and a new one", TIMEOUT_MS, this::drive,
            () -> resent.poll() >= 0 && resent.size() >= 5);

        for (int i = 0; i < 4; i++)
        {
            assertEquals(i + 2, resent.execId(i), "resent in order, route 1's own");
            assertEquals(GATEWAY_1 | (i + 2), resent.clientOrderId(i));
        }
        assertEquals(6, resent.execId(4), "numbering goes on after the restart");
        assertEquals(5, engine.lastExecId(2), "route 2 numbered on its own");
    }

    @Test
    void shouldRefuseToRecoverAJournalWithARouteNoLongerConfigured() throws IOException
    {
        start(dir.resolve("journal"));
        final ExclusivePublication[] publications = publications();
        final Reports[] received = subscribe();
        offer(publications[2], newOrder(GATEWAY_2 | 1, 2, Side.Buy, PRICE, 1));
        Await.until("the report", TIMEOUT_MS, this::drive, () -> received[2].poll() >= 0 && received[2].size() >= 1);
        engine.onClose();
        engine = null;

        final EngineContext withoutRoute2 = context(dir.resolve("journal"), 1);
        final IllegalStateException refused = assertThrows(IllegalStateException.class,
            () -> new EngineService(withoutRoute2));
        assertTrue(refused.getMessage().contains("origin 2"), refused.getMessage());
    }

    private void start(final Path journal) throws IOException
    {
        rig = new DemoRig();
        orders = new String[] { rig.orders, channel(FreePorts.loopback(), 1001), channel(FreePorts.loopback(), 1001) };
        final int enginePort = Integer.parseInt(rig.reports.replaceAll(".*:([0-9]+)\\|.*", "$1"));
        reports = new String[] { rig.reports, channel(enginePort, 1011), channel(enginePort, 1012) };
        dropCopy = channel(enginePort, 1005);
        engineBus = DemoRig.bus(dir, "engine");
        clientBus = DemoRig.bus(dir, "client");
        closeables.add(engineBus);
        closeables.add(clientBus);
        engine = new EngineService(context(journal, 2));
    }

    private void restart(final Path journal)
    {
        engine.onClose();
        CloseHelper.quietClose(clientBus);
        clientBus = DemoRig.bus(dir, "client-again");
        closeables.add(clientBus);
        engine = new EngineService(context(journal, 2));
    }

    private EngineContext context(final Path journal, final int routes)
    {
        final AppCounters counters = new AppCounters(dir.resolve("engine-app-" + closeables.size()));
        closeables.add(counters);
        // The default route is the rig's own channels, orders[0] and reports[0].
        final EngineContext context = rig.engineContext(engineBus, counters, PROFILE)
            .dropCopyChannel(dropCopy)
            .journalDirectory(journal);
        for (int origin = 1; origin <= routes; origin++)
        {
            context.route(origin, orders[origin], reports[origin]);
        }
        return context;
    }

    private ExclusivePublication[] publications()
    {
        final ExclusivePublication[] publications = new ExclusivePublication[orders.length];
        for (int i = 0; i < orders.length; i++)
        {
            publications[i] = clientBus.addExclusivePublication(orders[i]);
        }
        Await.until("the engine to subscribe to every route", TIMEOUT_MS, this::drive, engine::isOrderEntryConnected);
        return publications;
    }

    private Reports[] subscribe()
    {
        final Reports[] received = new Reports[reports.length];
        for (int i = 0; i < reports.length; i++)
        {
            received[i] = new Reports(clientBus.addSubscription(reports[i]));
        }
        Await.until("every route's greeting", TIMEOUT_MS, this::drive, () ->
        {
            boolean all = true;
            for (final Reports route : received)
            {
                route.poll();
                all &= route.greeting() >= 0;
            }
            return all;
        });
        return received;
    }

    private static String channel(final int port, final int stream)
    {
        return "warp:iwarp?endpoint=127.0.0.1:" + port + "|stream=" + stream;
    }

    private int newOrder(final long clientOrderId, final int accountId, final Side side, final long price,
        final long quantity)
    {
        final NewOrderEncoder order = new NewOrderEncoder().wrapAndApplyHeader(message, 0, header)
            .accountId(accountId).instrumentId(INSTRUMENT).clientOrderId(clientOrderId).side(side)
            .orderType(OrderType.Limit).timeInForce(TimeInForce.GoodTillCancel).price(price).quantity(quantity)
            .sendingTime(1);
        return MessageHeaderEncoder.ENCODED_LENGTH + order.encodedLength();
    }

    private int cancel(final long clientOrderId, final int accountId)
    {
        final CancelOrderEncoder cancel = new CancelOrderEncoder().wrapAndApplyHeader(message, 0, header)
            .accountId(accountId).instrumentId(INSTRUMENT).clientOrderId(clientOrderId).sendingTime(1);
        return MessageHeaderEncoder.ENCODED_LENGTH + cancel.encodedLength();
    }

    private int resend(final long from, final long to)
    {
        final ResendRequestEncoder request = new ResendRequestEncoder().wrapAndApplyHeader(message, 0, header)
            .fromExecId(from).toExecId(to).sendingTime(1);
        return MessageHeaderEncoder.ENCODED_LENGTH + request.encodedLength();
    }

    private void offer(final ExclusivePublication publication, final int length)
    {
        Await.until("an offer on " + publication.channel(), TIMEOUT_MS, this::drive,
            () -> publication.offer(message, 0, length) > 0);
        drive();
    }

    private void drive()
    {
        engine.doWork();
        clientBus.doWork();
    }

    /**
     * The execution reports and greeting seen on one report stream.
     */
    private static final class Reports
    {
        private final Subscription subscription;
        private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
        private final ExecutionReportDecoder decoder = new ExecutionReportDecoder();
        private final EngineHeartbeatDecoder heartbeat = new EngineHeartbeatDecoder();
        private final List<long[]> reports = new ArrayList<>();
        private long greeting = -1;

        Reports(final Subscription subscription)
        {
            this.subscription = subscription;
        }

        int poll()
        {
            return subscription.poll((buffer, offset, length, frameHeader) ->
            {
                headerDecoder.wrap(buffer, offset);
                if (ExecutionReportDecoder.TEMPLATE_ID == headerDecoder.templateId())
                {
                    decoder.wrapAndApplyHeader(buffer, offset, headerDecoder);
                    reports.add(new long[] { decoder.execId(), decoder.clientOrderId(), decoder.execTypeRaw(),
                        decoder.reason(), decoder.lastQuantity() });
                }
                else if (EngineHeartbeatDecoder.TEMPLATE_ID == headerDecoder.templateId())
                {
                    greeting = heartbeat.wrapAndApplyHeader(buffer, offset, headerDecoder).lastExecId();
                }
            }, 64);
        }

        int size()
        {
            return reports.size();
        }

        long execId(final int i)
        {
            return reports.get(i)[0];
        }

        long clientOrderId(final int i)
        {
            return reports.get(i)[1];
        }

        ExecType execType(final int i)
        {
            return ExecType.get((short)reports.get(i)[2]);
        }

        long reason(final int i)
        {
            return reports.get(i)[3];
        }

        long lastQuantity(final int i)
        {
            return reports.get(i)[4];
        }

        long greeting()
        {
            return greeting;
        }
    }
}
