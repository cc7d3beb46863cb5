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

import static org.junit.jupiter.api.Assertions.assertEquals;

class MpaExceptionTest
{
    @Test
    void shouldUseMpaErrorCodesOfRfc5044AndRfc6581()
    {
        assertEquals(0x04, MpaException.INVALID_FRAME);
        assertEquals(0x05, MpaException.LOCAL_CATASTROPHIC);
        assertEquals(0x06, MpaException.INSUFFICIENT_IRD);
        assertEquals(0x07, MpaException.NO_MATCHING_RTR);
    }

    @Test
    void shouldCarryCodeAndMessage()
    {
        final MpaException ex = new MpaException(MpaException.NO_MATCHING_RTR, "no common RTR");

        assertEquals(7, ex.mpaErrorCode());
        assertEquals("no common RTR", ex.getMessage());
    }
}
