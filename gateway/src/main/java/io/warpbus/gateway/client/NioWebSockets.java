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
package io.warpbus.gateway.client;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Many WebSocket client connections (RFC 6455) on non-blocking sockets, each read by one of a few selector threads:
 * a load of thousands of sessions that costs little per message, so that what it measures is the gateway. The JDK's
 * own client hands every message between threads and decodes it to characters, which made the load the slowest
 * reader in the room.
 * <p>
 * Text messages are handed to their {@link Listener} whole (fragments joined) as UTF-8 bytes, on the connection's
 * selector thread; pings are answered; a close from the server is answered and reported. Sends may come from any
 * thread: a frame the socket does not take at once waits in the connection's own buffer for the selector.
 */
public final class NioWebSockets implements AutoCloseable
{
    /** A message larger than this closes the connection: the gateway's largest is far smaller. */
    static final int MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
    private static final String ACCEPT_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    private static final int OP_CONTINUATION = 0x0;
    private static final int OP_TEXT = 0x1;
    private static final int OP_CLOSE = 0x8;
    private static final int OP_PING = 0x9;
    private static final int OP_PONG = 0xA;
    private static final int INITIAL_BUFFER_BYTES = 64 * 1024;

    private final Loop[] loops;
    private final List<Thread> threads = new ArrayList<>();
    private int next;
    private volatile boolean running = true;

    /**
     * What a connection tells its owner, on its selector thread.
     */
    public interface Listener
    {
        /**
         * A whole text message.
         *
         * @param socket the connection.
         * @param buffer holds the message as UTF-8; valid only during the call.
         * @param offset where it starts.
         * @param length its length in bytes.
         */
        void onMessage(NioWebSocket socket, byte[] buffer, int offset, int length);

        /**
         * The connection is gone; called once.
         *
         * @param socket the connection.
         * @param why    the server's close code and reason, or what failed.
         */
        void onClosed(NioWebSocket socket, String why);
    }

    /**
     * Start the selector threads.
     *
     * @param threadCount how many.
     * @param name        their names' prefix.
     * @throws IOException if a selector cannot be opened.
     */
    public NioWebSockets(final int threadCount, final String name) throws IOException
    {
        loops = new Loop[threadCount];
        for (int i = 0; i < threadCount; i++)
        {
            loops[i] = new Loop(Selector.open());
            final Thread thread = new Thread(loops[i], name + "-" + i);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
    }

    /**
     * Connect and upgrade, blocking for at most {@code timeoutMs} each, then hand the connection to a selector
     * thread (round-robin).
     *
     * @param uri       {@code ws://host:port/path}.
     * @param listener  told of messages and the close.
     * @param timeoutMs for the TCP connect and for the server's answer to the upgrade.
     * @return the open connection.
     * @throws IOException naming what failed: the connect, or the server's refusal of the upgrade.
     */
    public NioWebSocket connect(final URI uri, final Listener listener, final int timeoutMs) throws IOException
    {
        if (!"ws".equals(uri.getScheme()) || null == uri.getHost())
        {
            throw new IllegalArgumentException("not a ws:// URL with a host: " + uri);
        }
        final int port = -1 == uri.getPort() ? 80 : uri.getPort();
        final SocketChannel channel = SocketChannel.open();
        try
        {
            channel.socket().connect(new InetSocketAddress(uri.getHost(), port), timeoutMs);
            channel.socket().setTcpNoDelay(true);
            channel.socket().setSoTimeout(timeoutMs);
            final byte[] nonce = new byte[16];
            ThreadLocalRandom.current().nextBytes(nonce);
            final String key = Base64.getEncoder().encodeToString(nonce);
            final String path = null == uri.getRawPath() || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
            channel.write(ByteBuffer.wrap(("GET " + path + " HTTP/1.1\r\nHost: " + uri.getHost() + ":" + port +
                "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: " + key +
                "\r\nSec-WebSocket-Version: 13\r\n\r\n").getBytes(StandardCharsets.US_ASCII)));
            final ByteBuffer in = ByteBuffer.allocate(INITIAL_BUFFER_BYTES);
            final String head = readHead(channel.socket().getInputStream(), in, uri);
            checkUpgrade(head, key, uri);
            channel.configureBlocking(false);
            final Loop loop;
            synchronized (this)
            {
                loop = loops[next];
                next = (next + 1) % loops.length;
            }
            final NioWebSocket socket = new NioWebSocket(channel, listener, loop.selector, in);
            socket.register();
            loop.selector.wakeup();
            return socket;
        }
        catch (final IOException | RuntimeException ex)
        {
            channel.close();
            throw ex;
        }
    }

    /**
     * Stop the selector threads and close every connection they hold, without a closing handshake.
     */
    @Override
    public void close()
    {
        running = false;
        for (final Loop loop : loops)
        {
            for (final SelectionKey key : loop.keys())
            {
                ((NioWebSocket)key.attachment()).abort();
            }
            loop.selector.wakeup();
        }
        for (final Thread thread : threads)
        {
            try
            {
                thread.join(2_000);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                break;
            }
        }
        for (final Loop loop : loops)
        {
            try
            {
                loop.selector.close();
            }
            catch (final IOException ignore)
            {
                // nothing left to release
            }
        }
    }

    /**
     * Read the server's answer to the upgrade up to its blank line; bytes after it stay in {@code in} (write mode).
     */
    private static String readHead(final InputStream stream, final ByteBuffer in, final URI uri) throws IOException
    {
        final byte[] chunk = new byte[1024];
        while (true)
        {
            final int read = stream.read(chunk, 0, Math.min(chunk.length, in.remaining()));
            if (read < 0)
            {
                throw new IOException(uri + " closed the connection before answering the upgrade");
            }
            in.put(chunk, 0, read);
            final byte[] bytes = in.array();
            for (int i = 3; i < in.position(); i++)
            {
                if ('\n' == bytes[i] && '\r' == bytes[i - 1] && '\n' == bytes[i - 2] && '\r' == bytes[i - 3])
                {
                    final String head = new String(bytes, 0, i + 1, StandardCharsets.ISO_8859_1);
                    in.flip().position(i + 1);
                    in.compact();
                    return head;
                }
            }
            if (!in.hasRemaining())
            {
                throw new IOException(uri + " answered the upgrade with a header over " + in.capacity() + " bytes");
            }
        }
    }

    private static void checkUpgrade(final String head, final String key, final URI uri) throws IOException
    {
        final String status = head.substring(0, Math.max(0, head.indexOf('\r')));
        if (!status.startsWith("HTTP/1.1 101"))
        {
            throw new IOException(uri + " refused the WebSocket upgrade: " + status);
        }
        final String expected;
        try
        {
            expected = Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-1").digest(
                (key + ACCEPT_GUID).getBytes(StandardCharsets.US_ASCII)));
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException("SHA-1 is missing from this JVM", ex);
        }
        for (final String line : head.split("\r\n"))
        {
            final int colon = line.indexOf(':');
            if (colon > 0 && "sec-websocket-accept".equalsIgnoreCase(line.substring(0, colon).trim()))
            {
                if (!expected.equals(line.substring(colon + 1).trim()))
                {
                    throw new IOException(uri + " answered the upgrade with a wrong Sec-WebSocket-Accept: " +
                        line.substring(colon + 1).trim() + ", expected " + expected);
                }
                return;
            }
        }
        throw new IOException(uri + " answered the upgrade without Sec-WebSocket-Accept");
    }

    private final class Loop implements Runnable
    {
        private final Selector selector;

        Loop(final Selector selector)
        {
            this.selector = selector;
        }

        List<SelectionKey> keys()
        {
            try
            {
                return new ArrayList<>(selector.keys());
            }
            catch (final ClosedSelectorException ex)
            {
                return List.of();
            }
        }

        @Override
        public void run()
        {
            try
            {
                while (running)
                {
                    selector.select(this::onReady, 100);
                }
            }
            catch (final IOException | ClosedSelectorException ex)
            {
                if (running)
                {
                    for (final SelectionKey key : keys())
                    {
                        ((NioWebSocket)key.attachment()).fail("selector failed: " + ex);
                    }
                }
            }
        }

        private void onReady(final SelectionKey key)
        {
            final NioWebSocket socket = (NioWebSocket)key.attachment();
            try
            {
                if (key.isValid() && key.isWritable())
                {
                    socket.onWritable();
                }
                if (key.isValid() && key.isReadable())
                {
                    socket.onReadable();
                }
            }
            catch (final RuntimeException ex)
            {
                // A listener's fault or a key cancelled under us ends this connection, not the others.
                socket.fail("1011 " + ex);
            }
        }
    }

    /**
     * One client connection.
     */
    public static final class NioWebSocket
    {
        private final SocketChannel channel;
        private final Listener listener;
        private final Selector selector;
        private ByteBuffer in;
        private ByteBuffer out = ByteBuffer.allocate(INITIAL_BUFFER_BYTES);
        private byte[] message = new byte[0];
        private int messageLength;
        private boolean assembling;
        private SelectionKey key;
        private volatile boolean closed;
        private volatile String writeFailure;

        NioWebSocket(final SocketChannel channel, final Listener listener, final Selector selector,
            final ByteBuffer in)
        {
            this.channel = channel;
            this.listener = listener;
            this.selector = selector;
            this.in = in;
        }

        /**
         * Take what the server sent right behind its upgrade answer (on the connecting thread, before the selector
         * can read), then let the selector read.
         */
        private void register() throws IOException
        {
            if (in.position() > 0)
            {
                in.flip();
                while (!closed && frame())
                {
                    continue;
                }
                in.compact();
            }
            synchronized (this)
            {
                key = channel.register(selector, SelectionKey.OP_READ, this);
            }
        }

        /**
         * Send a text message.
         *
         * @param text the message.
         * @return false when the connection is closed and nothing was sent.
         */
        public boolean send(final String text)
        {
            final byte[] payload = text.getBytes(StandardCharsets.UTF_8);
            return send(OP_TEXT, payload, 0, payload.length);
        }

        /**
         * Send a frame; a write that fails ends the connection and tells the listener (on this thread, outside the
         * connection's lock).
         */
        private boolean send(final int opcode, final byte[] payload, final int offset, final int length)
        {
            if (sendFrame(opcode, payload, offset, length))
            {
                return true;
            }
            final String failure = writeFailure;
            if (null != failure)
            {
                fail(failure);
            }
            return false;
        }

        /**
         * Is the connection closed (by either side, or failed)?
         *
         * @return true once closed.
         */
        public boolean isClosed()
        {
            return closed;
        }

        /**
         * Close the socket at once, without a closing handshake, and without telling the listener.
         */
        public void abort()
        {
            closed = true;
            closeChannel();
        }

        private synchronized boolean sendFrame(final int opcode, final byte[] payload, final int offset,
            final int length)
        {
            if (closed)
            {
                return false;
            }
            // RFC 6455 section 5.2: FIN and opcode; MASK bit and a 7-, 16- or 64-bit length; a client's masking key.
            ensureOut(14 + length);
            final ByteBuffer out = this.out;
            out.put((byte)(0x80 | opcode));
            if (length < 126)
            {
                out.put((byte)(0x80 | length));
            }
            else if (length <= 0xFFFF)
            {
                out.put((byte)(0x80 | 126)).putShort((short)length);
            }
            else
            {
                out.put((byte)(0x80 | 127)).putLong(length);
            }
            final int mask = ThreadLocalRandom.current().nextInt();
            out.putInt(mask);
            for (int i = 0; i < length; i++)
            {
                out.put((byte)(payload[offset + i] ^ (mask >>> (8 * (3 - (i & 3))))));
            }
            return flush();
        }

        private boolean flush()
        {
            try
            {
                out.flip();
                channel.write(out);
                out.compact();
                final SelectionKey key = this.key;
                if (null != key && key.isValid())
                {
                    final int interest = out.position() > 0 ? SelectionKey.OP_READ | SelectionKey.OP_WRITE :
                        SelectionKey.OP_READ;
                    if (key.interestOps() != interest)
                    {
                        key.interestOps(interest);
                        selector.wakeup();
                    }
                }
                return true;
            }
            catch (final IOException | CancelledKeyException ex)
            {
                writeFailure = "1006 the write failed: " + ex;
                return false;
            }
        }

        private void ensureOut(final int more)
        {
            if (out.remaining() < more)
            {
                final ByteBuffer larger = ByteBuffer.allocate(Math.max(out.capacity() * 2, out.position() + more));
                out.flip();
                larger.put(out);
                out = larger;
            }
        }

        private void onWritable()
        {
            final boolean flushed;
            synchronized (this)
            {
                flushed = closed || flush();
            }
            if (!flushed)
            {
                fail(writeFailure);
            }
        }

        private void onReadable()
        {
            final int read;
            try
            {
                read = channel.read(in);
            }
            catch (final IOException ex)
            {
                fail(ex.toString());
                return;
            }
            if (read < 0)
            {
                fail("1006 the gateway closed the connection without a close frame");
                return;
            }
            in.flip();
            while (!closed && frame())
            {
                continue;
            }
            in.compact();
        }

        /**
         * Handle the frame at the head of {@code in} (read mode), if it is all there.
         *
         * @return true when a frame was consumed.
         */
        private boolean frame()
        {
            final int start = in.position();
            if (in.remaining() < 2)
            {
                return false;
            }
            final int first = in.get(start) & 0xFF;
            final int second = in.get(start + 1) & 0xFF;
            int headerLength = 2;
            long length = second & 0x7F;
            if (126 == length)
            {
                headerLength = 4;
                length = in.remaining() < headerLength ? -1 : in.getShort(start + 2) & 0xFFFF;
            }
            else if (127 == length)
            {
                headerLength = 10;
                length = in.remaining() < headerLength ? -1 : in.getLong(start + 2);
            }
            if (length < 0 && in.remaining() >= headerLength || length > MAX_MESSAGE_BYTES ||
                0 != (second & 0x80))
            {
                fail("1002 the gateway sent a bad frame header (" + (0 != (second & 0x80) ? "masked" : "length " +
                    length) + ")");
                return false;
            }
            if (length < 0 || in.remaining() < headerLength + length)
            {
                if (length >= 0 && headerLength + length > in.capacity())
                {
                    final ByteBuffer larger = ByteBuffer.allocate((int)(headerLength + length));
                    larger.put(in);
                    in = larger.flip();
                }
                return false;
            }
            final int payload = start + headerLength;
            final int payloadLength = (int)length;
            in.position(payload + payloadLength);
            onFrame(first, in.array(), in.arrayOffset() + payload, payloadLength);
            return true;
        }

        private void onFrame(final int first, final byte[] buffer, final int offset, final int length)
        {
            final boolean fin = 0 != (first & 0x80);
            final int opcode = first & 0x0F;
            switch (opcode)
            {
                case OP_TEXT, OP_CONTINUATION ->
                {
                    if (OP_TEXT == opcode && fin && !assembling)
                    {
                        listener.onMessage(this, buffer, offset, length);
                        return;
                    }
                    if (OP_TEXT == opcode == assembling)
                    {
                        fail("1002 the gateway sent a " + (assembling ? "new message inside a fragmented one" :
                            "continuation with no message to continue"));
                        return;
                    }
                    append(buffer, offset, length);
                    if (closed)
                    {
                        return;
                    }
                    assembling = !fin;
                    if (fin)
                    {
                        listener.onMessage(this, message, 0, messageLength);
                        messageLength = 0;
                    }
                }
                case OP_PING -> send(OP_PONG, buffer, offset, length);
                case OP_PONG ->
                {
                    // unsolicited: nothing to do
                }
                case OP_CLOSE ->
                {
                    final int code = length >= 2 ? ((buffer[offset] & 0xFF) << 8) | (buffer[offset + 1] & 0xFF) : 1005;
                    final String reason = length > 2 ?
                        new String(buffer, offset + 2, length - 2, StandardCharsets.UTF_8) : "";
                    send(OP_CLOSE, buffer, offset, Math.min(2, length));
                    fail(code + " " + reason);
                }
                default -> fail("1002 the gateway sent a frame of unknown opcode " + opcode);
            }
        }

        private void append(final byte[] buffer, final int offset, final int length)
        {
            if (messageLength + length > MAX_MESSAGE_BYTES)
            {
                fail("1009 the gateway sent a message over " + MAX_MESSAGE_BYTES + " bytes");
                return;
            }
            if (messageLength + length > message.length)
            {
                final byte[] larger = new byte[Math.max(message.length * 2, messageLength + length)];
                System.arraycopy(message, 0, larger, 0, messageLength);
                message = larger;
            }
            System.arraycopy(buffer, offset, message, messageLength, length);
            messageLength += length;
        }

        private void fail(final String why)
        {
            final boolean wasClosed;
            synchronized (this)
            {
                wasClosed = closed;
                closed = true;
            }
            closeChannel();
            if (!wasClosed)
            {
                listener.onClosed(this, why);
            }
        }

        private void closeChannel()
        {
            try
            {
                channel.close();
            }
            catch (final IOException ignore)
            {
                // closing anyway
            }
        }
    }
}
