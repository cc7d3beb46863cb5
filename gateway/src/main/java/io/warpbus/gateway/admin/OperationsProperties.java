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
package io.warpbus.gateway.admin;

import java.net.URI;
import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * What the operations view reads besides the gateway itself ({@code warpbus.gateway.operations.*}).
 *
 * @param engineUrl          the matching engine's HTTP address (its {@code --metrics} address, the demo banner's
 *                           {@code engine page}, e.g. {@code http://engine-0.engine:9101/}); the gateway reads its
 *                           {@code stats.json} once a second for the engine's match latency and counters. Unset: the
 *                           view shows no engine figures.
 * @param engineStatsTimeout how long one read of the engine's figures may take before it counts as failed.
 */
@ConfigurationProperties("warpbus.gateway.operations")
public record OperationsProperties(URI engineUrl, @DefaultValue("800ms") Duration engineStatsTimeout)
{
    /**
     * Checks the values.
     *
     * @throws IllegalArgumentException naming the property that is wrong.
     */
    public OperationsProperties
    {
        if (null != engineUrl && !("http".equals(engineUrl.getScheme()) || "https".equals(engineUrl.getScheme())))
        {
            throw new IllegalArgumentException("warpbus.gateway.operations.engine-url must be an http or https " +
                "address such as http://engine:9101/, not " + engineUrl);
        }
        if (null != engineUrl && (null == engineUrl.getHost() || engineUrl.getHost().isEmpty()))
        {
            throw new IllegalArgumentException("warpbus.gateway.operations.engine-url has no host: " + engineUrl);
        }
        if (engineStatsTimeout.isNegative() || engineStatsTimeout.isZero() ||
            engineStatsTimeout.compareTo(Duration.ofSeconds(5)) > 0)
        {
            throw new IllegalArgumentException("warpbus.gateway.operations.engine-stats-timeout must be above 0 " +
                "and at most 5s, not " + engineStatsTimeout);
        }
    }
}
