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
package org.apache.tomcat.websocket;

import jakarta.websocket.RemoteEndpoint;
import jakarta.websocket.SendHandler;

/**
 * Flush a Tomcat WebSocket session's batched messages without blocking. Jakarta WebSocket offers only
 * {@code flushBatch()}, which blocks the caller until the socket has taken the bytes (for as long as a slow client
 * keeps its buffer full); Tomcat itself flushes through the same asynchronous path as any send, with a completion
 * handler, but keeps that path package-private. This class lives in Tomcat's package to reach it: the gateway's
 * sender thread batches a round of messages per socket and flushes them with one write, and never waits on a socket.
 * Tied to Tomcat's internals (checked against Tomcat 11.0): every gateway test that waits for an answer over a
 * WebSocket depends on it, {@code MarketDataTest}'s bursts and slow consumers most.
 */
public final class AsyncBatchFlush
{
    private AsyncBatchFlush()
    {
    }

    /**
     * Start writing what batching left in the session's output buffer.
     *
     * @param remote  the session's asynchronous remote endpoint (Tomcat's).
     * @param handler told when the bytes are written, or why not; as for an asynchronous send, the next send must
     *                wait for it.
     * @throws IllegalArgumentException if {@code remote} is not Tomcat's.
     */
    public static void flush(final RemoteEndpoint.Async remote, final SendHandler handler)
    {
        if (!(remote instanceof WsRemoteEndpointBase))
        {
            throw new IllegalArgumentException("not a Tomcat WebSocket endpoint: " + remote.getClass().getName());
        }
        ((WsRemoteEndpointBase)remote).base.startMessage(Constants.INTERNAL_OPCODE_FLUSH, null, true, handler);
    }
}
