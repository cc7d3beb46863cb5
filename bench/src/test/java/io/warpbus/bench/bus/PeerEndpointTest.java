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
package io.warpbus.bench.bus;

import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The point-to-point systems without a bus, {@link RdmaEndpoint} and {@link TcpEndpoint}, between two endpoints of
 * one process over loopback.
 */
class PeerEndpointTest
{
    private static final long DEADLINE_NS = TimeUnit.SECONDS.toNanos(20);

    private final UnsafeBuffer received = new UnsafeBuffer(ByteBuffer.allocateDirect(RdmaEndpoint.MAX_MESSAGE));
    private int receivedLength = -1;
    private final Endpoint.MessageHandler handler = (final DirectBuffer buffer, final int offset, final int length) ->
    {
        received.putBytes(0, buffer, offset, length);
        receivedLength = length;
    };

    @ParameterizedTest
    @EnumSource(value = BusSystem.class, names = { "WARPBUS_RDMA", "WARPBUS_RDMA_DUPLEX", "TCP_NIO", "TCP_NIO_DUPLEX" })
    @Timeout(60)
    void shouldCarryPingsAndPongsOfEverySizeWhenTheSubscriberConnectsBeforeThePublisherListens(
        final BusSystem system)
    {
        final Channels.Plan plan = Channels.pingPong(system, 10);
        try (Endpoint orchestrator = PeerEndpoints.newEndpoint(system);
            Endpoint responder = PeerEndpoints.newEndpoint(system))
        {
            // The responder subscribes first: its connects are refused until the orchestrator listens.
            responder.addSubscription(plan.responderSubscriptions().get(0).uri(), 0);
            spin(orchestrator, responder, 20);
            responder.addPublication(plan.responderPublications().get(0).uri(), 0, 1);
            orchestrator.addPublication(plan.orchestratorPublications().get(0).uri(), 0, 1);
            orchestrator.addSubscription(plan.orchestratorSubscriptions().get(0).uri(), 0);
            final long deadline = System.nanoTime() + DEADLINE_NS;
            while (!orchestrator.isConnected() || !responder.isConnected())
            {
                spin(orchestrator, responder, 1);
                assertTrue(System.nanoTime() - deadline < 0, "connected within 20 s");
            }
            // Duplex: the orchestrator only accepts the ping's connection. Otherwise it also connects for the pong
            // (and a connect refused before the responder listened takes one more).
            final int connections = connectionsMade(orchestrator);
            if (system.duplex())
            {
                assertEquals(1, connections, "one connection, both directions");
            }
            else
            {
                assertTrue(connections >= 2, "a connection per direction: " + connections);
            }

            final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(RdmaEndpoint.MAX_MESSAGE));
            int pongs = 0;
            for (final int size : new int[] { 8, 32, 64, 1000, RdmaEndpoint.MAX_MESSAGE })
            {
                for (int i = 0; i < size; i++)
                {
                    message.putByte(i, (byte)(size + i));
                }
                assertTrue(orchestrator.offer(0, message, 0, size), "ping of " + size + " B offered");
                awaitMessage(orchestrator, responder, responder, size);
                assertEquals(0, responder.poll(0, handler, 1), "a ping is delivered once");
                assertTrue(responder.offer(0, received, 0, receivedLength), "pong offered");
                awaitMessage(orchestrator, responder, orchestrator, size);
                for (int i = 0; i < size; i++)
                {
                    assertEquals((byte)(size + i), received.getByte(i), "byte " + i + " of the " + size + " B pong");
                }
                pongs++;
            }
            assertEquals(5, pongs);

            // A case's end: the peer closes its channels, and an offer after that says the connection is gone.
            responder.closeChannels();
            RuntimeException lost = null;
            final long closeDeadline = System.nanoTime() + DEADLINE_NS;
            while (null == lost)
            {
                spin(orchestrator, responder, 1);
                try
                {
                    orchestrator.offer(0, message, 0, 8);
                }
                catch (final IllegalStateException | UncheckedIOException ex)
                {
                    lost = ex;
                }
                assertTrue(System.nanoTime() - closeDeadline < 0, "the disconnect seen within 20 s");
            }
            final String expected = lost instanceof UncheckedIOException ? "tcp-nio: writing to" : "DISCONNECTED";
            assertTrue(lost.getMessage().contains(expected), lost.getMessage());
            orchestrator.closeChannels();
            spin(orchestrator, responder, 50);
        }
    }

    @Test
    void shouldRefuseAChannelThatIsNotAPeerEndpoint()
    {
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> PeerChannels.RDMA.address("warp:iwarp?endpoint=127.0.0.1:40000"));
        assertTrue(refused.getMessage().contains("warp:iwarp?endpoint=127.0.0.1:40000"), refused.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PeerChannels.RDMA.address("rdma:reverse=40000"));
        assertThrows(IllegalArgumentException.class, () -> PeerChannels.TCP.address("rdma:endpoint=127.0.0.1:40000"));
        assertThrows(IllegalArgumentException.class,
            () -> PeerChannels.TCP.reverseOf("tcp:reverse=127.0.0.1:40000"));
        assertEquals("tcp:reverse=127.0.0.1:40000", PeerChannels.TCP.reverseOf("tcp:endpoint=127.0.0.1:40000"));
    }

    @ParameterizedTest
    @EnumSource(value = BusSystem.class, names = { "WARPBUS_RDMA", "TCP_NIO" })
    @Timeout(60)
    void shouldRefuseAReverseSubscriptionWithoutItsPublication(final BusSystem system)
    {
        final String scheme = PeerChannels.TCP == system.peerChannels() ? "tcp" : "rdma";
        try (Endpoint endpoint = PeerEndpoints.newEndpoint(system))
        {
            final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> endpoint.addSubscription(scheme + ":reverse=127.0.0.1:40001", 0));
            assertTrue(refused.getMessage().contains(scheme + ":reverse=127.0.0.1:40001") &&
                refused.getMessage().contains(scheme + ":endpoint=127.0.0.1:40001"), refused.getMessage());
        }
    }

    @Test
    @Timeout(60)
    void shouldRefuseATcpMessageLongerThanItsLimitAndAFrameClaimingOne() throws Exception
    {
        final Channels.Plan plan = Channels.pingPong(BusSystem.TCP_NIO_DUPLEX, 20);
        final InetSocketAddress address = PeerChannels.TCP.address(plan.orchestratorPublications().get(0).uri());
        try (TcpEndpoint orchestrator = new TcpEndpoint(); SocketChannel peer = SocketChannel.open())
        {
            orchestrator.addPublication(plan.orchestratorPublications().get(0).uri(), 0, 1);
            orchestrator.addSubscription(plan.orchestratorSubscriptions().get(0).uri(), 0);
            peer.connect(address);
            final long deadline = System.nanoTime() + DEADLINE_NS;
            while (!orchestrator.isConnected())
            {
                assertTrue(System.nanoTime() - deadline < 0, "connected within 20 s");
            }
            final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(TcpEndpoint.MAX_MESSAGE + 1));
            final IllegalArgumentException tooLong = assertThrows(IllegalArgumentException.class,
                () -> orchestrator.offer(0, message, 0, TcpEndpoint.MAX_MESSAGE + 1));
            assertTrue(tooLong.getMessage().contains(String.valueOf(TcpEndpoint.MAX_MESSAGE + 1)),
                tooLong.getMessage());

            // A peer that claims a message longer than any is refused by name, not read as a huge allocation.
            peer.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putInt(1 << 30).flip());
            UncheckedIOException refused = null;
            while (null == refused)
            {
                try
                {
                    orchestrator.poll(0, handler, 1);
                }
                catch (final UncheckedIOException ex)
                {
                    refused = ex;
                }
                assertTrue(System.nanoTime() - deadline < 0, "the frame refused within 20 s");
            }
            assertTrue(refused.getCause().getMessage().contains("a message of " + (1 << 30) + " bytes"),
                refused.getCause().getMessage());
        }
    }

    @Test
    @Timeout(60)
    void shouldListenOnceAPortTakenByASocketConnectedToItselfIsFree() throws Exception
    {
        final Channels.Plan plan = Channels.pingPong(BusSystem.TCP_NIO, 30);
        final String channel = plan.orchestratorPublications().get(0).uri();
        final InetSocketAddress address = PeerChannels.TCP.address(channel);
        try (TcpEndpoint publisher = new TcpEndpoint(); TcpEndpoint subscriber = new TcpEndpoint())
        {
            // What a subscriber's connect to a port nobody listens on can turn into: TCP's simultaneous open of a
            // socket with itself, holding the port.
            final SocketChannel itself = SocketChannel.open();
            itself.bind(address);
            itself.connect(address);
            assertEquals(itself.getLocalAddress(), itself.getRemoteAddress(), "the socket is connected to itself");

            publisher.addPublication(channel, 0, 1);
            subscriber.addSubscription(channel, 0);
            spin(publisher, subscriber, 100);
            assertFalse(publisher.isConnected(), "nothing listens while the port is taken");
            // Released as the endpoint releases a connection to itself: with a reset, leaving no TIME_WAIT.
            itself.setOption(StandardSocketOptions.SO_LINGER, 0);
            itself.close();

            final long deadline = System.nanoTime() + DEADLINE_NS;
            while (!publisher.isConnected() || !subscriber.isConnected())
            {
                spin(publisher, subscriber, 1);
                assertTrue(System.nanoTime() - deadline < 0, "connected within 20 s of the port coming free");
            }
            final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
            message.putLong(0, 0x5EED_F00DL);
            assertTrue(publisher.offer(0, message, 0, 64), "offered");
            awaitMessage(publisher, subscriber, subscriber, 64);
            assertEquals(0x5EED_F00DL, received.getLong(0));
        }
    }

    private static int connectionsMade(final Endpoint endpoint)
    {
        return endpoint instanceof TcpEndpoint ? ((TcpEndpoint)endpoint).connectionsMade() :
            ((RdmaEndpoint)endpoint).queuePairsCreated();
    }

    private void awaitMessage(final Endpoint a, final Endpoint b, final Endpoint subscriber,
        final int size)
    {
        receivedLength = -1;
        final long deadline = System.nanoTime() + DEADLINE_NS;
        while (0 == subscriber.poll(0, handler, 1))
        {
            spin(a, b, 1);
            assertTrue(System.nanoTime() - deadline < 0, "a " + size + " B message within 20 s");
        }
        assertEquals(size, receivedLength);
    }

    private static void spin(final Endpoint a, final Endpoint b, final int millis)
    {
        final long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        do
        {
            a.doWork();
            b.doWork();
        }
        while (System.nanoTime() - until < 0);
    }
}
