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

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.warpbus.bus.protocol.FrameDescriptor;
import io.warpbus.bus.protocol.RingDescriptor;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * One publisher session as seen by a subscription: the frames the publisher placed in this subscriber's ring, or,
 * for a block or drop subscriber on the publisher's host, the publisher's own log, read in place.
 * <p>
 * {@link #poll} reads frames below the ring's commit position (read with acquire semantics, so every byte below it
 * has been placed), checks each frame's sequence, and records how far it consumed; the bus returns that position
 * to the publisher as credit. Polled by one application thread; a new connection to the same publisher (after a
 * reconnect) is a new image that continues the sequence.
 */
public final class Image
{
    private static final int ACTIVE = 0;
    private static final int POLLING = 1;
    private static final int CLOSED = 2;

    private final Subscription subscription;
    private final int sessionId;
    private final String sourceIdentity;
    /**
     * The frames: the subscriber's ring, or the publisher's log that an IPC subscriber reads in place (until
     * {@link #moveFrames}). Written only while the state is held, so a poll always sees a consistent set.
     */
    private UnsafeBuffer ring;
    /** The ring's metadata (commit and consumed positions): see {@link RingDescriptor}. */
    private final UnsafeBuffer control;
    private final int controlOffset;
    /**
     * Where the commit position a poll reads first is: the ring's own, or (IPC, reading the publisher's log in
     * place) the log's, which the ring's then only bounds ({@link RingDescriptor#FOLLOW_LOG_COMMIT}).
     */
    private UnsafeBuffer firstCommit;
    private int firstCommitOffset;
    private int mask;
    private final boolean conflating;
    private final ImageListener listener;
    private final Header header;
    private final AtomicInteger state = new AtomicInteger(ACTIVE);
    /**
     * The last sequence delivered (always one less than the expected sequence), as of the last completed poll:
     * stored once per poll, not per fragment, so that the poll's loop has no ordered store.
     */
    private final AtomicLong lastSequence = new AtomicLong(-1);
    private final AtomicLong gaps = new AtomicLong();
    private final AtomicLong conflated = new AtomicLong();
    private final AtomicLong duplicates = new AtomicLong();
    private final AtomicCounter positionCounter;
    private final long joinPosition;
    private long position;
    private long expectedSequence;
    private long gapReportedBefore = -1;
    private volatile String replayEndpoint = "";
    private final long joinGapTo;
    private long pendingGapFrom;
    private long pendingGapTo;
    private volatile String closeReason;

    Image(
        final Subscription subscription,
        final int sessionId,
        final String sourceIdentity,
        final UnsafeBuffer ring,
        final int capacity,
        final UnsafeBuffer control,
        final int controlOffset,
        final JoinPolicy.JoinPoint join,
        final AtomicCounter positionCounter)
    {
        final long initialPosition = join.position();
        final long initialSequence = join.sequence();
        final String joinProblem = joinProblem(initialPosition);
        if (null != joinProblem)
        {
            throw new IllegalArgumentException(joinProblem);
        }
        checkFrames(ring, capacity);
        this.subscription = subscription;
        this.sessionId = sessionId;
        this.sourceIdentity = sourceIdentity;
        this.ring = ring;
        this.header = new Header(this, ring);
        this.mask = capacity - 1;
        this.control = control;
        this.controlOffset = controlOffset;
        this.firstCommit = control;
        this.firstCommitOffset = controlOffset + RingDescriptor.COMMIT_POSITION_OFFSET;
        this.conflating = SlowConsumerPolicy.CONFLATE == subscription.policy();
        this.listener = subscription.listener();
        this.position = initialPosition;
        this.joinPosition = initialPosition;
        this.expectedSequence = initialSequence;
        this.lastSequence.set(initialSequence - 1);
        this.pendingGapFrom = join.gapFrom();
        this.pendingGapTo = join.gapTo();
        this.joinGapTo = join.gapTo();
        this.positionCounter = positionCounter;
        storeConsumed(initialPosition);
    }

    /**
     * Deliver up to {@code fragmentLimit} fragments.
     *
     * @param handler       receives them.
     * @param fragmentLimit most fragments to deliver.
     * @return fragments delivered.
     */
    public int poll(final FragmentHandler handler, final int fragmentLimit)
    {
        if (!state.compareAndSet(ACTIVE, POLLING))
        {
            return 0;
        }
        int fragments = 0;
        long position = this.position;
        long expected = expectedSequence;
        try
        {
            reportPendingGap(position);
            final long commit = commitPosition();
            final UnsafeBuffer ring = this.ring;
            final byte[] array = ring.byteArray();
            final long address = ring.addressOffset();
            final int mask = this.mask;
            while (fragments < fragmentLimit && position < commit)
            {
                final long limit = limit(position, commit);
                while (fragments < fragmentLimit && position < limit)
                {
                    final int offset = (int)position & mask;
                    // Unchecked reads: offset is a frame boundary inside the ring (the join position is checked to
                    // be one, and each step is a checked aligned length), and a frame's header lies inside the ring.
                    final long word = FrameDescriptor.firstWord(array, address + offset);
                    final int length = FrameDescriptor.lengthOf(word);
                    final int type = FrameDescriptor.typeOf(word);
                    final long next = position + FrameDescriptor.alignedFrameLength(length);
                    if (FrameDescriptor.TYPE_DATA == type)
                    {
                        if (isCorrupt(length, type, next, limit))
                        {
                            corrupt(position, length, commit, expected);
                            return fragments;
                        }
                        final long sequence = FrameDescriptor.sequence(array, address + offset);
                        if (sequence == expected || acceptOutOfOrder(sequence, expected, position))
                        {
                            expected = sequence + 1;
                            header.wrap(position);
                            handler.onFragment(ring, offset + FrameDescriptor.HEADER_LENGTH,
                                length - FrameDescriptor.HEADER_LENGTH, header);
                            fragments++;
                        }
                    }
                    else if (isCorrupt(length, type, next, limit))
                    {
                        corrupt(position, length, commit, expected);
                        return fragments;
                    }
                    position = next;
                }
            }
        }
        finally
        {
            endPoll(position, expected);
        }
        return fragments;
    }

    /**
     * Deliver up to {@code fragmentLimit} fragments to a handler that steers the poll.
     *
     * @param handler       receives them.
     * @param fragmentLimit most fragments to deliver.
     * @return fragments consumed.
     */
    public int controlledPoll(final ControlledFragmentHandler handler, final int fragmentLimit)
    {
        if (!state.compareAndSet(ACTIVE, POLLING))
        {
            return 0;
        }
        int fragments = 0;
        long position = this.position;
        long expected = expectedSequence;
        try
        {
            reportPendingGap(position);
            final long commit = commitPosition();
            final UnsafeBuffer ring = this.ring;
            final byte[] array = ring.byteArray();
            final long address = ring.addressOffset();
            final int mask = this.mask;
            while (fragments < fragmentLimit && position < commit)
            {
                final long limit = limit(position, commit);
                while (fragments < fragmentLimit && position < limit)
                {
                    final int offset = (int)position & mask;
                    // Unchecked reads, as in poll.
                    final long word = FrameDescriptor.firstWord(array, address + offset);
                    final int length = FrameDescriptor.lengthOf(word);
                    final int type = FrameDescriptor.typeOf(word);
                    final long next = position + FrameDescriptor.alignedFrameLength(length);
                    if (isCorrupt(length, type, next, limit))
                    {
                        corrupt(position, length, commit, expected);
                        return fragments;
                    }
                    if (FrameDescriptor.TYPE_DATA != type)
                    {
                        position = next;
                        continue;
                    }
                    final long sequence = FrameDescriptor.sequence(array, address + offset);
                    if (sequence != expected && !acceptOutOfOrder(sequence, expected, position))
                    {
                        position = next;
                        continue;
                    }
                    final long previous = expected;
                    expected = sequence + 1;
                    header.wrap(position);
                    final ControlledFragmentHandler.Action action = handler.onFragment(
                        ring, offset + FrameDescriptor.HEADER_LENGTH, length - FrameDescriptor.HEADER_LENGTH, header);
                    if (ControlledFragmentHandler.Action.ABORT == action)
                    {
                        expected = previous;
                        return fragments;
                    }
                    fragments++;
                    position = next;
                    if (ControlledFragmentHandler.Action.BREAK == action)
                    {
                        return fragments;
                    }
                    if (ControlledFragmentHandler.Action.COMMIT == action)
                    {
                        publish(position, expected);
                    }
                }
            }
        }
        finally
        {
            endPoll(position, expected);
        }
        return fragments;
    }

    /**
     * The publisher's session id.
     *
     * @return the session.
     */
    public int sessionId()
    {
        return sessionId;
    }

    /**
     * Where the data comes from: the publisher's address, or the IPC ring file.
     *
     * @return a description.
     */
    public String sourceIdentity()
    {
        return sourceIdentity;
    }

    /**
     * The subscription this image belongs to.
     *
     * @return the subscription.
     */
    public Subscription subscription()
    {
        return subscription;
    }

    /**
     * The last sequence of the range the publisher could not supply when this image joined (asked for, no longer
     * retained), or -1 when it joined where it asked. Known before any frame arrives, so a journal can start
     * filling it while the publisher is quiet.
     *
     * @return the sequence, or -1.
     */
    public long joinGapTo()
    {
        return joinGapTo;
    }

    /**
     * Where the stream's recorder serves replays (host:port), as the publisher told this image when it joined; a
     * replay channel naming it fills gaps.
     *
     * @return the endpoint, or empty when no recorder had announced one.
     */
    public String replayEndpoint()
    {
        return replayEndpoint;
    }

    void replayEndpoint(final String endpoint)
    {
        replayEndpoint = endpoint;
    }

    /**
     * Stream position consumed so far.
     *
     * @return the position.
     */
    public long position()
    {
        return position;
    }

    /**
     * Position the image joined the stream at.
     *
     * @return the position.
     */
    public long joinPosition()
    {
        return joinPosition;
    }

    /**
     * Sequence of the last fragment delivered by a completed poll, or one less than the first expected. A
     * handler learns the sequence of the fragment in hand from {@link Header#sequence()}.
     *
     * @return the sequence.
     */
    public long lastSequence()
    {
        return lastSequence.get();
    }

    /**
     * The first sequence the application has not seen: where a new image should resume after this one closes.
     * A gap announced at join but not yet reported (the image closed before a poll) is resumed from its start,
     * so it is reported by the next image rather than lost.
     *
     * @return the sequence.
     */
    long resumeSequence()
    {
        return pendingGapFrom >= 0 ? pendingGapFrom : lastSequence.get() + 1;
    }

    /**
     * Gaps seen (each a run of missing sequences).
     *
     * @return the count.
     */
    public long gapCount()
    {
        return gaps.get();
    }

    /**
     * Messages a conflating subscription skipped because newer ones with the same key replaced them.
     *
     * @return the count.
     */
    public long conflatedCount()
    {
        return conflated.get();
    }

    /**
     * Frames that arrived again after they were delivered, and were not delivered twice.
     *
     * @return the count.
     */
    public long duplicateCount()
    {
        return duplicates.get();
    }

    /**
     * Has the image been closed (connection lost, publisher gone, subscription closed)?
     *
     * @return true once closed.
     */
    public boolean isClosed()
    {
        return CLOSED == state.get();
    }

    /**
     * Why the image closed.
     *
     * @return the reason, or null while open.
     */
    public String closeReason()
    {
        return closeReason;
    }

    /**
     * Has everything committed to the ring been consumed?
     *
     * @return true when the next poll would find nothing now.
     */
    public boolean isDrained()
    {
        return position >= commitPosition();
    }

    /**
     * Why a join point cannot start an image, or null when it can. The poll reads each frame's header where the
     * frame starts without a bounds check, so the first frame must start on a frame boundary, as every frame a
     * publisher writes does; each later one starts an aligned, checked length after it.
     *
     * @param position the stream position of the first frame.
     * @return the problem, or null.
     */
    static String joinProblem(final long position)
    {
        if (position < 0 || 0 != (position & (FrameDescriptor.FRAME_ALIGNMENT - 1)))
        {
            return "initial position " + position + " is not a frame boundary (a non-negative multiple of " +
                FrameDescriptor.FRAME_ALIGNMENT + ")";
        }
        return null;
    }

    private static void checkFrames(final UnsafeBuffer frames, final int capacity)
    {
        if (capacity < FrameDescriptor.FRAME_ALIGNMENT || Integer.bitCount(capacity) != 1 ||
            frames.capacity() < capacity)
        {
            throw new IllegalArgumentException("frames of " + capacity + " bytes in a buffer of " +
                frames.capacity() + ": need a power of two of at least " + FrameDescriptor.FRAME_ALIGNMENT +
                " that the buffer holds");
        }
    }

    /**
     * Where the frame at a stream position lies in the frames' buffer.
     */
    int offset(final long position)
    {
        return (int)position & mask;
    }

    AtomicCounter positionCounter()
    {
        return positionCounter;
    }

    /**
     * What polls may read up to: the lower of the two commit positions, the log's (or the ring's own again) first,
     * so that a bound the publisher stored into the ring before that commit position is seen with it.
     *
     * @return the position.
     */
    long commitPosition()
    {
        final long first = firstCommit.getLongVolatile(firstCommitOffset);
        return Math.min(first, control.getLongVolatile(controlOffset + RingDescriptor.COMMIT_POSITION_OFFSET));
    }

    /**
     * Follow the commit position of the publisher's log this image reads in place (IPC), bounded by the ring's;
     * set before the image is offered to any poller.
     *
     * @param trailer the log's trailer.
     * @param offset  of the commit position in it.
     */
    void followLogCommit(final UnsafeBuffer trailer, final int offset)
    {
        this.firstCommit = trailer;
        this.firstCommitOffset = offset;
    }

    long consumedPosition()
    {
        return control.getLongVolatile(controlOffset + RingDescriptor.CONSUMED_POSITION_OFFSET);
    }

    /**
     * Close on the bus's thread once no poll is running; the last sequence and position are then final. When the
     * publisher has gone (end of stream, a drop, a lost connection), what it committed to the ring is still the
     * application's: the image stays until it has been polled, unless the subscription itself is closing.
     *
     * @param reason     why.
     * @param drainFirst wait until every committed fragment has been polled.
     * @return true when closed (false while a poll is in progress or fragments remain: try again).
     */
    boolean tryClose(final String reason, final boolean drainFirst)
    {
        if (CLOSED == state.get())
        {
            return true;
        }
        if (!state.compareAndSet(ACTIVE, CLOSED))
        {
            return false;
        }
        // The CAS orders this read of position after the last poll's writes.
        if (drainFirst && position < commitPosition())
        {
            state.set(ACTIVE);
            return false;
        }
        closeReason = reason;
        return true;
    }

    /**
     * Read the frames from another buffer from the next poll on, holding the same bytes at the same positions
     * (IPC: a dropped subscriber's frames moved from the publisher's log into its ring).
     *
     * @param frames   the new buffer.
     * @param capacity its length, a power of two.
     * @return false when a poll is running: try again later.
     */
    boolean moveFrames(final UnsafeBuffer frames, final int capacity)
    {
        if (CLOSED == state.get())
        {
            return true;
        }
        checkFrames(frames, capacity);
        if (!state.compareAndSet(ACTIVE, POLLING))
        {
            return false;
        }
        this.ring = frames;
        header.buffer(frames);
        this.mask = capacity - 1;
        // The log goes: the ring's commit position, which the publisher made final at the drop, is the only one.
        this.firstCommit = control;
        this.firstCommitOffset = controlOffset + RingDescriptor.COMMIT_POSITION_OFFSET;
        state.set(ACTIVE);
        return true;
    }

    /**
     * Publish what a poll consumed and delivered, then end it.
     */
    private void endPoll(final long position, final long expected)
    {
        publish(position, expected);
        release();
    }

    private void publish(final long position, final long expected)
    {
        if (expected != expectedSequence)
        {
            expectedSequence = expected;
            lastSequence.lazySet(expected - 1);
        }
        if (position != this.position)
        {
            // Stored only when it moved: the publisher reads this line every duty cycle, and a store from
            // every empty poll would pull it back and forth between the two cores for nothing.
            this.position = position;
            storeConsumed(position);
        }
    }

    /**
     * End a poll. Only the poller changes the state while it is POLLING (the others only compare-and-set it from
     * ACTIVE), so a release store does, without a second locked instruction on every poll; a poll that met a
     * corrupt frame leaves it CLOSED.
     */
    private void release()
    {
        if (POLLING == state.get())
        {
            state.lazySet(ACTIVE);
        }
    }

    private void storeConsumed(final long position)
    {
        control.putLongOrdered(controlOffset + RingDescriptor.CONSUMED_POSITION_OFFSET, position);
        if (null != positionCounter)
        {
            positionCounter.setOrdered(position);
        }
    }

    private void reportPendingGap(final long position)
    {
        if (pendingGapFrom >= 0)
        {
            final long from = pendingGapFrom;
            final long to = pendingGapTo;
            pendingGapFrom = -1;
            gaps.incrementAndGet();
            subscription.onGap(from, to);
            listener.onGap(this, from, to, position);
        }
    }

    /**
     * A frame whose sequence is not the one expected: a duplicate, skipped, or the end of a gap (or, when
     * conflating, of skipped messages), counted and delivered.
     *
     * @return false for a duplicate.
     */
    private boolean acceptOutOfOrder(final long sequence, final long expected, final long position)
    {
        if (sequence < expected)
        {
            duplicates.incrementAndGet();
            return false;
        }
        if (conflating)
        {
            conflated.addAndGet(sequence - expected);
        }
        else if (sequence != gapReportedBefore)
        {
            // Reported once, even when a controlled poll aborts this frame and meets the gap again.
            gapReportedBefore = sequence;
            gaps.incrementAndGet();
            subscription.onGap(expected, sequence - 1);
            listener.onGap(this, expected, sequence - 1, position);
        }
        return true;
    }

    /**
     * Where the frames from a position must end: at the commit position, or at the end of the ring, which no frame
     * crosses (padding fills a term's end), whichever comes first. Bounding each frame by it is one compare a
     * fragment, where bounding by both was two, each with its own subtraction.
     */
    private long limit(final long position, final long commit)
    {
        return Math.min(commit, (position | mask) + 1);
    }

    /**
     * A frame that cannot be one: shorter than its kind allows (a data frame's header, or a padding frame's length and
     * type), or ending past the commit position or the ring's end.
     */
    private static boolean isCorrupt(final int length, final int type, final long next, final long limit)
    {
        return length < (FrameDescriptor.TYPE_DATA == type ? FrameDescriptor.HEADER_LENGTH :
            FrameDescriptor.MIN_FRAME_LENGTH) || next > limit;
    }

    /**
     * Close the image on a corrupt frame; what it delivered before stays delivered.
     */
    private void corrupt(final long position, final int length, final long commit, final long expected)
    {
        final String reason = "corrupt frame in the ring at position " + position + ": length " + length +
            " (commit position " + commit + ")";
        closeReason = reason;
        // Before the state: whoever sees it closed resumes after the last fragment delivered.
        publish(position, expected);
        state.set(CLOSED);
        subscription.onCorruptImage(this, reason);
    }

    @Override
    public String toString()
    {
        return "Image{session=" + sessionId + ", source=" + sourceIdentity + ", position=" + position +
            (null != closeReason ? ", closed: " + closeReason : "") + '}';
    }
}
