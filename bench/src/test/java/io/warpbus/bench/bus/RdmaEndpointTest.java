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

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RdmaEndpointTest
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
    @EnumSource(value = BusSystem.class, names = { "WARPBUS_RDMA", "WARPBUS_RDMA_DUPLEX" })
    @Timeout(60)
    void shouldCarryPingsAndPongsOfEverySizeWhenTheSubscriberConnectsBeforeThePublisherListens(
        final BusSystem system)
    {
        final Channels.Plan plan = Channels.pingPong(system, 10);
        try (RdmaEndpoint orchestrator = new RdmaEndpoint(); RdmaEndpoint responder = new RdmaEndpoint())
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
            if (BusSystem.WARPBUS_RDMA_DUPLEX == system)
            {
                assertEquals(1, orchestrator.queuePairsCreated(), "one connection, both directions");
            }
            else
            {
                assertTrue(orchestrator.queuePairsCreated() >= 2, "a connection per direction");
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
            IllegalStateException lost = null;
            final long closeDeadline = System.nanoTime() + DEADLINE_NS;
            while (null == lost)
            {
                spin(orchestrator, responder, 1);
                try
                {
                    orchestrator.offer(0, message, 0, 8);
                }
                catch (final IllegalStateException ex)
                {
                    lost = ex;
                }
                assertTrue(System.nanoTime() - closeDeadline < 0, "the disconnect seen within 20 s");
            }
            assertTrue(lost.getMessage().contains("DISCONNECTED"), lost.getMessage());
            orchestrator.closeChannels();
            spin(orchestrator, responder, 50);
        }
    }

    @Test
    void shouldRefuseAChannelThatIsNotAnRdmaEndpoint()
    {
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> RdmaEndpoint.address("warp:iwarp?endpoint=127.0.0.1:40000"));
        assertTrue(refused.getMessage().contains("warp:iwarp?endpoint=127.0.0.1:40000"), refused.getMessage());
        assertThrows(IllegalArgumentException.class, () -> RdmaEndpoint.address("rdma:reverse=40000"));
    }

    @Test
    @Timeout(60)
    void shouldRefuseAReverseSubscriptionWithoutItsPublication()
    {
        try (RdmaEndpoint endpoint = new RdmaEndpoint())
        {
            final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> endpoint.addSubscription("rdma:reverse=127.0.0.1:40001", 0));
            assertTrue(refused.getMessage().contains("rdma:reverse=127.0.0.1:40001") &&
                refused.getMessage().contains("rdma:endpoint=127.0.0.1:40001"), refused.getMessage());
        }
    }

    private void awaitMessage(final RdmaEndpoint a, final RdmaEndpoint b, final RdmaEndpoint subscriber,
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

    private static void spin(final RdmaEndpoint a, final RdmaEndpoint b, final int millis)
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
