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
import java.nio.channels.ServerSocketChannel;

import org.agrona.CloseHelper;

/**
 * A bound endpoint where peers connect; their requests arrive as {@link ConnectionEventType#CONNECT_REQUEST}
 * events. Closing it stops accepting; connections already made are unaffected.
 */
public final class Listener implements AutoCloseable
{
    private final Rnic rnic;
    private final ServerSocketChannel channel;
    private final InetSocketAddress localAddress;
    private final Object userContext;
    private volatile boolean closed;

    Listener(final Rnic rnic, final ServerSocketChannel channel, final Object userContext) throws IOException
    {
        this.rnic = rnic;
        this.channel = channel;
        this.localAddress = (InetSocketAddress)channel.getLocalAddress();
        this.userContext = userContext;
    }

    /**
     * The bound address, with the actual port when port 0 was asked for.
     *
     * @return the address.
     */
    public InetSocketAddress localAddress()
    {
        return localAddress;
    }

    /**
     * The object given to {@link ConnectionManager#listen}.
     *
     * @return the context.
     */
    public Object userContext()
    {
        return userContext;
    }

    ServerSocketChannel channel()
    {
        return channel;
    }

    boolean isClosed()
    {
        return closed;
    }

    /**
     * Stop listening.
     */
    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            rnic.executeAndWait(() ->
            {
                rnic.agent().removeListener(this);
                CloseHelper.quietClose(channel);
            });
        }
    }

    @Override
    public String toString()
    {
        return "Listener{" + localAddress + '}';
    }
}
