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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class RtrTypeTest
{
    @Test
    void shouldGiveEachTypeItsOwnBit()
    {
        assertEquals(1, RtrType.WRITE.bit());
        assertEquals(2, RtrType.READ.bit());
        assertEquals(4, RtrType.SEND.bit());
        assertEquals(7, RtrType.ALL);
    }

    @ParameterizedTest(name = "mask {0} -> {1}")
    @CsvSource({ "1, WRITE", "2, READ", "4, SEND", "3, WRITE", "5, WRITE", "6, READ", "7, WRITE" })
    void shouldPreferWriteThenReadThenSend(final int mask, final RtrType expected)
    {
        assertEquals(expected, RtrType.preferred(mask));
    }

    @Test
    void shouldPreferNothingInEmptyMask()
    {
        assertNull(RtrType.preferred(0));
    }

    @ParameterizedTest(name = "\"{0}\" -> {1}")
    @CsvSource(value = { "write,read|3", "' Send , WRITE '|5", "read|2", "send,send|4", "''|0", "' , '|0" },
        delimiter = '|')
    void shouldParseCommaSeparatedNamesIgnoringCaseAndSpaces(final String list, final int mask)
    {
        assertEquals(mask, RtrType.parseMask(list));
    }

    @Test
    void shouldNameUnknownTypeWhenParsing()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> RtrType.parseMask("write,bogus"));

        assertEquals("unknown RTR type 'bogus': expected write, read or send", ex.getMessage());
    }
}
