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

import io.warpbus.iwarp.rdmap.TerminateError;

/**
 * An event of the connection manager, polled with {@link ConnectionManager#poll}.
 *
 * @param type            what happened.
 * @param queuePair       the queue pair concerned; null for {@link ConnectionEventType#CONNECT_REQUEST}.
 * @param request         for {@link ConnectionEventType#CONNECT_REQUEST}: the request to accept or reject.
 * @param remoteAddress   the peer's address.
 * @param privateData     the peer's private data (request, reply or reject), never null.
 * @param reason          for failures and disconnects: what happened, in words; null otherwise.
 * @param terminateError  the RFC error of the Terminate sent or received, if the connection ended by one.
 * @param terminateByPeer true when the peer sent the Terminate, false when this side did.
 * @param userContext     the object given to {@link ConnectionManager#connect} or the listener.
 */
public record ConnectionEvent(
    ConnectionEventType type,
    QueuePair queuePair,
    ConnectRequest request,
    InetSocketAddress remoteAddress,
    byte[] privateData,
    String reason,
    TerminateError terminateError,
    boolean terminateByPeer,
    Object userContext)
{
    @Override
    public String toString()
    {
        return "ConnectionEvent{" + type + (null != queuePair ? ", qp=" + queuePair.number() : "") +
            ", remote=" + remoteAddress + ", privateData=" + privateData.length + " bytes" +
            (null != reason ? ", reason='" + reason + '\'' : "") +
            (null != terminateError ? ", terminate=" + terminateError + (terminateByPeer ? " (by peer)" : "") : "") +
            '}';
    }
}
