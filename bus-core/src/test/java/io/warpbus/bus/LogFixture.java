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

import io.warpbus.bus.protocol.FrameDescriptor;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;

/**
 * A publication's log and counters without a bus, for the tests of the classes that work on a log alone.
 */
final class LogFixture
{
    static final int TERM_LENGTH = 64 * 1024;
    static final int WINDOW_LENGTH = 4 * TERM_LENGTH;
    static final int STREAM_ID = 1001;
    static final int SESSION_ID = 42;
    private static final int MAX_COUNTERS = 64;

    final LogBuffer log = new LogBuffer(TERM_LENGTH, WINDOW_LENGTH);
    final CountersManager counters = new CountersManager(
        new UnsafeBuffer(ByteBuffer.allocateDirect(MAX_COUNTERS * CountersReader.METADATA_LENGTH)),
        new UnsafeBuffer(ByteBuffer.allocateDirect(MAX_COUNTERS * CountersReader.COUNTER_LENGTH)));
    final AtomicCounter position = counters.newCounter("position");
    final AtomicCounter messages = counters.newCounter("messages");
    final AtomicCounter bytes = counters.newCounter("bytes");

    /**
     * A sequencer of this log counting into this fixture's counters (its system counters too).
     *
     * @param initialSequence the sequence of the first data frame.
     * @return the sequencer.
     */
    LogSequencer sequencer(final long initialSequence)
    {
        return sequencer(initialSequence, false);
    }

    /**
     * A sequencer of this log counting into this fixture's counters (its system counters too).
     *
     * @param initialSequence the sequence of the first data frame.
     * @param singleWriter    the log has one writer (an exclusive publication), so the scan stops at its tail.
     * @return the sequencer.
     */
    LogSequencer sequencer(final long initialSequence, final boolean singleWriter)
    {
        return new LogSequencer(log, singleWriter, initialSequence, position, messages, bytes,
            counters.newCounter("all messages"), counters.newCounter("all bytes"));
    }

    /**
     * Write a frame at the tail as a writer does (header, then the committing length) and advance the tail.
     *
     * @param type          {@link FrameDescriptor#TYPE_DATA} or {@link FrameDescriptor#TYPE_PAD}.
     * @param payloadLength payload bytes.
     * @return the frame's position.
     */
    long append(final int type, final int payloadLength)
    {
        final long position = log.tail.get();
        final int offset = log.offset(position);
        FrameDescriptor.putHeader(log.buffer, offset, type, FrameDescriptor.FLAGS_UNFRAGMENTED, STREAM_ID,
            SESSION_ID, 0);
        FrameDescriptor.commit(log.buffer, offset, FrameDescriptor.HEADER_LENGTH + payloadLength);
        log.tail.set(position + FrameDescriptor.alignedLength(payloadLength));
        return position;
    }

    /**
     * Append data frames of one payload length.
     *
     * @param count         how many.
     * @param payloadLength payload bytes of each.
     */
    void appendData(final int count, final int payloadLength)
    {
        for (int i = 0; i < count; i++)
        {
            append(FrameDescriptor.TYPE_DATA, payloadLength);
        }
    }
}
