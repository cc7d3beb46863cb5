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
package io.warpbus.matching;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class InstrumentTest
{
    @Test
    void shouldCheckTheTickGridAndLotSize()
    {
        final Instrument instrument = new Instrument(1, "ABC", 5, 100, 2, 500, 10_000);

        assertTrue(instrument.isOnTickGrid(10_005));
        assertFalse(instrument.isOnTickGrid(10_003));
        assertTrue(instrument.isOnTickGrid(-10));
        assertTrue(instrument.isWholeLots(300));
        assertFalse(instrument.isWholeLots(250));
    }

    @Test
    void shouldComputeTheBandWidthWithoutOverflow()
    {
        assertEquals(500, new Instrument(1, "A", 1, 1, 2, 500, 10_000).bandWidth(10_000));
        assertEquals(9, new Instrument(1, "A", 1, 1, 2, 1_000, 100).bandWidth(95));
        assertEquals(Long.MAX_VALUE / 10_000 * 10_000 + Long.MAX_VALUE % 10_000,
            new Instrument(1, "A", 1, 1, 2, 10_000, 100).bandWidth(Long.MAX_VALUE));
        assertEquals(Long.MAX_VALUE / 2 - 1, new Instrument(1, "A", 1, 1, 2, 5_000, 100).bandWidth(Long.MAX_VALUE - 3));
    }

    @Test
    void shouldRefuseDefinitionsOutOfRange()
    {
        assertThrows(IllegalArgumentException.class, () -> new Instrument(1, "", 1, 1, 2, 500, 100));
        assertThrows(IllegalArgumentException.class, () -> new Instrument(1, "A B", 1, 1, 2, 500, 100));
        assertThrows(IllegalArgumentException.class, () -> new Instrument(1, "SEVENTEEN_CHARS__", 1, 1, 2, 500, 100));
        assertThrows(IllegalArgumentException.class, () -> new Instrument(1, "A", 0, 1, 2, 500, 100));
        assertThrows(IllegalArgumentException.class, () -> new Instrument(1, "A", 1, 0, 2, 500, 100));
        assertThrows(IllegalArgumentException.class, () -> new Instrument(1, "A", 1, 1, 19, 500, 100));
        assertThrows(IllegalArgumentException.class, () -> new Instrument(1, "A", 1, 1, 2, 0, 100));
        assertThrows(IllegalArgumentException.class, () -> new Instrument(1, "A", 1, 1, 2, 10_001, 100));
        assertThrows(IllegalArgumentException.class, () -> new Instrument(1, "A", 5, 1, 2, 500, 102));
        assertThrows(IllegalArgumentException.class, () -> new RiskLimits(1, 1, 0));
    }
}
