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
package io.warpbus.matching;

/**
 * Reason code of a rejected request or of a cancel the engine made on its own. Codes are stable, never reused, and
 * grouped by range:
 * <ul>
 *     <li>0: none (an accepted request, a cancel the account asked for);</li>
 *     <li>1xx: validation, the request is malformed whatever the state of the book;</li>
 *     <li>2xx: pre-trade risk, the account's limits or the instrument's price band;</li>
 *     <li>3xx: state, the request does not fit the book or the order as they are now;</li>
 *     <li>4xx: the engine cancelled what was left of an accepted order.</li>
 * </ul>
 */
public enum RejectReason
{
    /**
     * No reason: accepted, or cancelled because the account asked.
     */
    NONE(0),

    /**
     * No instrument with this id is defined.
     */
    UNKNOWN_INSTRUMENT(101),

    /**
     * No account with this id is registered.
     */
    UNKNOWN_ACCOUNT(102),

    /**
     * The side is missing.
     */
    INVALID_SIDE(103),

    /**
     * The order type is missing.
     */
    INVALID_ORDER_TYPE(104),

    /**
     * The time in force is missing or does not go with the order type (a GTC market order, an IOC post-only order).
     */
    INVALID_TIME_IN_FORCE(105),

    /**
     * The quantity is zero or negative.
     */
    INVALID_QUANTITY(106),

    /**
     * The quantity is not a multiple of the instrument's lot size.
     */
    QUANTITY_OFF_LOT_SIZE(107),

    /**
     * The price of a limit or post-only order is zero or negative.
     */
    INVALID_PRICE(108),

    /**
     * The price is not a multiple of the instrument's tick size.
     */
    PRICE_OFF_TICK_GRID(109),

    /**
     * The account already has a live order with this client order id.
     */
    DUPLICATE_CLIENT_ORDER_ID(110),

    /**
     * The order quantity is above the account's maximum order quantity.
     */
    MAX_ORDER_QUANTITY_EXCEEDED(201),

    /**
     * Price times the quantity that could still trade is above the account's maximum notional.
     */
    MAX_NOTIONAL_EXCEEDED(202),

    /**
     * The price is further from the instrument's last trade price than its price band allows.
     */
    PRICE_OUTSIDE_BAND(203),

    /**
     * Filled completely, the order would take the account's net position in the instrument past its limit.
     */
    POSITION_LIMIT_EXCEEDED(204),

    /**
     * The account has no live order with this client order id in this instrument.
     */
    UNKNOWN_ORDER(301),

    /**
     * A post-only order, new or amended, would trade on arrival.
     */
    POST_ONLY_WOULD_CROSS(302),

    /**
     * A fill-or-kill order cannot trade its whole quantity now.
     */
    FOK_NOT_FILLABLE(303),

    /**
     * An amended quantity is not above what the order has already traded.
     */
    QUANTITY_NOT_ABOVE_FILLED(304),

    /**
     * The instrument's book holds as many orders as it was sized for.
     */
    BOOK_FULL(305),

    /**
     * The engine cancelled the unfilled remainder of a market or immediate-or-cancel order.
     */
    IMMEDIATE_REMAINDER(401),

    /**
     * The engine cancelled the order to stop the account trading with itself (see {@link SelfTradePrevention}).
     */
    SELF_TRADE_PREVENTED(402);

    private static final RejectReason[] BY_CODE = new RejectReason[500];

    static
    {
        for (final RejectReason reason : values())
        {
            BY_CODE[reason.code] = reason;
        }
    }

    private final int code;

    RejectReason(final int code)
    {
        this.code = code;
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
