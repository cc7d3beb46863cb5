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

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class JournalBadInputTest
{
    @TempDir
    Path dir;

    private JournalContext context()
    {
        return new JournalContext().directory(dir.resolve("journal")).rollCycle("MINUTELY");
    }

    /**
     * Two streams, the first over three cycle files (minutes 0, 1, 2 of a hand-moved clock), 100 records each.
     */
    private Path[] recordThreeCycles()
    {
        final long[] nowMs = { 1_700_000_000_000L - 1_700_000_000_000L % 60_000 };
        try (Journal journal = Journal.open(context().epochClock(() -> nowMs[0])))
        {
            final JournalWriter writer = journal.writer(1);
            final JournalWriter other = journal.writer(2);
            for (int cycle = 0; cycle < 3; cycle++)
            {
                JournalTest.appendRange(writer, cycle * 100, cycle * 100 + 100);
                JournalTest.appendRange(other, cycle * 100, cycle * 100 + 100);
                nowMs[0] += 60_000;
            }
            final List<JournalCycleInfo> cycles = journal.info(1).cycles();
            assertEquals(3, cycles.size(), cycles.toString());
            return cycles.stream().map(JournalCycleInfo::file).toArray(Path[]::new);
        }
    }

    @Test
    void shouldReportATruncatedCycleFileAndReadTheRecordsBeforeIt() throws IOException
    {
        final Path[] files = recordThreeCycles();
        try (RandomAccessFile file = new RandomAccessFile(files[2].toFile(), "rw"))
        {
            file.setLength(5000);
        }
        try (Journal journal = Journal.open(context()))
        {
            final JournalStreamInfo info = journal.info(1);
            assertEquals("stream 1: cycle file " + files[2] + " is truncated: 5000 bytes is not a whole number of " +
                "4096-byte pages", info.damage());
            assertEquals(200, info.recordCount());
            assertEquals(199, info.lastSequence());
            final JournalReader reader = journal.reader(1);
            assertEquals(info.damage(), reader.damage());
            final List<long[]> records = JournalTest.readAll(reader);
            assertEquals(200, records.size(), "records of the cycles before the damage");
            assertEquals(199, records.get(199)[0]);
            final JournalException refused = assertThrows(JournalException.class, () -> journal.writer(1));
            assertEquals(info.damage() + ": refusing to append to a damaged stream", refused.getMessage());

            assertNull(journal.info(2).damage(), "the other stream is unaffected");
            assertEquals(300, JournalTest.readAll(journal.reader(2)).size());
            JournalTest.appendRange(journal.writer(2), 300, 310);
        }
        assertEquals(5000, Files.size(files[2]), "nothing extended or repaired the damaged file");
    }

    @ParameterizedTest
    @ValueSource(ints = { 0, 4096, 65536 })
    void shouldSetAsideANewestCycleFileThatWasNeverWritten(final int size) throws IOException
    {
        final Path[] files = recordThreeCycles();
        // What a crash while Chronicle was creating the next cycle leaves: a file with nothing in it.
        final Path unfinished = files[2].resolveSibling("99991231-2359.cq4");
        try (RandomAccessFile file = new RandomAccessFile(unfinished.toFile(), "rw"))
        {
            file.setLength(size);
        }
        try (Journal journal = Journal.open(context()))
        {
            final JournalStreamInfo info = journal.info(1);
            assertNull(info.damage(), "an unfinished file is not damage");
            assertEquals(300, JournalTest.readAll(journal.reader(1)).size());
            JournalTest.appendRange(journal.writer(1), 300, 310);
            assertEquals(310, JournalTest.readAll(journal.reader(1)).size());
        }
        assertTrue(Files.notExists(unfinished), "moved aside");
        try (java.util.stream.Stream<Path> aside = Files.list(unfinished.getParent()))
        {
            assertEquals(1, aside.filter((f) -> f.getFileName().toString().startsWith("99991231-2359.cq4.unfinished-"))
                .count(), "kept, renamed, for a look");
        }
    }

    @Test
    void shouldReportACorruptCycleFile() throws IOException
    {
        final Path[] files = recordThreeCycles();
        try (RandomAccessFile file = new RandomAccessFile(files[1].toFile(), "rw"))
        {
            file.writeInt(0x12345678);
        }
        try (Journal journal = Journal.open(context()))
        {
            final JournalStreamInfo info = journal.info(1);
            assertTrue(info.damage().startsWith("stream 1: cycle file " + files[1] + " is corrupt: it does not " +
                "start with a Chronicle queue header"), info.damage());
            assertEquals(100, JournalTest.readAll(journal.reader(1)).size());
            assertEquals(-1, info.cycles().get(1).recordCount());
            assertEquals(300, journal.info(2).recordCount());
        }
    }

    @Test
    void shouldReadNothingWhenTheFirstCycleFileIsDamaged() throws IOException
    {
        final Path[] files = recordThreeCycles();
        Files.write(files[0], new byte[100]);
        try (Journal journal = Journal.open(context()))
        {
            final JournalReader reader = journal.reader(1);
            assertTrue(reader.damage().contains(files[0].toString()), reader.damage());
            assertEquals(0, JournalTest.readAll(reader).size());
            assertEquals(-1, reader.lastSequence());
            assertEquals(-1, reader.seekToSequence(5));
        }
    }

    @Test
    void shouldNameAMissingDirectoryWhenReadOnly()
    {
        final Path missing = dir.resolve("nowhere");
        final JournalException error = assertThrows(JournalException.class,
            () -> Journal.open(new JournalContext().directory(missing).readOnly(true)));
        assertEquals("journal directory " + missing + " does not exist", error.getMessage());
    }

    @Test
    void shouldCreateAMissingDirectoryForWriting()
    {
        final Path missing = dir.resolve("a/b/journal");
        try (Journal journal = Journal.open(new JournalContext().directory(missing)))
        {
            JournalTest.appendRange(journal.writer(9), 0, 3);
        }
        assertTrue(Files.isDirectory(missing.resolve("stream-9")));
    }

    @Test
    void shouldRefuseToWriteInAReadOnlyJournal()
    {
        recordThreeCycles();
        try (Journal journal = Journal.open(context().readOnly(true)))
        {
            final JournalException error = assertThrows(JournalException.class, () -> journal.writer(1));
            assertEquals("stream 1: the journal " + dir.resolve("journal") + " is open read-only", error.getMessage());
            assertEquals(300, JournalTest.readAll(journal.reader(1)).size());
            assertEquals(0, journal.applyRetention());
        }
    }

    @Test
    void shouldNameAReadOnlyDirectory() throws Exception
    {
        final Path journalDir = Files.createDirectories(dir.resolve("journal"));
        makeReadOnly(journalDir, true);
        try
        {
            final JournalException error = assertThrows(JournalException.class, () -> Journal.open(context()));
            assertTrue(error.getMessage().startsWith("journal directory " + journalDir + " is read-only"),
                error.getMessage());
        }
        finally
        {
            makeReadOnly(journalDir, false);
        }
    }

    @Test
    void shouldNameTheBadSetting()
    {
        final IllegalArgumentException cycle = assertThrows(IllegalArgumentException.class,
            () -> Journal.open(new JournalContext().directory(dir).rollCycle("FORTNIGHTLY")));
        assertTrue(cycle.getMessage().startsWith("warpbus.journal.roll.cycle 'FORTNIGHTLY' is not a roll cycle; " +
            "known: "), cycle.getMessage());
        final IllegalArgumentException retention = assertThrows(IllegalArgumentException.class,
            () -> Journal.open(new JournalContext().directory(dir).retentionCycles(-2)));
        assertEquals("warpbus.journal.retention.cycles must be 0 (keep all) or more, not -2", retention.getMessage());
    }

    /**
     * Root ignores permission bits, so as root the directory is made immutable instead.
     */
    private static void makeReadOnly(final Path directory, final boolean readOnly) throws Exception
    {
        if ("root".equals(System.getProperty("user.name")))
        {
            final Process chattr = new ProcessBuilder("chattr", readOnly ? "+i" : "-i", directory.toString())
                .redirectErrorStream(true).start();
            assertTrue(chattr.waitFor(10, TimeUnit.SECONDS));
            assertEquals(0, chattr.exitValue(), "chattr: " + new String(chattr.getInputStream().readAllBytes()));
        }
        else
        {
            assertTrue(directory.toFile().setWritable(!readOnly, false));
        }
    }
}
