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
package io.warpbus.gateway.health;

import io.warpbus.gateway.config.AgentLifecycle;
import io.warpbus.gateway.session.SessionCore;
import io.warpbus.gateway.ws.TradingServer;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The gateway's health: {@code engine} (the bus connection to the matching engine, both ways, and every report it
 * sent received), {@code journal} (room left for the session journal) and {@code sessionCore} (its thread is
 * running). The readiness group holds the first two, the liveness group the last (application.yml).
 */
@Configuration(proxyBeanMethods = false)
class HealthConfiguration
{
    /** Below this much free space the journal is reported down: appends would soon fail. */
    static final long MIN_JOURNAL_SPACE = 256L * 1024 * 1024;

    @Bean
    HealthIndicator engineHealthIndicator(final SessionCore core)
    {
        return () ->
        {
            final boolean connected = core.isEngineConnected();
            final boolean caughtUp = core.isEngineCaughtUp();
            final Health.Builder health = connected && caughtUp ? Health.up() : Health.down();
            return health.withDetail("connected", connected)
                .withDetail("caughtUp", caughtUp)
                .withDetail("marketData", core.isMarketDataConnected())
                .build();
        };
    }

    @Bean
    HealthIndicator journalHealthIndicator(final SessionCore core)
    {
        return () ->
        {
            final long free = core.journalUsableSpace();
            return (free >= MIN_JOURNAL_SPACE ? Health.up() : Health.down())
                .withDetail("directory", core.journalDirectory().toString())
                .withDetail("freeBytes", free)
                .build();
        };
    }

    @Bean
    HealthIndicator sessionCoreHealthIndicator(@Qualifier("sessionCoreRunner") final AgentLifecycle sessionCoreRunner)
    {
        return () -> (sessionCoreRunner.isAgentThreadAlive() ? Health.up() : Health.down())
            .withDetail("thread", "gateway-session-core")
            .build();
    }

    @Bean
    HealthIndicator tradingServerHealthIndicator(final TradingServer tradingServer)
    {
        return () ->
        {
            if (tradingServer.port() < 0)
            {
                return Health.up().withDetail("configured", false).build();
            }
            return (tradingServer.isAgentThreadAlive() ? Health.up() : Health.down())
                .withDetail("thread", tradingServer.threadName())
                .withDetail("port", tradingServer.port())
                .build();
        };
    }
}
