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

import java.util.List;

import io.warpbus.bus.protocol.FrameDescriptor;
import io.warpbus.bus.protocol.SubscribeHandshake;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Whether a subscriber may join a publication, and where in the stream it joins. The same rules apply to a
 * subscriber over iWARP and one over IPC; each refusal is a reason the subscriber is told.
 */
final class JoinPolicy
{
    /**
     * Where a subscriber starts.
     *
     * @param position the log position of the first frame it is sent.
     * @param sequence the sequence of that frame (or of the next one published, when it joins live).
     * @param gapFrom  the first sequence it asked for and will not get, or -1.
     * @param gapTo    the last such sequence, or -1.
     */
    record JoinPoint(long position, long sequence, long gapFrom, long gapTo)
    {
    }

    private final int streamId;
    private final int sessionId;
    private final LogBuffer log;
    private final LogSequencer sequencer;
    private final int keyLength;
    private final long dropLag;
    private final long maxDropLag;
    private final int maxSubscribers;
    private final List<SubscriberLink> links;

    /**
     * The policy of one publication.
     *
     * @param streamId       the publication's stream.
     * @param sessionId      the publication's session.
     * @param log            its log.
     * @param sequencer      what sequences its log.
     * @param keyLength      its conflation key's length, 0 when it declares none.
     * @param dropLag        the drop lag of a drop subscriber that asks for none (bounded by the retained log).
     * @param maxSubscribers how many subscribers it serves at most.
     * @param links          its subscribers, owned by the caller.
     */
    JoinPolicy(
        final int streamId,
        final int sessionId,
        final LogBuffer log,
        final LogSequencer sequencer,
        final int keyLength,
        final long dropLag,
        final int maxSubscribers,
        final List<SubscriberLink> links)
    {
        this.streamId = streamId;
        this.sessionId = sessionId;
        this.log = log;
        this.sequencer = sequencer;
        this.keyLength = keyLength;
        this.maxDropLag = log.windowLength - 2L * log.termLength;
        this.dropLag = Math.min(dropLag, maxDropLag);
        this.maxSubscribers = maxSubscribers;
        this.links = links;
    }

    /**
     * Why a subscription request must be refused.
     *
     * @param request what the subscriber asks for.
     * @param remote  where it connects from, or null (IPC).
     * @return the reason to refuse, or null to accept.
     */
    String refusal(final SubscribeHandshake.Request request, final String remote)
    {
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
     * @param request what the subscriber asks for (validated).
     * @return where it joins.
     */
    JoinPoint joinPoint(final SubscribeHandshake.Request request)
    {
        return joinPoint(request, Long.MAX_VALUE);
    }

    /**
     * Where a subscriber joins, as {@link #joinPoint(SubscribeHandshake.Request)}, for a subscriber whose place the
     * publication kept: a durable subscriber returning may resume from its place even in the oldest term, because
     * the cleaner stays behind that place until the subscriber's connection is up and holds the log itself.
     *
     * @param request what the subscriber asks for (validated).
     * @param place   the log position kept for it, or {@link Long#MAX_VALUE} when none was.
     * @return where it joins.
     */
    JoinPoint joinPoint(final SubscribeHandshake.Request request, final long place)
    {
        final long published = log.published.get();
        final long nextSequence = sequencer.nextSequence();
        if (request.resumeSequence() < 0)
        {
            return new JoinPoint(published, nextSequence, -1, -1);
        }
        final long initialSequence = sequencer.initialSequence();
        final long resumeSequence = request.resumeSession() == sessionId || initialSequence > 0 ?
            request.resumeSequence() : initialSequence;
        if (resumeSequence >= nextSequence)
        {
            return new JoinPoint(published, nextSequence, -1, -1);
        }
        final long earliest = SlowConsumerPolicy.DROP == SlowConsumerPolicy.fromCode(request.policy()) ?
            published - dropLagFor(request) : Long.MIN_VALUE;
        final UnsafeBuffer buffer = log.buffer;
        // Not the oldest term: the cleaner zeroes it next, perhaps before this subscriber's connection is up.
        long position = Math.min(place, Math.max(0, log.cleanPosition - log.windowLength + log.termLength));
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
                    return new JoinPoint(position, sequence, gap ? resumeSequence : -1, gap ? sequence - 1 : -1);
                }
            }
            position += FrameDescriptor.alignedLength(length - FrameDescriptor.HEADER_LENGTH);
        }
        return new JoinPoint(published, nextSequence, resumeSequence, nextSequence - 1);
    }

    /**
     * How far behind a drop subscriber may fall: what it asked for, else the publication's default, and never more
     * than the publisher's retained log holds.
     *
     * @param request what the subscriber asks for.
     * @return the drop lag in bytes.
     */
    long dropLagFor(final SubscribeHandshake.Request request)
    {
        return Math.min(0 != request.dropLag() ? request.dropLag() : dropLag, maxDropLag);
    }
}
