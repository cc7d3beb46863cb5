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
import java.nio.channels.FileLock;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.warpbus.bus.protocol.FrameDescriptor;
import io.warpbus.bus.protocol.RingDescriptor;
import io.warpbus.bus.protocol.SubscribeHandshake;
import io.warpbus.bus.status.SystemCounterDescriptor;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * The publisher's conductor-side half of a publication. Each duty cycle it advances the published position over
 * committed frames (stamping each data frame with the next stream sequence, in log order), zeroes the log a term
 * ahead of the writers, sends every subscriber what fits its ring, enforces each subscriber's slow-consumer policy
 * and liveness, and sets the writers' limit.
 */
final class PublicationSender
{
    private static final int SCAN_LIMIT = 4096;
    private static final int CLEAN_CHUNK = 64 * 1024;

    final Publication publication;
    final LogBuffer log;
    final ChannelUri channel;
    final int streamId;
    final int sessionId;
    final BusConductor conductor;
    final ArrayList<SubscriberLink> links = new ArrayList<>();
    private final ArrayList<io.warpbus.iwarp.QueuePair> draining = new ArrayList<>();
    private final BusContext context;
    private final int keyOffset;
    private final int keyLength;
    private final long dropLag;
    private final long maxDropLag;
    private final int maxSubscribers;
    private final AtomicCounter positionCounter;
    private final AtomicCounter limitCounter;
    private final AtomicCounter messagesOut;
    private final AtomicCounter bytesOut;
    private final AtomicCounter systemMessages;
    private final AtomicCounter systemBytes;
    private final long registrationId;
    private final BusCounters counters;
    private final long initialSequence;
    private long nextSequence;
    private long subscriberIds = 1;
    private long cleanProgress;
    private boolean closing;
    /** A replay's publication: one subscriber, not routed by stream at its endpoint. */
    boolean replay;
    /** Where this stream's recorder serves replays, as the last recorder to subscribe announced; or empty. */
    String replayEndpoint = "";
    private long closeDeadlineNs;

    // IPC rendezvous
    private final Path ipcStream;
    private final UnsafeBuffer generation;
    private final FileLock ipcLock;
    private final Set<Path> ipcFiles = new HashSet<>();
    private long lastGeneration = -1;
    private long nextIpcScanNs;
    private long observedPosition;

    PublicationSender(final BusConductor conductor, final Publication publication, final BusCounters counters)
    {
        this.conductor = conductor;
        this.context = conductor.context();
        this.publication = publication;
        this.log = publication.log;
        this.channel = publication.channel;
        this.streamId = publication.streamId;
        this.sessionId = publication.sessionId;
        this.counters = counters;
        this.keyOffset = channel.conflationKeyOffset();
        this.keyLength = channel.conflationKeyLength();
        this.maxDropLag = log.windowLength - 2L * log.termLength;
        this.dropLag = Math.min(channel.size("lag", 0 != context.dropLag() ? context.dropLag() :
            log.windowLength / 2), maxDropLag);
        this.maxSubscribers = context.maxSubscribers();
        this.initialSequence = channel.number("initial-sequence", 0);
        this.nextSequence = initialSequence;
        this.registrationId = publication.registrationId;
        this.positionCounter = counters.publisherPosition(registrationId, channel, sessionId);
        this.limitCounter = counters.publisherLimit(registrationId, channel, sessionId);
        this.messagesOut = counters.messagesOut(registrationId, channel);
        this.bytesOut = counters.bytesOut(registrationId, channel);
        this.systemMessages = counters.system(SystemCounterDescriptor.MESSAGES_SENT);
        this.systemBytes = counters.system(SystemCounterDescriptor.BYTES_SENT);
        if (channel.isIpc())
        {
            ipcStream = IpcDirectory.streamDirectory(context.ipcDirectory(), streamId);
            ipcLock = IpcDirectory.lockPublisher(ipcStream, streamId);
            generation = IpcDirectory.mapGeneration(ipcStream);
        }
        else
        {
            ipcStream = null;
            ipcLock = null;
            generation = null;
        }
    }

    /**
     * Hand the frames sent since the last call to the bus's frame observers (a journal). It runs at the start of
     * the next duty cycle, after the transport has taken them, so an observer's work overlaps the frames' flight
     * instead of delaying them; the frames are still in the retained log, which is cleaned a term or more behind.
     *
     * @param observing whether any observer is registered.
     * @return frames observed.
     */
    int observe(final boolean observing)
    {
        final long published = log.published.get();
        long position = observedPosition;
        if (!observing || replay || position >= published)
        {
            observedPosition = published;
            return 0;
        }
        final UnsafeBuffer buffer = log.buffer;
        int frames = 0;
        while (position < published)
        {
            final int offset = log.offset(position);
            final int length = FrameDescriptor.frameLength(buffer, offset);
            if (FrameDescriptor.TYPE_DATA == FrameDescriptor.type(buffer, offset))
            {
                conductor.onPublished(this, buffer, offset, length);
                frames++;
            }
            position += FrameDescriptor.alignedLength(length - FrameDescriptor.HEADER_LENGTH);
        }
        observedPosition = position;
        return frames;
    }

    /**
     * The send half of a duty cycle, run from an offer on the bus's own thread (IPC only): sequence what was
     * committed and copy it to the subscribers. Cleaning, limits, liveness and joins wait for the duty cycle.
     */
    void sendNow()
    {
        if (closing || 0 == scan())
        {
            return;
        }
        final long published = log.published.get();
        final long nowNs = conductor.nowNs();
        final long nowMs = conductor.nowMs();
        for (int i = links.size() - 1; i >= 0; i--)
        {
            final SubscriberLink link = links.get(i);
            if (SubscriberLink.ACTIVE == link.state)
            {
                link.send(log, published, nowNs, nowMs, sessionId, keyOffset, keyLength,
                    context.heartbeatIntervalNs());
            }
        }
    }

    int doWork(final long nowNs, final long nowMs)
    {
        if (!draining.isEmpty())
        {
            draining.removeIf((qp) -> qp.state().isFinal());
        }
        int work = scan();
        work += clean();
        if (null != ipcStream && nowNs - nextIpcScanNs >= 0)
        {
            work += pollIpcSubscribers(nowNs, nowMs);
        }
        final long published = log.published.get();
        boolean connected = false;
        int subscribers = 0;
        long slowest = published;
        long blockingLimit = Long.MAX_VALUE;
        for (int i = links.size() - 1; i >= 0; i--)
        {
            final SubscriberLink link = links.get(i);
            if (SubscriberLink.CLOSED == link.state)
            {
                continue;
            }
            work += link.poll(nowNs);
            if (SubscriberLink.ACTIVE != link.state)
            {
                continue;
            }
            link.readCredit(nowNs);
            if (link.hasLeft())
            {
                // Its subscription closed: a normal departure, not an error.
                conductor.countDisconnect();
                link.close("subscriber closed", RingDescriptor.PUBLISHER_CLOSED);
                retire(link);
                continue;
            }
            final String problem = checkLink(link, published, nowNs);
            if (null != problem)
            {
                dropLink(link, problem, RingDescriptor.PUBLISHER_DROPPED);
                continue;
            }
            work += link.send(log, published, nowNs, nowMs, sessionId, keyOffset, keyLength,
                context.heartbeatIntervalNs());
            link.positionCounter.setOrdered(link.consumed);
            link.lagCounter.setOrdered(link.lag(published));
            connected = true;
            subscribers++;
            slowest = Math.min(slowest, published - link.lag(published));
            if (SlowConsumerPolicy.BLOCK == link.policy)
            {
                blockingLimit = Math.min(blockingLimit, link.consumed + link.ringCapacity);
            }
        }
        updateLimit(connected, blockingLimit, published);
        log.subscriberCount = subscribers;
        log.slowestPosition = slowest;
        if (closing)
        {
            finishClosing(nowNs, published);
        }
        return work;
    }

    /**
     * Advance the published position over committed frames, stamping sequences in log order.
     */
    private int scan()
    {
        final UnsafeBuffer buffer = log.buffer;
        final long ceiling = log.cleanPosition;
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
     * Keep the log clean two terms ahead of the published position. A term is reused only once every subscriber
     * has been sent what it held; a drop or conflate subscriber still behind it is dropped.
     */
    private int clean()
    {
        final long published = log.published.get();
        final long target = (published & ~(long)log.termMask) + 2L * log.termLength;
        if (log.cleanPosition >= target)
        {
            return 0;
        }
        final long reusedFrom = log.cleanPosition - log.windowLength + log.termLength;
        for (int i = links.size() - 1; i >= 0; i--)
        {
            final SubscriberLink link = links.get(i);
            if (SubscriberLink.CLOSED != link.state && link.completedLogPosition() < reusedFrom)
            {
                // A blocking subscriber holds the log; so does a conflating one whose scan is past the term but
                // whose writes from it are still in flight (a transport a moment behind is not a slow consumer).
                if (SubscriberLink.ACTIVE == link.state && (SlowConsumerPolicy.BLOCK == link.policy ||
                    (SlowConsumerPolicy.CONFLATE == link.policy && link.logPosition >= reusedFrom)))
                {
                    return 0;
                }
                dropLink(link, "slow consumer: fell behind the publisher's retained log (" +
                    (published - link.completedLogPosition()) + " bytes behind, window " + log.windowLength + ")",
                    RingDescriptor.PUBLISHER_DROPPED);
            }
        }
        final int termOffset = log.offset(log.cleanPosition);
        final int chunk = (int)Math.min(CLEAN_CHUNK, log.termLength - cleanProgress);
        log.buffer.setMemory(termOffset + (int)cleanProgress, chunk, (byte)0);
        cleanProgress += chunk;
        if (cleanProgress == log.termLength)
        {
            cleanProgress = 0;
            log.cleanPosition += log.termLength;
        }
        return 1;
    }

    private void updateLimit(final boolean connected, final long blockingLimit, final long published)
    {
        final long clean = log.cleanPosition;
        final long limit = connected ? Math.min(clean, blockingLimit) : Math.min(clean, log.tail.get());
        log.limitedByCleaning = connected && clean < blockingLimit;
        log.connected = connected && !closing;
        if (log.limit.get() != limit)
        {
            log.limit.lazySet(limit);
            limitCounter.setOrdered(limit);
        }
    }

    private String checkLink(final SubscriberLink link, final long published, final long nowNs)
    {
        if (link instanceof RdmaSubscriberLink && null != ((RdmaSubscriberLink)link).failure())
        {
            return ((RdmaSubscriberLink)link).failure();
        }
        if (nowNs - link.lastHeardNs > context.livenessTimeoutNs())
        {
            return "subscriber heartbeat timeout: nothing heard for " + (nowNs - link.lastHeardNs) / 1_000_000 +
                " ms";
        }
        final String slow = link.dropReason(published, nowNs);
        if (null != slow)
        {
            conductor.countSlowConsumerDrop();
        }
        return slow;
    }

    void dropLink(final SubscriberLink link, final String reason, final int status)
    {
        // Logged under the subscriber's own name and the rule it broke, without the changing figures, so that a
        // subscriber dropped again and again is one entry in the distinct error log rather than a flood.
        conductor.onError(new BusException("publication " + channel + " dropped subscriber '" + link.clientName +
            "': " + reason.replaceAll("[0-9]+ (bytes|ms)", "N $1")));
        conductor.countDisconnect();
        link.close(reason, status);
        retire(link);
    }

    void retire(final SubscriberLink link)
    {
        if (links.remove(link))
        {
            if (link instanceof RdmaSubscriberLink)
            {
                draining.add(((RdmaSubscriberLink)link).qp);
            }
            counters.free(link.positionCounter);
            counters.free(link.lagCounter);
            if (link instanceof IpcSubscriberLink)
            {
                final Path file = ((IpcSubscriberLink)link).file;
                ipcFiles.remove(file);
                if (IpcDirectory.isOrphan(file, System.currentTimeMillis(),
                    TimeUnit.NANOSECONDS.toMillis(context.livenessTimeoutNs())))
                {
                    try
                    {
                        Files.deleteIfExists(file);
                    }
                    catch (final IOException ex)
                    {
                        conductor.onError(new BusException("cannot delete the ring of exited subscriber " + file +
                            ": " + ex.getMessage(), ex));
                    }
                }
            }
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Joining

    /**
     * Validate a subscription request and settle where it joins.
     *
     * @return the reason to refuse, or null.
     */
    String validate(final SubscribeHandshake.Request request, final String remote)
    {
        if (closing)
        {
            return "publication on stream " + streamId + " is closing";
        }
        if (null == SlowConsumerPolicy.fromCode(request.policy()))
        {
            return "unknown slow-consumer policy code " + request.policy();
        }
        if (request.dropLag() < 0 || request.dropAfterNs() < 0)
        {
            return "negative drop lag " + request.dropLag() + " or lag-timeout " + request.dropAfterNs() + " ns";
        }
        if (SlowConsumerPolicy.CONFLATE == SlowConsumerPolicy.fromCode(request.policy()) && 0 == keyLength)
        {
            return "stream " + streamId + " does not allow conflation (the publication declares no conflation-key)";
        }
        try
        {
            BusContext.checkSizes("subscriber ", log.termLength, log.windowLength, request.ringCapacity());
        }
        catch (final IllegalArgumentException ex)
        {
            return ex.getMessage();
        }
        int active = 0;
        for (final SubscriberLink link : links)
        {
            if (SubscriberLink.CLOSED != link.state)
            {
                active++;
                if (request.name().equals(link.clientName))
                {
                    return "duplicate subscription '" + request.name() + "' on stream " + streamId +
                        " (already connected" + (null != remote ? ", new request from " + remote : "") + ")";
                }
            }
        }
        if (active >= maxSubscribers)
        {
            return "publication on stream " + streamId + " already serves " + active + " subscribers (the limit)";
        }
        return null;
    }

    /**
     * Where a subscriber joins. A first-time subscriber (no resume point) joins live. A resuming one asks for the
     * sequence after the last one it read: of this session, it resumes there while the retained log holds it; of
     * another session, it resumes by sequence when this publication continues the stream ({@code
     * initial-sequence} given), else from this session's first frame, the stream having started again. A drop
     * subscriber resumes only from within its drop lag (further back it would be dropped again at once): it joins
     * live instead. Whatever it asked for and does not get is reported as a gap, to fill from the journal.
     *
     * @return {position, sequence, gapFrom, gapTo}.
     */
    long[] joinPoint(final SubscribeHandshake.Request request)
    {
        final long published = log.published.get();
        if (request.resumeSequence() < 0)
        {
            return new long[] { published, nextSequence, -1, -1 };
        }
        final long resumeSequence = request.resumeSession() == sessionId || initialSequence > 0 ?
            request.resumeSequence() : initialSequence;
        if (resumeSequence >= nextSequence)
        {
            return new long[] { published, nextSequence, -1, -1 };
        }
        final long earliest = SlowConsumerPolicy.DROP == SlowConsumerPolicy.fromCode(request.policy()) ?
            published - dropLagFor(request) : Long.MIN_VALUE;
        final UnsafeBuffer buffer = log.buffer;
        // Not the oldest term: the cleaner zeroes it next, perhaps before this subscriber's connection is up.
        long position = Math.max(0, log.cleanPosition - log.windowLength + log.termLength);
        while (position < published)
        {
            final int offset = log.offset(position);
            final int length = FrameDescriptor.frameLength(buffer, offset);
            if (length < FrameDescriptor.MIN_FRAME_LENGTH)
            {
                break;
            }
            if (FrameDescriptor.TYPE_DATA == FrameDescriptor.type(buffer, offset))
            {
                final long sequence = FrameDescriptor.sequence(buffer, offset);
                if (sequence >= resumeSequence)
                {
                    if (position < earliest)
                    {
                        break;
                    }
                    final boolean gap = sequence > resumeSequence;
                    return new long[] { position, sequence, gap ? resumeSequence : -1, gap ? sequence - 1 : -1 };
                }
            }
            position += FrameDescriptor.alignedLength(length - FrameDescriptor.HEADER_LENGTH);
        }
        return new long[] { published, nextSequence, resumeSequence, nextSequence - 1 };
    }

    private long dropLagFor(final SubscribeHandshake.Request request)
    {
        // The publisher's retained log bounds how far behind anyone may fall, whatever they asked for.
        return Math.min(0 != request.dropLag() ? request.dropLag() : dropLag, maxDropLag);
    }

    private static String checkReplayEndpoint(final String endpoint)
    {
        try
        {
            final java.net.InetSocketAddress address = ChannelUri.parseEndpoint(endpoint);
            return address.getAddress().isAnyLocalAddress() ? "a wildcard address names no host to connect to" : null;
        }
        catch (final IllegalArgumentException ex)
        {
            return ex.getMessage();
        }
    }

    long nextSubscriberId()
    {
        return subscriberIds++;
    }

    /**
     * Start serving a subscriber that was validated and joined.
     *
     * @param link    the subscriber.
     * @param request what it asked for.
     */
    void addLink(final SubscriberLink link, final SubscribeHandshake.Request request)
    {
        link.clientName = request.name();
        if (!request.announce().isEmpty())
        {
            final String problem = checkReplayEndpoint(request.announce());
            if (null == problem)
            {
                replayEndpoint = request.announce();
            }
            else
            {
                conductor.onError(new BusException("publication " + channel + " ignored the replay endpoint '" +
                    request.announce() + "' announced by " + request.name() + ": " + problem));
            }
        }
        link.dropLag = dropLagFor(request);
        link.dropAfterNs = request.dropAfterNs();
        links.add(link);
    }

    // ---------------------------------------------------------------------------------------------------------
    // IPC

    private int pollIpcSubscribers(final long nowNs, final long nowMs)
    {
        nextIpcScanNs = nowNs + context.heartbeatIntervalNs() / 4;
        final long current = generation.getLongVolatile(0);
        if (current == lastGeneration)
        {
            return 0;
        }
        lastGeneration = current;
        int attached = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(ipcStream,
            IpcDirectory.RING_PREFIX + "*" + IpcDirectory.RING_SUFFIX))
        {
            for (final Path file : files)
            {
                if (!ipcFiles.contains(file) && attachIpc(file, nowNs, nowMs))
                {
                    attached++;
                }
            }
        }
        catch (final IOException ex)
        {
            conductor.onError(new BusException("cannot list IPC rings in " + ipcStream + ": " + ex.getMessage(), ex));
        }
        return attached;
    }

    private boolean attachIpc(final Path file, final long nowNs, final long nowMs)
    {
        final MappedByteBuffer mapped;
        try
        {
            mapped = IpcDirectory.mapRing(file);
        }
        catch (final RuntimeException ex)
        {
            return false;
        }
        final UnsafeBuffer ring = new UnsafeBuffer(mapped);
        if (ring.capacity() <= RingDescriptor.TRAILER_LENGTH)
        {
            org.agrona.IoUtil.unmap(mapped);
            return false;
        }
        final int capacity = ring.capacity() - RingDescriptor.TRAILER_LENGTH;
        if (RingDescriptor.SUBSCRIBER_READY != ring.getIntVolatile(capacity +
            RingDescriptor.SUBSCRIBER_STATUS_OFFSET) ||
            RingDescriptor.PUBLISHER_NONE != ring.getIntVolatile(capacity + RingDescriptor.PUBLISHER_STATUS_OFFSET))
        {
            org.agrona.IoUtil.unmap(mapped);
            return false;
        }
        final String name = file.getFileName().toString();
        final int policy = ring.getInt(capacity + RingDescriptor.POLICY_OFFSET);
        final SubscribeHandshake.Request request = new SubscribeHandshake.Request(
            ring.getInt(capacity + RingDescriptor.STREAM_ID_OFFSET), 0, 0,
            ring.getInt(capacity + RingDescriptor.CAPACITY_OFFSET), policy,
            ring.getLong(capacity + RingDescriptor.RESUME_SEQUENCE_OFFSET),
            ring.getInt(capacity + RingDescriptor.PUBLISHER_SESSION_OFFSET),
            ring.getLong(capacity + RingDescriptor.DROP_LAG_OFFSET),
            ring.getLong(capacity + RingDescriptor.DROP_AFTER_OFFSET), name, 0, -1, -1,
            RingDescriptor.replayEndpoint(ring, capacity));
        String refusal = request.ringCapacity() != capacity ?
            "ring file holds " + capacity + " bytes of frames but declares " + request.ringCapacity() : null;
        if (null == refusal && request.streamId() != streamId)
        {
            refusal = "ring declares stream " + request.streamId() + " in the directory of stream " + streamId;
        }
        if (null == refusal)
        {
            refusal = validate(request, null);
        }
        ipcFiles.add(file);
        if (null != refusal)
        {
            IpcSubscriberLink.reject(ring, capacity, refusal);
            conductor.onError(new BusException("publication " + channel + " refused IPC subscriber " + name + ": " +
                refusal));
            org.agrona.IoUtil.unmap(mapped);
            return false;
        }
        final long[] join = joinPoint(request);
        final IpcSubscriberLink link = new IpcSubscriberLink(name, SlowConsumerPolicy.fromCode(policy), capacity,
            counters.subscriberPosition(registrationId, channel, sessionId, subscriberIds, name),
            counters.subscriberLag(registrationId, channel, sessionId, subscriberIds++, name),
            file, mapped, log.buffer);
        addLink(link, request);
        RingDescriptor.putReplayEndpoint(ring, capacity, replayEndpoint);
        link.attach(sessionId, join[0], join[1], join[2], join[3], nowNs, nowMs);
        conductor.countConnection();
        return true;
    }

    // ---------------------------------------------------------------------------------------------------------
    // Closing

    void startClose(final long nowNs)
    {
        if (!closing)
        {
            closing = true;
            closeDeadlineNs = nowNs + context.livenessTimeoutNs();
        }
    }

    boolean isClosed()
    {
        if (!closing || !links.isEmpty())
        {
            return false;
        }
        // The log stays registered until the connections that wrote from it are over: their last writes may still
        // be queued.
        draining.removeIf((qp) -> qp.state().isFinal());
        return draining.isEmpty();
    }

    private void finishClosing(final long nowNs, final long published)
    {
        final boolean timedOut = nowNs - closeDeadlineNs > 0;
        // A clean close sends everything offered first: frames not yet scanned are still to go.
        final boolean allScanned = published >= log.tail.get();
        for (int i = links.size() - 1; i >= 0; i--)
        {
            final SubscriberLink link = links.get(i);
            if (SubscriberLink.ACTIVE != link.state || timedOut ||
                (allScanned && link.logPosition >= published && link.committed >= link.ringPosition))
            {
                link.close("publication closed", RingDescriptor.PUBLISHER_CLOSED);
                retire(link);
            }
        }
        if (links.isEmpty())
        {
            release();
        }
    }

    void release()
    {
        counters.free(positionCounter);
        counters.free(limitCounter);
        counters.free(messagesOut);
        counters.free(bytesOut);
        counters.free(publication.backPressureEvents);
        if (null != ipcLock)
        {
            CloseHelper.quietClose(ipcLock.channel());
        }
    }

    int keyLength()
    {
        return keyLength;
    }

    io.warpbus.iwarp.ProtectionDomain protectionDomain()
    {
        return publication.protectionDomain;
    }

    io.warpbus.iwarp.MemoryRegion logRegion()
    {
        return log.region;
    }

    @Override
    public String toString()
    {
        return "PublicationSender{" + channel + ", session=" + sessionId + ", links=" + links.size() + '}';
    }
}
