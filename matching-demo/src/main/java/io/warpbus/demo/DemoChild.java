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

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One process of the demo: a JVM with the demo's own java, class path and JVM flags, standard error to
 * {@code logs/NAME.err}, standard output read line by line (kept in {@code logs/NAME.out}, its stats lines parsed),
 * and standard input held open as its life line: {@code stop} asks it to finish, and if the demo dies the child
 * reads the end of input and stops too. Each child runs in a session of its own (with {@code setsid}, where there is
 * one) so that Ctrl-C in the terminal reaches the demo alone, which then stops the children in order.
 */
final class DemoChild
{
    private static final Path SETSID = Path.of("/usr/bin/setsid");

    final String name;
    final Path stdout;
    final Path stderr;
    private final Process process;
    private final OutputStream stdin;
    private final Thread reader;
    private volatile String ready;
    private volatile String stopped;
    private volatile Map<String, String> stats = Map.of();

    private DemoChild(final String name, final Path stdout, final Path stderr, final Process process)
    {
        this.name = name;
        this.stdout = stdout;
        this.stderr = stderr;
        this.process = process;
        this.stdin = process.getOutputStream();
        this.reader = new Thread(this::read, name + "-output");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Start a child JVM running {@code mainClass} with {@code classpath}.
     */
    static DemoChild start(final String name, final Path logs, final String mainClass, final String classpath,
        final List<String> args)
    {
        final List<String> command = new ArrayList<>();
        if (Files.isExecutable(SETSID))
        {
            // A session of its own: Ctrl-C reaches only the demo, which stops its children in order.
            command.add(SETSID.toString());
        }
        command.addAll(javaCommand(classpath));
        command.add(mainClass);
        command.addAll(args);
        final Path stdout = logs.resolve(name + ".out");
        final Path stderr = logs.resolve(name + ".err");
        try
        {
            Files.createDirectories(logs);
            Files.writeString(logs.resolve(name + ".cmd"), String.join(" ", command) + "\n");
            final Process process = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
            return new DemoChild(name, stdout, stderr, process);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot start " + name + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * The java command of a child: the demo's own java and JVM flags (bar its heap size and agents), a heap of
     * 512 MiB, and a class path.
     *
     * @param classpath the class path.
     * @return the command up to the main class.
     */
    static List<String> javaCommand(final String classpath)
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (final String arg : ManagementFactory.getRuntimeMXBean().getInputArguments())
        {
            if (!arg.startsWith("-Xmx") && !arg.startsWith("-agentlib") && !arg.startsWith("-javaagent") &&
                !arg.startsWith("-D" + DemoMain.GATEWAY_CLASSPATH_PROPERTY + "="))
            {
                command.add(arg);
            }
        }
        command.add("-Xmx512m");
        command.add("-D" + DemoProcess.CHILD_PROP_NAME + "=true");
        command.add("-cp");
        command.add(classpath);
        return command;
    }

    String ready()
    {
        return ready;
    }

    String stopped()
    {
        return stopped;
    }

    Map<String, String> stats()
    {
        return stats;
    }

    long stat(final String key)
    {
        final String value = stats.get(key);
        if (null == value)
        {
            return 0;
        }
        try
        {
            return (long)Double.parseDouble(value);
        }
        catch (final NumberFormatException ex)
        {
            return 0;
        }
    }

    double rate(final String key)
    {
        final String value = stats.get(key);
        return null == value ? 0 : Double.parseDouble(value);
    }

    boolean isAlive()
    {
        return process.isAlive();
    }

    int exitValue()
    {
        return process.exitValue();
    }

    long pid()
    {
        return process.pid();
    }

    /**
     * Ask the child to finish.
     */
    void stop()
    {
        try
        {
            stdin.write("stop\n".getBytes(StandardCharsets.UTF_8));
            stdin.flush();
        }
        catch (final IOException ignore)
        {
            // Already gone: nothing to stop.
        }
    }

    /**
     * Wait for the child to exit; kill it if it does not in time.
     *
     * @return true if it exited by itself.
     */
    boolean awaitExit(final long timeoutMs) throws InterruptedException
    {
        final boolean exited = process.waitFor(timeoutMs, TimeUnit.MILLISECONDS);
        if (!exited)
        {
            process.destroyForcibly();
            process.waitFor(5, TimeUnit.SECONDS);
        }
        reader.join(2000);
        return exited;
    }

    /**
     * Kill the child now.
     */
    void kill()
    {
        process.destroyForcibly();
    }

    /**
     * The last lines of the child's standard error, for a failure message.
     */
    String errorTail()
    {
        try
        {
            final List<String> lines = Files.exists(stderr) ? Files.readAllLines(stderr) : List.of();
            return String.join("\n    ", lines.subList(Math.max(0, lines.size() - 10), lines.size()));
        }
        catch (final IOException ex)
        {
            return "(cannot read " + stderr + ")";
        }
    }

    private void read()
    {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
            StandardCharsets.UTF_8));
            BufferedWriter out = Files.newBufferedWriter(stdout, StandardCharsets.UTF_8))
        {
            String line;
            while (null != (line = in.readLine()))
            {
                out.write(line);
                out.newLine();
                out.flush();
                if (Stats.isStats(line))
                {
                    stats = Stats.parse(line);
                }
                else if (line.startsWith("READY "))
                {
                    ready = line;
                }
                else if (line.startsWith("STOPPED "))
                {
                    stopped = line;
                }
            }
        }
        catch (final IOException ignore)
        {
            // The child closed its output: it is exiting.
        }
    }
}
