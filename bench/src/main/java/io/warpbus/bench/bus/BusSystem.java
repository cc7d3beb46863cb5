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

/**
 * The systems of the bus suite: WarpBus over iWARP against Aeron over UDP, each one's shared-memory transport against
 * the other's, and in ping-pong the bus's own engine and plain TCP with nothing on top.
 */
enum BusSystem
{
    /** WarpBus, {@code warp:iwarp}: RDMA Write into each subscriber's ring over the user-space iWARP engine. */
    WARPBUS_IWARP("warpbus-iwarp", null, false),
    /** Aeron, {@code aeron:udp} on loopback, each process with its own embedded driver. */
    AERON_UDP("aeron-udp", null, false),
    /** WarpBus, {@code warp:ipc}: the publisher's conductor copies into each subscriber's memory-mapped ring. */
    WARPBUS_IPC("warpbus-ipc", null, false),
    /** Aeron, {@code aeron:ipc}: both processes map the same log through the orchestrator's driver. */
    AERON_IPC("aeron-ipc", null, false),
    /**
     * The engine alone: one RDMA Write per message into the peer's slot, no bus (ping-pong only); ping and pong each
     * on a connection of its own, as the bus has one per subscription.
     */
    WARPBUS_RDMA("warpbus-rdma", PeerChannels.RDMA, false),
    /** The engine alone as {@link #WARPBUS_RDMA}, the pong written back over the ping's connection. */
    WARPBUS_RDMA_DUPLEX("warpbus-rdma-duplex", PeerChannels.RDMA, true),
    /**
     * Plain TCP, no engine: a length and the payload per message over busy-polled NIO sockets (ping-pong only); ping
     * and pong each on a connection of its own, as {@link #WARPBUS_RDMA}.
     */
    TCP_NIO("tcp-nio", PeerChannels.TCP, false),
    /** Plain TCP as {@link #TCP_NIO}, the pong written back over the ping's connection. */
    TCP_NIO_DUPLEX("tcp-nio-duplex", PeerChannels.TCP, true);

    private final String label;
    private final PeerChannels peerChannels;
    private final boolean duplex;

    BusSystem(final String label, final PeerChannels peerChannels, final boolean duplex)
    {
        this.label = label;
        this.peerChannels = peerChannels;
        this.duplex = duplex;
    }

    /**
     * The channels of a point-to-point system without a bus (ping-pong only, {@link PeerEndpoints}).
     *
     * @return {@link PeerChannels#RDMA} or {@link PeerChannels#TCP}; null for a bus or Aeron.
     */
    PeerChannels peerChannels()
    {
        return peerChannels;
    }

    /**
     * Is this a system without a bus: the engine alone or plain TCP, ping-pong only?
     *
     * @return true when it has {@link #peerChannels()}.
     */
    boolean isPeer()
    {
        return null != peerChannels;
    }

    /**
     * Does the pong go back over the ping's connection?
     *
     * @return true for the {@code -duplex} systems.
     */
    boolean duplex()
    {
        return duplex;
    }

    /**
     * The name in tables and JSON.
     *
     * @return e.g. {@code warpbus-iwarp}.
     */
    String label()
    {
        return label;
    }

}
