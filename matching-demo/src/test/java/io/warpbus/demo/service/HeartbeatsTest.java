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
package io.warpbus.demo.service;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.warpbus.bus.Bus;
import io.warpbus.bus.BusContext;
import io.warpbus.bus.ExclusivePublication;
import io.warpbus.bus.Subscription;
import io.warpbus.demo.AppCounters;
import io.warpbus.iwarp.ThreadingMode;
import io.warpbus.marketdata.sbe.HeartbeatDecoder;
import io.warpbus.testing.Await;
import io.warpbus.orderentry.sbe.EngineHeartbeatDecoder;
import org.agrona.CloseHelper;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.status.AtomicCounter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Heartbeats} over IPC streams on one {@code INVOKER} bus, with a hand-set epoch clock: what goes out on the
 * market-data, report and drop-copy streams, and when.
 */
@Timeout(30)
class HeartbeatsTest
{
    private static final long INTERVAL_NS = 100;
    private static final long START_NS = 1_000;
    private static final long EPOCH_NS = 1_700_000_000_000_000_000L;

    @TempDir
    Path dir;
    private Bus bus;
    private AppCounters appCounters;
    private final long[] epochNs = { EPOCH_NS };
    private Subscription marketDataIn;
    private Subscription reportsIn;
    private Subscription dropCopyIn;
    private ReportRoute route;
    private Heartbeats heartbeats;

    @BeforeEach
    void setUp()
    {
        bus = Bus.launch(new BusContext().directory(dir).name("heartbeats").threadingMode(ThreadingMode.INVOKER)
            .termLength(64 * 1024).window(1024 * 1024).ringCapacity(256 * 1024));
        appCounters = new AppCounters(dir.resolve("app"));
        final EngineCounters counters = new EngineCounters(appCounters);
        marketDataIn = bus.addSubscription("warp:ipc?stream=1003");
        reportsIn = bus.addSubscription("warp:ipc?stream=1002");
        dropCopyIn = bus.addSubscription("warp:ipc?stream=1005");
        final OutboundStream marketData = stream("warp:ipc?stream=1003", counters.marketDataStream);
        final OutboundStream reports = stream("warp:ipc?stream=1002", counters.reportStream(0));
        final OutboundStream dropCopy = stream("warp:ipc?stream=1005", counters.dropCopyStream());
        Await.until("the three outbound streams to connect", 10_000, () ->
        {
            bus.doWork();
            return marketData.isConnected() && reports.isConnected() && dropCopy.isConnected();
        });
        route = new ReportRoute(0, reports, counters.resentReports, 16);
        route.lastExecId(7);
        heartbeats = new Heartbeats(marketData, new ReportRoute[]{ route }, dropCopy, appCounters,
            () -> epochNs[0], INTERVAL_NS);
        heartbeats.schedule(START_NS);
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.quietCloseAll(bus, appCounters);
    }

    @Test
    void shouldSendOneHeartbeatOnEveryStreamWhenDueAndNoneBefore()
    {
        assertEquals(0, heartbeats.onDeadline(START_NS + INTERVAL_NS - 1));
        assertEquals(List.of(), drain(marketDataIn, 0));

        epochNs[0] = EPOCH_NS + 5;
        assertEquals(1, heartbeats.onDeadline(START_NS + INTERVAL_NS + 10));

        assertEquals(List.of("Heartbeat " + (EPOCH_NS + 5)), drain(marketDataIn, 1));
        assertEquals(List.of("EngineHeartbeat 7 " + (EPOCH_NS + 5)), drain(reportsIn, 1),
            "the route's heartbeat names its last exec id");
        assertEquals(List.of("EngineHeartbeat 0 " + (EPOCH_NS + 5)), drain(dropCopyIn, 1),
            "the drop copy interleaves routes: its heartbeat names no exec id");
    }

    @Test
    void shouldMakeTheNextHeartbeatsDueOneIntervalAfterTheLast()
    {
        final long firstNs = START_NS + INTERVAL_NS + 10;
        assertEquals(1, heartbeats.onDeadline(firstNs));
        assertEquals(0, heartbeats.onDeadline(firstNs + INTERVAL_NS - 1));
        assertEquals(1, heartbeats.onDeadline(firstNs + INTERVAL_NS));
        assertEquals(2, drain(marketDataIn, 2).size());
    }

    @Test
    void shouldGreetANewReportSubscriberOnceAndLeaveMarketDataAlone()
    {
        assertEquals(2, heartbeats.greetSubscribers(), "the route's stream and the drop copy each gained one");
        assertEquals(0, heartbeats.greetSubscribers(), "no new subscriber since");

        assertEquals(List.of("EngineHeartbeat 7 " + EPOCH_NS), drain(reportsIn, 1));
        assertEquals(List.of("EngineHeartbeat 0 " + EPOCH_NS), drain(dropCopyIn, 1));
        assertEquals(List.of(), drain(marketDataIn, 0));
    }

    private OutboundStream stream(final String channel, final AtomicCounter[] counters)
    {
        final ExclusivePublication publication = bus.addExclusivePublication(channel);
        return new OutboundStream(publication, bus::doWork, new BackoffIdleStrategy(),
            counters[0], counters[1], counters[2], counters[3], counters[4]);
    }

    /**
     * Poll until {@code expected} messages arrived, then a little longer to catch any beyond them.
     */
    private List<String> drain(final Subscription subscription, final int expected)
    {
        final List<String> messages = new ArrayList<>();
        final HeartbeatDecoder heartbeat = new HeartbeatDecoder();
        final EngineHeartbeatDecoder engineHeartbeat = new EngineHeartbeatDecoder();
        final io.warpbus.marketdata.sbe.MessageHeaderDecoder marketDataHeader =
            new io.warpbus.marketdata.sbe.MessageHeaderDecoder();
        final io.warpbus.orderentry.sbe.MessageHeaderDecoder orderEntryHeader =
            new io.warpbus.orderentry.sbe.MessageHeaderDecoder();
        int idleRounds = 0;
        while (messages.size() < expected || idleRounds < 100)
        {
            Await.checkInterrupted();
            final int work = bus.doWork() + subscription.poll((buffer, offset, length, header) ->
            {
                marketDataHeader.wrap(buffer, offset);
                if (HeartbeatDecoder.SCHEMA_ID == marketDataHeader.schemaId() &&
                    HeartbeatDecoder.TEMPLATE_ID == marketDataHeader.templateId())
                {
                    heartbeat.wrapAndApplyHeader(buffer, offset, marketDataHeader);
                    messages.add("Heartbeat " + heartbeat.timestamp());
                    return;
                }
                orderEntryHeader.wrap(buffer, offset);
                if (EngineHeartbeatDecoder.SCHEMA_ID == orderEntryHeader.schemaId() &&
                    EngineHeartbeatDecoder.TEMPLATE_ID == orderEntryHeader.templateId())
                {
                    engineHeartbeat.wrapAndApplyHeader(buffer, offset, orderEntryHeader);
                    messages.add("EngineHeartbeat " + engineHeartbeat.lastExecId() + " " +
                        engineHeartbeat.transactTime());
                    return;
                }
                messages.add("unexpected template " + marketDataHeader.templateId());
            }, 10);
            idleRounds = messages.size() >= expected && 0 == work ? idleRounds + 1 : 0;
        }
        assertTrue(messages.size() >= expected, "messages: " + messages);
        return messages;
    }
}
