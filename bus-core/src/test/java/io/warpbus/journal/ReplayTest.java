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
import java.util.function.BooleanSupplier;
import java.util.zip.CRC32C;

import io.warpbus.bus.Bus;
import io.warpbus.bus.BusContext;
import io.warpbus.bus.BusInternals;
import io.warpbus.bus.ExclusivePublication;
import io.warpbus.bus.Subscription;
import io.warpbus.iwarp.ThreadingMode;
import io.warpbus.testing.Await;
import io.warpbus.testing.FreePorts;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Replay over the bus from a standalone recorder, replay-merge into live, and gap repair, all on one bus on this
 * thread (publisher, recorder and subscribers talk over loopback iWARP or IPC exactly as separate processes would).
 * Every message carries its own sequence number as payload, so a wrong, missing or repeated message shows.
 */
@Timeout(120)
class ReplayTest
{
    private static final int STREAM = 1001;

    @TempDir
    Path dir;
    private Bus bus;
    private Journal journal;
    private StreamRecorder recorder;
    private final List<Throwable> recorderErrors = new ArrayList<>();
    private final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(64));

    @AfterEach
    void tearDown()
    {
        if (null != recorder)
        {
            recorder.close();
        }
        if (null != bus)
        {
            bus.close();
        }
        if (null != journal)
        {
            journal.close();
        }
    }

    /**
     * Two replays, one after the other: the second's publication gets the first's log back from the bus (zeroed),
     * and still delivers exactly its range.
     */
    @Test
    void shouldReplayARangeOverTheBusAndThenEnd() throws Exception
    {
        final String channel = start("iwarp");
        final ExclusivePublication publication = bus.addExclusivePublication(channel);
        startRecorder(channel);
        publishAndRecord(publication, 0, 5_000);
        assertEquals(1, BusInternals.replayLogsKept(bus), "a log made ready when the replay endpoint was added");

        for (final long[] range : new long[][] { { 1000, 1999 }, { 2500, 4999 } })
        {
            final Subscription replay = bus.addSubscription("warp:iwarp?endpoint=" + recorder.replayEndpoint() +
                "|stream=" + STREAM + "|replay-from=" + range[0] + "|replay-to=" + range[1]);
            final List<Long> sequences = new ArrayList<>();
            await(() ->
            {
                recorder.doWork();
                replay.poll((buffer, offset, length, header) ->
                {
                    assertEquals(header.sequence(), buffer.getLong(offset), "payload of sequence " +
                        header.sequence());
                    sequences.add(header.sequence());
                }, 100);
                return replay.isEnded();
            }, "the replay of " + range[0] + ".." + range[1] + " to end");

            assertEquals(range[1] - range[0] + 1, sequences.size(), "replayed messages");
            for (int i = 0; i < sequences.size(); i++)
            {
                assertEquals(range[0] + i, sequences.get(i), "sequence at " + i);
            }
            assertTrue(replay.endReason().startsWith("end of stream"), replay.endReason());
            replay.close();
            await(() ->
            {
                recorder.doWork();
                return 1 == BusInternals.replayLogsKept(bus);
            }, "the replay's log to come back once its publication has closed");
        }
        assertEquals(0, recorder.duplicates());
        assertTrue(recorderErrors.isEmpty(), recorderErrors.toString());
    }

    @Test
    void shouldRefuseReplaysOfUnknownStreamsBeyondTheLiveEdgeOrBeforeRetention() throws Exception
    {
        final String channel = start("iwarp");
        final ExclusivePublication publication = bus.addExclusivePublication(channel);
        final Subscription early = bus.addSubscription(channel);
        await(() -> publication.offer(message(0), 0, 8) > 0, "an unrecorded first message");
        // The recorder joins live, after sequence 0: its journal starts at 1.
        early.close();
        startRecorder(channel);
        publishAndRecord(publication, 1, 100);

        final String endpoint = "warp:iwarp?endpoint=" + recorder.replayEndpoint();
        assertRefused(endpoint + "|stream=7|replay-from=0", "stream 7 is not recorded here");
        assertRefused(endpoint + "|stream=" + STREAM + "|replay-from=5000", "sequence 5000 is beyond the live edge");
        assertRefused(endpoint + "|stream=" + STREAM + "|replay-from=0", "sequence 0 is before retention");
        assertRefused(endpoint + "|stream=" + STREAM + "|replay-from=50|replay-to=40",
            "replay-to 40 is before the start 50");

        // Refusals disturb nothing: the recorder goes on recording and serving.
        publishAndRecord(publication, 100, 200);
        final Subscription replay = bus.addSubscription(endpoint + "|stream=" + STREAM + "|replay-from=150|" +
            "replay-to=199");
        final long[] next = { 150 };
        await(() ->
        {
            recorder.doWork();
            replay.poll((buffer, offset, length, header) -> assertEquals(next[0]++, header.sequence()), 100);
            return replay.isEnded();
        }, "the replay after the refusals");
        assertEquals(200, next[0]);
    }

    @ParameterizedTest
    @ValueSource(strings = { "iwarp", "ipc" })
    void shouldMergeHistoryFromTheJournalIntoTheLiveStream(final String transport) throws Exception
    {
        final String channel = start(transport);
        final ExclusivePublication publication = bus.addExclusivePublication(channel);
        startRecorder(channel);
        // Far more than the publisher's 1 MiB retained log: the start is only in the journal.
        publishAndRecord(publication, 0, 40_000);

        final long[] next = { 0 };
        final CRC32C received = new CRC32C();
        try (ReplayMergeSubscription merge = new ReplayMergeSubscription(bus, channel, 0, null, null))
        {
            long published = 40_000;
            while (next[0] < 60_000)
            {
                Await.checkInterrupted();
                if (published < 60_000 && publication.offer(message(published), 0, 8) > 0)
                {
                    published++;
                }
                bus.doWork();
                recorder.doWork();
                merge.poll((buffer, offset, length, header) ->
                {
                    assertEquals(next[0], header.sequence(), "sequence delivered");
                    assertEquals(next[0], buffer.getLong(offset), "payload of sequence " + next[0]);
                    update(received, buffer, offset, length);
                    next[0]++;
                }, 256);
            }
            assertTrue(merge.repairs() >= 1, "the history came from a replay");
            assertTrue(merge.repairedMessages() >= 10_000, "replayed " + merge.repairedMessages());
            assertEquals(0, merge.unrepairedMessages());
        }
        assertEquals(checksum(0, 60_000), received.getValue(), "checksum over sequences 0..59999");
    }

    /**
     * The live stream paced at 500k msg/s on this thread (which also runs the bus, the recorder and the merging
     * subscriber, so if it cannot keep that pace it publishes as fast as it can; the rate reached is printed, not
     * asserted). A subscriber asks for the history from sequence 0 after 200k messages; it is a drop subscriber, so
     * while it replays it never holds the publisher back: it is dropped and repairs again until it has caught up.
     */
    @ParameterizedTest
    @ValueSource(strings = { "iwarp", "ipc" })
    void shouldMergeIntoALiveStreamRunningAt500kMessagesPerSecond(final String transport) throws Exception
    {
        final String channel = start(transport, 1024 * 1024, 8 * 1024 * 1024, 2 * 1024 * 1024);
        final ExclusivePublication publication = bus.addExclusivePublication(channel);
        startRecorder(channel);
        publishAndRecord(publication, 0, 1);

        final long total = 1_000_000;
        final long ratePerSecond = 500_000;
        final long[] next = { 0 };
        final CRC32C received = new CRC32C();
        final byte[] scratch = new byte[8];
        ReplayMergeSubscription merge = null;
        long published = 1;
        final long startNs = System.nanoTime();
        long publishedAtNs = 0;
        try
        {
            while (next[0] < total)
            {
                Await.checkInterrupted();
                final long due = Math.min(total, (System.nanoTime() - startNs) * ratePerSecond / 1_000_000_000L);
                while (published < due && publication.offer(message(published), 0, 8) > 0)
                {
                    published++;
                }
                if (published == total && 0 == publishedAtNs)
                {
                    publishedAtNs = System.nanoTime();
                }
                bus.doWork();
                recorder.doWork();
                if (null == merge && published >= 200_000)
                {
                    merge = new ReplayMergeSubscription(bus, channel + "|policy=drop", 0, null, null);
                }
                if (null != merge)
                {
                    merge.poll((buffer, offset, length, header) ->
                    {
                        assertEquals(next[0], header.sequence(), "sequence delivered");
                        assertEquals(next[0], buffer.getLong(offset), "payload of sequence " + next[0]);
                        buffer.getBytes(offset, scratch, 0, 8);
                        received.update(scratch, 0, 8);
                        next[0]++;
                    }, 1024);
                }
            }
            System.out.printf("%s: live stream paced at %,d msg/s reached %,d msg/s; the merge repaired %d ranges, " +
                "%,d messages from the journal%n", transport, ratePerSecond,
                total * 1_000_000_000L / Math.max(1, publishedAtNs - startNs), merge.repairs(),
                merge.repairedMessages());
            assertTrue(merge.repairedMessages() >= 100_000, "replayed " + merge.repairedMessages());
            assertEquals(0, merge.unrepairedMessages());
        }
        finally
        {
            if (null != merge)
            {
                merge.close();
            }
        }
        assertEquals(checksum(0, total), received.getValue(), "checksum over sequences 0.." + (total - 1));
        assertTrue(recorderErrors.isEmpty(), recorderErrors.toString());
    }

    /**
     * A drop subscriber stops reading right after the first fragment of a two-fragment message and is dropped; the
     * message's second fragment then comes from the replay, the first having come live. The fragments keep their
     * recorded session, so the assembler joins them into the one message.
     */
    @Test
    void shouldReassembleAMessageSplitBetweenTheLiveStreamAndTheReplay() throws Exception
    {
        final String channel = start("iwarp");
        final ExclusivePublication publication = bus.addExclusivePublication(channel + "|lag=128k");
        startRecorder(channel);
        final UnsafeBuffer big = new UnsafeBuffer(ByteBuffer.allocateDirect(publication.maxPayloadLength() + 32));
        final long[] messages = { 0 };
        final io.warpbus.bus.FragmentAssembler assembler = new io.warpbus.bus.FragmentAssembler(
            (buffer, offset, length, header) ->
            {
                assertEquals(big.capacity(), length, "length of message " + messages[0]);
                assertEquals(messages[0], buffer.getLong(offset), "start of message " + messages[0]);
                assertEquals(messages[0], buffer.getLong(offset + length - 8), "end of message " + messages[0]);
                messages[0]++;
            });
        final int[] lastFlags = { 0 };
        final io.warpbus.bus.FragmentHandler handler = (buffer, offset, length, header) ->
        {
            lastFlags[0] = header.flags();
            assembler.onFragment(buffer, offset, length, header);
        };
        try (ReplayMergeSubscription merge = new ReplayMergeSubscription(bus, channel + "|policy=drop", 0, null,
            null))
        {
            await(() ->
            {
                recorder.doWork();
                merge.poll(handler, 1);
                return publication.subscriberCount() == 2;
            }, "the recorder and the subscriber to join");
            long published = 0;
            // Read one fragment at a time and stop just after a message's first fragment.
            while (lastFlags[0] != io.warpbus.bus.protocol.FrameDescriptor.FLAG_BEGIN)
            {
                Await.checkInterrupted();
                if (published < 10 && offer(publication, big, published))
                {
                    published++;
                }
                bus.doWork();
                recorder.doWork();
                merge.poll(handler, 1);
            }
            final long stoppedInside = messages[0];
            // Far past the drop lag without reading: dropped, and the rest of that message is no longer retained.
            while (published < stoppedInside + 200)
            {
                Await.checkInterrupted();
                if (offer(publication, big, published))
                {
                    published++;
                }
                bus.doWork();
                recorder.doWork();
            }
            final long total = published;
            await(() ->
            {
                recorder.doWork();
                merge.poll(handler, 64);
                return messages[0] == total;
            }, "every message reassembled");
            assertTrue(merge.repairs() >= 1, "the rest came from a replay");
            assertEquals(0, merge.unrepairedMessages());
        }
        assertTrue(recorderErrors.isEmpty(), recorderErrors.toString());
    }

    private static boolean offer(final ExclusivePublication publication, final UnsafeBuffer message, final long id)
    {
        message.putLong(0, id);
        message.putLong(message.capacity() - 8, id);
        return publication.offer(message, 0, message.capacity()) > 0;
    }

    @Test
    void shouldRepairTheGapOfASlowConsumerDropFromTheJournal() throws Exception
    {
        final String channel = start("iwarp");
        final ExclusivePublication publication = bus.addExclusivePublication(channel + "|lag=128k");
        startRecorder(channel);
        final List<String> unrepaired = new ArrayList<>();
        final long[] next = { 0 };
        final CRC32C received = new CRC32C();
        try (ReplayMergeSubscription merge = new ReplayMergeSubscription(bus, channel + "|policy=drop", 0, null,
            new ReplayMergeSubscription.Listener()
            {
                @Override
                public void onUnrepairedGap(final long fromSequence, final long toSequence, final String reason)
                {
                    unrepaired.add(fromSequence + ".." + toSequence + ": " + reason);
                }
            }))
        {
            await(() ->
            {
                bus.doWork();
                recorder.doWork();
                merge.poll((buffer, offset, length, header) -> fail("nothing published yet"), 1);
                return publication.subscriberCount() == 2;
            }, "the recorder and the subscriber to join");
            long published = 0;
            final int total = 50_000;
            while (next[0] < total)
            {
                Await.checkInterrupted();
                if (published < total && publication.offer(message(published), 0, 8) > 0)
                {
                    published++;
                }
                bus.doWork();
                recorder.doWork();
                // The subscriber stops reading for a while, far behind the drop lag: it is dropped.
                if (published < 10_000 || published > 20_000 || published == total)
                {
                    merge.poll((buffer, offset, length, header) ->
                    {
                        assertEquals(next[0], header.sequence(), "sequence delivered");
                        assertEquals(next[0], buffer.getLong(offset), "payload of sequence " + next[0]);
                        update(received, buffer, offset, length);
                        next[0]++;
                    }, 256);
                }
            }
            assertTrue(merge.repairs() >= 1, "the dropped range came from a replay");
            assertTrue(unrepaired.isEmpty(), unrepaired.toString());
            assertTrue(merge.live().images().length <= 1);
        }
        assertEquals(checksum(0, 50_000), received.getValue(), "checksum over sequences 0..49999");
        assertTrue(recorderErrors.isEmpty(), recorderErrors.toString());
    }

    @Test
    void shouldReportARangeTheJournalDoesNotHoldAndGoOn() throws Exception
    {
        final String channel = start("iwarp");
        final ExclusivePublication publication = bus.addExclusivePublication(channel);
        final Subscription early = bus.addSubscription(channel);
        // 40k messages before the recorder starts: the first of them are in neither the retained log nor the journal.
        for (long i = 0; i < 40_000; i++)
        {
            while (publication.offer(message(i), 0, 8) < 0)
            {
                Await.checkInterrupted();
                bus.doWork();
                early.poll((buffer, offset, length, header) -> { }, 256);
            }
        }
        early.close();
        startRecorder(channel);
        publishAndRecord(publication, 40_000, 41_000);
        final List<String> unrepaired = new ArrayList<>();
        final long[] first = { -1 };
        try (ReplayMergeSubscription merge = new ReplayMergeSubscription(bus, channel, 0, null,
            new ReplayMergeSubscription.Listener()
            {
                @Override
                public void onUnrepairedGap(final long fromSequence, final long toSequence, final String reason)
                {
                    unrepaired.add(fromSequence + ".." + toSequence + ": " + reason);
                }
            }))
        {
            await(() ->
            {
                bus.doWork();
                recorder.doWork();
                merge.poll((buffer, offset, length, header) ->
                {
                    if (first[0] < 0)
                    {
                        first[0] = header.sequence();
                    }
                }, 256);
                return merge.nextSequence() == 41_000;
            }, "the subscriber to reach the live edge");
        }
        assertEquals(1, unrepaired.size(), unrepaired.toString());
        assertTrue(unrepaired.get(0).startsWith("0.." + (first[0] - 1) + ": "), unrepaired.toString());
        assertTrue(unrepaired.get(0).contains("before retention"), unrepaired.toString());
    }

    private String start(final String transport) throws Exception
    {
        return start(transport, 64 * 1024, 1024 * 1024, 256 * 1024);
    }

    private String start(final String transport, final int term, final int window, final int ring) throws Exception
    {
        bus = Bus.launch(new BusContext().directory(dir.resolve("bus")).name("replay")
            .threadingMode(ThreadingMode.INVOKER).termLength(term).window(window).ringCapacity(ring));
        journal = Journal.open(new JournalContext().directory(dir.resolve("journal")));
        if ("ipc".equals(transport))
        {
            return "warp:ipc?stream=" + STREAM;
        }
        return "warp:iwarp?endpoint=127.0.0.1:" + FreePorts.loopback() + "|stream=" + STREAM;
    }

    private void startRecorder(final String channel) throws Exception
    {
        recorder = new StreamRecorder(bus, journal, channel, "127.0.0.1:" + FreePorts.loopback(), recorderErrors::add);
    }

    private void publishAndRecord(final ExclusivePublication publication, final long from, final long to)
    {
        await(() ->
        {
            bus.doWork();
            recorder.doWork();
            return recorder.isConnected();
        }, "the recorder to join");
        for (long i = from; i < to; i++)
        {
            while (publication.offer(message(i), 0, 8) < 0)
            {
                Await.checkInterrupted();
                bus.doWork();
                recorder.doWork();
            }
        }
        await(() ->
        {
            bus.doWork();
            recorder.doWork();
            if (!recorderErrors.isEmpty())
            {
                fail("recorder errors: " + recorderErrors);
            }
            return recorder.lastSequence() == to - 1;
        }, "the recorder to record up to " + (to - 1));
    }

    private void assertRefused(final String channel, final String expected)
    {
        final Subscription replay = bus.addSubscription(channel);
        await(() ->
        {
            recorder.doWork();
            replay.poll((buffer, offset, length, header) -> fail("a refused replay delivered " + header.sequence()),
                10);
            return replay.isEnded();
        }, "the refusal of " + channel);
        assertTrue(replay.endReason().contains(expected), replay.endReason());
        replay.close();
    }

    private UnsafeBuffer message(final long sequence)
    {
        message.putLong(0, sequence);
        return message;
    }

    private static long checksum(final long from, final long to)
    {
        final CRC32C crc = new CRC32C();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[8]);
        for (long i = from; i < to; i++)
        {
            buffer.putLong(0, i);
            crc.update(buffer.byteArray(), 0, 8);
        }
        return crc.getValue();
    }

    private static void update(final CRC32C crc, final DirectBuffer buffer, final int offset, final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        crc.update(bytes, 0, length);
    }

    private void await(final BooleanSupplier condition, final String what)
    {
        Await.until(what, 30_000, bus::doWork, condition);
    }
}
