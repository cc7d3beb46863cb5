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
package io.warpbus.gateway.fix;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import io.warpbus.gateway.session.Connection;
import org.apache.mina.core.session.IoSession;
import quickfix.Session;

/**
 * One logon of a FIX session: the session core's connection slot it holds, the logon's answer from the core, and
 * whether QuickFIX/J has the session logged on, so that the sender hands it nothing before.
 */
final class FixConnection
{
    /**
     * The core's answer to a logon.
     *
     * @param accepted  true if accepted.
     * @param tokenHigh the core session's token, first half.
     * @param tokenLow  second half.
     * @param resumed   true if the core resumed the session asked for.
     * @param reason    why it was refused, or null.
     */
    record LogonAnswer(boolean accepted, long tokenHigh, long tokenLow, boolean resumed, String reason)
    {
    }

    final FixSessionContext context;
    volatile Connection connection;
    final String host;
    final String logonName;
    final CompletableFuture<LogonAnswer> answer = new CompletableFuture<>();
    final AtomicBoolean closedSent = new AtomicBoolean();
    volatile Session session;
    /** The socket's MINA session once logged on, whose scheduled writes show a client that reads too slowly. */
    volatile IoSession ioSession;
    volatile boolean live;
    volatile boolean logoutRequested;

    FixConnection(final FixSessionContext context, final String host, final String logonName)
    {
        this.context = context;
        this.host = host;
        this.logonName = logonName;
    }

    @Override
    public String toString()
    {
        return context.sessionId() + " on " + connection;
    }
}
