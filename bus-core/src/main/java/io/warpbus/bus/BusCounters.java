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

import java.util.concurrent.atomic.AtomicLong;

import io.warpbus.bus.status.CounterTypeIds;
import io.warpbus.bus.status.StreamCounters;
import io.warpbus.bus.status.SystemCounterDescriptor;
import io.warpbus.bus.status.SystemCounters;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

/**
 * The bus's counters, allocated from its counters file: the system counters and, per stream, labelled counters
 * that name the stream, session and, for subscribers, the subscriber, so {@code warpbus stat} shows who lags.
 */
final class BusCounters
{
    private final CountersManager manager;
    private final SystemCounters system;
    private final AtomicLong registrationIds = new AtomicLong();

    BusCounters(final CountersManager manager)
    {
        this.manager = manager;
        this.system = new SystemCounters(manager);
    }

    CountersManager manager()
    {
        return manager;
    }

    AtomicCounter system(final SystemCounterDescriptor descriptor)
    {
        return system.get(descriptor);
    }

    SystemCounters systemCounters()
    {
        return system;
    }

    long nextRegistrationId()
    {
        return registrationIds.incrementAndGet();
    }

    AtomicCounter publisherPosition(final long registrationId, final ChannelUri channel, final int sessionId)
    {
        return StreamCounters.publisherPosition(manager, registrationId, channel.streamId(), sessionId,
            endpoint(channel));
    }

    AtomicCounter publisherLimit(final long registrationId, final ChannelUri channel, final int sessionId)
    {
        return StreamCounters.publisherLimit(manager, registrationId, channel.streamId(), sessionId,
            endpoint(channel));
    }

    AtomicCounter messagesOut(final long registrationId, final ChannelUri channel)
    {
        return StreamCounters.messagesOut(manager, registrationId, channel.streamId(), endpoint(channel));
    }

    AtomicCounter bytesOut(final long registrationId, final ChannelUri channel)
    {
        return StreamCounters.bytesOut(manager, registrationId, channel.streamId(), endpoint(channel));
    }

    AtomicCounter backPressure(final long registrationId, final ChannelUri channel, final int sessionId)
    {
        final AtomicCounter counter = manager.newCounter("back-pressure: stream=" + channel.streamId() +
            " session=" + sessionId + " endpoint=" + endpoint(channel), CounterTypeIds.BACK_PRESSURE);
        manager.setCounterRegistrationId(counter.id(), registrationId);
        return counter;
    }

    AtomicCounter subscriberPosition(
        final long registrationId, final ChannelUri channel, final int sessionId, final long subscriberId,
        final String subscriber)
    {
        return StreamCounters.subscriberPosition(manager, registrationId, channel.streamId(), sessionId,
            subscriberId, subscriber);
    }

    AtomicCounter subscriberLag(
        final long registrationId, final ChannelUri channel, final int sessionId, final long subscriberId,
        final String subscriber)
    {
        return StreamCounters.subscriberLag(manager, registrationId, channel.streamId(), sessionId, subscriberId,
            subscriber);
    }

    AtomicCounter imagePosition(
        final long registrationId, final ChannelUri channel, final int sessionId, final String source)
    {
        return StreamCounters.imagePosition(manager, registrationId, channel.streamId(), sessionId, source);
    }

    AtomicCounter messagesIn(final long registrationId, final ChannelUri channel)
    {
        return StreamCounters.messagesIn(manager, registrationId, channel.streamId(), endpoint(channel));
    }

    AtomicCounter gaps(final long registrationId, final ChannelUri channel)
    {
        final AtomicCounter counter = manager.newCounter("gaps: stream=" + channel.streamId() + " " +
            endpoint(channel), CounterTypeIds.GAPS);
        manager.setCounterRegistrationId(counter.id(), registrationId);
        return counter;
    }

    void free(final AtomicCounter counter)
    {
        if (null != counter && !counter.isClosed())
        {
            counter.close();
        }
    }

    private static String endpoint(final ChannelUri channel)
    {
        return channel.isIpc() ? "ipc" : channel.endpoint().getHostString() + ":" + channel.endpoint().getPort();
    }
}
