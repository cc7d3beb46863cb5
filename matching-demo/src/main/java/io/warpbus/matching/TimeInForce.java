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
 * How long an order stays in the book.
 */
public enum TimeInForce
{
    /**
     * Good till cancelled: the unfilled remainder rests in the book.
     */
    GTC(0),

    /**
     * Immediate or cancel: trades what it can on arrival; the remainder is cancelled.
     */
    IOC(1),

    /**
     * Fill or kill: trades its whole quantity on arrival or is rejected without touching the book.
     */
    FOK(2);

    private static final TimeInForce[] BY_CODE = { GTC, IOC, FOK };

    private final int code;

    TimeInForce(final int code)
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
     * Look up a time in force by its code without allocating.
     *
     * @param code as returned by {@link #code()}.
     * @return the time in force, or {@code null} if the code is unknown.
     */
    public static TimeInForce get(final int code)
    {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
