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

import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import io.warpbus.gateway.config.AgentLifecycle;
import io.warpbus.gateway.config.GatewayProperties;
import io.warpbus.gateway.security.Authenticator;
import io.warpbus.gateway.security.CredentialStore;
import io.warpbus.gateway.session.ConnectionTable;
import io.warpbus.gateway.session.DrainerIdleStrategy;
import io.warpbus.gateway.session.GatewayCounters;
import io.warpbus.gateway.session.InstrumentRegistry;
import io.warpbus.gateway.session.SessionCore;
import org.agrona.concurrent.SystemNanoClock;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import quickfix.ConfigError;
import quickfix.Dictionary;
import quickfix.SessionID;
import quickfix.SessionSettings;
import quickfix.ThreadedSocketAcceptor;

/**
 * The FIX adapter's wiring from {@code warpbus.gateway.fix.*}: the acceptor, its application and its sender over the
 * gateway's session core, connection table, credentials and instruments. Bad configuration fails the start with a
 * message naming the property.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(FixProperties.class)
class FixConfiguration
{

    @Bean
    FixMetrics fixMetrics()
    {
        return new FixMetrics();
    }

    @Bean
    FixAcceptor fixAcceptor(final FixProperties fix, final GatewayProperties properties, final SessionCore core,
        final ConnectionTable connections, final InstrumentRegistry instruments, final Authenticator authenticator,
        final GatewayCounters counters, final CredentialStore credentials, final FixMetrics metrics)
        throws ConfigError
    {
        if (fix.port() < 0)
        {
            return FixAcceptor.disabled();
        }
        if (fix.port() > 65535)
        {
            throw new IllegalStateException("warpbus.gateway.fix.port is " + fix.port() + ": it must be 0 to 65535, " +
                "or -1 for no FIX acceptor");
        }
        if (fix.sessions().isEmpty())
        {
            throw new IllegalStateException("warpbus.gateway.fix.port is " + fix.port() + " but no FIX session is " +
                "configured: set warpbus.gateway.fix.sessions[0].sender-comp-id (the client's SenderCompID)");
        }
        final Path storeDirectory = null != fix.storeDirectory() ? fix.storeDirectory() :
            properties.journal().directory().resolve("fix");
        final SessionSettings settings = FixAcceptor.settings(fix, storeDirectory);
        if (properties.sessions().socketSendBuffer() > 0)
        {
            // As for the WebSocket clients: a small send buffer shows a client that stops reading as slow sooner.
            settings.setString("SocketSendBufferSize", Integer.toString(properties.sessions().socketSendBuffer()));
        }
        final Map<SessionID, FixSessionContext> contexts = new LinkedHashMap<>();
        final Set<String> seen = new HashSet<>();
        for (int i = 0; i < fix.sessions().size(); i++)
        {
            final FixProperties.Session session = fix.sessions().get(i);
            final String prefix = "warpbus.gateway.fix.sessions[" + i + "].";
            checkCompId(prefix + "sender-comp-id", session.senderCompId());
            checkCompId(prefix + "target-comp-id", session.targetCompId());
            final FixSessionType type;
            try
            {
                type = FixSessionType.of(session.type());
            }
            catch (final IllegalArgumentException ex)
            {
                throw new IllegalStateException(prefix + "type: " + ex.getMessage(), ex);
            }
            final SessionID sessionId = FixAcceptor.sessionId(session);
            if (!seen.add(sessionId.toString()))
            {
                throw new IllegalStateException(prefix + "sender-comp-id: the session " + session.senderCompId() +
                    " -> " + session.targetCompId() + " is configured twice");
            }
            final Dictionary sessionSettings = new Dictionary();
            if (FixSessionType.MARKET_DATA == type)
            {
                // Market data is not stored: a resend request gets a gap fill, never stale books.
                sessionSettings.setString("PersistMessages", "N");
            }
            settings.set(sessionId, sessionSettings);
            contexts.put(sessionId, new FixSessionContext(sessionId, type, new FixSessionState(
                storeDirectory.resolve(session.senderCompId() + "-" + session.targetCompId() + ".warpbus"))));
        }
        final FixApplication application = new FixApplication(contexts, connections, core.commands(), authenticator,
            instruments, metrics, SystemNanoClock.INSTANCE, fix.logonTimeout().toMillis());
        final FixSender sender = new FixSender(connections, core.commands(), new FixReports(instruments),
            new FixMarketData(instruments, credentials.directory()), SystemNanoClock.INSTANCE);
        application.senderWaker(sender::wake);
        final ThreadedSocketAcceptor acceptor = FixAcceptor.acceptor(application, settings);
        application.ioSessions((session) -> FixAcceptor.ioSession(acceptor, session));
        return new FixAcceptor(acceptor,
            new AgentLifecycle(sender, DrainerIdleStrategy.forSender(connections, FixApplication.ADAPTER_ID),
            counters, AgentLifecycle.SENDER_PHASE), contexts, storeDirectory);
    }

    private static void checkCompId(final String property, final String value)
    {
        if (null == value || !value.matches("[A-Za-z0-9._-]{1,32}"))
        {
            throw new IllegalStateException(property + " is '" + value + "': a CompID of 1 to 32 of A-Z a-z 0-9 . _ -");
        }
    }
}
