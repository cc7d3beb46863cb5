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

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;

import io.warpbus.bus.protocol.RingDescriptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One mapping of a publisher's log per process, known by the file's identity, counted by its holders.
 */
@Timeout(30)
class IpcLogMappingsTest
{
    private static final int WINDOW = 64 * 1024;

    @TempDir
    Path dir;

    @Test
    void shouldShareAMappingUntilItsLastHolderLetsGo() throws IOException
    {
        final Path log = createLog("log-1-1.dat", (byte)7);
        final IpcLogMappings.Mapping first = IpcLogMappings.acquire(log, WINDOW);
        final IpcLogMappings.Mapping second = IpcLogMappings.acquire(log, WINDOW);
        assertSame(first, second);
        assertEquals(1, mappingsOf(log));
        first.release();
        assertEquals(1, mappingsOf(log), "still held once");
        assertEquals(7, second.buffer().get(WINDOW - 1));
        second.release();
        assertEquals(0, mappingsOf(log), "unmapped with its last holder");
        final IllegalStateException extra = assertThrows(IllegalStateException.class, second::release);
        assertTrue(extra.getMessage().contains("released more often than acquired"), extra.getMessage());
    }

    @Test
    void shouldNotServeANewFileUnderTheSameNameFromTheOldOnesMapping() throws IOException
    {
        final Path log = createLog("log-2-5.dat", (byte)1);
        final IpcLogMappings.Mapping old = IpcLogMappings.acquire(log, WINDOW);
        // The old publisher's process is gone; a new one with its pid and session writes a new log.
        Files.delete(log);
        createLog("log-2-5.dat", (byte)2);
        final IpcLogMappings.Mapping fresh = IpcLogMappings.acquire(log, WINDOW);
        try
        {
            assertNotSame(old, fresh);
            assertEquals(1, old.buffer().get(0), "the old mapping still shows the old file");
            assertEquals(2, fresh.buffer().get(0), "the new file's content");
        }
        finally
        {
            old.release();
            fresh.release();
        }
    }

    @Test
    void shouldNameAFileThatIsMissingOrDoesNotMatchItsDeclaredWindow() throws IOException
    {
        final Path missing = dir.resolve("log-3-1.dat");
        final BusException gone = assertThrows(BusException.class, () -> IpcLogMappings.acquire(missing, WINDOW));
        assertTrue(gone.getMessage().contains("cannot map publication log " + missing), gone.getMessage());

        final Path log = createLog("log-3-2.dat", (byte)0);
        final BusException size = assertThrows(BusException.class, () -> IpcLogMappings.acquire(log, 2 * WINDOW));
        assertTrue(size.getMessage().contains("publication log " + log + " holds"), size.getMessage());

        final IpcLogMappings.Mapping held = IpcLogMappings.acquire(log, WINDOW);
        try
        {
            final BusException other = assertThrows(BusException.class, () -> IpcLogMappings.acquire(log, WINDOW / 2));
            assertTrue(other.getMessage().contains("is mapped here with a window of " + WINDOW + " bytes, but its " +
                "publisher now declares " + WINDOW / 2), other.getMessage());
        }
        finally
        {
            held.release();
        }
        assertEquals(0, mappingsOf(log), "a refused acquire holds nothing");
    }

    @Test
    void shouldLeaveAMappingNobodyReleasedToTheGarbageCollector() throws Exception
    {
        // A bus closed without its subscriptions' last duty cycles never releases their mappings.
        final Path log = createLog("log-4-1.dat", (byte)3);
        acquireAndDrop(log);
        assertEquals(1, mappingsOf(log));
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (mappingsOf(log) > 0 && System.nanoTime() < deadline)
        {
            System.gc();
            Thread.sleep(20);
        }
        assertEquals(0, mappingsOf(log), "unmapped once nothing referred to it");
        final IpcLogMappings.Mapping again = IpcLogMappings.acquire(log, WINDOW);
        assertEquals(3, again.buffer().get(0), "mapped afresh");
        again.release();
    }

    private static void acquireAndDrop(final Path log)
    {
        IpcLogMappings.acquire(log, WINDOW);
    }

    private Path createLog(final String name, final byte fill) throws IOException
    {
        final Path file = dir.resolve(name);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"))
        {
            final byte[] bytes = new byte[WINDOW + RingDescriptor.LOG_TRAILER_LENGTH];
            java.util.Arrays.fill(bytes, fill);
            raf.write(bytes);
        }
        return file;
    }

    private static long mappingsOf(final Path file) throws IOException
    {
        final String name = file.toRealPath().toString();
        return Files.readAllLines(Path.of("/proc/self/maps")).stream()
            .filter((line) -> line.endsWith(" " + name) || line.endsWith(" " + name + " (deleted)")).count();
    }
}
