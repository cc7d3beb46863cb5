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
package io.warpbus.bench.bus;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;

import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Plain TCP with nothing on top, as the systems {@code tcp-nio} and {@code tcp-nio-duplex} of the bus suite's
 * ping-pong: the kernel path every iWARP connection runs on, so the bus's distance from Aeron UDP splits into what
 * TCP itself costs against UDP and what the engine and the bus add. Non-blocking NIO sockets busy-polled by the
 * benchmark thread, with the engine's socket options ({@code TCP_NODELAY}, 4 MiB buffers, as {@code bench rdma}'s
 * TCP peer); a message is a 4-byte little-endian length and the payload, written with one {@code write}.
 * <p>
 * Channels mirror {@link RdmaEndpoint}'s: {@code tcp:endpoint=HOST:PORT} has the publication listen and the
 * subscription connect (retrying while nothing listens yet), and {@code tcp:reverse=HOST:PORT} writes back over the
 * connection this endpoint's subscription made to {@code HOST:PORT}, or reads what comes back over its publication
 * there. {@code tcp-nio} pongs on a connection of its own, as the bus does; {@code tcp-nio-duplex} pongs back over the
 * ping's connection. There is no flow control beyond the socket's, so these systems run no throughput case.
 */
final class TcpEndpoint extends PeerEndpoint<TcpEndpoint.Publication, TcpEndpoint.Subscription>
{
    /** Longest message. */
    static final int MAX_MESSAGE = 4096;
    private static final int LENGTH_FIELD = 4;
    private static final int BUFFER_LENGTH = 64 * 1024;
    private static final int SOCKET_BUFFER = 4 << 20;
    private static final long RETRY_NS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final long BIND_PATIENCE_NS = TimeUnit.SECONDS.toNanos(10);

    private int connectionsMade;
    /** Every channel added so far is connected: duty cycles have nothing left to do. */
    private boolean connected;

    TcpEndpoint()
    {
        super(PeerChannels.TCP, "tcp-nio");
    }

    /** One connection's socket with a buffer each way. */
    private static final class Connection
    {
        final SocketChannel channel;
        final ByteBuffer out = ByteBuffer.allocateDirect(LENGTH_FIELD + MAX_MESSAGE).order(ByteOrder.LITTLE_ENDIAN);
        final UnsafeBuffer outView = new UnsafeBuffer(out);
        final ByteBuffer in = ByteBuffer.allocateDirect(BUFFER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        final UnsafeBuffer inView = new UnsafeBuffer(in);
        /** Where the next undelivered message starts in {@link #in}; bytes up to its position have arrived. */
        int readFrom;

        Connection(final SocketChannel channel) throws IOException
        {
            this.channel = channel;
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.setOption(StandardSocketOptions.SO_SNDBUF, SOCKET_BUFFER);
            channel.setOption(StandardSocketOptions.SO_RCVBUF, SOCKET_BUFFER);
        }

        boolean send(final DirectBuffer buffer, final int offset, final int length) throws IOException
        {
            if (length > MAX_MESSAGE)
            {
                throw new IllegalArgumentException("tcp-nio carries messages of at most " + MAX_MESSAGE +
                    " bytes: " + length);
            }
            outView.putInt(0, length, ByteOrder.LITTLE_ENDIAN);
            outView.putBytes(LENGTH_FIELD, buffer, offset, length);
            out.clear().limit(LENGTH_FIELD + length);
            // A message is accepted whole or not at all: once the first byte is in the socket, the rest follows.
            if (0 == channel.write(out))
            {
                return false;
            }
            while (out.hasRemaining())
            {
                channel.write(out);
            }
            return true;
        }

        int receive(final Endpoint.MessageHandler handler, final int limit) throws IOException
        {
            if (channel.read(in) < 0)
            {
                throw new IOException("tcp-nio: the peer closed " + channel);
            }
            int delivered = 0;
            while (delivered < limit && in.position() - readFrom >= LENGTH_FIELD)
            {
                final int length = inView.getInt(readFrom, ByteOrder.LITTLE_ENDIAN);
                if (length < 0 || length > MAX_MESSAGE)
                {
                    throw new IOException("tcp-nio: a message of " + length + " bytes from " + channel);
                }
                if (in.position() - readFrom < LENGTH_FIELD + length)
                {
                    break;
                }
                handler.onMessage(inView, readFrom + LENGTH_FIELD, length);
                readFrom += LENGTH_FIELD + length;
                delivered++;
            }
            if (readFrom == in.position())
            {
                in.clear();
                readFrom = 0;
            }
            else if (in.remaining() < LENGTH_FIELD + MAX_MESSAGE)
            {
                in.flip().position(readFrom);
                in.compact();
                readFrom = 0;
            }
            return delivered;
        }
    }

    /** Listens and writes over the connection it accepted, or writes back over a subscription's (reverse). */
    final class Publication extends PublicationEnd
    {
        final ServerSocketChannel server;
        Connection connection;
        boolean bound;
        long bindDeadlineNs;
        long bindRetryAtNs;

        Publication(final InetSocketAddress address, final boolean reverse) throws IOException
        {
            super(address, reverse);
            if (reverse)
            {
                server = null;
            }
            else
            {
                server = ServerSocketChannel.open();
                server.configureBlocking(false);
                bindDeadlineNs = System.nanoTime() + BIND_PATIENCE_NS;
                bind();
            }
        }

        /**
         * Listen, or try again shortly while the port is taken: the benchmark picks free ports ahead of use, and a
         * subscriber's connect to one nobody listens on yet can be given that very port for a moment (TCP
         * simultaneous open with itself, which {@link Subscription#connection()} closes at once).
         */
        private void bind() throws IOException
        {
            try
            {
                server.bind(address, 1);
                bound = true;
            }
            catch (final BindException ex)
            {
                if (System.nanoTime() - bindDeadlineNs >= 0)
                {
                    throw new IOException("tcp-nio: " + address + " stayed in use for " +
                        TimeUnit.NANOSECONDS.toSeconds(BIND_PATIENCE_NS) + " s", ex);
                }
                bindRetryAtNs = System.nanoTime() + RETRY_NS;
            }
        }

        /** Accept the subscriber, or find the forward subscription whose connection a reverse publication uses. */
        boolean isConnected() throws IOException
        {
            if (null == connection)
            {
                if (null != server && !bound)
                {
                    if (System.nanoTime() - bindRetryAtNs >= 0)
                    {
                        bind();
                    }
                }
                else if (null != server)
                {
                    final SocketChannel accepted = server.accept();
                    connection = null == accepted ? null : accepted(accepted);
                }
                else
                {
                    final Subscription forward = subscriptionTo(address);
                    connection = null == forward ? null : forward.connection();
                }
            }
            return null != connection;
        }

        @Override
        void close()
        {
            // A reverse publication's connection is its subscription's, closed with it.
            CloseHelper.quietCloseAll(null == server || null == connection ? null : connection.channel, server);
        }
    }

    /** Reads what comes over the connection it made, or, reverse, back over a publication's connection. */
    final class Subscription extends SubscriptionEnd<Publication>
    {
        SocketChannel connecting;
        Connection connection;
        long retryAtNs;

        Subscription(final InetSocketAddress publisher, final Publication returnOf)
        {
            super(publisher, returnOf);
        }

        /** The connection once established, trying to make it (again after a refusal) while it is not. */
        Connection connection()
        {
            if (null != returnOf)
            {
                return returnOf.connection;
            }
            if (null == connection)
            {
                try
                {
                    if (null == connecting && System.nanoTime() - retryAtNs >= 0)
                    {
                        connecting = SocketChannel.open();
                        connectionsMade++;
                        connecting.configureBlocking(false);
                        connecting.connect(publisher);
                    }
                    if (null != connecting && connecting.finishConnect())
                    {
                        if (connecting.getLocalAddress().equals(connecting.getRemoteAddress()))
                        {
                            // Nothing listened, and the kernel gave this socket the very port it asked for: a
                            // connection to itself, which keeps the publication from listening there. Closed with
                            // a reset, so that no TIME_WAIT holds the port for another minute.
                            connecting.setOption(StandardSocketOptions.SO_LINGER, 0);
                            throw new IOException("connected to itself at " + publisher);
                        }
                        connection = new Connection(connecting);
                        connecting = null;
                    }
                }
                catch (final IOException ex)
                {
                    // Refused while the publication is not listening yet, or connected to itself: try again shortly.
                    CloseHelper.quietClose(connecting);
                    connecting = null;
                    retryAtNs = System.nanoTime() + RETRY_NS;
                }
            }
            return connection;
        }

        @Override
        void close()
        {
            // A reverse subscription's connection belongs to its publication.
            if (null == returnOf)
            {
                CloseHelper.quietCloseAll(connecting, null == connection ? null : connection.channel);
            }
        }
    }

    private Connection accepted(final SocketChannel accepted) throws IOException
    {
        connectionsMade++;
        return new Connection(accepted);
    }

    /**
     * How many connections this endpoint has made or accepted, counting each connect tried again.
     *
     * @return the count.
     */
    int connectionsMade()
    {
        return connectionsMade;
    }

    @Override
    Publication newPublication(final InetSocketAddress address, final boolean reverse)
    {
        try
        {
            final Publication publication = new Publication(address, reverse);
            connected = false;
            return publication;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("tcp-nio: cannot listen on " + address, ex);
        }
    }

    @Override
    Subscription newSubscription(final InetSocketAddress publisher, final Publication returnOf)
    {
        connected = false;
        return new Subscription(publisher, returnOf);
    }

    @Override
    public boolean isConnected()
    {
        try
        {
            for (final Subscription subscription : subscriptions)
            {
                if (null == subscription.returnOf && null == subscription.connection())
                {
                    return false;
                }
            }
            for (final Publication publication : publications)
            {
                if (!publication.isConnected())
                {
                    return false;
                }
            }
            for (final Subscription subscription : subscriptions)
            {
                if (null == subscription.connection())
                {
                    return false;
                }
            }
            return true;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("tcp-nio: accepting", ex);
        }
    }

    @Override
    public int doWork()
    {
        // The kernel moves the bytes and the offers and polls do the rest: a duty cycle only connects and accepts.
        if (!connected)
        {
            connected = isConnected();
        }
        return 0;
    }

    @Override
    public boolean offer(final int publication, final DirectBuffer buffer, final int offset, final int length)
    {
        final Publication target = publications.get(publication);
        try
        {
            return target.isConnected() && target.connection.send(buffer, offset, length);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("tcp-nio: writing to " + target.address, ex);
        }
    }

    @Override
    public int poll(final int subscription, final MessageHandler handler, final int limit)
    {
        final Subscription source = subscriptions.get(subscription);
        final Connection connection = source.connection();
        try
        {
            return null == connection ? 0 : connection.receive(handler, limit);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("tcp-nio: reading from " + source.publisher, ex);
        }
    }

    @Override
    public void close()
    {
        closeChannels();
    }
}
