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

import io.warpbus.gateway.session.GatewayCounterDescriptor;
import io.warpbus.gateway.session.GatewayCounters;
import io.warpbus.gateway.session.ProtocolError;

/**
 * The JSON protocol's handling of a client's messages, the same for every server that carries them: one JSON
 * message per text message, translated to session-core commands; it owns no session state. Before a logon has been
 * handed to the core it answers the client itself (a refused logon, anything but a logon); after, every answer comes
 * from the core through the connection's queue. Never blocks on the bus; a logon's credential check may take a hash
 * function's time, which is why a server calls {@link #onText} for a socket that has not logged on from a thread
 * that may wait.
 */
final class JsonSessionHandler
{
    static final int POLICY_VIOLATION = 1008;
    static final int TRY_AGAIN_LATER = 1013;
    private static final int MAX_PRE_LOGON_ERRORS = 5;

    private final WsRequestMapper mapper;
    private final JsonProtocol protocol = new JsonProtocol();
    private final GatewayCounters counters;
    private final int maxMessageBytes;

    /**
     * The handler.
     *
     * @param mapper          requests to commands.
     * @param counters        the gateway's counters.
     * @param maxMessageBytes the largest message accepted; longer ones are refused with an error.
     */
    JsonSessionHandler(final WsRequestMapper mapper, final GatewayCounters counters, final int maxMessageBytes)
    {
        this.mapper = mapper;
        this.counters = counters;
        this.maxMessageBytes = maxMessageBytes;
    }

    /**
     * The largest message accepted.
     *
     * @return bytes.
     */
    int maxMessageBytes()
    {
        return maxMessageBytes;
    }

    /**
     * A whole text message.
     *
     * @param socket     whose.
     * @param text       the message.
     * @param receivedNs when it arrived, on the core's clock.
     */
    void onText(final ClientSocket socket, final String text, final long receivedNs)
    {
        final JsonRequest request;
        try
        {
            request = protocol.parse(text);
        }
        catch (final RequestException ex)
        {
            refuse(socket, ex, receivedNs);
            return;
        }
        try
        {
            if (!socket.isLogonSubmitted())
            {
                if (!"logon".equals(request.type()))
                {
                    refuse(socket, new RequestException(ProtocolError.NOT_LOGGED_ON, "log on first: got '" +
                        request.type() + "' before a logon", request.requestId()), receivedNs);
                    return;
                }
                logon(socket, request, receivedNs);
                return;
            }
            if ("logon".equals(request.type()))
            {
                throw new RequestException(ProtocolError.ALREADY_LOGGED_ON, "this connection has logged on already",
                    request.requestId());
            }
            if (!mapper.map(socket, request, receivedNs))
            {
                overloaded(socket);
            }
        }
        catch (final RequestException ex)
        {
            refuse(socket, ex, receivedNs);
        }
    }

    /**
     * A text message longer than the limit, of which nothing was kept.
     *
     * @param socket     whose.
     * @param bytes      how long it was.
     * @param receivedNs when it ended.
     */
    void onOversize(final ClientSocket socket, final long bytes, final long receivedNs)
    {
        refuse(socket, new RequestException(ProtocolError.TOO_LARGE, "message of " + bytes + " bytes: the limit is " +
            maxMessageBytes, null), receivedNs);
    }

    /**
     * A binary message, which the protocol has none of.
     *
     * @param socket     whose.
     * @param receivedNs when it ended.
     */
    void onBinary(final ClientSocket socket, final long receivedNs)
    {
        refuse(socket, new RequestException(ProtocolError.MALFORMED, "binary frames are not part of the " +
            "protocol: send JSON text", null), receivedNs);
    }

    /**
     * The socket has closed: tell the core, which retires its connection.
     *
     * @param socket whose.
     */
    void onClosed(final ClientSocket socket)
    {
        mapper.closed(socket);
    }

    private void logon(final ClientSocket socket, final JsonRequest request, final long receivedNs)
        throws RequestException
    {
        final WsRequestMapper.LogonResult result = mapper.logon(socket, request, receivedNs);
        if (result.submitted())
        {
            socket.logonSubmitted();
            return;
        }
        socket.sendDirect("{\"type\":\"logonRejected\",\"seq\":0,\"reason\":\"" +
            JsonProtocol.jsonText(result.failure()) + "\"}");
        socket.close(POLICY_VIOLATION, "logon refused");
    }

    /**
     * Answer a bad message: through the core once it owns the connection (the error then carries the session's
     * sequence number and repeated abuse closes the session), directly before.
     */
    private void refuse(final ClientSocket socket, final RequestException error, final long receivedNs)
    {
        if (socket.isLogonSubmitted())
        {
            if (!mapper.error(socket, error, receivedNs))
            {
                overloaded(socket);
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
        socket.sendDirect(json.append('}').toString());
        if (socket.preLogonError() >= MAX_PRE_LOGON_ERRORS)
        {
            counters.increment(GatewayCounterDescriptor.ABUSE_DISCONNECTS);
            socket.close(POLICY_VIOLATION, "too many bad messages before logon");
        }
    }

    private void overloaded(final ClientSocket socket)
    {
        socket.close(TRY_AGAIN_LATER, "the gateway is overloaded, try again");
    }
}
