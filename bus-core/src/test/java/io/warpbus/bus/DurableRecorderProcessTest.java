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

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import io.warpbus.iwarp.ThreadingMode;
import io.warpbus.journal.Journal;
import io.warpbus.journal.JournalContext;
import io.warpbus.journal.JournalReader;
import io.warpbus.testing.Await;
import io.warpbus.testing.BusTestWatcher;
import io.warpbus.testing.ChildProcess;
import io.warpbus.tools.RecordTool;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The recorder ({@code warpbus record}, a real child JVM) is the stream's only subscriber and is killed with
 * {@code kill -9}: the publication keeps its place instead of going unconnected. Offers go on being accepted from
 * the retained log until it is full, then back-pressure (never {@code NOT_CONNECTED}); the restarted recorder
 * resumes from where its journal ends, and the journal holds every sequence exactly once. A recorder that does not
 * return within the durable timeout has its place released, and the publication is unconnected again.
 */
@Timeout(180)
@ExtendWith(BusTestWatcher.class)
class DurableRecorderProcessTest
{
    private static final int STREAM = 1001;
    private static final int TOTAL = 100_000;
    private static final int MESSAGE_LENGTH = 16;
    private static final Pattern RECORDING = Pattern.compile("^recording .*");

    @TempDir
    Path dir;

    private final Queue<String> errors = new ConcurrentLinkedQueue<>();
    private final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(MESSAGE_LENGTH));

    @Test
    void shouldKeepTheStreamGoingWhileTheOnlyRecorderRestarts() throws Exception
    {
        final String channel = BusLoopbackTest.channel("iwarp", STREAM) + "|ring=256k";
        final Path journalDir = dir.resolve("journal");
        final List<String> args = recorderArgs(channel, journalDir);
        try (Bus bus = launch())
        {
            final ExclusivePublication publication = bus.addExclusivePublication(channel);
            ChildProcess recorder = ChildProcess.start("recorder-1", dir, ChildProcess.buses(dir),
                RecordTool.class.getName(), args);
            try
            {
                recorder.await(RECORDING, 60_000, recorder::dump);
                Await.until("the recorder to subscribe", 30_000, bus::doWork,
                    () -> publication.subscriberCount() >= 1);
                long sequence = 0;
                long notConnected = 0;
                long acceptedWhileAway = 0;
                long killedAtNs = 0;
                boolean backPressuredWhileAway = false;
                boolean restarted = false;
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
                while (sequence < TOTAL)
                {
                    Await.checkInterrupted();
                    assertTrue(System.nanoTime() - deadline < 0, "published only " + sequence + " of " + TOTAL);
                    message.putLong(0, sequence);
                    message.putLong(8, ~sequence);
                    final long result = publication.offer(message, 0, MESSAGE_LENGTH);
                    final boolean away = publication.absentDurableSubscriberCount() > 0;
                    if (result > 0)
                    {
                        sequence++;
                        acceptedWhileAway += away ? 1 : 0;
                        if (sequence == TOTAL / 4)
                        {
                            recorder.kill();
                            killedAtNs = System.nanoTime();
                        }
                    }
                    else if (Publication.NOT_CONNECTED == result && 0 != killedAtNs)
                    {
                        notConnected++;
                    }
                    else if (Publication.BACK_PRESSURED == result && away)
                    {
                        backPressuredWhileAway = true;
                    }
                    if (!restarted && backPressuredWhileAway &&
                        System.nanoTime() - killedAtNs > TimeUnit.SECONDS.toNanos(1))
                    {
                        recorder = ChildProcess.start("recorder-2", dir, ChildProcess.buses(dir),
                            RecordTool.class.getName(), args);
                        recorder.await(RECORDING, 60_000, recorder::dump);
                        restarted = true;
                    }
                    bus.doWork();
                }
                assertTrue(restarted, "the recorder was restarted");
                assertEquals(0, notConnected, "offers refused as NOT_CONNECTED while the recorder was away");
                assertTrue(backPressuredWhileAway, "back pressure once the retained log was full");
                assertTrue(acceptedWhileAway > 1_000, "offers accepted while the recorder was away: " +
                    acceptedWhileAway);
                awaitRecorded(bus, journalDir, TOTAL - 1);
                assertEquals(0, publication.absentDurableSubscriberCount(), "the recorder's place was released");
                assertEquals(0, publication.expiredDurableSubscriberCount());
                assertTrue(recorder.lines().get(0).contains("after sequence "), recorder.lines().toString());
                assertTrue(errors.stream().anyMatch((e) -> e.contains("keeps the place of durable subscriber")),
                    errors.toString());
            }
            finally
            {
                recorder.kill();
            }
        }
        assertJournalHoldsEverySequenceOnce(journalDir, TOTAL);
    }

    @Test
    void shouldReleaseThePlaceOfARecorderThatDoesNotReturnInTime() throws Exception
    {
        final String channel = BusLoopbackTest.channel("iwarp", STREAM) + "|ring=256k";
        try (Bus bus = launch())
        {
            final ExclusivePublication publication = bus.addExclusivePublication(channel + "|durable-timeout=1s");
            final ChildProcess recorder = ChildProcess.start("recorder-1", dir, ChildProcess.buses(dir),
                RecordTool.class.getName(), recorderArgs(channel, dir.resolve("journal")));
            try
            {
                recorder.await(RECORDING, 60_000, recorder::dump);
                Await.until("the recorder to subscribe", 30_000, bus::doWork,
                    () -> publication.subscriberCount() >= 1);
                for (long i = 0; i < 1_000; )
                {
                    message.putLong(0, i);
                    i += publication.offer(message, 0, MESSAGE_LENGTH) > 0 ? 1 : 0;
                    bus.doWork();
                }
                recorder.kill();
                final long killedNs = System.nanoTime();
                Await.until("the publication to notice the recorder is away", 10_000, bus::doWork,
                    () -> publication.absentDurableSubscriberCount() == 1);
                assertTrue(publication.isConnected(), "connected while the recorder's place is kept");
                assertTrue(publication.offer(message, 0, MESSAGE_LENGTH) > 0, "accepted while it is away");
                assertTrue(!publication.isDrained(), "not drained: the recorder has not recorded it");
                Await.until("the place to be released", 15_000, bus::doWork,
                    () -> publication.offer(message, 0, MESSAGE_LENGTH) == Publication.NOT_CONNECTED);
                final long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedNs);
                assertTrue(elapsedMs >= 900, "released after " + elapsedMs + " ms, before the 1 s timeout");
                assertEquals(1, publication.expiredDurableSubscriberCount());
                assertEquals(0, publication.absentDurableSubscriberCount());
                assertTrue(errors.stream().anyMatch((e) -> e.contains("released the place of durable subscriber")),
                    errors.toString());
            }
            finally
            {
                recorder.kill();
            }
        }
    }

    private Bus launch()
    {
        return Bus.launch(new BusContext().directory(dir.resolve("bus")).name("pub")
            .threadingMode(ThreadingMode.INVOKER).termLength(64 * 1024).window(1024 * 1024).ringCapacity(256 * 1024)
            .errorHandler((error) -> errors.add(String.valueOf(error.getMessage()))));
    }

    private static List<String> recorderArgs(final String channel, final Path journalDir) throws Exception
    {
        return List.of("--channel", channel, "--dir", journalDir.toString(), "--replay-endpoint",
            BusLoopbackTest.channel("iwarp", 0).replaceAll(".*endpoint=([^|]+).*", "$1"));
    }

    private static void awaitRecorded(final Bus bus, final Path journalDir, final long last) throws Exception
    {
        try (Journal journal = Journal.open(new JournalContext().directory(journalDir).readOnly(true)))
        {
            Await.until("the restarted recorder to record up to " + last, 60_000, bus::doWork, () ->
            {
                try (JournalReader reader = journal.reader(STREAM))
                {
                    if (reader.lastSequence() == last)
                    {
                        return true;
                    }
                }
                Await.sleep(20);
                return false;
            });
        }
    }

    private static void assertJournalHoldsEverySequenceOnce(final Path journalDir, final long total)
    {
        try (Journal journal = Journal.open(new JournalContext().directory(journalDir).readOnly(true));
            JournalReader reader = journal.reader(STREAM))
        {
            final long[] next = { 0 };
            while (reader.poll((sequence, session, flags, published, received, buffer, offset, length) ->
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
    }
}
