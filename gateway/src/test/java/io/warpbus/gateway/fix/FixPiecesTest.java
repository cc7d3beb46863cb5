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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The FIX adapter's small pieces on their own: the per-session state file across a reopen (as after a restart) and
 * against a file it did not write, prices parsed exactly, the remote address's host, and the session types'
 * configuration names.
 */
@Timeout(30)
class FixPiecesTest
{
    @TempDir
    Path dir;

    @Test
    void shouldKeepTheCoreSessionAndTheLastDeliveredNumberAcrossAReopen()
    {
        final Path file = dir.resolve("fix").resolve("ALICE-WARPBUS.warpbus");
        try (FixSessionState state = new FixSessionState(file))
        {
            assertFalse(state.hasCoreSession());
            assertEquals(0, state.lastDelivered());
            state.coreSession(0x1234L, 0x5678L, 0);
            state.delivered(41);
        }
        try (FixSessionState state = new FixSessionState(file))
        {
            assertTrue(state.hasCoreSession());
            assertEquals(0x1234L, state.tokenHigh());
            assertEquals(0x5678L, state.tokenLow());
            assertEquals(41, state.lastDelivered());
        }
    }

    @Test
    void shouldRefuseAStateFileItDidNotWrite() throws IOException
    {
        final Path wrongSize = dir.resolve("wrong-size.warpbus");
        Files.write(wrongSize, new byte[7]);
        final IllegalStateException size = assertThrows(IllegalStateException.class,
            () -> new FixSessionState(wrongSize));
        assertTrue(size.getMessage().contains(wrongSize.toString()) && size.getMessage().contains("7 bytes"),
            size.getMessage());
        final Path wrongMagic = dir.resolve("wrong-magic.warpbus");
        final byte[] bytes = new byte[32];
        bytes[0] = 1;
        Files.write(wrongMagic, bytes);
        final IllegalStateException magic = assertThrows(IllegalStateException.class,
            () -> new FixSessionState(wrongMagic));
        assertTrue(magic.getMessage().contains("magic"), magic.getMessage());
    }

    @Test
    void shouldParsePricesExactlyAndRefuseWhatIsNotOne() throws FixRefusal
    {
        assertArrayEquals(new long[] { 9900, 2 }, FixOrderMapper.price("99.00"));
        assertArrayEquals(new long[] { 100, 0 }, FixOrderMapper.price("1E+2"));
        assertArrayEquals(new long[] { -5, 1 }, FixOrderMapper.price("-0.5"));
        assertArrayEquals(new long[] { 123456789012345678L, 9 }, FixOrderMapper.price("123456789.012345678"));
        assertEquals("Price(44) must be a decimal number, not 'abc'",
            assertThrows(FixRefusal.class, () -> FixOrderMapper.price("abc")).getMessage());
        assertEquals("Price(44) must have at most 18 digits, not 1234567890.123456789",
            assertThrows(FixRefusal.class, () -> FixOrderMapper.price("1234567890.123456789")).getMessage());
    }

    @Test
    void shouldTakeTheHostOfARemoteAddress()
    {
        assertEquals("127.0.0.1", FixApplication.host("/127.0.0.1:50123"));
        assertEquals("10.1.2.3", FixApplication.host("gw.example/10.1.2.3:9878"));
        assertEquals("unknown", FixApplication.host(null));
    }

    @Test
    void shouldNameTheAllowedSessionTypes()
    {
        assertEquals(FixSessionType.DROP_COPY, FixSessionType.of("drop-copy"));
        assertEquals("FIX session type 'quotes': it must be one of [order-entry, market-data, drop-copy]",
            assertThrows(IllegalArgumentException.class, () -> FixSessionType.of("quotes")).getMessage());
    }
}
