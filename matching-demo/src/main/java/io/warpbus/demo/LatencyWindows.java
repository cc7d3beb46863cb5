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
package io.warpbus.demo;

import org.HdrHistogram.Histogram;

/**
 * The load client's order-to-report latency cut into what the demo prints: the interval since the last live line,
 * the warm-up, and the measured run after it. The client reports one histogram of everything since it started
 * (cumulative); each figure here is the difference of two of them, so the live lines' intervals and the warm-up
 * add up to exactly the run, and the summary's percentiles are over the same values as the lines after warm-up.
 */
final class LatencyWindows
{
    private final long startNs;
    private final long warmupNs;
    private String lastEncoded;
    private Histogram latest;
    private Histogram lastWindowEnd;
    private Histogram warmupEnd;
    private long warmupEndNs;

    /**
     * Windows for a run.
     *
     * @param startNs  when the load's measured run began (nanoTime).
     * @param warmupNs how long from then counts as warm-up.
     */
    LatencyWindows(final long startNs, final long warmupNs)
    {
        this.startNs = startNs;
        this.warmupNs = warmupNs;
    }

    /**
     * Take the client's latest cumulative histogram.
     *
     * @param encoded the client's {@code o2r_hist} field, or null before its first stats line.
     * @param nowNs   when it was read.
     */
    void observe(final String encoded, final long nowNs)
    {
        if (null == encoded || encoded.equals(lastEncoded))
        {
            return;
        }
        lastEncoded = encoded;
        latest = Stats.decodeHistogram(encoded);
        if (null == lastWindowEnd)
        {
            lastWindowEnd = empty(latest);
        }
        if (null == warmupEnd && nowNs - startNs >= warmupNs)
        {
            warmupEnd = latest.copy();
            warmupEndNs = nowNs;
        }
    }

    /**
     * The latencies recorded since the last call, for a live line.
     *
     * @return a histogram, empty before the first observation.
     */
    Histogram nextWindow()
    {
        if (null == latest)
        {
            return new Histogram(3);
        }
        final Histogram window = difference(latest, lastWindowEnd);
        lastWindowEnd = latest.copy();
        return window;
    }

    /**
     * Is the warm-up over (a histogram was taken at or after its end)?
     *
     * @return true once it is.
     */
    boolean warmedUp()
    {
        return null != warmupEnd;
    }

    /**
     * How long the warm-up lasted, to the observation that ended it.
     *
     * @param nowNs the time now, for a warm-up that has not ended.
     * @return nanoseconds; the whole run so far while it has not ended.
     */
    long warmupNs(final long nowNs)
    {
        return (null != warmupEnd ? warmupEndNs : nowNs) - startNs;
    }

    /**
     * The latencies of the warm-up (everything while it has not ended).
     *
     * @return a histogram.
     */
    Histogram warmup()
    {
        return null != warmupEnd ? warmupEnd.copy() : (null != latest ? latest.copy() : new Histogram(3));
    }

    /**
     * The latencies after the warm-up: the summary's.
     *
     * @return a histogram, empty while the warm-up has not ended.
     */
    Histogram measured()
    {
        return null != warmupEnd ? difference(latest, warmupEnd) : new Histogram(3);
    }

    private static Histogram difference(final Histogram later, final Histogram earlier)
    {
        final Histogram result = later.copy();
        result.subtract(earlier);
        return result;
    }

    private static Histogram empty(final Histogram like)
    {
        final Histogram empty = like.copy();
        empty.reset();
        return empty;
    }
}
