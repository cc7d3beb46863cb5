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

import java.nio.ByteOrder;
import java.util.List;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.TailerState;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Reads one stream's records in order, from the start, from a sequence or from a time, and goes on reading what a
 * writer appends in this or another process (follow mode: keep calling {@link #poll}). {@link #poll} allocates
 * nothing; seeks and the first/last queries do (they are for control paths).
 * <p>
 * Records are in increasing sequence order within a stream, so {@link #seekToSequence(long)} is a binary search over
 * cycles and then over the records of one cycle. {@link #seekToTimestamp(long)} searches the same way on the
 * publisher timestamp, which assumes the publisher's clock did not step back.
 * <p>
 * Retention may delete cycle files a reader has not reached yet: {@link #poll} then moves on to the oldest cycle
 * still there, which the caller sees as a jump in the sequences delivered. A file being read when it is deleted
 * stays readable to its end (the reader holds its mapping). On a damaged stream only the records before the damaged
 * file are read.
 * A reader is used by one thread at a time.
 */
public final class JournalReader implements AutoCloseable
{
    private final JournalStream stream;
    private final ExcerptTailer tailer;
    private final ExcerptTailer probe;
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private final long endIndex;
    private final int streamId;
    private long lastReadSequence = -1;
    private boolean closed;

    JournalReader(final JournalStream stream)
    {
        this.stream = stream;
        this.streamId = stream.streamId;
        this.endIndex = stream.endIndex;
        this.tailer = stream.newTailer();
        this.probe = stream.newTailer();
    }

    /**
     * Deliver up to {@code limit} records to the handler.
     *
     * @param handler receives each record.
     * @param limit   most records to deliver.
     * @return records delivered; 0 at the end of what has been written so far.
     * @throws JournalException naming the stream, index and file of a corrupt record.
     */
    public int poll(final JournalHandler handler, final int limit)
    {
        int count = 0;
        if (null == tailer)
        {
            return 0;
        }
        while (count < limit)
        {
            if (Long.MAX_VALUE != endIndex && tailer.index() >= endIndex)
            {
                break;
            }
            try (DocumentContext document = tailer.readingDocument())
            {
                if (!document.isPresent())
                {
                    if (TailerState.CYCLE_NOT_FOUND == tailer.state() && skipDeletedCycle())
                    {
                        continue;
                    }
                    break;
                }
                final Bytes<?> bytes = document.wire().bytes();
                final int length = (int)bytes.readRemaining();
                stream.checkRecord(document.index(), length);
                final UnsafeBuffer view = this.view;
                view.wrap(bytes.addressForRead(bytes.readPosition(), length), length);
                final int payloadLength = view.getInt(JournalRecordDescriptor.PAYLOAD_LENGTH_OFFSET,
                    ByteOrder.LITTLE_ENDIAN);
                if (payloadLength != length - JournalRecordDescriptor.HEADER_LENGTH)
                {
                    throw stream.corrupt(document.index(), "payload length " + payloadLength + " in a document of " +
                        length + " bytes");
                }
                final long sequence = view.getLong(JournalRecordDescriptor.SEQUENCE_OFFSET, ByteOrder.LITTLE_ENDIAN);
                lastReadSequence = sequence;
                handler.onRecord(
                    sequence,
                    view.getInt(JournalRecordDescriptor.SESSION_ID_OFFSET, ByteOrder.LITTLE_ENDIAN),
                    view.getShort(JournalRecordDescriptor.FLAGS_OFFSET, ByteOrder.LITTLE_ENDIAN) & 0xFFFF,
                    view.getLong(JournalRecordDescriptor.PUBLISHER_TIMESTAMP_OFFSET, ByteOrder.LITTLE_ENDIAN),
                    view.getLong(JournalRecordDescriptor.RECEIVE_TIMESTAMP_OFFSET, ByteOrder.LITTLE_ENDIAN),
                    view,
                    JournalRecordDescriptor.PAYLOAD_OFFSET,
                    payloadLength);
            }
            count++;
        }
        return count;
    }

    /**
     * Position at the first record with a sequence of {@code sequence} or more.
     *
     * @param sequence from {@link #firstSequence()} to {@link #lastSequence()} + 1 (the live end).
     * @return the sequence of the record the next {@link #poll} delivers, or -1 when positioned at the end.
     * @throws JournalException naming the stream and the range when the sequence is before the first record
     *                          retained or beyond the last record plus one.
     */
    public long seekToSequence(final long sequence)
    {
        return seek(sequence, 0, "sequence");
    }

    /**
     * Position at the first record with a publisher timestamp of {@code timestampNs} or later.
     *
     * @param timestampNs epoch nanoseconds; earlier than the first record positions at the first record.
     * @return the sequence of the record the next {@link #poll} delivers, or -1 when every record is earlier
     * (positioned at the end, to follow what comes next).
     */
    public long seekToTimestamp(final long timestampNs)
    {
        return seek(timestampNs, 1, "timestamp");
    }

    /**
     * Position before the first record.
     *
     * @return this.
     */
    public JournalReader toStart()
    {
        final List<int[]> cycles = stream.readableCycles(probe);
        if (!cycles.isEmpty())
        {
            tailer.moveToIndex(stream.rollCycle.toIndex(cycles.get(0)[0], 0));
        }
        else if (Long.MAX_VALUE == endIndex && null != tailer)
        {
            tailer.toStart();
        }
        return this;
    }

    /**
     * Position after the last record, to read only what is appended from now on.
     *
     * @return this.
     */
    public JournalReader toEnd()
    {
        final long[] header = new long[2];
        stream.last(probe, header);
        if (header[0] >= 0)
        {
            seekToSequence(header[0] + 1);
        }
        else
        {
            toStart();
        }
        return this;
    }

    /**
     * Sequence of the first record readable now, -1 when none.
     *
     * @return the sequence.
     */
    public long firstSequence()
    {
        final long[] header = new long[2];
        stream.first(probe, header);
        return header[0];
    }

    /**
     * Sequence of the last record readable now, -1 when none.
     *
     * @return the sequence.
     */
    public long lastSequence()
    {
        final long[] header = new long[2];
        stream.last(probe, header);
        return header[0];
    }

    /**
     * Sequence of the record {@link #poll} delivered last, -1 before the first.
     *
     * @return the sequence.
     */
    public long lastReadSequence()
    {
        return lastReadSequence;
    }

    /**
     * What is wrong with the stream's files, when the reader stops before a damaged file.
     *
     * @return the description, or null for a sound stream.
     */
    public String damage()
    {
        return stream.damage;
    }

    /**
     * The stream.
     *
     * @return the stream id.
     */
    public int streamId()
    {
        return streamId;
    }

    /**
     * Close the reader; the journal stays open.
     */
    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            CloseHelper.quietClose(tailer);
            CloseHelper.quietClose(probe);
        }
    }

    /**
     * Chronicle found no file for the next cycle its directory listing named (deleted since the listing was read,
     * as by another process's retention): refresh the listing and move to the next cycle that exists.
     */
    private boolean skipDeletedCycle()
    {
        stream.queue.refreshDirectoryListing();
        final int current = tailer.cycle();
        for (final int[] cycle : stream.readableCycles(probe))
        {
            if (cycle[0] > current)
            {
                return tailer.moveToIndex(stream.rollCycle.toIndex(cycle[0], 0));
            }
        }
        return false;
    }

    private long seek(final long target, final int field, final String what)
    {
        final List<int[]> cycles = stream.readableCycles(probe);
        if (cycles.isEmpty())
        {
            toStart();
            return -1;
        }
        final long[] header = new long[2];
        final int[] firstCycle = cycles.get(0);
        final int[] lastCycle = cycles.get(cycles.size() - 1);
        final long lastIndex = stream.rollCycle.toIndex(lastCycle[0], lastCycle[1] - 1);
        readAt(lastIndex, header);
        final long last = header[field];
        final long lastSequence = header[0];
        readAt(stream.rollCycle.toIndex(firstCycle[0], 0), header);
        final long first = header[field];
        if (0 == field && target < first)
        {
            throw new JournalException("stream " + streamId + ": sequence " + target + " is before the first record " +
                "retained (sequence " + first + " in " + stream.cycleFile(firstCycle[0]) + "): deleted by retention " +
                "or never recorded");
        }
        if (0 == field && target > last + 1)
        {
            throw new JournalException("stream " + streamId + ": sequence " + target + " is beyond the last record " +
                "(sequence " + last + ")");
        }
        if (target > last)
        {
            tailer.moveToIndex(lastIndex);
            tailer.readingDocument().close();
            lastReadSequence = lastSequence;
            return -1;
        }
        int lo = 0;
        int hi = cycles.size() - 1;
        while (lo < hi)
        {
            final int mid = (lo + hi) >>> 1;
            final int[] cycle = cycles.get(mid);
            readAt(stream.rollCycle.toIndex(cycle[0], cycle[1] - 1), header);
            if (header[field] >= target)
            {
                hi = mid;
            }
            else
            {
                lo = mid + 1;
            }
        }
        final int[] cycle = cycles.get(lo);
        int low = 0;
        int high = cycle[1] - 1;
        while (low < high)
        {
            final int mid = (low + high) >>> 1;
            readAt(stream.rollCycle.toIndex(cycle[0], mid), header);
            if (header[field] >= target)
            {
                high = mid;
            }
            else
            {
                low = mid + 1;
            }
        }
        final long index = stream.rollCycle.toIndex(cycle[0], low);
        readAt(index, header);
        if (!tailer.moveToIndex(index))
        {
            throw new JournalException("stream " + streamId + ": cannot move to index 0x" + Long.toHexString(index) +
                " in " + stream.cycleFile(cycle[0]) + " for " + what + " " + target);
        }
        return header[0];
    }

    private void readAt(final long index, final long[] header)
    {
        if (!stream.readAt(probe, index, header))
        {
            throw new JournalException("stream " + streamId + ": no record at index 0x" + Long.toHexString(index) +
                " in " + stream.cycleFile(stream.rollCycle.toCycle(index)) + " (deleted by retention meanwhile?)");
        }
    }
}
