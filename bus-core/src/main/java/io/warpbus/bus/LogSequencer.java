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

import io.warpbus.bus.protocol.FrameDescriptor;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * Advances a publication's published position over the frames its writers have committed, stamping each data
 * frame with the next stream sequence in log order, and counts what it published. Conductor thread only.
 */
final class LogSequencer
{
    private static final int SCAN_LIMIT = 4096;

    private final LogBuffer log;
    private final boolean singleWriter;
    private final long initialSequence;
    private final AtomicCounter positionCounter;
    private final AtomicCounter messagesOut;
    private final AtomicCounter bytesOut;
    private final AtomicCounter systemMessages;
    private final AtomicCounter systemBytes;
    private long nextSequence;

    LogSequencer(
        final LogBuffer log,
        final boolean singleWriter,
        final long initialSequence,
        final AtomicCounter positionCounter,
        final AtomicCounter messagesOut,
        final AtomicCounter bytesOut,
        final AtomicCounter systemMessages,
        final AtomicCounter systemBytes)
    {
        this.log = log;
        this.singleWriter = singleWriter;
        this.initialSequence = initialSequence;
        this.nextSequence = initialSequence;
        this.positionCounter = positionCounter;
        this.messagesOut = messagesOut;
        this.bytesOut = bytesOut;
        this.systemMessages = systemMessages;
        this.systemBytes = systemBytes;
    }

    /**
     * Advance the published position over committed frames, at most {@code SCAN_LIMIT} of them, stopping at the
     * first frame not yet committed or at the clean position.
     *
     * @return frames published.
     */
    int scan()
    {
        final UnsafeBuffer buffer = log.buffer;
        // One writer commits every frame below the tail before it moves it (a claim's frame reads as length 0
        // until committed), so the scan stops at the tail and the log ahead of it need not be zeroes. Concurrent
        // writers claim first and write later: their frames are found by a length no longer 0 in zeroed space.
        final long ceiling = singleWriter ? Math.min(log.cleanPosition, log.tail.get()) : log.cleanPosition;
        long position = log.published.get();
        int frames = 0;
        int messages = 0;
        long bytes = 0;
        while (position < ceiling && frames < SCAN_LIMIT)
        {
            final int offset = log.offset(position);
            final int length = FrameDescriptor.frameLengthVolatile(buffer, offset);
            if (length <= 0)
            {
                break;
            }
            if (FrameDescriptor.TYPE_DATA == FrameDescriptor.type(buffer, offset))
            {
                FrameDescriptor.sequence(buffer, offset, nextSequence++);
                messages++;
                bytes += length - FrameDescriptor.HEADER_LENGTH;
            }
            position += FrameDescriptor.alignedLength(length - FrameDescriptor.HEADER_LENGTH);
            frames++;
        }
        if (frames > 0)
        {
            log.published.lazySet(position);
            positionCounter.setOrdered(position);
            messagesOut.getAndAddOrdered(messages);
            bytesOut.getAndAddOrdered(bytes);
            systemMessages.getAndAddOrdered(messages);
            systemBytes.getAndAddOrdered(bytes);
        }
        return frames;
    }

    /**
     * The sequence the next data frame published will carry.
     *
     * @return the sequence.
     */
    long nextSequence()
    {
        return nextSequence;
    }

    /**
     * The sequence of the publication's first data frame: 0, or the {@code initial-sequence} of a publication that
     * continues a stream.
     *
     * @return the sequence.
     */
    long initialSequence()
    {
        return initialSequence;
    }
}
