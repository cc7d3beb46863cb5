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
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

import io.warpbus.gateway.session.Connection;
import io.warpbus.gateway.session.ConnectionTable;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;
import org.agrona.concurrent.NanoClock;

/**
 * The gateway's own WebSocket server for trading sessions: one thread that accepts, reads, parses and writes every
 * socket with a selector, and drains the session core's outbound queues straight onto the sockets. Nothing passes
 * through a container's thread pool: a message from the core reaches the client's socket in the same pass that
 * finds it, a burst for one socket leaves in one write, and a socket that cannot take more only fills its own
 * buffer (up to {@value #HIGH_WATER_BYTES} bytes) and then its queue, which the core conflates or closes as slow.
 * <p>
 * The JSON protocol is the {@link JsonSessionHandler}'s, as on the servlet container's endpoint. The one slow step of
 * a session, checking a logon's password hash, runs on a logon thread; a socket's further messages wait for it.
 * On a thread of its own, it idles in {@link Selector#select(long)} once it has found nothing to do for a while, and
 * the core wakes it when it queues something. On the session core's thread
 * ({@link io.warpbus.gateway.session.SessionCore#coLocate}) it never waits: the core's idle strategy idles for both.
 */
final class NioWebSocketServer implements Agent
{
    /** The adapter id of this server's connections in the {@link ConnectionTable}. */
    static final int ADAPTER_ID = 2;
    /** How long a client has for its opening handshake, and to answer our close frame. */
    static final long HANDSHAKE_TIMEOUT_NS = 5_000_000_000L;
    static final long CLOSE_TIMEOUT_NS = 2_000_000_000L;
    /** A socket's turn ends after this many messages from its queue, so that one busy socket can't starve others. */
    static final int SENDS_PER_SOCKET_PER_ROUND = 64;
    /** Stop taking a socket's queued messages while this many bytes wait for the socket. */
    static final int HIGH_WATER_BYTES = 64 * 1024;
    private static final int ACCEPTS_PER_PASS = 64;
    private static final int IDLE_PASSES_BEFORE_SELECT = 20;
    private static final long IDLE_SELECT_MS = 10;
    private static final long TIMEOUT_SCAN_INTERVAL_NS = 100_000_000L;

    private final ServerSocketChannel acceptor;
    private final Selector selector;
    private final ConnectionTable connections;
    private final JsonSessionHandler handler;
    private final OutboundEvents events;
    private final UpgradeRequest upgrade;
    private final ExecutorService logons;
    private final NanoClock clock;
    private final int inBytes;
    private final int sendBufferBytes;
    private final boolean ownThread;
    private final ServerFrames frames = new ServerFrames();
    private final ManyToOneConcurrentLinkedQueue<Runnable> tasks = new ManyToOneConcurrentLinkedQueue<>();
    /** Sockets without a connection slot: in their opening handshake, being refused one, or lingering after one. */
    private final List<NioClientSocket> unattached = new ArrayList<>();
    private final Consumer<SelectionKey> onSelected = this::onSelected;
    private final Runnable waker = this::wake;
    private volatile boolean selecting;
    private volatile Thread thread;
    private long nowNs;
    private long nextTimeoutScanNs;
    private int idlePasses;
    private long lastWakeUps;

    /**
     * Bind the server; it accepts once its agent runs.
     *
     * @param address         where to listen.
     * @param connections     the gateway's connection slots.
     * @param handler         the JSON protocol.
     * @param events          what each queued event becomes.
     * @param upgrade         the opening handshake's checks.
     * @param logons          where messages of sockets that have not logged on are handled.
     * @param clock           the core's clock, to stamp commands.
     * @param sendBufferBytes the sockets' send buffer, or 0 for the system's default.
     * @param ownThread       true when it runs on a thread of its own, which may wait in the selector; false on the
     *                        session core's, where it must not.
     * @throws IOException if the address can't be bound.
     */
    NioWebSocketServer(final InetSocketAddress address, final ConnectionTable connections,
        final JsonSessionHandler handler, final OutboundEvents events, final UpgradeRequest upgrade,
        final ExecutorService logons, final NanoClock clock, final int sendBufferBytes, final boolean ownThread)
        throws IOException
    {
        this.ownThread = ownThread;
        this.connections = connections;
        this.handler = handler;
        this.events = events;
        this.upgrade = upgrade;
        this.logons = logons;
        this.clock = clock;
        this.sendBufferBytes = sendBufferBytes;
        this.inBytes = Math.max(UpgradeRequest.MAX_HEAD_BYTES, handler.maxMessageBytes() + 14);
        selector = Selector.open();
        acceptor = ServerSocketChannel.open();
        try
        {
            acceptor.bind(address, 1024);
            acceptor.configureBlocking(false);
            acceptor.register(selector, SelectionKey.OP_ACCEPT);
        }
        catch (final IOException ex)
        {
            CloseHelper.quietCloseAll(acceptor, selector);
            throw new IOException("the trading WebSocket port " + address + " can't be bound: " + ex.getMessage(),
                ex);
        }
    }

    /**
     * The port the server listens on (useful when bound to port 0).
     *
     * @return the port.
     */
    int port()
    {
        return acceptor.socket().getLocalPort();
    }

    @Override
    public void onStart()
    {
        thread = Thread.currentThread();
        nowNs = clock.nanoTime();
        connections.addDrainer(ADAPTER_ID, waker);
    }

    @Override
    public int doWork() throws IOException
    {
        nowNs = clock.nanoTime();
        int work = runTasks();
        if (ownThread && idlePasses >= IDLE_PASSES_BEFORE_SELECT && 0 == work)
        {
            selecting = true;
            try
            {
                // Checked again after announcing the select: a wake from the core in between is not lost.
                work += tasks.isEmpty() && connections.wakeUps() == lastWakeUps ?
                    selector.select(onSelected, IDLE_SELECT_MS) : selector.selectNow(onSelected);
            }
            finally
            {
                selecting = false;
            }
            nowNs = clock.nanoTime();
        }
        else
        {
            work += selector.selectNow(onSelected);
        }
        lastWakeUps = connections.wakeUps();
        work += drain();
        if (nowNs - nextTimeoutScanNs >= 0)
        {
            nextTimeoutScanNs = nowNs + TIMEOUT_SCAN_INTERVAL_NS;
            work += expireUnattached();
        }
        idlePasses = work > 0 ? 0 : idlePasses + 1;
        return work;
    }

    @Override
    public void onClose()
    {
        connections.removeDrainer(waker);
        for (int i = 0, capacity = connections.capacity(); i < capacity; i++)
        {
            final Connection connection = connections.get(i);
            if (ADAPTER_ID == connection.adapter() && connection.attachment() instanceof NioClientSocket socket &&
                Connection.OPEN == connection.state())
            {
                socket.startClose(1001, "the gateway is shutting down");
                socket.terminate();
            }
        }
        for (final NioClientSocket socket : new ArrayList<>(unattached))
        {
            socket.terminate();
        }
        CloseHelper.quietCloseAll(acceptor, selector);
        thread = null;
    }

    @Override
    public String roleName()
    {
        return "gateway-nio-ws";
    }

    /**
     * Is a thread running the server's duty cycle, its own or the session core's?
     *
     * @return true from the cycle's start to its close.
     */
    boolean isServing()
    {
        final Thread serving = thread;
        return null != serving && serving.isAlive();
    }

    /**
     * The name of the thread that runs the server's duty cycle.
     *
     * @return its name, or "none" before the cycle starts and after it closes.
     */
    String servingThread()
    {
        final Thread serving = thread;
        return null == serving ? "none" : serving.getName();
    }

    boolean isServerThread()
    {
        return Thread.currentThread() == thread;
    }

    long nowNs()
    {
        return nowNs;
    }

    JsonSessionHandler handler()
    {
        return handler;
    }

    ServerFrames frames()
    {
        return frames;
    }

    UpgradeRequest upgrade()
    {
        return upgrade;
    }

    /**
     * Run something on the server's thread at its next pass.
     *
     * @param task what to run.
     */
    void task(final Runnable task)
    {
        tasks.offer(task);
        wake();
    }

    /**
     * Run a socket's message handling on a logon thread, then let the socket go on.
     *
     * @param work   the handling.
     * @param socket whose message.
     */
    void offLoop(final Runnable work, final NioClientSocket socket)
    {
        try
        {
            logons.execute(() ->
            {
                try
                {
                    work.run();
                }
                finally
                {
                    task(socket::release);
                }
            });
        }
        catch (final RejectedExecutionException ex)
        {
            socket.release();
            socket.startClose(JsonSessionHandler.TRY_AGAIN_LATER, "the gateway is busy with logons, try again");
        }
    }

    /**
     * A socket has passed its opening handshake: give it a connection slot, or refuse it when none is free.
     */
    void onOpen(final NioClientSocket socket)
    {
        final Connection connection = connections.acquire(ADAPTER_ID, socket);
        if (null == connection)
        {
            socket.startClose(JsonSessionHandler.TRY_AGAIN_LATER, "the gateway is at its connection limit");
            return;
        }
        unattached.remove(socket);
        socket.connection(connection);
    }

    void onTerminated(final NioClientSocket socket)
    {
        if (null == socket.connection())
        {
            unattached.remove(socket);
        }
    }

    private void wake()
    {
        if (selecting)
        {
            selector.wakeup();
        }
    }

    private int runTasks()
    {
        int work = 0;
        Runnable task;
        while (null != (task = tasks.poll()))
        {
            task.run();
            work++;
        }
        return work;
    }

    private void onSelected(final SelectionKey key)
    {
        // Called from within the select, which may have waited: what arrives is stamped with the time it is read.
        nowNs = clock.nanoTime();
        if (!key.isValid())
        {
            return;
        }
        if (key.isAcceptable())
        {
            accept();
            return;
        }
        final NioClientSocket socket = (NioClientSocket)key.attachment();
        try
        {
            if (key.isReadable())
            {
                socket.onReadable();
            }
            if (key.isValid() && key.isWritable())
            {
                socket.onWritable();
            }
        }
        catch (final RuntimeException ex)
        {
            // A fault in one socket's handling ends that socket, and is reported to the error log by the runner.
            socket.terminate();
            throw ex;
        }
    }

    private void accept()
    {
        for (int i = 0; i < ACCEPTS_PER_PASS; i++)
        {
            final SocketChannel channel;
            try
            {
                channel = acceptor.accept();
                if (null == channel)
                {
                    return;
                }
            }
            catch (final IOException ex)
            {
                return;
            }
            try
            {
                channel.configureBlocking(false);
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                if (sendBufferBytes > 0)
                {
                    channel.setOption(StandardSocketOptions.SO_SNDBUF, sendBufferBytes);
                }
                final InetSocketAddress remote = (InetSocketAddress)channel.getRemoteAddress();
                final String host = null == remote || null == remote.getAddress() ? "unknown" :
                    remote.getAddress().getHostAddress();
                final NioClientSocket socket = new NioClientSocket(this, channel, host,
                    null == remote ? 0 : remote.getPort(), inBytes, nowNs + HANDSHAKE_TIMEOUT_NS);
                socket.key(channel.register(selector, SelectionKey.OP_READ, socket));
                unattached.add(socket);
            }
            catch (final IOException ex)
            {
                CloseHelper.quietClose(channel);
            }
        }
    }

    /**
     * Every socket's turn: give retired slots back, carry out close requests, and move queued messages into the
     * socket's buffer and out.
     */
    private int drain()
    {
        int work = 0;
        final ConnectionTable connections = this.connections;
        for (int i = 0, capacity = connections.capacity(); i < capacity; i++)
        {
            final Connection connection = connections.get(i);
            final int state = connection.state();
            if (Connection.FREE == state || ADAPTER_ID != connection.adapter())
            {
                continue;
            }
            final NioClientSocket socket = (NioClientSocket)connection.attachment();
            if (Connection.RETIRED == state)
            {
                connection.outbound().read(events.unsent(socket));
                if (NioClientSocket.LINGER == socket.state())
                {
                    socket.detach();
                    unattached.add(socket);
                }
                else
                {
                    socket.abandon();
                }
                connections.release(connection);
                work++;
                continue;
            }
            if (!socket.isOpen())
            {
                final int socketState = socket.state();
                if ((NioClientSocket.CLOSING == socketState || NioClientSocket.LINGER == socketState) &&
                    nowNs - socket.deadlineNs() >= 0)
                {
                    socket.terminate();
                    work++;
                }
                continue;
            }
            if (connection.isCloseRequested())
            {
                socket.startClose(connection.closeCode(), connection.closeReason());
                work++;
                continue;
            }
            if (connection.outbound().size() > 0)
            {
                final var sending = events.sending(socket);
                for (int budget = SENDS_PER_SOCKET_PER_ROUND; budget > 0 && socket.isOpen() &&
                    socket.pendingBytes() < HIGH_WATER_BYTES && connection.outbound().size() > 0; budget--)
                {
                    work += connection.outbound().read(sending, 1);
                }
                socket.flush();
            }
        }
        return work;
    }

    private int expireUnattached()
    {
        int work = 0;
        for (int i = unattached.size() - 1; i >= 0; i--)
        {
            final NioClientSocket socket = unattached.get(i);
            if (nowNs - socket.deadlineNs() >= 0)
            {
                socket.terminate();
                work++;
            }
        }
        return work;
    }
}
