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
import org.agrona.DirectBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * A publication for one thread: claiming space is a plain increment, the cheapest path.
 */
public final class ExclusivePublication extends Publication
{
    private long tailPosition;

    ExclusivePublication(
        final Bus bus,
        final ChannelUri channel,
        final int sessionId,
        final LogBuffer log,
        final AtomicCounter backPressureEvents,
        final long registrationId)
    {
        super(bus, channel, sessionId, log, backPressureEvents, registrationId);
        this.tailPosition = log.tail.get();
    }

    @Override
    public long offer(final DirectBuffer buffer, final int offset, final int length)
    {
        checkLength(length);
        final long position = tailPosition;
        final int required = requiredLength(length);
        final int padding = padding(position, required);
        final long end = position + padding + required;
        if (closed)
        {
            return CLOSED;
        }
        if (end > log.limit.get())
        {
            return backPressured(end);
        }
        if (padding > 0)
        {
            writePadding(position, padding);
        }
        final long next = writeMessage(position + padding, buffer, offset, length);
        tailPosition = next;
        log.tail.lazySet(next);
        eagerSend();
        return next;
    }

    /**
     * Re-publish a recorded frame as it was first published: its payload, session, fragment flags and publisher
     * timestamp (the session kept, a message split between a replay and the live stream reassembles as one). For a
     * {@link ReplayProvider} feeding a replay; the frame gets this publication's next sequence.
     *
     * @param buffer      holding the payload.
     * @param offset      where it starts.
     * @param length      payload length, at most one frame's payload.
     * @param recordedSessionId the recorded publisher session.
     * @param flags       the recorded frame's flags ({@link io.warpbus.bus.protocol.FrameDescriptor#FLAG_BEGIN},
     *                    {@link io.warpbus.bus.protocol.FrameDescriptor#FLAG_END}).
     * @param timestampNs the recorded publisher timestamp.
     * @return the new position, or a negative status as for {@link #offer}.
     */
    public long offerRecorded(
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final int recordedSessionId,
        final int flags,
        final long timestampNs)
    {
        if (length < 0 || length > maxPayloadLength)
        {
            throw new IllegalArgumentException("recorded frame of " + length + " bytes: must be in [0, " +
                maxPayloadLength + "] on " + channel);
        }
        final long position = tailPosition;
        final int required = FrameDescriptor.alignedLength(length);
        final int padding = padding(position, required);
        final long end = position + padding + required;
        if (closed)
        {
            return CLOSED;
        }
        if (end > log.limit.get())
        {
            return backPressured(end);
        }
        if (padding > 0)
        {
            writePadding(position, padding);
        }
        final int frameOffset = log.offset(position + padding);
        FrameDescriptor.putHeader(logBuffer, frameOffset, FrameDescriptor.TYPE_DATA, flags, streamId,
            recordedSessionId,
            timestampNs);
        logBuffer.putBytes(frameOffset + FrameDescriptor.HEADER_LENGTH, buffer, offset, length);
        FrameDescriptor.commit(logBuffer, frameOffset, FrameDescriptor.HEADER_LENGTH + length);
        tailPosition = end;
        log.tail.lazySet(end);
        return end;
    }

    @Override
    public long tryClaim(final int length, final BufferClaim claim)
    {
        if (length < 0 || length > maxPayloadLength)
        {
            throw new IllegalArgumentException("claim of " + length + " bytes: must be in [0, " + maxPayloadLength +
                "] on " + channel);
        }
        final long position = tailPosition;
        final int required = requiredLength(length);
        final int padding = padding(position, required);
        final long end = position + padding + required;
        if (closed)
        {
            return CLOSED;
        }
        if (end > log.limit.get())
        {
            return backPressured(end);
        }
        if (padding > 0)
        {
            writePadding(position, padding);
        }
        prepareClaim(position + padding, length, claim);
        tailPosition = end;
        log.tail.lazySet(end);
        return end;
    }
}
