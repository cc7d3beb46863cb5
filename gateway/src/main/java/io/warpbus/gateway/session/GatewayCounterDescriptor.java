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

/**
 * The gateway's counters, allocated in its counters file with type id {@link #TYPE_ID} and the descriptor's
 * {@link #id()} as key, so that {@code warpbus stat} reads them from outside and Micrometer only reads them. Each
 * names the meter it is exported as ({@code warpbus.gateway...}) with an optional tag; ids are part of the file
 * format: never changed, never reused.
 */
public enum GatewayCounterDescriptor
{
    /** Sessions logged on and connected now (a gauge). */
    SESSIONS_CONNECTED(0, "sessions connected", "warpbus.gateway.sessions.connected", null, null),
    /** Sessions the gateway holds, connected or resumable (a gauge). */
    SESSIONS_HELD(1, "sessions held", "warpbus.gateway.sessions.held", null, null),
    /** Successful logons. */
    LOGONS(2, "logons", "warpbus.gateway.logons", null, null),
    /** Logons refused: unknown user. */
    LOGON_FAILED_UNKNOWN_USER(3, "logon failures: unknown user", "warpbus.gateway.logon.failures", "reason",
        "unknown_user"),
    /** Logons refused: wrong password. */
    LOGON_FAILED_BAD_PASSWORD(4, "logon failures: wrong password", "warpbus.gateway.logon.failures", "reason",
        "bad_password"),
    /** Logons refused: unknown API key. */
    LOGON_FAILED_UNKNOWN_KEY(5, "logon failures: unknown API key", "warpbus.gateway.logon.failures", "reason",
        "unknown_key"),
    /** Logons refused: bad signature. */
    LOGON_FAILED_BAD_SIGNATURE(6, "logon failures: bad signature", "warpbus.gateway.logon.failures", "reason",
        "bad_signature"),
    /** Logons refused: a nonce used before. */
    LOGON_FAILED_REPLAYED_NONCE(7, "logon failures: replayed nonce", "warpbus.gateway.logon.failures", "reason",
        "replayed_nonce"),
    /** Logons refused: timestamp outside the allowed window. */
    LOGON_FAILED_STALE_TIMESTAMP(8, "logon failures: stale timestamp", "warpbus.gateway.logon.failures", "reason",
        "stale_timestamp"),
    /** Logons refused: user blocked by an operator. */
    LOGON_FAILED_BLOCKED(9, "logon failures: user blocked", "warpbus.gateway.logon.failures", "reason", "blocked"),
    /** Logons refused: the session to resume is unknown, ended, or another user's, or the sequence is wrong. */
    LOGON_FAILED_RESUME(10, "logon failures: resume refused", "warpbus.gateway.logon.failures", "reason", "resume"),
    /** Logons refused: the gateway holds as many sessions as it may. */
    LOGON_FAILED_CAPACITY(11, "logon failures: no capacity", "warpbus.gateway.logon.failures", "reason",
        "capacity"),
    /** Logons refused without checking: too many recent failures from the address or for the user. */
    LOGONS_THROTTLED(12, "logons throttled", "warpbus.gateway.logons.throttled", null, null),
    /** Sessions ended because the client went silent. */
    HEARTBEAT_TIMEOUTS(13, "heartbeat timeouts", "warpbus.gateway.heartbeat.timeouts", null, null),
    /** Sessions ended by the client's logout. */
    LOGOUTS(14, "logouts", "warpbus.gateway.logouts", null, null),
    /** Connections closed because the client was too slow to read for too long. */
    SLOW_CONSUMER_DISCONNECTS(15, "slow consumer disconnects", "warpbus.gateway.slow.consumer.disconnects", null,
        null),
    /** Messages refused as malformed, unknown, too large or out of place. */
    PROTOCOL_ERRORS(16, "protocol errors", "warpbus.gateway.protocol.errors", null, null),
    /** Connections closed for repeated protocol errors. */
    ABUSE_DISCONNECTS(17, "abuse disconnects", "warpbus.gateway.abuse.disconnects", null, null),
    /** Orders refused by the session or user rate limit. */
    RATE_LIMIT_REJECTS(18, "rate limit rejects", "warpbus.gateway.rate.limit.rejects", null, null),
    /** Market-data updates not queued for a slow session, replaced by a later book. */
    CONFLATED_UPDATES(19, "conflated updates", "warpbus.gateway.conflated.updates", null, null),
    /** Orders, cancels and replaces sent to the engine. */
    ORDERS_SENT(20, "orders sent to the engine", "warpbus.gateway.orders.sent", null, null),
    /** Requests refused by the gateway itself (entitlement, limits, state). */
    GATEWAY_REJECTS(21, "gateway rejects", "warpbus.gateway.rejects", "by", "gateway"),
    /** Requests the engine refused. */
    ENGINE_REJECTS(22, "engine rejects", "warpbus.gateway.rejects", "by", "engine"),
    /** Execution reports received from the engine. */
    ENGINE_REPORTS(23, "engine execution reports", "warpbus.gateway.engine.reports", null, null),
    /** Execution reports the gateway could not route to an order it knows. */
    UNROUTABLE_REPORTS(24, "unroutable execution reports", "warpbus.gateway.unroutable.reports", null, null),
    /** Resend requests sent to the engine. */
    ENGINE_RESEND_REQUESTS(25, "engine resend requests", "warpbus.gateway.engine.resend.requests", null, null),
    /** Messages resent to resuming sessions. */
    RESENT_MESSAGES(26, "messages resent", "warpbus.gateway.resent.messages", null, null),
    /** Gaps in the engine's market data (an instrument resynchronised from a snapshot). */
    MARKET_DATA_GAPS(27, "market data gaps", "warpbus.gateway.market.data.gaps", null, null),
    /** Records appended to the session journal. */
    JOURNAL_RECORDS(28, "journal records", "warpbus.gateway.journal.records", null, null),
    /** Errors recorded in the distinct error log. */
    ERRORS(29, "errors", "warpbus.gateway.errors", null, null),
    /** Messages received, all kinds. */
    MESSAGES_IN(30, "messages in", "warpbus.gateway.messages.in", null, null),
    /** Messages sent, all kinds. */
    MESSAGES_OUT(31, "messages out", "warpbus.gateway.messages.out", null, null),
    /** Market-data messages sent. */
    MARKET_DATA_OUT(32, "market data messages out", "warpbus.gateway.market.data.out", null, null),
    /** Execution reports sent to sessions. */
    REPORTS_OUT(33, "execution reports out", "warpbus.gateway.reports.out", null, null),
    /** Orders the engine never received because the gateway died first, answered as rejected after a restart. */
    LOST_ORDERS(34, "orders lost in a restart", "warpbus.gateway.lost.orders", null, null),
    /** Sessions whose queue had no room for an execution report or reply, caught up from the journal. */
    CATCH_UPS(35, "sessions caught up from the journal", "warpbus.gateway.catch.ups", null, null),
    /** Fills copied to drop-copy sessions. */
    DROP_COPIES(36, "fills copied to drop-copy sessions", "warpbus.gateway.drop.copies", null, null);

    /** Type id of gateway counters in the counters file. */
    public static final int TYPE_ID = 400;

    private final int id;
    private final String label;
    private final String meterName;
    private final String tagKey;
    private final String tagValue;

    GatewayCounterDescriptor(final int id, final String label, final String meterName, final String tagKey,
        final String tagValue)
    {
        this.id = id;
        this.label = label;
        this.meterName = meterName;
        this.tagKey = tagKey;
        this.tagValue = tagValue;
    }

    /**
     * Stable id, the counter's key.
     *
     * @return the id.
     */
    public int id()
    {
        return id;
    }

    /**
     * Label in the counters file.
     *
     * @return the label.
     */
    public String label()
    {
        return label;
    }

    /**
     * Micrometer meter name.
     *
     * @return the name.
     */
    public String meterName()
    {
        return meterName;
    }

    /**
     * Tag key, or null for none.
     *
     * @return the key.
     */
    public String tagKey()
    {
        return tagKey;
    }

    /**
     * Tag value, or null for none.
     *
     * @return the value.
     */
    public String tagValue()
    {
        return tagValue;
    }

    /**
     * Is this counter a level (a gauge) rather than a running total?
     *
     * @return true for gauges.
     */
    public boolean isGauge()
    {
        return SESSIONS_CONNECTED == this || SESSIONS_HELD == this;
    }
}
