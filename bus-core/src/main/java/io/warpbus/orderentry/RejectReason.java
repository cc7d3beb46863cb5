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
package io.warpbus.orderentry;

/**
 * Reason code of a rejected request or of a cancel the engine made on its own, as carried by the order-entry
 * schema's {@code reason} field and the gateway's rejects. Codes are stable, never reused, and grouped by range:
 * <ul>
 *     <li>0: none (an accepted request, a cancel the account asked for);</li>
 *     <li>1xx: validation, the request is malformed whatever the state of the book;</li>
 *     <li>2xx: pre-trade risk, the account's limits or the instrument's price band;</li>
 *     <li>3xx: state, the request does not fit the book or the order as they are now;</li>
 *     <li>4xx: the engine cancelled what was left of an accepted order;</li>
 *     <li>5xx: a gateway refused the request before it reached the engine.</li>
 * </ul>
 * Each reason has a short {@link #text()} for people, which gateways send with the code.
 */
public enum RejectReason
{
    /**
     * No reason: accepted, or cancelled because the account asked.
     */
    NONE(0, "none"),

    /**
     * No instrument with this id is defined.
     */
    UNKNOWN_INSTRUMENT(101, "unknown instrument"),

    /**
     * No account with this id is registered.
     */
    UNKNOWN_ACCOUNT(102, "unknown account"),

    /**
     * The side is missing.
     */
    INVALID_SIDE(103, "side missing or invalid"),

    /**
     * The order type is missing.
     */
    INVALID_ORDER_TYPE(104, "order type missing or invalid"),

    /**
     * The time in force is missing or does not go with the order type (a GTC market order, an IOC post-only order).
     */
    INVALID_TIME_IN_FORCE(105, "time in force missing or not allowed with this order type"),

    /**
     * The quantity is zero or negative.
     */
    INVALID_QUANTITY(106, "quantity must be above zero"),

    /**
     * The quantity is not a multiple of the instrument's lot size.
     */
    QUANTITY_OFF_LOT_SIZE(107, "quantity is not a multiple of the lot size"),

    /**
     * The price of a limit or post-only order is zero or negative.
     */
    INVALID_PRICE(108, "price must be above zero"),

    /**
     * The price is not a multiple of the instrument's tick size.
     */
    PRICE_OFF_TICK_GRID(109, "price is not a multiple of the tick size"),

    /**
     * The account already has a live order with this client order id.
     */
    DUPLICATE_CLIENT_ORDER_ID(110, "client order id already used by a live order"),

    /**
     * The client order id's origin (its top 16 bits) is not the one of the order-entry stream it came on: each
     * stream owns the ids of its origin, so that reports can be routed back to it.
     */
    WRONG_ORIGIN(111, "client order id outside this order stream's origin"),

    /**
     * The order quantity is above the account's maximum order quantity.
     */
    MAX_ORDER_QUANTITY_EXCEEDED(201, "quantity above the account's maximum order quantity"),

    /**
     * Price times the quantity that could still trade is above the account's maximum notional.
     */
    MAX_NOTIONAL_EXCEEDED(202, "notional above the account's maximum"),

    /**
     * The price is further from the instrument's last trade price than its price band allows.
     */
    PRICE_OUTSIDE_BAND(203, "price outside the instrument's price band"),

    /**
     * Filled completely, the order would take the account's net position in the instrument past its limit.
     */
    POSITION_LIMIT_EXCEEDED(204, "would exceed the account's position limit"),

    /**
     * The account has no live order with this client order id in this instrument.
     */
    UNKNOWN_ORDER(301, "no live order with this client order id"),

    /**
     * A post-only order, new or amended, would trade on arrival.
     */
    POST_ONLY_WOULD_CROSS(302, "post-only order would trade on arrival"),

    /**
     * A fill-or-kill order cannot trade its whole quantity now.
     */
    FOK_NOT_FILLABLE(303, "fill-or-kill order cannot be filled in full"),

    /**
     * An amended quantity is not above what the order has already traded.
     */
    QUANTITY_NOT_ABOVE_FILLED(304, "new quantity not above the quantity already filled"),

    /**
     * The instrument's book holds as many orders as it was sized for.
     */
    BOOK_FULL(305, "the instrument's book is full"),

    /**
     * The engine cancelled the unfilled remainder of a market or immediate-or-cancel order.
     */
    IMMEDIATE_REMAINDER(401, "unfilled remainder of an immediate order cancelled"),

    /**
     * The engine cancelled the order to stop the account trading with itself (self-trade prevention).
     */
    SELF_TRADE_PREVENTED(402, "cancelled to prevent a self-trade"),

    /**
     * The logged-on user may not trade this account.
     */
    NOT_ENTITLED(501, "account not entitled to this user"),

    /**
     * The session or the user sent requests faster than its rate limit allows.
     */
    RATE_LIMITED(502, "rate limit exceeded"),

    /**
     * The instrument is known but not trading (halted).
     */
    INSTRUMENT_HALTED(503, "instrument not trading"),

    /**
     * The quantity is outside the instrument's order quantity limits at the gateway.
     */
    QUANTITY_OUTSIDE_LIMITS(504, "quantity outside the instrument's limits"),

    /**
     * The gateway cannot reach the matching engine now (not connected, or its order stream is back-pressured).
     */
    ENGINE_UNAVAILABLE(505, "matching engine unavailable, try again"),

    /**
     * The session already has as many open orders as it may.
     */
    TOO_MANY_OPEN_ORDERS(506, "too many open orders in this session"),

    /**
     * The logged-on user has no role that lets it trade: its new orders, cancels and amends are all refused.
     */
    NO_TRADER_ROLE(507, "user has no trader role");

    private static final RejectReason[] BY_CODE = new RejectReason[600];

    static
    {
        for (final RejectReason reason : values())
        {
            BY_CODE[reason.code] = reason;
        }
    }

    private final int code;
    private final String text;

    RejectReason(final int code, final String text)
    {
        this.code = code;
        this.text = text;
    }

    /**
     * Stable numeric code, never reused.
     *
     * @return the code.
     */
    public int code()
    {
        return code;
    }

    /**
     * A short description for people, sent with the code by gateways.
     *
     * @return the text.
     */
    public String text()
    {
        return text;
    }

    /**
     * Look up a reason by its code without allocating.
     *
     * @param code as returned by {@link #code()}.
     * @return the reason, or {@code null} if the code is unknown.
     */
    public static RejectReason get(final int code)
    {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
