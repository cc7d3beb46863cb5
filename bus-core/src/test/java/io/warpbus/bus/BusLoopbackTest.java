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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.zip.CRC32C;

import io.warpbus.bus.status.CountersFile;
import io.warpbus.iwarp.ThreadingMode;
import io.warpbus.testing.Await;
import io.warpbus.testing.BusTestWatcher;
import io.warpbus.testing.FreePorts;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

@Timeout(60)
@ExtendWith(BusTestWatcher.class)
class BusLoopbackTest
{
    @TempDir
    Path dir;
    private Bus bus;

    @AfterEach
    void tearDown()
    {
        if (null != bus)
        {
            bus.close();
        }
    }

    private Bus launch()
    {
        bus = Bus.launch(context("test"));
        return bus;
    }

    private BusContext context(final String name)
    {
        return new BusContext().directory(dir).name(name).threadingMode(ThreadingMode.INVOKER)
            .termLength(64 * 1024).window(1024 * 1024).ringCapacity(256 * 1024);
    }

    static String channel(final String transport, final int stream) throws Exception
    {
        if ("ipc".equals(transport))
        {
            return "warp:ipc?stream=" + stream;
        }
        return "warp:iwarp?endpoint=127.0.0.1:" + FreePorts.loopback() + "|stream=" + stream;
    }

    @ParameterizedTest
    @ValueSource(strings = { "iwarp", "ipc" })
    void shouldDeliverEveryMessageInOrderExactlyOnce(final String transport) throws Exception
    {
        launch();
        final String channel = channel(transport, 1001);
        final Subscription subscription = bus.addSubscription(channel);
        final ExclusivePublication publication = bus.addExclusivePublication(channel);
        await(publication::isConnected, "publication to connect");

        final int count = 200_000;
        final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(256));
        final CRC32C sent = new CRC32C();
        final CRC32C received = new CRC32C();
        final long[] next = { 0 };
        final int[] errors = { 0 };
        final byte[] scratch = new byte[256];
        int published = 0;
        while (next[0] < count)
        {
            Await.checkInterrupted();
            if (published < count)
            {
                final int length = 8 + published % 200;
                message.putLong(0, published);
                final long result = publication.offer(message, 0, length);
                if (result > 0)
                {
                    message.getBytes(0, scratch, 0, length);
                    sent.update(scratch, 0, length);
                    published++;
                }
            }
            bus.doWork();
            subscription.poll((buffer, offset, length, header) ->
            {
                if (buffer.getLong(offset) != next[0] || header.sequence() != next[0])
                {
                    errors[0]++;
                }
                buffer.getBytes(offset, scratch, 0, length);
                received.update(scratch, 0, length);
                next[0]++;
            }, 100);
        }
        assertEquals(0, errors[0], "messages out of order or with the wrong sequence");
        assertEquals(sent.getValue(), received.getValue(), "checksum over the payloads");
        assertEquals(0, subscription.missingMessages());
    }

    /**
     * An exclusive publication's log is reused lap after lap without being zeroed: claims (committed and aborted)
     * and offers mixed over many laps of a small window arrive complete, in order, and nothing else arrives.
     */
    @ParameterizedTest
    @ValueSource(strings = { "iwarp", "ipc" })
    void shouldDeliverClaimsAndOffersOverManyLapsOfTheLog(final String transport) throws Exception
    {
        launch();
        final String channel = channel(transport, 1002);
        final Subscription subscription = bus.addSubscription(channel);
        final ExclusivePublication publication = bus.addExclusivePublication(channel);
        await(publication::isConnected, "publication to connect");

        final int count = 100_000;
        final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(256));
        final BufferClaim claim = new BufferClaim();
        final long[] next = { 0 };
        final List<String> errors = new ArrayList<>();
        int published = 0;
        int aborted = 0;
        while (next[0] < count)
        {
            Await.checkInterrupted();
            if (published < count)
            {
                // 64 to 256 bytes: with their headers about 19 MiB, some 19 laps of the 1 MiB window.
                final int length = 64 + (published * 37) % 193;
                final int kind = published % 4;
                if (0 == kind && publication.tryClaim(length, claim) > 0)
                {
                    fill(claim.buffer(), claim.offset(), length, published);
                    // A duty cycle between the claim and its commit must not publish the frame, nor what an
                    // earlier lap left where it lies.
                    bus.doWork();
                    claim.commit();
                    published++;
                }
                else if (1 == kind && publication.tryClaim(length, claim) > 0)
                {
                    // Half of these are given up first: the space becomes padding, and the message is claimed again.
                    if ((published / 4) % 2 == 0 && aborted <= published / 8)
                    {
                        fill(claim.buffer(), claim.offset(), length, -1);
                        claim.abort();
                        aborted++;
                    }
                    else
                    {
                        fill(claim.buffer(), claim.offset(), length, published);
                        claim.commit();
                        published++;
                    }
                }
                else if (kind > 1)
                {
                    fill(message, 0, length, published);
                    if (publication.offer(message, 0, length) > 0)
                    {
                        published++;
                    }
                }
            }
            bus.doWork();
            subscription.poll((buffer, offset, length, header) ->
            {
                final long value = next[0];
                final int expectedLength = 64 + (int)((value * 37) % 193);
                if (length != expectedLength || buffer.getLong(offset) != value ||
                    buffer.getByte(offset + length - 1) != (byte)value)
                {
                    errors.add("message " + value + ": " + length + " B starting " + buffer.getLong(offset));
                }
                next[0]++;
            }, 100);
        }
        assertEquals(List.of(), errors.subList(0, Math.min(10, errors.size())));
        assertTrue(aborted > 1000, "aborted claims: " + aborted);
        assertTrue(publication.position() > 8L * 1024 * 1024, "the log wrapped: " + publication.position());
        assertEquals(0, subscription.missingMessages());
        for (int i = 0; i < 100; i++)
        {
            bus.doWork();
        }
        assertEquals(0, subscription.poll((buffer, offset, length, header) -> next[0]++, 100), "nothing more");
    }

    private static void fill(final org.agrona.MutableDirectBuffer buffer, final int offset, final int length,
        final long value)
    {
        buffer.setMemory(offset, length, (byte)value);
        buffer.putLong(offset, value);
    }

    @ParameterizedTest
    @ValueSource(strings = { "iwarp", "ipc" })
    void shouldReassembleFragmentedMessages(final String transport) throws Exception
    {
        launch();
        final String channel = channel(transport, 7);
        final Subscription subscription = bus.addSubscription(channel);
        final ConcurrentPublication publication = bus.addPublication(channel);
        await(publication::isConnected, "publication to connect");
        final int length = publication.maxMessageLength();
        final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(length));
        for (int i = 0; i < length; i++)
        {
            message.putByte(i, (byte)i);
        }
        final List<Integer> lengths = new ArrayList<>();
        final FragmentAssembler assembler = new FragmentAssembler((buffer, offset, len, header) ->
        {
            for (int i = 0; i < len; i++)
            {
                if (buffer.getByte(offset + i) != (byte)i)
                {
                    fail("byte " + i + " of a reassembled message is wrong");
                }
            }
            lengths.add(len);
        });
        int offered = 0;
        while (lengths.size() < 20)
        {
            Await.checkInterrupted();
            if (offered < 20 && publication.offer(message, 0, length) > 0)
            {
                offered++;
            }
            bus.doWork();
            subscription.poll(assembler, 10);
        }
        assertEquals(20, lengths.size());
        assertTrue(lengths.stream().allMatch((l) -> l == length));
    }

    @Test
    void shouldRunOnTheThreadThatDrivesTheBusWhenItWasLaunchedOnAnother() throws Exception
    {
        final List<Throwable> busErrors = new CopyOnWriteArrayList<>();
        bus = Bus.launch(context("test").errorHandler(busErrors::add));
        final String channel = channel("iwarp", 11);
        final Subscription subscription = bus.addSubscription(channel);
        final ExclusivePublication publication = bus.addExclusivePublication(channel);
        final List<Throwable> errors = new CopyOnWriteArrayList<>();
        final AtomicBoolean connected = new AtomicBoolean();
        final AtomicBoolean leave = new AtomicBoolean();
        // As an application runs it: the bus launched on main, then driven by the application's agent thread, where
        // a subscriber leaves (the publisher releases what it registered for it inside the duty cycle) and, at the
        // end, what main opened is closed.
        final AgentRunner runner = new AgentRunner(new BackoffIdleStrategy(), errors::add, null, new Agent()
        {
            public int doWork()
            {
                if (leave.get())
                {
                    subscription.close();
                }
                final int work = bus.doWork() + subscription.poll((buffer, offset, length, header) -> { }, 10);
                connected.lazySet(publication.isConnected());
                return work;
            }

            public void onClose()
            {
                CloseHelper.closeAll(publication, subscription);
            }

            public String roleName()
            {
                return "application";
            }
        });
        AgentRunner.startOnThread(runner);
        awaitFlag(connected, true, "publication to connect");
        leave.set(true);
        awaitFlag(connected, false, "publication to see its subscriber leave");

        final List<Thread> stuck = new ArrayList<>();
        runner.close(20_000, stuck::add);
        // And the bus itself closed on main, which launched it but has not driven it since.
        bus.close();

        assertEquals(List.of(), stuck, "agent thread still closing after 20 s");
        assertEquals(List.of(), errors, "errors on the agent thread");
        assertEquals(List.of(), busErrors, "errors in the bus");
    }

    @Test
    void shouldSeeABusClosedWhileSubscribedAsADepartureNotALostSubscriber() throws Exception
    {
        closeSubscriberBusWhileSubscribed(false);
    }

    @Test
    void shouldSeeABusClosedBeforeItsConductorHeardOfTheConnectionAsADeparture() throws Exception
    {
        closeSubscriberBusWhileSubscribed(true);
    }

    /**
     * Close a subscriber's bus while its subscription is open, and check that the publisher saw a departure.
     *
     * @param establishedEventQueued close when the subscriber's engine has the connection up (and the publisher
     *                               counts the subscriber) but the ESTABLISHED event still waits for the
     *                               subscriber's conductor, as when the bus closes between the two.
     */
    private void closeSubscriberBusWhileSubscribed(final boolean establishedEventQueued) throws Exception
    {
        final List<Throwable> publisherErrors = new CopyOnWriteArrayList<>();
        bus = Bus.launch(context("publisher").errorHandler(publisherErrors::add));
        final String channel = channel("iwarp", 13);
        final ExclusivePublication publication = bus.addExclusivePublication(channel);
        final AtomicBoolean connected = new AtomicBoolean();
        final AgentRunner publisher = new AgentRunner(new BackoffIdleStrategy(), publisherErrors::add, null,
            new Agent()
            {
                public int doWork()
                {
                    final int work = bus.doWork();
                    connected.lazySet(publication.isConnected());
                    return work;
                }

                public void onClose()
                {
                    publication.close();
                }

                public String roleName()
                {
                    return "publisher";
                }
            });
        final List<Throwable> subscriberErrors = new CopyOnWriteArrayList<>();
        final Bus subscriberBus = Bus.launch(context("subscriber").errorHandler(subscriberErrors::add));
        try
        {
            subscriberBus.addSubscription(channel);
            AgentRunner.startOnThread(publisher);
            if (establishedEventQueued)
            {
                // Not one duty cycle more once the engine has read the publisher's reply: its conductor polls the
                // event at the start of the next one.
                Await.until("the subscriber's engine to connect", 10_000, subscriberBus::doWork,
                    () -> 1 == subscriberBus.rnic().counters().connectionsEstablished());
                awaitFlag(connected, true, "the publisher to connect");
            }
            else
            {
                Await.until("the publisher to connect", 10_000, subscriberBus::doWork, connected::get);
            }

            // The application ends without closing its subscription first.
            subscriberBus.close();
            awaitFlag(connected, false, "the publisher to see its subscriber go");
        }
        finally
        {
            CloseHelper.closeAll(subscriberBus, publisher);
        }

        assertEquals(List.of(), subscriberErrors, "errors at the subscriber");
        assertEquals(List.of(), publisherErrors, "errors at the publisher");
    }

    private static void awaitFlag(final AtomicBoolean flag, final boolean value, final String what)
    {
        Await.until(what, 20_000, Thread::yield, () -> flag.get() == value);
    }

    @Test
    void shouldRefuseASecondIpcPublisherOfAStreamAndKeepNoCountersForIt() throws Exception
    {
        launch();
        final String channel = channel("ipc", 1009);
        bus.addExclusivePublication(channel);
        try (CountersFile counters = CountersFile.mapExisting(bus.countersFile().getParent()))
        {
            final int before = allocatedCounters(counters.countersReader());

            final BusException ex = assertThrows(BusException.class, () -> bus.addExclusivePublication(channel));

            assertEquals("IPC stream 1009 already has a publisher in this process", ex.getMessage());
            assertEquals(before, allocatedCounters(counters.countersReader()), "counters left by the refusal");
        }
    }

    private static int allocatedCounters(final CountersReader reader)
    {
        final int[] allocated = { 0 };
        reader.forEach((counterId, typeId, keyBuffer, label) -> allocated[0]++);
        return allocated[0];
    }

    @Test
    void shouldReturnNotConnectedWithoutSubscribers() throws Exception
    {
        launch();
        final ExclusivePublication publication = bus.addExclusivePublication(channel("iwarp", 3));
        bus.doWork();
        assertEquals(Publication.NOT_CONNECTED, publication.offer(new UnsafeBuffer(new byte[8]), 0, 8));
        publication.close();
        assertEquals(Publication.CLOSED, publication.offer(new UnsafeBuffer(new byte[8]), 0, 8));
    }

    @Test
    void shouldBackPressureWhenABlockingSubscriberStopsPolling() throws Exception
    {
        launch();
        final String channel = channel("iwarp", 9);
        final Subscription subscription = bus.addSubscription(channel);
        final ExclusivePublication publication = bus.addExclusivePublication(channel);
        await(publication::isConnected, "publication to connect");
        final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(1024));
        long accepted = 0;
        long result = 0;
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (result != Publication.BACK_PRESSURED && System.nanoTime() - deadline < 0)
        {
            Await.checkInterrupted();
            result = publication.offer(message, 0, 1000);
            if (result > 0)
            {
                accepted++;
            }
            bus.doWork();
        }
        assertEquals(Publication.BACK_PRESSURED, result);
        // The ring holds 256 KiB: the publisher stops within one frame (and one term's padding) of it.
        final long position = publication.position();
        assertTrue(position <= 256 * 1024 && position > 256 * 1024 - 2 * 1032, "stopped at position " + position);
        final long[] delivered = { 0 };
        final long total = accepted;
        await(() ->
        {
            subscription.poll((b, o, l, h) -> delivered[0]++, 100);
            return delivered[0] == total;
        }, "everything accepted to arrive");
    }

    @ParameterizedTest
    @ValueSource(strings = { "iwarp", "ipc" })
    void shouldTreatAClosedSubscriptionAsADepartureNotAFault(final String transport) throws Exception
    {
        launch();
        final String channel = channel(transport, 1005);
        final ExclusivePublication publication = bus.addExclusivePublication(channel);
        final Subscription subscription = bus.addSubscription(channel);
        await(publication::isConnected, "publication to connect");
        final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
        final int[] received = { 0 };
        await(() ->
        {
            publication.offer(message, 0, 64);
            subscription.poll((buffer, offset, length, header) -> received[0]++, 10);
            return received[0] > 100;
        }, "messages to flow");

        subscription.close();
        await(() -> 0 == publication.subscriberCount() && subscription.isClosed(), "the subscriber to leave");
        // Keep publishing into the void for a while: heartbeats and writes must not chase the closed ring.
        final long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
        while (System.nanoTime() - until < 0)
        {
            Await.checkInterrupted();
            assertEquals(Publication.NOT_CONNECTED, publication.offer(message, 0, 64));
            bus.doWork();
        }
        assertEquals(0, bus.errorCount(), "a subscription closing is not an error");
        assertEquals(0, bus.rnic().counters().terminatesSent() + bus.rnic().counters().terminatesReceived(),
            "no write hit a deregistered ring");
    }

    private void await(final BooleanSupplier condition, final String what)
    {
        Await.until(what, 10_000, bus::doWork, condition);
    }
}
