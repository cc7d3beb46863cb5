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
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import io.warpbus.bus.protocol.RingDescriptor;
import io.warpbus.bus.protocol.SubscribeHandshake;
import io.warpbus.iwarp.Access;
import io.warpbus.iwarp.CompletionQueue;
import io.warpbus.iwarp.ConnectionEvent;
import io.warpbus.iwarp.ConnectionEventType;
import io.warpbus.iwarp.ConnectionParameters;
import io.warpbus.iwarp.MemoryRegion;
import io.warpbus.iwarp.ProtectionDomain;
import io.warpbus.iwarp.QueuePair;
import io.warpbus.iwarp.QueuePairAttributes;
import io.warpbus.iwarp.Rnic;
import io.warpbus.iwarp.RnicContext;
import io.warpbus.iwarp.ThreadingMode;
import io.warpbus.testing.Await;
import io.warpbus.testing.BusTestWatcher;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bad subscribe requests get a clear rejection, and other subscribers lose nothing.
 */
@Timeout(60)
@ExtendWith(BusTestWatcher.class)
class BusHandshakeTest
{
    @TempDir
    Path dir;
    private final List<Throwable> errors = new CopyOnWriteArrayList<>();
    private Bus bus;

    @AfterEach
    void tearDown()
    {
        if (null != bus)
        {
            bus.close();
        }
    }

    private void launch(final int termLength)
    {
        bus = Bus.launch(new BusContext().directory(dir).name("handshake").threadingMode(ThreadingMode.INVOKER)
            .termLength(termLength).window(16 * termLength).ringCapacity(4 * termLength)
            .errorHandler(errors::add));
    }

    @Test
    void shouldRejectUnknownStreamAndKeepRetrying() throws Exception
    {
        launch(64 * 1024);
        final String endpoint = BusLoopbackTest.channel("iwarp", 6).replace("|stream=6", "");
        bus.addExclusivePublication(endpoint + "|stream=6");
        final Subscription wrong = bus.addSubscription(endpoint + "|stream=5");
        awaitError("unknown stream 5");
        assertEquals(0, wrong.imageCount());
        bus.addExclusivePublication(endpoint + "|stream=5");
        await(wrong::isConnected, "the subscription to join once the stream exists");
    }

    @Test
    void shouldRejectARingSmallerThanTheTerm() throws Exception
    {
        launch(64 * 1024);
        final String channel = BusLoopbackTest.channel("iwarp", 8);
        bus.addExclusivePublication(channel + "|term=256k|window=4m");
        final Subscription small = bus.addSubscription(channel + "|ring=128k");
        awaitError("subscriber ring 131072 must be a power of two of at least one term (262144)");
        assertEquals(0, small.imageCount());
    }

    @Test
    void shouldRejectADuplicateSubscriptionAndLeaveTheFirstAlone() throws Exception
    {
        launch(64 * 1024);
        final String channel = BusLoopbackTest.channel("iwarp", 9);
        final ExclusivePublication publication = bus.addExclusivePublication(channel);
        final Subscription first = bus.addSubscription(channel + "|name=risk");
        await(first::isConnected, "the first subscription");
        final Subscription second = bus.addSubscription(channel + "|name=risk");
        awaitError("duplicate subscription 'risk'");
        assertEquals(0, second.imageCount());

        final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
        final long[] received = { 0 };
        int sent = 0;
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (received[0] < 1000 && System.nanoTime() - deadline < 0)
        {
            if (sent < 1000 && publication.offer(message, 0, 64) > 0)
            {
                sent++;
            }
            bus.doWork();
            first.poll((b, o, l, h) -> received[0]++, 100);
        }
        assertEquals(1000, received[0]);
    }

    @Test
    void shouldRejectAMalformedRequestWithItsReason() throws Exception
    {
        launch(64 * 1024);
        final String channel = BusLoopbackTest.channel("iwarp", 10);
        bus.addExclusivePublication(channel);
        bus.doWork();
        try (Rnic client = Rnic.launch(new RnicContext().threadingMode(ThreadingMode.INVOKER)))
        {
            final CompletionQueue cq = client.createCompletionQueue(16);
            final QueuePair qp = client.allocateProtectionDomain().createQueuePair(
                new QueuePairAttributes().completionQueue(cq));
            client.connectionManager().connect(qp, ChannelUri.parse(channel).endpoint(),
                new ConnectionParameters().privateData("hello".getBytes(StandardCharsets.US_ASCII)), null);
            final ConnectionEvent[] outcome = new ConnectionEvent[1];
            await(() ->
            {
                client.doWork();
                client.connectionManager().poll((e) -> outcome[0] = e, 16);
                return null != outcome[0];
            }, "the request to be answered");
            assertEquals(ConnectionEventType.REJECTED, outcome[0].type());
            assertTrue(new String(outcome[0].privateData(), StandardCharsets.US_ASCII)
                .contains("malformed subscribe request"));
        }
        awaitError("malformed subscribe request");
    }

    /**
     * A publisher whose reply places the first frame off a frame boundary: the subscriber refuses the reply by
     * name and keeps retrying, rather than reading frame headers at the wrong place.
     */
    @Test
    void shouldRefuseAReplyWhoseInitialPositionIsNotAFrameBoundary() throws Exception
    {
        launch(64 * 1024);
        try (Rnic publisher = Rnic.launch(new RnicContext().threadingMode(ThreadingMode.INVOKER)))
        {
            final java.net.InetSocketAddress address = publisher.connectionManager()
                .listen(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 4, null)
                .localAddress();
            final Subscription subscription = bus.addSubscription(
                "warp:iwarp?endpoint=127.0.0.1:" + address.getPort() + "|stream=12");
            final QueuePair qp = publisher.allocateProtectionDomain().createQueuePair(
                new QueuePairAttributes().completionQueue(publisher.createCompletionQueue(16)));
            final byte[] reply = SubscribeHandshake.encode(
                new SubscribeHandshake.Reply(77, 64 * 1024, 12, 0, 0, 0, -1, -1, ""));
            final boolean[] accepted = { false };
            final String refusal = "sent a malformed reply: initial position 12 is not a frame boundary";
            Await.until(() -> "the refusal; errors " + errors, 10_000, () ->
            {
                bus.doWork();
                publisher.doWork();
                publisher.connectionManager().poll((event) ->
                {
                    if (ConnectionEventType.CONNECT_REQUEST == event.type() && !accepted[0])
                    {
                        accepted[0] = true;
                        event.request().accept(qp, new ConnectionParameters().privateData(reply));
                    }
                }, 16);
            }, () -> errors.stream().anyMatch((e) -> e.getMessage().contains(refusal)));
            assertEquals(0, subscription.imageCount());
            assertTrue(errors.stream().noneMatch((e) -> e instanceof IllegalArgumentException), errors::toString);
        }
    }

    /**
     * The same over IPC: a process writing a subscriber's ring as a publisher would, with the first frame off a
     * frame boundary, is declined by name, and no image opens.
     */
    @Test
    void shouldDeclineAnIpcPublisherWhoseInitialPositionIsNotAFrameBoundary() throws Exception
    {
        launch(64 * 1024);
        final Subscription subscription = bus.addSubscription("warp:ipc?stream=13");
        final Path stream = IpcDirectory.streamDirectory(bus.context().ipcDirectory(), 13);
        final Path[] file = { null };
        await(() ->
        {
            try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(stream))
            {
                file[0] = files.filter((f) -> f.getFileName().toString().startsWith("ring-")).findFirst().orElse(null);
            }
            catch (final java.io.IOException ex)
            {
                return false;
            }
            return null != file[0];
        }, "the subscriber's ring");
        try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(file[0],
            java.nio.file.StandardOpenOption.READ, java.nio.file.StandardOpenOption.WRITE))
        {
            final java.nio.MappedByteBuffer mapping =
                channel.map(java.nio.channels.FileChannel.MapMode.READ_WRITE, 0, channel.size());
            final UnsafeBuffer ring = new UnsafeBuffer(mapping);
            final int trailer = (int)channel.size() - RingDescriptor.TRAILER_LENGTH;
            await(() -> RingDescriptor.SUBSCRIBER_READY ==
                ring.getIntVolatile(trailer + RingDescriptor.SUBSCRIBER_STATUS_OFFSET), "the ring to be offered");
            ring.putInt(trailer + RingDescriptor.PUBLISHER_SESSION_OFFSET, 5);
            ring.putLong(trailer + RingDescriptor.INITIAL_POSITION_OFFSET, 12);
            ring.putLong(trailer + RingDescriptor.RESUME_SEQUENCE_OFFSET, 0);
            ring.putLong(trailer + RingDescriptor.GAP_FROM_OFFSET, -1);
            ring.putLong(trailer + RingDescriptor.GAP_TO_OFFSET, -1);
            ring.putInt(trailer + RingDescriptor.LOG_WINDOW_OFFSET, 0);
            ring.putIntOrdered(trailer + RingDescriptor.PUBLISHER_STATUS_OFFSET, RingDescriptor.PUBLISHER_CONNECTED);

            awaitError("cannot join its publisher: initial position 12 is not a frame boundary");
            assertEquals(0, subscription.imageCount());
            assertEquals(RingDescriptor.SUBSCRIBER_CLOSED,
                ring.getIntVolatile(trailer + RingDescriptor.SUBSCRIBER_STATUS_OFFSET));
            assertTrue(errors.stream().noneMatch((e) -> e instanceof IllegalArgumentException), errors::toString);
            org.agrona.IoUtil.unmap(mapping);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = { "unregistered", "smaller" })
    void shouldDropAPeerAdvertisingARingItDoesNotOwnAndLeaveOthersAlone(final String lie) throws Exception
    {
        launch(64 * 1024);
        final String channel = BusLoopbackTest.channel("iwarp", 11);
        final ExclusivePublication publication = bus.addExclusivePublication(channel);
        final Subscription honest = bus.addSubscription(channel + "|name=honest");
        await(honest::isConnected, "the honest subscription");
        try (Rnic client = Rnic.launch(new RnicContext().threadingMode(ThreadingMode.INVOKER)))
        {
            final ProtectionDomain pd = client.allocateProtectionDomain();
            final MemoryRegion small = pd.registerMemory(new UnsafeBuffer(ByteBuffer.allocateDirect(4096)),
                Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            final int stag = "unregistered".equals(lie) ? small.stag() ^ 0x5A5A_5A00 : small.stag();
            final CompletionQueue cq = client.createCompletionQueue(16);
            final QueuePair qp = pd.createQueuePair(new QueuePairAttributes().completionQueue(cq));
            final SubscribeHandshake.Request request = new SubscribeHandshake.Request(11, stag, small.address(),
                256 * 1024, SlowConsumerPolicy.BLOCK.ordinal(), -1, 0, 0, 0, "liar", 0, -1, -1, "");
            client.connectionManager().connect(qp, ChannelUri.parse(channel).endpoint(),
                new ConnectionParameters().privateData(SubscribeHandshake.encode(request)), null);
            await(() ->
            {
                client.doWork();
                client.connectionManager().poll((e) -> { }, 16);
                return 2 == publication.subscriberCount();
            }, "the lying subscriber to be accepted");

            final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
            final long[] received = { 0 };
            int sent = 0;
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (received[0] < 20_000 && System.nanoTime() - deadline < 0)
            {
                Await.checkInterrupted();
                message.putLong(0, sent);
                if (sent < 20_000 && publication.offer(message, 0, 64) > 0)
                {
                    sent++;
                }
                bus.doWork();
                client.doWork();
                client.connectionManager().poll((e) -> { }, 16);
                honest.poll((b, o, l, h) ->
                {
                    if (b.getLong(o) == received[0])
                    {
                        received[0]++;
                    }
                }, 100);
            }
            assertEquals(20_000, received[0], "the honest subscriber got everything, in order");
            awaitError("lost subscriber 'liar@");
            awaitError("unregistered".equals(lie) ? "invalid STag" : "base or bounds violation");
            assertEquals(1, publication.subscriberCount());
            assertTrue(client.counters().terminatesSent() > 0, "the liar's engine refused the writes with a Terminate");
        }
    }

    private void awaitError(final String fragment)
    {
        await(() -> errors.stream().anyMatch((e) -> e.getMessage().contains(fragment)), "an error '" + fragment + "'");
    }

    private void await(final BooleanSupplier condition, final String what)
    {
        Await.until(() -> what + "; errors " + errors, 10_000, bus::doWork, condition);
    }
}
