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

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;

import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;
import org.agrona.concurrent.NanoClock;

/**
 * The engine's duty cycle. Each call of {@link #doWork()} reads the clock once, runs queued control commands,
 * then for every connection: reads its socket and places inbound FPDUs, assembles outbound FPDUs from the send
 * queue and the inbound read queue, writes them in one socket write, and retires completions. Listeners are polled
 * for new connections and deadlines checked once a millisecond.
 * <p>
 * Everything here runs on one thread and owns its state; other threads reach it only through the command queue.
 */
final class RnicAgent implements Agent
{
    /** How often listeners are polled and deadlines checked. */
    static final long SLOW_POLL_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final int COMMAND_LIMIT = 16;
    private static final long CLOSE_LINGER_NS = TimeUnit.MILLISECONDS.toNanos(100);

    private final Rnic rnic;
    private final RnicContext context;
    private final ManyToOneConcurrentLinkedQueue<Runnable> commands;
    private final NanoClock clock;
    private final RnicCounters counters;
    private final ArrayList<Connection> connections = new ArrayList<>();
    private final ArrayList<Listener> listeners = new ArrayList<>();
    private final ArrayList<QueuePair> flushing = new ArrayList<>();
    private final Selector acceptSelector;
    private volatile Thread engineThread;
    private volatile boolean running;
    private long nextSlowPollNs;
    private long cycle;

    RnicAgent(final Rnic rnic, final RnicContext context, final ManyToOneConcurrentLinkedQueue<Runnable> commands)
    {
        this.rnic = rnic;
        this.context = context;
        this.commands = commands;
        this.clock = context.nanoClock();
        this.counters = new RnicCounters(context.countersManager(), context.name());
        try
        {
            this.acceptSelector = Selector.open();
        }
        catch (final IOException ex)
        {
            throw new IwarpException("cannot open a selector for listeners: " + ex.getMessage(), ex);
        }
    }

    @Override
    public void onStart()
    {
        engineThread = Thread.currentThread();
        running = true;
    }

    @Override
    public int doWork()
    {
        if (Thread.currentThread() != engineThread)
        {
            // An invoker may start the agent on one thread and drive it from another (a bus launched on main, then
            // run by an application's AgentRunner): the engine thread is the one running duty cycles, and a command
            // issued on it must run inline rather than wait for a duty cycle that only it would run.
            onStart();
        }
        int workCount = runCommands();
        final ArrayList<Connection> connections = this.connections;
        if (connections.isEmpty() && listeners.isEmpty())
        {
            // Nothing here runs on time (a bus used only over IPC): skip the clock read, which on a VM's clock
            // source is a large part of an idle cycle, and of every cycle of the application thread driving it.
            return flushing.isEmpty() ? workCount : workCount + flushQueuePairs();
        }
        final long nowNs = clock.nanoTime();
        final long cycle = ++this.cycle;
        if (connections.size() > 1)
        {
            // Connections with work posted since the last cycle go first, so a message leaves before the other
            // connections' sockets are read (a system call each): with a connection per direction, as a bus pair
            // has them, the answer to a message would otherwise wait behind a read of the connection it came on.
            for (int i = connections.size() - 1; i >= 0; i--)
            {
                final Connection connection = connections.get(i);
                if (connection.hasPostedWork())
                {
                    connection.servedCycle = cycle;
                    workCount += connection.doWork(nowNs);
                }
            }
        }
        for (int i = connections.size() - 1; i >= 0; i--)
        {
            final Connection connection = connections.get(i);
            if (connection.servedCycle != cycle)
            {
                workCount += connection.doWork(nowNs);
            }
            if (connection.isClosed())
            {
                removeConnection(i);
            }
        }

        if (nowNs - nextSlowPollNs >= 0)
        {
            nextSlowPollNs = nowNs + SLOW_POLL_INTERVAL_NS;
            workCount += pollListeners(nowNs);
            workCount += checkDeadlines(nowNs);
        }
        if (!flushing.isEmpty())
        {
            workCount += flushQueuePairs();
        }
        return workCount;
    }

    @Override
    public void onClose()
    {
        running = false;
        runCommands();
        linger();
        for (int i = connections.size() - 1; i >= 0; i--)
        {
            connections.get(i).abort("engine " + context.name() + " closed");
        }
        connections.clear();
        for (final Listener listener : listeners)
        {
            CloseHelper.quietClose(listener.channel());
        }
        listeners.clear();
        CloseHelper.quietClose(acceptSelector);
        flushQueuePairs();
    }

    @Override
    public String roleName()
    {
        return context.name();
    }

    boolean isEngineThread()
    {
        return Thread.currentThread() == engineThread;
    }

    boolean isRunning()
    {
        return running;
    }

    RnicCounters counters()
    {
        return counters;
    }

    Rnic rnic()
    {
        return rnic;
    }

    RnicContext context()
    {
        return context;
    }

    long nowNs()
    {
        return clock.nanoTime();
    }

    void addListener(final Listener listener)
    {
        if (!listener.isClosed())
        {
            try
            {
                listener.channel().register(acceptSelector, SelectionKey.OP_ACCEPT, listener);
                listeners.add(listener);
            }
            catch (final IOException ex)
            {
                onError(new IwarpException("cannot poll listener " + listener.localAddress() + ": " + ex.getMessage(),
                    ex));
            }
        }
    }

    void removeListener(final Listener listener)
    {
        listeners.remove(listener);
        final SelectionKey key = listener.channel().keyFor(acceptSelector);
        if (null != key)
        {
            key.cancel();
            try
            {
                // A channel registered with a selector keeps its port until a selection deregisters the key:
                // do it now, so that the port is free again once the listener's close returns.
                acceptSelector.selectNow();
            }
            catch (final IOException ex)
            {
                onError(new IwarpException("cannot release listener " + listener.localAddress() + ": " +
                    ex.getMessage(), ex));
            }
        }
    }

    void connect(
        final QueuePair queuePair,
        final InetSocketAddress remote,
        final ConnectionParameters parameters,
        final Object userContext)
    {
        SocketChannel channel = null;
        try
        {
            channel = SocketChannel.open();
            Connection.configure(channel, context);
            channel.connect(remote);
            final Connection connection = Connection.initiator(this, channel, queuePair, remote, parameters,
                userContext);
            connections.add(connection);
        }
        catch (final IOException | RuntimeException ex)
        {
            CloseHelper.quietClose(channel);
            queuePair.state(QueuePairState.ERROR);
            final String reason = "cannot connect to " + remote + ": " + ex.getMessage();
            queuePair.errorReason(reason);
            counters.connectionFailures.incrementOrdered();
            publish(new ConnectionEvent(ConnectionEventType.CONNECT_ERROR, queuePair, null, remote, new byte[0],
                reason, null, false, userContext));
            startFlush(queuePair);
        }
    }

    void accept(final Connection connection, final QueuePair queuePair, final ConnectionParameters parameters)
    {
        if (!connections.contains(connection) || !connection.awaitingDecision())
        {
            final String reason = "connection from " + connection.remoteAddress() +
                " ended before it was accepted: " + connection.closeReason();
            queuePair.state(QueuePairState.ERROR);
            queuePair.errorReason(reason);
            publish(new ConnectionEvent(ConnectionEventType.CONNECT_ERROR, queuePair, null,
                connection.remoteAddress(), new byte[0], reason, null, false, connection.userContext()));
            startFlush(queuePair);
            return;
        }
        connection.accept(queuePair, parameters);
    }

    void reject(final Connection connection, final byte[] privateData)
    {
        if (connections.contains(connection) && connection.awaitingDecision())
        {
            connection.reject(privateData, "rejected by the local application");
        }
    }

    void disconnect(final QueuePair queuePair, final String reason)
    {
        final Connection connection = queuePair.connection;
        if (null != connection && connections.contains(connection))
        {
            connection.disconnect(reason);
        }
        else if (!queuePair.state().isFinal())
        {
            queuePair.state(QueuePairState.CLOSED);
            startFlush(queuePair);
        }
    }

    void onDeregistered(final MemoryRegion region)
    {
        for (int i = connections.size() - 1; i >= 0; i--)
        {
            connections.get(i).onDeregistered(region);
        }
    }

    void publish(final ConnectionEvent event)
    {
        rnic.connectionManager().publish(event);
    }

    void startFlush(final QueuePair queuePair)
    {
        if (!flushing.contains(queuePair))
        {
            flushing.add(queuePair);
        }
    }

    void onError(final Throwable error)
    {
        context.errorHandler().onError(error);
    }

    private int runCommands()
    {
        int count = 0;
        Runnable command;
        while (count < COMMAND_LIMIT && null != (command = commands.poll()))
        {
            count++;
            try
            {
                command.run();
            }
            catch (final RuntimeException ex)
            {
                onError(ex);
            }
        }
        return count;
    }

    /**
     * Accept pending connections. The selector tells which listeners have any, so an idle poll allocates nothing
     * (a non-blocking accept() on an idle listener allocates on every call).
     */
    private int pollListeners(final long nowNs)
    {
        if (listeners.isEmpty())
        {
            return 0;
        }
        try
        {
            acceptSelector.selectNow();
            if (acceptSelector.selectedKeys().isEmpty())
            {
                return 0;
            }
        }
        catch (final IOException ex)
        {
            onError(new IwarpException("polling listeners failed: " + ex.getMessage(), ex));
            return 0;
        }
        int count = 0;
        final Iterator<SelectionKey> keys = acceptSelector.selectedKeys().iterator();
        while (keys.hasNext())
        {
            final SelectionKey key = keys.next();
            keys.remove();
            final Listener listener = (Listener)key.attachment();
            SocketChannel channel = null;
            try
            {
                while (null != (channel = listener.channel().accept()))
                {
                    Connection.configure(channel, context);
                    connections.add(Connection.responder(this, channel, listener.userContext(), nowNs));
                    channel = null;
                    count++;
                }
            }
            catch (final IOException | RuntimeException ex)
            {
                CloseHelper.quietClose(channel);
                onError(new IwarpException("accept on " + listener.localAddress() + " failed: " + ex.getMessage(),
                    ex));
            }
        }
        return count;
    }

    private int checkDeadlines(final long nowNs)
    {
        int count = 0;
        for (int i = connections.size() - 1; i >= 0; i--)
        {
            final Connection connection = connections.get(i);
            if (connection.checkDeadline(nowNs))
            {
                count++;
                if (connection.isClosed())
                {
                    removeConnection(i);
                }
            }
        }
        return count;
    }

    private int flushQueuePairs()
    {
        int count = 0;
        for (int i = flushing.size() - 1; i >= 0; i--)
        {
            final QueuePair queuePair = flushing.get(i);
            final boolean finished = Flusher.flush(queuePair);
            count++;
            if (finished)
            {
                flushing.remove(i);
            }
        }
        return count;
    }

    /**
     * Close connections gracefully for a short while before the rest are aborted: what the application posted last
     * (a subscriber's "I am leaving", a publisher's final frames) goes out ahead of an orderly end of stream, so the
     * peer sees a departure rather than a reset. A peer that does not answer within the linger is aborted.
     */
    private void linger()
    {
        final long deadlineNs = clock.nanoTime() + CLOSE_LINGER_NS;
        for (int i = connections.size() - 1; i >= 0; i--)
        {
            connections.get(i).disconnect("engine " + context.name() + " closed");
        }
        while (!connections.isEmpty())
        {
            final long nowNs = clock.nanoTime();
            if (nowNs - deadlineNs >= 0)
            {
                break;
            }
            int workCount = 0;
            for (int i = connections.size() - 1; i >= 0; i--)
            {
                final Connection connection = connections.get(i);
                workCount += connection.doWork(nowNs);
                if (connection.isClosed())
                {
                    removeConnection(i);
                }
            }
            if (0 == workCount)
            {
                Thread.yield();
            }
        }
    }

    private void removeConnection(final int index)
    {
        final int last = connections.size() - 1;
        if (index != last)
        {
            connections.set(index, connections.get(last));
        }
        connections.remove(last);
    }
}
