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

import java.util.HashSet;
import java.util.Set;

import io.aeron.driver.Configuration;
import io.warpbus.bus.ChannelUri;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChannelsTest
{
    /** How far Aeron lets an IPC publication run ahead of its slowest subscriber, by its default configuration. */
    private static final int AERON_IPC_WINDOW = Configuration.producerWindowLength(
        Configuration.ipcTermBufferLength(), Configuration.ipcPublicationTermWindowLength());

    @Test
    void shouldPingOnOneChannelAndPongOnAnother()
    {
        for (final BusSystem system : BusSystem.values())
        {
            final Channels.Plan plan = Channels.pingPong(system, 100);
            assertEquals(plan.orchestratorPublications(), plan.responderSubscriptions(), system.label());
            assertEquals(plan.responderPublications(), plan.orchestratorSubscriptions(), system.label());
            final Channels.Channel ping = plan.orchestratorPublications().get(0);
            final Channels.Channel pong = plan.responderPublications().get(0);
            assertNotEquals(ping.streamId(), pong.streamId(), system.label());
            if (BusSystem.WARPBUS_IWARP == system || BusSystem.WARPBUS_IPC == system)
            {
                assertEquals(ping.streamId(), ChannelUri.parse(ping.uri()).streamId());
                assertEquals(pong.streamId(), ChannelUri.parse(pong.uri()).streamId());
            }
            final PeerChannels peer = system.peerChannels();
            if (system.isPeer() && !system.duplex())
            {
                assertNotEquals(peer.address(ping.uri()), peer.address(pong.uri()),
                    "each direction listens on its own port");
                assertFalse(peer.isReverse(pong.uri()), pong.uri());
            }
            if (system.duplex())
            {
                assertEquals(peer.address(ping.uri()), peer.address(pong.uri()),
                    "the pong goes back over the ping's connection");
                assertFalse(peer.isReverse(ping.uri()), ping.uri());
                assertTrue(peer.isReverse(pong.uri()), pong.uri());
            }
        }
    }

    @Test
    void shouldGiveEachAeronUdpSubscriberItsOwnEndpointOfOneMultiDestinationPublication()
    {
        final Channels.Plan plan = Channels.fanOut(BusSystem.AERON_UDP, 4, 200);
        final Channels.Channel publication = plan.orchestratorPublications().get(0);
        assertTrue(publication.uri().contains("control-mode=dynamic"), publication.uri());
        assertTrue(publication.uri().contains("fc=min"), publication.uri());
        final String control = publication.uri().replaceAll(".*control=([^|]+).*", "$1");
        final Set<String> endpoints = new HashSet<>();
        assertEquals(4, plan.responderSubscriptions().size());
        for (final Channels.Channel subscription : plan.responderSubscriptions())
        {
            assertTrue(subscription.uri().contains("|control=" + control), subscription.uri());
            assertEquals(publication.streamId(), subscription.streamId());
            endpoints.add(subscription.uri().replaceAll(".*endpoint=([^|]+).*", "$1"));
        }
        assertEquals(4, endpoints.size(), "one endpoint per subscriber");
    }

    @Test
    void shouldConnectEveryWarpBusSubscriberToThePublicationsEndpoint()
    {
        for (final BusSystem system : new BusSystem[] { BusSystem.WARPBUS_IWARP, BusSystem.WARPBUS_IPC })
        {
            final Channels.Plan plan = Channels.fanOut(system, 4, 300);
            final Channels.Channel publication = plan.orchestratorPublications().get(0);
            assertEquals(4, publication.subscribers());
            assertEquals(4, plan.responderSubscriptions().size());
            for (final Channels.Channel subscription : plan.responderSubscriptions())
            {
                assertEquals(publication.uri(), subscription.uri());
            }
        }
    }

    @Test
    void shouldGiveTheBusAeronIpcsDefaultWindowAndLeaveAeronAlone()
    {
        assertEquals(32 << 20, AERON_IPC_WINDOW, "half Aeron's default IPC term");
        final Channels.Plan bus = Channels.fanOutAtAeronsWindow(BusSystem.WARPBUS_IPC, 4, 600);
        final ChannelUri publication = ChannelUri.parse(bus.orchestratorPublications().get(0).uri());
        assertEquals(64 << 20, publication.size("window", 0));
        assertEquals(4, bus.responderSubscriptions().size());
        for (final Channels.Channel subscription : bus.responderSubscriptions())
        {
            final ChannelUri uri = ChannelUri.parse(subscription.uri());
            assertEquals(AERON_IPC_WINDOW, uri.size("ring", 0), "Aeron IPC's default window");
            assertEquals(publication.streamId(), uri.streamId());
        }

        final Channels.Plan aeron = Channels.fanOutAtAeronsWindow(BusSystem.AERON_IPC, 4, 700);
        assertEquals(Channels.fanOut(BusSystem.AERON_IPC, 4, 700), aeron, "Aeron keeps its defaults");
    }

    @Test
    void shouldKeepALocalPollsPublicationAndSubscriptionsInTheOrchestrator()
    {
        for (final BusSystem system : new BusSystem[] { BusSystem.WARPBUS_IPC, BusSystem.AERON_IPC })
        {
            final Channels.Plan plan = Channels.local(system, 4, 500);
            final Channels.Channel publication = plan.orchestratorPublications().get(0);
            assertEquals(4, publication.subscribers());
            assertEquals(4, plan.orchestratorSubscriptions().size());
            for (final Channels.Channel subscription : plan.orchestratorSubscriptions())
            {
                assertEquals(publication.uri(), subscription.uri());
                assertEquals(publication.streamId(), subscription.streamId());
            }
            assertTrue(plan.responderPublications().isEmpty());
            assertTrue(plan.responderSubscriptions().isEmpty());
        }
    }

    @Test
    void shouldUseUnicastForOneAeronUdpSubscriber()
    {
        final Channels.Plan plan = Channels.fanOut(BusSystem.AERON_UDP, 1, 400);
        assertEquals(plan.orchestratorPublications().get(0).uri(), plan.responderSubscriptions().get(0).uri());
        assertTrue(plan.responderSubscriptions().get(0).uri().startsWith("aeron:udp?endpoint=127.0.0.1:"));
    }
}
