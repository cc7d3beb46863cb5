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

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import io.warpbus.gateway.session.Connection;
import jakarta.websocket.SendResult;
import org.apache.tomcat.websocket.AsyncBatchFlush;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;

/**
 * The WebSocket adapter's state of one client connection: the socket, its gateway {@link Connection} slot, the
 * message being assembled from partial frames, and whether a send is in flight. Message handling for one socket is
 * serialised by the container; sends happen on the sender's thread once the session core owns the connection.
 */
final class WsConnection extends AbstractClientSocket
{
    private static final String BLOCKING_SEND_TIMEOUT = "org.apache.tomcat.websocket.BLOCKING_SEND_TIMEOUT";
    private static final Long CLOSE_FLUSH_TIMEOUT_MS = 50L;
    /** A socket is flushed at least this often, so that the container's answers to pings leave its buffer. */
    private static final long IDLE_FLUSH_INTERVAL_NS = 500_000_000L;

    private final WebSocketSession socket;
    private final jakarta.websocket.Session nativeSocket;
    private final StringBuilder partial = new StringBuilder();
    private volatile boolean inFlight;
    private boolean unflushed;
    private long lastFlushNs;
    private volatile boolean closed;
    private volatile boolean closeSent;
    private boolean oversize;
    private int partialBytes;

    WsConnection(final WebSocketSession socket, final jakarta.websocket.Session nativeSocket, final String host,
        final int port)
    {
        super(host, port);
        this.socket = socket;
        this.nativeSocket = nativeSocket;
        this.lastFlushNs = System.nanoTime();
        if (null != nativeSocket)
        {
            // Sends collect in the container's output buffer and leave in one write per round (see flush(long)).
            try
            {
                nativeSocket.getAsyncRemote().setBatchingAllowed(true);
            }
            catch (final IOException ex)
            {
                closed();
            }
        }
    }

    boolean isInFlight()
    {
        return inFlight;
    }

    @Override
    public boolean isClosed()
    {
        return closed;
    }

    void closed()
    {
        closed = true;
        inFlight = false;
    }

    boolean isCloseSent()
    {
        return closeSent;
    }

    /**
     * Add a partial frame; beyond the limit the rest of the message is counted, not kept.
     *
     * @param payload  the frame's text.
     * @param maxBytes the most a message may have.
     */
    void append(final String payload, final int maxBytes)
    {
        partialBytes += payload.getBytes(StandardCharsets.UTF_8).length;
        if (partialBytes > maxBytes)
        {
            oversize = true;
            partial.setLength(0);
            return;
        }
        partial.append(payload);
    }

    boolean isOversize()
    {
        return oversize;
    }

    int messageBytes()
    {
        return partialBytes;
    }

    /**
     * Take the assembled message and start the next.
     *
     * @return the text.
     */
    String take()
    {
        final String text = partial.toString();
        partial.setLength(0);
        partialBytes = 0;
        oversize = false;
        return text;
    }

    /**
     * Send now, on the calling thread: only before the session core owns the connection (refused logons).
     *
     * @param json the message.
     */
    @Override
    public void sendDirect(final String json)
    {
        try
        {
            socket.sendMessage(new TextMessage(json));
            if (null != nativeSocket)
            {
                nativeSocket.getBasicRemote().flushBatch();
            }
        }
        catch (final IOException | IllegalStateException ex)
        {
            closed();
        }
    }

    /**
     * Start an asynchronous send; the next one waits until it completes.
     *
     * @param json the message.
     */
    @Override
    public void send(final String json)
    {
        inFlight = true;
        unflushed = true;
        try
        {
            nativeSocket.getAsyncRemote().sendText(json, this::onSent);
        }
        catch (final RuntimeException ex)
        {
            closed();
        }
    }

    /**
     * Start writing what the sends since the last flush left in the container's buffer: one socket write for a
     * round's messages instead of one per message. Asynchronous like a send (the next send waits for it), so a slow
     * socket never holds up the sender; not while a send is in flight.
     *
     * @param nowNs the time now.
     */
    void flush(final long nowNs)
    {
        // The container answers a client's ping itself, into the same buffer: a socket the sender has had nothing
        // for is flushed all the same now and then, or the pong would wait for the next message.
        if ((unflushed || nowNs - lastFlushNs > IDLE_FLUSH_INTERVAL_NS) && !inFlight && !closed)
        {
            unflushed = false;
            lastFlushNs = nowNs;
            inFlight = true;
            try
            {
                AsyncBatchFlush.flush(nativeSocket.getAsyncRemote(), this::onSent);
            }
            catch (final RuntimeException ex)
            {
                closed();
            }
        }
    }

    private void onSent(final SendResult result)
    {
        if (!result.isOK())
        {
            closed();
            return;
        }
        inFlight = false;
    }

    /**
     * Close the socket with a code and a reason (cut to the 123 bytes WebSocket allows).
     *
     * @param code   close code.
     * @param reason why.
     */
    @Override
    public void close(final int code, final String reason)
    {
        closeSent = true;
        if (null != nativeSocket)
        {
            // Tomcat flushes what is batched ahead of the close frame, blocking: on the full socket of a slow
            // consumer that would hold up every other socket for the default 20 s. Wait no longer than Tomcat
            // itself gives a close behind a send in flight.
            nativeSocket.getUserProperties().put(BLOCKING_SEND_TIMEOUT, CLOSE_FLUSH_TIMEOUT_MS);
        }
        try
        {
            final String shortReason = null == reason ? "" : reason.length() > 120 ? reason.substring(0, 120) : reason;
            socket.close(new CloseStatus(code, shortReason));
        }
        catch (final IOException | RuntimeException ex)
        {
            closed();
        }
    }

    @Override
    public String toString()
    {
        return "ws " + address() + (null == connection() ? "" : " " + connection());
    }
}
