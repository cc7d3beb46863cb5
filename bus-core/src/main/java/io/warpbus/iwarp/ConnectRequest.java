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
package io.warpbus.iwarp;

import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicBoolean;

import io.warpbus.iwarp.mpa.MpaNegotiation;

/**
 * A peer's MPA Request, delivered in a {@link ConnectionEventType#CONNECT_REQUEST} event. The application accepts
 * it onto a queue pair or rejects it, once, before the engine's MPA timeout; a request left undecided is rejected.
 */
public final class ConnectRequest
{
    private final Rnic rnic;
    private final Connection connection;
    private final InetSocketAddress remoteAddress;
    private final InetSocketAddress localAddress;
    private final byte[] privateData;
    private final int revision;
    private final int peerIrd;
    private final int peerOrd;
    private final boolean enhanced;
    private final AtomicBoolean decided = new AtomicBoolean();

    ConnectRequest(
        final Rnic rnic,
        final Connection connection,
        final InetSocketAddress remoteAddress,
        final InetSocketAddress localAddress,
        final byte[] privateData,
        final int revision,
        final int peerIrd,
        final int peerOrd,
        final boolean enhanced)
    {
        this.enhanced = enhanced;
        this.rnic = rnic;
        this.connection = connection;
        this.remoteAddress = remoteAddress;
        this.localAddress = localAddress;
        this.privateData = privateData;
        this.revision = revision;
        this.peerIrd = peerIrd;
        this.peerOrd = peerOrd;
    }

    /**
     * The initiator's address.
     *
     * @return the address.
     */
    public InetSocketAddress remoteAddress()
    {
        return remoteAddress;
    }

    /**
     * The local address the request arrived on.
     *
     * @return the address.
     */
    public InetSocketAddress localAddress()
    {
        return localAddress;
    }

    /**
     * The initiator application's private data.
     *
     * @return a copy.
     */
    public byte[] privateData()
    {
        return privateData.clone();
    }

    /**
     * MPA revision of the request.
     *
     * @return 1 or 2.
     */
    public int revision()
    {
        return revision;
    }

    /**
     * The initiator's inbound RDMA Read depth (0x3FFF when not negotiated, as with revision 1).
     *
     * @return IRD.
     */
    public int peerIrd()
    {
        return peerIrd;
    }

    /**
     * The initiator's outbound RDMA Read depth (0x3FFF when not negotiated).
     *
     * @return ORD.
     */
    public int peerOrd()
    {
        return peerOrd;
    }

    /**
     * Accept onto a queue pair in state {@link QueuePairState#IDLE}. An {@link ConnectionEventType#ESTABLISHED}
     * event follows once the initiator's first FPDU arrives, or {@link ConnectionEventType#CONNECT_ERROR}.
     *
     * @param queuePair  the queue pair.
     * @param parameters private data and read depths for the reply.
     */
    public void accept(final QueuePair queuePair, final ConnectionParameters parameters)
    {
        final int limit = MpaNegotiation.maxApplicationData(enhanced);
        if (parameters.privateData().length > limit)
        {
            throw new IllegalArgumentException("accept private data of " + parameters.privateData().length +
                " bytes is longer than the " + limit + " bytes the MPA reply can carry");
        }
        decide();
        if (queuePair.rnic != rnic)
        {
            throw new IllegalArgumentException("queue pair belongs to another Rnic");
        }
        if (QueuePairState.IDLE != queuePair.state())
        {
            throw new IllegalStateException("queue pair " + queuePair.number() + " is " + queuePair.state() +
                ", not IDLE");
        }
        queuePair.state(QueuePairState.CONNECTING);
        rnic.execute(() -> rnic.agent().accept(connection, queuePair, parameters));
    }

    /**
     * Reject with an MPA Reply carrying R=1 and the given private data (a reason, for example).
     *
     * @param privateData for the initiator, truncated to what the reply can carry.
     */
    public void reject(final byte[] privateData)
    {
        decide();
        final byte[] copy = privateData.clone();
        rnic.execute(() -> rnic.agent().reject(connection, copy));
    }

    private void decide()
    {
        if (!decided.compareAndSet(false, true))
        {
            throw new IllegalStateException("connect request from " + remoteAddress + " was already decided");
        }
    }

    @Override
    public String toString()
    {
        return "ConnectRequest{remote=" + remoteAddress + ", rev=" + revision + ", ird=" + peerIrd +
            ", ord=" + peerOrd + ", privateData=" + privateData.length + " bytes}";
    }
}
