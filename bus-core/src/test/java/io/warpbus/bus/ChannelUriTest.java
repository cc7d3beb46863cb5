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
package io.warpbus.bus;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChannelUriTest
{
    @Test
    void shouldParseAnIwarpChannel()
    {
        final ChannelUri uri = ChannelUri.parse(
            "warp:iwarp?endpoint=127.0.0.1:40456|stream=1001|policy=drop|ring=1m|name=md-feed|conflation-key=8:4");
        assertEquals("iwarp", uri.transport());
        assertEquals(40456, uri.endpoint().getPort());
        assertEquals("127.0.0.1", uri.endpoint().getAddress().getHostAddress());
        assertEquals(1001, uri.streamId());
        assertEquals(SlowConsumerPolicy.DROP, uri.policy());
        assertEquals(1024 * 1024, uri.size("ring", 0));
        assertEquals("md-feed", uri.name("x"));
        assertEquals(8, uri.conflationKeyOffset());
        assertEquals(4, uri.conflationKeyLength());
    }

    @Test
    void shouldParseAnIpcChannelWithDefaults()
    {
        final ChannelUri uri = ChannelUri.parse("warp:ipc?stream=7");
        assertTrue(uri.isIpc());
        assertNull(uri.endpoint());
        assertEquals(SlowConsumerPolicy.BLOCK, uri.policy());
        assertEquals(-1, uri.conflationKeyOffset());
        assertEquals(4096, uri.size("ring", 4096));
        assertFalse(uri.cycleTimestamps());
    }

    @Test
    void shouldParseTheTimestampMode()
    {
        assertTrue(ChannelUri.parse("warp:ipc?stream=7|timestamp=cycle").cycleTimestamps());
        assertFalse(ChannelUri.parse("warp:ipc?stream=7|timestamp=offer").cycleTimestamps());
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "http://x;must start with 'warp:'",
        "warp:udp?stream=1;unknown transport 'udp'",
        "warp:ipc?stream=1|colour=red;unknown parameter 'colour'",
        "warp:ipc?stream=abc;stream 'abc' is not a number",
        "warp:ipc;missing stream=ID",
        "warp:iwarp?stream=1;an iwarp channel needs endpoint=host:port",
        "warp:iwarp?endpoint=localhost|stream=1;endpoint 'localhost' must be host:port",
        "warp:iwarp?endpoint=127.0.0.1:99999|stream=1;endpoint port 99999 out of range",
        "warp:iwarp?endpoint=no.such.host.invalid:1|stream=1;endpoint host 'no.such.host.invalid' is unknown",
        "warp:ipc?stream=1|endpoint=127.0.0.1:1;an ipc channel takes no endpoint",
        "warp:ipc?stream=1|policy=maybe;policy 'maybe' must be block, drop or conflate",
        "warp:ipc?stream=1|ring=3m;ring=3m must be a power of two",
        "warp:ipc?stream=1|timestamp=never;timestamp 'never' must be offer or cycle",
        "warp:ipc?stream=1|ring=lots;ring=lots is not a size",
        "warp:ipc?stream=1|stream=2;parameter 'stream' repeated",
        "warp:ipc?stream=1|name;parameter 'name' must be name=value",
        "warp:ipc?stream=1|conflation-key=8:3;needs an offset >= 0 and a length of 4 or 8",
        "warp:ipc?stream=1|conflation-key=8;must be offset:length",
        "warp:ipc?stream=1|replay-from=0;replays are served over iwarp",
        "warp:iwarp?endpoint=127.0.0.1:1|stream=1|replay-to=5;replay-to needs replay-from or replay-from-time",
        "warp:iwarp?endpoint=127.0.0.1:1|stream=1|replay-from=-3;replay-from=-3 is not a whole number >= 0",
        "warp:iwarp?endpoint=127.0.0.1:1|stream=1|announce-replay=nowhere;endpoint 'nowhere' must be host:port",
    })
    void shouldNameTheBadPart(final String channel, final String expected)
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> ChannelUri.parse(
            channel));
        assertTrue(ex.getMessage().contains(expected), ex.getMessage());
    }
}
