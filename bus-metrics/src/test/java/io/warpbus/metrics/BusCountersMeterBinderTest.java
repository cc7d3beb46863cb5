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
package io.warpbus.metrics;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.warpbus.bus.Bus;
import io.warpbus.bus.BusContext;
import io.warpbus.bus.ExclusivePublication;
import io.warpbus.bus.Subscription;
import io.warpbus.bus.status.CountersFile;
import io.warpbus.iwarp.ThreadingMode;
import io.warpbus.testing.Await;
import io.warpbus.testing.FreePorts;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real bus publishing over iWARP on loopback, its counters file mapped from outside as another process would, and
 * the meters the binder makes of it: names, tags, live values, and meters leaving with their counters.
 */
@Timeout(60)
class BusCountersMeterBinderTest
{
    @TempDir
    Path dir;
    private Bus bus;
    private CountersFile file;
    private BusCountersMeterBinder binder;

    @AfterEach
    void close()
    {
        CloseHelper.quietCloseAll(binder, file, bus);
    }

    @Test
    void shouldExposeTheBussCountersAsTaggedMetersThatFollowTheirValuesAndLeaveWithThem() throws IOException
    {
        final String channel = "warp:iwarp?endpoint=127.0.0.1:" + FreePorts.loopback() + "|stream=1001";
        bus = Bus.launch(new BusContext().directory(dir).name("metrics-test").threadingMode(ThreadingMode.INVOKER));
        final ExclusivePublication publication = bus.addExclusivePublication(channel);
        final Subscription subscription = bus.addSubscription(channel + "|name=md-reader");
        Await.until("the subscription to connect", 10_000, bus::doWork, publication::isConnected);

        file = CountersFile.mapExisting(bus.countersFile().getParent());
        final SimpleMeterRegistry registry = new SimpleMeterRegistry();
        binder = new BusCountersMeterBinder(file.countersReader(), Tags.of("bus", "metrics-test"));
        binder.bindTo(registry);

        final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
        for (int i = 0; i < 100; i++)
        {
            Await.until("an offer", 10_000, bus::doWork, () -> publication.offer(message, 0, 64) > 0);
        }
        final int[] received = new int[1];
        Await.until("every message", 10_000, () ->
        {
            bus.doWork();
            subscription.poll((buffer, offset, length, header) -> received[0]++, 100);
        }, () -> 100 == received[0]);
        Await.until("the counters to settle", 10_000, () ->
        {
            bus.doWork();
            binder.refresh();
        }, () ->
        {
            final FunctionCounter sent = registry.find("warpbus.bus.messages.sent").functionCounter();
            return null != sent && sent.count() >= 100 && null != registry.find("warpbus.subscriber.lag").gauge();
        });

        final FunctionCounter messagesSent = registry.find("warpbus.bus.messages.sent").tag("bus", "metrics-test")
            .functionCounter();
        assertNotNull(messagesSent, "system counters are meters with the common tags");
        final Gauge position = registry.find("warpbus.publication.position").tag("stream", "1001").gauge();
        assertNotNull(position, "publication position tagged by stream");
        assertTrue(position.value() >= 100 * 64, "position follows the publication: " + position.value());
        final Gauge lag = registry.find("warpbus.subscriber.lag").tag("subscriber", "md-reader").gauge();
        assertNotNull(lag, "subscriber lag tagged by subscriber name: " +
            registry.find("warpbus.subscriber.lag").gauge().getId());
        assertTrue(lag.getId().getTag("remote").startsWith("127.0.0.1:"), "and its address: " + lag.getId());
        assertNotNull(registry.find("warpbus.rnic.fpdus.sent").functionCounter(), "the engine's counters too");
        // The subscriber reports what it consumed with an RDMA Write of its position: the lag follows a moment later.
        Await.until("the lag to reach 0 as the reader has read everything", 10_000, () ->
        {
            bus.doWork();
            subscription.poll((buffer, offset, length, header) -> received[0]++, 100);
        }, () -> 0 == lag.value());
        assertEquals(100, received[0], "nothing more arrived");
        assertNotNull(registry.find("warpbus.bus.duty.cycle.max.ns").gauge(), "the duty cycle maximum is a gauge");

        subscription.close();
        publication.close();
        Await.until("the stream counters to be freed", 10_000, () ->
        {
            bus.doWork();
            binder.refresh();
        }, () -> null == registry.find("warpbus.publication.position").gauge());
        assertNull(registry.find("warpbus.subscriber.lag").gauge(), "meters leave with their counters");
        assertNotNull(registry.find("warpbus.bus.messages.sent").functionCounter(), "system counters stay");
    }

    @Test
    void shouldDotEveryWord()
    {
        assertEquals("slow.consumer.drops", BusCountersMeterBinder.dotted("SLOW_CONSUMER_DROPS"));
        assertEquals("fpdus.sent", BusCountersMeterBinder.dotted("FPDUs sent"));
        assertEquals("crc.errors", BusCountersMeterBinder.dotted("CRC errors"));
    }
}
