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

import java.util.concurrent.TimeUnit;

import io.warpbus.iwarp.mpa.CrcPolicy;
import org.agrona.SystemUtil;

/**
 * System properties that configure an {@link Rnic}, with their defaults. {@link RnicContext} starts from these and
 * offers fluent overrides.
 *
 * <table>
 *     <caption>Engine properties</caption>
 *     <tr><th>property</th><th>default</th><th>meaning</th></tr>
 *     <tr><td>warpbus.rnic.threading.mode</td><td>DEDICATED</td><td>DEDICATED, SHARED or INVOKER</td></tr>
 *     <tr><td>warpbus.rnic.idle.strategy</td><td>backoff</td>
 *         <td>spin, noop, yield, backoff, backoff-N (us), park-N (us) or sleep-N (ms)</td></tr>
 *     <tr><td>warpbus.rnic.crc.policy</td><td>PREFERRED</td><td>REQUIRED, PREFERRED or OFF</td></tr>
 *     <tr><td>warpbus.rnic.mpa.revision</td><td>2</td><td>MPA revision to request: 1 or 2</td></tr>
 *     <tr><td>warpbus.rnic.mpa.timeout</td><td>5s</td><td>limit for TCP connect plus the MPA exchange</td></tr>
 *     <tr><td>warpbus.rnic.ird</td><td>16</td><td>inbound RDMA Read requests this side accepts at once</td></tr>
 *     <tr><td>warpbus.rnic.ord</td><td>16</td><td>outbound RDMA Read requests this side issues at once</td></tr>
 *     <tr><td>warpbus.rnic.socket.buffer</td><td>2m</td><td>SO_SNDBUF and SO_RCVBUF of each connection</td></tr>
 *     <tr><td>warpbus.rnic.io.buffer</td><td>512k</td><td>each connection's receive and transmit buffer</td></tr>
 *     <tr><td>warpbus.rnic.max.fpdu</td><td>0, or 16k without direct placement</td>
 *         <td>cap on FPDU size; 0 uses the path MTU alone</td></tr>
 *     <tr><td>warpbus.rnic.tcp.nodelay</td><td>true</td><td>TCP_NODELAY on every connection</td></tr>
 *     <tr><td>warpbus.rnic.direct.placement</td><td>true</td>
 *         <td>read large RDMA Write payloads from the socket straight into their region</td></tr>
 * </table>
 */
public final class RnicConfiguration
{
    /** Threading mode property. */
    public static final String THREADING_MODE_PROP_NAME = "warpbus.rnic.threading.mode";
    /** Default threading mode. */
    public static final ThreadingMode THREADING_MODE_DEFAULT = ThreadingMode.DEDICATED;

    /** Idle strategy property. */
    public static final String IDLE_STRATEGY_PROP_NAME = "warpbus.rnic.idle.strategy";
    /** Default idle strategy alias. */
    public static final String IDLE_STRATEGY_DEFAULT = "backoff";

    /** CRC policy property. */
    public static final String CRC_POLICY_PROP_NAME = "warpbus.rnic.crc.policy";
    /** Default CRC policy. */
    public static final CrcPolicy CRC_POLICY_DEFAULT = CrcPolicy.PREFERRED;

    /** MPA revision property. */
    public static final String MPA_REVISION_PROP_NAME = "warpbus.rnic.mpa.revision";
    /** Default MPA revision. */
    public static final int MPA_REVISION_DEFAULT = 2;

    /** Connection establishment timeout property. */
    public static final String MPA_TIMEOUT_PROP_NAME = "warpbus.rnic.mpa.timeout";
    /** Default connection establishment timeout. */
    public static final long MPA_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(5);

    /** Inbound read depth property. */
    public static final String IRD_PROP_NAME = "warpbus.rnic.ird";
    /** Default inbound read depth. */
    public static final int IRD_DEFAULT = 16;

    /** Outbound read depth property. */
    public static final String ORD_PROP_NAME = "warpbus.rnic.ord";
    /** Default outbound read depth. */
    public static final int ORD_DEFAULT = 16;

    /** Socket buffer size property. */
    public static final String SOCKET_BUFFER_PROP_NAME = "warpbus.rnic.socket.buffer";
    /** Default socket buffer size. */
    public static final int SOCKET_BUFFER_DEFAULT = 2 * 1024 * 1024;

    /** Per-connection I/O buffer size property. */
    public static final String IO_BUFFER_PROP_NAME = "warpbus.rnic.io.buffer";
    /** Default per-connection I/O buffer size. */
    public static final int IO_BUFFER_DEFAULT = 512 * 1024;

    /** FPDU size cap property. */
    public static final String MAX_FPDU_PROP_NAME = "warpbus.rnic.max.fpdu";
    /**
     * FPDU size cap when direct placement is off, 16 KiB. On loopback or jumbo-frame links the MSS allows FPDUs near
     * 64 KiB, but a receiver without direct placement can only check and place an FPDU once all of it has arrived;
     * 16 KiB FPDUs let it place the first while the rest are still in flight, and keep each one in cache while its
     * CRC is checked and it is copied. With direct placement (the default) a receiver places a payload as it
     * arrives, and no cap applies unless this property sets one: the path MTU alone sizes FPDUs
     * (docs/performance.md, "Direct placement").
     */
    public static final int MAX_FPDU_DEFAULT = 16 * 1024;
    /** No FPDU size cap was set: it follows direct placement. */
    static final int MAX_FPDU_UNSET = Integer.MIN_VALUE;

    /** TCP_NODELAY property. */
    public static final String TCP_NODELAY_PROP_NAME = "warpbus.rnic.tcp.nodelay";
    /** Default TCP_NODELAY. */
    public static final boolean TCP_NODELAY_DEFAULT = true;

    /** Direct placement property: large RDMA Write payloads are read from the socket into their region. */
    public static final String DIRECT_PLACEMENT_PROP_NAME = "warpbus.rnic.direct.placement";
    /** Default direct placement. */
    public static final boolean DIRECT_PLACEMENT_DEFAULT = true;

    /**
     * Transmit coalescing, how long at most: while a connection streams (its last socket write carried at least
     * {@link #STREAMING_WRITE} bytes, and FPDUs come in duty cycles in a row), what a duty cycle assembled waits up
     * to this long for the next cycles' FPDUs, so that one socket write carries many cycles' worth; 0 turns
     * coalescing off.
     */
    public static final String COALESCE_HOLD_PROP_NAME = "warpbus.rnic.coalesce.hold";
    /** Default coalescing hold (docs/performance.md, "Coalescing a stream's writes"). */
    public static final long COALESCE_HOLD_DEFAULT_NS = TimeUnit.MICROSECONDS.toNanos(20);
    /** Transmit coalescing, how much: a held write goes once this many bytes are queued. */
    public static final String COALESCE_BYTES_PROP_NAME = "warpbus.rnic.coalesce.bytes";
    /** Default coalescing size. */
    public static final int COALESCE_BYTES_DEFAULT = 64 * 1024;
    /** A socket write of at least this many bytes means the connection streams, and its next writes may be held. */
    public static final int STREAMING_WRITE = 4096;

    private RnicConfiguration()
    {
    }

    static ThreadingMode threadingMode()
    {
        return ThreadingMode.valueOf(System.getProperty(THREADING_MODE_PROP_NAME, THREADING_MODE_DEFAULT.name()));
    }

    static String idleStrategy()
    {
        return System.getProperty(
            IDLE_STRATEGY_PROP_NAME, System.getProperty("warpbus.idle.strategy", IDLE_STRATEGY_DEFAULT));
    }

    static CrcPolicy crcPolicy()
    {
        return CrcPolicy.valueOf(System.getProperty(CRC_POLICY_PROP_NAME, CRC_POLICY_DEFAULT.name()));
    }

    static int mpaRevision()
    {
        return Integer.getInteger(MPA_REVISION_PROP_NAME, MPA_REVISION_DEFAULT);
    }

    static long mpaTimeoutNs()
    {
        return SystemUtil.getDurationInNanos(MPA_TIMEOUT_PROP_NAME, MPA_TIMEOUT_DEFAULT_NS);
    }

    static int ird()
    {
        return Integer.getInteger(IRD_PROP_NAME, IRD_DEFAULT);
    }

    static int ord()
    {
        return Integer.getInteger(ORD_PROP_NAME, ORD_DEFAULT);
    }

    static int socketBufferLength()
    {
        return SystemUtil.getSizeAsInt(SOCKET_BUFFER_PROP_NAME, SOCKET_BUFFER_DEFAULT);
    }

    static int ioBufferLength()
    {
        return SystemUtil.getSizeAsInt(IO_BUFFER_PROP_NAME, IO_BUFFER_DEFAULT);
    }

    /**
     * The FPDU size cap the property sets.
     *
     * @return bytes, or {@link #MAX_FPDU_UNSET} when it is not set (the default follows direct placement).
     */
    static int maxFpduLength()
    {
        return null == System.getProperty(MAX_FPDU_PROP_NAME) ? MAX_FPDU_UNSET :
            SystemUtil.getSizeAsInt(MAX_FPDU_PROP_NAME, 0);
    }

    static boolean tcpNoDelay()
    {
        return Boolean.parseBoolean(System.getProperty(TCP_NODELAY_PROP_NAME, String.valueOf(TCP_NODELAY_DEFAULT)));
    }

    static long coalesceHoldNs()
    {
        return SystemUtil.getDurationInNanos(COALESCE_HOLD_PROP_NAME, COALESCE_HOLD_DEFAULT_NS);
    }

    static int coalesceBytes()
    {
        return SystemUtil.getSizeAsInt(COALESCE_BYTES_PROP_NAME, COALESCE_BYTES_DEFAULT);
    }

    static boolean directPlacement()
    {
        final String value = System.getProperty(DIRECT_PLACEMENT_PROP_NAME, String.valueOf(DIRECT_PLACEMENT_DEFAULT));
        if (!"true".equals(value) && !"false".equals(value))
        {
            throw new IllegalArgumentException(DIRECT_PLACEMENT_PROP_NAME + " must be true or false: " + value);
        }
        return Boolean.parseBoolean(value);
    }
}
