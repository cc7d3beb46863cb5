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
package io.warpbus.iwarp.mpa;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class MpaSettingsTest
{
    @Test
    void shouldAcceptLargestNegotiableIrdAndOrd()
    {
        final MpaSettings settings = new MpaSettings(CrcPolicy.REQUIRED, 2, 0x3FFE, 0x3FFE, 0x3FFE, RtrType.ALL);

        assertEquals(0x3FFE, settings.ird());
        assertEquals(0x3FFE, settings.ord());
    }

    @ParameterizedTest(name = "revision {0}")
    @ValueSource(ints = { 0, 3, -1 })
    void shouldRejectRevisionOtherThanOneOrTwo(final int revision)
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> new MpaSettings(CrcPolicy.REQUIRED, revision, 1, 1, 1, RtrType.ALL));

        assertEquals("MPA revision must be 1 or 2: " + revision, ex.getMessage());
    }

    @ParameterizedTest(name = "ird {0}, ord {1}")
    @CsvSource({ "16383, 0", "0, 16383", "-1, 0", "0, -1" })
    void shouldRejectIrdOrOrdOutsideNegotiableRange(final int ird, final int ord)
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> new MpaSettings(CrcPolicy.REQUIRED, 2, ird, ord, 0x3FFE, RtrType.ALL));

        assertEquals("IRD and ORD must be in [0, 16382]: ird=" + ird + " ord=" + ord, ex.getMessage());
    }

    @Test
    void shouldRejectMaxIrdBelowIrd()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> new MpaSettings(CrcPolicy.REQUIRED, 2, 5, 1, 4, RtrType.ALL));

        assertEquals("maxIrd 4 is below ird 5", ex.getMessage());
    }

    @ParameterizedTest(name = "mask {0}")
    @ValueSource(ints = { 0, 8, 15, -1 })
    void shouldRejectRtrMaskWithoutKnownTypeOrWithUnknownBits(final int mask)
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> new MpaSettings(CrcPolicy.REQUIRED, 2, 1, 1, 1, mask));

        assertEquals("rtrTypes must name at least one of write, read, send: " + mask, ex.getMessage());
    }
}
