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
package io.warpbus.bus;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.warpbus.iwarp.ThreadingMode;
import io.warpbus.testing.Await;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Liveness between two processes whose wall clocks disagree, as after a step of one of them (NTP) or between two
 * hosts: each side writes its wall clock as its heartbeat, so the other side judges it by the heartbeat changing,
 * timed on its own monotonic clock, never by the heartbeat's value against its own wall clock. Two buses in one JVM
 * stand for the two processes, the subscriber's on a wall clock an hour away, over shared memory and over iWARP.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HeartbeatClockStepTest
{
    private static final long HEARTBEAT_NS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long LIVENESS_NS = 10 * HEARTBEAT_NS;
    private static final long HOUR_MS = TimeUnit.HOURS.toMillis(1);

    @TempDir
    Path dir;
    private Bus publisherBus;
    private Bus subscriberBus;
    private ExclusivePublication publication;
    private final AtomicLong subscriberClockStepMs = new AtomicLong();
    private final List<String> events = new CopyOnWriteArrayList<>();
    private final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(32));
    private long sent;
    private long received;

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(subscriberBus, publisherBus);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = { "ipc", "iwarp" })
    void shouldKeepAPublisherWhoseHeartbeatLooksAnHourOld(final String transport) throws Exception
    {
        final Subscription subscription = connect(transport);
        subscriberClockStepMs.set(HOUR_MS);

        // Three liveness timeouts of a live publisher, a message every few milliseconds.
        final long endNs = System.nanoTime() + 3 * LIVENESS_NS;
        long nextOfferNs = 0;
        while (System.nanoTime() - endNs < 0)
        {
            Await.checkInterrupted();
            if (System.nanoTime() - nextOfferNs >= 0 && offer())
            {
                nextOfferNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(5);
            }
            publisherBus.doWork();
            subscriberBus.doWork();
            poll(subscription);
        }
        Await.until(() -> "the last messages; events: " + events, 10_000, this::doWork, () -> received == sent);

        assertTrue(events.isEmpty(), "nothing lost or closed: " + events);
        assertEquals(1, subscription.imageCount(), "still connected");
        assertTrue(sent > 50, "messages sent throughout: " + sent);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = { "ipc", "iwarp" })
    void shouldTimeOutAStalledPublisherWhoseHeartbeatLooksAnHourAhead(final String transport) throws Exception
    {
        final Subscription subscription = connect(transport);
        subscriberClockStepMs.set(-HOUR_MS);

        // The publisher's bus stops: its heartbeat no longer changes, though it reads an hour in the future here.
        final long stalledNs = System.nanoTime();
        Await.until(() -> "the stalled publisher to be timed out; events: " + events, 10_000, subscriberBus::doWork,
            () -> 0 == subscription.imageCount());
        final long tookNs = System.nanoTime() - stalledNs;

        assertEquals(1, events.size(), events.toString());
        assertTrue(events.get(0).startsWith("unavailable: publisher heartbeat timeout: nothing heard for "),
            events.toString());
        // The last heartbeat it saw came up to an interval before the stall.
        assertTrue(tookNs >= LIVENESS_NS - 2 * HEARTBEAT_NS, "not before the liveness timeout from the last " +
            "heartbeat: " + tookNs / 1_000_000 + " ms");
    }

    private Subscription connect(final String transport) throws Exception
    {
        final String channel = BusLoopbackTest.channel(transport, 61);
        publisherBus = Bus.launch(context("publisher"));
        subscriberBus = Bus.launch(context("subscriber")
            .epochClock(() -> System.currentTimeMillis() + subscriberClockStepMs.get()));
        final Subscription subscription = subscriberBus.addSubscription(channel, new ImageListener()
        {
            @Override
            public void onUnavailable(final Image image, final String reason)
            {
                events.add("unavailable: " + reason);
            }
        });
        publication = publisherBus.addExclusivePublication(channel);
        Await.until(() -> "the subscriber to join; events: " + events, 10_000, this::doWork,
            () -> 1 == publication.subscriberCount() && 1 == subscription.imageCount());
        assertTrue(offer(), "the first message");
        Await.until(() -> "the first message; events: " + events, 10_000, this::doWork, () ->
        {
            poll(subscription);
            return 1 == received;
        });
        return subscription;
    }

    private BusContext context(final String name)
    {
        return new BusContext().directory(dir).name(name).threadingMode(ThreadingMode.INVOKER)
            .heartbeatIntervalNs(HEARTBEAT_NS).livenessTimeoutNs(LIVENESS_NS)
            .termLength(BusTestProcess.TERM_LENGTH).window(BusTestProcess.WINDOW).ringCapacity(BusTestProcess.RING)
            .errorHandler((throwable) -> events.add("error (" + name + "): " + throwable.getMessage()));
    }

    private void doWork()
    {
        publisherBus.doWork();
        subscriberBus.doWork();
    }

    private boolean offer()
    {
        message.putLong(0, sent + 1);
        if (publication.offer(message, 0, message.capacity()) > 0)
        {
            sent++;
            return true;
        }
        return false;
    }

    private void poll(final Subscription subscription)
    {
        subscription.poll((buffer, offset, length, header) ->
        {
            assertEquals(received + 1, buffer.getLong(offset), "the next message");
            received++;
        }, 100);
    }
}
