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
package io.warpbus.gateway;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@link MarketDataTest} with the trading server on the session core's thread
 * ({@code warpbus.gateway.trading.thread=session-core}): snapshots, updates, conflation for a slow client and the
 * slow client's disconnection must not depend on which thread writes the sockets.
 */
class SessionCoreMarketDataTest extends MarketDataTest
{
    @DynamicPropertySource
    static void tradingOnTheSessionCore(final DynamicPropertyRegistry registry)
    {
        registry.add("warpbus.gateway.trading.thread", () -> "session-core");
    }
}
