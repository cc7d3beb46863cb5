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

import java.util.Map;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The demo's latency figures are differences of the client's cumulative histograms: intervals and warm-up must add
 * up to the whole, and the summary must leave the warm-up out.
 */
class LatencyWindowsTest
{
    private static final long S = 1_000_000_000L;

    private final Histogram cumulative = new Histogram(60_000_000_000L, 3);

    @Test
    void shouldCutTheCumulativeHistogramIntoWarmupWindowsAndTheMeasuredRun()
    {
        final LatencyWindows windows = new LatencyWindows(0, 5 * S);
        // Warm-up: 1,000 slow reports in the first seconds.
        record(1_000, 200_000_000L);
        windows.observe(encode(), 1 * S);
        assertFalse(windows.warmedUp());
        final Histogram first = windows.nextWindow();
        assertEquals(1_000, first.getTotalCount());

        record(500, 100_000_000L);
        windows.observe(encode(), 5 * S);
        assertTrue(windows.warmedUp());
        assertEquals(5 * S, windows.warmupNs(9 * S));

        // After the warm-up: fast reports only.
        record(10_000, 40_000L);
        windows.observe(encode(), 6 * S);
        final Histogram second = windows.nextWindow();
        assertEquals(10_500, second.getTotalCount(), "the interval since the first line");
        record(20_000, 30_000L);
        windows.observe(encode(), 7 * S);
        windows.observe(encode(), 7 * S + 50_000_000L);
        final Histogram third = windows.nextWindow();
        assertEquals(20_000, third.getTotalCount(), "an unchanged line is not counted twice");
        assertEquals(30_000L, third.getValueAtPercentile(99), 30);

        final Histogram measured = windows.measured();
        final Histogram warmup = windows.warmup();
        assertEquals(30_000, measured.getTotalCount());
        assertEquals(1_500, warmup.getTotalCount());
        assertEquals(cumulative.getTotalCount(), measured.getTotalCount() + warmup.getTotalCount());
        assertEquals(first.getTotalCount() + second.getTotalCount() + third.getTotalCount(),
            measured.getTotalCount() + warmup.getTotalCount(), "the live lines add up to warm-up plus summary");
        assertTrue(measured.getValueAtPercentile(99.9) < 50_000L, "no warm-up value in the summary: " +
            measured.getValueAtPercentile(99.9));
        assertTrue(warmup.getValueAtPercentile(50) >= 100_000_000L);
    }

    @Test
    void shouldReportTheWholeRunAsWarmupWhenItEndsFirst()
    {
        final LatencyWindows windows = new LatencyWindows(0, 5 * S);
        record(100, 1_000_000L);
        windows.observe(encode(), 2 * S);
        assertFalse(windows.warmedUp());
        assertEquals(0, windows.measured().getTotalCount());
        assertEquals(100, windows.warmup().getTotalCount());
        assertEquals(3 * S, windows.warmupNs(3 * S));
    }

    @Test
    void shouldGiveEmptyFiguresBeforeTheClientsFirstLine()
    {
        final LatencyWindows windows = new LatencyWindows(0, 0);
        windows.observe(null, S);
        assertEquals(0, windows.nextWindow().getTotalCount());
        assertEquals(0, windows.warmup().getTotalCount());
        assertFalse(windows.warmedUp());
    }

    @Test
    void shouldCarryAHistogramThroughAStatsLine()
    {
        record(1_234, 56_789L);
        final String line = new Stats().begin("client").add("sent", 7).addEncoded("o2r_hist", cumulative).toString();
        final Map<String, String> fields = Stats.parse(line);
        assertEquals("7", fields.get("sent"));
        final Histogram decoded = Stats.decodeHistogram(fields.get("o2r_hist"));
        assertEquals(cumulative, decoded);
    }

    @Test
    void shouldNameAFieldThatIsNoHistogram()
    {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Stats.decodeHistogram("bm90IGEgaGlzdG9ncmFt"))
            .getMessage().startsWith("not an encoded histogram"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Stats.decodeHistogram("%%%"))
            .getMessage().startsWith("not an encoded histogram"));
    }

    private void record(final int count, final long valueNs)
    {
        cumulative.recordValueWithCount(valueNs, count);
    }

    private String encode()
    {
        return Stats.parse(new Stats().begin("client").addEncoded("h", cumulative).toString()).get("h");
    }
}
