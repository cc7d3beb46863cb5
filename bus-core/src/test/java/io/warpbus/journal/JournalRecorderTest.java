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
package io.warpbus.journal;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import io.warpbus.bus.Bus;
import io.warpbus.bus.BusContext;
import io.warpbus.bus.ExclusivePublication;
import io.warpbus.bus.Subscription;
import io.warpbus.iwarp.ThreadingMode;
import io.warpbus.testing.Await;
import org.agrona.concurrent.OffsetEpochNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The in-process recorder on a real bus (INVOKER mode, IPC): every message published is in the journal, with the
 * sequence and session the subscriber saw, and nothing of the streams it was not asked to record.
 */
@Timeout(60)
class JournalRecorderTest
{
    private static final int COUNT = 20_000;

    @TempDir
    Path dir;
    private Bus bus;
    private Journal journal;

    @AfterEach
    void tearDown()
    {
        if (null != bus)
        {
            bus.close();
        }
        if (null != journal)
        {
            journal.close();
        }
    }

    @Test
    void shouldRecordExactlyWhatWasPublished()
    {
        // One clock for both timestamps: two OffsetEpochNanoClocks calibrate apart by up to a millisecond.
        final OffsetEpochNanoClock clock = new OffsetEpochNanoClock();
        bus = Bus.launch(new BusContext().directory(dir.resolve("bus")).name("recorder-test").epochNanoClock(clock)
            .threadingMode(ThreadingMode.INVOKER).termLength(64 * 1024).window(1024 * 1024).ringCapacity(256 * 1024));
        journal = Journal.open(new JournalContext().directory(dir.resolve("journal")).epochNanoClock(clock));
        final List<Throwable> errors = new ArrayList<>();
        final JournalRecorder recorder = new JournalRecorder(journal, errors::add, 1001);
        bus.addFrameObserver(recorder);

        final Subscription subscription = bus.addSubscription("warp:ipc?stream=1001");
        final Subscription other = bus.addSubscription("warp:ipc?stream=2002");
        final ExclusivePublication publication = bus.addExclusivePublication("warp:ipc?stream=1001");
        final ExclusivePublication unrecorded = bus.addExclusivePublication("warp:ipc?stream=2002");
        await(() -> publication.isConnected() && unrecorded.isConnected(), "publications to connect");

        final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(128));
        final List<long[]> received = new ArrayList<>();
        int published = 0;
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (received.size() < COUNT)
        {
            if (System.nanoTime() - deadline > 0)
            {
                fail("received " + received.size() + " of " + COUNT);
            }
            if (published < COUNT)
            {
                message.putLong(0, published);
                if (publication.offer(message, 0, 8 + published % 100) > 0)
                {
                    published++;
                    unrecorded.offer(message, 0, 8);
                }
            }
            bus.doWork();
            subscription.poll((buffer, offset, length, header) -> received.add(
                new long[] { header.sequence(), header.sessionId(), buffer.getLong(offset), length }), 100);
            other.poll((buffer, offset, length, header) -> { }, 100);
        }
        bus.removeFrameObserver(recorder);

        assertEquals(List.of(), errors);
        assertEquals(COUNT, recorder.recordedFrames());
        assertEquals(0, recorder.rejectedFrames());
        final List<long[]> recorded = new ArrayList<>();
        final JournalReader reader = journal.reader(1001);
        while (reader.poll((sequence, sessionId, flags, publisherNs, receiveNs, buffer, offset, length) ->
        {
            assertTrue(publisherNs > 0 && receiveNs >= publisherNs, "timestamps " + publisherNs + " " + receiveNs);
            recorded.add(new long[] { sequence, sessionId, buffer.getLong(offset), length });
        }, 1000) > 0)
        {
            assertTrue(recorded.size() <= COUNT);
        }
        assertEquals(COUNT, recorded.size());
        for (int i = 0; i < COUNT; i++)
        {
            assertEquals(List.of(received.get(i)[0], received.get(i)[1], received.get(i)[2], received.get(i)[3]),
                List.of(recorded.get(i)[0], recorded.get(i)[1], recorded.get(i)[2], recorded.get(i)[3]),
                "record " + i);
        }
        assertEquals(0, recorded.get(0)[0]);
        assertEquals(List.of(1001), java.util.Arrays.stream(journal.streams()).boxed().toList(),
            "stream 2002 was not asked for");
        recorder.close();
    }

    @Test
    void shouldCountFramesWhoseSequenceIsAlreadyInTheJournal()
    {
        journal = Journal.open(new JournalContext().directory(dir.resolve("journal")));
        try (JournalWriter writer = journal.writer(1001))
        {
            JournalTest.appendRange(writer, 0, 10);
        }
        bus = Bus.launch(new BusContext().directory(dir.resolve("bus")).name("recorder-test-2")
            .threadingMode(ThreadingMode.INVOKER).termLength(64 * 1024).window(1024 * 1024).ringCapacity(256 * 1024));
        final List<Throwable> errors = new ArrayList<>();
        final JournalRecorder recorder = new JournalRecorder(journal, errors::add);
        bus.addFrameObserver(recorder);
        final Subscription subscription = bus.addSubscription("warp:ipc?stream=1001");
        final ExclusivePublication publication = bus.addExclusivePublication("warp:ipc?stream=1001");
        await(publication::isConnected, "publication to connect");
        final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
        final int[] received = { 0 };
        int published = 0;
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (received[0] < 15)
        {
            assertTrue(System.nanoTime() - deadline < 0, "received " + received[0]);
            if (published < 15 && publication.offer(message, 0, 8) > 0)
            {
                published++;
            }
            bus.doWork();
            subscription.poll((buffer, offset, length, header) -> received[0]++, 10);
        }
        assertEquals(10, recorder.rejectedFrames(), "sequences 0..9 were already recorded");
        assertEquals(5, recorder.recordedFrames());
        assertEquals(1, errors.size());
        assertTrue(errors.get(0).getMessage().startsWith("stream 1001: not recording frames of session "),
            errors.get(0).getMessage());
        assertEquals(14, journal.info(1001).lastSequence());
        recorder.close();
    }

    private void await(final BooleanSupplier condition, final String what)
    {
        Await.until(what, 10_000, bus::doWork, condition);
    }
}
