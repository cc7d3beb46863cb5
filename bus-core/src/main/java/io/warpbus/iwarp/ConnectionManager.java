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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.util.Objects;

import org.agrona.CloseHelper;
import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;

/**
 * Connection management in the manner of rdma_cm: listen, connect, accept, reject, with private data, and an
 * event queue the application polls.
 * <pre>
 *   initiator                                   responder
 *   connect(qp, addr, params) ---- TCP + MPA Request ----&gt; CONNECT_REQUEST event
 *                                                          request.accept(qp, params) or reject(data)
 *   ESTABLISHED or REJECTED   &lt;--- MPA Reply -------------
 *                             ---- first FPDU (RTR) -----&gt; ESTABLISHED
 * </pre>
 */
public final class ConnectionManager
{
    private final Rnic rnic;
    private final ManyToOneConcurrentLinkedQueue<ConnectionEvent> events = new ManyToOneConcurrentLinkedQueue<>();

    ConnectionManager(final Rnic rnic)
    {
        this.rnic = rnic;
    }

    /**
     * Listen for connections.
     *
     * @param address     where to bind; port 0 picks a free port, see {@link Listener#localAddress()}.
     * @param backlog     TCP accept backlog.
     * @param userContext returned in events of connections made through this listener.
     * @return the listener.
     * @throws UncheckedIOException naming the address when it cannot be bound.
     */
    public Listener listen(final InetSocketAddress address, final int backlog, final Object userContext)
    {
        Objects.requireNonNull(address, "address");
        rnic.ensureOpen();
        ServerSocketChannel channel = null;
        try
        {
            channel = ServerSocketChannel.open();
            channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            channel.bind(address, backlog);
            channel.configureBlocking(false);
            final Listener listener = new Listener(rnic, channel, userContext);
            rnic.execute(() -> rnic.agent().addListener(listener));
            return listener;
        }
        catch (final IOException ex)
        {
            CloseHelper.quietClose(channel);
            throw new UncheckedIOException("cannot listen on " + address + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * Connect a queue pair in state {@link QueuePairState#IDLE} to a listening peer. The outcome arrives as an
     * {@link ConnectionEventType#ESTABLISHED}, {@link ConnectionEventType#REJECTED} or
     * {@link ConnectionEventType#CONNECT_ERROR} event.
     *
     * @param queuePair   the queue pair.
     * @param remote      the peer's listening address.
     * @param parameters  private data and read depths for the request.
     * @param userContext returned in this connection's events.
     */
    public void connect(
        final QueuePair queuePair,
        final InetSocketAddress remote,
        final ConnectionParameters parameters,
        final Object userContext)
    {
        Objects.requireNonNull(remote, "remote");
        Objects.requireNonNull(parameters, "parameters");
        if (queuePair.rnic != rnic)
        {
            throw new IllegalArgumentException("queue pair belongs to another Rnic");
        }
        if (remote.isUnresolved())
        {
            throw new IllegalArgumentException("cannot resolve host '" + remote.getHostString() + "'");
        }
        rnic.ensureOpen();
        if (QueuePairState.IDLE != queuePair.state())
        {
            throw new IllegalStateException("queue pair " + queuePair.number() + " is " + queuePair.state() +
                ", not IDLE");
        }
        queuePair.state(QueuePairState.CONNECTING);
        rnic.execute(() -> rnic.agent().connect(queuePair, remote, parameters, userContext));
    }

    /**
     * Deliver pending connection events.
     *
     * @param handler receives each event.
     * @param limit   most events to deliver.
     * @return the number delivered.
     */
    public int poll(final ConnectionEventHandler handler, final int limit)
    {
        int count = 0;
        while (count < limit)
        {
            final ConnectionEvent event = events.poll();
            if (null == event)
            {
                break;
            }
            count++;
            handler.onEvent(event);
        }
        return count;
    }

    void publish(final ConnectionEvent event)
    {
        events.offer(event);
    }
}
