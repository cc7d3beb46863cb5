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
package io.warpbus.tools;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.warpbus.bus.status.CountersFile;
import io.warpbus.bus.status.CountersFilePatch;
import io.warpbus.bus.status.RecordingErrorHandler;
import io.warpbus.bus.status.StreamCounters;
import io.warpbus.bus.status.SystemCounterDescriptor;
import io.warpbus.bus.status.SystemCounters;
import io.warpbus.testing.Await;
import io.warpbus.testing.ChildJvm;
import org.agrona.concurrent.status.AtomicCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(120)
class StatToolTest
{
    private static final Pattern COUNTER_LINE = Pattern.compile("^ *(\\d+): +(-?\\d+) - (.*)$");
    private static final long CHILD_TIMEOUT_S = 30;

    @TempDir
    Path dir;

    private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();

    @Test
    void shouldPrintUsageAndExitWith2OnBadArguments()
    {
        assertUsage(new String[0], "--dir DIR is required");
        assertUsage(new String[] { "--dir" }, "--dir needs a value");
        assertUsage(new String[] { "--dir", "x", "--bogus" }, "unknown option '--bogus'");
        assertUsage(new String[] { "--dir", "x", "--count", "many" }, "--count needs a number: 'many'");
        assertUsage(new String[] { "--dir", "x", "--count", "-1" }, "--count must be 0 (forever) or more");
        assertUsage(new String[] { "--dir", "x", "--interval", "0" }, "--interval must be positive");
        assertUsage(new String[] { "--dir", "x", "--filter", "(" }, "bad --filter regex '('");
    }

    @Test
    void shouldPrintHelp()
    {
        assertEquals(0, run("--help"));
        assertTrue(out().startsWith("usage: warpbus stat --dir DIR"), out());
    }

    @Test
    void shouldNameAMissingDirectory()
    {
        final Path missing = dir.resolve("no-such-bus");
        assertEquals(1, run("--dir", missing.toString(), "--count", "1"));
        assertTrue(err().contains("no counters directory " + missing), err());
        assertEquals("", out());
    }

    @Test
    void shouldNameAMissingFile()
    {
        assertEquals(1, run("--dir", dir.toString(), "--count", "1"));
        assertTrue(err().contains("no counters file " + dir.resolve("counters.dat")), err());
    }

    @Test
    void shouldNameAnInvalidFile() throws IOException
    {
        final Path file = dir.resolve("counters.dat");
        Files.write(file, "this is not a counters file, but it is long enough to hold a header ........................"
            .repeat(4).getBytes(StandardCharsets.US_ASCII));
        assertEquals(1, run("--dir", dir.toString(), "--errors"));
        assertTrue(err().contains("invalid counters file " + file + ": bad magic"), err());
    }

    @Test
    void shouldPrintEveryCounterInEachSnapshot()
    {
        try (CountersFile owner = CountersFile.create(dir, 32, 64 * 1024))
        {
            final SystemCounters systemCounters = new SystemCounters(owner.countersManager());
            systemCounters.get(SystemCounterDescriptor.BYTES_RECEIVED).set(1_000_000_007L);
            final AtomicCounter lag = StreamCounters.subscriberLag(
                owner.countersManager(), 1, 1001, 42, 9, "10.0.0.9:51000");
            lag.set(-3);
            owner.heartbeat(System.currentTimeMillis());

            assertEquals(0, run("--dir", dir.toString(), "--count", "2", "--interval", "10"));
            final List<String> lines = out().lines().toList();
            assertEquals(2 * (1 + SystemCounterDescriptor.values().length + 1), lines.size(), out());
            assertHeader(lines.get(0), ProcessHandle.current().pid(), "alive");
            assertEquals("   1:           1000000007 - Bytes received", lines.get(2));
            assertEquals(
                "  14:                   -3 - sub-lag: stream=1001 session=42 subscriber=9 name=10.0.0.9:51000",
                lines.get(15));
            assertHeader(lines.get(16), ProcessHandle.current().pid(), "alive");
            assertEquals("", err());
        }
    }

    @Test
    void shouldFilterCountersByLabel()
    {
        try (CountersFile owner = CountersFile.create(dir, 32, 64 * 1024))
        {
            new SystemCounters(owner.countersManager());
            StreamCounters.publisherPosition(owner.countersManager(), 1, 1001, 42, "10.0.0.5:40456").set(64);
            StreamCounters.publisherLimit(owner.countersManager(), 1, 1001, 42, "10.0.0.5:40456").set(128);

            assertEquals(0, run("--dir", dir.toString(), "--count", "1", "--filter", "^pub-|Errors"));
            final Map<String, Long> counters = counters(out());
            assertEquals(Map.of(
                "Errors", 0L,
                "pub-pos: stream=1001 session=42 endpoint=10.0.0.5:40456", 64L,
                "pub-lmt: stream=1001 session=42 endpoint=10.0.0.5:40456", 128L), counters);
        }
    }

    @Test
    void shouldReportAStaleHeartbeat()
    {
        try (CountersFile owner = CountersFile.create(dir, 32, 64 * 1024))
        {
            owner.heartbeat(System.currentTimeMillis() - 60_000);
            assertEquals(0, run("--dir", dir.toString(), "--count", "1"));
            assertHeader(out().lines().findFirst().orElseThrow(), ProcessHandle.current().pid(),
                "STALE: no heartbeat for 6");
            assertFalse(out().contains("is not running"), out());
        }
    }

    @Test
    void shouldReportAStaleHeartbeatOfAProcessThatIsGone() throws IOException
    {
        try (CountersFile owner = CountersFile.create(dir, 32, 64 * 1024))
        {
            owner.heartbeat(System.currentTimeMillis() - 60_000);
            final long deadPid = Integer.MAX_VALUE - 1L;
            CountersFilePatch.ownerPid(owner.file(), deadPid);
            assertEquals(0, run("--dir", dir.toString(), "--count", "1"));
            assertTrue(out().contains("pid " + deadPid + " is not running"), out());
        }
    }

    @Test
    void shouldJudgeAnOwnerStampedFarFromThisClockByWhetherItsHeartbeatChanges() throws InterruptedException
    {
        try (CountersFile owner = CountersFile.create(dir, 32, 64 * 1024))
        {
            for (final long offsetMs : new long[] { -3_600_000, 3_600_000 })
            {
                // An owner beating every 50 ms on a clock an hour off this one's, as after a step of either (NTP).
                final AtomicBoolean running = new AtomicBoolean(true);
                final Thread beater = new Thread(() ->
                {
                    while (running.get())
                    {
                        owner.heartbeat(System.currentTimeMillis() + offsetMs);
                        LockSupport.parkNanos(50_000_000L);
                    }
                });
                beater.start();
                try
                {
                    final long startNs = System.nanoTime();
                    while (Math.abs(owner.heartbeatAgeMs(System.currentTimeMillis())) < 1_800_000 &&
                        System.nanoTime() - startNs < 10_000_000_000L)
                    {
                        Thread.sleep(1);
                    }
                    outBytes.reset();
                    assertEquals(0, run("--dir", dir.toString(), "--alive"), out());
                    assertHeader(out().strip(), ProcessHandle.current().pid(), "alive (heartbeat changing, though " +
                        "stamped 3");
                    assertTrue(out().contains(offsetMs < 0 ? " ms behind this clock)" : " ms ahead of this clock)"),
                        out());
                }
                finally
                {
                    running.set(false);
                    beater.join(5_000);
                }

                // The same owner stopped: its stamp an hour off and no longer changing.
                outBytes.reset();
                final long startNs = System.nanoTime();
                assertEquals(StatTool.EXIT_NOT_ALIVE, run("--dir", dir.toString(), "--alive"), out());
                assertTrue(System.nanoTime() - startNs >= StatTool.ALIVE_WATCH_MS * 1_000_000L,
                    "watched for a change before answering");
                assertHeader(out().strip(), ProcessHandle.current().pid(), offsetMs < 0 ? "STALE: no heartbeat for 3" :
                    "STALE: heartbeat stamped 3");
            }
        }
    }

    @Test
    void shouldExitZeroOnlyForALiveOwnerWithAlive()
    {
        try (CountersFile owner = CountersFile.create(dir, 32, 64 * 1024))
        {
            owner.heartbeat(System.currentTimeMillis());
            assertEquals(0, run("--dir", dir.toString(), "--alive"));
            assertHeader(out().strip(), ProcessHandle.current().pid(), "alive");
            assertEquals(1, out().lines().count(), out());

            outBytes.reset();
            owner.heartbeat(System.currentTimeMillis() - 60_000);
            assertEquals(StatTool.EXIT_NOT_ALIVE, run("--dir", dir.toString(), "--alive"));
            assertHeader(out().strip(), ProcessHandle.current().pid(), "STALE: no heartbeat for 6");
        }
        outBytes.reset();
        assertEquals(StatTool.EXIT_NOT_ALIVE, run("--dir", dir.toString(), "--alive"));
        assertHeader(out().strip(), ProcessHandle.current().pid(), "closed by its owner");
    }

    @Test
    void shouldReportAnOwnerThatClosedTheFile()
    {
        CountersFile.create(dir, 32, 64 * 1024).close();
        assertEquals(0, run("--dir", dir.toString(), "--count", "1"));
        assertHeader(out().lines().findFirst().orElseThrow(), ProcessHandle.current().pid(), "closed by its owner");
    }

    @Test
    void shouldFollowAFileThatReplacedTheFileOfAGoneOwner()
    {
        final CountersFile first = CountersFile.create(dir, 32, 64 * 1024);
        first.countersManager().newCounter("first owner", 1).set(1);
        final CountersFile mapped = CountersFile.mapExisting(dir);
        final long nowMs = System.currentTimeMillis();
        assertSame(mapped, StatTool.followReplacement(mapped, dir, nowMs), "the owner is alive");

        first.close();
        assertSame(mapped, StatTool.followReplacement(mapped, dir, nowMs), "the owner is gone but not replaced");

        try (CountersFile second = CountersFile.create(dir, 32, 64 * 1024))
        {
            second.countersManager().newCounter("second owner", 1).set(2);
            final CountersFile followed = StatTool.followReplacement(mapped, dir, nowMs);
            try
            {
                assertNotSame(mapped, followed);
                assertTrue(mapped.isClosed());
                assertEquals("second owner", followed.countersReader().getCounterLabel(0));
                assertEquals(2, followed.countersReader().getCounterValue(0));
                assertSame(followed, StatTool.followReplacement(followed, dir, nowMs));
            }
            finally
            {
                followed.close();
            }
        }
    }

    @Test
    void shouldPrintTheDistinctErrorLog()
    {
        try (CountersFile owner = CountersFile.create(dir, 32, 64 * 1024))
        {
            final RecordingErrorHandler handler = new RecordingErrorHandler(
                owner.errorLog(), new SystemCounters(owner.countersManager()).get(SystemCounterDescriptor.ERRORS));
            final IllegalStateException repeated = new IllegalStateException("repeated failure");
            for (int i = 0; i < 3; i++)
            {
                handler.onError(repeated);
            }
            handler.onError(new UnsupportedOperationException("single failure"));

            assertEquals(0, run("--dir", dir.toString(), "--errors"));
            final String out = out();
            assertTrue(Pattern.compile("(?m)^3 observations from \\S+Z to \\S+Z for:\\R" +
                "java\\.lang\\.IllegalStateException: repeated failure\\R\\s+at ").matcher(out).find(), out);
            assertTrue(Pattern.compile("(?m)^1 observations from \\S+Z to \\S+Z for:\\R" +
                "java\\.lang\\.UnsupportedOperationException: single failure\\R").matcher(out).find(), out);
            assertTrue(out.endsWith("2 distinct errors observed." + System.lineSeparator()), out);

            outBytes.reset();
            assertEquals(0, run("--dir", dir.toString(), "--errors", "--filter", "Unsupported"));
            assertFalse(out().contains("repeated failure"), out());
            assertTrue(out().endsWith("1 distinct errors observed." + System.lineSeparator()), out());
        }
    }

    @Test
    void shouldReadCountersAndErrorsWrittenByAnotherProcess() throws Exception
    {
        final Path childLog = dir.resolve("child.log");
        final Process child = startChild(dir, childLog);
        try
        {
            final String ready = awaitReady(child, childLog);
            assertEquals(CountersWriterMain.READY + " " + child.pid(), ready);

            assertEquals(0, run("--dir", dir.toString(), "--count", "1"), err());
            final List<String> lines = out().lines().toList();
            assertHeader(lines.get(0), child.pid(), "alive");
            assertEquals("   0:            123456789 - Bytes sent", lines.get(1));
            final Map<String, Long> counters = counters(out());
            assertEquals(CountersWriterMain.BYTES_SENT, counters.get("Bytes sent"));
            assertEquals(CountersWriterMain.MESSAGES_SENT, counters.get("Messages sent"));
            assertEquals(2L, counters.get("Errors"));
            assertEquals(0L, counters.get("Bytes received"));
            assertEquals(CountersWriterMain.PUBLISHER_POSITION,
                counters.get("pub-pos: stream=1001 session=42 endpoint=10.0.0.5:40456"));
            assertEquals(CountersWriterMain.SUBSCRIBER_LAG,
                counters.get("sub-lag: stream=1001 session=42 subscriber=3 name=risk-engine@10.0.0.9:51000"));
            assertEquals(SystemCounterDescriptor.values().length + 2, counters.size(), out());

            outBytes.reset();
            assertEquals(0, run("--dir", dir.toString(), "--errors"), err());
            final String errors = out();
            assertTrue(errors.contains("2 observations from "), errors);
            assertTrue(errors.contains("java.lang.IllegalStateException: " + CountersWriterMain.ERROR_MESSAGE), errors);
            assertTrue(errors.contains("at io.warpbus.tools.CountersWriterMain.main"), errors);
            assertTrue(errors.endsWith("1 distinct errors observed." + System.lineSeparator()), errors);

            try (CountersFile reader = CountersFile.mapExisting(dir))
            {
                final long firstHeartbeat = reader.heartbeatTimestampMs();
                Await.until("the child to heartbeat again", TimeUnit.SECONDS.toMillis(CHILD_TIMEOUT_S),
                    () -> Await.sleep(10), () -> reader.heartbeatTimestampMs() != firstHeartbeat);
                assertTrue(reader.heartbeatTimestampMs() > firstHeartbeat, "the child keeps heartbeating");
                assertEquals(child.pid(), reader.pid());
            }
        }
        finally
        {
            stop(child);
        }
    }

    private static Process startChild(final Path dir, final Path childLog) throws IOException
    {
        return ChildJvm.of(CountersWriterMain.class).args(dir.toString()).processBuilder()
            .redirectError(childLog.toFile())
            .start();
    }

    private static String awaitReady(final Process child, final Path childLog) throws Exception
    {
        final BufferedReader reader = new BufferedReader(
            new InputStreamReader(child.getInputStream(), StandardCharsets.US_ASCII));
        final CompletableFuture<String> line = CompletableFuture.supplyAsync(() ->
        {
            try
            {
                return reader.readLine();
            }
            catch (final IOException ex)
            {
                return "failed to read the child's output: " + ex;
            }
        });
        try
        {
            final String ready = line.get(CHILD_TIMEOUT_S, TimeUnit.SECONDS);
            if (null == ready)
            {
                throw new AssertionError("the child exited (" + child.waitFor(CHILD_TIMEOUT_S, TimeUnit.SECONDS) +
                    ") without getting ready: " + Files.readString(childLog));
            }
            return ready;
        }
        catch (final TimeoutException ex)
        {
            throw new AssertionError("the child did not get ready in " + CHILD_TIMEOUT_S + " s: " +
                Files.readString(childLog), ex);
        }
    }

    private static void stop(final Process child) throws InterruptedException
    {
        child.destroy();
        if (!child.waitFor(CHILD_TIMEOUT_S, TimeUnit.SECONDS))
        {
            child.destroyForcibly();
            child.waitFor(CHILD_TIMEOUT_S, TimeUnit.SECONDS);
        }
    }

    private static Map<String, Long> counters(final String output)
    {
        final Map<String, Long> counters = new LinkedHashMap<>();
        output.lines().forEach((line) ->
        {
            final Matcher matcher = COUNTER_LINE.matcher(line);
            if (matcher.matches())
            {
                counters.put(matcher.group(3), Long.parseLong(matcher.group(2)));
            }
        });
        return counters;
    }

    private static void assertHeader(final String line, final long pid, final String status)
    {
        assertTrue(line.matches("\\S+Z pid=" + pid + " start=\\S+Z heartbeat-age=-?\\d+ms status=.*"), line);
        assertTrue(line.contains(" status=" + status), line);
        assertTrue(line.endsWith(" file=" + Path.of(line.substring(line.indexOf(" file=") + 6))), line);
    }

    private void assertUsage(final String[] args, final String message)
    {
        outBytes.reset();
        errBytes.reset();
        assertEquals(2, StatTool.run(args, printStream(outBytes), printStream(errBytes)));
        assertTrue(err().startsWith("stat: " + message), err());
        assertTrue(err().contains("usage: warpbus stat --dir DIR"), err());
    }

    private int run(final String... args)
    {
        return StatTool.run(args, printStream(outBytes), printStream(errBytes));
    }

    private String out()
    {
        return outBytes.toString(StandardCharsets.UTF_8);
    }

    private String err()
    {
        return errBytes.toString(StandardCharsets.UTF_8);
    }

    private static PrintStream printStream(final ByteArrayOutputStream bytes)
    {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }
}
