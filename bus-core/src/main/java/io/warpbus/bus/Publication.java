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
import io.warpbus.bus.status.SystemCounterDescriptor;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * Publishes messages on one stream of a channel. {@link #offer} copies a message into the publication's log and
 * returns the new stream position, or a negative status; it never blocks and never drops silently. The bus sends
 * each committed frame to every connected subscriber (one copy in the log, no per-subscriber copy).
 * <p>
 * {@link ExclusivePublication} is for one publishing thread, {@link ConcurrentPublication} for many.
 */
public abstract class Publication implements AutoCloseable
{
    /** No subscriber is connected: the message was not accepted. */
    public static final long NOT_CONNECTED = -1;
    /** A blocking subscriber is full: retry later. */
    public static final long BACK_PRESSURED = -2;
    /** The bus is preparing the next part of the log (cleaning a term): retry at once. */
    public static final long ADMIN_ACTION = -3;
    /** The publication is closed. */
    public static final long CLOSED = -4;
    /** The stream position would overflow. */
    public static final long MAX_POSITION_EXCEEDED = -5;
    static final long MAX_POSITION = Long.MAX_VALUE - Integer.MAX_VALUE;

    /**
     * The name of an {@link #offer} or {@link #tryClaim} result, for logs and errors.
     *
     * @param result a result.
     * @return "NOT_CONNECTED", "BACK_PRESSURED", ..., or "position N" for a success.
     */
    public static String statusName(final long result)
    {
        if (NOT_CONNECTED == result)
        {
            return "NOT_CONNECTED";
        }
        if (BACK_PRESSURED == result)
        {
            return "BACK_PRESSURED";
        }
        if (ADMIN_ACTION == result)
        {
            return "ADMIN_ACTION";
        }
        if (CLOSED == result)
        {
            return "CLOSED";
        }
        if (MAX_POSITION_EXCEEDED == result)
        {
            return "MAX_POSITION_EXCEEDED";
        }
        return result >= 0 ? "position " + result : "unknown status " + result;
    }

    final Bus bus;
    final ChannelUri channel;
    final int streamId;
    final int sessionId;
    final LogBuffer log;
    final UnsafeBuffer logBuffer;
    final int termLength;
    final int termMask;
    final int maxPayloadLength;
    final int maxMessageLength;
    final EpochNanoClock clock;
    /** {@code timestamp=cycle}: offers on the bus's thread share the duty cycle's clock read. */
    private final BusConductor cycleClock;
    final AtomicCounter backPressureEvents;
    final AtomicCounter systemBackPressure;
    final long registrationId;
    io.warpbus.iwarp.ProtectionDomain protectionDomain;
    /** IPC only: this process's hold on the stream (one publisher per IPC stream and host); else null. */
    java.nio.channels.FileLock ipcLock;
    volatile boolean closed;
    /** IPC only: the fan-out to run at once when the offering thread is the bus's own. */
    PublicationFanOut eagerFanOut;
    PublicationFanOut fanOut;

    Publication(
        final Bus bus,
        final ChannelUri channel,
        final int sessionId,
        final LogBuffer log,
        final AtomicCounter backPressureEvents,
        final long registrationId)
    {
        this.bus = bus;
        this.registrationId = registrationId;
        this.systemBackPressure = bus.systemCounter(SystemCounterDescriptor.BACK_PRESSURE_EVENTS);
        this.channel = channel;
        this.streamId = channel.streamId();
        this.sessionId = sessionId;
        this.log = log;
        this.logBuffer = log.buffer;
        this.termLength = log.termLength;
        this.termMask = log.termMask;
        this.maxPayloadLength = Math.min(log.termLength / 8, 64 * 1024) - FrameDescriptor.HEADER_LENGTH;
        this.maxMessageLength = log.termLength / 8;
        this.clock = bus.context().epochNanoClock();
        this.cycleClock = channel.cycleTimestamps() ? bus.conductor() : null;
        this.backPressureEvents = backPressureEvents;
    }

    /**
     * Publish a message. Messages longer than {@link #maxPayloadLength()} are sent as fragments that a
     * {@link FragmentAssembler} puts back together.
     *
     * @param buffer holding the message.
     * @param offset where it starts.
     * @param length its length, at most {@link #maxMessageLength()}.
     * @return the new stream position, or {@link #NOT_CONNECTED}, {@link #BACK_PRESSURED}, {@link #ADMIN_ACTION},
     * {@link #CLOSED} or {@link #MAX_POSITION_EXCEEDED}.
     */
    public abstract long offer(DirectBuffer buffer, int offset, int length);

    /**
     * Claim space for a message of at most {@link #maxPayloadLength()} bytes to write in place.
     *
     * @param length message length.
     * @param claim  set up over the claimed space on success.
     * @return the new stream position, or a negative status as {@link #offer}.
     */
    public abstract long tryClaim(int length, BufferClaim claim);

    /**
     * The stream id.
     *
     * @return the id.
     */
    public int streamId()
    {
        return streamId;
    }

    /**
     * This publication's session, a random id subscribers see in every frame.
     *
     * @return the session id.
     */
    public int sessionId()
    {
        return sessionId;
    }

    /**
     * The channel.
     *
     * @return the channel.
     */
    public ChannelUri channel()
    {
        return channel;
    }

    /**
     * Bytes published so far: the position after the last claimed message.
     *
     * @return the position.
     */
    public long position()
    {
        return log.tail.get();
    }

    /**
     * How far the stream may advance before subscribers must catch up.
     *
     * @return the limit position.
     */
    public long positionLimit()
    {
        return log.limit.get();
    }

    /**
     * Is at least one subscriber connected?
     *
     * @return true when offers can be accepted.
     */
    public boolean isConnected()
    {
        return log.connected && !closed;
    }

    /**
     * Subscribers currently attached.
     *
     * @return the count.
     */
    public int subscriberCount()
    {
        return log.subscriberCount;
    }

    /**
     * Durable subscribers (recorders) this publication lost and expects back: it keeps their places in its log
     * for up to the durable timeout ({@link BusContext#durableTimeoutNs(long)}), counts as connected meanwhile, and
     * back-pressures only once its log is full.
     *
     * @return the count.
     */
    public int absentDurableSubscriberCount()
    {
        return log.absentDurableCount;
    }

    /**
     * Durable subscribers whose places this publication released because they did not return within the durable
     * timeout (each will find a gap where it left, which its journal records).
     *
     * @return the count since the publication started.
     */
    public long expiredDurableSubscriberCount()
    {
        return log.durableExpiries;
    }

    /**
     * Have all attached subscribers consumed everything offered so far (conflating ones: been sent it)? An absent
     * durable subscriber has not.
     *
     * @return true when nothing is in flight.
     */
    public boolean isDrained()
    {
        final long position = log.tail.get();
        return log.published.get() >= position && log.slowestPosition >= position;
    }

    /**
     * Longest message {@link #offer} takes.
     *
     * @return bytes.
     */
    public int maxMessageLength()
    {
        return maxMessageLength;
    }

    /**
     * Longest message sent unfragmented, and longest {@link #tryClaim}.
     *
     * @return bytes.
     */
    public int maxPayloadLength()
    {
        return maxPayloadLength;
    }

    /**
     * Has the publication been closed?
     *
     * @return true once closed.
     */
    public boolean isClosed()
    {
        return closed;
    }

    /**
     * Close the publication: subscribers are told the stream ended.
     */
    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            bus.removePublication(this);
        }
    }

    /**
     * Bytes a message occupies in the log: all its frames, aligned.
     */
    final int requiredLength(final int length)
    {
        if (length <= maxPayloadLength)
        {
            return FrameDescriptor.alignedLength(length);
        }
        final int fullFrames = length / maxPayloadLength;
        final int remainder = length - fullFrames * maxPayloadLength;
        return fullFrames * FrameDescriptor.alignedLength(maxPayloadLength) +
            (remainder > 0 ? FrameDescriptor.alignedLength(remainder) : 0);
    }

    final void checkLength(final int length)
    {
        if (length < 0 || length > maxMessageLength)
        {
            throw new IllegalArgumentException("message of " + length + " bytes: must be in [0, " +
                maxMessageLength + "] on " + channel);
        }
    }

    /**
     * Padding needed before a message so that it does not cross the end of the term.
     */
    final int padding(final long position, final int required)
    {
        final int termOffset = (int)position & termMask;
        return termOffset + required > termLength ? termLength - termOffset : 0;
    }

    /**
     * The negative status to return when a message ending at {@code end} does not fit under the limit; only true
     * back pressure from a subscriber is counted.
     */
    final long backPressured(final long end)
    {
        if (!log.connected)
        {
            return NOT_CONNECTED;
        }
        if (end > MAX_POSITION)
        {
            return MAX_POSITION_EXCEEDED;
        }
        if (log.limitedByCleaning)
        {
            return ADMIN_ACTION;
        }
        backPressureEvents.getAndAddOrdered(1);
        systemBackPressure.getAndAddOrdered(1);
        return BACK_PRESSURED;
    }

    /**
     * Fill the rest of a term with padding. It may be as short as 8 bytes, so only the length and type are written:
     * anything more would spill into the next term.
     */
    final void writePadding(final long position, final int length)
    {
        final int offset = log.offset(position);
        logBuffer.putShort(offset + FrameDescriptor.TYPE_OFFSET, (short)FrameDescriptor.TYPE_PAD,
            java.nio.ByteOrder.LITTLE_ENDIAN);
        FrameDescriptor.commit(logBuffer, offset, length);
    }

    private long timestampNs()
    {
        final BusConductor cycleClock = this.cycleClock;
        return null != cycleClock && cycleClock.isConductorThread() ? cycleClock.cycleTimestampNs() : clock.nanoTime();
    }

    /**
     * Write a message's frames from {@code position}, committing each.
     *
     * @return the position after the last frame.
     */
    final long writeMessage(final long position, final DirectBuffer buffer, final int offset, final int length)
    {
        final long timestamp = timestampNs();
        final UnsafeBuffer log = logBuffer;
        long next = position;
        int remaining = length;
        int source = offset;
        int flags = FrameDescriptor.FLAG_BEGIN;
        do
        {
            final int chunk = Math.min(remaining, maxPayloadLength);
            remaining -= chunk;
            if (0 == remaining)
            {
                flags |= FrameDescriptor.FLAG_END;
            }
            final int frameOffset = this.log.offset(next);
            FrameDescriptor.putHeader(log, frameOffset, FrameDescriptor.TYPE_DATA, flags, streamId, sessionId,
                timestamp);
            log.putBytes(frameOffset + FrameDescriptor.HEADER_LENGTH, buffer, source, chunk);
            FrameDescriptor.commit(log, frameOffset, FrameDescriptor.HEADER_LENGTH + chunk);
            next += FrameDescriptor.alignedLength(chunk);
            source += chunk;
            flags = 0;
        }
        while (remaining > 0);
        return next;
    }

    /**
     * Write the header of a claimed frame and set up the claim over its payload.
     */
    final void prepareClaim(final long position, final int length, final BufferClaim claim)
    {
        final int frameOffset = log.offset(position);
        final long timestamp = timestampNs();
        // Uncommitted until the claim commits: an exclusive publication's log is not zeroed ahead of it, and the
        // tail moves past this frame before then.
        logBuffer.putInt(frameOffset + FrameDescriptor.LENGTH_OFFSET, 0);
        FrameDescriptor.putHeader(logBuffer, frameOffset, FrameDescriptor.TYPE_DATA,
            FrameDescriptor.FLAGS_UNFRAGMENTED, streamId, sessionId, timestamp);
        claim.wrap(this, logBuffer, frameOffset, FrameDescriptor.HEADER_LENGTH + length);
    }

    /**
     * Over IPC, when the thread that offered is the one running the bus (INVOKER mode, or an offer from a
     * handler on the bus's thread), hand the message to subscribers now instead of at the next duty cycle: the
     * commit stores (and conflating subscribers' copies) are the whole of the send, and waiting for the duty cycle
     * would be most of the latency.
     * Not while streaming: for an offer after the first between two duty cycles, or once a duty cycle found
     * offers left to it, the next duty cycle sends them in one batch, cheaper per message and without moving the
     * subscribers' commit position for each. Telling a stream by duty cycles rather than by time keeps a request and
     * response exchange eager however short its round trip.
     */
    final void eagerSend()
    {
        final PublicationFanOut fanOut = eagerFanOut;
        if (null != fanOut && fanOut.conductor.isConductorThread() && !fanOut.streaming)
        {
            fanOut.sendNow();
        }
    }

    @Override
    public String toString()
    {
        return getClass().getSimpleName() + "{" + channel + ", session=" + sessionId + ", position=" + position() +
            '}';
    }
}
