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
package io.warpbus.gateway.admin;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import io.warpbus.gateway.session.SessionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/**
 * The operations view's per-session rates: counted between two listings, over the monotonic clock's interval.
 */
@Timeout(10)
class SessionRatesTest
{
    private static final String ALICE = "0123456789abcdef0123456789abcdef";
    private static final String BOB = "fedcba9876543210fedcba9876543210";

    private final AtomicLong nowNs = new AtomicLong(3_000_000_000L);
    private final SessionRates rates = new SessionRates(nowNs::get);

    @Test
    void shouldGiveZeroForASessionSeenFirstThenItsRatesOverTheInterval()
    {
        assertArrayEquals(new double[] { 0, 0 }, rates.update(List.of(session(ALICE, 100, 40))).get(ALICE));
        nowNs.addAndGet(500_000_000L);
        final Map<String, double[]> second = rates.update(List.of(session(ALICE, 150, 240), session(BOB, 9, 9)));
        assertArrayEquals(new double[] { 100, 400 }, second.get(ALICE), 1e-9);
        assertArrayEquals(new double[] { 0, 0 }, second.get(BOB), "Bob logged on since");
    }

    @Test
    void shouldForgetASessionNoLongerListed()
    {
        rates.update(List.of(session(ALICE, 100, 40)));
        nowNs.addAndGet(1_000_000_000L);
        rates.update(List.of(session(BOB, 1, 1)));
        nowNs.addAndGet(1_000_000_000L);
        assertArrayEquals(new double[] { 0, 0 }, rates.update(List.of(session(ALICE, 900, 900))).get(ALICE),
            "Alice was missing from the previous listing: her counts then are unknown");
    }

    @Test
    void shouldNotGoNegativeWhenACountRestarts()
    {
        rates.update(List.of(session(ALICE, 100, 40)));
        nowNs.addAndGet(1_000_000_000L);
        assertArrayEquals(new double[] { 0, 10 }, rates.update(List.of(session(ALICE, 5, 50))).get(ALICE), 1e-9);
    }

    private static SessionInfo session(final String token, final long in, final long out)
    {
        return new SessionInfo(token, "alice", "desk", "198.18.0.1", "connected", 1_700_000_000_000L, 0, in, out, 0,
            List.of(), 0, 0, 65_536);
    }
}
