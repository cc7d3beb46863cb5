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
import java.nio.file.Path;
import java.util.ArrayList;

import io.warpbus.bus.protocol.FrameDescriptor;
import io.warpbus.bus.protocol.RingDescriptor;
import io.warpbus.bus.protocol.SubscribeHandshake;
import io.warpbus.bus.status.SystemCounterDescriptor;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * Fans one publication's log out to its subscribers and the bus's frame observers, on the conductor's thread. Each
 * duty cycle it has the log sequenced ({@link LogSequencer}), zeroes the log a term ahead of the writers, sends
 * every subscriber what fits its ring, enforces each subscriber's slow-consumer policy and liveness, and sets the
 * writers' limit. Who may join, and where, is the {@link JoinPolicy}'s decision; IPC subscribers are found by the
 * {@link IpcRendezvous}; each kind of {@link SubscriberLink} moves its own bytes and reports its own failures.
 */
final class PublicationFanOut implements IpcRendezvous.Admission
{
    private static final int CLEAN_CHUNK = 64 * 1024;

    final Publication publication;
    final LogBuffer log;
    final ChannelUri channel;
    final int streamId;
    final int sessionId;
    final BusConductor conductor;
    final ArrayList<SubscriberLink> links = new ArrayList<>();
    /** Retired links whose transport may still read the log. */
    private final ArrayList<SubscriberLink> draining = new ArrayList<>();
    private final BusContext context;
    private final int keyOffset;
    private final int keyLength;
    private final AtomicCounter positionCounter;
    private final AtomicCounter limitCounter;
    private final AtomicCounter messagesOut;
    private final AtomicCounter bytesOut;
    private final long registrationId;
    private final BusCounters counters;
    private final LogSequencer sequencer;
    /** An exclusive publication: one writer, whose log need not be zeroed ahead of it (see {@link #clean}). */
    private final boolean singleWriter;
    private final JoinPolicy joinPolicy;
    /** Durable subscribers (recorders) lost and expected back: their places in the log are kept. */
    private final DurableSubscriberTracker durables;
    /** Is the cleaner held by an absent durable subscriber's place (so a full log is back pressure)? */
    private boolean heldForAbsent;
    /** IPC only: where subscribers' rings are found; null over iWARP. */
    private final IpcRendezvous ipc;
    private long subscriberIds = 1;
    private long cleanProgress;
    private boolean closing;
    /** A replay's publication: one subscriber, not routed by stream at its endpoint. */
    boolean replay;
    /** Where this stream's recorder serves replays, as the last recorder to subscribe announced; or empty. */
    String replayEndpoint = "";
    private long closeDeadlineNs;
    private long observedPosition;
    private boolean released;
    /**
     * Has an offer been sent at once since the last duty cycle, or did that duty cycle find offers to send? Then the
     * publication is streaming, and an offer is left to the next duty cycle's batch (see Publication#eagerSend).
     */
    boolean streaming;

    PublicationFanOut(final BusConductor conductor, final Publication publication, final BusCounters counters)
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
        final long dropLag = channel.size("lag", 0 != context.dropLag() ? context.dropLag() : log.windowLength / 2);
        final long initialSequence = channel.number("initial-sequence", 0);
        this.registrationId = publication.registrationId;
        AtomicCounter position = null;
        AtomicCounter limit = null;
        AtomicCounter messages = null;
        try
        {
            position = counters.publisherPosition(registrationId, channel, sessionId);
            limit = counters.publisherLimit(registrationId, channel, sessionId);
            messages = counters.messagesOut(registrationId, channel);
            this.bytesOut = counters.bytesOut(registrationId, channel);
        }
        catch (final RuntimeException ex)
        {
            // A full counters file: the ones already taken go back, or each refused publication would keep some.
            counters.free(position);
            counters.free(limit);
            counters.free(messages);
            throw ex;
        }
        this.positionCounter = position;
        this.limitCounter = limit;
        this.messagesOut = messages;
        this.singleWriter = publication instanceof ExclusivePublication;
        this.sequencer = new LogSequencer(log, singleWriter, initialSequence, positionCounter, messagesOut, bytesOut,
            counters.system(SystemCounterDescriptor.MESSAGES_SENT),
            counters.system(SystemCounterDescriptor.BYTES_SENT));
        this.joinPolicy = new JoinPolicy(streamId, sessionId, log, sequencer, keyLength, dropLag,
            context.maxSubscribers(), links);
        this.durables = new DurableSubscriberTracker(channel.durableTimeoutNs(context.durableTimeoutNs()));
        try
        {
            this.ipc = channel.isIpc() ? new IpcRendezvous(context.ipcDirectory(), streamId, channel.toString(),
                context.heartbeatIntervalNs() / 4, context.livenessTimeoutNs(), conductor::onError, this,
                publication.ipcLock) : null;
        }
        catch (final RuntimeException ex)
        {
            // The publication never exists, nor do its counters.
            freeCounters();
            throw ex;
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
        if (closing || 0 == sequencer.scan())
        {
            return;
        }
        streaming = true;
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
        log.storeCommit(published);
    }

    int doWork(final long nowNs, final long nowMs)
    {
        if (!draining.isEmpty())
        {
            draining.removeIf(SubscriberLink::isDrained);
        }
        int work = sequencer.scan();
        streaming = work > 0;
        work += clean();
        if (null != ipc)
        {
            work += ipc.poll(nowNs, nowMs);
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
            if (null != link.durableKey && durables.absentCount() > 0)
            {
                onDurableReturned(link);
            }
            connected = true;
            subscribers++;
            slowest = Math.min(slowest, published - link.lag(published));
            if (SlowConsumerPolicy.BLOCK == link.policy)
            {
                blockingLimit = Math.min(blockingLimit, link.consumed + link.ringCapacity);
            }
        }
        if (durables.absentCount() > 0)
        {
            work += expireDurables(nowNs);
            final long held = durables.heldPosition();
            if (Long.MAX_VALUE != held)
            {
                connected = !closing;
                slowest = Math.min(slowest, held);
            }
        }
        // After every ring's bound of this cycle: a subscriber that reads the log's commit position sees them too.
        log.storeCommit(published);
        updateLimit(connected, blockingLimit, published);
        // Volatile stores are full fences on x86, five of them a cycle a measurable share of an IPC round trip:
        // each of these fields is written only when it changes.
        if (log.subscriberCount != subscribers)
        {
            log.subscriberCount = subscribers;
        }
        final int absentDurables = durables.absentCount();
        if (log.absentDurableCount != absentDurables)
        {
            log.absentDurableCount = absentDurables;
        }
        if (log.slowestPosition != slowest)
        {
            log.slowestPosition = slowest;
        }
        if (closing)
        {
            finishClosing(nowNs, published);
        }
        return work;
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
        if (log.cleanPosition < log.windowLength)
        {
            // The first lap: nothing was ever written from the clean position on, and a new log is all zeroes.
            log.cleanPosition += log.termLength;
            return 1;
        }
        final long reusedFrom = log.cleanPosition - log.windowLength + log.termLength;
        heldForAbsent = durables.heldPosition() < reusedFrom;
        if (heldForAbsent)
        {
            // An absent durable subscriber (a recorder restarting) resumes from its place: keep it.
            return 0;
        }
        for (int i = links.size() - 1; i >= 0; i--)
        {
            final SubscriberLink link = links.get(i);
            if (SubscriberLink.CLOSED != link.state && retainedFrom(link) < reusedFrom)
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
        for (int i = draining.size() - 1; i >= 0; i--)
        {
            if (draining.get(i).heldLogPosition() < reusedFrom)
            {
                // A dropped subscriber may still be in a poll of the log in place: held until it lets go.
                return 0;
            }
        }
        if (singleWriter)
        {
            // Nothing reads this log past its one writer's tail (LogSequencer), so the term is free once no
            // subscriber holds it: zeroing it would cost the publishing thread a pass over every byte.
            log.cleanPosition += log.termLength;
            return 1;
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

    /**
     * Where the log must be kept for a subscriber: what its transport still reads, and for a durable one also what
     * it has not consumed (what sits unread in its ring is lost with it if it crashes, and it resumes from there).
     */
    private static long retainedFrom(final SubscriberLink link)
    {
        final long completed = link.completedLogPosition();
        return null == link.durableKey ? completed : Math.min(completed, link.consumed);
    }

    private void updateLimit(final boolean connected, final long blockingLimit, final long published)
    {
        final long clean = log.cleanPosition;
        final long limit = connected ? Math.min(clean, blockingLimit) : Math.min(clean, log.tail.get());
        final boolean limitedByCleaning = connected && clean < blockingLimit && !heldForAbsent;
        if (log.limitedByCleaning != limitedByCleaning)
        {
            log.limitedByCleaning = limitedByCleaning;
        }
        final boolean open = connected && !closing;
        if (log.connected != open)
        {
            log.connected = open;
        }
        if (log.limit.get() != limit)
        {
            log.limit.lazySet(limit);
            limitCounter.setOrdered(limit);
        }
    }

    private String checkLink(final SubscriberLink link, final long published, final long nowNs)
    {
        final String failure = link.failure();
        if (null != failure)
        {
            return failure;
        }
        final long silentNs = link.heartbeat.silentNs(nowNs);
        if (silentNs > context.livenessTimeoutNs())
        {
            return "subscriber heartbeat timeout: nothing heard for " + silentNs / 1_000_000 +
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
            if (null != link.durableKey && !closing && !link.hasLeft())
            {
                onDurableLost(link);
            }
            if (!link.isDrained())
            {
                draining.add(link);
            }
            counters.free(link.positionCounter);
            counters.free(link.lagCounter);
            link.onRetired();
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Durable subscribers

    private void onDurableLost(final SubscriberLink link)
    {
        final long nowNs = conductor.nowNs();
        final DurableSubscriberTracker.Absence absence = durables.onLost(link.durableKey, link.clientName,
            link.consumed, nowNs);
        conductor.onError(new BusException("publication " + channel + " keeps the place of durable subscriber '" +
            absence.name() + "' (replays at " + absence.key() + ") for up to " + durables.timeoutNs() / 1_000_000 +
            " ms: the log from its position is retained for it, and offers are back-pressured only once the log " +
            "is full"));
    }

    private void onDurableReturned(final SubscriberLink link)
    {
        durables.onReturned(link.durableKey);
    }

    private int expireDurables(final long nowNs)
    {
        final DurableSubscriberTracker.Absence absence = durables.expire(nowNs);
        if (null == absence)
        {
            return 0;
        }
        log.durableExpiries = log.durableExpiries + 1;
        conductor.onError(new BusException("publication " + channel + " released the place of durable subscriber '" +
            absence.name() + "' (replays at " + absence.key() + "): it did not return within " +
            durables.timeoutNs() / 1_000_000 + " ms, and will find a gap where it left"));
        return 1;
    }

    /**
     * Durable subscribers lost and expected back.
     *
     * @return the count.
     */
    int absentDurableCount()
    {
        return durables.absentCount();
    }

    // ---------------------------------------------------------------------------------------------------------
    // Joining

    /**
     * Validate a subscription request.
     *
     * @param request what the subscriber asks for.
     * @param remote  where it connects from, or null (IPC).
     * @return the reason to refuse, or null.
     */
    String validate(final SubscribeHandshake.Request request, final String remote)
    {
        if (closing)
        {
            return "publication on stream " + streamId + " is closing";
        }
        return joinPolicy.refusal(request, remote);
    }

    /**
     * Where a validated subscriber joins: see {@link JoinPolicy#joinPoint}.
     *
     * @param request what the subscriber asks for.
     * @return where it joins.
     */
    JoinPolicy.JoinPoint joinPoint(final SubscribeHandshake.Request request)
    {
        return joinPolicy.joinPoint(request, durables.heldPosition(request.announce()));
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
        if (durables.isDurable(link.policy, request.announce()) && request.announce().equals(replayEndpoint))
        {
            link.durableKey = request.announce();
        }
        link.dropLag = joinPolicy.dropLagFor(request);
        link.dropAfterNs = request.dropAfterNs();
        links.add(link);
    }

    @Override
    public String refusal(final SubscribeHandshake.Request request)
    {
        return validate(request, null);
    }

    @Override
    public void admit(
        final Path file,
        final MappedByteBuffer mapped,
        final int capacity,
        final SubscribeHandshake.Request request,
        final long nowNs,
        final long nowMs)
    {
        final JoinPolicy.JoinPoint join = joinPolicy.joinPoint(request, durables.heldPosition(request.announce()));
        final String name = request.name();
        final long subscriberId = nextSubscriberId();
        final IpcSubscriberLink link = new IpcSubscriberLink(name, SlowConsumerPolicy.fromCode(request.policy()),
            capacity, counters.subscriberPosition(registrationId, channel, sessionId, subscriberId, name),
            counters.subscriberLag(registrationId, channel, sessionId, subscriberId, name),
            file, mapped, log, ipc, context.nanoClock());
        addLink(link, request);
        RingDescriptor.putReplayEndpoint(link.ring(), capacity, replayEndpoint);
        link.attach(sessionId, join.position(), join.sequence(), join.gapFrom(), join.gapTo(), nowNs, nowMs);
        conductor.countConnection();
    }

    // ---------------------------------------------------------------------------------------------------------
    // Closing

    void startClose(final long nowNs)
    {
        if (!closing)
        {
            closing = true;
            durables.clear();
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
        draining.removeIf(SubscriberLink::isDrained);
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
        if (released)
        {
            // Closing calls this every cycle while retired links drain.
            return;
        }
        released = true;
        freeCounters();
        counters.free(publication.backPressureEvents);
        if (null != ipc)
        {
            try
            {
                log.deleteFile();
            }
            catch (final IOException ex)
            {
                conductor.onError(new BusException("cannot delete the log of closed publication " + channel + " (" +
                    log.file + "): " + ex.getMessage() + "; the stream's next publisher deletes it", ex));
            }
            ipc.release();
        }
    }

    private void freeCounters()
    {
        counters.free(positionCounter);
        counters.free(limitCounter);
        counters.free(messagesOut);
        counters.free(bytesOut);
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
        return "PublicationFanOut{" + channel + ", session=" + sessionId + ", links=" + links.size() + '}';
    }
}
