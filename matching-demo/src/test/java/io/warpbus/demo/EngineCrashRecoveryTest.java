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
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.warpbus.bus.Bus;
import io.warpbus.demo.client.LoadClient;
import io.warpbus.demo.service.EngineContext;
import io.warpbus.demo.service.EngineMain;
import io.warpbus.demo.service.EngineService;
import io.warpbus.matching.load.LoadProfile;
import io.warpbus.testing.Await;
import io.warpbus.testing.BusTestWatcher;
import io.warpbus.testing.ChildJvm;
import org.agrona.CloseHelper;
import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The engine process killed with {@code kill -9} in the middle of an order stream, then started again on its
 * journal: a real {@link EngineMain} JVM (journal on, checkpoints every 200 ms) fed over iWARP by a load client
 * in this JVM. After the kill the client reads whatever reports reached it; the restarted engine prints what it
 * recovered. No accepted order may be lost: exec ids are numbered 1, 2, 3... in processing order, replay takes them
 * again, so the recovered last exec id must cover every report the client received (and the client must have seen
 * no gap). The client keeps running across the restart: the reports it never got, of commands journaled before the
 * kill, are sent again on its resend request, so that in the end it holds every exec id exactly once. The recovered
 * state hash must equal that of a reference replay of the same journal from its first message in this JVM, without
 * checkpoints.
 */
@Timeout(240)
@ExtendWith(BusTestWatcher.class)
class EngineCrashRecoveryTest
{
    private static final int INSTRUMENTS = 3;
    private static final long REPORTS_BEFORE_KILL = 20_000;
    private static final Pattern RECOVERED = Pattern.compile("RECOVERED engine (.*)");
    private static final Pattern FIELD = Pattern.compile("([a-z-]+)=(\\S+)");

    @TempDir
    Path dir;
    private final List<Process> processes = new ArrayList<>();
    private Bus clientBus;

    @AfterEach
    void close()
    {
        CloseHelper.quietClose(clientBus);
        for (final Process process : processes)
        {
            process.destroyForcibly();
        }
    }

    @Test
    void shouldLoseNoAcknowledgedOrderWhenTheEngineIsKilledAndRecoverTheReplayedState() throws Exception
    {
        final Path journal = dir.resolve("journal");
        final DemoRig rig = new DemoRig();
        final Process first = startEngine("engine-1", rig, journal);
        final Map<String, String> empty = awaitRecovered(first, "engine-1");
        assertEquals("-1", empty.get("journal-sequence"), "a new journal");
        awaitLine(first, "engine-1", Pattern.compile("READY engine .*"));

        clientBus = DemoRig.bus(dir, "client");
        final LoadProfile profile = LoadProfile.tradingDay(INSTRUMENTS, 5).commandsPerSecond(20_000);
        final LoadClient client = new LoadClient(
            clientBus, rig.orders, rig.reports, profile, Long.MAX_VALUE, SystemNanoClock.INSTANCE);
        Await.until(() -> REPORTS_BEFORE_KILL + " reports; the stream stalled at " + client.reports() + log("engine-1"),
            90_000, client::doWork, () ->
            {
                if (!first.isAlive())
                {
                    fail("the engine died at " + client.reports() + " reports" + log("engine-1"));
                }
                return client.reports() >= REPORTS_BEFORE_KILL;
            });
        client.stopSending();
        first.destroyForcibly();
        assertTrue(first.waitFor(30, TimeUnit.SECONDS), "killed");
        assertEquals(137, first.exitValue(), "killed by SIGKILL");
        final long drainUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
        while (System.nanoTime() - drainUntil < 0)
        {
            client.doWork();
        }
        final long reports = client.reports();
        final long acked = client.acked();
        final long sent = client.sent();
        assertEquals(0, client.execIdGaps(), "reports missing before the kill");

        // What the restarted engine recovers from, before it journals anything of its own (a resend request).
        final Path reference = dir.resolve("reference");
        EngineRecoveryTest.copy(journal.resolve("stream-1001"), reference.resolve("stream-1001"));

        // Restarted on the same endpoints, with the client still running.
        final Process second = startEngine("engine-2", rig, journal);
        final Map<String, String> recovered = awaitRecovered(second, "engine-2");
        awaitLine(second, "engine-2", Pattern.compile("READY engine .*"));
        final long lastExecId = Long.parseLong(recovered.get("last-exec-id"));
        assertTrue(lastExecId >= reports, "recovered exec ids " + lastExecId + " cover the " + reports +
            " reports received");
        // The restarted engine's greeting tells the client which reports it never got (those of commands journaled
        // before the kill whose reports died with the engine); it asks for them, and the engine, which rebuilt them
        // from its checkpoint and journal, sends them again.
        final long resendDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while ((client.resentReports() < lastExecId - reports || client.isRepairing()) &&
            System.nanoTime() - resendDeadline < 0)
        {
            Await.checkInterrupted();
            client.doWork();
        }
        assertEquals(lastExecId - reports, client.resentReports(), "reports lost with the engine and sent again" +
            log("engine-2"));
        assertEquals(0, client.execIdGaps(), "reports missing for good");
        assertEquals(client.highestExecId(), client.reports(), "every exec id up to the highest taken exactly once");
        second.getOutputStream().write("stop\n".getBytes(StandardCharsets.US_ASCII));
        second.getOutputStream().flush();
        assertTrue(second.waitFor(30, TimeUnit.SECONDS), "stopped" + log("engine-2"));
        CloseHelper.quietClose(clientBus);
        clientBus = null;

        System.out.println("killed after " + reports + " reports (" + acked + " commands answered, " + sent +
            " sent); restarted: " + recovered + "; resent " + client.resentReports() + " reports on " +
            client.resendRequests() + " request(s)");
        final long journalSequence = Long.parseLong(recovered.get("journal-sequence"));
        final long checkpointSequence = Long.parseLong(recovered.get("snapshot-sequence"));
        assertTrue(acked <= journalSequence + 1 && journalSequence + 1 <= sent, "journaled " + (journalSequence + 1) +
            " messages: at least the " + acked + " answered, at most the " + sent + " sent");
        assertTrue(checkpointSequence >= 0, "a periodic checkpoint was restored: " + recovered);
        assertEquals(journalSequence - checkpointSequence, Long.parseLong(recovered.get("replayed")),
            "the journal after the checkpoint replayed");

        try (Bus bus = DemoRig.bus(dir, "reference"))
        {
            final EngineService replay = new EngineService(referenceContext(bus, reference));
            try
            {
                assertEquals(-1, replay.recoveredCheckpointSequence(), "the reference starts from nothing");
                assertEquals(journalSequence + 1, replay.replayedMessages());
                assertEquals(Long.toHexString(replay.engine().stateHash()), recovered.get("state-hash"),
                    "state hash: restarted engine against the reference replay");
                assertEquals(String.valueOf(replay.engine().lastOrderId()), recovered.get("last-order-id"));
                assertEquals(replay.lastExecId(), lastExecId);
            }
            finally
            {
                replay.onClose();
            }
        }
    }

    private EngineContext referenceContext(final Bus bus, final Path journal) throws IOException
    {
        final AppCounters counters = new AppCounters(dir.resolve("reference-app"));
        // The engine process trades DemoProcess.instruments(INSTRUMENTS), which are this profile's instruments.
        return new DemoRig().engineContext(bus, counters, LoadProfile.tradingDay(INSTRUMENTS, 1))
            .journalDirectory(journal)
            .checkpointIntervalNs(TimeUnit.HOURS.toNanos(1));
    }

    @Test
    void shouldWriteALastCheckpointWhenStoppedWithSigterm() throws Exception
    {
        final Path journal = dir.resolve("journal");
        final DemoRig rig = new DemoRig();
        // Checkpoints an hour apart: the only one this run can write is the last, at the stop.
        final Process first = startEngine("engine-1", rig, journal, 3_600_000);
        awaitLine(first, "engine-1", Pattern.compile("READY engine .*"));
        clientBus = DemoRig.bus(dir, "client");
        final LoadClient client = new LoadClient(clientBus, rig.orders, rig.reports,
            LoadProfile.tradingDay(INSTRUMENTS, 7).commandsPerSecond(20_000), 2_000, SystemNanoClock.INSTANCE);
        Await.until(() -> "2,000 commands answered; at " + client.acked() + log("engine-1"), 90_000, client::doWork,
            () -> client.acked() >= 2_000);

        first.destroy();
        assertTrue(first.waitFor(30, TimeUnit.SECONDS), "stopped on SIGTERM" + log("engine-1"));
        assertEquals(143, first.exitValue(), "the JVM's exit status after SIGTERM" + log("engine-1"));
        assertTrue(null != firstMatch("engine-1", Pattern.compile("STOPPED engine errors=[0-9]+")),
            "an orderly stop" + log("engine-1"));
        CloseHelper.quietClose(clientBus);
        clientBus = null;

        final Process second = startEngine("engine-2", rig, journal, 3_600_000);
        final Map<String, String> recovered = awaitRecovered(second, "engine-2");
        assertTrue(Long.parseLong(recovered.get("journal-sequence")) >= 1_999, "every command journaled: " +
            recovered);
        assertEquals(recovered.get("journal-sequence"), recovered.get("snapshot-sequence"),
            "the checkpoint written at the SIGTERM covers the whole journal: " + recovered);
        assertEquals("0", recovered.get("replayed"), "nothing left to replay: " + recovered);
    }

    private Process startEngine(final String name, final DemoRig rig, final Path journal) throws IOException
    {
        return startEngine(name, rig, journal, 200);
    }

    private Process startEngine(final String name, final DemoRig rig, final Path journal,
        final long checkpointIntervalMs) throws IOException
    {
        final Process process = ChildJvm.of(EngineMain.class).jvmFlags("-Xmx256m")
            .args("--order-entry", rig.orders, "--execution-reports", rig.reports, "--market-data",
                rig.marketData, "--snapshots", rig.snapshots, "--dir", dir.resolve("bus").toString(), "--name", name,
                "--instruments", String.valueOf(INSTRUMENTS), "--idle", "backoff", "--metrics", "off",
                "--journal", journal.toString(), "--recovery-snapshot-interval-ms",
                String.valueOf(checkpointIntervalMs))
            .processBuilder().redirectErrorStream(true)
            .redirectOutput(dir.resolve(name + ".out").toFile()).start();
        processes.add(process);
        return process;
    }

    private Map<String, String> awaitRecovered(final Process process, final String name) throws Exception
    {
        final Matcher line = awaitLine(process, name, RECOVERED);
        final Map<String, String> fields = new HashMap<>();
        final Matcher field = FIELD.matcher(line.group(1));
        while (field.find())
        {
            fields.put(field.group(1), field.group(2));
        }
        return fields;
    }

    private Matcher awaitLine(final Process process, final String name, final Pattern pattern) throws Exception
    {
        final Matcher[] found = new Matcher[1];
        final boolean[] exited = new boolean[1];
        Await.until(() -> name + " to print a line matching " + pattern + log(name), 60_000, () -> Await.sleep(20),
            () ->
            {
                exited[0] = !process.isAlive();
                found[0] = firstMatch(name, pattern);
                return null != found[0] || exited[0];
            });
        if (null == found[0])
        {
            fail(name + " exited without printing a line matching " + pattern + log(name));
        }
        return found[0];
    }

    private Matcher firstMatch(final String name, final Pattern pattern)
    {
        try
        {
            for (final String line : Files.readAllLines(dir.resolve(name + ".out"), StandardCharsets.UTF_8))
            {
                final Matcher matcher = pattern.matcher(line);
                if (matcher.matches())
                {
                    return matcher;
                }
            }
            return null;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private String log(final String name)
    {
        final Path file = dir.resolve(name + ".out");
        try
        {
            return Files.exists(file) ? "\n--- " + name + " output ---\n" + Files.readString(file) : "";
        }
        catch (final IOException ex)
        {
            return "\n--- cannot read " + file + ": " + ex;
        }
    }
}
