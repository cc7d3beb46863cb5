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

import java.util.ArrayList;
import java.util.List;

import io.warpbus.demo.AppCounters;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * The engine service's counters, in its {@link AppCounters} file: written by the engine thread, read by metrics,
 * the stats line and {@code warpbus stat}.
 */
public final class EngineCounters
{
    final AtomicCounter newOrders;
    final AtomicCounter cancels;
    final AtomicCounter replaces;
    final AtomicCounter clientHeartbeats;
    final AtomicCounter resendRequests;
    final AtomicCounter resentReports;
    final AtomicCounter messageRejects;
    final AtomicCounter executionReports;
    final AtomicCounter rejects;
    final AtomicCounter trades;
    final AtomicCounter snapshotCycles;
    final AtomicCounter[] marketDataStream;
    final AtomicCounter[] snapshotStream;
    private final AppCounters counters;
    private final List<AtomicCounter[]> reportStreams = new ArrayList<>();
    private final List<AtomicCounter[]> allStreams = new ArrayList<>();

    EngineCounters(final AppCounters counters)
    {
        this.counters = counters;
        newOrders = counters.newCounter("engine: new orders received");
        cancels = counters.newCounter("engine: cancels received");
        replaces = counters.newCounter("engine: replaces received");
        clientHeartbeats = counters.newCounter("engine: client heartbeats received");
        resendRequests = counters.newCounter("engine: resend requests received");
        resentReports = counters.newCounter("engine: execution reports resent");
        messageRejects = counters.newCounter("engine: undecodable messages rejected");
        executionReports = counters.newCounter("engine: execution reports");
        rejects = counters.newCounter("engine: rejected commands");
        trades = counters.newCounter("engine: trades");
        snapshotCycles = counters.newCounter("engine: market-data snapshot cycles");
        marketDataStream = streamCounters("market data");
        snapshotStream = streamCounters("snapshots");
    }

    /**
     * Allocate the counters of a route's report stream: the default route's are labelled "execution reports",
     * a gateway route's "execution reports origin N".
     *
     * @param origin of the route.
     * @return messages, back-pressure events, back-pressured messages, not sent (no subscriber), not sent (failed).
     */
    AtomicCounter[] reportStream(final int origin)
    {
        final AtomicCounter[] stream = streamCounters(0 == origin ? "execution reports" :
            "execution reports origin " + origin);
        reportStreams.add(stream);
        return stream;
    }

    /**
     * Allocate the counters of the drop-copy stream.
     *
     * @return as {@link #reportStream(int)}.
     */
    AtomicCounter[] dropCopyStream()
    {
        return streamCounters("drop copy");
    }

    /**
     * Commands received: new orders, cancels and replaces.
     *
     * @return the count.
     */
    public long commands()
    {
        return newOrders.get() + cancels.get() + replaces.get();
    }

    /**
     * New orders received.
     *
     * @return the count.
     */
    public long newOrders()
    {
        return newOrders.get();
    }

    /**
     * Execution reports published again on clients' resend requests.
     *
     * @return the count.
     */
    public long resentReports()
    {
        return resentReports.get();
    }

    /**
     * Undecodable messages rejected.
     *
     * @return the count.
     */
    public long messageRejects()
    {
        return messageRejects.get();
    }

    /**
     * Execution reports produced.
     *
     * @return the count.
     */
    public long executionReports()
    {
        return executionReports.get();
    }

    /**
     * Commands refused by validation or risk.
     *
     * @return the count.
     */
    public long rejects()
    {
        return rejects.get();
    }

    /**
     * Trades.
     *
     * @return the count.
     */
    public long trades()
    {
        return trades.get();
    }

    /**
     * Snapshot cycles published.
     *
     * @return the count.
     */
    public long snapshotCycles()
    {
        return snapshotCycles.get();
    }

    /**
     * Offers refused with back pressure, all output streams.
     *
     * @return the count.
     */
    public long backPressureEvents()
    {
        return sum(allStreams, 1);
    }

    /**
     * Messages that met back pressure before going out, all output streams.
     *
     * @return the count.
     */
    public long backPressuredMessages()
    {
        return sum(allStreams, 2);
    }

    /**
     * Messages not sent for want of a subscriber, all output streams.
     *
     * @return the count.
     */
    public long notConnected()
    {
        return sum(allStreams, 3);
    }

    /**
     * Messages not sent because a publication was closed or shutting down, all output streams.
     *
     * @return the count.
     */
    public long failed()
    {
        return sum(allStreams, 4);
    }

    /**
     * Execution reports and message rejects not sent on any route (no subscriber, or closed): answers a client never
     * got live. A gateway's route holds them for its resend request when it comes back.
     *
     * @return the count.
     */
    public long unsentReports()
    {
        return sum(reportStreams, 3) + sum(reportStreams, 4);
    }

    /**
     * Messages published on the market-data stream.
     *
     * @return the count.
     */
    public long marketDataMessages()
    {
        return marketDataStream[0].get();
    }

    private AtomicCounter[] streamCounters(final String stream)
    {
        final AtomicCounter[] group = new AtomicCounter[]
        {
            counters.newCounter("engine " + stream + ": messages published"),
            counters.newCounter("engine " + stream + ": back-pressure events"),
            counters.newCounter("engine " + stream + ": back-pressured messages"),
            counters.newCounter("engine " + stream + ": not sent, no subscriber"),
            counters.newCounter("engine " + stream + ": not sent, failed"),
        };
        allStreams.add(group);
        return group;
    }

    private static long sum(final List<AtomicCounter[]> groups, final int index)
    {
        long sum = 0;
        for (int i = 0; i < groups.size(); i++)
        {
            sum += groups.get(i)[index].get();
        }
        return sum;
    }
}
