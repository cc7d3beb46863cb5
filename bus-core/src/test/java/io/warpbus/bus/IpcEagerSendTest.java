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

import java.nio.file.Path;

import io.warpbus.iwarp.ThreadingMode;
import io.warpbus.testing.Await;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An IPC offer on the bus's own thread is sent by the offer itself, readable before any duty cycle, unless the
 * publication is streaming: another offer came first between the same two duty cycles, or the last duty cycle found
 * offers to send. Streaming is told by duty cycles, not by time, so an exchange of requests and replies stays eager
 * however short its round trip.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class IpcEagerSendTest
{
    @TempDir
    Path dir;
    private Bus bus;
    private final UnsafeBuffer message = new UnsafeBuffer(new byte[32]);
    private long sent;
    private long received;

    @AfterEach
    void tearDown()
    {
        if (null != bus)
        {
            bus.close();
        }
    }

    @Test
    void shouldSendAtOnceUnlessTheOfferIsPartOfAStream()
    {
        bus = Bus.launch(new BusContext().directory(dir).name("test").threadingMode(ThreadingMode.INVOKER)
            .termLength(BusTestProcess.TERM_LENGTH).window(BusTestProcess.WINDOW).ringCapacity(BusTestProcess.RING));
        final Subscription subscription = bus.addSubscription("warp:ipc?stream=50");
        final ExclusivePublication publication = bus.addExclusivePublication("warp:ipc?stream=50");
        Await.until("the subscriber to join", 10_000, bus::doWork,
            () -> 1 == publication.subscriberCount() && 1 == subscription.imageCount());
        bus.doWork();

        offer(publication);
        assertEquals(1, poll(subscription), "the first offer after a quiet duty cycle is sent at once");
        bus.doWork();
        offer(publication);
        assertEquals(1, poll(subscription), "so is the next one, one quiet duty cycle later, however soon");

        offer(publication);
        assertEquals(0, poll(subscription), "a second offer between the same two duty cycles waits for the next");
        bus.doWork();
        assertEquals(1, poll(subscription), "which sends it");

        offer(publication);
        assertEquals(0, poll(subscription), "after a duty cycle that found offers to send, an offer waits too");
        bus.doWork();
        assertEquals(1, poll(subscription), "the duty cycle sends it");

        bus.doWork();
        offer(publication);
        assertEquals(1, poll(subscription), "a quiet duty cycle ends the stream: sent at once again");
        assertEquals(sent, received, "every message once, in order");
    }

    private void offer(final Publication publication)
    {
        message.putLong(0, ++sent);
        final long result = publication.offer(message, 0, message.capacity());
        assertTrue(result > 0, "offer " + sent + ": " + Publication.statusName(result));
    }

    private int poll(final Subscription subscription)
    {
        return subscription.poll((buffer, offset, length, header) ->
        {
            assertEquals(received + 1, buffer.getLong(offset), "the next message");
            received++;
        }, 10);
    }
}
