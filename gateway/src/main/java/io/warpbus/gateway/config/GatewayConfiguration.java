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
package io.warpbus.gateway.config;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.concurrent.TimeUnit;

import io.warpbus.bus.Bus;
import io.warpbus.bus.BusContext;
import io.warpbus.gateway.metrics.GatewayMetrics;
import io.warpbus.gateway.security.Authenticator;
import io.warpbus.gateway.security.CredentialStore;
import io.warpbus.gateway.security.LogonThrottle;
import io.warpbus.gateway.session.ConnectionTable;
import io.warpbus.gateway.session.GatewayCounters;
import io.warpbus.gateway.session.InstrumentRegistry;
import io.warpbus.gateway.session.SessionCore;
import io.warpbus.gateway.session.SessionCoreContext;
import io.warpbus.iwarp.IdleStrategies;
import io.warpbus.iwarp.ThreadingMode;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.SystemNanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;

/**
 * The one place the gateway's Spring properties become bus-core and session-core objects: the bus client as an
 * {@code AutoCloseable} bean, the session core with its journal, the credentials, and the agent thread
 * ({@link AgentLifecycle}) that runs the core. Spring supplies configuration and lifecycle only; nothing here is on the
 * hot path.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(GatewayProperties.class)
class GatewayConfiguration
{
    private static final Logger LOG = LoggerFactory.getLogger(GatewayConfiguration.class);
    /** Connections beyond max-sessions, for logons in progress and clients being refused. */
    private static final int SPARE_CONNECTIONS = 64;

    @Bean(destroyMethod = "close")
    GatewayCounters gatewayCounters(final GatewayProperties properties)
    {
        final Path directory = null != properties.countersDirectory() ? properties.countersDirectory() :
            busDirectory(properties).resolve(properties.name() + "-gateway");
        return new GatewayCounters(directory);
    }

    @Bean
    CredentialStore credentialStore(final GatewayProperties properties)
    {
        if (null == properties.credentialsFile())
        {
            throw new IllegalStateException("warpbus.gateway.credentials-file is not set (environment " +
                "WARPBUS_GATEWAY_CREDENTIALSFILE): the gateway admits no one without credentials");
        }
        return CredentialStore.load(properties.credentialsFile(), properties.credentialsPermissionCheck(),
            properties.rateLimits().userOrdersPerSecond(), properties.rateLimits().userOrderBurst());
    }

    @Bean
    PasswordEncoder passwordEncoder()
    {
        return PasswordEncoderFactories.createDelegatingPasswordEncoder();
    }

    @Bean
    Authenticator authenticator(final CredentialStore credentials, final PasswordEncoder encoder,
        final GatewayCounters counters, final GatewayProperties properties)
    {
        final GatewayProperties.Logon logon = properties.logon();
        return new Authenticator(credentials, encoder,
            new LogonThrottle(logon.maxFailures(), logon.failureWindow().toMillis()), counters,
            SystemEpochClock.INSTANCE, SystemNanoClock.INSTANCE, logon.timestampSkew().toMillis());
    }

    @Bean
    InstrumentRegistry instrumentRegistry(final GatewayProperties properties)
    {
        final GatewayProperties.Instruments instruments = properties.instruments();
        return new InstrumentRegistry(instruments.defaultMaxQuantity(), instruments.maxQuantity(),
            new HashSet<>(instruments.halted()));
    }

    @Bean(destroyMethod = "close")
    ConnectionTable connectionTable(final GatewayProperties properties)
    {
        return new ConnectionTable(properties.sessions().maxSessions() + SPARE_CONNECTIONS,
            properties.sessions().queueBytes());
    }

    @Bean(destroyMethod = "close")
    Bus gatewayBus(final GatewayProperties properties)
    {
        final BusContext context = new BusContext().name(properties.name()).threadingMode(ThreadingMode.INVOKER);
        if (null != properties.busDirectory())
        {
            context.directory(properties.busDirectory());
        }
        return Bus.launch(context);
    }

    @Bean(destroyMethod = "close")
    SessionCore sessionCore(final GatewayProperties properties, final Bus bus, final CredentialStore credentials,
        final InstrumentRegistry instruments, final ConnectionTable connections, final GatewayCounters counters,
        final GatewayMetrics metrics)
    {
        final GatewayProperties.Channels channels = properties.channels();
        final GatewayProperties.Sessions sessions = properties.sessions();
        final GatewayProperties.RateLimits limits = properties.rateLimits();
        if (null == properties.journal().directory())
        {
            throw new IllegalStateException("warpbus.gateway.journal.directory is not set: sessions must survive " +
                "a restart");
        }
        return new SessionCore(new SessionCoreContext()
            .bus(bus)
            .origin(properties.origin())
            .orderEntryChannel(required(channels.orderEntry(), "channels.order-entry"))
            .executionReportChannel(required(channels.executionReports(), "channels.execution-reports"))
            .marketDataChannel(required(channels.marketData(), "channels.market-data"))
            .snapshotChannel(required(channels.snapshots(), "channels.snapshots"))
            .dropCopyChannel(null == channels.dropCopy() || channels.dropCopy().isBlank() ? null : channels.dropCopy())
            .journalDirectory(properties.journal().directory())
            .journalRetentionDays(properties.journal().retentionDays())
            .users(credentials.directory())
            .instruments(instruments)
            .connections(connections)
            .counters(counters)
            .latency(metrics::onRoundTrip)
            .maxSessions(sessions.maxSessions())
            .maxInstruments(properties.instruments().maxInstruments())
            .maxOpenOrdersPerSession(sessions.maxOpenOrders())
            .maxOrders(sessions.maxOrders())
            .heartbeatRangeMs(sessions.minHeartbeat().toMillis(), sessions.maxHeartbeat().toMillis())
            .sessionOrderLimit(limits.sessionOrdersPerSecond(), limits.sessionOrderBurst())
            .slowConsumerTimeoutNs(sessions.slowConsumerTimeout().toNanos())
            .sessionExpiryNs(sessions.expiry().toNanos())
            .protocolErrorLimit(sessions.protocolErrorLimit(), sessions.protocolErrorWindow().toNanos())
            .cancelOnDisconnect(sessions.cancelOnDisconnect()));
    }

    @Bean
    AgentLifecycle sessionCoreRunner(final SessionCore core, final GatewayCounters counters,
        final GatewayProperties properties)
    {
        return new AgentLifecycle(core, IdleStrategies.fromAlias(properties.idleStrategy()), counters,
            AgentLifecycle.CORE_PHASE);
    }

    /**
     * One full collection once the gateway has started, before it reports itself ready: the session core's tables
     * (hundreds of thousands of order slots, allocated once) and what Spring made while starting then sit in the old
     * generation, and the first young collection under traffic copies only what the traffic made. Without it, that
     * collection copied about 100 MB and stopped the gateway for 150-170 ms on the 2-core development machine.
     *
     * @return the listener.
     */
    @Bean
    ApplicationListener<ApplicationReadyEvent> startupCollection()
    {
        return (event) ->
        {
            final long startNs = System.nanoTime();
            System.gc();
            LOG.info("startup objects moved to the old generation before taking traffic: a full collection took {} ms",
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs));
        };
    }

    private static String required(final String value, final String name)
    {
        if (null == value || value.isBlank())
        {
            throw new IllegalStateException("warpbus.gateway." + name + " is not set");
        }
        return value;
    }

    private static Path busDirectory(final GatewayProperties properties)
    {
        return null != properties.busDirectory() ? properties.busDirectory() : new BusContext().directory();
    }
}
