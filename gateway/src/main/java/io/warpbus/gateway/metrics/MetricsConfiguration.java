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
package io.warpbus.gateway.metrics;

import io.micrometer.core.instrument.Tags;
import io.warpbus.bus.Bus;
import io.warpbus.bus.status.CountersFile;
import io.warpbus.gateway.config.GatewayProperties;
import io.warpbus.gateway.session.GatewayCounters;
import io.warpbus.metrics.BusCountersMeterBinder;
import org.springframework.boot.micrometer.metrics.autoconfigure.MeterRegistryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Micrometer wiring: the gateway's own meters, every counter of its bus and iWARP engine through the reusable
 * {@link BusCountersMeterBinder}, and the common tags ({@code application}, {@code gateway}) set once.
 */
@Configuration(proxyBeanMethods = false)
class MetricsConfiguration
{
    @Bean
    GatewayMetrics gatewayMetrics(final GatewayCounters counters)
    {
        return new GatewayMetrics(counters);
    }

    @Bean(destroyMethod = "close")
    CountersFile gatewayBusCounters(final Bus bus)
    {
        return CountersFile.mapExisting(bus.countersFile().getParent());
    }

    @Bean(destroyMethod = "close")
    BusCountersMeterBinder busCountersMeterBinder(final CountersFile gatewayBusCounters,
        final GatewayProperties properties)
    {
        return new BusCountersMeterBinder(gatewayBusCounters.countersReader(), Tags.of("bus", properties.name()))
            .refreshEvery(1_000);
    }

    @Bean
    MeterRegistryCustomizer<io.micrometer.core.instrument.MeterRegistry> commonTags(
        final GatewayProperties properties)
    {
        return (registry) -> registry.config().commonTags("application", "warpbus-gateway", "gateway",
            properties.name());
    }
}
