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

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.warpbus.bus.Bus;
import io.warpbus.bus.BusContext;
import io.warpbus.bus.Subscription;
import io.warpbus.iwarp.ThreadingMode;
import io.warpbus.journal.Journal;
import io.warpbus.journal.JournalContext;
import io.warpbus.journal.JournalReader;
import io.warpbus.testing.Await;
import io.warpbus.testing.BusTestWatcher;
import io.warpbus.testing.ChildProcess;
import io.warpbus.testing.FreePorts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The scenario with the command-line tools only, each a real JVM: {@code warpbus pub --rate 50000}
 * journaled by {@code warpbus record}, the recorder killed with {@code kill -9} and restarted a second later, then
 * a late {@code warpbus sub --from 0}. The publisher rides out the recorder's absence, the journal holds every
 * sequence once, and the late subscriber receives the whole stream with the publisher's checksum. And when every
 * ordinary subscriber leaves, {@code pub} waits for one to return, says so, and goes on.
 */
@Timeout(180)
@ExtendWith(BusTestWatcher.class)
class PubRecorderCrashTest
{
    private static final int STREAM = 1001;
    private static final Pattern RECORDING = Pattern.compile("^recording .*");
    private static final Pattern SENT = Pattern.compile("^sent (\\d+) messages, checksum ([0-9a-f]+)$");
    private static final Pattern RECEIVED = Pattern.compile(
        "^received (\\d+) messages, gaps (\\d+), duplicates (\\d+), checksum ([0-9a-f]+)$");

    @TempDir
    Path dir;

    @Test
    void shouldRideOutAKilledRecorderWithTheCommandLineTools() throws Exception
    {
        final int total = 400_000;
        final String channel = "warp:iwarp?endpoint=127.0.0.1:" + FreePorts.loopback() + "|stream=" + STREAM;
        final Path journalDir = dir.resolve("journal");
        final List<String> recordArgs = List.of("--channel", channel, "--dir", journalDir.toString(),
            "--replay-endpoint", "127.0.0.1:" + FreePorts.loopback());
        ChildProcess recorder = ChildProcess.start("record-1", dir, ChildProcess.buses(dir),
            RecordTool.class.getName(), recordArgs);
        ChildProcess pub = null;
        ChildProcess sub = null;
        try
        {
            recorder.await(RECORDING, 60_000, recorder::dump);
            pub = ChildProcess.start("pub", dir, ChildProcess.buses(dir),
                PubTool.class.getName(), List.of("--channel", channel, "--count", String.valueOf(total), "--rate",
                "50000", "--size", "64", "--timeout", "90"));
            awaitRecorded(journalDir, 20_000, pub);
            recorder.kill();
            Await.sleep(1_000);
            recorder = ChildProcess.start("record-2", dir, ChildProcess.buses(dir),
                RecordTool.class.getName(), recordArgs);
            sub = ChildProcess.start("sub", dir, ChildProcess.buses(dir),
                SubTool.class.getName(), List.of("--channel", channel, "--from", "0", "--count",
                String.valueOf(total), "--timeout", "120"));
            final ChildProcess publisher = pub;
            assertEquals(0, pub.awaitExit(120_000, pub::dump), pub.dump());
            final ChildProcess subscriber = sub;
            assertEquals(0, sub.awaitExit(120_000, sub::dump), sub.dump());
            final Matcher sent = pub.await(SENT, 1_000, publisher::dump);
            final Matcher received = sub.await(RECEIVED, 1_000, subscriber::dump);
            assertEquals(String.valueOf(total), sent.group(1));
            assertEquals(String.valueOf(total), received.group(1), sub.dump());
            assertEquals("0", received.group(2), "gaps: " + sub.dump());
            assertEquals("0", received.group(3), "duplicates: " + sub.dump());
            assertEquals(sent.group(2), received.group(4), "checksums");
            final String pubErr = stderr(pub);
            assertTrue(pubErr.contains("warpbus pub: a recorder was lost after "), pub.dump());
            assertTrue(pubErr.contains("warpbus pub: the recorder is back after "), pub.dump());
            assertTrue(!pubErr.contains("every subscriber left"), pub.dump());
            assertTrue(recorder.lines().get(0).contains("after sequence "), recorder.dump());
            awaitRecorded(journalDir, total - 1, recorder);
        }
        finally
        {
            recorder.kill();
            if (null != pub)
            {
                pub.kill();
            }
            if (null != sub)
            {
                sub.kill();
            }
        }
        try (Journal journal = Journal.open(new JournalContext().directory(journalDir).readOnly(true));
            JournalReader reader = journal.reader(STREAM))
        {
            final long[] next = { 0 };
            while (reader.poll((sequence, session, flags, published, receivedNs, buffer, offset, length) ->
            {
                assertEquals(next[0], sequence, "sequence of record " + next[0]);
                assertEquals(sequence, buffer.getLong(offset), "payload of sequence " + sequence);
                next[0]++;
            }, 1000) > 0)
            {
                Await.checkInterrupted();
            }
            assertEquals(total, next[0], "records in the journal");
        }
        try (Stream<Path> buses = Files.list(dir.resolve("buses")))
        {
            final List<String> names = buses.map((bus) -> bus.getFileName().toString().replaceAll("-\\d+$", ""))
                .sorted().collect(Collectors.toList());
            assertEquals(List.of("ipc", "pub", "record", "record", "sub"), names,
                "the tools' buses are in the test's directory");
        }
    }

    @Test
    void shouldWaitForASubscriberToReturnAndSaySo() throws Exception
    {
        final String channel = "warp:iwarp?endpoint=127.0.0.1:" + FreePorts.loopback() + "|stream=" + STREAM;
        final ChildProcess pub = ChildProcess.start("pub", dir, ChildProcess.buses(dir), PubTool.class.getName(),
            List.of("--channel", channel, "--count", "200000", "--rate", "50000", "--size", "64", "--timeout", "90",
            "--return-timeout", "60"));
        try
        {
            receive(channel, "first", 20_000, pub);
            Await.until(() -> "pub to say it waits" + pub.dump(), 30_000,
                () -> stderr(pub).contains("warpbus pub: every subscriber left after "));
            Await.until(() -> "pub to say it still waits" + pub.dump(), 30_000,
                () -> stderr(pub).contains("warpbus pub: still waiting for a subscriber to return ("));
            receive(channel, "second", Long.MAX_VALUE, pub);
            assertEquals(0, pub.awaitExit(60_000, pub::dump), pub.dump());
            assertTrue(stderr(pub).contains("warpbus pub: a subscriber is back after "), pub.dump());
            assertTrue(pub.await(SENT, 1_000, pub::dump).group(1).equals("200000"), pub.dump());
        }
        finally
        {
            pub.kill();
        }
    }

    /**
     * Subscribe in this JVM until {@code count} messages arrived or the publisher exited, then leave.
     */
    private void receive(final String channel, final String name, final long count, final ChildProcess pub)
    {
        try (Bus bus = Bus.launch(new BusContext().directory(dir.resolve("bus")).name(name)
            .threadingMode(ThreadingMode.INVOKER).idleStrategy("backoff")))
        {
            final Subscription subscription = bus.addSubscription(channel + "|name=" + name);
            final long[] received = { 0 };
            Await.until(() -> name + " subscriber to receive " + count + ", has " + received[0] + pub.dump(),
                90_000, () ->
                {
                    bus.doWork();
                    subscription.poll((buffer, offset, length, header) -> received[0]++, 256);
                }, () -> received[0] >= count || !pub.isAlive());
            assertTrue(received[0] > 0, name + " received nothing");
        }
    }

    private static void awaitRecorded(final Path journalDir, final long last, final ChildProcess evidence)
    {
        Await.until(() -> "the recorder to record up to " + last + evidence.dump(), 90_000, () ->
        {
            if (!Files.isDirectory(journalDir.resolve("stream-" + STREAM)))
            {
                Await.sleep(50);
                return false;
            }
            try (Journal journal = Journal.open(new JournalContext().directory(journalDir).readOnly(true));
                JournalReader reader = journal.reader(STREAM))
            {
                if (reader.lastSequence() >= last)
                {
                    return true;
                }
            }
            Await.sleep(50);
            return false;
        });
    }

    private String stderr(final ChildProcess process)
    {
        try
        {
            final Path file = dir.resolve(process.name() + ".err");
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        }
        catch (final java.io.IOException ex)
        {
            throw new java.io.UncheckedIOException(ex);
        }
    }
}
