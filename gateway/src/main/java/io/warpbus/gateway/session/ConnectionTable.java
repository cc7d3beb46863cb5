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

import org.agrona.concurrent.ManyToManyConcurrentArrayQueue;

/**
 * Every connection slot of the gateway, preallocated with its outbound queue, and the free list adapters take
 * them from. Slots are indexed so that commands and the core refer to a connection by an int.
 */
public final class ConnectionTable implements AutoCloseable
{
    private final Connection[] connections;
    private final ManyToManyConcurrentArrayQueue<Connection> free;

    /**
     * Allocate the slots.
     *
     * @param capacity      most connections at once.
     * @param queueCapacity bytes of each connection's outbound queue, a power of two.
     */
    public ConnectionTable(final int capacity, final int queueCapacity)
    {
        connections = new Connection[capacity];
        free = new ManyToManyConcurrentArrayQueue<>(capacity);
        for (int i = 0; i < capacity; i++)
        {
            connections[i] = new Connection(i, queueCapacity);
            free.offer(connections[i]);
        }
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
