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
package io.warpbus.gateway.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The gateway's configuration, {@code warpbus.gateway.*}, mapped onto the framework-free
 * {@link io.warpbus.gateway.session.SessionCoreContext} in {@link GatewayConfiguration}. Every property is listed
 * with its default and meaning in docs/gateway.md.
 *
 * @param name                the gateway's name: its bus's and counters' name, a tag on its meters.
 * @param origin              1 to 65535, unique among the engine's gateways: routes its reports back to it.
 * @param idleStrategy        of the session core's thread ({@code backoff}, {@code spin}, {@code yield}, ...).
 * @param busDirectory        where the bus keeps its counters and IPC rings (default {@code warpbus.dir}).
 * @param countersDirectory   the gateway's own counters file, default {@code <busDirectory>/<name>-gateway}.
 * @param credentialsFile     the credentials file (users, password hashes, API keys); only its owner may read it.
 * @param credentialsPermissionCheck refuse a credentials file others may read.
 * @param channels            the bus channels to the engine.
 * @param journal             the session journal.
 * @param sessions            session limits and timers.
 * @param rateLimits          order rate limits.
 * @param logon               logon throttling and the API-key clock skew.
 * @param instruments         instrument limits.
 * @param allowedOrigins      origins allowed to open a WebSocket (browsers), as patterns; empty for any.
 * @param trading             the gateway's own WebSocket server for trading sessions.
 */
@ConfigurationProperties("warpbus.gateway")
public record GatewayProperties(
    @DefaultValue("gateway") String name,
    @DefaultValue("1") int origin,
    @DefaultValue("backoff") String idleStrategy,
    Path busDirectory,
    Path countersDirectory,
    Path credentialsFile,
    @DefaultValue("true") boolean credentialsPermissionCheck,
    @DefaultValue Channels channels,
    @DefaultValue Journal journal,
    @DefaultValue Sessions sessions,
    @DefaultValue RateLimits rateLimits,
    @DefaultValue Logon logon,
    @DefaultValue Instruments instruments,
    @DefaultValue List<String> allowedOrigins,
    @DefaultValue Trading trading)
{
    /**
     * Channels to the engine.
     *
     * @param orderEntry       the gateway's order entry publication (at its own endpoint).
     * @param executionReports the engine's report stream of this gateway's route.
     * @param marketData       the engine's incremental market data.
     * @param snapshots        the engine's snapshot stream.
     * @param dropCopy         the engine's drop-copy stream (every report of every route), or unset: with it the
     *                         gateway's drop-copy sessions get the fills of other gateways' orders too.
     */
    public record Channels(String orderEntry, String executionReports, String marketData, String snapshots,
        String dropCopy)
    {
    }

    /**
     * The session journal.
     *
     * @param directory     its directory.
     * @param retentionDays days kept: how long a disconnected session can be resumed.
     */
    public record Journal(Path directory, @DefaultValue("2") int retentionDays)
    {
    }

    /**
     * Session limits and timers.
     *
     * @param maxSessions          sessions held at once; the queues take max-sessions times queue-bytes of direct
     *                             memory, allocated at start.
     * @param queueBytes           each connection's outbound queue, a power of two.
     * @param maxMessageBytes      largest inbound message.
     * @param minHeartbeat         shortest heartbeat interval a client may ask for.
     * @param maxHeartbeat         longest.
     * @param slowConsumerTimeout  how long a session may stay conflated before it is disconnected.
     * @param expiry               how long a disconnected session waits to be resumed.
     * @param cancelOnDisconnect   cancel a session's orders when its connection drops.
     * @param maxOpenOrders        open orders per session.
     * @param maxOrders            orders tracked by the gateway.
     * @param protocolErrorLimit   bad messages allowed per window before a disconnect.
     * @param protocolErrorWindow  that window.
     * @param socketSendBuffer     each client socket's send buffer (SO_SNDBUF) in bytes, 0 for the system's: a
     *                             small one makes a client that stops reading show as slow sooner.
     */
    public record Sessions(
        @DefaultValue("2500") int maxSessions,
        @DefaultValue("65536") int queueBytes,
        @DefaultValue("4096") int maxMessageBytes,
        @DefaultValue("1s") Duration minHeartbeat,
        @DefaultValue("60s") Duration maxHeartbeat,
        @DefaultValue("10s") Duration slowConsumerTimeout,
        @DefaultValue("24h") Duration expiry,
        @DefaultValue("false") boolean cancelOnDisconnect,
        @DefaultValue("1000") int maxOpenOrders,
        @DefaultValue("262144") int maxOrders,
        @DefaultValue("20") int protocolErrorLimit,
        @DefaultValue("10s") Duration protocolErrorWindow,
        @DefaultValue("0") int socketSendBuffer)
    {
    }

    /**
     * Order rate limits (new, cancel and replace count alike).
     *
     * @param sessionOrdersPerSecond per session.
     * @param sessionOrderBurst      per session.
     * @param userOrdersPerSecond    per user across its sessions, unless its credentials set another.
     * @param userOrderBurst         per user.
     */
    public record RateLimits(
        @DefaultValue("100") long sessionOrdersPerSecond,
        @DefaultValue("200") long sessionOrderBurst,
        @DefaultValue("200") long userOrdersPerSecond,
        @DefaultValue("400") long userOrderBurst)
    {
    }

    /**
     * Logon protection.
     *
     * @param maxFailures    failed logons per address or user before it is throttled.
     * @param failureWindow  the window they count in, and how long the throttle lasts.
     * @param timestampSkew  how far an API-key logon's timestamp may be from the gateway's clock.
     */
    public record Logon(
        @DefaultValue("5") int maxFailures,
        @DefaultValue("60s") Duration failureWindow,
        @DefaultValue("30s") Duration timestampSkew)
    {
    }

    /**
     * The gateway's own WebSocket server for trading sessions, beside the web server's {@code /ws}: the same protocol
     * at the same path, served by one thread of the gateway's that writes the core's messages straight to the
     * sockets (docs/gateway.md, "Two WebSocket servers").
     *
     * @param port         where it listens; 0 for any free port, -1 for no such server.
     * @param address      the address it binds.
     * @param logonThreads threads that check logons' credentials (a password hash takes milliseconds).
     * @param thread       {@value #OWN_THREAD}: the server runs on a thread of its own; {@value #SESSION_CORE}: on the
     *                     session core's, with no hand-off between them (lower latency for up to a few hundred
     *                     sessions; one thread then carries all their traffic).
     */
    public record Trading(
        @DefaultValue("-1") int port,
        @DefaultValue("0.0.0.0") String address,
        @DefaultValue("2") int logonThreads,
        @DefaultValue(OWN_THREAD) String thread)
    {
        /** {@code thread}: a thread of its own. */
        public static final String OWN_THREAD = "own";
        /** {@code thread}: the session core's thread. */
        public static final String SESSION_CORE = "session-core";

        /**
         * Does the server run on the session core's thread?
         *
         * @return true for {@value #SESSION_CORE}, false for {@value #OWN_THREAD}.
         * @throws IllegalStateException naming the property when it is neither.
         */
        public boolean onSessionCore()
        {
            if (!OWN_THREAD.equals(thread) && !SESSION_CORE.equals(thread))
            {
                throw new IllegalStateException("warpbus.gateway.trading.thread is '" + thread + "': expected " +
                    OWN_THREAD + " or " + SESSION_CORE);
            }
            return SESSION_CORE.equals(thread);
        }
    }

    /**
     * Instrument limits at this gateway.
     *
     * @param defaultMaxQuantity largest order quantity in units.
     * @param maxQuantity        per symbol.
     * @param halted             symbols halted at start.
     * @param maxInstruments     instruments tracked.
     */
    public record Instruments(
        @DefaultValue("1000000") long defaultMaxQuantity,
        @DefaultValue Map<String, Long> maxQuantity,
        @DefaultValue List<String> halted,
        @DefaultValue("1024") int maxInstruments)
    {
    }
}
