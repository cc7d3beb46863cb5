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
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.warpbus.gateway.config.AgentLifecycle;
import io.warpbus.gateway.config.GatewayProperties;
import io.warpbus.gateway.security.Authenticator;
import io.warpbus.gateway.security.CredentialStore;
import io.warpbus.gateway.session.ConnectionTable;
import io.warpbus.gateway.session.DrainerIdleStrategy;
import io.warpbus.gateway.session.GatewayCounters;
import io.warpbus.gateway.session.InstrumentRegistry;
import io.warpbus.gateway.session.SessionCore;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.agrona.concurrent.SystemNanoClock;
import org.springframework.boot.tomcat.TomcatConnectorCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.socket.config.annotation.EnableWebSocket;
import org.springframework.web.socket.config.annotation.WebSocketConfigurer;
import org.springframework.web.socket.server.standard.ServletServerContainerFactoryBean;

/**
 * The WebSocket adapter's wiring: the handler at {@code /ws}, the container's frame buffer (messages longer than
 * it arrive as partial frames, assembled up to {@code max-message-bytes}), and the sender agent on its own thread.
 */
@Configuration(proxyBeanMethods = false)
@EnableWebSocket
class WebSocketConfiguration
{
    /**
     * Few idle passes before the sender parks: a pass looks at every connection, and the session core wakes the
     * sender whenever it has queued something.
     */

    /** Logons waiting for a logon thread before new ones are refused. */
    private static final int LOGON_QUEUE = 4096;

    /** Path of the WebSocket endpoint. */
    static final String PATH = "/ws";

    @Bean
    JsonSessionHandler jsonSessionHandler(final SessionCore core, final InstrumentRegistry instruments,
        final Authenticator authenticator, final GatewayCounters counters, final GatewayProperties properties)
    {
        final WsRequestMapper mapper = new WsRequestMapper(core.commands(), instruments, authenticator,
            SystemNanoClock.INSTANCE);
        return new JsonSessionHandler(mapper, counters, properties.sessions().maxMessageBytes());
    }

    @Bean
    GatewayWebSocketHandler gatewayWebSocketHandler(final ConnectionTable connections,
        final JsonSessionHandler handler)
    {
        return new GatewayWebSocketHandler(connections, handler, SystemNanoClock.INSTANCE);
    }

    @Bean
    WebSocketConfigurer gatewayWebSocketConfigurer(final GatewayWebSocketHandler handler,
        final GatewayProperties properties)
    {
        return (registry) ->
        {
            final String[] origins = properties.allowedOrigins().isEmpty() ? new String[] { "*" } :
                properties.allowedOrigins().toArray(new String[0]);
            registry.addHandler(handler, PATH).setAllowedOriginPatterns(origins);
        };
    }

    @Bean
    ServletServerContainerFactoryBean webSocketContainer(final GatewayProperties properties)
    {
        final ServletServerContainerFactoryBean container = new ServletServerContainerFactoryBean();
        container.setMaxTextMessageBufferSize(Math.min(8192, properties.sessions().maxMessageBytes()));
        container.setMaxBinaryMessageBufferSize(1024);
        return container;
    }

    @Bean
    TomcatConnectorCustomizer socketSendBuffer(final GatewayProperties properties)
    {
        return (connector) ->
        {
            if (properties.sessions().socketSendBuffer() > 0)
            {
                connector.setProperty("socket.txBufSize", Integer.toString(properties.sessions().socketSendBuffer()));
            }
        };
    }

    @Bean
    AgentLifecycle webSocketSender(final ConnectionTable connections, final InstrumentRegistry instruments,
        final CredentialStore credentials, final Authenticator authenticator, final GatewayCounters counters)
    {
        return new AgentLifecycle(new WsSender(connections, new OutboundEvents(new JsonEventEncoder(instruments,
            credentials.directory()), authenticator)),
            DrainerIdleStrategy.forSender(connections, GatewayWebSocketHandler.ADAPTER_ID),
            counters, AgentLifecycle.SENDER_PHASE);
    }

    @Bean
    TradingServer tradingServer(final SessionCore core, final ConnectionTable connections,
        final JsonSessionHandler handler, final InstrumentRegistry instruments, final CredentialStore credentials,
        final Authenticator authenticator, final GatewayCounters counters, final GatewayProperties properties)
        throws IOException
    {
        final GatewayProperties.Trading trading = properties.trading();
        final boolean onSessionCore = trading.onSessionCore();
        if (trading.port() < 0)
        {
            return new TradingServer(null, null, null);
        }
        if (trading.logonThreads() < 1)
        {
            throw new IllegalStateException("warpbus.gateway.trading.logon-threads is " + trading.logonThreads() +
                ": it needs at least 1");
        }
        final ExecutorService logons = new ThreadPoolExecutor(trading.logonThreads(), trading.logonThreads(), 0,
            TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(LOGON_QUEUE), (task) ->
            {
                final Thread thread = new Thread(task, "gateway-logon");
                thread.setDaemon(true);
                return thread;
            });
        final NioWebSocketServer server = new NioWebSocketServer(
            new InetSocketAddress(trading.address(), trading.port()), connections, handler,
            new OutboundEvents(new JsonEventEncoder(instruments, credentials.directory()), authenticator),
            new UpgradeRequest(PATH, properties.allowedOrigins()), logons, SystemNanoClock.INSTANCE,
            properties.sessions().socketSendBuffer(), !onSessionCore);
        if (onSessionCore)
        {
            core.coLocate(server);
            return new TradingServer(server, logons, null);
        }
        // The server idles in its selector itself; the runner only loops.
        return new TradingServer(server, logons, new AgentLifecycle(server, NoOpIdleStrategy.INSTANCE, counters,
            AgentLifecycle.SENDER_PHASE));
    }
}
