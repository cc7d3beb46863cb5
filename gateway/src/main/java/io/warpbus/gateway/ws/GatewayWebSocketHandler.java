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

import java.net.InetSocketAddress;

import io.warpbus.gateway.session.ConnectionTable;
import io.warpbus.gateway.session.Connection;
import org.agrona.concurrent.NanoClock;
import org.springframework.web.socket.BinaryMessage;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.adapter.NativeWebSocketSession;
import org.springframework.web.socket.handler.AbstractWebSocketHandler;

/**
 * The WebSocket protocol adapter: one JSON message per text frame (partial frames are assembled up to the size
 * limit), translated to session-core commands; it owns no session state. Before a logon has been handed to the
 * core it answers the client itself (a refused logon, anything but a logon); after, every answer comes from the core
 * through the connection's queue and {@link WsSender}. Runs on the container's threads and never blocks on the bus.
 */
public final class GatewayWebSocketHandler extends AbstractWebSocketHandler
{
    /** The adapter id of WebSocket connections in the {@link ConnectionTable}. */
    public static final int ADAPTER_ID = 1;
    private static final String ATTRIBUTE = WsConnection.class.getName();

    private final ConnectionTable connections;
    private final JsonSessionHandler handler;
    private final NanoClock clock;

    /**
     * The adapter.
     *
     * @param connections the gateway's connection slots.
     * @param handler     the JSON protocol.
     * @param clock       the core's clock, to stamp commands.
     */
    GatewayWebSocketHandler(final ConnectionTable connections, final JsonSessionHandler handler,
        final NanoClock clock)
    {
        this.connections = connections;
        this.handler = handler;
        this.clock = clock;
    }

    @Override
    public boolean supportsPartialMessages()
    {
        return true;
    }

    @Override
    public void afterConnectionEstablished(final WebSocketSession socket) throws Exception
    {
        final InetSocketAddress remote = socket.getRemoteAddress();
        final String host = null == remote || null == remote.getAddress() ? "unknown" :
            remote.getAddress().getHostAddress();
        final jakarta.websocket.Session nativeSocket = socket instanceof NativeWebSocketSession ?
            ((NativeWebSocketSession)socket).getNativeSession(jakarta.websocket.Session.class) : null;
        final WsConnection connection = new WsConnection(socket, nativeSocket, host,
            null == remote ? 0 : remote.getPort());
        final Connection slot = null == nativeSocket ? null : connections.acquire(ADAPTER_ID, connection);
        if (null == slot)
        {
            socket.close(new CloseStatus(JsonSessionHandler.TRY_AGAIN_LATER, "the gateway is at its connection limit"));
            return;
        }
        connection.connection(slot);
        socket.getAttributes().put(ATTRIBUTE, connection);
    }

    @Override
    protected void handleTextMessage(final WebSocketSession socket, final TextMessage message)
    {
        final WsConnection connection = (WsConnection)socket.getAttributes().get(ATTRIBUTE);
        if (null == connection || connection.isClosed())
        {
            return;
        }
        connection.append(message.getPayload(), handler.maxMessageBytes());
        if (!message.isLast())
        {
            return;
        }
        final long receivedNs = clock.nanoTime();
        if (connection.isOversize())
        {
            final int bytes = connection.messageBytes();
            connection.take();
            handler.onOversize(connection, bytes, receivedNs);
            return;
        }
        handler.onText(connection, connection.take(), receivedNs);
    }

    @Override
    protected void handleBinaryMessage(final WebSocketSession socket, final BinaryMessage message)
    {
        final WsConnection connection = (WsConnection)socket.getAttributes().get(ATTRIBUTE);
        if (null != connection && message.isLast())
        {
            handler.onBinary(connection, clock.nanoTime());
        }
    }

    @Override
    public void afterConnectionClosed(final WebSocketSession socket, final CloseStatus status)
    {
        final WsConnection connection = (WsConnection)socket.getAttributes().remove(ATTRIBUTE);
        if (null != connection)
        {
            connection.closed();
            handler.onClosed(connection);
        }
    }
}
