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

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TradingPropertiesTest
{
    @Test
    void shouldRunTheTradingServerOnTheSessionCoreOnlyWhenAskedTo()
    {
        assertFalse(trading("own").onSessionCore());
        assertTrue(trading("session-core").onSessionCore());
    }

    @Test
    void shouldNameThePropertyAndItsValuesWhenTheThreadIsUnknown()
    {
        final IllegalStateException ex = assertThrows(IllegalStateException.class,
            () -> trading("core").onSessionCore());

        assertEquals("warpbus.gateway.trading.thread is 'core': expected own or session-core", ex.getMessage());
    }

    private static GatewayProperties.Trading trading(final String thread)
    {
        return new GatewayProperties.Trading(0, "127.0.0.1", 1, thread);
    }
}
