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

import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link OrderEntryTest} with the trading server on the session core's thread
 * ({@code warpbus.gateway.trading.thread=session-core}): orders, reports and refusals must not depend on which thread
 * reads and writes the sockets.
 */
class SessionCoreOrderEntryTest extends OrderEntryTest
{
    @DynamicPropertySource
    static void tradingOnTheSessionCore(final DynamicPropertyRegistry registry)
    {
        registry.add("warpbus.gateway.trading.thread", () -> "session-core");
    }

    @Test
    void shouldServeTheTradingSocketsFromTheSessionCoresThread()
    {
        final Set<String> threads = Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
            .map(Thread::getName).collect(Collectors.toSet());

        assertFalse(threads.contains("gateway-nio-ws"), "no trading server thread of its own: " + threads);
        assertTrue(threads.contains("gateway-session-core"), "the session core's thread: " + threads);
        assertTrue(tradingServer.isAgentThreadAlive(), "the trading server reports the thread that serves it");
        assertEquals("gateway-session-core", tradingServer.threadName());
    }
}
