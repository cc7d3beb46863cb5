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
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import io.warpbus.bus.protocol.RingDescriptor;
import io.warpbus.bus.protocol.SubscribeHandshake;
import io.warpbus.bus.status.PeerHeartbeat;
import io.warpbus.iwarp.Access;
import io.warpbus.iwarp.CompletionQueue;
import io.warpbus.iwarp.ConnectionEvent;
import io.warpbus.iwarp.ConnectionEventType;
import io.warpbus.iwarp.ConnectionParameters;
import io.warpbus.iwarp.MemoryRegion;
import io.warpbus.iwarp.ProtectionDomain;
import io.warpbus.iwarp.QueuePair;
import io.warpbus.iwarp.QueuePairAttributes;
import io.warpbus.iwarp.QueuePairState;
import io.warpbus.iwarp.Rnic;
import io.warpbus.iwarp.mpa.NegotiatedParameters;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A subscription over iWARP. It registers a ring (frames plus metadata) that the publisher may write, connects to
 * the publisher's endpoint with a subscribe request in the MPA private data, and on success exposes the ring as an
 * {@link Image}. Until the publisher is up, and after any failure, it retries with a growing back-off; a
 * reconnect resumes from the sequence after the last one delivered.
 * <pre>
 *   BACKOFF --connect--&gt; CONNECTING --ESTABLISHED--&gt; CONNECTED
 *   CONNECTED --disconnect/timeout--&gt; CLOSING_IMAGE --&gt; BACKOFF
 * </pre>
 */
final class RdmaSubscriptionEndpoint implements SubscriptionEndpoint
{
    private static final int BACKOFF = 0;
    private static final int CONNECTING = 1;
    private static final int CONNECTED = 2;
    private static final int CLOSING_IMAGE = 3;
    private static final int CLOSED = 4;
    private static final String END_OF_STREAM = "end of stream: the publication closed";
    private static final long MIN_BACKOFF_NS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final long MAX_BACKOFF_NS = TimeUnit.SECONDS.toNanos(1);

    private final BusConductor conductor;
    private final BusContext context;
    private final Subscription subscription;
    private final ChannelUri channel;
    private final Rnic rnic;
    private final MemoryRegion ringRegion;
    private final UnsafeBuffer ring;
    private final int capacity;
    private final ProtectionDomain pd;
    private final CompletionQueue cq;
    private final String name;
    private final long instanceId = ThreadLocalRandom.current().nextLong();
    private int state = BACKOFF;
    private QueuePair qp;
    private SubscribeHandshake.Reply reply;
    private Image image;
    private String closeReason;
    private long nextAttemptNs;
    private long backoffNs = MIN_BACKOFF_NS;
    private long lastCreditNs;
    private long lastCreditPosition = -1;
    private final PeerHeartbeat publisherHeartbeat = new PeerHeartbeat();
    private long resumeSequence;
    private int resumeSession;
    private String lastFailure;
    private boolean closing;

    RdmaSubscriptionEndpoint(final BusConductor conductor, final Subscription subscription, final Rnic rnic)
    {
        this.conductor = conductor;
        this.context = conductor.context();
        this.subscription = subscription;
        this.channel = subscription.channel();
        this.rnic = rnic;
        this.capacity = channel.size("ring", context.ringCapacity());
        this.pd = rnic.allocateProtectionDomain();
        this.ring = new UnsafeBuffer(ByteBuffer.allocateDirect(capacity + RingDescriptor.TRAILER_LENGTH));
        this.ringRegion = pd.registerMemory(ring, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
        this.cq = rnic.createCompletionQueue(64);
        this.name = channel.name(context.name() + "-" + Long.toHexString(instanceId & 0xFFFF_FFFFL));
        this.resumeSequence = subscription.resumeSequence();
        this.resumeSession = subscription.resumeSession();
    }

    @Override
    public int doWork(final long nowNs, final long nowMs)
    {
        switch (state)
        {
            case BACKOFF:
                if (closing)
                {
                    state = CLOSED;
                    return 1;
                }
                // Never two connections writing into the one ring: the last one must be over first.
                if (nowNs - nextAttemptNs >= 0 && (null == qp || qp.state().isFinal()))
                {
                    connect();
                    return 1;
                }
                return 0;
            case CONNECTED:
                return connected(nowNs, nowMs);
            case CLOSING_IMAGE:
                return closeImage(nowNs);
            default:
                return 0;
        }
    }

    private void connect()
    {
        qp = pd.createQueuePair(new QueuePairAttributes().completionQueue(cq).sendQueueDepth(64)
            .receiveQueueDepth(1));
        ring.setMemory(capacity, RingDescriptor.TRAILER_LENGTH, (byte)0);
        final boolean replay = channel.isReplay();
        // A replay resumes where it left off after a lost connection, else starts where the channel says.
        final long from = replay && resumeSequence < 0 ? channel.number("replay-from", -1) : resumeSequence;
        final SubscribeHandshake.Request request = new SubscribeHandshake.Request(channel.streamId(),
            ringRegion.stag(), ringRegion.address(), capacity, subscription.policy().ordinal(), from,
            resumeSession, channel.size("lag", 0), channel.durationNs("lag-timeout", 0), name,
            replay ? SubscribeHandshake.FLAG_REPLAY : 0, replay ? channel.number("replay-to", -1) : -1,
            replay && from < 0 ? channel.number("replay-from-time", -1) : -1, channel.text("announce-replay", ""));
        state = CONNECTING;
        conductor.watch(qp, this);
        rnic.connectionManager().connect(qp, channel.endpoint(),
            new ConnectionParameters().privateData(SubscribeHandshake.encode(request)), this);
    }

    void onEvent(final ConnectionEvent event, final long nowNs)
    {
        if (event.queuePair() != qp)
        {
            return;
        }
        if (CONNECTED == state)
        {
            if (ConnectionEventType.DISCONNECTED == event.type())
            {
                startClosingImage(disconnectReason(event));
            }
            return;
        }
        if (CONNECTING != state)
        {
            // The connection this side already let go of (closing its image, or backing off): nothing to do.
            return;
        }
        switch (event.type())
        {
            case ESTABLISHED:
                onEstablished(event, nowNs);
                break;
            case REJECTED:
                final String refusal = "rejected by the publisher at " + channel.endpoint() + ": " +
                    new String(event.privateData(), StandardCharsets.US_ASCII);
                if (channel.isReplay())
                {
                    // A replay refused stays refused: asking again would get the same answer.
                    conductor.onError(new BusException("subscription " + channel + " " + refusal));
                    subscription.end(refusal);
                    state = CLOSED;
                }
                else
                {
                    failed(refusal, nowNs);
                }
                break;
            case CONNECT_ERROR:
            case DISCONNECTED:
                failed(event.reason(), nowNs);
                break;
            default:
                break;
        }
    }

    private void onEstablished(final ConnectionEvent event, final long nowNs)
    {
        try
        {
            reply = SubscribeHandshake.decodeReply(event.privateData());
        }
        catch (final IllegalArgumentException ex)
        {
            qp.disconnect();
            failed("publisher at " + channel.endpoint() + " sent a malformed reply: " + ex.getMessage(), nowNs);
            return;
        }
        if (reply.termLength() <= 0 || capacity % reply.termLength() != 0)
        {
            qp.disconnect();
            failed("publisher term length " + reply.termLength() + " does not divide the ring of " + capacity, nowNs);
            return;
        }
        final String joinProblem = Image.joinProblem(reply.initialPosition());
        if (null != joinProblem)
        {
            qp.disconnect();
            failed("publisher at " + channel.endpoint() + " sent a malformed reply: " + joinProblem, nowNs);
            return;
        }
        ring.putLongOrdered(capacity + RingDescriptor.COMMIT_POSITION_OFFSET, reply.initialPosition());
        image = new Image(subscription, reply.sessionId(), channel.endpoint().toString(), ring, capacity, ring,
            capacity, new JoinPolicy.JoinPoint(reply.initialPosition(), reply.initialSequence(), reply.gapFrom(),
            reply.gapTo()),
            conductor.counters().imagePosition(subscription.registrationId(), channel, reply.sessionId(),
            channel.endpoint().toString()));
        image.replayEndpoint(reply.replayEndpoint());
        subscription.listener().onAvailable(image);
        subscription.addImage(image);
        state = CONNECTED;
        publisherHeartbeat.heard(nowNs);
        lastCreditNs = nowNs;
        lastCreditPosition = -1;
        backoffNs = MIN_BACKOFF_NS;
        lastFailure = null;
        conductor.countConnection();
    }

    private int connected(final long nowNs, final long nowMs)
    {
        int work = cq.poll((wc) -> { }, 16);
        if (QueuePairState.RTS != qp.state())
        {
            return work;
        }
        final long status = ring.getIntVolatile(capacity + RingDescriptor.PUBLISHER_STATUS_OFFSET);
        if (RingDescriptor.PUBLISHER_CLOSED == status)
        {
            qp.disconnect();
            startClosingImage(END_OF_STREAM);
            return 1;
        }
        publisherHeartbeat.read(ring.getLongVolatile(capacity + RingDescriptor.PUBLISHER_HEARTBEAT_OFFSET), nowNs);
        final long silentNs = publisherHeartbeat.silentNs(nowNs);
        if (silentNs > context.livenessTimeoutNs())
        {
            qp.disconnect();
            startClosingImage("publisher heartbeat timeout: nothing heard for " +
                TimeUnit.NANOSECONDS.toMillis(silentNs) + " ms");
            return 1;
        }
        final long consumed = image.consumedPosition();
        if ((consumed != lastCreditPosition && consumed - lastCreditPosition >= capacity / 4) ||
            nowNs - lastCreditNs >= context.heartbeatIntervalNs() ||
            (consumed != lastCreditPosition && nowNs - lastCreditNs >= context.heartbeatIntervalNs() / 10))
        {
            if (QueuePair.POSTED == qp.postWriteInline(0, consumed, nowMs, 0, 16, reply.creditStag(),
                reply.creditAddress(), 0))
            {
                lastCreditPosition = consumed;
                lastCreditNs = nowNs;
                work++;
            }
        }
        return work;
    }

    private String disconnectReason(final ConnectionEvent event)
    {
        final int status = ring.getIntVolatile(capacity + RingDescriptor.PUBLISHER_STATUS_OFFSET);
        if (RingDescriptor.PUBLISHER_DROPPED == status)
        {
            return "dropped by the publisher: " + RingDescriptor.reason(ring, capacity + RingDescriptor.REASON_OFFSET);
        }
        if (RingDescriptor.PUBLISHER_CLOSED == status)
        {
            return END_OF_STREAM;
        }
        return "connection lost: " + event.reason();
    }

    private void startClosingImage(final String reason)
    {
        closeReason = reason;
        state = CLOSING_IMAGE;
    }

    private int closeImage(final long nowNs)
    {
        if (!image.tryClose(closeReason, !closing))
        {
            return 0;
        }
        resumeSequence = image.resumeSequence();
        resumeSession = image.sessionId();
        subscription.removeImage(image);
        conductor.counters().free(image.positionCounter());
        subscription.listener().onUnavailable(image, closeReason);
        conductor.countDisconnect();
        image = null;
        if (QueuePairState.RTS == qp.state())
        {
            qp.disconnect();
        }
        if (channel.isReplay() && closeReason.startsWith(END_OF_STREAM))
        {
            subscription.end(closeReason);
            state = CLOSED;
            return 1;
        }
        state = BACKOFF;
        nextAttemptNs = nowNs + MIN_BACKOFF_NS;
        return 1;
    }

    private void failed(final String reason, final long nowNs)
    {
        if (!reason.equals(lastFailure))
        {
            lastFailure = reason;
            conductor.onError(new BusException("subscription " + channel + " could not join: " + reason +
                " (retrying)"));
        }
        conductor.countRetry();
        state = BACKOFF;
        nextAttemptNs = nowNs + backoffNs;
        backoffNs = Math.min(MAX_BACKOFF_NS, backoffNs * 2);
    }

    @Override
    public void close()
    {
        closing = true;
        if (CONNECTED == state)
        {
            // Say so first: the publisher then counts a departure, not a lost subscriber.
            sayLeaving(reply);
            qp.disconnect();
            startClosingImage("subscription closed");
        }
        else if (CONNECTING == state)
        {
            // The engine may have the connection up while its ESTABLISHED event still waits for the conductor's
            // next poll, and the publisher counts this subscriber from the connection's first FPDU: say so then too.
            final SubscribeHandshake.Reply established = establishedReply();
            if (null != established)
            {
                sayLeaving(established);
            }
            qp.disconnect();
            state = BACKOFF;
        }
        else if (BACKOFF == state)
        {
            state = CLOSED;
        }
    }

    private void sayLeaving(final SubscribeHandshake.Reply publisherReply)
    {
        qp.postWriteInline(0, RingDescriptor.SUBSCRIBER_CLOSED, 0, 0, 8, publisherReply.creditStag(),
            publisherReply.creditAddress() + RdmaSubscriberLink.CREDIT_STATUS_OFFSET, 0);
    }

    /**
     * The publisher's reply on a connection that the engine has established but whose ESTABLISHED event has not
     * reached this endpoint yet.
     *
     * @return the reply, or null when the connection is not up or the reply is malformed.
     */
    private SubscribeHandshake.Reply establishedReply()
    {
        final NegotiatedParameters negotiated = qp.negotiated();
        if (QueuePairState.RTS != qp.state() || null == negotiated)
        {
            return null;
        }
        try
        {
            return SubscribeHandshake.decodeReply(negotiated.peerPrivateData());
        }
        catch (final IllegalArgumentException ex)
        {
            return null;
        }
    }

    @Override
    public boolean isClosed()
    {
        // The ring stays registered until the connection is over: a publisher may write until it sees the close.
        if (CLOSED == state && (null == qp || qp.state().isFinal()))
        {
            if (ringRegion.isValid())
            {
                ringRegion.close();
            }
            return true;
        }
        return false;
    }

    @Override
    public String toString()
    {
        return "RdmaSubscriptionEndpoint{" + channel + ", state=" + state + '}';
    }
}
