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

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import io.warpbus.bus.protocol.RingDescriptor;
import io.warpbus.bus.status.PeerHeartbeat;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A subscription over IPC. It creates its ring as a memory-mapped file in the stream's IPC directory, marks it
 * ready and bumps the stream's generation counter; the stream's publisher (now or whenever it starts) attaches and
 * stores the commit position. A block or drop subscription maps the publisher's log (one mapping per process, shared
 * with the other subscriptions reading it: {@link IpcLogMappings}), brings it into the page tables a slice per duty
 * cycle unless another subscription already did, and then reads the frames there; a conflating one reads the frames
 * the publisher copies into its ring. Credit and heartbeats are plain stores into the ring's metadata.
 * When the publisher closes, drops this subscriber or stops heart-beating, the image closes and the ring is offered
 * again, asking to resume after the last sequence delivered.
 */
final class IpcSubscriptionEndpoint implements SubscriptionEndpoint
{
    private static final int WAITING = 0;
    private static final int CONNECTED = 1;
    private static final int CLOSING_IMAGE = 2;
    private static final int CLOSED = 3;
    /** Attached, bringing the publisher's log into the page tables a slice per duty cycle before reading it. */
    private static final int MAPPING_LOG = 4;
    /**
     * The log brought in per duty cycle while joining: about 0.1 ms of page faults on the 2-core VM, where all of a
     * 16 MiB log at once was a 6-8 ms stall of every stream on the bus.
     */
    static final int LOG_TOUCH_PER_CYCLE = 256 * 1024;

    private final BusConductor conductor;
    private final BusContext context;
    private final Subscription subscription;
    private final ChannelUri channel;
    private final Path file;
    private final Path stream;
    private final MappedByteBuffer mapped;
    /** The publisher's log while this subscription reads it in place, else null. */
    private IpcLogMappings.Mapping logMapping;
    /** The last attach could not be served (its log would not map): wait for the publisher to let the ring go. */
    private boolean declined;
    /** When the ring may be offered again after a decline: a log that will not map is retried this often. */
    private long reofferAtNs;
    private final UnsafeBuffer ring;
    private final UnsafeBuffer generation;
    private final int capacity;
    private final int trailer;
    private int state = WAITING;
    private Image image;
    private String closeReason;
    private String reportedRejection;
    private long nextHeartbeatNs;
    private long offeredSequence = -1;
    private int offeredSession;
    private final PeerHeartbeat publisherHeartbeat = new PeerHeartbeat();
    private boolean closing;
    /** While {@link #MAPPING_LOG}: the log, its bytes brought in so far, and the join the publisher offered. */
    private UnsafeBuffer logFrames;
    /** The log's trailer, with its commit position, while this subscription reads the log. */
    private UnsafeBuffer logTrailer;
    private int logTouched;
    private int joinSession;
    private JoinPolicy.JoinPoint joinPoint;

    IpcSubscriptionEndpoint(final BusConductor conductor, final Subscription subscription)
    {
        this.conductor = conductor;
        this.context = conductor.context();
        this.subscription = subscription;
        this.channel = subscription.channel();
        this.capacity = channel.size("ring", context.ringCapacity());
        this.trailer = capacity;
        this.stream = IpcDirectory.streamDirectory(context.ipcDirectory(), channel.streamId());
        try
        {
            IpcDirectory.removeOrphanRings(stream, TimeUnit.NANOSECONDS.toMillis(context.livenessTimeoutNs()));
        }
        catch (final IOException ex)
        {
            conductor.onError(new BusException("cannot tidy the rings of exited subscribers in " + stream + ": " +
                ex.getMessage(), ex));
        }
        this.file = stream.resolve(IpcDirectory.RING_PREFIX + ProcessHandle.current().pid() + "-" +
            Long.toHexString(ThreadLocalRandom.current().nextLong()) + IpcDirectory.RING_SUFFIX);
        // Allocated in full even for a subscriber that reads the publisher's log: if it is dropped, the publisher
        // moves what it had committed into the ring, and must not meet a full memory volume there.
        this.mapped = IpcDirectory.createRing(file, capacity, SlowConsumerPolicy.CONFLATE == subscription.policy());
        this.ring = new UnsafeBuffer(mapped);
        this.generation = IpcDirectory.mapGeneration(stream);
        ring.putInt(trailer + RingDescriptor.STREAM_ID_OFFSET, channel.streamId());
        ring.putInt(trailer + RingDescriptor.CAPACITY_OFFSET, capacity);
        ring.putInt(trailer + RingDescriptor.POLICY_OFFSET, subscription.policy().ordinal());
        ring.putLong(trailer + RingDescriptor.DROP_LAG_OFFSET, channel.size("lag", 0));
        ring.putLong(trailer + RingDescriptor.DROP_AFTER_OFFSET, channel.durationNs("lag-timeout", 0));
        offer(subscription.resumeSequence(), subscription.resumeSession());
    }

    /**
     * Offer the ring to a publisher, asking to resume from a sequence of a session (or live).
     */
    private void offer(final long resumeSequence, final int resumeSession)
    {
        offeredSequence = resumeSequence;
        offeredSession = resumeSession;
        declined = false;
        // Whatever this ring was given before is no longer read from a publisher's log (no image is open).
        ring.putIntOrdered(trailer + RingDescriptor.LOG_RELEASED_OFFSET, 1);
        ring.putLong(trailer + RingDescriptor.RESUME_SEQUENCE_OFFSET, resumeSequence);
        RingDescriptor.putReplayEndpoint(ring, trailer, channel.text("announce-replay", ""));
        ring.putInt(trailer + RingDescriptor.PUBLISHER_SESSION_OFFSET, resumeSession);
        ring.putLong(trailer + RingDescriptor.COMMIT_POSITION_OFFSET, 0);
        ring.putLongOrdered(trailer + RingDescriptor.SUBSCRIBER_HEARTBEAT_OFFSET, System.currentTimeMillis());
        ring.putIntOrdered(trailer + RingDescriptor.PUBLISHER_STATUS_OFFSET, RingDescriptor.PUBLISHER_NONE);
        ring.putIntOrdered(trailer + RingDescriptor.SUBSCRIBER_STATUS_OFFSET, RingDescriptor.SUBSCRIBER_READY);
        IpcDirectory.bumpGeneration(generation);
    }

    @Override
    public int doWork(final long nowNs, final long nowMs)
    {
        int work = 0;
        if (nowNs - nextHeartbeatNs >= 0 && CLOSED != state)
        {
            ring.putLongOrdered(trailer + RingDescriptor.SUBSCRIBER_HEARTBEAT_OFFSET, nowMs);
            nextHeartbeatNs = nowNs + context.heartbeatIntervalNs();
            work++;
        }
        final int status = ring.getIntVolatile(trailer + RingDescriptor.PUBLISHER_STATUS_OFFSET);
        switch (state)
        {
            case WAITING:
                if (closing)
                {
                    finish();
                    return 1;
                }
                if (RingDescriptor.PUBLISHER_CONNECTED == status)
                {
                    if (declined)
                    {
                        return work;
                    }
                    connect(nowNs);
                    return 1;
                }
                if (RingDescriptor.PUBLISHER_DROPPED == status || RingDescriptor.PUBLISHER_CLOSED == status)
                {
                    if (declined && nowNs - reofferAtNs < 0)
                    {
                        return work;
                    }
                    // A publisher attached and let go again before this side saw it connected: offer the ring
                    // again, from the same point.
                    offer(offeredSequence, offeredSession);
                    return 1;
                }
                if (RingDescriptor.PUBLISHER_REJECTED == status)
                {
                    final String reason = RingDescriptor.reason(ring, trailer + RingDescriptor.REASON_OFFSET);
                    if (!reason.equals(reportedRejection))
                    {
                        reportedRejection = reason;
                        conductor.onError(new BusException("subscription " + channel + " refused by the publisher: " +
                            reason));
                    }
                }
                return work;
            case MAPPING_LOG:
                return work + bringInLog(status, nowNs);
            case CONNECTED:
                return work + checkPublisher(status, nowNs);
            case CLOSING_IMAGE:
                if (RingDescriptor.PUBLISHER_DROPPED == status && !readFromRingIfMoved())
                {
                    return work;
                }
                return work + closeImage();
            default:
                return work;
        }
    }

    private void connect(final long nowNs)
    {
        final int session = ring.getInt(trailer + RingDescriptor.PUBLISHER_SESSION_OFFSET);
        final long position = ring.getLong(trailer + RingDescriptor.INITIAL_POSITION_OFFSET);
        final long sequence = ring.getLong(trailer + RingDescriptor.RESUME_SEQUENCE_OFFSET);
        final long gapFrom = ring.getLong(trailer + RingDescriptor.GAP_FROM_OFFSET);
        final long gapTo = ring.getLong(trailer + RingDescriptor.GAP_TO_OFFSET);
        final int logWindow = ring.getInt(trailer + RingDescriptor.LOG_WINDOW_OFFSET);
        final String joinProblem = Image.joinProblem(position);
        if (null != joinProblem)
        {
            decline(new BusException("subscription " + channel + " cannot join its publisher: " + joinProblem), nowNs);
            return;
        }
        joinSession = session;
        joinPoint = new JoinPolicy.JoinPoint(position, sequence, gapFrom, gapTo);
        if (0 == logWindow)
        {
            openImage(ring, capacity, nowNs);
            return;
        }
        final Path log = IpcDirectory.logFile(stream, ring.getLong(trailer + RingDescriptor.LOG_PID_OFFSET), session);
        try
        {
            logMapping = IpcLogMappings.acquire(log, logWindow);
        }
        catch (final BusException ex)
        {
            // The publisher closed between attaching and this read, or its ring metadata is wrong.
            decline(new BusException("subscription " + channel + " cannot read its publisher's log: " +
                ex.getMessage(), ex), nowNs);
            return;
        }
        logFrames = new UnsafeBuffer(logMapping.buffer(), 0, logWindow);
        logTrailer = new UnsafeBuffer(logMapping.buffer(), logWindow, RingDescriptor.LOG_TRAILER_LENGTH);
        // Another subscription in this process may have brought the shared mapping in already.
        logTouched = logMapping.isBroughtIn() ? logWindow : 0;
        state = MAPPING_LOG;
    }

    /**
     * Bring the next slice of the publisher's log into the page tables (a first touch on the data path costs a
     * fault inside a round trip), and open the image once all of it is in. A publisher that lets go meanwhile is
     * handled as in {@link #WAITING}: nothing was delivered, so the ring is offered again from the same point.
     */
    private int bringInLog(final int status, final long nowNs)
    {
        if (closing || RingDescriptor.PUBLISHER_CONNECTED != status)
        {
            releaseLog();
            if (closing)
            {
                finish();
            }
            else
            {
                state = WAITING;
            }
            return 1;
        }
        final int to = (int)Math.min(logFrames.capacity(), (long)logTouched + LOG_TOUCH_PER_CYCLE);
        IpcDirectory.preTouch(logFrames, logTouched, to);
        logTouched = to;
        if (to == logFrames.capacity())
        {
            IpcDirectory.preTouch(logTrailer, 0, RingDescriptor.LOG_TRAILER_LENGTH);
            logMapping.broughtIn();
            openImage(logFrames, logFrames.capacity(), nowNs);
        }
        return 1;
    }

    private void openImage(final UnsafeBuffer frames, final int framesCapacity, final long nowNs)
    {
        image = new Image(subscription, joinSession, "ipc:" + file.getFileName(), frames, framesCapacity, ring,
            trailer, joinPoint,
            conductor.counters().imagePosition(subscription.registrationId(), channel, joinSession, "ipc"));
        if (frames == logFrames)
        {
            image.followLogCommit(logTrailer, RingDescriptor.LOG_COMMIT_OFFSET);
        }
        image.replayEndpoint(RingDescriptor.replayEndpoint(ring, capacity));
        joinPoint = null;
        state = CONNECTED;
        publisherHeartbeat.heard(nowNs);
        conductor.countConnection();
        subscription.listener().onAvailable(image);
        subscription.addImage(image);
    }

    /**
     * Leave a publisher that cannot be read, and offer the ring again once it has let it go.
     */
    private void decline(final BusException problem, final long nowNs)
    {
        conductor.onError(problem);
        declined = true;
        reofferAtNs = nowNs + context.livenessTimeoutNs();
        ring.putIntOrdered(trailer + RingDescriptor.SUBSCRIBER_STATUS_OFFSET, RingDescriptor.SUBSCRIBER_CLOSED);
    }

    private int checkPublisher(final int status, final long nowNs)
    {
        if (RingDescriptor.PUBLISHER_CLOSED == status)
        {
            closeReason = "end of stream: the publication closed";
        }
        else if (RingDescriptor.PUBLISHER_DROPPED == status)
        {
            if (!readFromRingIfMoved())
            {
                return 0;
            }
            closeReason = "dropped by the publisher: " + RingDescriptor.reason(ring, trailer +
                RingDescriptor.REASON_OFFSET);
        }
        else
        {
            publisherHeartbeat.read(ring.getLongVolatile(trailer + RingDescriptor.PUBLISHER_HEARTBEAT_OFFSET), nowNs);
            final long silentNs = publisherHeartbeat.silentNs(nowNs);
            if (silentNs > context.livenessTimeoutNs())
            {
                closeReason = "publisher heartbeat timeout: nothing heard for " +
                    TimeUnit.NANOSECONDS.toMillis(silentNs) + " ms";
            }
            else if (!closing)
            {
                return 0;
            }
            else
            {
                closeReason = "subscription closed";
            }
        }
        state = CLOSING_IMAGE;
        return 1;
    }

    /**
     * After a drop, the publisher moved what it had committed into the ring, and keeps its log until nothing here
     * reads it: switch the image to the ring (between two polls) and say so.
     *
     * @return false when a poll is running: try again next cycle.
     */
    private boolean readFromRingIfMoved()
    {
        if (null != logMapping && 0 == ring.getIntVolatile(trailer + RingDescriptor.LOG_WINDOW_OFFSET))
        {
            if (!image.moveFrames(ring, capacity))
            {
                return false;
            }
            releaseLog();
        }
        return true;
    }

    private void releaseLog()
    {
        logMapping.release();
        logMapping = null;
        logFrames = null;
        logTrailer = null;
        ring.putIntOrdered(trailer + RingDescriptor.LOG_RELEASED_OFFSET, 1);
    }

    private int closeImage()
    {
        if (!image.tryClose(closeReason, !closing))
        {
            return 0;
        }
        subscription.removeImage(image);
        if (null != logMapping)
        {
            // The image is closed, so no poll reads the log again.
            releaseLog();
        }
        conductor.counters().free(image.positionCounter());
        subscription.listener().onUnavailable(image, closeReason);
        conductor.countDisconnect();
        final long resume = image.resumeSequence();
        final int session = image.sessionId();
        image = null;
        if (closing)
        {
            finish();
        }
        else
        {
            offer(resume, session);
            state = WAITING;
        }
        return 1;
    }

    @Override
    public void close()
    {
        closing = true;
        if (CONNECTED == state)
        {
            closeReason = "subscription closed";
            state = CLOSING_IMAGE;
        }
    }

    private void finish()
    {
        ring.putIntOrdered(trailer + RingDescriptor.SUBSCRIBER_STATUS_OFFSET, RingDescriptor.SUBSCRIBER_CLOSED);
        IoUtil.unmap(mapped);
        try
        {
            Files.deleteIfExists(file);
        }
        catch (final IOException ex)
        {
            conductor.onError(new BusException("cannot delete IPC ring " + file + ": " + ex.getMessage(), ex));
        }
        state = CLOSED;
    }

    @Override
    public boolean isClosed()
    {
        return CLOSED == state;
    }

    @Override
    public String toString()
    {
        return "IpcSubscriptionEndpoint{" + channel + ", file=" + file + ", state=" + state + '}';
    }
}
