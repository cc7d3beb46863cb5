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
package io.warpbus.gateway.session;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import io.warpbus.bus.Bus;
import org.agrona.BitUtil;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.OffsetEpochNanoClock;
import org.agrona.concurrent.SystemNanoClock;

/**
 * Configuration of a {@link SessionCore}, framework free: the gateway's Spring properties are mapped onto it in one
 * place. Fluent setters with accessors of the same name; {@link #conclude()} checks the whole once, when the core is
 * built.
 */
public final class SessionCoreContext
{
    private Bus bus;
    private int origin = 1;
    private String orderEntryChannel;
    private String executionReportChannel;
    private String marketDataChannel;
    private String snapshotChannel;
    private String dropCopyChannel;
    private Path journalDirectory;
    private int journalRetentionDays = 2;
    private UserDirectory users;
    private InstrumentRegistry instruments;
    private ConnectionTable connections;
    private GatewayCounters counters;
    private OrderLatencyRecorder latency = (totalNanos, gatewayNanos) -> { };
    private int maxSessions = 4096;
    private int maxInstruments = 1024;
    private int maxOpenOrdersPerSession = 1000;
    private int maxOrders = 256 * 1024;
    private int inboundCapacity = 4 * 1024 * 1024;
    private long minHeartbeatMs = 1000;
    private long maxHeartbeatMs = 60_000;
    private long sessionOrdersPerSecond = 100;
    private long sessionOrderBurst = 200;
    private long slowConsumerTimeoutNs = TimeUnit.SECONDS.toNanos(10);
    private long sessionExpiryNs = TimeUnit.HOURS.toNanos(24);
    private int protocolErrorLimit = 20;
    private long protocolErrorWindowNs = TimeUnit.SECONDS.toNanos(10);
    private boolean cancelOnDisconnect;
    private EpochNanoClock epochClock = new OffsetEpochNanoClock();
    private NanoClock nanoClock = SystemNanoClock.INSTANCE;
    private boolean concluded;

    /**
     * The bus the core drives in {@code INVOKER} mode.
     *
     * @param bus the bus.
     * @return this.
     */
    public SessionCoreContext bus(final Bus bus)
    {
        this.bus = bus;
        return this;
    }

    /**
     * What {@link #bus(Bus)} set.
     *
     * @return the bus.
     */
    public Bus bus()
    {
        return bus;
    }

    /**
     * This gateway's origin: the top 16 bits of the client order ids it sends, which route the engine's reports
     * back to it. Unique among the gateways of one engine.
     *
     * @param origin 1 to 65535.
     * @return this.
     */
    public SessionCoreContext origin(final int origin)
    {
        this.origin = origin;
        return this;
    }

    /**
     * What {@link #origin(int)} set.
     *
     * @return the origin.
     */
    public int origin()
    {
        return origin;
    }

    /**
     * Where this gateway publishes its order entry, which the engine subscribes to.
     *
     * @param channel channel URI.
     * @return this.
     */
    public SessionCoreContext orderEntryChannel(final String channel)
    {
        this.orderEntryChannel = channel;
        return this;
    }

    /**
     * What {@link #orderEntryChannel(String)} set.
     *
     * @return the channel.
     */
    public String orderEntryChannel()
    {
        return orderEntryChannel;
    }

    /**
     * The engine's report stream for this gateway's origin.
     *
     * @param channel channel URI.
     * @return this.
     */
    public SessionCoreContext executionReportChannel(final String channel)
    {
        this.executionReportChannel = channel;
        return this;
    }

    /**
     * What {@link #executionReportChannel(String)} set.
     *
     * @return the channel.
     */
    public String executionReportChannel()
    {
        return executionReportChannel;
    }

    /**
     * The engine's incremental market data.
     *
     * @param channel channel URI.
     * @return this.
     */
    public SessionCoreContext marketDataChannel(final String channel)
    {
        this.marketDataChannel = channel;
        return this;
    }

    /**
     * What {@link #marketDataChannel(String)} set.
     *
     * @return the channel.
     */
    public String marketDataChannel()
    {
        return marketDataChannel;
    }

    /**
     * The engine's market-data snapshots.
     *
     * @param channel channel URI.
     * @return this.
     */
    public SessionCoreContext snapshotChannel(final String channel)
    {
        this.snapshotChannel = channel;
        return this;
    }

    /**
     * What {@link #snapshotChannel(String)} set.
     *
     * @return the channel.
     */
    public String snapshotChannel()
    {
        return snapshotChannel;
    }

    /**
     * The engine's drop-copy stream (every report of every route), or null for none: with it, the gateway's
     * drop-copy sessions get the fills of other gateways' orders too.
     *
     * @param channel channel URI, or null.
     * @return this.
     */
    public SessionCoreContext dropCopyChannel(final String channel)
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
     * The session journal's directory.
     *
     * @param directory created if missing.
     * @return this.
     */
    public SessionCoreContext journalDirectory(final Path directory)
    {
        this.journalDirectory = directory;
        return this;
    }

    /**
     * What {@link #journalDirectory(Path)} set.
     *
     * @return the directory.
     */
    public Path journalDirectory()
    {
        return journalDirectory;
    }

    /**
     * Days of session journal kept: how long a session can be resumed after it was last active.
     *
     * @param days at least 1.
     * @return this.
     */
    public SessionCoreContext journalRetentionDays(final int days)
    {
        this.journalRetentionDays = days;
        return this;
    }

    /**
     * What {@link #journalRetentionDays(int)} set.
     *
     * @return the days.
     */
    public int journalRetentionDays()
    {
        return journalRetentionDays;
    }

    /**
     * The users, their accounts and limits.
     *
     * @param users the directory.
     * @return this.
     */
    public SessionCoreContext users(final UserDirectory users)
    {
        this.users = users;
        return this;
    }

    /**
     * What {@link #users(UserDirectory)} set.
     *
     * @return the directory.
     */
    public UserDirectory users()
    {
        return users;
    }

    /**
     * The instrument registry shared with the adapters.
     *
     * @param instruments the registry.
     * @return this.
     */
    public SessionCoreContext instruments(final InstrumentRegistry instruments)
    {
        this.instruments = instruments;
        return this;
    }

    /**
     * What {@link #instruments(InstrumentRegistry)} set.
     *
     * @return the registry.
     */
    public InstrumentRegistry instruments()
    {
        return instruments;
    }

    /**
     * The connection slots shared with the adapters.
     *
     * @param connections the table.
     * @return this.
     */
    public SessionCoreContext connections(final ConnectionTable connections)
    {
        this.connections = connections;
        return this;
    }

    /**
     * What {@link #connections(ConnectionTable)} set.
     *
     * @return the table.
     */
    public ConnectionTable connections()
    {
        return connections;
    }

    /**
     * The gateway's counters.
     *
     * @param counters the counters.
     * @return this.
     */
    public SessionCoreContext counters(final GatewayCounters counters)
    {
        this.counters = counters;
        return this;
    }

    /**
     * What {@link #counters(GatewayCounters)} set.
     *
     * @return the counters.
     */
    public GatewayCounters counters()
    {
        return counters;
    }

    /**
     * Where each order's round trip inside the gateway (request received to the engine's answer queued) goes.
     *
     * @param latency called on the core's thread; must not block or allocate.
     * @return this.
     */
    public SessionCoreContext latency(final OrderLatencyRecorder latency)
    {
        this.latency = latency;
        return this;
    }

    /**
     * What {@link #latency(OrderLatencyRecorder)} set.
     *
     * @return the recorder.
     */
    public OrderLatencyRecorder latency()
    {
        return latency;
    }

    /**
     * Most sessions held at once, connected or resumable.
     *
     * @param maxSessions at least 1.
     * @return this.
     */
    public SessionCoreContext maxSessions(final int maxSessions)
    {
        this.maxSessions = maxSessions;
        return this;
    }

    /**
     * What {@link #maxSessions(int)} set.
     *
     * @return the count.
     */
    public int maxSessions()
    {
        return maxSessions;
    }

    /**
     * Most instruments the gateway tracks.
     *
     * @param maxInstruments at least 1.
     * @return this.
     */
    public SessionCoreContext maxInstruments(final int maxInstruments)
    {
        this.maxInstruments = maxInstruments;
        return this;
    }

    /**
     * What {@link #maxInstruments(int)} set.
     *
     * @return the count.
     */
    public int maxInstruments()
    {
        return maxInstruments;
    }

    /**
     * Most open orders one session may have.
     *
     * @param maxOpenOrders at least 1.
     * @return this.
     */
    public SessionCoreContext maxOpenOrdersPerSession(final int maxOpenOrders)
    {
        this.maxOpenOrdersPerSession = maxOpenOrders;
        return this;
    }

    /**
     * What {@link #maxOpenOrdersPerSession(int)} set.
     *
     * @return the count.
     */
    public int maxOpenOrdersPerSession()
    {
        return maxOpenOrdersPerSession;
    }

    /**
     * Most orders the gateway tracks at once, all sessions.
     *
     * @param maxOrders at least 1.
     * @return this.
     */
    public SessionCoreContext maxOrders(final int maxOrders)
    {
        this.maxOrders = maxOrders;
        return this;
    }

    /**
     * What {@link #maxOrders(int)} set.
     *
     * @return the count.
     */
    public int maxOrders()
    {
        return maxOrders;
    }

    /**
     * Bytes of the inbound command ring the adapters write to.
     *
     * @param capacity a power of two.
     * @return this.
     */
    public SessionCoreContext inboundCapacity(final int capacity)
    {
        this.inboundCapacity = capacity;
        return this;
    }

    /**
     * What {@link #inboundCapacity(int)} set.
     *
     * @return the capacity.
     */
    public int inboundCapacity()
    {
        return inboundCapacity;
    }

    /**
     * The range of heartbeat intervals a client may ask for at logon.
     *
     * @param minMs shortest.
     * @param maxMs longest.
     * @return this.
     */
    public SessionCoreContext heartbeatRangeMs(final long minMs, final long maxMs)
    {
        this.minHeartbeatMs = minMs;
        this.maxHeartbeatMs = maxMs;
        return this;
    }

    /**
     * Shortest heartbeat interval a client may ask for.
     *
     * @return milliseconds.
     */
    public long minHeartbeatMs()
    {
        return minHeartbeatMs;
    }

    /**
     * Longest heartbeat interval a client may ask for.
     *
     * @return milliseconds.
     */
    public long maxHeartbeatMs()
    {
        return maxHeartbeatMs;
    }

    /**
     * Each session's order rate limit (new, cancel, replace).
     *
     * @param ordersPerSecond refill rate.
     * @param burst           bucket size.
     * @return this.
     */
    public SessionCoreContext sessionOrderLimit(final long ordersPerSecond, final long burst)
    {
        this.sessionOrdersPerSecond = ordersPerSecond;
        this.sessionOrderBurst = burst;
        return this;
    }

    /**
     * Each session's order rate.
     *
     * @return orders per second.
     */
    public long sessionOrdersPerSecond()
    {
        return sessionOrdersPerSecond;
    }

    /**
     * Each session's order burst.
     *
     * @return orders.
     */
    public long sessionOrderBurst()
    {
        return sessionOrderBurst;
    }

    /**
     * How long a session may stay conflated (too slow to take its market data) before it is disconnected.
     *
     * @param timeoutNs nanoseconds.
     * @return this.
     */
    public SessionCoreContext slowConsumerTimeoutNs(final long timeoutNs)
    {
        this.slowConsumerTimeoutNs = timeoutNs;
        return this;
    }

    /**
     * What {@link #slowConsumerTimeoutNs(long)} set.
     *
     * @return nanoseconds.
     */
    public long slowConsumerTimeoutNs()
    {
        return slowConsumerTimeoutNs;
    }

    /**
     * How long a disconnected session waits to be resumed before it ends.
     *
     * @param expiryNs nanoseconds.
     * @return this.
     */
    public SessionCoreContext sessionExpiryNs(final long expiryNs)
    {
        this.sessionExpiryNs = expiryNs;
        return this;
    }

    /**
     * What {@link #sessionExpiryNs(long)} set.
     *
     * @return nanoseconds.
     */
    public long sessionExpiryNs()
    {
        return sessionExpiryNs;
    }

    /**
     * Protocol errors a session may make within a window before it is disconnected.
     *
     * @param limit    errors.
     * @param windowNs the window.
     * @return this.
     */
    public SessionCoreContext protocolErrorLimit(final int limit, final long windowNs)
    {
        this.protocolErrorLimit = limit;
        this.protocolErrorWindowNs = windowNs;
        return this;
    }

    /**
     * Protocol errors allowed per window.
     *
     * @return errors.
     */
    public int protocolErrorLimit()
    {
        return protocolErrorLimit;
    }

    /**
     * The protocol error window.
     *
     * @return nanoseconds.
     */
    public long protocolErrorWindowNs()
    {
        return protocolErrorWindowNs;
    }

    /**
     * Cancel a session's open orders when its connection drops without a logout (they are always cancelled on
     * logout).
     *
     * @param cancel true to cancel.
     * @return this.
     */
    public SessionCoreContext cancelOnDisconnect(final boolean cancel)
    {
        this.cancelOnDisconnect = cancel;
        return this;
    }

    /**
     * What {@link #cancelOnDisconnect(boolean)} set.
     *
     * @return true to cancel.
     */
    public boolean cancelOnDisconnect()
    {
        return cancelOnDisconnect;
    }

    /**
     * Clock for journal times.
     *
     * @param clock epoch nanoseconds.
     * @return this.
     */
    public SessionCoreContext epochClock(final EpochNanoClock clock)
    {
        this.epochClock = clock;
        return this;
    }

    /**
     * What {@link #epochClock(EpochNanoClock)} set.
     *
     * @return the clock.
     */
    public EpochNanoClock epochClock()
    {
        return epochClock;
    }

    /**
     * Clock for timers and latencies; the adapters stamp commands with the same clock.
     *
     * @param clock monotonic nanoseconds.
     * @return this.
     */
    public SessionCoreContext nanoClock(final NanoClock clock)
    {
        this.nanoClock = clock;
        return this;
    }

    /**
     * What {@link #nanoClock(NanoClock)} set.
     *
     * @return the clock.
     */
    public NanoClock nanoClock()
    {
        return nanoClock;
    }

    /**
     * Check the whole configuration; the core calls it once.
     *
     * @return this.
     * @throws IllegalStateException naming what is missing or out of range.
     */
    public SessionCoreContext conclude()
    {
        if (concluded)
        {
            throw new IllegalStateException("session core context already concluded");
        }
        require(bus, "bus");
        require(orderEntryChannel, "orderEntryChannel");
        require(executionReportChannel, "executionReportChannel");
        require(marketDataChannel, "marketDataChannel");
        require(snapshotChannel, "snapshotChannel");
        require(journalDirectory, "journalDirectory");
        require(users, "users");
        require(instruments, "instruments");
        require(connections, "connections");
        require(counters, "counters");
        if (origin < 1 || origin > 0xFFFF)
        {
            throw new IllegalStateException("origin " + origin + " must be 1 to 65535");
        }
        positive(maxSessions, "maxSessions");
        positive(maxInstruments, "maxInstruments");
        positive(maxOpenOrdersPerSession, "maxOpenOrdersPerSession");
        positive(maxOrders, "maxOrders");
        positive(journalRetentionDays, "journalRetentionDays");
        positive(sessionOrdersPerSecond, "sessionOrdersPerSecond");
        positive(sessionOrderBurst, "sessionOrderBurst");
        positive(slowConsumerTimeoutNs, "slowConsumerTimeoutNs");
        positive(sessionExpiryNs, "sessionExpiryNs");
        positive(protocolErrorLimit, "protocolErrorLimit");
        positive(protocolErrorWindowNs, "protocolErrorWindowNs");
        if (!BitUtil.isPowerOfTwo(inboundCapacity) || inboundCapacity < 64 * 1024)
        {
            throw new IllegalStateException("inboundCapacity " + inboundCapacity +
                " must be a power of two of at least 65536");
        }
        if (minHeartbeatMs < 100 || maxHeartbeatMs < minHeartbeatMs)
        {
            throw new IllegalStateException("heartbeat range " + minHeartbeatMs + ".." + maxHeartbeatMs +
                " ms must start at 100 ms or more and not be empty");
        }
        concluded = true;
        return this;
    }

    private static void require(final Object value, final String name)
    {
        if (null == value)
        {
            throw new IllegalStateException("session core context: " + name + " is not set");
        }
    }

    private static void positive(final long value, final String name)
    {
        if (value <= 0)
        {
            throw new IllegalStateException("session core context: " + name + " must be above 0, was " + value);
        }
    }
}
