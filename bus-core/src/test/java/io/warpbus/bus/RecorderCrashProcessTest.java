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

import io.warpbus.testing.Await;
import io.warpbus.testing.BusTestWatcher;
import io.warpbus.testing.ChildProcess;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

import io.warpbus.iwarp.ThreadingMode;
import io.warpbus.journal.Journal;
import io.warpbus.journal.JournalContext;
import io.warpbus.journal.JournalReader;
import io.warpbus.tools.RecordTool;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The standalone recorder ({@code warpbus record}, a real child JVM) killed with {@code kill -9} in the middle of
 * a stream and started again: it resumes after the last sequence it recorded, from the publisher's retained log,
 * and the journal ends up holding every sequence exactly once, each with its own payload.
 */
@Timeout(180)
@ExtendWith(BusTestWatcher.class)
class RecorderCrashProcessTest
{
    private static final int STREAM = 1001;
    private static final int TOTAL = 150_000;
    private static final Pattern RECORDING = Pattern.compile("^recording .*");

    @TempDir
    Path dir;

    @Test
    void shouldResumeAfterKill9WithoutLossOrDuplicate() throws Exception
    {
        final String channel = BusLoopbackTest.channel("iwarp", STREAM);
        final Path journalDir = dir.resolve("journal");
        final List<String> args = List.of("--channel", channel, "--dir", journalDir.toString(),
            "--replay-endpoint", BusLoopbackTest.channel("iwarp", 0)
            .replaceAll(".*endpoint=([^|]+).*", "$1"));
        try (Bus bus = Bus.launch(new BusContext().directory(dir.resolve("bus")).name("pub")
            .threadingMode(ThreadingMode.INVOKER).termLength(1024 * 1024).window(32 * 1024 * 1024)))
        {
            final ExclusivePublication publication = bus.addExclusivePublication(channel);
            // A second subscriber keeps the stream going while the recorder is dead.
            final Subscription bystander = bus.addSubscription(channel);
            final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(16));
            ChildProcess recorder = ChildProcess.start("recorder-1", dir, ChildProcess.buses(dir),
                RecordTool.class.getName(), args);
            try
            {
                recorder.await(RECORDING, 60_000, recorder::dump);
                awaitSubscribers(bus, bystander, publication, 2);
                long sequence = 0;
                int restarts = 0;
                while (sequence < TOTAL)
                {
                    Await.checkInterrupted();
                    message.putLong(0, sequence);
                    if (publication.offer(message, 0, 16) > 0)
                    {
                        sequence++;
                        if (sequence == TOTAL / 3 && 0 == restarts)
                        {
                            recorder.kill();
                            restarts++;
                        }
                        if (sequence == TOTAL / 2 && 1 == restarts)
                        {
                            recorder = ChildProcess.start("recorder-2", dir, ChildProcess.buses(dir),
                                RecordTool.class.getName(), args);
                            recorder.await(RECORDING, 60_000, recorder::dump);
                            restarts++;
                        }
                    }
                    bus.doWork();
                    bystander.poll((buffer, offset, length, header) -> { }, 256);
                }
                assertEquals(2, restarts);
                awaitRecorded(bus, bystander, journalDir, TOTAL - 1);
                assertTrue(recorder.lines().get(0).contains("after sequence "), recorder.lines().toString());
            }
            finally
            {
                recorder.kill();
            }
        }

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
            assertEquals(TOTAL, next[0], "records in the journal");
        }
    }

    private static void awaitSubscribers(
        final Bus bus, final Subscription bystander, final ExclusivePublication publication, final int count)
    {
        Await.until("the recorder to subscribe", 30_000, () ->
        {
            bus.doWork();
            bystander.poll((buffer, offset, length, header) -> { }, 256);
        }, () -> publication.subscriberCount() >= count);
    }

    private static void awaitRecorded(final Bus bus, final Subscription bystander, final Path journalDir,
        final long last) throws Exception
    {
        try (Journal journal = Journal.open(new JournalContext().directory(journalDir).readOnly(true)))
        {
            Await.until("the restarted recorder to record up to " + last, 60_000, () ->
            {
                bus.doWork();
                bystander.poll((buffer, offset, length, header) -> { }, 256);
            }, () ->
            {
                try (JournalReader reader = journal.reader(STREAM))
                {
                    if (reader.lastSequence() == last)
                    {
                        return true;
                    }
                }
                Await.sleep(50);
                return false;
            });
        }
    }
}
