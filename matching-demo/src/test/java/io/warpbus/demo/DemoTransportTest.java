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
package io.warpbus.demo;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DemoTransportTest
{
    @Test
    void shouldShareMemoryOnTwoCoresAndSayWhy()
    {
        final DemoTransport transport = DemoTransport.choose(2, null);
        assertTrue(transport.ipc());
        assertEquals("warp:ipc?stream=1003|name=md", transport.channel("127.0.0.1", 40001, 1003, "md"));
        assertTrue(transport.toString().startsWith("ipc (shared memory, 2 cores: the processes share this host's " +
            "memory; iWARP over loopback"), transport.toString());
        assertTrue(transport.toString().contains("--transport iwarp runs them over the iWARP engine"),
            transport.toString());
        assertTrue(DemoTransport.choose(1, null).toString().contains("(shared memory, 1 core: "));
    }

    @Test
    void shouldUseIwarpWhereTheCoresAllowIt()
    {
        final DemoTransport transport = DemoTransport.choose(3, null);
        assertFalse(transport.ipc());
        assertEquals("warp:iwarp?endpoint=127.0.0.1:40001|stream=1001|name=orders",
            transport.channel("127.0.0.1", 40001, 1001, "orders"));
        assertEquals("iwarp (3 cores: every process over the user-space iWARP engine on loopback, as across hosts)",
            transport.toString());
    }

    @Test
    void shouldTakeWhatTheUserChose()
    {
        assertFalse(DemoTransport.choose(2, " IWARP").ipc());
        assertTrue(DemoTransport.choose(16, "ipc").ipc());
        assertEquals("ipc (shared memory, as --transport asked)", DemoTransport.choose(16, "ipc").toString());
    }

    @Test
    void shouldNameTheOptionWhenTheTransportIsUnknown()
    {
        assertEquals("--transport: expected ipc or iwarp, not 'udp'",
            assertThrows(IllegalArgumentException.class, () -> DemoTransport.choose(2, "udp")).getMessage());
    }
}
