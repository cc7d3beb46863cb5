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
package io.warpbus.bus;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReplayLogsTest
{
    private static final int WINDOW = 256 * 1024;

    @Test
    void shouldHandBackALogZeroedForTheNextReplayOfItsSize()
    {
        final ReplayLogs logs = new ReplayLogs();
        final ByteBuffer first = logs.take(WINDOW);
        assertEquals(WINDOW, first.capacity());
        final UnsafeBuffer written = new UnsafeBuffer(first);
        for (int i = 0; i < WINDOW; i += 8)
        {
            written.putLong(i, 0x0102030405060708L ^ i);
        }

        logs.give(first);
        assertSame(first, logs.take(WINDOW), "the kept log serves the next replay of its size");
        assertEquals(-1, firstNonZero(first), "a kept log is all zeroes again");
        assertEquals(0, logs.keptCount());
    }

    @Test
    void shouldMatchSizesExactly()
    {
        final ReplayLogs logs = new ReplayLogs();
        final ByteBuffer small = logs.take(WINDOW);
        logs.give(small);

        final ByteBuffer large = logs.take(2 * WINDOW);
        assertNotSame(small, large);
        assertEquals(2 * WINDOW, large.capacity());
        assertEquals(1, logs.keptCount(), "the smaller log stays for a replay of its size");
    }

    @Test
    void shouldKeepAtMostItsLimitInBytes()
    {
        final ReplayLogs logs = new ReplayLogs();
        final int fit = (int)(ReplayLogs.MAX_KEPT_BYTES / WINDOW);
        final List<ByteBuffer> given = new ArrayList<>();
        for (int i = 0; i < fit + 2; i++)
        {
            given.add(logs.take(WINDOW));
        }
        given.forEach(logs::give);
        assertEquals(fit, logs.keptCount());

        final ReplayLogs empty = new ReplayLogs();
        empty.give(ByteBuffer.allocateDirect((int)ReplayLogs.MAX_KEPT_BYTES + WINDOW));
        empty.prepare((int)ReplayLogs.MAX_KEPT_BYTES + WINDOW);
        assertEquals(0, empty.keptCount(), "a log larger than the limit is never kept");
    }

    @Test
    void shouldPrepareOneLogOfASizeOnce()
    {
        final ReplayLogs logs = new ReplayLogs();
        logs.prepare(ReplayLogs.windowFor(4 * 1024 * 1024));
        logs.prepare(ReplayLogs.windowFor(4 * 1024 * 1024));
        assertEquals(1, logs.keptCount());
        final ByteBuffer prepared = logs.take(8 * 1024 * 1024);
        assertEquals(-1, firstNonZero(prepared));
        assertEquals(0, logs.keptCount(), "the default 4 MiB ring's replay log is the prepared one: 8 MiB");
    }

    @Test
    void shouldSizeALogToServeTheRing()
    {
        assertEquals(64 * 1024, ReplayLogs.termFor(64 * 1024));
        assertEquals(256 * 1024, ReplayLogs.windowFor(64 * 1024), "at least four terms");
        assertEquals(512 * 1024, ReplayLogs.termFor(4 * 1024 * 1024), "terms up to the one of 64 KiB payloads");
        assertEquals(8 * 1024 * 1024, ReplayLogs.windowFor(4 * 1024 * 1024), "the ring and two terms, rounded up");
        for (int ring = 64 * 1024; ring <= 1 << 28; ring <<= 1)
        {
            final int window = ReplayLogs.windowFor(ring);
            assertTrue(window >= ring + 2L * ReplayLogs.termFor(ring) && Integer.bitCount(window) == 1,
                "window " + window + " for ring " + ring);
        }
    }

    private static int firstNonZero(final ByteBuffer log)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(log);
        for (int i = 0; i < log.capacity(); i++)
        {
            if (0 != buffer.getByte(i))
            {
                return i;
            }
        }
        return -1;
    }
}
