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

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The demo command itself, as a user runs it: a JVM running {@link DemoMain}, which starts the engine, the load
 * client and the market-data subscriber as JVMs of their own. A short run ends with a summary, a healthy verdict and
 * exit code 0, leaving no process behind; a demo killed with {@code kill -9} takes its children with it. Back-off
 * idle strategies throughout, loopback only.
 */
class DemoCommandTest
{
    private static final Pattern PIDS = Pattern.compile(
        "\\s*processes\\s+engine pid (\\d+), client pid (\\d+), md pid (\\d+)");

    @TempDir
    Path dir;

    @Test
    @Timeout(90)
    void shouldRunForItsDurationAndReportAHealthyExchange() throws Exception
    {
        final Path output = dir.resolve("demo.out");
        final Process demo = start(output, "--duration", "8", "--interval", "2");
        if (!demo.waitFor(75, TimeUnit.SECONDS))
        {
            demo.destroyForcibly();
            fail("the demo did not end within 75 s:\n" + read(output));
        }
        final String text = read(output);
        assertEquals(0, demo.exitValue(), text + logs());
        assertTrue(text.contains("web page         http://127.0.0.1:"), text);
        assertTrue(text.contains("metrics          http://127.0.0.1:"), text);
        assertTrue(text.contains("data directory   " + dir.resolve("data")), text);
        assertTrue(Pattern.compile("\\[\\s+\\d+s\\] orders/s\\s+[\\d,]+\\s+trades/s").matcher(text).find(),
            "live stats lines:\n" + text);
        assertTrue(text.contains("summary ("), text);
        assertTrue(Pattern.compile("trades\\s+[1-9][\\d,]* \\(").matcher(text).find(), "trades in the summary:\n" +
            text);
        assertTrue(text.contains(" 0 gaps"), text);
        assertTrue(text.contains("RESULT: HEALTHY"), text + logs());
        assertTrue(Files.exists(dir.resolve("data").resolve("logs").resolve("engine.out")), "engine log");
        for (final long pid : pids(text))
        {
            assertTrue(ProcessHandle.of(pid).map((p) -> !p.isAlive()).orElse(true), "process " + pid + " left");
        }
    }

    @Test
    @Timeout(90)
    void shouldTakeItsProcessesWithItWhenKilled() throws Exception
    {
        final Path output = dir.resolve("demo.out");
        final Process demo = start(output);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        List<Long> pids = List.of();
        while (pids.isEmpty())
        {
            if (!demo.isAlive() || System.nanoTime() - deadline > 0)
            {
                demo.destroyForcibly();
                fail("the demo did not start its processes:\n" + read(output));
            }
            Thread.sleep(100);
            pids = pids(read(output));
        }
        for (final long pid : pids)
        {
            assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "process " + pid + " runs");
        }

        demo.destroyForcibly();
        demo.waitFor(10, TimeUnit.SECONDS);
        final long gone = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        for (final long pid : pids)
        {
            while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
            {
                if (System.nanoTime() - gone > 0)
                {
                    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
                    fail("process " + pid + " outlived the demo by 20 s");
                }
                Thread.sleep(50);
            }
        }
    }

    private Process start(final Path output, final String... extra) throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.add("-Xmx256m");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(DemoMain.class.getName());
        command.addAll(List.of("--dir", dir.resolve("data").toString(), "--rate", "5000", "--instruments", "3",
            "--idle", "backoff", "--client-idle", "backoff", "--md-idle", "backoff"));
        command.addAll(List.of(extra));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
    }

    private static List<Long> pids(final String text)
    {
        final List<Long> pids = new ArrayList<>();
        for (final String line : text.split("\n"))
        {
            final Matcher matcher = PIDS.matcher(line);
            if (matcher.matches())
            {
                for (int i = 1; i <= 3; i++)
                {
                    pids.add(Long.parseLong(matcher.group(i)));
                }
            }
        }
        return pids;
    }

    /**
     * What the children wrote to their error logs, to explain an unhealthy run.
     */
    private String logs() throws IOException
    {
        final StringBuilder logs = new StringBuilder();
        for (final String child : List.of("engine", "client", "md"))
        {
            logs.append("\n--- ").append(child).append(".err ---\n")
                .append(read(dir.resolve("data").resolve("logs").resolve(child + ".err")));
        }
        return logs.toString();
    }

    private static String read(final Path file) throws IOException
    {
        return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    }
}
