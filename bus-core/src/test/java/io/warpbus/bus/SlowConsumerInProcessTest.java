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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.warpbus.iwarp.ThreadingMode;
import io.warpbus.testing.Await;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Deterministic, single-thread reproductions ({@link ThreadingMode#INVOKER}: publisher and subscriber on one bus,
 * one duty cycle at a time) of the slow-consumer bugs the multi-process tests found. Each builds the exact state
 * that triggers a bug in a few hundred milliseconds, without depending on process scheduling.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SlowConsumerInProcessTest
{
    private static final int SIZE = 64;

    @TempDir
    Path dir;
    private Bus bus;
    private final List<String> events = new ArrayList<>();

    @AfterEach
    void tearDown()
    {
        if (null != bus)
        {
            bus.close();
        }
    }

    /**
     * A drop subscriber that lagged beyond {@code lag=} is dropped, then the publisher goes idle. Its resume point
     * lies beyond its drop lag, so it rejoins live and is told what it missed: it must neither be dropped again
     * and again nor lose track of a message.
     */
    @ParameterizedTest
    @ValueSource(strings = { "ipc", "iwarp" })
    void shouldLetADroppedSubscriberCatchUpOnceThePublisherIsIdle(final String transport) throws Exception
    {
        launch();
        final String channel = BusLoopbackTest.channel(transport, 11);
        final Subscription fast = bus.addSubscription(channel);
        final Subscription subscription = bus.addSubscription(channel + "|policy=drop", listener());
        final ExclusivePublication publication = bus.addExclusivePublication(channel + "|lag=128k");
        awaitCondition(() -> 2 == publication.subscriberCount(), "both subscribers to connect");

        final int count = 2_000;
        final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(SIZE));
        for (int i = 0; i < count; )
        {
            Await.checkInterrupted();
            BusTestProcess.fill(message, i, SIZE, 0);
            if (publication.offer(message, 0, SIZE) > 0)
            {
                i++;
            }
            bus.doWork();
            fast.poll((buffer, offset, length, header) -> { }, 256);
        }
        awaitCondition(() -> events.stream().anyMatch((e) -> e.contains("dropped subscriber")),
            "the subscriber to be dropped for lagging " + count * 96 + " bytes behind a lag of 128k");

        final long[] next = { 0 };
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        while (next[0] < count && System.nanoTime() - deadline < 0)
        {
            Await.checkInterrupted();
            bus.doWork();
            fast.poll((buffer, offset, length, header) -> { }, 256);
            subscription.poll((buffer, offset, length, header) -> next[0] = buffer.getLong(offset) + 1, 64);
        }
        assertEquals(count, next[0] + subscription.missingMessages(),
            "the dropped subscriber never caught up with an idle publisher; events: " + events);
    }

    /**
     * A conflating subscriber over iWARP that stops polling while a blocking one keeps the publisher busy: it gets
     * the latest message per key and is never dropped, though it skips frames without writing anything for a while.
     */
    @Test
    void shouldNeverDropAPausedConflatingSubscriberOverIwarp() throws Exception
    {
        launch(TimeUnit.SECONDS.toNanos(1));
        final String channel = BusLoopbackTest.channel("iwarp", 12);
        final Subscription fast = bus.addSubscription(channel);
        final Subscription conflating = bus.addSubscription(channel + "|policy=conflate", listener());
        final ExclusivePublication publication = bus.addExclusivePublication(channel + "|conflation-key=" +
            BusTestProcess.KEY_OFFSET + ":4");
        awaitCondition(() -> 2 == publication.subscriberCount(), "both subscribers to connect");

        final int count = 200_000;
        final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(SIZE));
        for (int i = 0; i < count; )
        {
            Await.checkInterrupted();
            BusTestProcess.fill(message, i, SIZE, 16);
            if (publication.offer(message, 0, SIZE) > 0)
            {
                i++;
            }
            bus.doWork();
            fast.poll((buffer, offset, length, header) -> { }, 256);
            if (events.stream().anyMatch((e) -> e.startsWith("unavailable")))
            {
                fail("the conflating subscriber (not polling) lost its image after " + i + " messages: " + events +
                    " (" + conflating + ")");
            }
        }
    }

    private ImageListener listener()
    {
        return new ImageListener()
        {
            @Override
            public void onUnavailable(final Image image, final String reason)
            {
                events.add("unavailable: " + reason);
            }
        };
    }

    private void launch()
    {
        launch(BusConfiguration.HEARTBEAT_INTERVAL_DEFAULT_NS);
    }

    private void launch(final long heartbeatIntervalNs)
    {
        bus = Bus.launch(new BusContext().directory(dir).name("test").threadingMode(ThreadingMode.INVOKER)
            .heartbeatIntervalNs(heartbeatIntervalNs).livenessTimeoutNs(10 * heartbeatIntervalNs)
            .termLength(BusTestProcess.TERM_LENGTH).window(BusTestProcess.WINDOW).ringCapacity(BusTestProcess.RING)
            .errorHandler((throwable) -> events.add("error: " + throwable.getMessage())));
    }

    private void awaitCondition(final java.util.function.BooleanSupplier condition, final String what)
    {
        Await.until(() -> what + "; events: " + events, 10_000, bus::doWork, condition);
    }
}
