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

import io.warpbus.bus.protocol.FrameDescriptor;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Appends records to one stream, in increasing sequence order (record layout in {@link JournalRecordDescriptor}).
 * Each record is one Chronicle document: its header is written not-complete first and completed last, so a reader
 * never sees a half-written record, and a process killed mid-append leaves a document that readers skip and the
 * next appender recovers.
 * <p>
 * On open the writer reads the last record and resumes from its sequence ({@link #lastSequence()}, -1 when the
 * stream is empty): a recorder restarted after {@code kill -9} continues with no hole and no duplicate as long as
 * its source resends from {@code lastSequence() + 1}. {@link #append} refuses a sequence that is not greater than
 * the last one with a {@link JournalException}; callers that may see duplicates check {@link #lastSequence()}
 * first. One writer per stream, across processes (a lock file in the stream's directory); use it from one thread
 * at a time. {@code append} allocates nothing in steady state; when the cycle rolls it applies retention (file
 * deletions, once per cycle).
 */
public final class JournalWriter implements AutoCloseable
{
    private final JournalStream stream;
    private final ExcerptAppender appender;
    private final EpochNanoClock clock;
    private final UnsafeBuffer record = new UnsafeBuffer(0, 0);
    private final int streamId;
    private long lastSequence;
    private long lastIndex = -1;
    private RuntimeException retentionFailure;
    private int cycle = Integer.MIN_VALUE;
    private boolean closed;

    JournalWriter(final JournalStream stream)
    {
        this.stream = stream;
        this.streamId = stream.streamId;
        this.clock = stream.context().epochNanoClock();
        final long[] last = new long[2];
        stream.last(stream.probe(), last);
        this.lastSequence = last[0];
        this.appender = stream.queue.createAppender();
        this.appender.singleThreadedCheckDisabled(true);
        stream.applyRetention();
    }

    /**
     * Append a record.
     *
     * @param sequence             greater than {@link #lastSequence()}.
     * @param sessionId            the publisher's session.
     * @param flags                frame flags (16 bits kept).
     * @param publisherTimestampNs when the publisher sent it, epoch nanoseconds.
     * @param receiveTimestampNs   when it was received, epoch nanoseconds.
     * @param buffer               holding the payload.
     * @param offset               where the payload starts.
     * @param length               payload length, at most {@link JournalRecordDescriptor#MAX_PAYLOAD_LENGTH}.
     * @return the record's Chronicle index.
     * @throws JournalException naming the stream, the expected and the given sequence when out of order.
     */
    public long append(
        final long sequence,
        final int sessionId,
        final int flags,
        final long publisherTimestampNs,
        final long receiveTimestampNs,
        final DirectBuffer buffer,
        final int offset,
        final int length)
    {
        checkAppend(sequence, length);
        final DocumentContext document = appender.writingDocument();
        try
        {
            final UnsafeBuffer record = claim(document, length);
            putHeader(record, length, sequence, sessionId, flags, publisherTimestampNs, receiveTimestampNs);
            record.putBytes(JournalRecordDescriptor.PAYLOAD_OFFSET, buffer, offset, length);
        }
        catch (final RuntimeException ex)
        {
            document.rollbackOnClose();
            throw ex;
        }
        finally
        {
            document.close();
        }
        return appended(sequence);
    }

    /**
     * Append a bus data frame as it sits in a publication's log or a subscriber's ring (layout in
     * {@link FrameDescriptor}): its sequence, session, flags and timestamp go into the record header, its payload
     * follows, and the receive timestamp is now.
     *
     * @param buffer holding the frame.
     * @param offset of the frame header.
     * @param length the frame's length, header included.
     * @return the record's Chronicle index.
     * @throws JournalException when the frame is of another stream, too short, or out of sequence.
     */
    public long append(final UnsafeBuffer buffer, final int offset, final int length)
    {
        if (length < FrameDescriptor.HEADER_LENGTH)
        {
            throw new JournalException("stream " + streamId + ": a frame of " + length + " bytes is shorter than " +
                "its header");
        }
        final int frameStream = buffer.getInt(offset + FrameDescriptor.STREAM_ID_OFFSET, ByteOrder.LITTLE_ENDIAN);
        if (frameStream != streamId)
        {
            throw new JournalException("stream " + streamId + ": cannot append a frame of stream " + frameStream);
        }
        return append(
            FrameDescriptor.sequence(buffer, offset),
            buffer.getInt(offset + FrameDescriptor.SESSION_ID_OFFSET, ByteOrder.LITTLE_ENDIAN),
            FrameDescriptor.flags(buffer, offset),
            buffer.getLong(offset + FrameDescriptor.TIMESTAMP_OFFSET, ByteOrder.LITTLE_ENDIAN),
            clock.nanoTime(),
            buffer,
            offset + FrameDescriptor.HEADER_LENGTH,
            length - FrameDescriptor.HEADER_LENGTH);
    }

    /**
     * Retention that failed when an append rolled to a new cycle (the append itself succeeded); it runs again at
     * the next roll or on {@link Journal#applyRetention()}. Reading it clears it.
     *
     * @return the failure, or null.
     */
    public RuntimeException retentionFailure()
    {
        final RuntimeException failure = retentionFailure;
        retentionFailure = null;
        return failure;
    }

    /**
     * The sequence of the last record appended.
     *
     * @return the sequence, -1 when none.
     */
    public long lastSequence()
    {
        return lastSequence;
    }

    /**
     * Chronicle index of the last record this writer appended, -1 before the first.
     *
     * @return the index.
     */
    public long lastIndex()
    {
        return lastIndex;
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
     * Has the writer been closed?
     *
     * @return true once closed.
     */
    public boolean isClosed()
    {
        return closed;
    }

    /**
     * Close the writer and release the stream's writer lock; the journal stays open.
     */
    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            appender.close();
            stream.onWriterClosed();
        }
    }

    private void checkAppend(final long sequence, final int length)
    {
        if (closed)
        {
            throw new JournalException("stream " + streamId + ": the writer is closed");
        }
        if (sequence <= lastSequence)
        {
            throw new JournalException("stream " + streamId + ": sequence " + sequence + " is not after the last " +
                "recorded " + lastSequence + " (expected " + (lastSequence + 1) + " or more)");
        }
        if (length < 0 || length > JournalRecordDescriptor.MAX_PAYLOAD_LENGTH)
        {
            throw new JournalException("stream " + streamId + ": payload length " + length + " outside [0, " +
                JournalRecordDescriptor.MAX_PAYLOAD_LENGTH + "]");
        }
    }

    private UnsafeBuffer claim(final DocumentContext document, final int length)
    {
        final Bytes<?> bytes = document.wire().bytes();
        final int recordLength = JournalRecordDescriptor.HEADER_LENGTH + length;
        final long position = bytes.writePosition();
        bytes.writeSkip(recordLength);
        record.wrap(bytes.addressForWrite(position), recordLength);
        return record;
    }

    private static void putHeader(
        final UnsafeBuffer record,
        final int length,
        final long sequence,
        final int sessionId,
        final int flags,
        final long publisherTimestampNs,
        final long receiveTimestampNs)
    {
        record.putInt(JournalRecordDescriptor.PAYLOAD_LENGTH_OFFSET, length, ByteOrder.LITTLE_ENDIAN);
        record.putShort(JournalRecordDescriptor.FLAGS_OFFSET, (short)flags, ByteOrder.LITTLE_ENDIAN);
        record.putByte(JournalRecordDescriptor.VERSION_OFFSET, (byte)JournalRecordDescriptor.VERSION);
        record.putByte(JournalRecordDescriptor.VERSION_OFFSET + 1, (byte)0);
        record.putLong(JournalRecordDescriptor.SEQUENCE_OFFSET, sequence, ByteOrder.LITTLE_ENDIAN);
        record.putInt(JournalRecordDescriptor.SESSION_ID_OFFSET, sessionId, ByteOrder.LITTLE_ENDIAN);
        record.putInt(JournalRecordDescriptor.SESSION_ID_OFFSET + 4, 0, ByteOrder.LITTLE_ENDIAN);
        record.putLong(JournalRecordDescriptor.PUBLISHER_TIMESTAMP_OFFSET, publisherTimestampNs,
            ByteOrder.LITTLE_ENDIAN);
        record.putLong(JournalRecordDescriptor.RECEIVE_TIMESTAMP_OFFSET, receiveTimestampNs, ByteOrder.LITTLE_ENDIAN);
    }

    private long appended(final long sequence)
    {
        lastSequence = sequence;
        lastIndex = appender.lastIndexAppended();
        final int appendedCycle = appender.cycle();
        if (appendedCycle != cycle)
        {
            final boolean rolled = Integer.MIN_VALUE != cycle;
            cycle = appendedCycle;
            if (rolled)
            {
                try
                {
                    stream.applyRetention();
                }
                catch (final RuntimeException ex)
                {
                    // The record is written: failing the append would have the caller write it again.
                    retentionFailure = ex;
                }
            }
        }
        return lastIndex;
    }
}
