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
 * What an order does when it arrives. Combined with a {@link TimeInForce}: {@link #LIMIT} takes any, {@link #MARKET}
 * takes {@link TimeInForce#IOC} or {@link TimeInForce#FOK}, {@link #POST_ONLY} takes {@link TimeInForce#GTC} only.
 */
public enum OrderType
{
    /**
     * Trades at its limit price or better; what is left rests or is cancelled according to its time in force.
     */
    LIMIT(0),

    /**
     * Trades at whatever the book offers, protected by the instrument's price band: it never trades further from the
     * last trade price than the band allows. What is left is cancelled. Its price argument is ignored.
     */
    MARKET(1),

    /**
     * A limit order that only ever adds liquidity: rejected if it would trade on arrival, otherwise it rests.
     */
    POST_ONLY(2);

    private static final OrderType[] BY_CODE = { LIMIT, MARKET, POST_ONLY };

    private final int code;

    OrderType(final int code)
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
     * Look up an order type by its code without allocating.
     *
     * @param code as returned by {@link #code()}.
     * @return the order type, or {@code null} if the code is unknown.
     */
    public static OrderType get(final int code)
    {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
