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

import io.warpbus.gateway.security.Authenticator;
import io.warpbus.gateway.session.Connection;
import io.warpbus.gateway.session.ConnectionTable;
import io.warpbus.gateway.session.EventDescriptor;
import io.warpbus.gateway.session.EventText;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.MessageHandler;

/**
 * Drains the WebSocket connections' outbound queues onto their sockets: one agent on its own thread, round-robin
 * over the connections, one asynchronous send in flight per socket (the next waits for its completion), so that a
 * slow socket only fills its own queue, which the session core then conflates or closes. In its turn a socket sends
 * up to {@value #SENDS_PER_SOCKET_PER_ROUND} messages while the container takes them at once (into its batch
 * buffer), then flushes them in one write: a message does not wait a round per message queued ahead of it, and a
 * burst costs one system call, not one per message. It also carries out the core's close requests and gives retired
 * connection slots back once nothing is in flight.
 * <p>
 * The core's answer to a logon passes through here on its way to the client, so this is where the
 * {@link Authenticator} hears it, off the core's thread: a refusal counts toward the logon throttle and an
 * acceptance forgives the failures of the name the logon used. A refusal still queued when its connection is
 * retired (the client did not wait for it) counts all the same.
 */
final class WsSender implements Agent
{
    /** Messages one socket may send in a round while its sends complete at once, before the next socket's turn. */
    static final int SENDS_PER_SOCKET_PER_ROUND = 64;

    private final ConnectionTable connections;
    private final JsonEventEncoder encoder;
    private final Authenticator authenticator;
    private final MessageHandler handler = this::onEvent;
    private final MessageHandler unsent = this::onUnsent;
    private WsConnection current;

    WsSender(final ConnectionTable connections, final JsonEventEncoder encoder, final Authenticator authenticator)
    {
        this.connections = connections;
        this.encoder = encoder;
        this.authenticator = authenticator;
    }

    @Override
    public int doWork()
    {
        int work = 0;
        final long nowNs = System.nanoTime();
        final ConnectionTable connections = this.connections;
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
                        current = socket;
                        connection.outbound().read(unsent);
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
            current = socket;
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
        connections.drainer(Thread.currentThread());
    }

    @Override
    public void onClose()
    {
        connections.drainer(null);
    }

    @Override
    public String roleName()
    {
        return "gateway-ws-sender";
    }

    private void onEvent(final int type, final DirectBuffer buffer, final int offset, final int length)
    {
        onLogonAnswer(type);
        if (EventDescriptor.CLOSE == type)
        {
            current.close(buffer.getInt(offset + EventDescriptor.CODE_OFFSET),
                EventText.get(buffer, offset + EventDescriptor.REASON_TEXT_OFFSET));
            return;
        }
        final String json = encoder.encode(type, buffer, offset, length);
        if (null != json)
        {
            current.sendAsync(json);
        }
    }

    private void onUnsent(final int type, final DirectBuffer buffer, final int offset, final int length)
    {
        onLogonAnswer(type);
    }

    private void onLogonAnswer(final int type)
    {
        if (EventDescriptor.LOGON_REJECTED == type)
        {
            authenticator.onRefused(current.host(), current.logonName());
        }
        else if (EventDescriptor.LOGON_ACCEPTED == type)
        {
            authenticator.onAccepted(current.logonName());
        }
    }
}
