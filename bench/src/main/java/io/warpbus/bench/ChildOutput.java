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
package io.warpbus.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The standard output of a benchmark's child process, read to its end on a daemon thread for as long as the child
 * runs. A child whose output nobody reads blocks once the pipe is full (64 KiB on Linux): a JVM flag that prints,
 * such as {@code -XX:+PrintInlining} passed through {@code JAVA_OPTS}, would otherwise hang the benchmark. Lines are
 * copied to a stream of the parent's, or dropped; the first that carries the start marker is handed to
 * {@link #awaitMarker}, which waits a bounded time. The marker may follow other text on its line, since a JVM's own
 * printing can interleave with the child's.
 */
public final class ChildOutput
{
    /** How long a responder may take to start: a JVM, its bus and an embedded Aeron driver on a busy machine. */
    public static final long STARTUP_TIMEOUT_S = 120;

    private final Process process;
    private final String marker;
    private final CompletableFuture<String> markerLine = new CompletableFuture<>();

    private ChildOutput(final Process process, final String marker)
    {
        this.process = process;
        this.marker = marker;
    }

    /**
     * Start reading a child's standard output.
     *
     * @param process the child.
     * @param name    the thread's name.
     * @param marker  what the child prints once it is ready, e.g. {@code "READY "}.
     * @param copy    where other lines go, or null to drop them.
     * @return the reader.
     */
    public static ChildOutput follow(final Process process, final String name, final String marker,
        final PrintStream copy)
    {
        final ChildOutput output = new ChildOutput(process, marker);
        final Thread reader = new Thread(() -> output.read(copy), name);
        reader.setDaemon(true);
        reader.start();
        return output;
    }

    private void read(final PrintStream copy)
    {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
            StandardCharsets.UTF_8)))
        {
            String line;
            while (null != (line = lines.readLine()))
            {
                final int at = line.indexOf(marker);
                if (at >= 0 && !markerLine.isDone())
                {
                    markerLine.complete(line.substring(at));
                }
                else if (null != copy)
                {
                    copy.println(line);
                }
            }
        }
        catch (final IOException ex)
        {
            // The pipe broke with the child: the wait below reports how it ended.
        }
        markerLine.complete(null);
    }

    /**
     * Wait for the start marker.
     *
     * @param timeoutS how long the child may take to start.
     * @return the marker's line from the marker on.
     * @throws IllegalStateException when the child ended or stayed silent for the whole wait.
     * @throws InterruptedException  when interrupted.
     */
    public String awaitMarker(final long timeoutS) throws InterruptedException
    {
        final String line;
        try
        {
            line = markerLine.get(timeoutS, TimeUnit.SECONDS);
        }
        catch (final TimeoutException ex)
        {
            throw new IllegalStateException("the child process (pid " + process.pid() + ") did not print '" +
                marker.trim() + "' within " + timeoutS + " s", ex);
        }
        catch (final ExecutionException ex)
        {
            throw new IllegalStateException("reading the child process's output failed", ex.getCause());
        }
        if (null == line)
        {
            process.waitFor(5, TimeUnit.SECONDS);
            throw new IllegalStateException("the child process (pid " + process.pid() + ") ended before printing '" +
                marker.trim() + "'" + (process.isAlive() ? "" : " (exit code " + process.exitValue() + ")"));
        }
        return line;
    }
}
