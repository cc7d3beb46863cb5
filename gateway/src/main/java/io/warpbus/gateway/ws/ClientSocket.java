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

import io.warpbus.gateway.session.Connection;

/**
 * One client's socket as the JSON protocol sees it, whichever server carries it (the servlet container's WebSocket
 * endpoint or the gateway's own {@link NioWebSocketServer}): its address, its gateway {@link Connection} slot, the
 * progress of its logon, and the two things the protocol does to it directly, answering before the session core owns
 * it and closing it.
 */
interface ClientSocket
{
    /**
     * The client's address and port, as sessions show it.
     *
     * @return host:port.
     */
    String address();

    /**
     * The client's host, as logon throttling counts it.
     *
     * @return the host address.
     */
    String host();

    /**
     * The socket's slot in the connection table.
     *
     * @return the connection.
     */
    Connection connection();

    /**
     * Has a logon been handed to the core? From then on every answer comes from the core.
     *
     * @return true if so.
     */
    boolean isLogonSubmitted();

    /**
     * A logon has been handed to the core.
     */
    void logonSubmitted();

    /**
     * The name the logon's credentials were checked under, set before the logon is handed to the core; the sender
     * reports the core's answer to the logon throttle under it.
     *
     * @return the user name or API key id, or null before a logon passed its credentials.
     */
    String logonName();

    /**
     * Set the logon's name.
     *
     * @param name user name or API key id.
     */
    void logonName(String name);

    /**
     * Count a bad message before logon.
     *
     * @return how many so far.
     */
    int preLogonError();

    /**
     * Is the socket closed?
     *
     * @return true once closed by either side.
     */
    boolean isClosed();

    /**
     * Answer now, before the session core owns the connection (a refused logon, an error before logon).
     *
     * @param json the message.
     */
    void sendDirect(String json);

    /**
     * Send a message the core queued; on the adapter's sending thread only.
     *
     * @param json the message.
     */
    void send(String json);

    /**
     * Close with a code and a reason (cut to what a close frame can carry).
     *
     * @param code   WebSocket close code.
     * @param reason why.
     */
    void close(int code, String reason);
}
