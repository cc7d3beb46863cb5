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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

import io.warpbus.iwarp.ThreadingMode;
import io.warpbus.testing.Await;
import io.warpbus.testing.BusTestWatcher;
import org.agrona.collections.Int2IntHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Drop and conflate policies, resuming from the publisher's retained log, and gaps beyond it, over both
 * transports, with publisher and subscriber on one bus driven by the test's thread.
 */
@Timeout(60)
@ExtendWith(BusTestWatcher.class)
class BusRecoveryTest
{
    private static final int TERM = 64 * 1024;
    private static final int WINDOW = 1024 * 1024;

    @TempDir
    Path dir;
    private final List<Throwable> errors = new CopyOnWriteArrayList<>();
    private final List<String> events = new CopyOnWriteArrayList<>();
    private final List<long[]> gaps = new CopyOnWriteArrayList<>();
    private Bus bus;
    private Subscription fastPoller;

    @AfterEach
    void tearDown()
    {
        if (null != bus)
        {
            bus.close();
        }
    }

    private void launch()
    {
        bus = Bus.launch(new BusContext().directory(dir).name("recovery").threadingMode(ThreadingMode.INVOKER)
            .termLength(TERM).window(WINDOW).ringCapacity(4 * TERM).errorHandler(errors::add));
    }

    private final ImageListener listener = new ImageListener()
    {
        @Override
        public void onAvailable(final Image image)
        {
            events.add("available");
        }

        @Override
        public void onUnavailable(final Image image, final String reason)
        {
            events.add("unavailable: " + reason);
        }

        @Override
        public void onGap(final Image image, final long fromSequence, final long toSequence, final long position)
        {
            gaps.add(new long[] { fromSequence, toSequence });
        }
    };

    @ParameterizedTest
    @ValueSource(strings = { "iwarp", "ipc" })
    void shouldDrainItsRingThenResumeFromTheRetainedLogAfterADropForStalling(final String transport) throws Exception
    {
        launch();
        final String channel = BusLoopbackTest.channel(transport, 21);
        final ExclusivePublication publication = bus.addExclusivePublication(channel);
        final Subscription subscription = bus.addSubscription(channel + "|policy=drop|lag-timeout=200ms", listener);
        await(publication::isConnected, "the subscriber to join");

        // More than its ring holds, less than its drop lag: only the time threshold drops it. It then reads what
        // its ring holds and rejoins, resuming from the publisher's retained log.
        final int count = 3000;
        publishWhileIdle(publication, count, 100);
        await(() -> errors.stream().anyMatch((e) -> e.getMessage().contains("dropped subscriber")),
            "the publisher to drop the stalled subscriber");

        final long[] next = { 0 };
        final int[] outOfOrder = { 0 };
        await(() ->
        {
            subscription.poll((buffer, offset, length, header) ->
            {
                if (buffer.getLong(offset) != next[0] || header.sequence() != next[0])
                {
                    outOfOrder[0]++;
                }
                next[0]++;
            }, 100);
            return next[0] == count;
        }, "every message after resuming");
        assertEquals(0, outOfOrder[0]);
        await(() -> events.size() >= 3, "the image to go once read, and the subscriber to rejoin");
        assertTrue(gaps.isEmpty(), "no gap expected: nothing was lost");
        assertEquals("available", events.get(0));
        assertTrue(events.get(1).startsWith(
            "unavailable: dropped by the publisher: slow consumer: consumed nothing for"), events.get(1));
        assertEquals("available", events.get(2));
    }

    @ParameterizedTest
    @ValueSource(strings = { "iwarp", "ipc" })
    void shouldReportExactlyTheRangesMissedWhileDropped(final String transport) throws Exception
    {
        launch();
        final String channel = BusLoopbackTest.channel(transport, 22);
        final ExclusivePublication publication = bus.addExclusivePublication(channel);
        final Subscription subscription = bus.addSubscription(channel + "|policy=drop|lag=64k", listener);
        final Subscription fast = bus.addSubscription(channel + "|name=fast");
        await(() -> 2 == publication.subscriberCount(), "both subscribers to join");

        // Three windows' worth while the drop subscriber sleeps and the other keeps up. Dropped, it keeps what
        // was committed to its ring; once it has read that, it rejoins live, its resume point being far beyond
        // its drop lag, and is told the range it missed.
        final int count = 3 * WINDOW / 128;
        fastPoller = fast;
        publishWhileIdle(publication, count, 96);

        final List<Long> received = new ArrayList<>();
        await(() ->
        {
            subscription.poll((buffer, offset, length, header) -> received.add(buffer.getLong(offset)), 100);
            fast.poll((buffer, offset, length, header) -> { }, 100);
            return received.size() + missing() == count;
        }, "every message delivered or reported missing");
        assertTrue(events.stream().anyMatch((e) -> e.contains("slow consumer")), "dropped at least once: " + events);
        assertEquals(1, gaps.size(), "one gap, from the drop to the live edge where it rejoined");
        assertEquals(count - 1, gaps.get(0)[1], "the gap runs to the last message published");
        final boolean[] seen = new boolean[count];
        for (final long value : received)
        {
            seen[(int)value] = true;
        }
        for (final long[] gap : gaps)
        {
            for (long sequence = gap[0]; sequence <= gap[1]; sequence++)
            {
                assertTrue(!seen[(int)sequence], "sequence " + sequence + " both delivered and reported missing");
                seen[(int)sequence] = true;
            }
        }
        for (int i = 0; i < count; i++)
        {
            assertTrue(seen[i], "sequence " + i + " neither delivered nor reported missing");
        }
        for (int i = 1; i < received.size(); i++)
        {
            assertTrue(received.get(i) > received.get(i - 1), "delivered in order");
        }
        assertEquals(received.get(received.size() - 1) + 1, gaps.get(0)[0],
            "the gap starts right after the last message delivered");
    }

    @ParameterizedTest
    @ValueSource(strings = { "iwarp", "ipc" })
    void shouldStartANewSubscriptionFromAResumePointOrNameWhatIsGone(final String transport) throws Exception
    {
        launch();
        final String channel = BusLoopbackTest.channel(transport, 24);
        final ExclusivePublication publication = bus.addExclusivePublication(channel);
        final Subscription first = bus.addSubscription(channel + "|name=first");
        await(publication::isConnected, "the first subscriber");
        fastPoller = first;
        final int count = 3 * WINDOW / 128;
        publishWhileIdle(publication, count, 96);

        final List<Long> late = new ArrayList<>();
        final Subscription resumed = bus.addSubscription(channel + "|name=resumed", listener, count - 100,
            publication.sessionId());
        await(() ->
        {
            resumed.poll((buffer, offset, length, header) -> late.add(header.sequence()), 100);
            first.poll((buffer, offset, length, header) -> { }, 100);
            return late.size() == 100;
        }, "the last 100 messages");
        assertEquals(count - 100, late.get(0));
        assertEquals(count - 1, late.get(99));
        assertTrue(gaps.isEmpty(), "still in the retained log: no gap");

        final List<Long> tooLateSequences = new ArrayList<>();
        final Subscription tooLate = bus.addSubscription(channel + "|name=too-late", listener, 10,
            publication.sessionId());
        await(() ->
        {
            tooLate.poll((buffer, offset, length, header) -> tooLateSequences.add(header.sequence()), 100);
            first.poll((buffer, offset, length, header) -> { }, 100);
            return !tooLateSequences.isEmpty() && tooLateSequences.get(tooLateSequences.size() - 1) == count - 1;
        }, "the retained log after the gap of a resume point long gone");
        assertEquals(1, gaps.size());
        assertEquals(10, gaps.get(0)[0], "the gap starts at the sequence asked for");
        assertEquals(tooLateSequences.get(0) - 1, gaps.get(0)[1], "and ends where the retained log begins");
        assertEquals(count - 1 - gaps.get(0)[1], tooLateSequences.size(), "the rest is all delivered");
    }

    @ParameterizedTest
    @ValueSource(strings = { "iwarp", "ipc" })
    void shouldContinueTheStreamWhenARestartedPublisherGivesItsInitialSequence(final String transport)
        throws Exception
    {
        launch();
        final String channel = BusLoopbackTest.channel(transport, 25);
        final Subscription subscription = bus.addSubscription(channel, listener);
        final ExclusivePublication before = bus.addExclusivePublication(channel);
        await(before::isConnected, "the subscriber");
        publishWhileIdle(before, 100, 64);
        final List<Long> sequences = new ArrayList<>();
        await(() ->
        {
            subscription.poll((buffer, offset, length, header) -> sequences.add(header.sequence()), 100);
            return sequences.size() == 100;
        }, "the first session's messages");
        before.close();
        await(() -> events.contains("unavailable: end of stream: the publication closed"),
            "the end of the first session");

        final ExclusivePublication after = bus.addExclusivePublication(channel + "|initial-sequence=100");
        await(after::isConnected, "the subscriber to rejoin");
        publishWhileIdle(after, 100, 64);
        await(() ->
        {
            subscription.poll((buffer, offset, length, header) -> sequences.add(header.sequence()), 100);
            return sequences.size() == 200;
        }, "the second session's messages");
        for (int i = 0; i < 200; i++)
        {
            assertEquals(i, sequences.get(i), "one unbroken sequence across both sessions");
        }
        assertTrue(gaps.isEmpty(), "no gap: " + gaps.size());
    }

    @ParameterizedTest
    @ValueSource(strings = { "iwarp", "ipc" })
    void shouldConflateToTheLatestMessagePerKey(final String transport) throws Exception
    {
        launch();
        final String channel = BusLoopbackTest.channel(transport, 23) + "|conflation-key=0:4";
        final ExclusivePublication publication = bus.addExclusivePublication(channel);
        final Subscription subscription = bus.addSubscription(channel + "|policy=conflate|ring=64k", listener);
        await(publication::isConnected, "the subscriber to join");

        final int count = 20_000;
        final int keys = 16;
        final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
        for (int i = 0; i < count; )
        {
            Await.checkInterrupted();
            message.putInt(0, i % keys);
            message.putInt(4, i);
            if (publication.offer(message, 0, 64) > 0)
            {
                i++;
            }
            bus.doWork();
        }
        final Int2IntHashMap latest = new Int2IntHashMap(-1);
        final int[] received = { 0 };
        final long[] lastSequence = { -1 };
        final int[] backwards = { 0 };
        await(() ->
        {
            subscription.poll((buffer, offset, length, header) ->
            {
                received[0]++;
                latest.put(buffer.getInt(offset), buffer.getInt(offset + 4));
                if (header.sequence() <= lastSequence[0])
                {
                    backwards[0]++;
                }
                lastSequence[0] = header.sequence();
            }, 100);
            return latest.size() == keys && latest.get((count - 1) % keys) == count - 1 &&
                subscription.images()[0].isDrained();
        }, "the latest value of every key");
        for (int key = 0; key < keys; key++)
        {
            assertEquals(count - keys + key, latest.get(key), "latest value of key " + key);
        }
        assertEquals(0, backwards[0], "sequences only move forward");
        assertTrue(received[0] < count, "a ring of 64k cannot have held all " + count + " messages");
        assertEquals(count, received[0] + subscription.images()[0].conflatedCount(), "every message delivered or " +
            "conflated");
        assertTrue(gaps.isEmpty(), "conflation is not a gap");
    }

    private long missing()
    {
        long missing = 0;
        for (final long[] gap : gaps)
        {
            missing += gap[1] - gap[0] + 1;
        }
        return missing;
    }

    private void publishWhileIdle(final ExclusivePublication publication, final int count, final int length)
    {
        final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(length));
        for (int i = 0; i < count; )
        {
            Await.checkInterrupted();
            message.putLong(0, i);
            final long result = publication.offer(message, 0, length);
            if (result > 0)
            {
                i++;
            }
            else if (Publication.NOT_CONNECTED == result || Publication.BACK_PRESSURED == result)
            {
                Thread.onSpinWait();
            }
            bus.doWork();
            if (null != fastPoller)
            {
                fastPoller.poll((buffer, offset, length1, header) -> { }, 100);
            }
        }
    }

    private void await(final BooleanSupplier condition, final String what)
    {
        Await.until(() -> what + "; events " + events + "; errors " + errors, 20_000, bus::doWork, condition);
    }
}
