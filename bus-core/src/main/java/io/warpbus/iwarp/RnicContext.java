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
package io.warpbus.iwarp;

import io.warpbus.iwarp.mpa.CrcPolicy;
import io.warpbus.iwarp.mpa.Fpdu;
import io.warpbus.iwarp.mpa.MpaSettings;
import io.warpbus.iwarp.mpa.RtrType;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.status.CountersManager;

/**
 * Configuration of an {@link Rnic}. Every field starts from {@link RnicConfiguration}'s system property or default
 * and can be overridden fluently; {@link #conclude()} validates once, when the engine launches.
 */
public final class RnicContext
{
    /** Smallest per-connection I/O buffer: two of the largest FPDUs a peer can send. */
    public static final int MIN_IO_BUFFER_LENGTH = 2 * Fpdu.MAX_RECEIVE_FPDU;
    /** Most inbound reads a connection grows its IRD to at the peer's request. */
    public static final int MAX_IRD = 1024;

    private boolean concluded;
    private String name = "warpbus-rnic";
    private ThreadingMode threadingMode = RnicConfiguration.threadingMode();
    private String idleStrategyAlias = RnicConfiguration.idleStrategy();
    private IdleStrategy idleStrategy;
    private CrcPolicy crcPolicy = RnicConfiguration.crcPolicy();
    private int mpaRevision = RnicConfiguration.mpaRevision();
    private long mpaTimeoutNs = RnicConfiguration.mpaTimeoutNs();
    private int ird = RnicConfiguration.ird();
    private int ord = RnicConfiguration.ord();
    private int rtrTypes = RtrType.ALL;
    private int socketBufferLength = RnicConfiguration.socketBufferLength();
    private int ioBufferLength = RnicConfiguration.ioBufferLength();
    private int maxFpduLength = RnicConfiguration.maxFpduLength();
    private boolean tcpNoDelay = RnicConfiguration.tcpNoDelay();
    private boolean directPlacement = RnicConfiguration.directPlacement();
    private long coalesceHoldNs = RnicConfiguration.coalesceHoldNs();
    private int coalesceBytes = RnicConfiguration.coalesceBytes();
    private ErrorHandler errorHandler;
    private NanoClock nanoClock = SystemNanoClock.INSTANCE;
    private CountersManager countersManager;

    /**
     * Validate and fill in derived values. Called by {@link Rnic#launch(RnicContext)}.
     *
     * @return this.
     * @throws IllegalArgumentException naming the setting that is out of range.
     */
    public RnicContext conclude()
    {
        if (concluded)
        {
            throw new IllegalStateException("context already concluded: a context configures one engine");
        }
        concluded = true;
        if (null == threadingMode)
        {
            throw new IllegalArgumentException("threadingMode must be set");
        }
        if (null == idleStrategy)
        {
            idleStrategy = IdleStrategies.fromAlias(idleStrategyAlias);
        }
        if (mpaTimeoutNs <= 0)
        {
            throw new IllegalArgumentException(RnicConfiguration.MPA_TIMEOUT_PROP_NAME + " must be positive");
        }
        if (ioBufferLength < MIN_IO_BUFFER_LENGTH)
        {
            throw new IllegalArgumentException(RnicConfiguration.IO_BUFFER_PROP_NAME + " must be at least " +
                MIN_IO_BUFFER_LENGTH + " bytes (two maximum FPDUs): " + ioBufferLength);
        }
        final int maxFpdu = maxFpduLength();
        if (maxFpdu != 0 && (maxFpdu < Fpdu.MIN_MULPDU + 6 || maxFpdu > 65536))
        {
            throw new IllegalArgumentException(RnicConfiguration.MAX_FPDU_PROP_NAME +
                " must be 0 (derive from the MTU) or in [134, 65536]: " + maxFpdu);
        }
        if (coalesceHoldNs < 0)
        {
            throw new IllegalArgumentException(RnicConfiguration.COALESCE_HOLD_PROP_NAME +
                " must be 0 (off) or positive: " + coalesceHoldNs + " ns");
        }
        if (coalesceBytes <= RnicConfiguration.STREAMING_WRITE || coalesceBytes > ioBufferLength / 2)
        {
            throw new IllegalArgumentException(RnicConfiguration.COALESCE_BYTES_PROP_NAME + " must be over " +
                RnicConfiguration.STREAMING_WRITE + " and at most half of " + RnicConfiguration.IO_BUFFER_PROP_NAME +
                " (" + ioBufferLength / 2 + "): " + coalesceBytes);
        }
        if (socketBufferLength < 4096)
        {
            throw new IllegalArgumentException(RnicConfiguration.SOCKET_BUFFER_PROP_NAME +
                " must be at least 4096: " + socketBufferLength);
        }
        mpaSettings();
        if (null == errorHandler)
        {
            errorHandler = (throwable) -> System.err.println(name + ": " + throwable.getMessage());
        }
        return this;
    }

    /**
     * The MPA settings these values give.
     *
     * @return a new settings record.
     */
    public MpaSettings mpaSettings()
    {
        return new MpaSettings(crcPolicy, mpaRevision, ird, ord, Math.max(MAX_IRD, ird), rtrTypes);
    }

    /**
     * Name of the engine: its agent's role name and the prefix of its log lines.
     *
     * @param name the name.
     * @return this for a fluent API.
     */
    public RnicContext name(final String name)
    {
        this.name = name;
        return this;
    }

    /**
     * The engine's name.
     *
     * @return the name.
     */
    public String name()
    {
        return name;
    }

    /**
     * How the engine's duty cycle gets a thread.
     *
     * @param mode the mode.
     * @return this for a fluent API.
     */
    public RnicContext threadingMode(final ThreadingMode mode)
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
     * Idle strategy for {@link ThreadingMode#DEDICATED}.
     *
     * @param strategy the strategy.
     * @return this for a fluent API.
     */
    public RnicContext idleStrategy(final IdleStrategy strategy)
    {
        this.idleStrategy = strategy;
        return this;
    }

    /**
     * Idle strategy by alias: spin, noop, yield, backoff, backoff-N, park-N, sleep-N.
     *
     * @param alias the alias.
     * @return this for a fluent API.
     */
    public RnicContext idleStrategy(final String alias)
    {
        this.idleStrategy = IdleStrategies.fromAlias(alias);
        return this;
    }

    /**
     * The idle strategy.
     *
     * @return the strategy (null until concluded when chosen by property).
     */
    public IdleStrategy idleStrategy()
    {
        return idleStrategy;
    }

    /**
     * CRC policy for new connections.
     *
     * @param policy the policy.
     * @return this for a fluent API.
     */
    public RnicContext crcPolicy(final CrcPolicy policy)
    {
        this.crcPolicy = policy;
        return this;
    }

    /**
     * The CRC policy.
     *
     * @return the policy.
     */
    public CrcPolicy crcPolicy()
    {
        return crcPolicy;
    }

    /**
     * MPA revision to request as initiator and to accept up to as responder: 1 or 2.
     *
     * @param revision the revision.
     * @return this for a fluent API.
     */
    public RnicContext mpaRevision(final int revision)
    {
        this.mpaRevision = revision;
        return this;
    }

    /**
     * The MPA revision.
     *
     * @return 1 or 2.
     */
    public int mpaRevision()
    {
        return mpaRevision;
    }

    /**
     * Limit on TCP connect plus the MPA exchange; a peer that does not finish it in time is disconnected.
     *
     * @param timeoutNs the limit in nanoseconds.
     * @return this for a fluent API.
     */
    public RnicContext mpaTimeoutNs(final long timeoutNs)
    {
        this.mpaTimeoutNs = timeoutNs;
        return this;
    }

    /**
     * The MPA timeout.
     *
     * @return nanoseconds.
     */
    public long mpaTimeoutNs()
    {
        return mpaTimeoutNs;
    }

    /**
     * Default inbound RDMA Read depth of new connections.
     *
     * @param ird the depth.
     * @return this for a fluent API.
     */
    public RnicContext ird(final int ird)
    {
        this.ird = ird;
        return this;
    }

    /**
     * Default outbound RDMA Read depth of new connections.
     *
     * @param ord the depth.
     * @return this for a fluent API.
     */
    public RnicContext ord(final int ord)
    {
        this.ord = ord;
        return this;
    }

    /**
     * RTR types this engine sends (as initiator, in order write, read, send) and accepts (as responder).
     *
     * @param mask bits of {@link RtrType}.
     * @return this for a fluent API.
     */
    public RnicContext rtrTypes(final int mask)
    {
        this.rtrTypes = mask;
        return this;
    }

    /**
     * SO_SNDBUF and SO_RCVBUF of each connection.
     *
     * @param length bytes.
     * @return this for a fluent API.
     */
    public RnicContext socketBufferLength(final int length)
    {
        this.socketBufferLength = length;
        return this;
    }

    /**
     * The socket buffer length.
     *
     * @return bytes.
     */
    public int socketBufferLength()
    {
        return socketBufferLength;
    }

    /**
     * Length of each connection's receive buffer and of its transmit buffer.
     *
     * @param length bytes, at least {@link #MIN_IO_BUFFER_LENGTH}.
     * @return this for a fluent API.
     */
    public RnicContext ioBufferLength(final int length)
    {
        this.ioBufferLength = length;
        return this;
    }

    /**
     * The I/O buffer length.
     *
     * @return bytes.
     */
    public int ioBufferLength()
    {
        return ioBufferLength;
    }

    /**
     * Cap on the size of FPDUs this engine sends; 0 derives the size from the path MTU. Unset, it is 0 with direct
     * placement and {@link RnicConfiguration#MAX_FPDU_DEFAULT} without.
     *
     * @param length bytes.
     * @return this for a fluent API.
     */
    public RnicContext maxFpduLength(final int length)
    {
        this.maxFpduLength = length;
        return this;
    }

    /**
     * The FPDU size cap.
     *
     * @return bytes, 0 for none.
     */
    public int maxFpduLength()
    {
        if (RnicConfiguration.MAX_FPDU_UNSET == maxFpduLength)
        {
            return directPlacement ? 0 : RnicConfiguration.MAX_FPDU_DEFAULT;
        }
        return maxFpduLength;
    }

    /**
     * Set TCP_NODELAY on every connection.
     *
     * @param noDelay the value.
     * @return this for a fluent API.
     */
    public RnicContext tcpNoDelay(final boolean noDelay)
    {
        this.tcpNoDelay = noDelay;
        return this;
    }

    /**
     * TCP_NODELAY.
     *
     * @return the value.
     */
    public boolean tcpNoDelay()
    {
        return tcpNoDelay;
    }

    /**
     * Read the payload of a large inbound RDMA Write from the socket straight into its region, instead of through
     * the connection's receive buffer (see docs/iwarp-engine.md). Such a payload is in the region before its CRC has
     * been checked; a mismatch still ends the connection.
     *
     * @param direct the value.
     * @return this for a fluent API.
     */
    public RnicContext directPlacement(final boolean direct)
    {
        this.directPlacement = direct;
        return this;
    }

    /**
     * Are large RDMA Write payloads placed straight from the socket?
     *
     * @return the value.
     */
    public boolean directPlacement()
    {
        return directPlacement;
    }

    /**
     * Transmit coalescing: while a connection streams (its last socket write carried at least
     * {@link RnicConfiguration#STREAMING_WRITE} bytes, and it assembles FPDUs in duty cycles in a row), what a duty
     * cycle assembled waits for the next cycles' FPDUs up to this long from that cycle, or until
     * {@link #coalesceBytes(int)} are queued, and goes in one socket write. A connection whose last write was smaller,
     * or whose previous cycle had nothing to send, sends at once, so a ping-pong (of any message size), a lone message
     * or the first after a quiet spell never waits.
     *
     * @param holdNs the longest wait, 0 for none.
     * @return this for a fluent API.
     */
    public RnicContext coalesceHoldNs(final long holdNs)
    {
        this.coalesceHoldNs = holdNs;
        return this;
    }

    /**
     * The longest a streaming connection's queued FPDUs wait to be written with the next cycles'.
     *
     * @return nanoseconds, 0 when coalescing is off.
     */
    public long coalesceHoldNs()
    {
        return coalesceHoldNs;
    }

    /**
     * Queued bytes at which a held write goes at once.
     *
     * @param bytes the size, over {@link RnicConfiguration#STREAMING_WRITE} and at most half the I/O buffer.
     * @return this for a fluent API.
     */
    public RnicContext coalesceBytes(final int bytes)
    {
        this.coalesceBytes = bytes;
        return this;
    }

    /**
     * Queued bytes at which a held write goes at once.
     *
     * @return bytes.
     */
    public int coalesceBytes()
    {
        return coalesceBytes;
    }

    /**
     * Receives faults: protocol errors of connections and errors of the engine itself.
     *
     * @param handler the handler.
     * @return this for a fluent API.
     */
    public RnicContext errorHandler(final ErrorHandler handler)
    {
        this.errorHandler = handler;
        return this;
    }

    /**
     * The error handler.
     *
     * @return the handler.
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
    public RnicContext nanoClock(final NanoClock clock)
    {
        this.nanoClock = clock;
        return this;
    }

    /**
     * The clock.
     *
     * @return the clock.
     */
    public NanoClock nanoClock()
    {
        return nanoClock;
    }

    /**
     * Where the engine allocates its counters; null keeps them in the engine's own memory.
     *
     * @param manager the manager, typically over a memory-mapped file.
     * @return this for a fluent API.
     */
    public RnicContext countersManager(final CountersManager manager)
    {
        this.countersManager = manager;
        return this;
    }

    /**
     * The counters manager.
     *
     * @return the manager or null.
     */
    public CountersManager countersManager()
    {
        return countersManager;
    }
}
