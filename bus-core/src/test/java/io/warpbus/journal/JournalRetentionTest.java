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

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.warpbus.testing.Await;
import net.openhft.chronicle.core.io.BackgroundResourceReleaser;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Retention deletes old cycle files while readers tail the stream, under a hand-moved clock and a one-minute roll
 * cycle, so many cycles pass in a second.
 */
@Timeout(60)
class JournalRetentionTest
{
    private static final int STREAM = 4;
    private static final int CYCLES = 12;
    private static final int PER_CYCLE = 200;

    @TempDir
    Path dir;
    private final AtomicLong nowMs = new AtomicLong(1_700_000_000_000L - 1_700_000_000_000L % 60_000);

    private JournalContext context(final int keepCycles)
    {
        return new JournalContext().directory(dir).rollCycle("MINUTELY").retentionCycles(keepCycles)
            .epochClock(nowMs::get);
    }

    @Test
    void shouldKeepTheNewestCyclesWhileATailerFollows() throws Exception
    {
        try (Journal journal = Journal.open(context(3)))
        {
            final JournalWriter writer = journal.writer(STREAM);
            final JournalReader follower = journal.reader(STREAM);
            final AtomicBoolean running = new AtomicBoolean(true);
            final AtomicReference<Throwable> failure = new AtomicReference<>();
            final AtomicLong lastSeen = new AtomicLong(-1);
            final AtomicLong outOfOrder = new AtomicLong();
            final Thread tailer = new Thread(() ->
            {
                final IdleStrategy idle = new BackoffIdleStrategy();
                try
                {
                    while (running.get() || lastSeen.get() < CYCLES * PER_CYCLE - 1)
                    {
                        idle.idle(follower.poll((sequence, s, f, p, r, b, o, l) ->
                        {
                            if (sequence <= lastSeen.get())
                            {
                                outOfOrder.incrementAndGet();
                            }
                            lastSeen.set(sequence);
                        }, 7));
                        if (Thread.currentThread().isInterrupted())
                        {
                            return;
                        }
                    }
                }
                catch (final Throwable ex)
                {
                    failure.set(ex);
                }
            }, "journal-tailer");
            tailer.start();
            for (int cycle = 0; cycle < CYCLES; cycle++)
            {
                JournalTest.appendRange(writer, (long)cycle * PER_CYCLE, (long)cycle * PER_CYCLE + PER_CYCLE);
                nowMs.addAndGet(60_000);
                assertTrue(cycleFiles().size() <= 3, "at most 3 cycles kept: " + cycleFiles());
            }
            running.set(false);
            tailer.join(TimeUnit.SECONDS.toMillis(30));
            if (tailer.isAlive())
            {
                tailer.interrupt();
                fail("the tailer did not reach the last record: it saw " + lastSeen.get());
            }
            assertNull(failure.get(), () -> "the tailer failed: " + failure.get());
            assertEquals(CYCLES * PER_CYCLE - 1, lastSeen.get());
            assertEquals(0, outOfOrder.get());
            assertEquals(3, cycleFiles().size());
            final JournalStreamInfo info = journal.info(STREAM);
            assertEquals((CYCLES - 3) * PER_CYCLE, info.firstSequence());
            assertEquals(3 * PER_CYCLE, info.recordCount());
        }
    }

    @Test
    void shouldSkipCyclesDeletedBeforeAReaderReachesThemAndFinishTheOneItIsIn()
    {
        try (Journal journal = Journal.open(context(2));
            Journal elsewhere = Journal.open(context(0).readOnly(true)))
        {
            final JournalWriter writer = journal.writer(STREAM);
            JournalTest.appendRange(writer, 0, PER_CYCLE);
            final JournalReader inFirstCycle = journal.reader(STREAM);
            final JournalReader otherQueue = elsewhere.reader(STREAM);
            final List<Long> read = new ArrayList<>();
            final List<Long> readElsewhere = new ArrayList<>();
            inFirstCycle.poll((sequence, s, f, p, r, b, o, l) -> read.add(sequence), 10);
            otherQueue.poll((sequence, s, f, p, r, b, o, l) -> readElsewhere.add(sequence), 10);
            for (int cycle = 1; cycle < 6; cycle++)
            {
                nowMs.addAndGet(60_000);
                JournalTest.appendRange(writer, (long)cycle * PER_CYCLE, (long)cycle * PER_CYCLE + PER_CYCLE);
            }
            assertEquals(2, cycleFiles().size());
            for (final Object[] r : new Object[][] { { inFirstCycle, read }, { otherQueue, readElsewhere } })
            {
                @SuppressWarnings("unchecked") final List<Long> into = (List<Long>)r[1];
                while (((JournalReader)r[0]).poll((sequence, s, f, p, rc, b, o, l) -> into.add(sequence), 50) > 0)
                {
                    assertTrue(into.size() <= 6 * PER_CYCLE);
                }
                assertEquals(PER_CYCLE + 2 * PER_CYCLE, into.size(), "the rest of its own cycle, then the 2 kept");
                assertEquals(PER_CYCLE - 1, into.get(PER_CYCLE - 1), "its deleted cycle read to the end");
                assertEquals(4L * PER_CYCLE, into.get(PER_CYCLE), "then the oldest cycle kept");
                assertEquals(6L * PER_CYCLE - 1, into.get(into.size() - 1));
            }

            final JournalException gone = org.junit.jupiter.api.Assertions.assertThrows(JournalException.class,
                () -> journal.reader(STREAM).seekToSequence(10));
            assertTrue(gone.getMessage().startsWith("stream 4: sequence 10 is before the first record retained " +
                "(sequence 800 in "), gone.getMessage());
        }
    }

    @Test
    void shouldReleaseTheFileHandlesOfDeletedCyclesAndOnClose() throws Exception
    {
        try (Journal journal = Journal.open(context(2)))
        {
            final JournalWriter writer = journal.writer(STREAM);
            final JournalReader reader = journal.reader(STREAM);
            for (int cycle = 0; cycle < 8; cycle++)
            {
                JournalTest.appendRange(writer, (long)cycle * PER_CYCLE, (long)cycle * PER_CYCLE + PER_CYCLE);
                while (reader.poll((sequence, s, f, p, r, b, o, l) -> { }, 100) > 0)
                {
                    Thread.onSpinWait();
                }
                nowMs.addAndGet(60_000);
            }
            awaitFds((fds) -> fds.stream().noneMatch((fd) -> fd.endsWith("(deleted)")),
                "no handle on a deleted cycle file");
            final List<String> open = journalFds();
            assertTrue(open.size() <= 6, "a bounded number of handles while open: " + open);
        }
        awaitFds(List::isEmpty, "no handle into the journal after close");
    }

    private List<Path> cycleFiles()
    {
        return JournalStream.cycleFiles(dir.resolve("stream-" + STREAM));
    }

    private void awaitFds(final java.util.function.Predicate<List<String>> condition, final String what)
        throws InterruptedException
    {
        final List<String> fds = new ArrayList<>();
        Await.until(() -> what + ": " + fds, 10_000, () ->
        {
            fds.clear();
            fds.addAll(journalFds());
        }, () ->
        {
            if (condition.test(fds))
            {
                return true;
            }
            BackgroundResourceReleaser.releasePendingResources();
            Await.sleep(10);
            return false;
        });
    }

    /**
     * The targets of this process's open file descriptors that lie in the journal directory.
     */
    private List<String> journalFds()
    {
        final List<String> fds = new ArrayList<>();
        final File[] entries = new File("/proc/self/fd").listFiles();
        if (null == entries)
        {
            fail("no /proc/self/fd");
        }
        final String prefix = dir.toAbsolutePath().toString();
        for (final File entry : entries)
        {
            try
            {
                final String target = Files.readSymbolicLink(entry.toPath()).toString();
                if (target.startsWith(prefix))
                {
                    fds.add(target);
                }
            }
            catch (final IOException ex)
            {
                // Closed while listing.
            }
        }
        return fds;
    }
}
