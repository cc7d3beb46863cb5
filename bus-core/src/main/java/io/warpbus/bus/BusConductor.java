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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;

import io.warpbus.bus.status.CountersFile;
import io.warpbus.bus.status.DutyCycleTracker;
import io.warpbus.bus.status.SystemCounterDescriptor;
import io.warpbus.iwarp.ConnectionEvent;
import io.warpbus.iwarp.ConnectionEventHandler;
import io.warpbus.iwarp.ConnectionEventType;
import io.warpbus.iwarp.QueuePair;
import io.warpbus.iwarp.Rnic;
import org.agrona.ErrorHandler;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * The bus's control and fan-out agent, composed with the iWARP engine's agent on the bus's thread. Each duty
 * cycle it runs queued commands from application threads, dispatches the engine's connection events, runs every
 * publication's fan-out and every subscription's endpoint. It owns all of their state; application threads reach
 * it only through the command queue.
 */
final class BusConductor implements Agent, ConnectionEventHandler
{
    private static final int COMMAND_LIMIT = 16;
    private static final long DUTY_CYCLE_STALL_NS = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(1);
    private static final long EPOCH_READ_INTERVAL_NS = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(1);
    private static final long COUNTERS_HEARTBEAT_NS = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(100);

    private final Bus bus;
    private final BusContext context;
    private final Rnic rnic;
    private final BusCounters counters;
    private final ErrorHandler errorHandler;
    private final NanoClock nanoClock;
    private final EpochClock epochClock;
    private final ManyToOneConcurrentLinkedQueue<Runnable> commands = new ManyToOneConcurrentLinkedQueue<>();
    private final ArrayList<PublicationFanOut> fanOuts = new ArrayList<>();
    private final ArrayList<SubscriptionEndpoint> endpoints = new ArrayList<>();
    private final Map<InetSocketAddress, PublisherEndpoint> publisherEndpoints = new HashMap<>();
    private final Int2ObjectHashMap<Object> queuePairOwners = new Int2ObjectHashMap<>();
    private final ReplayLogs replayLogs = new ReplayLogs();
    private final ArrayList<FrameObserver> observers = new ArrayList<>();
    private final AtomicCounter connections;
    private final AtomicCounter disconnects;
    private final AtomicCounter slowConsumerDrops;
    private final AtomicCounter connectRetries;
    private final CountersFile countersFile;
    private final DutyCycleTracker dutyCycle;
    private volatile Thread thread;
    private long nowNs;
    /** Whether {@link #cycleTimestampNs()} has read the clock since this duty cycle began, and what it read. */
    private boolean cycleStamped;
    private long cycleTimestampNs;
    private long nowMs;
    /** When the epoch clock was last read: its milliseconds are read once a millisecond, not every duty cycle. */
    private long epochReadNs;
    private long nextHeartbeatNs;

    BusConductor(
        final Bus bus, final BusContext context, final Rnic rnic, final BusCounters counters,
        final ErrorHandler errorHandler, final CountersFile countersFile)
    {
        this.bus = bus;
        this.context = context;
        this.rnic = rnic;
        this.counters = counters;
        this.errorHandler = errorHandler;
        this.nanoClock = context.nanoClock();
        this.epochClock = context.epochClock();
        this.countersFile = countersFile;
        this.connections = counters.system(SystemCounterDescriptor.CONNECTIONS_ACCEPTED);
        this.disconnects = counters.system(SystemCounterDescriptor.SUBSCRIBER_DISCONNECTS);
        this.slowConsumerDrops = counters.system(SystemCounterDescriptor.SLOW_CONSUMER_DROPS);
        this.connectRetries = counters.system(SystemCounterDescriptor.CONNECT_RETRIES);
        this.dutyCycle = DutyCycleTracker.of(counters.systemCounters(), DUTY_CYCLE_STALL_NS);
    }

    @Override
    public void onStart()
    {
        thread = Thread.currentThread();
        final long nowNs = nanoClock.nanoTime();
        dutyCycle.reset(nowNs);
        epochReadNs = nowNs;
        nowMs = epochClock.time();
    }

    @Override
    public int doWork()
    {
        if (null == thread)
        {
            onStart();
        }
        nowNs = nanoClock.nanoTime();
        cycleStamped = false;
        dutyCycle.measureAndUpdate(nowNs);
        if (nowNs - epochReadNs >= EPOCH_READ_INTERVAL_NS)
        {
            epochReadNs = nowNs;
            nowMs = epochClock.time();
        }
        final long nowMs = this.nowMs;
        if (nowNs - nextHeartbeatNs >= 0)
        {
            nextHeartbeatNs = nowNs + COUNTERS_HEARTBEAT_NS;
            countersFile.heartbeat(nowMs);
        }
        int work = runCommands();
        work += rnic.connectionManager().poll(this, 16);
        final ArrayList<PublicationFanOut> fanOuts = this.fanOuts;
        final boolean observing = !observers.isEmpty();
        for (int i = fanOuts.size() - 1; i >= 0; i--)
        {
            final PublicationFanOut fanOut = fanOuts.get(i);
            work += fanOut.observe(observing);
            work += fanOut.doWork(nowNs, nowMs);
            if (fanOut.isClosed())
            {
                fanOut.observe(observing);
                removeFanOut(i, fanOut);
            }
        }
        final ArrayList<SubscriptionEndpoint> endpoints = this.endpoints;
        for (int i = endpoints.size() - 1; i >= 0; i--)
        {
            final SubscriptionEndpoint endpoint = endpoints.get(i);
            work += endpoint.doWork(nowNs, nowMs);
            if (endpoint.isClosed())
            {
                endpoints.remove(i);
            }
        }
        return work;
    }

    @Override
    public void onClose()
    {
        runCommands();
        for (final SubscriptionEndpoint endpoint : endpoints)
        {
            endpoint.close();
        }
        for (final PublicationFanOut fanOut : fanOuts)
        {
            // What went out in the last duty cycle still reaches the observers (a journal).
            fanOut.observe(!observers.isEmpty());
            for (final SubscriberLink link : new ArrayList<>(fanOut.links))
            {
                link.close("bus closed", io.warpbus.bus.protocol.RingDescriptor.PUBLISHER_CLOSED);
            }
            fanOut.release();
        }
        for (final PublisherEndpoint endpoint : publisherEndpoints.values())
        {
            endpoint.close();
        }
    }

    @Override
    public String roleName()
    {
        return context.name() + "-conductor";
    }

    @Override
    public void onEvent(final ConnectionEvent event)
    {
        if (ConnectionEventType.CONNECT_REQUEST == event.type())
        {
            if (event.userContext() instanceof PublisherEndpoint)
            {
                ((PublisherEndpoint)event.userContext()).onConnectRequest(event, nowNs);
            }
            else
            {
                event.request().reject("no publication listens here".getBytes(
                    java.nio.charset.StandardCharsets.US_ASCII));
            }
            return;
        }
        final QueuePair qp = event.queuePair();
        final Object owner = null == qp ? null : queuePairOwners.get(qp.number());
        if (owner instanceof RdmaSubscriptionEndpoint)
        {
            ((RdmaSubscriptionEndpoint)owner).onEvent(event, nowNs);
        }
        else if (owner instanceof LinkOwner)
        {
            final LinkOwner link = (LinkOwner)owner;
            if (ConnectionEventType.ESTABLISHED == event.type())
            {
                link.link.state = SubscriberLink.ACTIVE;
                connections.increment();
            }
            else if (SubscriberLink.CLOSED != link.link.state)
            {
                if (!link.link.hasLeft())
                {
                    onError(new BusException("publication " + link.fanOut.channel + " lost subscriber '" +
                        link.link.name + "': " + event.reason()));
                }
                link.link.state = SubscriberLink.CLOSED;
                link.fanOut.retire(link.link);
                disconnects.increment();
            }
        }
        if (null != qp && (ConnectionEventType.DISCONNECTED == event.type() ||
            ConnectionEventType.CONNECT_ERROR == event.type() || ConnectionEventType.REJECTED == event.type()))
        {
            final Object removed = queuePairOwners.remove(qp.number());
            if (removed instanceof LinkOwner)
            {
                ((LinkOwner)removed).link.creditRegion.close();
            }
        }
    }

    void addFanOut(final PublicationFanOut fanOut)
    {
        fanOut.publication.fanOut = fanOut;
        if (fanOut.channel.isIpc())
        {
            fanOut.publication.eagerFanOut = fanOut;
        }
        if (!fanOut.channel.isIpc())
        {
            final PublisherEndpoint endpoint = publisherEndpoint(fanOut.channel.endpoint());
            if (!fanOut.replay)
            {
                endpoint.add(fanOut);
            }
        }
        fanOuts.add(fanOut);
    }

    private PublisherEndpoint publisherEndpoint(final InetSocketAddress address)
    {
        PublisherEndpoint endpoint = publisherEndpoints.get(address);
        if (null == endpoint)
        {
            endpoint = new PublisherEndpoint(this, rnic, address);
            publisherEndpoints.put(address, endpoint);
        }
        return endpoint;
    }

    void addReplayProvider(final InetSocketAddress address, final ReplayProvider provider)
    {
        publisherEndpoint(address).replayProvider(provider);
        replayLogs.prepare(ReplayLogs.windowFor(context.ringCapacity()));
    }

    ReplayLogs replayLogs()
    {
        return replayLogs;
    }

    void removeReplayProvider(final InetSocketAddress address)
    {
        final PublisherEndpoint endpoint = publisherEndpoints.get(address);
        if (null != endpoint)
        {
            endpoint.replayProvider(null);
            if (endpoint.isEmpty())
            {
                endpoint.close();
                publisherEndpoints.remove(address);
            }
        }
    }

    Bus bus()
    {
        return bus;
    }

    void closeFanOut(final Publication publication)
    {
        for (final PublicationFanOut fanOut : fanOuts)
        {
            if (fanOut.publication == publication)
            {
                fanOut.startClose(nowNs);
                // Free its stream at the endpoint now: a publication restarted on it must not wait for this one's
                // connections to finish.
                final PublisherEndpoint endpoint = fanOut.channel.isIpc() ? null :
                    publisherEndpoints.get(fanOut.channel.endpoint());
                if (null != endpoint)
                {
                    endpoint.remove(fanOut);
                }
            }
        }
    }

    private void removeFanOut(final int index, final PublicationFanOut fanOut)
    {
        fanOuts.remove(index);
        if (!fanOut.channel.isIpc())
        {
            final PublisherEndpoint endpoint = publisherEndpoints.get(fanOut.channel.endpoint());
            if (null != endpoint)
            {
                endpoint.remove(fanOut);
                if (endpoint.isEmpty() && !endpoint.servesReplays())
                {
                    endpoint.close();
                    publisherEndpoints.remove(fanOut.channel.endpoint());
                }
            }
        }
        if (null != fanOut.log.region)
        {
            fanOut.log.region.close();
            if (fanOut.replay)
            {
                // Closed means drained: no Write reads from the log any more, and the replay closed it itself.
                replayLogs.give(fanOut.log.byteBuffer);
            }
        }
    }

    void addEndpoint(final SubscriptionEndpoint endpoint)
    {
        endpoints.add(endpoint);
    }

    void closeEndpoint(final Subscription subscription, final SubscriptionEndpoint endpoint)
    {
        endpoint.close();
    }

    void addObserver(final FrameObserver observer)
    {
        observers.add(observer);
    }

    void removeObserver(final FrameObserver observer)
    {
        observers.remove(observer);
    }

    void onPublished(final PublicationFanOut fanOut, final UnsafeBuffer buffer, final int offset, final int length)
    {
        final ArrayList<FrameObserver> observers = this.observers;
        for (int i = 0, size = observers.size(); i < size; i++)
        {
            observers.get(i).onFrame(fanOut.publication, buffer, offset, length);
        }
    }

    void watch(final QueuePair qp, final RdmaSubscriptionEndpoint endpoint)
    {
        queuePairOwners.put(qp.number(), endpoint);
    }

    void track(final QueuePair qp, final PublicationFanOut fanOut, final RdmaSubscriberLink link)
    {
        queuePairOwners.put(qp.number(), new LinkOwner(fanOut, link));
    }

    void execute(final Runnable command)
    {
        commands.offer(command);
    }

    /**
     * The timestamp of a frame offered on this thread by a {@code timestamp=cycle} publication: the epoch clock,
     * read at the first such offer after each duty cycle.
     *
     * @return epoch nanoseconds.
     */
    long cycleTimestampNs()
    {
        if (!cycleStamped)
        {
            cycleStamped = true;
            cycleTimestampNs = context.epochNanoClock().nanoTime();
        }
        return cycleTimestampNs;
    }

    long nowNs()
    {
        return nowNs;
    }

    long nowMs()
    {
        return nowMs;
    }

    boolean isConductorThread()
    {
        return Thread.currentThread() == thread;
    }

    BusContext context()
    {
        return context;
    }

    BusCounters counters()
    {
        return counters;
    }

    void onError(final Throwable error)
    {
        errorHandler.onError(error);
    }

    void countConnection()
    {
        connections.increment();
    }

    void countDisconnect()
    {
        disconnects.increment();
    }

    void countSlowConsumerDrop()
    {
        slowConsumerDrops.increment();
    }

    void countRetry()
    {
        connectRetries.increment();
    }

    private int runCommands()
    {
        int count = 0;
        Runnable command;
        while (count < COMMAND_LIMIT && null != (command = commands.poll()))
        {
            count++;
            try
            {
                command.run();
            }
            catch (final RuntimeException ex)
            {
                onError(ex);
            }
        }
        return count;
    }

    /** Which publication and subscriber a passive queue pair belongs to. */
    private record LinkOwner(PublicationFanOut fanOut, RdmaSubscriberLink link)
    {
    }
}
