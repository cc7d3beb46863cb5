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

import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

/**
 * Allocates the bus's per-stream counters with labels that name the stream, session and, for subscribers, the
 * subscriber, so `warpbus stat` shows who is lagging.
 */
final class BusCounters
{
    static final int PUBLISHER_POSITION_TYPE_ID = 1;
    static final int PUBLISHER_LIMIT_TYPE_ID = 2;
    static final int SUBSCRIBER_POSITION_TYPE_ID = 3;
    static final int SUBSCRIBER_LAG_TYPE_ID = 4;
    static final int IMAGE_POSITION_TYPE_ID = 5;
    static final int MESSAGES_OUT_TYPE_ID = 6;
    static final int BACK_PRESSURE_TYPE_ID = 7;
    static final int GAPS_TYPE_ID = 8;

    private final CountersManager manager;

    BusCounters(final CountersManager manager)
    {
        this.manager = manager;
    }

    CountersManager manager()
    {
        return manager;
    }

    AtomicCounter publisherPosition(final ChannelUri channel, final int sessionId)
    {
        return manager.newCounter("pub-pos: " + describe(channel, sessionId), PUBLISHER_POSITION_TYPE_ID);
    }

    AtomicCounter publisherLimit(final ChannelUri channel, final int sessionId)
    {
        return manager.newCounter("pub-lmt: " + describe(channel, sessionId), PUBLISHER_LIMIT_TYPE_ID);
    }

    AtomicCounter messagesOut(final ChannelUri channel, final int sessionId)
    {
        return manager.newCounter("msgs-out: " + describe(channel, sessionId), MESSAGES_OUT_TYPE_ID);
    }

    AtomicCounter backPressure(final ChannelUri channel, final int sessionId)
    {
        return manager.newCounter("back-pressure: " + describe(channel, sessionId), BACK_PRESSURE_TYPE_ID);
    }

    AtomicCounter subscriberPosition(final ChannelUri channel, final int sessionId, final String subscriber)
    {
        return manager.newCounter("sub-pos: " + describe(channel, sessionId) + " subscriber=" + subscriber,
            SUBSCRIBER_POSITION_TYPE_ID);
    }

    AtomicCounter subscriberLag(final ChannelUri channel, final int sessionId, final String subscriber)
    {
        return manager.newCounter("sub-lag: " + describe(channel, sessionId) + " subscriber=" + subscriber,
            SUBSCRIBER_LAG_TYPE_ID);
    }

    AtomicCounter imagePosition(final ChannelUri channel, final int sessionId, final String source)
    {
        return manager.newCounter("img-pos: " + describe(channel, sessionId) + " source=" + source,
            IMAGE_POSITION_TYPE_ID);
    }

    AtomicCounter gaps(final ChannelUri channel)
    {
        return manager.newCounter("gaps: stream=" + channel.streamId() + " " + channel.uri(), GAPS_TYPE_ID);
    }

    void free(final AtomicCounter counter)
    {
        if (null != counter && !counter.isClosed())
        {
            counter.close();
        }
    }

    private static String describe(final ChannelUri channel, final int sessionId)
    {
        return "stream=" + channel.streamId() + " session=" + sessionId + " " +
            (channel.isIpc() ? "ipc" : "endpoint=" + channel.endpoint().getHostString() + ":" +
            channel.endpoint().getPort());
    }
}
