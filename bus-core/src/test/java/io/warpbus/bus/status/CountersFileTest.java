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
package io.warpbus.bus.status;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class CountersFileTest
{
    private static final int MAX_COUNTERS = 16;
    private static final int ERROR_LOG_LENGTH = 64 * 1024;
    private static final long FILE_LENGTH = 128 + MAX_COUNTERS * 512 + MAX_COUNTERS * 128 + ERROR_LOG_LENGTH;

    @TempDir
    Path dir;

    @Test
    void shouldWriteTheDocumentedHeaderLayout() throws IOException
    {
        final long before = System.currentTimeMillis();
        try (CountersFile owner = CountersFile.create(dir, MAX_COUNTERS, ERROR_LOG_LENGTH))
        {
            owner.heartbeat(1_234_567L);
            final Path file = dir.resolve("counters.dat");
            assertEquals(file, owner.file());
            assertEquals(FILE_LENGTH, Files.size(file));

            final ByteBuffer header = readBytes(file, 0, 128);
            assertEquals(0x5742434E, header.getInt(0), "magic");
            assertEquals(1, header.getInt(4), "layout version");
            assertEquals(128, header.getInt(8), "header length");
            assertEquals(MAX_COUNTERS * 512, header.getInt(12), "counters metadata length");
            assertEquals(MAX_COUNTERS * 128, header.getInt(16), "counters values length");
            assertEquals(ERROR_LOG_LENGTH, header.getInt(20), "error log length");
            assertEquals(ProcessHandle.current().pid(), header.getLong(24), "pid");
            final long start = header.getLong(32);
            assertTrue(start >= before && start <= System.currentTimeMillis(), "start timestamp " + start);
            assertEquals(1, header.getInt(40), "owner state: active");
            assertEquals(1_234_567L, header.getLong(64), "heartbeat");
        }
        assertEquals(2, readBytes(dir.resolve("counters.dat"), 0, 128).getInt(40), "owner state: closed");
    }

    @Test
    void shouldRoundTripCountersErrorsAndHeaderFromOwnerToReader()
    {
        try (CountersFile owner = CountersFile.create(dir, MAX_COUNTERS, ERROR_LOG_LENGTH))
        {
            final CountersManager manager = owner.countersManager();
            final AtomicCounter first = manager.newCounter("first counter", 7);
            final AtomicCounter second = manager.newCounter("second counter", 8);
            first.set(42);
            second.set(-5);
            owner.heartbeat(99_000L);
            assertTrue(owner.errorLog().record(new IllegalArgumentException("round trip error")));

            try (CountersFile reader = CountersFile.mapExisting(dir))
            {
                assertFalse(reader.isOwner());
                assertTrue(owner.isOwner());
                assertEquals(ProcessHandle.current().pid(), reader.pid());
                assertEquals(owner.startTimestampMs(), reader.startTimestampMs());
                assertEquals(99_000L, reader.heartbeatTimestampMs());
                assertEquals(MAX_COUNTERS, reader.maxCounters());
                assertEquals(ERROR_LOG_LENGTH, reader.errorLogLength());
                assertFalse(reader.isOwnerClosed());

                final CountersReader counters = reader.countersReader();
                assertEquals(42, counters.getCounterValue(first.id()));
                assertEquals("first counter", counters.getCounterLabel(first.id()));
                assertEquals(7, counters.getCounterTypeId(first.id()));
                assertEquals(-5, counters.getCounterValue(second.id()));
                assertEquals("second counter", counters.getCounterLabel(second.id()));
                assertEquals(8, counters.getCounterTypeId(second.id()));

                first.increment();
                owner.heartbeat(99_100L);
                assertEquals(43, counters.getCounterValue(first.id()), "the mapping is shared");
                assertEquals(99_100L, reader.heartbeatTimestampMs());

                final List<String> errors = new ArrayList<>();
                final int count = reader.readErrors((observations, firstMs, lastMs, text) -> errors.add(text));
                assertEquals(1, count);
                assertTrue(errors.get(0).startsWith("java.lang.IllegalArgumentException: round trip error"),
                    errors.get(0));
                assertSame(owner.countersManager(), owner.countersReader());
            }
        }
    }

    /**
     * The delay before a freed counter is reused is elapsed time, measured on the monotonic clock: on the wall
     * clock, a step back (NTP, a VM restored from a snapshot) kept freed counters unusable for as long as the step
     * and every new publication failed for want of counters (seen in CI).
     */
    @Test
    void shouldTimeTheReuseOfAFreedCounterOnTheMonotonicClock()
    {
        try (CountersFile owner = CountersFile.create(dir, MAX_COUNTERS, ERROR_LOG_LENGTH))
        {
            final CountersManager manager = owner.countersManager();
            final AtomicCounter counter = manager.newCounter("freed", 7);
            final long beforeMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime());
            counter.close();
            final long afterMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime());

            final long deadlineMs = manager.getFreeForReuseDeadline(counter.id());
            assertTrue(deadlineMs >= beforeMs + CountersFile.COUNTER_FREE_TO_REUSE_TIMEOUT_MS &&
                deadlineMs <= afterMs + CountersFile.COUNTER_FREE_TO_REUSE_TIMEOUT_MS,
                "deadline " + deadlineMs + " ms is not a second after the free on the monotonic clock (" + beforeMs +
                "-" + afterMs + " ms); the wall clock reads " + System.currentTimeMillis() + " ms");
            assertTrue(manager.newCounter("taken while the freed one waits", 7).id() != counter.id(),
                "a freed counter waits out its delay");
        }
    }

    @Test
    void shouldRefuseOwnerOperationsOnAReadersMapping()
    {
        try (CountersFile owner = CountersFile.create(dir, MAX_COUNTERS, ERROR_LOG_LENGTH);
            CountersFile reader = CountersFile.mapExisting(dir))
        {
            assertTrue(owner.isOwner());
            assertMessageContains(assertThrows(IllegalStateException.class, reader::countersManager), "read-only");
            assertMessageContains(assertThrows(IllegalStateException.class, reader::errorLog), "read-only");
            assertMessageContains(assertThrows(IllegalStateException.class, () -> reader.heartbeat(1)), "read-only");
            assertMessageContains(assertThrows(IllegalStateException.class, reader::closeAndDelete), "read-only");
        }
    }

    @Test
    void shouldRejectBadMagicNamingTheFile() throws IOException
    {
        final Path file = dir.resolve("counters.dat");
        final ByteBuffer bytes = ByteBuffer.allocate(4096).order(ByteOrder.nativeOrder());
        bytes.putInt(0, 0xCAFEBABE);
        Files.write(file, bytes.array());

        final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> CountersFile.mapExisting(dir));
        assertMessageContains(ex, file.toString());
        assertMessageContains(ex, "bad magic 0xcafebabe");
    }

    @Test
    void shouldRejectAFileShorterThanTheHeader() throws IOException
    {
        final Path file = dir.resolve("counters.dat");
        Files.write(file, new byte[10]);

        final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> CountersFile.mapExisting(dir));
        assertMessageContains(ex, file.toString());
        assertMessageContains(ex, "truncated: 10 bytes");
    }

    @Test
    void shouldRejectAFileShorterThanItsSections() throws IOException
    {
        CountersFile.create(dir, MAX_COUNTERS, ERROR_LOG_LENGTH).close();
        final Path file = dir.resolve("counters.dat");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE))
        {
            channel.truncate(1000);
        }

        final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> CountersFile.mapExisting(dir));
        assertMessageContains(ex, file.toString());
        assertMessageContains(ex, "truncated: 1000 bytes, the header describes " + FILE_LENGTH);
    }

    @Test
    void shouldRejectAnUnknownLayoutVersion() throws IOException
    {
        CountersFile.create(dir, MAX_COUNTERS, ERROR_LOG_LENGTH).close();
        final Path file = dir.resolve("counters.dat");
        patchInt(file, 4, 99);

        final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> CountersFile.mapExisting(dir));
        assertMessageContains(ex, file.toString());
        assertMessageContains(ex, "layout version 99, this reader understands version 1");
    }

    @Test
    void shouldRejectInconsistentSectionLengths() throws IOException
    {
        CountersFile.create(dir, MAX_COUNTERS, ERROR_LOG_LENGTH).close();
        final Path file = dir.resolve("counters.dat");
        patchInt(file, 16, 100);

        final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> CountersFile.mapExisting(dir));
        assertMessageContains(ex, file.toString());
        assertMessageContains(ex, "inconsistent counters lengths");
    }

    @Test
    void shouldRejectAFileThatIsNotInitialised() throws IOException
    {
        final Path file = dir.resolve("counters.dat");
        Files.write(file, new byte[(int)FILE_LENGTH]);

        final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> CountersFile.mapExisting(dir));
        assertMessageContains(ex, file.toString());
        assertMessageContains(ex, "not initialised");
    }

    @Test
    void shouldNameTheMissingDirectoryOrFile() throws IOException
    {
        final Path missingDir = dir.resolve("nowhere");
        final IllegalStateException noDir = assertThrows(
            IllegalStateException.class, () -> CountersFile.mapExisting(missingDir));
        assertMessageContains(noDir, "no counters directory " + missingDir);

        final Path emptyDir = Files.createDirectory(dir.resolve("empty"));
        final IllegalStateException noFile = assertThrows(
            IllegalStateException.class, () -> CountersFile.mapExisting(emptyDir));
        assertMessageContains(noFile, "no counters file " + emptyDir.resolve("counters.dat"));
    }

    @Test
    void shouldRefuseToReplaceTheFileOfARunningOwner()
    {
        final CountersFile first = CountersFile.create(dir, MAX_COUNTERS, ERROR_LOG_LENGTH);
        try
        {
            final IllegalStateException ex = assertThrows(
                IllegalStateException.class, () -> CountersFile.create(dir, MAX_COUNTERS, ERROR_LOG_LENGTH));
            assertMessageContains(ex, dir.resolve("counters.dat").toString());
            assertMessageContains(ex, "in use by pid " + ProcessHandle.current().pid());
        }
        finally
        {
            first.close();
        }

        try (CountersFile second = CountersFile.create(dir, MAX_COUNTERS, ERROR_LOG_LENGTH))
        {
            assertFalse(second.isOwnerClosed(), "a closed owner's file is replaced");
        }
    }

    /**
     * A running owner whose heartbeats read an hour behind this clock, as they do for a moment after the host's clock
     * steps forward: its file is not taken over, because its heartbeat is seen changing.
     */
    @Test
    void shouldRefuseToReplaceTheFileOfARunningOwnerWhoseClockIsBehind() throws InterruptedException
    {
        final AtomicBoolean beating = new AtomicBoolean(true);
        try (CountersFile owner = CountersFile.create(dir, MAX_COUNTERS, ERROR_LOG_LENGTH))
        {
            owner.heartbeat(System.currentTimeMillis() - TimeUnit.HOURS.toMillis(1));
            final Thread beater = new Thread(() ->
            {
                while (beating.get())
                {
                    owner.heartbeat(System.currentTimeMillis() - TimeUnit.HOURS.toMillis(1));
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
                }
            });
            beater.start();
            try
            {
                final IllegalStateException ex = assertThrows(
                    IllegalStateException.class, () -> CountersFile.create(dir, MAX_COUNTERS, ERROR_LOG_LENGTH));
                assertMessageContains(ex, "in use by pid " + ProcessHandle.current().pid());
                assertMessageContains(ex, "heartbeat still changing");
            }
            finally
            {
                beating.set(false);
                beater.join(5_000);
            }
            assertFalse(owner.isOwnerClosed());
        }
    }

    @Test
    void shouldReplaceTheFileOfAnOwnerWhoseHeartbeatIsStale()
    {
        try (CountersFile stuck = CountersFile.create(dir, MAX_COUNTERS, ERROR_LOG_LENGTH))
        {
            stuck.countersManager().newCounter("old", 1).set(77);
            stuck.heartbeat(System.currentTimeMillis() - 60_000);
            try (CountersFile replacement = CountersFile.create(dir, MAX_COUNTERS, ERROR_LOG_LENGTH);
                CountersFile reader = CountersFile.mapExisting(dir))
            {
                replacement.countersManager().newCounter("new", 1).set(88);
                assertEquals(88, reader.countersReader().getCounterValue(0));
                assertEquals(77, stuck.countersReader().getCounterValue(0), "the old mapping is left alone");
            }
        }
    }

    @Test
    void shouldReportLiveness()
    {
        final CountersFile owner = CountersFile.create(dir, MAX_COUNTERS, ERROR_LOG_LENGTH);
        try (CountersFile reader = CountersFile.mapExisting(dir))
        {
            final long nowMs = System.currentTimeMillis();
            owner.heartbeat(nowMs);
            assertTrue(reader.isAlive(nowMs + 100));
            assertEquals(100, reader.heartbeatAgeMs(nowMs + 100));

            owner.heartbeat(nowMs - 10_000);
            assertFalse(reader.isAlive(nowMs));
            assertTrue(reader.isAlive(nowMs, 20_000));
            assertEquals(10_000, reader.heartbeatAgeMs(nowMs));

            owner.heartbeat(nowMs);
            owner.close();
            assertTrue(reader.isOwnerClosed());
            assertFalse(reader.isAlive(nowMs), "a closed owner is not alive whatever its heartbeat");
        }
        finally
        {
            owner.close();
        }
    }

    @Test
    void shouldDeleteTheFileOnlyWhenAsked()
    {
        final Path file = dir.resolve("counters.dat");
        final CountersFile kept = CountersFile.create(dir, MAX_COUNTERS, ERROR_LOG_LENGTH);
        kept.close();
        kept.close();
        assertTrue(kept.isClosed());
        assertTrue(Files.exists(file));
        assertMessageContains(assertThrows(IllegalStateException.class, kept::countersReader), "closed");
        assertMessageContains(assertThrows(IllegalStateException.class, kept::pid), "closed");

        final CountersFile deleted = CountersFile.create(dir, MAX_COUNTERS, ERROR_LOG_LENGTH);
        deleted.closeAndDelete();
        assertFalse(Files.exists(file));
    }

    @Test
    void shouldUseTheDefaultSizes()
    {
        try (CountersFile owner = CountersFile.create(dir))
        {
            assertEquals(1024, owner.maxCounters());
            assertEquals(1024 * 1024, owner.errorLogLength());
            assertEquals(1024, owner.countersManager().capacity());
        }
    }

    @Test
    void shouldRejectBadSizes()
    {
        assertThrows(IllegalArgumentException.class, () -> CountersFile.create(dir, 0, ERROR_LOG_LENGTH));
        assertThrows(IllegalArgumentException.class, () -> CountersFile.create(dir, 1024 * 1024 + 1, 4096));
        assertThrows(IllegalArgumentException.class, () -> CountersFile.create(dir, 16, 512));
        assertThrows(IllegalArgumentException.class, () -> CountersFile.create(dir, 16, 4096 + 8));
        assertFalse(Files.exists(dir.resolve("counters.dat")));
    }

    static void patchInt(final Path file, final int offset, final int value) throws IOException
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE))
        {
            final ByteBuffer bytes = ByteBuffer.allocate(4).order(ByteOrder.nativeOrder()).putInt(0, value);
            channel.write(bytes, offset);
        }
    }

    static void patchLong(final Path file, final int offset, final long value) throws IOException
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE))
        {
            final ByteBuffer bytes = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder()).putLong(0, value);
            channel.write(bytes, offset);
        }
    }

    private static ByteBuffer readBytes(final Path file, final int offset, final int length) throws IOException
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            final ByteBuffer bytes = ByteBuffer.allocate(length).order(ByteOrder.nativeOrder());
            while (bytes.hasRemaining() && channel.read(bytes, offset + bytes.position()) > 0)
            {
                // keep reading
            }
            return bytes;
        }
    }

    private static void assertMessageContains(final Throwable ex, final String expected)
    {
        assertTrue(ex.getMessage().contains(expected), "'" + ex.getMessage() + "' should contain '" + expected + "'");
    }
}
