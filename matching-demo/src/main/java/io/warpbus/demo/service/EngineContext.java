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

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

import io.warpbus.bus.Bus;
import io.warpbus.demo.AppCounters;
import io.warpbus.matching.Instrument;
import io.warpbus.matching.RiskLimits;
import org.agrona.BitUtil;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.OffsetEpochNanoClock;
import org.agrona.concurrent.SystemNanoClock;

/**
 * Configuration of an {@link EngineService}: fluent setters, accessors of the same name, and {@link #conclude()},
 * which the service calls once to check the whole before it builds anything.
 * <p>
 * <b>Routes.</b> Execution reports go back on the report stream of the order's <em>origin</em>: the top 16 bits of
 * its client order id. Origin 0 is the default route: the {@link #orderEntryChannel(String) order-entry channels}
 * added without a route (direct clients such as the load client) and the {@link #executionReportChannel(String)
 * execution-report stream}. Each {@link #route(int, String, String) route} (a gateway) adds an order-entry channel
 * whose commands must carry its origin, and a report stream of its own, so that a report reaches only the gateway
 * that owns the order. Exec ids count per report stream, so each stream is gap-free and can be resent by range. A
 * {@link #dropCopyChannel(String) drop-copy stream}, when set, gets every report of every route as well.
 */
public final class EngineContext
{
    private Bus bus;
    private AppCounters counters;
    private final List<String> orderEntryChannels = new ArrayList<>();
    private final List<Route> routes = new ArrayList<>();
    private String dropCopyChannel;
    private String executionReportChannel;
    private String marketDataChannel;
    private String snapshotChannel;
    private Instrument[] instruments = new Instrument[0];
    private final Map<Integer, RiskLimits> accounts = new LinkedHashMap<>();
    private int bookCapacity = 64 * 1024;
    private int accountOrderCapacity = 16 * 1024;
    private int reportHistory = 64 * 1024;
    private long snapshotIntervalNs = TimeUnit.SECONDS.toNanos(1);
    private long heartbeatIntervalNs = TimeUnit.SECONDS.toNanos(1);
    private Path journalDirectory;
    private long checkpointIntervalNs = TimeUnit.SECONDS.toNanos(10);
    private IdleStrategy retryIdle = new BackoffIdleStrategy(
        10, 20, TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.MICROSECONDS.toNanos(100));
    private EpochNanoClock epochClock = new OffsetEpochNanoClock();
    private NanoClock nanoClock = SystemNanoClock.INSTANCE;
    private boolean concluded;

    /**
     * The bus to publish and subscribe on; the service drives it in {@code INVOKER} mode.
     *
     * @param bus the bus.
     * @return this.
     */
    public EngineContext bus(final Bus bus)
    {
        this.bus = bus;
        return this;
    }

    /**
     * What {@link #bus(Bus)} set.
     *
     * @return the value.
     */
    public Bus bus()
    {
        return bus;
    }

    /**
     * Where the service's counters and error log live.
     *
     * @param counters the counters file.
     * @return this.
     */
    public EngineContext counters(final AppCounters counters)
    {
        this.counters = counters;
        return this;
    }

    /**
     * What {@link #counters(AppCounters)} set.
     *
     * @return the value.
     */
    public AppCounters counters()
    {
        return counters;
    }

    /**
     * Add an order-entry channel (one per client or gateway publication).
     *
     * @param channel channel URI.
     * @return this.
     */
    public EngineContext orderEntryChannel(final String channel)
    {
        orderEntryChannels.add(channel);
        return this;
    }

    /**
     * The order-entry channels of the default route (origin 0), in the order added.
     *
     * @return the channels, unmodifiable.
     */
    public List<String> orderEntryChannels()
    {
        return Collections.unmodifiableList(orderEntryChannels);
    }

    /**
     * Add a route: a gateway's order-entry channel, whose commands must carry client order ids of {@code origin}
     * in their top 16 bits, and the stream its execution reports go out on.
     *
     * @param origin            1 to 65535, unique among routes.
     * @param orderEntryChannel the gateway's order-entry channel URI.
     * @param reportChannel     the channel URI of its execution reports.
     * @return this.
     */
    public EngineContext route(final int origin, final String orderEntryChannel, final String reportChannel)
    {
        routes.add(new Route(origin, orderEntryChannel, reportChannel));
        return this;
    }

    /**
     * The routes added with {@link #route(int, String, String)}, in order.
     *
     * @return the routes, unmodifiable.
     */
    public List<Route> routes()
    {
        return Collections.unmodifiableList(routes);
    }

    /**
     * A stream that gets a copy of every execution report of every route (for drop-copy consumers), or null for
     * none (the default).
     *
     * @param channel channel URI, or null.
     * @return this.
     */
    public EngineContext dropCopyChannel(final String channel)
    {
        this.dropCopyChannel = channel;
        return this;
    }

    /**
     * What {@link #dropCopyChannel(String)} set.
     *
     * @return the channel, or null.
     */
    public String dropCopyChannel()
    {
        return dropCopyChannel;
    }

    /**
     * Channel the execution reports are published on.
     *
     * @param channel channel URI.
     * @return this.
     */
    public EngineContext executionReportChannel(final String channel)
    {
        this.executionReportChannel = channel;
        return this;
    }

    /**
     * What {@link #executionReportChannel(String)} set.
     *
     * @return the value.
     */
    public String executionReportChannel()
    {
        return executionReportChannel;
    }

    /**
     * Channel incremental market data is published on.
     *
     * @param channel channel URI.
     * @return this.
     */
    public EngineContext marketDataChannel(final String channel)
    {
        this.marketDataChannel = channel;
        return this;
    }

    /**
     * What {@link #marketDataChannel(String)} set.
     *
     * @return the value.
     */
    public String marketDataChannel()
    {
        return marketDataChannel;
    }

    /**
     * Channel market-data snapshots are published on.
     *
     * @param channel channel URI.
     * @return this.
     */
    public EngineContext snapshotChannel(final String channel)
    {
        this.snapshotChannel = channel;
        return this;
    }

    /**
     * What {@link #snapshotChannel(String)} set.
     *
     * @return the value.
     */
    public String snapshotChannel()
    {
        return snapshotChannel;
    }

    /**
     * Instruments to trade.
     *
     * @param instruments definitions.
     * @return this.
     */
    public EngineContext instruments(final Instrument... instruments)
    {
        this.instruments = instruments.clone();
        return this;
    }

    /**
     * The instruments, in the order given.
     *
     * @return a copy.
     */
    public Instrument[] instruments()
    {
        return instruments.clone();
    }

    /**
     * Add an account.
     *
     * @param accountId id.
     * @param limits    its risk limits.
     * @return this.
     */
    public EngineContext account(final int accountId, final RiskLimits limits)
    {
        accounts.put(accountId, limits);
        return this;
    }

    /**
     * The accounts and their limits, in the order added.
     *
     * @return account id to limits, unmodifiable.
     */
    public Map<Integer, RiskLimits> accounts()
    {
        return Collections.unmodifiableMap(accounts);
    }

    /**
     * Resting orders per instrument, preallocated.
     *
     * @param bookCapacity orders.
     * @return this.
     */
    public EngineContext bookCapacity(final int bookCapacity)
    {
        this.bookCapacity = bookCapacity;
        return this;
    }

    /**
     * What {@link #bookCapacity(int)} set.
     *
     * @return the value.
     */
    public int bookCapacity()
    {
        return bookCapacity;
    }

    /**
     * Initial live-order capacity of each account.
     *
     * @param accountOrderCapacity orders.
     * @return this.
     */
    public EngineContext accountOrderCapacity(final int accountOrderCapacity)
    {
        this.accountOrderCapacity = accountOrderCapacity;
        return this;
    }

    /**
     * What {@link #accountOrderCapacity(int)} set.
     *
     * @return the value.
     */
    public int accountOrderCapacity()
    {
        return accountOrderCapacity;
    }

    /**
     * Execution reports held for clients' resend requests: the most recent ones, a power of two from 1 to
     * 2<sup>24</sup> (128 bytes each).
     *
     * @param reportHistory reports.
     * @return this.
     * @throws IllegalArgumentException naming the value when it is not such a power of two.
     */
    public EngineContext reportHistory(final int reportHistory)
    {
        if (reportHistory < 1 || reportHistory > 1 << 24 || !BitUtil.isPowerOfTwo(reportHistory))
        {
            throw new IllegalArgumentException("report history " + reportHistory +
                ": must be a power of two from 1 to 16777216");
        }
        this.reportHistory = reportHistory;
        return this;
    }

    /**
     * What {@link #reportHistory(int)} set.
     *
     * @return the value.
     */
    public int reportHistory()
    {
        return reportHistory;
    }

    /**
     * Interval of market-data snapshot cycles.
     *
     * @param snapshotIntervalNs nanoseconds.
     * @return this.
     */
    public EngineContext snapshotIntervalNs(final long snapshotIntervalNs)
    {
        this.snapshotIntervalNs = snapshotIntervalNs;
        return this;
    }

    /**
     * What {@link #snapshotIntervalNs(long)} set.
     *
     * @return the value.
     */
    public long snapshotIntervalNs()
    {
        return snapshotIntervalNs;
    }

    /**
     * Interval of heartbeats on the output streams.
     *
     * @param heartbeatIntervalNs nanoseconds.
     * @return this.
     */
    public EngineContext heartbeatIntervalNs(final long heartbeatIntervalNs)
    {
        this.heartbeatIntervalNs = heartbeatIntervalNs;
        return this;
    }

    /**
     * What {@link #heartbeatIntervalNs(long)} set.
     *
     * @return the value.
     */
    public long heartbeatIntervalNs()
    {
        return heartbeatIntervalNs;
    }

    /**
     * Journal every inbound order-entry message in this directory before processing it, write checkpoints under
     * it, and recover from them on start; null (the default) for none.
     *
     * @param journalDirectory the directory, created if missing.
     * @return this.
     */
    public EngineContext journalDirectory(final Path journalDirectory)
    {
        this.journalDirectory = journalDirectory;
        return this;
    }

    /**
     * What {@link #journalDirectory(Path)} set.
     *
     * @return the value.
     */
    public Path journalDirectory()
    {
        return journalDirectory;
    }

    /**
     * Interval of checkpoints, when journaling; one is also written on close.
     *
     * @param checkpointIntervalNs nanoseconds.
     * @return this.
     */
    public EngineContext checkpointIntervalNs(final long checkpointIntervalNs)
    {
        this.checkpointIntervalNs = checkpointIntervalNs;
        return this;
    }

    /**
     * What {@link #checkpointIntervalNs(long)} set.
     *
     * @return the value.
     */
    public long checkpointIntervalNs()
    {
        return checkpointIntervalNs;
    }

    /**
     * Idle strategy between retries of a back-pressured offer.
     *
     * @param retryIdle strategy.
     * @return this.
     */
    public EngineContext retryIdle(final IdleStrategy retryIdle)
    {
        this.retryIdle = retryIdle;
        return this;
    }

    /**
     * What {@link #retryIdle(IdleStrategy)} set.
     *
     * @return the value.
     */
    public IdleStrategy retryIdle()
    {
        return retryIdle;
    }

    /**
     * Clock for transact times.
     *
     * @param epochClock epoch nanoseconds.
     * @return this.
     */
    public EngineContext epochClock(final EpochNanoClock epochClock)
    {
        this.epochClock = epochClock;
        return this;
    }

    /**
     * What {@link #epochClock(EpochNanoClock)} set.
     *
     * @return the value.
     */
    public EpochNanoClock epochClock()
    {
        return epochClock;
    }

    /**
     * Clock for intervals and service times.
     *
     * @param nanoClock monotonic nanoseconds.
     * @return this.
     */
    public EngineContext nanoClock(final NanoClock nanoClock)
    {
        this.nanoClock = nanoClock;
        return this;
    }

    /**
     * What {@link #nanoClock(NanoClock)} set.
     *
     * @return the value.
     */
    public NanoClock nanoClock()
    {
        return nanoClock;
    }

    /**
     * Check the configuration as a whole; the service calls it once, before it builds anything.
     *
     * @return this.
     * @throws IllegalStateException naming what is missing or wrong; nothing has been started.
     */
    public EngineContext conclude()
    {
        if (concluded)
        {
            throw new IllegalStateException("engine context already concluded: a context configures one service");
        }
        require(bus, "bus");
        require(counters, "counters");
        require(executionReportChannel, "executionReportChannel");
        require(marketDataChannel, "marketDataChannel");
        require(snapshotChannel, "snapshotChannel");
        if (orderEntryChannels.isEmpty() && routes.isEmpty())
        {
            throw new IllegalStateException("engine context: no order-entry channel and no route: nothing to match");
        }
        if (0 == instruments.length)
        {
            throw new IllegalStateException("engine context: no instruments");
        }
        final boolean[] origins = new boolean[Route.MAX_ORIGIN + 1];
        for (final Route route : routes)
        {
            if (origins[route.origin])
            {
                throw new IllegalStateException("engine context: two routes with origin " + route.origin);
            }
            origins[route.origin] = true;
        }
        positive(snapshotIntervalNs, "snapshotIntervalNs");
        positive(heartbeatIntervalNs, "heartbeatIntervalNs");
        positive(checkpointIntervalNs, "checkpointIntervalNs");
        positive(bookCapacity, "bookCapacity");
        positive(accountOrderCapacity, "accountOrderCapacity");
        concluded = true;
        return this;
    }

    private static void require(final Object value, final String name)
    {
        if (null == value)
        {
            throw new IllegalStateException("engine context: " + name + " is not set");
        }
    }

    private static void positive(final long value, final String name)
    {
        if (value <= 0)
        {
            throw new IllegalStateException("engine context: " + name + " must be above 0, was " + value);
        }
    }

    /**
     * A gateway's route: its origin, its order-entry channel and its report channel.
     *
     * @param origin            1 to {@value #MAX_ORIGIN}: the top 16 bits of its client order ids.
     * @param orderEntryChannel where its commands come from.
     * @param reportChannel     where its reports go.
     */
    public record Route(int origin, String orderEntryChannel, String reportChannel)
    {
        /**
         * The largest origin: client order ids keep their top 16 bits for it.
         */
        public static final int MAX_ORIGIN = 0xFFFF;

        /**
         * Check the parts.
         *
         * @param origin            1 to {@value #MAX_ORIGIN}.
         * @param orderEntryChannel not null.
         * @param reportChannel     not null.
         */
        public Route
        {
            if (origin < 1 || origin > MAX_ORIGIN)
            {
                throw new IllegalArgumentException("route origin " + origin + ": must be 1 to " + MAX_ORIGIN +
                    " (0 is the default route)");
            }
            Objects.requireNonNull(orderEntryChannel, "orderEntryChannel");
            Objects.requireNonNull(reportChannel, "reportChannel");
        }
    }
}
