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
import io.warpbus.gateway.session.GatewayCounterDescriptor;
import io.warpbus.gateway.session.GatewayCounters;
import io.warpbus.gateway.session.ProtocolError;
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
    static final int POLICY_VIOLATION = 1008;
    static final int TRY_AGAIN_LATER = 1013;
    private static final String ATTRIBUTE = WsConnection.class.getName();
    private static final int MAX_PRE_LOGON_ERRORS = 5;

    private final ConnectionTable connections;
    private final WsRequestMapper mapper;
    private final JsonProtocol protocol = new JsonProtocol();
    private final GatewayCounters counters;
    private final NanoClock clock;
    private final int maxMessageBytes;

    /**
     * The adapter.
     *
     * @param connections     the gateway's connection slots.
     * @param mapper          requests to commands.
     * @param counters        the gateway's counters.
     * @param clock           the core's clock, to stamp commands.
     * @param maxMessageBytes the largest message accepted; longer ones are refused with an error.
     */
    GatewayWebSocketHandler(final ConnectionTable connections, final WsRequestMapper mapper,
        final GatewayCounters counters, final NanoClock clock, final int maxMessageBytes)
    {
        this.connections = connections;
        this.mapper = mapper;
        this.counters = counters;
        this.clock = clock;
        this.maxMessageBytes = maxMessageBytes;
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
            socket.close(new CloseStatus(TRY_AGAIN_LATER, "the gateway is at its connection limit"));
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
        connection.append(message.getPayload(), maxMessageBytes);
        if (!message.isLast())
        {
            return;
        }
        final long receivedNs = clock.nanoTime();
        if (connection.isOversize())
        {
            final int bytes = connection.messageBytes();
            connection.take();
            refuse(connection, new RequestException(ProtocolError.TOO_LARGE, "message of " + bytes +
                " bytes: the limit is " + maxMessageBytes, null), receivedNs);
            return;
        }
        onMessage(connection, connection.take(), receivedNs);
    }

    @Override
    protected void handleBinaryMessage(final WebSocketSession socket, final BinaryMessage message)
    {
        final WsConnection connection = (WsConnection)socket.getAttributes().get(ATTRIBUTE);
        if (null != connection && message.isLast())
        {
            refuse(connection, new RequestException(ProtocolError.MALFORMED, "binary frames are not part of the " +
                "protocol: send JSON text", null), clock.nanoTime());
        }
    }

    @Override
    public void afterConnectionClosed(final WebSocketSession socket, final CloseStatus status)
    {
        final WsConnection connection = (WsConnection)socket.getAttributes().remove(ATTRIBUTE);
        if (null != connection)
        {
            connection.closed();
            mapper.closed(connection);
        }
    }

    private void onMessage(final WsConnection connection, final String text, final long receivedNs)
    {
        final JsonRequest request;
        try
        {
            request = protocol.parse(text);
        }
        catch (final RequestException ex)
        {
            refuse(connection, ex, receivedNs);
            return;
        }
        try
        {
            if (!connection.isLogonSubmitted())
            {
                if (!"logon".equals(request.type()))
                {
                    refuse(connection, new RequestException(ProtocolError.NOT_LOGGED_ON, "log on first: got '" +
                        request.type() + "' before a logon", request.requestId()), receivedNs);
                    return;
                }
                logon(connection, request, receivedNs);
                return;
            }
            if ("logon".equals(request.type()))
            {
                throw new RequestException(ProtocolError.ALREADY_LOGGED_ON, "this connection has logged on already",
                    request.requestId());
            }
            if (!mapper.map(connection, request, receivedNs))
            {
                overloaded(connection);
            }
        }
        catch (final RequestException ex)
        {
            refuse(connection, ex, receivedNs);
        }
    }

    private void logon(final WsConnection connection, final JsonRequest request, final long receivedNs)
        throws RequestException
    {
        final WsRequestMapper.LogonResult result = mapper.logon(connection, request, receivedNs);
        if (result.submitted())
        {
            connection.logonSubmitted();
            return;
        }
        connection.sendDirect("{\"type\":\"logonRejected\",\"seq\":0,\"reason\":\"" +
            JsonProtocol.jsonText(result.failure()) + "\"}");
        connection.close(POLICY_VIOLATION, "logon refused");
    }

    /**
     * Answer a bad message: through the core once it owns the connection (the error then carries the session's
     * sequence number and repeated abuse closes the session), directly before.
     */
    private void refuse(final WsConnection connection, final RequestException error, final long receivedNs)
    {
        if (connection.isLogonSubmitted())
        {
            if (!mapper.error(connection, error, receivedNs))
            {
                overloaded(connection);
            }
            return;
        }
        counters.increment(GatewayCounterDescriptor.PROTOCOL_ERRORS);
        final StringBuilder json = new StringBuilder(128).append("{\"type\":\"error\",\"seq\":0,\"code\":\"")
            .append(error.error().label()).append("\",\"text\":\"")
            .append(JsonProtocol.jsonText(error.getMessage())).append('"');
        if (null != error.requestId())
        {
            json.append(",\"reqId\":\"").append(error.requestId()).append('"');
        }
        connection.sendDirect(json.append('}').toString());
        if (connection.preLogonError() >= MAX_PRE_LOGON_ERRORS)
        {
            counters.increment(GatewayCounterDescriptor.ABUSE_DISCONNECTS);
            connection.close(POLICY_VIOLATION, "too many bad messages before logon");
        }
    }

    private void overloaded(final WsConnection connection)
    {
        connection.close(TRY_AGAIN_LATER, "the gateway is overloaded, try again");
    }
}
