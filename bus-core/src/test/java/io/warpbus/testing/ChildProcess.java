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
package io.warpbus.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.warpbus.bus.BusConfiguration;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * A JVM started by a multi-process test (command line from {@link ChildJvm}: same java, class path, WarpBus JVM
 * flags and {@code -D} properties as the test's own JVM), standard output and error captured to files (read back for
 * waits and for failure messages), standard input kept open as the control channel (closing it tells the child the
 * test is gone).
 */
public final class ChildProcess implements AutoCloseable
{
    private static final int DUMP_LINES = 80;

    private final String name;
    private final Path stdout;
    private final Path stderr;
    private final Process process;
    private final OutputStream stdin;
    private final long startedNs = System.nanoTime();

    private ChildProcess(final String name, final Path stdout, final Path stderr, final Process process)
    {
        this.name = name;
        this.stdout = stdout;
        this.stderr = stderr;
        this.process = process;
        this.stdin = process.getOutputStream();
    }

    /**
     * Start {@code mainClass} with {@code args}, with extra JVM flags (system properties) before the class name.
     *
     * @param name         for files and messages.
     * @param logDirectory where its output goes.
     * @param jvmFlags     more JVM flags.
     * @param mainClass    the class to run.
     * @param args         its arguments.
     * @return the started process.
     */
    public static ChildProcess start(
        final String name, final Path logDirectory, final List<String> jvmFlags, final String mainClass,
        final List<String> args)
    {
        final List<String> command = ChildJvm.of(mainClass).jvmFlags("-Xmx512m").jvmFlags(jvmFlags).args(args)
            .command();
        final Path stdout = logDirectory.resolve(name + ".out");
        final Path stderr = logDirectory.resolve(name + ".err");
        try
        {
            Files.createDirectories(logDirectory);
            final Process process = new ProcessBuilder(command)
                .redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile())
                .start();
            return new ChildProcess(name, stdout, stderr, process);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot start " + name + ": " + command, ex);
        }
    }

    /**
     * JVM flags that put a child's buses (counters files, IPC rings) under the test's own directory, not under the
     * default one that every run of the test would otherwise leave them in.
     *
     * @param directory the test's directory.
     * @return the flags.
     */
    public static List<String> buses(final Path directory)
    {
        return List.of("-D" + BusConfiguration.DIR_PROP_NAME + "=" + directory.resolve("buses"));
    }

    /**
     * Lines printed so far.
     */
    public List<String> lines()
    {
        try
        {
            return Files.exists(stdout) ? Files.readAllLines(stdout, StandardCharsets.UTF_8) : List.of();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Lines printed so far that match.
     */
    public List<Matcher> matches(final Pattern pattern)
    {
        final List<Matcher> found = new ArrayList<>();
        for (final String line : lines())
        {
            final Matcher matcher = pattern.matcher(line);
            if (matcher.matches())
            {
                found.add(matcher);
            }
        }
        return found;
    }

    /**
     * Wait for a line matching {@code pattern} after the first {@code skip} matching lines.
     *
     * @return the match.
     */
    public Matcher await(final Pattern pattern, final int skip, final long timeoutMs, final Evidence evidence)
        throws InterruptedException
    {
        final List<Matcher> found = new ArrayList<>();
        final BooleanSupplier printedOrExited = () ->
        {
            final boolean exited = !process.isAlive();
            found.clear();
            found.addAll(matches(pattern));
            if (found.size() > skip || exited)
            {
                return true;
            }
            Await.sleep(20);
            return false;
        };
        Await.until(() -> name + " to print a line matching '" + pattern + "'" + evidence.dump(), timeoutMs,
            () -> { }, printedOrExited);
        if (found.size() <= skip)
        {
            fail(name + " exited with " + process.exitValue() + " before printing a line matching '" + pattern +
                "'" + evidence.dump());
        }
        return found.get(skip);
    }

    public Matcher await(final Pattern pattern, final long timeoutMs, final Evidence evidence)
        throws InterruptedException
    {
        return await(pattern, 0, timeoutMs, evidence);
    }

    /**
     * Send a control line.
     */
    public void send(final String line)
    {
        try
        {
            stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            stdin.flush();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write to " + name, ex);
        }
    }

    /**
     * Wait for the process to exit.
     *
     * @return the exit code.
     */
    public int awaitExit(final long timeoutMs, final Evidence evidence) throws InterruptedException
    {
        if (!process.waitFor(timeoutMs, TimeUnit.MILLISECONDS))
        {
            fail(name + " did not exit within " + timeoutMs + " ms" + evidence.dump());
        }
        return process.exitValue();
    }

    public boolean isAlive()
    {
        return process.isAlive();
    }

    public long pid()
    {
        return process.pid();
    }

    /**
     * kill -9, and wait until it is gone.
     */
    public void kill() throws InterruptedException
    {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    /**
     * The process's name.
     *
     * @return the name.
     */
    public String name()
    {
        return name;
    }

    /**
     * The file its standard output goes to.
     *
     * @return the path.
     */
    public Path stdout()
    {
        return stdout;
    }

    @Override
    public void close()
    {
        process.destroyForcibly();
        try
        {
            process.waitFor(10, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The tail of its output, for a failure message.
     */
    public String dump()
    {
        final StringBuilder builder = new StringBuilder();
        builder.append("\n---- ").append(name).append(" (pid ").append(process.pid()).append(", ")
            .append(process.isAlive() ? "alive" : "exit " + process.exitValue()).append(", up ")
            .append(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNs)).append(" ms) stdout ")
            .append(stdout).append(" ----\n");
        tail(builder, stdout);
        builder.append("---- ").append(name).append(" stderr ----\n");
        tail(builder, stderr);
        return builder.toString();
    }

    private static void tail(final StringBuilder builder, final Path file)
    {
        try
        {
            final List<String> lines = Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) :
                List.of();
            if (lines.size() > DUMP_LINES)
            {
                builder.append("... ").append(lines.size() - DUMP_LINES).append(" lines before ...\n");
            }
            for (final String line : lines.subList(Math.max(0, lines.size() - DUMP_LINES), lines.size()))
            {
                builder.append(line).append('\n');
            }
        }
        catch (final IOException ex)
        {
            builder.append("(cannot read ").append(file).append(": ").append(ex.getMessage()).append(")\n");
        }
    }

    /**
     * Everything a failure message should show: the output of every child of the test.
     */
    public interface Evidence
    {
        /**
         * The dump.
         *
         * @return text to append to a failure message.
         */
        String dump();
    }
}
