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

import java.nio.file.Path;

import io.warpbus.iwarp.IdleStrategies;
import io.warpbus.iwarp.RnicContext;
import io.warpbus.iwarp.ThreadingMode;
import org.agrona.BitUtil;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.OffsetEpochNanoClock;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.SystemNanoClock;

/**
 * Configuration of a {@link Bus}: every field starts from {@link BusConfiguration}'s property or default, can be
 * overridden fluently, and is validated once by {@link #conclude()} when the bus launches. The bus owns the
 * context afterwards.
 */
public final class BusContext
{
    private boolean concluded;
    private Path directory = BusConfiguration.directory();
    private String name = BusConfiguration.name();
    private ThreadingMode threadingMode = BusConfiguration.threadingMode();
    private IdleStrategy idleStrategy;
    private String idleStrategyAlias = BusConfiguration.idleStrategy();
    private int termLength = BusConfiguration.termLength();
    private int window = BusConfiguration.window();
    private int ringCapacity = BusConfiguration.ring();
    private long heartbeatIntervalNs = BusConfiguration.heartbeatIntervalNs();
    private long livenessTimeoutNs = BusConfiguration.livenessTimeoutNs();
    private long durableTimeoutNs = BusConfiguration.durableTimeoutNs();
    private int dropLag = BusConfiguration.dropLag();
    private int maxSubscribers = BusConfiguration.maxSubscribers();
    private RnicContext rnicContext = new RnicContext();
    private ErrorHandler errorHandler;
    private NanoClock nanoClock = SystemNanoClock.INSTANCE;
    private EpochClock epochClock = SystemEpochClock.INSTANCE;
    private EpochNanoClock epochNanoClock = new OffsetEpochNanoClock();

    /**
     * Validate and derive. Called by {@link Bus#launch(BusContext)}.
     *
     * @return this.
     * @throws IllegalArgumentException naming the setting that is wrong.
     */
    public BusContext conclude()
    {
        if (concluded)
        {
            throw new IllegalStateException("bus context already concluded: a context configures one bus");
        }
        concluded = true;
        if (null == idleStrategy)
        {
            idleStrategy = IdleStrategies.fromAlias(idleStrategyAlias);
        }
        if (!BitUtil.isPowerOfTwo(termLength) || termLength < BusConfiguration.MIN_TERM_LENGTH ||
            termLength > BusConfiguration.MAX_TERM_LENGTH)
        {
            throw new IllegalArgumentException(BusConfiguration.TERM_LENGTH_PROP_NAME +
                " must be a power of two in [64k, 64m]: " + termLength);
        }
        checkSizes("", termLength, window, ringCapacity);
        if (heartbeatIntervalNs <= 0 || livenessTimeoutNs <= heartbeatIntervalNs)
        {
            throw new IllegalArgumentException(BusConfiguration.LIVENESS_TIMEOUT_PROP_NAME +
                " must exceed " + BusConfiguration.HEARTBEAT_INTERVAL_PROP_NAME + " (both positive)");
        }
        if (durableTimeoutNs < 0)
        {
            throw new IllegalArgumentException(BusConfiguration.DURABLE_TIMEOUT_PROP_NAME +
                " must not be negative: " + durableTimeoutNs + " ns");
        }
        if (maxSubscribers < 1 || maxSubscribers > 4096)
        {
            throw new IllegalArgumentException(BusConfiguration.MAX_SUBSCRIBERS_PROP_NAME +
                " must be in [1, 4096]: " + maxSubscribers);
        }
        if (null == name || name.isEmpty() || name.contains("/") || name.contains(".."))
        {
            throw new IllegalArgumentException(BusConfiguration.NAME_PROP_NAME + " '" + name +
                "' must be a plain directory name");
        }
        // The engine runs on the bus's thread, composed with the bus's conductor.
        rnicContext.threadingMode(ThreadingMode.SHARED).name(name + "-rnic");
        return this;
    }

    /**
     * Check that a term, window and ring fit together: frames never cross a term, so a window and a ring must be
     * whole numbers of terms; a blocking subscriber's ring plus two terms must fit in the window so the log never
     * reuses a term a subscriber still needs.
     *
     * @param where      prefix for messages, e.g. the channel.
     * @param termLength term.
     * @param window     window.
     * @param ring       ring.
     */
    static void checkSizes(final String where, final int termLength, final int window, final int ring)
    {
        if (!BitUtil.isPowerOfTwo(window) || window < 4 * termLength)
        {
            throw new IllegalArgumentException(where + "window " + window + " must be a power of two of at least " +
                "four terms (term " + termLength + ")");
        }
        if (!BitUtil.isPowerOfTwo(ring) || ring < termLength)
        {
            throw new IllegalArgumentException(where + "ring " + ring + " must be a power of two of at least one " +
                "term (" + termLength + ")");
        }
        if (ring + 2L * termLength > window)
        {
            throw new IllegalArgumentException(where + "ring " + ring + " plus two terms must fit in the window " +
                window + ": a publication cannot serve a ring that large");
        }
    }

    /**
     * Base directory of counters files and IPC rings.
     *
     * @param directory the directory.
     * @return this for a fluent API.
     */
    public BusContext directory(final Path directory)
    {
        this.directory = directory;
        return this;
    }

    /**
     * Base directory.
     *
     * @return the directory.
     */
    public Path directory()
    {
        return directory;
    }

    /**
     * This bus's name: its counters live in {@code directory/name}.
     *
     * @param name the name.
     * @return this for a fluent API.
     */
    public BusContext name(final String name)
    {
        this.name = name;
        return this;
    }

    /**
     * The name.
     *
     * @return the name.
     */
    public String name()
    {
        return name;
    }

    /**
     * Threading mode of the bus (its conductor and engine share one agent).
     *
     * @param mode the mode.
     * @return this for a fluent API.
     */
    public BusContext threadingMode(final ThreadingMode mode)
    {
        this.threadingMode = mode;
        return this;
    }

    /**
     * The threading mode.
     *
     * @return the mode.
     */
    public ThreadingMode threadingMode()
    {
        return threadingMode;
    }

    /**
     * Idle strategy by alias.
     *
     * @param alias spin, noop, yield, backoff, backoff-N, park-N or sleep-N.
     * @return this for a fluent API.
     */
    public BusContext idleStrategy(final String alias)
    {
        this.idleStrategy = IdleStrategies.fromAlias(alias);
        return this;
    }

    /**
     * The idle strategy of {@link ThreadingMode#DEDICATED} mode.
     *
     * @return the strategy.
     */
    public IdleStrategy idleStrategy()
    {
        return idleStrategy;
    }

    /**
     * Default term length of publications.
     *
     * @param length a power of two in [64k, 64m].
     * @return this for a fluent API.
     */
    public BusContext termLength(final int length)
    {
        this.termLength = length;
        return this;
    }

    /**
     * The default term length.
     *
     * @return bytes.
     */
    public int termLength()
    {
        return termLength;
    }

    /**
     * Default window (retained log) of publications.
     *
     * @param length a power of two of at least four terms.
     * @return this for a fluent API.
     */
    public BusContext window(final int length)
    {
        this.window = length;
        return this;
    }

    /**
     * The default window.
     *
     * @return bytes.
     */
    public int window()
    {
        return window;
    }

    /**
     * Default ring of subscriptions.
     *
     * @param capacity a power of two of at least one term.
     * @return this for a fluent API.
     */
    public BusContext ringCapacity(final int capacity)
    {
        this.ringCapacity = capacity;
        return this;
    }

    /**
     * The default ring capacity.
     *
     * @return bytes.
     */
    public int ringCapacity()
    {
        return ringCapacity;
    }

    /**
     * Interval of heartbeats and idle credits.
     *
     * @param intervalNs nanoseconds.
     * @return this for a fluent API.
     */
    public BusContext heartbeatIntervalNs(final long intervalNs)
    {
        this.heartbeatIntervalNs = intervalNs;
        return this;
    }

    /**
     * The heartbeat interval.
     *
     * @return nanoseconds.
     */
    public long heartbeatIntervalNs()
    {
        return heartbeatIntervalNs;
    }

    /**
     * Silence after which a peer counts as gone.
     *
     * @param timeoutNs nanoseconds.
     * @return this for a fluent API.
     */
    public BusContext livenessTimeoutNs(final long timeoutNs)
    {
        this.livenessTimeoutNs = timeoutNs;
        return this;
    }

    /**
     * The liveness timeout.
     *
     * @return nanoseconds.
     */
    public long livenessTimeoutNs()
    {
        return livenessTimeoutNs;
    }

    /**
     * How long a publication keeps a lost durable subscriber's place (a recorder that announced a replay endpoint,
     * with the block policy): it holds its retained log from where that subscriber had consumed, counts as
     * connected, and back-pressures only when the log is full, until the subscriber returns or this time passes.
     * 0 turns the bridging off. A publication's {@code durable-timeout} channel parameter overrides it.
     *
     * @param timeoutNs nanoseconds, 0 for none.
     * @return this for a fluent API.
     */
    public BusContext durableTimeoutNs(final long timeoutNs)
    {
        this.durableTimeoutNs = timeoutNs;
        return this;
    }

    /**
     * How long a lost durable subscriber's place is kept.
     *
     * @return nanoseconds, 0 for none.
     */
    public long durableTimeoutNs()
    {
        return durableTimeoutNs;
    }

    /**
     * Lag in bytes that disconnects a drop-policy subscriber; 0 for half the window.
     *
     * @param bytes the lag.
     * @return this for a fluent API.
     */
    public BusContext dropLag(final int bytes)
    {
        this.dropLag = bytes;
        return this;
    }

    /**
     * The drop lag.
     *
     * @return bytes, 0 for half the window.
     */
    public int dropLag()
    {
        return dropLag;
    }

    /**
     * Subscribers one publication serves at most.
     *
     * @param count the count.
     * @return this for a fluent API.
     */
    public BusContext maxSubscribers(final int count)
    {
        this.maxSubscribers = count;
        return this;
    }

    /**
     * The subscriber limit.
     *
     * @return the count.
     */
    public int maxSubscribers()
    {
        return maxSubscribers;
    }

    /**
     * Configuration of the bus's iWARP engine (its threading mode is set by the bus).
     *
     * @param context the engine's context.
     * @return this for a fluent API.
     */
    public BusContext rnicContext(final RnicContext context)
    {
        this.rnicContext = context;
        return this;
    }

    /**
     * The engine's context.
     *
     * @return the context.
     */
    public RnicContext rnicContext()
    {
        return rnicContext;
    }

    /**
     * Receives faults; the bus also records them in its error log and counts them.
     *
     * @param handler the handler.
     * @return this for a fluent API.
     */
    public BusContext errorHandler(final ErrorHandler handler)
    {
        this.errorHandler = handler;
        return this;
    }

    /**
     * The application's error handler.
     *
     * @return the handler, or null.
     */
    public ErrorHandler errorHandler()
    {
        return errorHandler;
    }

    /**
     * Clock for timeouts.
     *
     * @param clock the clock.
     * @return this for a fluent API.
     */
    public BusContext nanoClock(final NanoClock clock)
    {
        this.nanoClock = clock;
        return this;
    }

    /**
     * The nano clock.
     *
     * @return the clock.
     */
    public NanoClock nanoClock()
    {
        return nanoClock;
    }

    /**
     * Clock for heartbeat timestamps.
     *
     * @return the epoch clock.
     */
    public EpochClock epochClock()
    {
        return epochClock;
    }

    /**
     * Set the clock for heartbeat timestamps and liveness, read at most once a millisecond.
     *
     * @param clock the clock.
     * @return this for a fluent API.
     */
    public BusContext epochClock(final EpochClock clock)
    {
        this.epochClock = clock;
        return this;
    }

    /**
     * Clock for message timestamps.
     *
     * @return the epoch nano clock.
     */
    public EpochNanoClock epochNanoClock()
    {
        return epochNanoClock;
    }

    /**
     * Set the clock for message timestamps.
     *
     * @param clock the clock.
     * @return this for a fluent API.
     */
    public BusContext epochNanoClock(final EpochNanoClock clock)
    {
        this.epochNanoClock = clock;
        return this;
    }

    /**
     * The directory of this bus's counters.
     *
     * @return {@code directory/name}.
     */
    public Path busDirectory()
    {
        return directory.resolve(name);
    }

    /**
     * The directory where IPC publishers and subscribers of this host meet.
     *
     * @return {@code directory/ipc}.
     */
    public Path ipcDirectory()
    {
        return directory.resolve("ipc");
    }
}
