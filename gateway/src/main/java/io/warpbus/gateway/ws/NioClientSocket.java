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
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import io.warpbus.gateway.session.Connection;

/**
 * One client of the {@link NioWebSocketServer}: the socket, its buffers, its place in the WebSocket protocol (opening
 * handshake, open, closing) and its gateway {@link Connection} slot. Everything here runs on the server's thread,
 * except what the protocol does before the client has logged on ({@link #sendDirect}, {@link #close} and the logon
 * fields), which runs on a logon thread and is handed to the server's thread as a task.
 */
final class NioClientSocket extends AbstractClientSocket
{
    static final int HANDSHAKE = 0;
    static final int OPEN = 1;
    /** Our close frame is sent; waiting for the client's, or for the timeout. */
    static final int CLOSING = 2;
    /** Write what is buffered (an HTTP error, a close frame answering the client's), then close. */
    static final int CLOSE_AFTER_WRITE = 3;
    /**
     * All is written and our side shut: reading what the client still sends until it closes or the close timeout,
     * as closing with unread bytes would reset the connection and could destroy what we wrote before the client
     * reads it.
     */
    static final int LINGER = 4;
    static final int CLOSED = 5;

    private static final int NORMAL_CLOSURE = 1000;
    private static final int PROTOCOL_ERROR = 1002;
    private static final int INVALID_PAYLOAD = 1007;
    private static final int MAX_CLOSE_REASON_BYTES = ServerFrames.MAX_CONTROL_PAYLOAD - 2;
    private static final int INITIAL_OUT_BYTES = 16 * 1024;

    private final NioWebSocketServer server;
    private final SocketChannel channel;
    private final ByteBuffer in;
    private final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    private ByteBuffer out = ByteBuffer.allocate(INITIAL_OUT_BYTES);
    private SelectionKey key;
    private int state = HANDSHAKE;
    private long deadlineNs;
    private boolean closeNotified;
    /** A logon thread holds a message of this socket; reading waits until it is done. */
    private boolean held;

    private byte[] message = new byte[0];
    private int messageLength;
    private int messageOpcode = -1;
    private long skipBytes;
    private long oversizeBytes = -1;
    private boolean skippingFinal;

    NioClientSocket(final NioWebSocketServer server, final SocketChannel channel, final String host,
        final int port, final int inBytes, final long deadlineNs)
    {
        super(host, port);
        this.server = server;
        this.channel = channel;
        this.in = ByteBuffer.allocate(inBytes);
        this.deadlineNs = deadlineNs;
    }

    void key(final SelectionKey key)
    {
        this.key = key;
    }

    SocketChannel channel()
    {
        return channel;
    }

    int state()
    {
        return state;
    }

    long deadlineNs()
    {
        return deadlineNs;
    }

    @Override
    public boolean isClosed()
    {
        return CLOSED == state;
    }

    /**
     * Can the core's messages still go out on this socket?
     *
     * @return true while open.
     */
    boolean isOpen()
    {
        return OPEN == state;
    }

    /**
     * Bytes waiting for the socket to take them.
     *
     * @return buffered bytes.
     */
    int pendingBytes()
    {
        return out.position();
    }

    @Override
    public void sendDirect(final String json)
    {
        if (server.isServerThread())
        {
            send(json);
        }
        else
        {
            server.task(() -> send(json));
        }
    }

    @Override
    public void send(final String json)
    {
        if (OPEN == state)
        {
            putText(json);
        }
    }

    @Override
    public void close(final int code, final String reason)
    {
        if (server.isServerThread())
        {
            startClose(code, reason);
        }
        else
        {
            server.task(() -> startClose(code, reason));
        }
    }

    /**
     * Begin the closing handshake (RFC 6455 section 7.1.2): our close frame after what is buffered, then wait for the
     * client's close frame until the server's close timeout.
     */
    void startClose(final int code, final String reason)
    {
        if (OPEN != state)
        {
            return;
        }
        putClose(code, reason);
        state = CLOSING;
        deadlineNs = server.nowNs() + NioWebSocketServer.CLOSE_TIMEOUT_NS;
        flush();
    }

    /**
     * The socket is readable: take what arrived and act on it.
     */
    void onReadable()
    {
        final int read;
        try
        {
            read = channel.read(in);
        }
        catch (final IOException ex)
        {
            terminate();
            return;
        }
        if (read < 0)
        {
            // The client went away: at the end of a closing handshake that is how it ends, otherwise abnormally.
            terminate();
            return;
        }
        if (HANDSHAKE == state)
        {
            onHandshakeBytes();
        }
        else if (OPEN == state || CLOSING == state)
        {
            onFrameBytes();
        }
        else
        {
            in.clear();
        }
        flush();
    }

    /**
     * The socket can take more: write what is buffered.
     */
    void onWritable()
    {
        flush();
    }

    /**
     * A logon thread is done with this socket's message: go on with what arrived meanwhile.
     */
    void release()
    {
        held = false;
        if (OPEN == state || CLOSING == state)
        {
            onFrameBytes();
            flush();
        }
    }

    private void onHandshakeBytes()
    {
        final int end = UpgradeRequest.headEnd(in);
        if (end < 0)
        {
            if (!in.hasRemaining() || in.position() >= UpgradeRequest.MAX_HEAD_BYTES)
            {
                putAscii(UpgradeRequest.tooLarge());
                state = CLOSE_AFTER_WRITE;
            }
            return;
        }
        final byte[] head = new byte[end];
        in.flip();
        in.get(head);
        in.compact();
        final String response = server.upgrade().check(new String(head, StandardCharsets.ISO_8859_1));
        putAscii(response);
        if (!server.upgrade().isAccepted())
        {
            state = CLOSE_AFTER_WRITE;
            return;
        }
        state = OPEN;
        server.onOpen(this);
        onFrameBytes();
    }

    private void onFrameBytes()
    {
        in.flip();
        final ServerFrames frames = server.frames();
        final int maxPayload = server.handler().maxMessageBytes();
        while (!held && (OPEN == state || CLOSING == state) && in.hasRemaining())
        {
            if (skipBytes > 0)
            {
                final int skip = (int)Math.min(skipBytes, in.remaining());
                in.position(in.position() + skip);
                skipBytes -= skip;
                if (0 == skipBytes && skippingFinal)
                {
                    endOversize();
                }
                continue;
            }
            final int result = frames.decode(in, maxPayload);
            if (ServerFrames.NEED_MORE == result)
            {
                break;
            }
            if (ServerFrames.INVALID == result)
            {
                fail(PROTOCOL_ERROR, frames.error);
                break;
            }
            if (ServerFrames.OVERSIZE == result)
            {
                in.position(in.position() + frames.headerLength);
                startOversize(frames.opcode, frames.fin, frames.payloadLength);
                continue;
            }
            final int frameEnd = in.position() + frames.frameLength();
            onFrame(frames.opcode, frames.fin, frames.payloadOffset, (int)frames.payloadLength);
            in.position(frameEnd);
        }
        in.compact();
    }

    private void onFrame(final int opcode, final boolean fin, final int offset, final int length)
    {
        if (CLOSING == state && opcode < ServerFrames.OP_CLOSE)
        {
            // Our close frame is out: what the client still sends is discarded until its close frame (section 1.4).
            return;
        }
        switch (opcode)
        {
            case ServerFrames.OP_TEXT, ServerFrames.OP_BINARY ->
            {
                if (messageOpcode >= 0)
                {
                    fail(PROTOCOL_ERROR, "a new message began before the last one ended");
                    return;
                }
                messageOpcode = opcode;
                messageLength = 0;
                oversizeBytes = -1;
                append(offset, length, fin);
            }
            case ServerFrames.OP_CONTINUATION ->
            {
                if (messageOpcode < 0)
                {
                    fail(PROTOCOL_ERROR, "a continuation frame without a message to continue");
                    return;
                }
                append(offset, length, fin);
            }
            case ServerFrames.OP_PING ->
            {
                if (OPEN == state)
                {
                    putFrame(ServerFrames.OP_PONG, in.array(), offset, length);
                }
            }
            case ServerFrames.OP_CLOSE -> onClose(offset, length);
            default ->
            {
                // Pongs answer nothing the server asked: ignored, as section 5.5.3 allows.
            }
        }
    }

    private void append(final int offset, final int length, final boolean fin)
    {
        if (oversizeBytes >= 0)
        {
            oversizeBytes += length;
        }
        else if (messageLength + length > server.handler().maxMessageBytes())
        {
            oversizeBytes = messageLength + length;
            messageLength = 0;
        }
        else if (fin && 0 == messageLength)
        {
            // The common case, a message in one frame: read it where it lies.
            deliver(in.array(), offset, length);
            return;
        }
        else
        {
            if (message.length < messageLength + length)
            {
                message = Arrays.copyOf(message, Math.max(messageLength + length, message.length * 2));
            }
            System.arraycopy(in.array(), offset, message, messageLength, length);
            messageLength += length;
        }
        if (fin)
        {
            if (oversizeBytes >= 0)
            {
                endOversize();
            }
            else
            {
                deliver(message, 0, messageLength);
            }
        }
    }

    private void startOversize(final int opcode, final boolean fin, final long payloadLength)
    {
        if (ServerFrames.OP_CONTINUATION == opcode ? messageOpcode < 0 : messageOpcode >= 0)
        {
            fail(PROTOCOL_ERROR, "a frame out of order in a fragmented message");
            return;
        }
        if (ServerFrames.OP_CONTINUATION != opcode)
        {
            messageOpcode = opcode;
            oversizeBytes = 0;
        }
        else if (oversizeBytes < 0)
        {
            oversizeBytes = messageLength;
        }
        oversizeBytes += payloadLength;
        messageLength = 0;
        skipBytes = payloadLength;
        skippingFinal = fin;
        if (0 == skipBytes && fin)
        {
            endOversize();
        }
    }

    private void endOversize()
    {
        final long bytes = oversizeBytes;
        final boolean text = ServerFrames.OP_TEXT == messageOpcode;
        messageOpcode = -1;
        oversizeBytes = -1;
        skippingFinal = false;
        if (text)
        {
            handle(null, bytes);
        }
        else
        {
            handle(null, -1);
        }
    }

    private void deliver(final byte[] bytes, final int offset, final int length)
    {
        final int opcode = messageOpcode;
        messageOpcode = -1;
        messageLength = 0;
        if (ServerFrames.OP_BINARY == opcode)
        {
            handle(null, -1);
            return;
        }
        final String text;
        try
        {
            text = utf8.reset().decode(ByteBuffer.wrap(bytes, offset, length)).toString();
        }
        catch (final CharacterCodingException ex)
        {
            fail(INVALID_PAYLOAD, "a text message that is not UTF-8");
            return;
        }
        handle(text, 0);
    }

    /**
     * Hand a message to the protocol: at once once the core owns the connection, on a logon thread before (a logon
     * checks a password hash), holding the socket's further messages until it is done.
     *
     * @param text          the text, or null for an oversize or binary message.
     * @param oversizeBytes the size of an oversize text message, or -1 for a binary one.
     */
    private void handle(final String text, final long oversizeBytes)
    {
        final long receivedNs = server.nowNs();
        final JsonSessionHandler handler = server.handler();
        if (isLogonSubmitted())
        {
            dispatch(handler, text, oversizeBytes, receivedNs);
            return;
        }
        held = true;
        server.offLoop(() -> dispatch(handler, text, oversizeBytes, receivedNs), this);
    }

    private void dispatch(final JsonSessionHandler handler, final String text, final long oversizeBytes,
        final long receivedNs)
    {
        if (null != text)
        {
            handler.onText(this, text, receivedNs);
        }
        else if (oversizeBytes >= 0)
        {
            handler.onOversize(this, oversizeBytes, receivedNs);
        }
        else
        {
            handler.onBinary(this, receivedNs);
        }
    }

    private void onClose(final int offset, final int length)
    {
        if (CLOSING == state)
        {
            terminate();
            return;
        }
        // Section 5.5.1: echo the client's status code (or none) and close once it has left.
        int code = NORMAL_CLOSURE;
        if (1 == length)
        {
            fail(PROTOCOL_ERROR, "a close frame with a one-byte body");
            return;
        }
        if (length >= 2)
        {
            code = ((in.get(offset) & 0xFF) << 8) | (in.get(offset + 1) & 0xFF);
        }
        putClose(code, "");
        state = CLOSE_AFTER_WRITE;
    }

    /**
     * End the connection for a protocol error: a close frame that says what was wrong, then the close.
     */
    private void fail(final int code, final String why)
    {
        if (OPEN == state)
        {
            putClose(code, why);
        }
        // What else the client sent is read no further: the frame loop ends on the state.
        state = CLOSE_AFTER_WRITE;
    }

    /**
     * Write what the socket takes of what is buffered; ask to hear when it can take more.
     */
    void flush()
    {
        if (CLOSED == state)
        {
            return;
        }
        if (out.position() > 0)
        {
            out.flip();
            try
            {
                channel.write(out);
            }
            catch (final IOException ex)
            {
                out.clear();
                terminate();
                return;
            }
            out.compact();
        }
        final boolean pending = out.position() > 0;
        if (!pending && CLOSE_AFTER_WRITE == state)
        {
            linger();
            return;
        }
        // Not reading while a logon thread holds a message, or while the input is full of what is not yet handled.
        final int ops = (held || !in.hasRemaining() ? 0 : SelectionKey.OP_READ) |
            (pending ? SelectionKey.OP_WRITE : 0);
        if (null != key && key.isValid() && key.interestOps() != ops)
        {
            key.interestOps(ops);
        }
    }

    /**
     * Close the socket without telling the core, which has retired the connection already.
     */
    void abandon()
    {
        closeNotified = true;
        terminate();
    }

    /**
     * The core has retired the connection while the socket lingers: the socket lives on without it.
     */
    void detach()
    {
        connection(null);
    }

    private void linger()
    {
        try
        {
            channel.shutdownOutput();
        }
        catch (final IOException ex)
        {
            terminate();
            return;
        }
        state = LINGER;
        deadlineNs = server.nowNs() + NioWebSocketServer.CLOSE_TIMEOUT_NS;
        in.clear();
        if (null != key && key.isValid())
        {
            key.interestOps(SelectionKey.OP_READ);
        }
        notifyClosed();
    }

    private void notifyClosed()
    {
        if (null != connection() && !closeNotified)
        {
            closeNotified = true;
            server.handler().onClosed(this);
        }
    }

    /**
     * Close the socket and tell the core, once (if lingering has not told it already); the server gives the slot back
     * when the core has retired it.
     */
    void terminate()
    {
        if (CLOSED == state)
        {
            return;
        }
        state = CLOSED;
        if (null != key)
        {
            key.cancel();
        }
        try
        {
            channel.close();
        }
        catch (final IOException ex)
        {
            // Closed all the same.
        }
        server.onTerminated(this);
        notifyClosed();
    }

    private void putText(final String json)
    {
        // JSON the gateway writes is ASCII but for what users typed: copy it in one pass, and encode it as UTF-8
        // only when a character says it must.
        final int length = json.length();
        ensureRoom(ServerFrames.headerLength(length) + length);
        final int start = out.position();
        ServerFrames.putHeader(out, ServerFrames.OP_TEXT, length);
        for (int i = 0; i < length; i++)
        {
            final char c = json.charAt(i);
            if (c >= 0x80)
            {
                out.position(start);
                final byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
                putFrame(ServerFrames.OP_TEXT, bytes, 0, bytes.length);
                return;
            }
            out.put((byte)c);
        }
    }

    private void putFrame(final int opcode, final byte[] payload, final int offset, final int length)
    {
        ensureRoom(ServerFrames.headerLength(length) + length);
        ServerFrames.putHeader(out, opcode, length);
        out.put(payload, offset, length);
    }

    private void putClose(final int code, final String reason)
    {
        final byte[] text = reason.getBytes(StandardCharsets.UTF_8);
        int length = Math.min(text.length, MAX_CLOSE_REASON_BYTES);
        // Never cut a character in two: back off to the start of the last whole one.
        while (length < text.length && length > 0 && (text[length] & 0xC0) == 0x80)
        {
            length--;
        }
        final byte[] body = new byte[2 + length];
        body[0] = (byte)(code >>> 8);
        body[1] = (byte)code;
        System.arraycopy(text, 0, body, 2, length);
        putFrame(ServerFrames.OP_CLOSE, body, 0, body.length);
    }

    private void putAscii(final String text)
    {
        final byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
        ensureRoom(bytes.length);
        out.put(bytes);
    }

    private void ensureRoom(final int bytes)
    {
        if (out.remaining() < bytes)
        {
            final ByteBuffer bigger = ByteBuffer.allocate(Math.max(out.capacity() * 2, out.position() + bytes));
            out.flip();
            bigger.put(out);
            out = bigger;
        }
    }

    @Override
    public String toString()
    {
        return "nio-ws " + address() + (null == connection() ? "" : " " + connection());
    }
}
