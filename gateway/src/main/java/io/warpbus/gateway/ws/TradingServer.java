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

import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

import io.warpbus.gateway.config.AgentLifecycle;
import org.springframework.context.SmartLifecycle;

/**
 * The gateway's own WebSocket server for trading sessions as part of the application's lifecycle: its thread starts
 * after the session core and stops before it, and its logon threads with it. When it runs on the session core's
 * thread, it starts and stops with the core, and this stops only its logon threads. When no port is configured there
 * is no such server and this does nothing.
 */
public final class TradingServer implements SmartLifecycle
{
    private final NioWebSocketServer server;
    private final ExecutorService logons;
    private final AgentLifecycle lifecycle;
    private volatile boolean running;

    /**
     * The server with what runs it.
     *
     * @param server    the server, or null when none is configured.
     * @param logons    its logon threads, or null without a server.
     * @param lifecycle its own thread, or null when it runs on the session core's or there is no server.
     */
    TradingServer(final NioWebSocketServer server, final ExecutorService logons, final AgentLifecycle lifecycle)
    {
        this.server = server;
        this.logons = logons;
        this.lifecycle = lifecycle;
    }

    /**
     * The port trading clients connect to, at path {@code /ws}.
     *
     * @return the port, or -1 when the server is not configured.
     */
    public int port()
    {
        return null == server ? -1 : server.port();
    }

    /**
     * Is the server's thread running its duty cycle?
     *
     * @return true while it serves; false when it has stopped or was never configured.
     */
    public boolean isAgentThreadAlive()
    {
        return null != server && server.isServing();
    }

    /**
     * The thread that serves the trading sockets: the server's own, or the session core's.
     *
     * @return its name; "none" while nothing serves them or when the server is not configured.
     */
    public String threadName()
    {
        return null == server ? "none" : server.servingThread();
    }

    @Override
    public void start()
    {
        if (null != lifecycle)
        {
            lifecycle.start();
        }
        running = null != server;
    }

    @Override
    public void stop()
    {
        running = false;
        if (null != lifecycle)
        {
            lifecycle.stop();
        }
        if (null != logons)
        {
            logons.shutdownNow();
            try
            {
                logons.awaitTermination(5, TimeUnit.SECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public boolean isRunning()
    {
        return running;
    }

    @Override
    public int getPhase()
    {
        return AgentLifecycle.SENDER_PHASE;
    }
}
