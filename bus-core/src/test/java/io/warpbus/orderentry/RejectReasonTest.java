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
package io.warpbus.orderentry;

import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RejectReasonTest
{
    @Test
    void shouldGroupCodesByRangeWithoutReuse()
    {
        final Set<Integer> codes = new HashSet<>();
        for (final RejectReason reason : RejectReason.values())
        {
            assertTrue(codes.add(reason.code()), "code reused: " + reason);
            assertSame(reason, RejectReason.get(reason.code()));
            final int range = reason.code() / 100;
            assertTrue(RejectReason.NONE == reason || (range >= 1 && range <= 5), reason.name());
        }

        assertEquals(1, RejectReason.UNKNOWN_INSTRUMENT.code() / 100);
        assertEquals(1, RejectReason.WRONG_ORIGIN.code() / 100);
        assertEquals(2, RejectReason.POSITION_LIMIT_EXCEEDED.code() / 100);
        assertEquals(3, RejectReason.UNKNOWN_ORDER.code() / 100);
        assertEquals(4, RejectReason.SELF_TRADE_PREVENTED.code() / 100);
        assertEquals(5, RejectReason.NOT_ENTITLED.code() / 100);
        assertNull(RejectReason.get(-1));
        assertNull(RejectReason.get(199));
        assertNull(RejectReason.get(100_000));
    }

    @Test
    void shouldGiveEveryReasonADistinctText()
    {
        final Set<String> texts = new HashSet<>();
        for (final RejectReason reason : RejectReason.values())
        {
            assertFalse(reason.text().isBlank(), reason.name());
            assertTrue(texts.add(reason.text()), "text reused: " + reason);
        }
    }
}
