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
package io.warpbus.gateway.session;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

import org.agrona.BitUtil;
import org.agrona.concurrent.ManyToManyConcurrentArrayQueue;

/**
 * Every connection slot of the gateway, preallocated with its outbound queue, and the free list adapters take
 * them from. Slots are indexed so that commands and the core refer to a connection by an int.
 */
public final class ConnectionTable implements AutoCloseable
{
    /**
     * The smallest outbound queue: the largest message (a book, a page of open orders) must fit in an eighth of it.
     */
    public static final int MIN_QUEUE_BYTES = 64 * 1024;
    /** Adapter ids are 0 to this - 1. */
    public static final int MAX_ADAPTERS = 8;

    private record Drainer(int adapter, Runnable waker)
    {
    }

    private final Connection[] connections;
    private final ManyToManyConcurrentArrayQueue<Connection> free;
    private volatile Drainer[] drainers = new Drainer[0];
    /** Connections in use, by adapter id: a drainer with none to drain is not woken. */
    private final AtomicIntegerArray inUse = new AtomicIntegerArray(MAX_ADAPTERS);
    private final AtomicLong wakeUps = new AtomicLong();

    /**
     * Allocate the slots.
     *
     * @param capacity      most connections at once.
     * @param queueCapacity bytes of each connection's outbound queue, a power of two.
     */
    public ConnectionTable(final int capacity, final int queueCapacity)
    {
        if (queueCapacity < MIN_QUEUE_BYTES || !BitUtil.isPowerOfTwo(queueCapacity))
        {
            throw new IllegalArgumentException("an outbound queue of " + queueCapacity + " bytes: it must be a " +
                "power of two of at least " + MIN_QUEUE_BYTES + " (a book or a page of open orders is one message " +
                "of up to an eighth of the queue, and a resend needs 16 KiB of room)");
        }
        connections = new Connection[capacity];
        // Agrona's queue takes no fewer than two; a table of one slot is legal.
        free = new ManyToManyConcurrentArrayQueue<>(Math.max(2, capacity));
        for (int i = 0; i < capacity; i++)
        {
            connections[i] = new Connection(i, queueCapacity);
            free.offer(connections[i]);
        }
    }

    /**
     * Add a way to wake one of the threads that drain the outbound queues (an adapter's sender), called by
     * {@link #wakeDrainers()} while the adapter has connections.
     *
     * @param adapter whose connections it drains.
     * @param waker   wakes the sender if it idles; must be cheap when it does not.
     */
    public synchronized void addDrainer(final int adapter, final Runnable waker)
    {
        final Drainer[] next = Arrays.copyOf(drainers, drainers.length + 1);
        next[drainers.length] = new Drainer(adapter, waker);
        drainers = next;
    }

    /**
     * Remove a waker added by {@link #addDrainer}.
     *
     * @param waker as added.
     */
    public synchronized void removeDrainer(final Runnable waker)
    {
        drainers = Arrays.stream(drainers).filter((each) -> each.waker() != waker).toArray(Drainer[]::new);
    }

    /**
     * Wake the drainers if they idle, so that what the core has just queued leaves at once. Core thread.
     */
    public void wakeDrainers()
    {
        wakeUps.incrementAndGet();
        for (final Drainer drainer : drainers)
        {
            if (inUse.get(drainer.adapter()) > 0)
            {
                drainer.waker().run();
            }
        }
    }

    /**
     * How often the core has woken the drainers: a drainer about to sleep reads it after saying so, and does not
     * sleep if it has moved since its last pass over the queues (a wake-up in between would otherwise be missed).
     *
     * @return a count that only grows.
     */
    public long wakeUps()
    {
        return wakeUps.get();
    }

    /**
     * How many connections an adapter has in use.
     *
     * @param adapter the adapter's id.
     * @return acquired and not yet released.
     */
    public int inUse(final int adapter)
    {
        return inUse.get(adapter);
    }

    /**
     * Take a free slot for a new socket. Any thread.
     *
     * @param adapter    id of the adapter that owns it.
     * @param attachment the adapter's object for the socket.
     * @return the connection, open, or null when every slot is in use.
     */
    public Connection acquire(final int adapter, final Object attachment)
    {
        final Connection connection = free.poll();
        if (null != connection)
        {
            inUse.incrementAndGet(adapter);
            connection.open(adapter, attachment);
        }
        return connection;
    }

    /**
     * Give a retired slot back, once its sender has nothing in flight. The sender's thread.
     *
     * @param connection a {@link Connection#RETIRED} connection.
     */
    public void release(final Connection connection)
    {
        if (Connection.RETIRED != connection.state())
        {
            throw new IllegalStateException(connection + " released while " + connection.state());
        }
        inUse.decrementAndGet(connection.adapter());
        connection.reset();
        free.offer(connection);
    }

    /**
     * A slot by index.
     *
     * @param index 0 to {@link #capacity()} - 1.
     * @return the connection.
     */
    public Connection get(final int index)
    {
        return connections[index];
    }

    /**
     * Free the queues' memory, once nothing uses the table any more (the core and the senders have stopped).
     */
    @Override
    public void close()
    {
        for (final Connection connection : connections)
        {
            connection.free();
        }
    }

    /**
     * Number of slots.
     *
     * @return the capacity.
     */
    public int capacity()
    {
        return connections.length;
    }
}
