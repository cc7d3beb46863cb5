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

import io.warpbus.gateway.session.Connection;

/**
 * What every server's client socket keeps the same way: its address, its connection slot and the progress of its
 * logon. The logon fields may be set on one thread (a container's, a logon thread) and read on the sender's.
 */
abstract class AbstractClientSocket implements ClientSocket
{
    private final String host;
    private final String address;
    private volatile Connection connection;
    private volatile boolean logonSubmitted;
    private volatile String logonName;
    private int preLogonErrors;

    AbstractClientSocket(final String host, final int port)
    {
        this.host = host;
        this.address = host + ":" + port;
    }

    @Override
    public final String address()
    {
        return address;
    }

    @Override
    public final String host()
    {
        return host;
    }

    @Override
    public final Connection connection()
    {
        return connection;
    }

    /**
     * Give the socket its connection slot, or take it away (null).
     *
     * @param connection the slot.
     */
    final void connection(final Connection connection)
    {
        this.connection = connection;
    }

    @Override
    public final boolean isLogonSubmitted()
    {
        return logonSubmitted;
    }

    @Override
    public final void logonSubmitted()
    {
        logonSubmitted = true;
    }

    @Override
    public final String logonName()
    {
        return logonName;
    }

    @Override
    public final void logonName(final String name)
    {
        logonName = name;
    }

    @Override
    public final int preLogonError()
    {
        return ++preLogonErrors;
    }
}
