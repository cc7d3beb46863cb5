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
 * Side of an order, a book or a trade's aggressor. The codes equal the values of the market-data schema's
 * {@code Side} enum, so an encoder can write {@link #code()} straight into the message.
 */
public enum Side
{
    /**
     * Bid: wants to buy.
     */
    BUY(0),

    /**
     * Ask, offer: wants to sell.
     */
    SELL(1);

    private static final Side[] BY_CODE = { BUY, SELL };

    private final int code;

    Side(final int code)
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
     * The other side of the book.
     *
     * @return {@link #SELL} for {@link #BUY} and the other way round.
     */
    public Side opposite()
    {
        return BUY == this ? SELL : BUY;
    }

    /**
     * Look up a side by its code without allocating.
     *
     * @param code as returned by {@link #code()}.
     * @return the side, or {@code null} if the code is unknown.
     */
    public static Side get(final int code)
    {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
