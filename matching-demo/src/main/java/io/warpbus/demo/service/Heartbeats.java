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
package io.warpbus.demo.service;

import java.nio.ByteBuffer;

import io.warpbus.demo.AppCounters;
import io.warpbus.marketdata.sbe.HeartbeatEncoder;
import io.warpbus.marketdata.sbe.MessageHeaderEncoder;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The engine service's heartbeats. Every interval: a market-data {@code Heartbeat} on the incremental stream, an
 * {@code EngineHeartbeat} on each route's report stream and on the drop copy, each only while a subscriber is
 * connected, and the liveness heartbeat of the service's counters file. Every duty cycle: the greeting heartbeat of a
 * report stream that has just gained a subscriber ({@link ReportHeartbeats}).
 * <p>
 * Runs on the engine's thread; preallocated, so a heartbeat allocates nothing.
 */
final class Heartbeats
{
    private final OutboundStream marketData;
    private final ReportRoute[] routes;
    private final ReportHeartbeats dropCopy;
    private final AppCounters counters;
    private final EpochNanoClock epochClock;
    private final long intervalNs;
    private final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
    private final HeartbeatEncoder encoder = new HeartbeatEncoder();
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private long deadlineNs;

    /**
     * Heartbeats for the service's streams; none is due before {@link #schedule(long)}.
     *
     * @param marketData the incremental market-data stream.
     * @param routes     the report routes, each with its own exec ids.
     * @param dropCopy   the drop-copy stream, or null when there is none.
     * @param counters   whose file carries the service's liveness heartbeat.
     * @param epochClock stamps each heartbeat.
     * @param intervalNs between two heartbeats.
     */
    Heartbeats(
        final OutboundStream marketData,
        final ReportRoute[] routes,
        final OutboundStream dropCopy,
        final AppCounters counters,
        final EpochNanoClock epochClock,
        final long intervalNs)
    {
        this.marketData = marketData;
        this.routes = routes;
        this.dropCopy = null == dropCopy ? null : new ReportHeartbeats(dropCopy);
        this.counters = counters;
        this.epochClock = epochClock;
        this.intervalNs = intervalNs;
    }

    /**
     * Make the first heartbeats due one interval from now.
     *
     * @param nowNs the service's nano clock now.
     */
    void schedule(final long nowNs)
    {
        deadlineNs = nowNs + intervalNs;
    }

    /**
     * Greet the report streams' new subscribers; every duty cycle.
     *
     * @return the number of streams whose subscriber count changed.
     */
    int greetSubscribers()
    {
        int work = 0;
        for (final ReportRoute route : routes)
        {
            work += route.greetSubscribers(epochClock.nanoTime());
        }
        if (null != dropCopy)
        {
            work += dropCopy.greetSubscribers(epochClock.nanoTime(), 0);
        }
        return work;
    }

    /**
     * Send the heartbeats if they are due, and make the next ones due an interval later.
     *
     * @param nowNs the service's nano clock, read once for the duty cycle.
     * @return 1 if they were due, else 0.
     */
    int onDeadline(final long nowNs)
    {
        if (nowNs - deadlineNs < 0)
        {
            return 0;
        }
        deadlineNs = nowNs + intervalNs;
        final long epochNs = epochClock.nanoTime();
        if (marketData.isConnected())
        {
            encoder.wrapAndApplyHeader(buffer, 0, headerEncoder).timestamp(epochNs);
            marketData.publish(buffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength());
        }
        for (final ReportRoute route : routes)
        {
            route.heartbeat(epochNs);
        }
        if (null != dropCopy)
        {
            // The drop copy interleaves routes, each with its own exec ids: its heartbeats name none.
            dropCopy.heartbeat(epochNs, 0);
        }
        counters.heartbeat(System.currentTimeMillis());
        return 1;
    }
}
