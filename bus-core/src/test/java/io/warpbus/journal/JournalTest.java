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
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.warpbus.bus.protocol.FrameDescriptor;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class JournalTest
{
    private static final int STREAM = 1001;

    @TempDir
    Path dir;
    private Journal journal;

    @AfterEach
    void tearDown()
    {
        if (null != journal)
        {
            journal.close();
        }
    }

    private Journal open()
    {
        journal = Journal.open(new JournalContext().directory(dir).rollCycle("FAST_DAILY"));
        return journal;
    }

    static UnsafeBuffer payload(final long sequence, final int length)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[length]);
        for (int i = 0; i < length; i++)
        {
            buffer.putByte(i, (byte)(sequence * 31 + i));
        }
        return buffer;
    }

    static void appendRange(final JournalWriter writer, final long from, final long to)
    {
        for (long sequence = from; sequence < to; sequence++)
        {
            final int length = (int)(sequence % 300);
            writer.append(sequence, 77, 0xC0, 1_000_000L * sequence, 1_000_000L * sequence + 5, payload(sequence,
                length), 0, length);
        }
    }

    static List<long[]> readAll(final JournalReader reader)
    {
        final List<long[]> records = new ArrayList<>();
        while (reader.poll((sequence, sessionId, flags, publisherNs, receiveNs, buffer, offset, length) ->
        {
            final byte[] bytes = new byte[length];
            buffer.getBytes(offset, bytes);
            assertArrayEquals(payload(sequence, length).byteArray(), bytes, "payload of " + sequence);
            records.add(new long[] { sequence, sessionId, flags, publisherNs, receiveNs, length });
        }, 100) > 0)
        {
            assertTrue(records.size() < 10_000_000);
        }
        return records;
    }

    @Test
    void shouldReadBackEveryFieldOfEveryRecord()
    {
        final JournalWriter writer = open().writer(STREAM);
        assertEquals(-1, writer.lastSequence());
        appendRange(writer, 0, 1000);
        final List<long[]> records = readAll(journal.reader(STREAM));
        assertEquals(1000, records.size());
        for (int i = 0; i < records.size(); i++)
        {
            final long[] r = records.get(i);
            assertArrayEquals(new long[] { i, 77, 0xC0, 1_000_000L * i, 1_000_000L * i + 5, i % 300 }, r);
        }
        assertArrayEquals(new int[] { STREAM }, journal.streams());
    }

    @Test
    void shouldAppendABusFrameWithItsHeaderFields()
    {
        final JournalWriter writer = open().writer(STREAM);
        final UnsafeBuffer frame = new UnsafeBuffer(ByteBuffer.allocateDirect(128));
        FrameDescriptor.putHeader(frame, 8, FrameDescriptor.TYPE_DATA, FrameDescriptor.FLAGS_UNFRAGMENTED, STREAM, 42,
            123_456_789L);
        FrameDescriptor.sequence(frame, 8, 9);
        frame.putLong(8 + FrameDescriptor.HEADER_LENGTH, 0xCAFEBABEL, ByteOrder.LITTLE_ENDIAN);
        writer.append(frame, 8, FrameDescriptor.HEADER_LENGTH + 8);
        final long[] seen = new long[6];
        assertEquals(1, journal.reader(STREAM).poll((sequence, sessionId, flags, publisherNs, receiveNs, buffer,
            offset, length) ->
        {
            seen[0] = sequence;
            seen[1] = sessionId;
            seen[2] = flags;
            seen[3] = publisherNs;
            seen[4] = length;
            seen[5] = buffer.getLong(offset, ByteOrder.LITTLE_ENDIAN);
        }, 10));
        assertArrayEquals(new long[] { 9, 42, FrameDescriptor.FLAGS_UNFRAGMENTED, 123_456_789L, 8, 0xCAFEBABEL }, seen);
        FrameDescriptor.putHeader(frame, 8, FrameDescriptor.TYPE_DATA, 0, STREAM + 1, 42, 1);
        FrameDescriptor.sequence(frame, 8, 10);
        final JournalException wrongStream = assertThrows(JournalException.class,
            () -> writer.append(frame, 8, FrameDescriptor.HEADER_LENGTH));
        assertTrue(wrongStream.getMessage().contains("stream " + (STREAM + 1)), wrongStream.getMessage());
    }

    @Test
    void shouldRefuseASequenceThatIsNotAfterTheLast()
    {
        final JournalWriter writer = open().writer(STREAM);
        appendRange(writer, 5, 10);
        final JournalException duplicate = assertThrows(JournalException.class, () -> appendRange(writer, 9, 10));
        assertEquals("stream 1001: sequence 9 is not after the last recorded 9 (expected 10 or more)",
            duplicate.getMessage());
        assertThrows(JournalException.class, () -> appendRange(writer, 3, 4));
        appendRange(writer, 12, 13);
        assertEquals(12, writer.lastSequence());
        assertEquals(6, readAll(journal.reader(STREAM)).size());
    }

    @Test
    void shouldRecoverTheLastSequenceWhenReopened()
    {
        appendRange(open().writer(STREAM), 100, 350);
        journal.close();
        final JournalWriter writer = open().writer(STREAM);
        assertEquals(349, writer.lastSequence());
        assertThrows(JournalException.class, () -> appendRange(writer, 349, 350));
        appendRange(writer, 350, 360);
        final List<long[]> records = readAll(journal.reader(STREAM));
        assertEquals(260, records.size());
        assertEquals(359, records.get(records.size() - 1)[0]);
    }

    @Test
    void shouldAllowOneWriterPerStream()
    {
        open().writer(STREAM);
        final JournalException second = assertThrows(JournalException.class, () -> journal.writer(STREAM));
        assertTrue(second.getMessage().contains("stream 1001 already has a writer"), second.getMessage());
    }

    @Test
    void shouldSeekBySequenceWithBinarySearch()
    {
        final JournalWriter writer = open().writer(STREAM);
        for (long i = 0; i < 2000; i++)
        {
            writer.append(10 + 3 * i, 1, 0, 1000 * i, 0, payload(i, 8), 0, 8);
        }
        final JournalReader reader = journal.reader(STREAM);
        assertEquals(10, reader.firstSequence());
        assertEquals(10 + 3 * 1999, reader.lastSequence());
        assertEquals(3010, reader.seekToSequence(3009));
        assertEquals(3010, nextSequence(reader));
        assertEquals(3010, reader.seekToSequence(3010));
        assertEquals(3010, nextSequence(reader));
        assertEquals(10, reader.seekToSequence(10));
        assertEquals(10, nextSequence(reader));
        assertEquals(-1, reader.seekToSequence(10 + 3 * 1999 + 1));
        assertEquals(0, reader.poll((s, se, f, p, r, b, o, l) -> { }, 10));
        writer.append(10 + 3 * 2000, 1, 0, 0, 0, payload(0, 8), 0, 8);
        assertEquals(10 + 3 * 2000, nextSequence(reader), "the live end follows new records");

        final JournalException before = assertThrows(JournalException.class, () -> reader.seekToSequence(9));
        assertTrue(before.getMessage().startsWith("stream 1001: sequence 9 is before the first record retained " +
            "(sequence 10 in "), before.getMessage());
        final JournalException beyond = assertThrows(JournalException.class, () -> reader.seekToSequence(7000));
        assertEquals("stream 1001: sequence 7000 is beyond the last record (sequence 6010)", beyond.getMessage());
    }

    @Test
    void shouldSeekByPublisherTimestamp()
    {
        final JournalWriter writer = open().writer(STREAM);
        for (long i = 0; i < 500; i++)
        {
            writer.append(i, 1, 0, 1_000 + 10 * i, 0, payload(i, 8), 0, 8);
        }
        final JournalReader reader = journal.reader(STREAM);
        assertEquals(3, reader.seekToTimestamp(1_025));
        assertEquals(3, nextSequence(reader));
        assertEquals(3, reader.seekToTimestamp(1_030));
        assertEquals(0, reader.seekToTimestamp(0));
        assertEquals(0, nextSequence(reader));
        assertEquals(-1, reader.seekToTimestamp(1_000_000));
        assertEquals(0, reader.poll((s, se, f, p, r, b, o, l) -> { }, 10));
    }

    @Test
    void shouldTellAStreamsRangeAndFiles()
    {
        final JournalWriter writer = open().writer(STREAM);
        appendRange(writer, 3, 103);
        final JournalStreamInfo info = journal.info(STREAM);
        assertEquals(STREAM, info.streamId());
        assertEquals(100, info.recordCount());
        assertEquals(3, info.firstSequence());
        assertEquals(102, info.lastSequence());
        assertEquals(3_000_000L, info.firstTimestampNs());
        assertEquals(102_000_000L, info.lastTimestampNs());
        assertEquals(1, info.cycles().size());
        assertEquals(100, info.cycles().get(0).recordCount());
        assertTrue(info.cycles().get(0).file().getFileName().toString().endsWith("F.cq4"), info.toString());
        assertEquals(null, info.damage());
    }

    @Test
    void shouldNameTheUnknownStream()
    {
        open();
        final JournalException unknown = assertThrows(JournalException.class, () -> journal.reader(5));
        assertEquals("unknown stream 5: no directory " + dir.resolve("stream-5"), unknown.getMessage());
    }

    static long nextSequence(final JournalReader reader)
    {
        final long[] sequence = { -1 };
        reader.poll((s, se, f, p, r, b, o, l) -> sequence[0] = s, 1);
        return sequence[0];
    }
}
