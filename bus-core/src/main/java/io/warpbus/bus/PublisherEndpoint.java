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

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

import io.warpbus.bus.protocol.SubscribeHandshake;
import io.warpbus.iwarp.Access;
import io.warpbus.iwarp.CompletionQueue;
import io.warpbus.iwarp.ConnectRequest;
import io.warpbus.iwarp.ConnectionEvent;
import io.warpbus.iwarp.ConnectionParameters;
import io.warpbus.iwarp.Listener;
import io.warpbus.iwarp.MemoryRegion;
import io.warpbus.iwarp.QueuePair;
import io.warpbus.iwarp.QueuePairAttributes;
import io.warpbus.iwarp.Rnic;
import org.agrona.collections.Int2ObjectHashMap;

/**
 * An iWARP endpoint where publications accept subscribers: one listener per host:port, shared by every
 * publication on it, routing each subscribe request to its stream's publication. A request that is malformed,
 * names an unknown stream, offers an unusable ring or duplicates a connected subscriber is rejected with the reason
 * in the MPA Reply's private data; the subscriber reads it and other subscribers are not affected. An endpoint
 * with a {@link ReplayProvider} also serves replay requests: each gets a publication of its own.
 */
final class PublisherEndpoint
{
    final InetSocketAddress address;
    private final BusConductor conductor;
    private final Rnic rnic;
    private final Listener listener;
    private final Int2ObjectHashMap<PublicationFanOut> fanOuts = new Int2ObjectHashMap<>();
    private ReplayProvider replayProvider;

    PublisherEndpoint(final BusConductor conductor, final Rnic rnic, final InetSocketAddress address)
    {
        this.conductor = conductor;
        this.rnic = rnic;
        this.address = address;
        this.listener = rnic.connectionManager().listen(address, 128, this);
    }

    void add(final PublicationFanOut fanOut)
    {
        if (fanOuts.containsKey(fanOut.streamId))
        {
            throw new BusException("endpoint " + address + " already has a publication on stream " + fanOut.streamId);
        }
        fanOuts.put(fanOut.streamId, fanOut);
    }

    void remove(final PublicationFanOut fanOut)
    {
        if (fanOuts.get(fanOut.streamId) == fanOut)
        {
            fanOuts.remove(fanOut.streamId);
        }
    }

    boolean isEmpty()
    {
        return fanOuts.isEmpty() && null == replayProvider;
    }

    boolean servesReplays()
    {
        return null != replayProvider;
    }

    void replayProvider(final ReplayProvider provider)
    {
        if (null != provider && null != replayProvider)
        {
            throw new BusException("endpoint " + address + " already serves replays");
        }
        replayProvider = provider;
    }

    void close()
    {
        listener.close();
    }

    void onConnectRequest(final ConnectionEvent event, final long nowNs)
    {
        final ConnectRequest request = event.request();
        final String remote = String.valueOf(event.remoteAddress());
        final SubscribeHandshake.Request subscribe;
        try
        {
            subscribe = SubscribeHandshake.decodeRequest(request.privateData());
        }
        catch (final IllegalArgumentException ex)
        {
            reject(request, "malformed subscribe request from " + remote + ": " + ex.getMessage());
            return;
        }
        if (subscribe.isReplay())
        {
            onReplayRequest(event, subscribe, remote, nowNs);
            return;
        }
        final PublicationFanOut fanOut = fanOuts.get(subscribe.streamId());
        if (null == fanOut)
        {
            reject(request, "unknown stream " + subscribe.streamId() + " at " + address);
            return;
        }
        final String refusal = fanOut.validate(subscribe, remote);
        if (null != refusal)
        {
            reject(request, refusal);
            return;
        }
        accept(event, subscribe, fanOut, remote, nowNs);
    }

    private void onReplayRequest(
        final ConnectionEvent event, final SubscribeHandshake.Request subscribe, final String remote, final long nowNs)
    {
        final ConnectRequest request = event.request();
        final int streamId = subscribe.streamId();
        if (null == replayProvider)
        {
            reject(request, "no replay service at " + address + " (asked for stream " + streamId + ")");
            return;
        }
        final long from;
        try
        {
            from = replayProvider.onReplayRequest(streamId, subscribe.resumeSequence(), subscribe.replayTo(),
                subscribe.replayFromNs(), subscribe.name() + "@" + remote);
        }
        catch (final RuntimeException ex)
        {
            reject(request, "replay of stream " + streamId + " refused: " + ex.getMessage());
            return;
        }
        final ExclusivePublication publication;
        try
        {
            publication = conductor.bus().addReplayPublication(address, streamId, from, subscribe.ringCapacity());
        }
        catch (final RuntimeException ex)
        {
            reject(request, "replay of stream " + streamId + " could not start: " + ex.getMessage());
            return;
        }
        final PublicationFanOut fanOut = publication.fanOut;
        // The replay's subscriber joins at the publication's first frame, which carries sequence 'from'.
        final SubscribeHandshake.Request join = new SubscribeHandshake.Request(streamId, subscribe.ringStag(),
            subscribe.ringAddress(), subscribe.ringCapacity(), SlowConsumerPolicy.BLOCK.ordinal(), -1, 0, 0, 0,
            subscribe.name(), 0, -1, -1, "");
        final String refusal = fanOut.validate(join, remote);
        if (null != refusal)
        {
            publication.close();
            reject(request, refusal);
            return;
        }
        accept(event, join, fanOut, remote, nowNs);
        replayProvider.onReplayStarted(publication, from, subscribe.replayTo());
    }

    private void accept(
        final ConnectionEvent event,
        final SubscribeHandshake.Request subscribe,
        final PublicationFanOut fanOut,
        final String remote,
        final long nowNs)
    {
        final ConnectRequest request = event.request();
        final JoinPolicy.JoinPoint join = fanOut.joinPoint(subscribe);
        final CompletionQueue cq = rnic.createCompletionQueue(1024);
        final QueuePair qp = fanOut.protectionDomain().createQueuePair(
            new QueuePairAttributes().completionQueue(cq).sendQueueDepth(1024).receiveQueueDepth(1));
        final MemoryRegion credit = fanOut.protectionDomain().registerMemory(RdmaSubscriberLink.newCreditSlot(),
            Access.LOCAL_WRITE | Access.REMOTE_WRITE);
        final String name = subscribe.name() + "@" + remote;
        final long subscriberId = fanOut.nextSubscriberId();
        final RdmaSubscriberLink link = new RdmaSubscriberLink(name, subscribe,
            conductor.counters().subscriberPosition(fanOut.publication.registrationId, fanOut.channel,
            fanOut.sessionId, subscriberId, name),
            conductor.counters().subscriberLag(fanOut.publication.registrationId, fanOut.channel, fanOut.sessionId,
            subscriberId, name),
            qp, cq, fanOut.logRegion(), credit, remote);
        link.join(join.position(), nowNs);
        fanOut.addLink(link, subscribe);
        conductor.track(qp, fanOut, link);
        final SubscribeHandshake.Reply reply = new SubscribeHandshake.Reply(fanOut.sessionId,
            fanOut.log.termLength, join.position(), join.sequence(), credit.stag(), credit.address(), join.gapFrom(),
            join.gapTo(), fanOut.replayEndpoint);
        request.accept(qp, new ConnectionParameters().privateData(SubscribeHandshake.encode(reply)));
    }

    private void reject(final ConnectRequest request, final String reason)
    {
        conductor.onError(new BusException("endpoint " + address + " rejected a subscriber: " + reason));
        request.reject(reason.getBytes(StandardCharsets.US_ASCII));
    }
}
