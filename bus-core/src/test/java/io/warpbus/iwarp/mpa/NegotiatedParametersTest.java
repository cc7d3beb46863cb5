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
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class NegotiatedParametersTest
{
    @Test
    void shouldCompareEqualWithPrivateDataOfSameContent()
    {
        final NegotiatedParameters a =
            new NegotiatedParameters(true, 2, true, true, true, RtrType.READ, 1, 2, 3, 4, new byte[]{ 1, 2 });
        final NegotiatedParameters b =
            new NegotiatedParameters(true, 2, true, true, true, RtrType.READ, 1, 2, 3, 4, new byte[]{ 1, 2 });

        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
    }

    @Test
    void shouldCompareUnequalWithDifferentPrivateData()
    {
        final NegotiatedParameters a =
            new NegotiatedParameters(true, 2, true, true, true, RtrType.READ, 1, 2, 3, 4, new byte[]{ 1, 2 });
        final NegotiatedParameters b =
            new NegotiatedParameters(true, 2, true, true, true, RtrType.READ, 1, 2, 3, 4, new byte[]{ 1, 3 });

        assertNotEquals(a, b);
    }

    @Test
    void shouldCompareUnequalWithDifferentRtrType()
    {
        final NegotiatedParameters a =
            new NegotiatedParameters(false, 2, true, true, true, RtrType.READ, 1, 2, 3, 4, new byte[0]);
        final NegotiatedParameters b =
            new NegotiatedParameters(false, 2, true, true, true, RtrType.SEND, 1, 2, 3, 4, new byte[0]);

        assertNotEquals(a, b);
    }

    @Test
    void shouldDescribeSettledValues()
    {
        final NegotiatedParameters parameters =
            new NegotiatedParameters(false, 2, true, false, true, RtrType.WRITE, 8, 4, 4, 8, new byte[3]);

        assertEquals("NegotiatedParameters{responder, rev=2, enhanced=true, crc=false, peerToPeer=true, " +
            "rtr=WRITE, ird=8, ord=4, peerIrd=4, peerOrd=8, privateData=3 bytes}", parameters.toString());
    }
}
