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
package io.warpbus.gateway.ws;

import java.util.concurrent.locks.LockSupport;

import io.warpbus.gateway.session.Connection;
import io.warpbus.gateway.session.ConnectionTable;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.MessageHandler;

/**
 * Drains the WebSocket connections' outbound queues onto their sockets: one agent on its own thread, round-robin
 * over the connections, one asynchronous send in flight per socket (the next waits for its completion), so that a
 * slow socket only fills its own queue, which the session core then conflates or closes. In its turn a socket sends
 * up to {@value #SENDS_PER_SOCKET_PER_ROUND} messages while the container takes them at once (into its batch
 * buffer), then flushes them in one write: a message does not wait a round per message queued ahead of it, and a
 * burst costs one system call, not one per message. It also carries out the core's close requests and gives retired
 * connection slots back once nothing is in flight ({@link OutboundEvents} says what each event becomes).
 */
final class WsSender implements Agent
{
    /** Messages one socket may send in a round while its sends complete at once, before the next socket's turn. */
    static final int SENDS_PER_SOCKET_PER_ROUND = 64;

    private final ConnectionTable connections;
    private final OutboundEvents events;
    private Runnable waker;

    WsSender(final ConnectionTable connections, final OutboundEvents events)
    {
        this.connections = connections;
        this.events = events;
    }

    @Override
    public int doWork()
    {
        final ConnectionTable connections = this.connections;
        if (0 == connections.inUse(GatewayWebSocketHandler.ADAPTER_ID))
        {
            // Nothing on this server (clients use the trading server): no pass over every slot.
            return 0;
        }
        int work = 0;
        final long nowNs = System.nanoTime();
        for (int i = 0, capacity = connections.capacity(); i < capacity; i++)
        {
            final Connection connection = connections.get(i);
            final int state = connection.state();
            if (Connection.FREE == state || GatewayWebSocketHandler.ADAPTER_ID != connection.adapter())
            {
                continue;
            }
            final WsConnection socket = (WsConnection)connection.attachment();
            if (Connection.RETIRED == state)
            {
                if (null == socket || !socket.isInFlight())
                {
                    if (null != socket)
                    {
                        connection.outbound().read(events.unsent(socket));
                    }
                    connections.release(connection);
                    work++;
                }
                continue;
            }
            if (null == socket || socket.isClosed() || socket.isCloseSent())
            {
                continue;
            }
            if (connection.isCloseRequested())
            {
                socket.close(connection.closeCode(), connection.closeReason());
                work++;
                continue;
            }
            // While the container completes sends at once (the socket took the bytes), go on with this queue: an
            // order's answer should not wait a whole round over every socket per message queued ahead of it.
            final MessageHandler handler = events.sending(socket);
            for (int budget = SENDS_PER_SOCKET_PER_ROUND; budget > 0 && isSendable(socket) &&
                connection.outbound().size() > 0; budget--)
            {
                work += connection.outbound().read(handler, 1);
            }
            if (!socket.isCloseSent())
            {
                socket.flush(nowNs);
            }
        }
        return work;
    }

    private static boolean isSendable(final WsConnection socket)
    {
        return !socket.isInFlight() && !socket.isClosed() && !socket.isCloseSent();
    }

    @Override
    public void onStart()
    {
        final Thread thread = Thread.currentThread();
        waker = () -> LockSupport.unpark(thread);
        connections.addDrainer(GatewayWebSocketHandler.ADAPTER_ID, waker);
    }

    @Override
    public void onClose()
    {
        connections.removeDrainer(waker);
    }

    @Override
    public String roleName()
    {
        return "gateway-ws-sender";
    }
}
