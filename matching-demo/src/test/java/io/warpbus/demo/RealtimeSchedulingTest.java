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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.warpbus.demo.client.LoadClientMain;
import io.warpbus.testing.Await;
import io.warpbus.testing.ChildJvm;
import io.warpbus.testing.FreePorts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

@Timeout(60)
class RealtimeSchedulingTest
{
    private static final Pattern REALTIME = Pattern.compile("REALTIME client tid=(\\d+) policy=SCHED_FIFO " +
        "priority=1 after_s=2");
    private static final String ROOT = "setting a SCHED_FIFO priority needs root or CAP_SYS_NICE, as CI runs";

    @TempDir
    Path dir;
    private Process child;

    @AfterEach
    void after() throws InterruptedException
    {
        if (null != child)
        {
            child.destroyForcibly();
            child.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void shouldReadPolicyAndPriorityAfterTheLastParenthesisOfTheCommandName()
    {
        final StringBuilder fields = new StringBuilder();
        for (int field = 3; field <= 52; field++)
        {
            fields.append(' ').append(40 == field ? "7" : 41 == field ? "1" : field == 3 ? "S" : "100" + field);
        }
        assertArrayEquals(new int[] { 1, 7 }, RealtimeScheduling.parseStat("4242 (a) b (c d)" + fields + "\n"));
        assertArrayEquals(new int[] { 1, 7 }, RealtimeScheduling.parseStat("4242 (load-client)" + fields));
    }

    @Test
    void shouldReadTheNormalPolicyOfThisThreadAsTheKernelReportsIt() throws Exception
    {
        final long tid = RealtimeScheduling.currentTid();
        assertTrue(Files.isDirectory(Path.of("/proc/self/task/" + tid)), "no thread " + tid + " in this process");
        assertArrayEquals(new int[] { RealtimeScheduling.SCHED_OTHER, 0 }, RealtimeScheduling.scheduling(tid));
        assertTrue(chrt(tid).contains("policy: SCHED_OTHER"), chrt(tid));
    }

    @Test
    void shouldNameTheLineThatIsNotAStatLine()
    {
        for (final String line : List.of("", "4242 (x) S 1 2 3", "4242 x S", "4242 (a) " + "1 ".repeat(37) + "z y"))
        {
            final IllegalArgumentException ex =
                assertThrows(IllegalArgumentException.class, () -> RealtimeScheduling.parseStat(line));
            assertTrue(ex.getMessage().startsWith("not a /proc stat line with a policy field: '"), ex.getMessage());
        }
        final Random random = new Random(7);
        final String real = "4242 (java) S" + " 1".repeat(49);
        for (int i = 0; i < 2_000; i++)
        {
            final char[] mutated = real.toCharArray();
            for (int flips = 1 + random.nextInt(4); flips > 0; flips--)
            {
                mutated[random.nextInt(mutated.length)] = (char)(' ' + random.nextInt(95));
            }
            try
            {
                final int[] parsed = RealtimeScheduling.parseStat(new String(mutated));
                assertEquals(2, parsed.length);
            }
            catch (final IllegalArgumentException ex)
            {
                assertTrue(ex.getMessage().contains(new String(mutated).trim()), ex.getMessage());
            }
        }
    }

    @Test
    void shouldSayWhatAPriorityMustBe()
    {
        assertEquals(1, RealtimeScheduling.priority(" 1"));
        assertEquals(99, RealtimeScheduling.priority("99"));
        assertEquals("--realtime 0: a SCHED_FIFO priority is 1 to 99",
            assertThrows(IllegalArgumentException.class, () -> RealtimeScheduling.priority("0")).getMessage());
        assertEquals("--realtime 100: a SCHED_FIFO priority is 1 to 99",
            assertThrows(IllegalArgumentException.class, () -> RealtimeScheduling.priority("100")).getMessage());
        assertEquals("--realtime on: expected off or a SCHED_FIFO priority, 1 to 99",
            assertThrows(IllegalArgumentException.class, () -> RealtimeScheduling.priority("on")).getMessage());
    }

    @Test
    void shouldRaiseAThreadOfThisProcessAndFindItAtFifoFromOutside() throws Exception
    {
        assumeTrue(mayRaise(), ROOT);
        final AtomicLong tid = new AtomicLong();
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final Thread thread = new Thread(() ->
        {
            tid.set(RealtimeScheduling.currentTid());
            started.countDown();
            try
            {
                release.await(30, TimeUnit.SECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }, "to-raise");
        thread.start();
        try
        {
            assertTrue(started.await(10, TimeUnit.SECONDS));
            RealtimeScheduling.raise(tid.get(), 3);
            final String reported = chrt(tid.get());
            assertTrue(reported.contains("policy: SCHED_FIFO") && reported.contains("priority: 3"), reported);
        }
        finally
        {
            release.countDown();
            thread.join(10_000);
        }
    }

    @Test
    void shouldSayWhichCommandFailedAndWhy()
    {
        final long noSuchThread = 999_999_999L;
        final IllegalStateException ex =
            assertThrows(IllegalStateException.class, () -> RealtimeScheduling.raise(noSuchThread, 1));
        assertTrue(ex.getMessage().startsWith("'chrt -f -p 1 999999999' exited 1: "), ex.getMessage());
        assertTrue(ex.getMessage().endsWith("(a real-time priority needs root or CAP_SYS_NICE)"), ex.getMessage());
    }

    @Test
    void shouldRaiseTheLoadClientsDutyCycleThreadOnlyAfterItsDelay() throws Exception
    {
        assumeTrue(mayRaise(), ROOT);
        final Path out = dir.resolve("client.out");
        final int port = FreePorts.loopback();
        child = ChildJvm.of(LoadClientMain.class).jvmFlags("-Xmx128m")
            .args("--order-entry", "warp:iwarp?endpoint=127.0.0.1:" + port + "|stream=1001",
                "--execution-reports", "warp:iwarp?endpoint=127.0.0.1:" + port + "|stream=1002",
                "--dir", dir.resolve("bus").toString(), "--rate", "100", "--idle", "park-50",
                "--realtime", "1", "--realtime-after", "2", "--stats-interval-ms", "500")
            .processBuilder().redirectErrorStream(true).redirectOutput(out.toFile()).start();
        awaitLine(out, Pattern.compile("READY client .*"));
        final Path task = Path.of("/proc/" + child.pid() + "/task");
        final long dutyCycle = threadNamed(task, "load-client");
        assertArrayEquals(new int[] { RealtimeScheduling.SCHED_OTHER, 0 }, stat(task, dutyCycle),
            "raised before --realtime-after");

        final Matcher realtime = awaitLine(out, REALTIME);
        assertEquals(dutyCycle, Long.parseLong(realtime.group(1)));
        assertArrayEquals(new int[] { RealtimeScheduling.SCHED_FIFO, 1 }, stat(task, dutyCycle));
        try (Stream<Path> threads = Files.list(task))
        {
            final long others = threads.map((path) -> Long.parseLong(path.getFileName().toString()))
                .filter((tid) -> tid != dutyCycle)
                .filter((tid) -> stat(task, tid)[0] != RealtimeScheduling.SCHED_OTHER)
                .count();
            assertEquals(0, others, "only the duty-cycle thread is raised");
        }
    }

    @Test
    void shouldRefuseABadPriorityAsAUsageError() throws Exception
    {
        child = ChildJvm.of(LoadClientMain.class).jvmFlags("-Xmx64m")
            .args("--order-entry", "x", "--execution-reports", "y", "--realtime", "fifo")
            .processBuilder().redirectErrorStream(true).start();
        assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        final String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(DemoProcess.EXIT_USAGE, child.exitValue(), output);
        assertTrue(output.contains("client: --realtime fifo: expected off or a SCHED_FIFO priority, 1 to 99"), output);
    }

    private static boolean mayRaise()
    {
        return null == RealtimeScheduling.refusal(1);
    }

    private static String chrt(final long tid) throws IOException, InterruptedException
    {
        final Process chrt = new ProcessBuilder("chrt", "-p", String.valueOf(tid)).redirectErrorStream(true).start();
        assertTrue(chrt.waitFor(10, TimeUnit.SECONDS));
        return new String(chrt.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }

    private static int[] stat(final Path task, final long tid)
    {
        try
        {
            return RealtimeScheduling.parseStat(Files.readString(task.resolve(tid + "/stat")));
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot read thread " + tid + "'s stat", ex);
        }
    }

    private static long threadNamed(final Path task, final String name) throws IOException
    {
        try (Stream<Path> threads = Files.list(task))
        {
            return threads.filter((path) -> name.equals(comm(path)))
                .mapToLong((path) -> Long.parseLong(path.getFileName().toString()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no thread named " + name + " in " + task));
        }
    }

    private static String comm(final Path thread)
    {
        try
        {
            return Files.readString(thread.resolve("comm")).trim();
        }
        catch (final IOException ex)
        {
            return "";
        }
    }

    private Matcher awaitLine(final Path out, final Pattern pattern)
    {
        final Matcher[] found = new Matcher[1];
        Await.until(() -> "a line matching " + pattern + " from the client:\n" + read(out), 30_000,
            () -> Await.sleep(20), () ->
            {
                for (final String line : read(out).split("\n"))
                {
                    final Matcher matcher = pattern.matcher(line);
                    if (matcher.matches())
                    {
                        found[0] = matcher;
                        return true;
                    }
                }
                return !child.isAlive();
            });
        assertTrue(null != found[0], "the client exited without a line matching " + pattern + ":\n" + read(out));
        return found[0];
    }

    private static String read(final Path out)
    {
        try
        {
            return Files.exists(out) ? Files.readString(out) : "";
        }
        catch (final IOException ex)
        {
            return "cannot read " + out + ": " + ex;
        }
    }
}
