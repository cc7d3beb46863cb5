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

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.warpbus.gateway.session.SessionInfo;
import org.agrona.concurrent.NanoClock;

/**
 * Each session's messages in and out per second since the previous listing, for the operations view. Intervals are
 * timed on a monotonic clock: a step of the host's wall clock (NTP) must not turn one listing's rates into nonsense.
 * Not thread-safe: {@link OperationsController} lists sessions under its own lock.
 */
final class SessionRates
{
    private final NanoClock clock;
    private Map<String, long[]> last = new HashMap<>();

    SessionRates(final NanoClock clock)
    {
        this.clock = clock;
    }

    /**
     * The rates of each session listed, by token, and remember its counts for the next call. A session not in the
     * previous listing has no interval yet: 0 in and out. A session no longer listed is forgotten.
     *
     * @param sessions the sessions listed now.
     * @return token to {messages in per second, messages out per second}.
     */
    Map<String, double[]> update(final List<SessionInfo> sessions)
    {
        final long nowNs = clock.nanoTime();
        final Map<String, long[]> counts = new HashMap<>();
        final Map<String, double[]> rates = new HashMap<>();
        for (final SessionInfo session : sessions)
        {
            final long[] previous = last.get(session.token());
            final double seconds = null == previous ? 0 : (nowNs - previous[0]) / 1e9;
            rates.put(session.token(), seconds > 0 ?
                new double[] { rate(session.messagesIn() - previous[1], seconds),
                    rate(session.messagesOut() - previous[2], seconds) } :
                new double[] { 0.0, 0.0 });
            counts.put(session.token(), new long[] { nowNs, session.messagesIn(), session.messagesOut() });
        }
        last = counts;
        return rates;
    }

    private static double rate(final long delta, final double seconds)
    {
        return Math.max(0, delta) / seconds;
    }
}
