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
package io.warpbus.journal;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import io.warpbus.testing.ChildProcess;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A child JVM appends as fast as it can and is killed with {@code kill -9} mid-stream, three times over the same
 * stream: every record stays readable and intact, none is half-written, the writer resumes from the last complete
 * record, and the stream has no hole and no duplicate.
 */
@Timeout(180)
class JournalCrashTest
{
    static final int MAX_PAYLOAD = 4096;
    private static final int STREAM = 3;

    @TempDir
    Path dir;

    /**
     * A payload of a length and content derived from the sequence, so a reader can tell a damaged record.
     */
    static int fill(final UnsafeBuffer buffer, final long sequence)
    {
        final int length = (int)((sequence * 2654435761L) % MAX_PAYLOAD) & ~7;
        for (int i = 0; i < length; i += 8)
        {
            buffer.putLong(i, sequence * 1_000_003L + i);
        }
        return length;
    }

    static boolean intact(final long sequence, final DirectBuffer buffer, final int offset, final int length)
    {
        if (length != ((int)((sequence * 2654435761L) % MAX_PAYLOAD) & ~7))
        {
            return false;
        }
        for (int i = 0; i < length; i += 8)
        {
            if (buffer.getLong(offset + i) != sequence * 1_000_003L + i)
            {
                return false;
            }
        }
        return true;
    }

    @Test
    void shouldKeepEveryCompleteRecordAndResumeAfterKillMinus9() throws Exception
    {
        long expectedResume = -1;
        for (int run = 0; run < 3; run++)
        {
            final ChildProcess child = start(run);
            try
            {
                final String resumed = awaitLine(child, "RESUMED ");
                assertEquals("RESUMED " + expectedResume, resumed, "run " + run + " resumed after the last record");
                awaitLine(child, "APPENDED " + (20_000 * (run + 1)));
            }
            finally
            {
                child.kill();
            }
            assertEquals(137, child.awaitExit(30_000, child::dump), "killed by SIGKILL, not finished");
            expectedResume = verify(run);
        }
    }

    @Test
    void shouldNeverReturnAHalfWrittenRecord() throws Exception
    {
        final ChildProcess child = start(0, "half");
        assertEquals("HALTING 1000", awaitLine(child, "HALTING "));
        child.awaitExit(30_000, child::dump);
        assertEquals(999, verify(0, 1000), "the half-written record 1000 is not returned");
        try (Journal journal = Journal.open(new JournalContext().directory(dir.resolve("journal"))
            .rollCycle("FAST_DAILY")))
        {
            final JournalWriter writer = journal.writer(STREAM);
            final UnsafeBuffer payload = new UnsafeBuffer(new byte[MAX_PAYLOAD]);
            for (long sequence = 1000; sequence < 1010; sequence++)
            {
                writer.append(sequence, 7, 0, sequence, sequence, payload, 0, fill(payload, sequence));
            }
        }
        assertEquals(1009, verify(0, 1010), "appending resumes at lastSequence + 1 over the abandoned document");
    }

    /**
     * Every record intact, sequences contiguous from 0, and the writer's recovered last sequence equal to the last
     * record read.
     */
    private long verify(final int run)
    {
        return verify(run, 20_000L * (run + 1));
    }

    private long verify(final int run, final long atLeast)
    {
        try (Journal journal = Journal.open(new JournalContext().directory(dir.resolve("journal"))
            .rollCycle("FAST_DAILY")))
        {
            final long[] next = { 0 };
            final List<String> problems = new ArrayList<>();
            final JournalReader reader = journal.reader(STREAM);
            int polled;
            do
            {
                polled = reader.poll((sequence, sessionId, flags, publisherNs, receiveNs, buffer, offset, length) ->
                {
                    if (sequence != next[0] && problems.size() < 5)
                    {
                        problems.add("expected sequence " + next[0] + ", read " + sequence);
                    }
                    if (!intact(sequence, buffer, offset, length) && problems.size() < 5)
                    {
                        problems.add("record " + sequence + " is damaged (length " + length + ")");
                    }
                    next[0] = sequence + 1;
                }, 1000);
            }
            while (polled > 0);
            assertEquals(List.of(), problems, "run " + run);
            final long last = next[0] - 1;
            assertTrue(last >= atLeast - 1, "run " + run + " kept what it reported: " + last);
            try (JournalWriter writer = journal.writer(STREAM))
            {
                assertEquals(last, writer.lastSequence(), "run " + run + ": recovered last sequence");
            }
            assertEquals(last, journal.info(STREAM).lastSequence());
            assertEquals(last + 1, journal.info(STREAM).recordCount());
            return last;
        }
    }

    private ChildProcess start(final int run, final String... extra)
    {
        final List<String> args = new ArrayList<>(List.of(dir.resolve("journal").toString(), Integer.toString(STREAM),
            "60"));
        args.addAll(List.of(extra));
        return ChildProcess.start("child-" + run, dir, List.of("-Xmx256m"), JournalAppendMain.class.getName(), args);
    }

    private static String awaitLine(final ChildProcess child, final String prefix) throws InterruptedException
    {
        return child.await(Pattern.compile(Pattern.quote(prefix) + ".*"), 60_000, child::dump).group();
    }
}
