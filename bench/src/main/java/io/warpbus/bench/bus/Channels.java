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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * The channels of one case for one system, for both processes. Each case gets fresh loopback ports and stream ids,
 * so nothing of an earlier case (a lingering log, a port in TIME_WAIT) can meet it.
 * <ul>
 *     <li>ping-pong: the orchestrator publishes pings on one channel, the responder echoes each on a second (for
 *     {@code warpbus-rdma-duplex}, the reverse direction of the ping's connection);</li>
 *     <li>fan-out: the orchestrator publishes on one channel to {@code n} subscriptions in the responder. WarpBus
 *     connects each subscription to the publisher's endpoint (one connection and ring each). Aeron cannot give one
 *     unicast publication several receivers, so for {@code n > 1} it uses multi-destination-cast with dynamic
 *     control ({@code control-mode=dynamic}): each subscription has its own endpoint and registers with the
 *     publication's control address, and {@code fc=min} makes the slowest receiver pace the publication, as
 *     WarpBus's block policy does.</li>
 * </ul>
 */
final class Channels
{
    private static final String HOST = "127.0.0.1";
    /**
     * The bus's publications stamp frames once per duty cycle, not per offer: a clock read is 20-30 ns here, and
     * Aeron, the peer, writes no timestamp at all.
     */
    private static final String CYCLE_TIMESTAMPS = "|timestamp=cycle";
    /** Aeron IPC's default flow-control window: half its default term ({@code aeron.ipc.term.buffer.length}). */
    static final String RING_OF_AERON_IPC = "32m";
    /** The smallest log a 32 MiB ring allows: a power of two of at least the ring and two terms. */
    private static final String WINDOW_OF_AERON_IPC = "64m";

    private Channels()
    {
    }

    /**
     * A channel to add.
     *
     * @param uri         channel URI.
     * @param streamId    stream id.
     * @param subscribers for a publication, how many subscribers it waits for.
     */
    record Channel(String uri, int streamId, int subscribers)
    {
    }

    /**
     * Who adds what.
     *
     * @param orchestratorPublications publications of the orchestrator.
     * @param orchestratorSubscriptions subscriptions of the orchestrator.
     * @param responderPublications     publications of the responder.
     * @param responderSubscriptions    subscriptions of the responder.
     */
    record Plan(
        List<Channel> orchestratorPublications,
        List<Channel> orchestratorSubscriptions,
        List<Channel> responderPublications,
        List<Channel> responderSubscriptions)
    {
    }

    /**
     * Ping on one channel, pong on another.
     *
     * @param system     the system.
     * @param streamBase first stream id of this case.
     * @return the plan.
     */
    static Plan pingPong(final BusSystem system, final int streamBase)
    {
        final Channel ping = channel(system, streamBase + 1);
        final Channel pong = system.duplex() ?
            new Channel(system.peerChannels().reverseOf(ping.uri()), streamBase + 2, 1) :
            channel(system, streamBase + 2);
        return new Plan(List.of(ping), List.of(pong), List.of(pong), List.of(ping));
    }

    /**
     * One publication, {@code subscribers} subscriptions in the responder.
     *
     * @param system      the system.
     * @param subscribers how many.
     * @param streamBase  first stream id of this case.
     * @return the plan.
     */
    static Plan fanOut(final BusSystem system, final int subscribers, final int streamBase)
    {
        return fanOut(system, subscribers, streamBase, "", "");
    }

    /**
     * One IPC publication and {@code subscribers} subscriptions in the responder, with the bus's flow-control window
     * equal to Aeron IPC's default: Aeron lets a publication run half its 64 MiB term ahead of its slowest
     * subscriber, where a bus subscriber's ring (4 MiB by default) bounds it. Aeron keeps its defaults; the bus's
     * subscriptions take a 32 MiB ring and its publication the log that such a ring needs.
     *
     * @param system      {@link BusSystem#WARPBUS_IPC} or {@link BusSystem#AERON_IPC}.
     * @param subscribers how many.
     * @param streamBase  first stream id of this case.
     * @return the plan.
     */
    static Plan fanOutAtAeronsWindow(final BusSystem system, final int subscribers, final int streamBase)
    {
        return BusSystem.WARPBUS_IPC == system ?
            fanOut(system, subscribers, streamBase, "|window=" + WINDOW_OF_AERON_IPC, "|ring=" + RING_OF_AERON_IPC) :
            fanOut(system, subscribers, streamBase);
    }

    private static Plan fanOut(
        final BusSystem system,
        final int subscribers,
        final int streamBase,
        final String publicationOptions,
        final String subscriptionOptions)
    {
        final int streamId = streamBase + 3;
        final List<Channel> subscriptions = new ArrayList<>();
        final Channel publication;
        if (BusSystem.AERON_UDP == system && subscribers > 1)
        {
            final String control = HOST + ":" + udpPort();
            publication = new Channel("aeron:udp?control=" + control + "|control-mode=dynamic|fc=min", streamId,
                subscribers);
            for (int i = 0; i < subscribers; i++)
            {
                subscriptions.add(new Channel("aeron:udp?endpoint=" + HOST + ":" + udpPort() + "|control=" + control,
                    streamId, 0));
            }
        }
        else
        {
            final Channel channel = channel(system, streamId);
            publication = new Channel(channel.uri() + publicationOptions, streamId, subscribers);
            for (int i = 0; i < subscribers; i++)
            {
                subscriptions.add(new Channel(channel.uri() + subscriptionOptions, streamId, channel.subscribers()));
            }
        }
        return new Plan(List.of(publication), List.of(), List.of(), subscriptions);
    }

    /**
     * One publication and {@code subscribers} subscriptions, all in the orchestrator.
     *
     * @param system      the system.
     * @param subscribers how many.
     * @param streamBase  first stream id of this case.
     * @return the plan.
     */
    static Plan local(final BusSystem system, final int subscribers, final int streamBase)
    {
        return inOrchestrator(fanOut(system, subscribers, streamBase));
    }

    /**
     * As {@link #local}, with the bus's flow-control window at Aeron IPC's default, as in
     * {@link #fanOutAtAeronsWindow}: room for the subscriptions to poll far behind the writer.
     *
     * @param system      the system.
     * @param subscribers how many.
     * @param streamBase  first stream id of this case.
     * @return the plan.
     */
    static Plan localAtAeronsWindow(final BusSystem system, final int subscribers, final int streamBase)
    {
        return inOrchestrator(fanOutAtAeronsWindow(system, subscribers, streamBase));
    }

    private static Plan inOrchestrator(final Plan fanOut)
    {
        return new Plan(fanOut.orchestratorPublications(), fanOut.responderSubscriptions(), List.of(), List.of());
    }

    private static Channel channel(final BusSystem system, final int streamId)
    {
        switch (system)
        {
            case WARPBUS_IWARP:
                return new Channel("warp:iwarp?endpoint=" + HOST + ":" + tcpPort() + "|stream=" + streamId +
                    CYCLE_TIMESTAMPS, streamId, 1);
            case WARPBUS_IPC:
                return new Channel("warp:ipc?stream=" + streamId + CYCLE_TIMESTAMPS, streamId, 1);
            case AERON_UDP:
                return new Channel("aeron:udp?endpoint=" + HOST + ":" + udpPort(), streamId, 1);
            case AERON_IPC:
                return new Channel("aeron:ipc", streamId, 1);
            default:
                return new Channel(system.peerChannels().forwardOf(new InetSocketAddress(HOST, tcpPort())),
                    streamId, 1);
        }
    }

    private static int tcpPort()
    {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST)))
        {
            return socket.getLocalPort();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static int udpPort()
    {
        try (DatagramSocket socket = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(HOST), 0)))
        {
            return socket.getLocalPort();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
