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
package io.warpbus.bench.bus;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The suite's directories: the shared WarpBus directory and each process's Aeron driver directory, named
 * {@code warpbus-bench-<kind>-<pid>} under {@code /dev/shm} (where Aeron keeps its own on Linux), else the temp
 * directory. Each process deletes its own on exit, even when killed with a signal, and the orchestrator deletes
 * those of processes that are gone (a run killed with {@code SIGKILL}), so that hundreds of megabytes of logs do not
 * pile up in memory.
 */
final class BenchDirectories
{
    private static final String PREFIX = "warpbus-bench-";

    private BenchDirectories()
    {
    }

    /**
     * A directory of this process.
     *
     * @param kind e.g. {@code bus} or {@code aeron-responder}.
     * @return {@code <base>/warpbus-bench-<kind>-<pid>}.
     */
    static Path of(final String kind)
    {
        final Path directory = base().resolve(PREFIX + kind + "-" + ProcessHandle.current().pid());
        Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(directory), "delete " + directory));
        return directory;
    }

    /**
     * Delete the directories of earlier runs whose process has gone.
     */
    static void sweepStale()
    {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(base(), PREFIX + "*"))
        {
            for (final Path entry : entries)
            {
                final String name = entry.getFileName().toString();
                final int dash = name.lastIndexOf('-');
                try
                {
                    final long pid = Long.parseLong(name.substring(dash + 1));
                    if (ProcessHandle.of(pid).map((p) -> !p.isAlive()).orElse(true))
                    {
                        deleteTree(entry);
                    }
                }
                catch (final NumberFormatException ignore)
                {
                    // Not one of ours.
                }
            }
        }
        catch (final IOException | UncheckedIOException ex)
        {
            System.err.println("bus suite: could not clean up old directories: " + ex.getMessage());
        }
    }

    /**
     * Delete a directory and everything in it, if it exists.
     *
     * @param directory the directory.
     */
    static void deleteTree(final Path directory)
    {
        if (!Files.exists(directory))
        {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory))
        {
            for (final Path path : paths.sorted(Comparator.reverseOrder()).toList())
            {
                Files.deleteIfExists(path);
            }
        }
        catch (final IOException | UncheckedIOException ex)
        {
            System.err.println("bus suite: could not delete " + directory + ": " + ex.getMessage());
        }
    }

    private static Path base()
    {
        final Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
    }
}
