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

import io.warpbus.orderentry.RejectReason;

/**
 * Kind of an execution report: what happened to one order.
 */
public enum ExecType
{
    /**
     * The order was accepted. Every accepted order gets exactly one, before any fill.
     */
    NEW(0),

    /**
     * The order traded part of its quantity; some is left.
     */
    PARTIALLY_FILLED(1),

    /**
     * The order traded its last lot and is done.
     */
    FILLED(2),

    /**
     * The order is done with quantity left untraded: cancelled on request (reason {@link RejectReason#NONE}) or by
     * the engine (reason {@link RejectReason#IMMEDIATE_REMAINDER} or {@link RejectReason#SELF_TRADE_PREVENTED}).
     */
    CANCELLED(3),

    /**
     * The order's price or quantity was amended.
     */
    REPLACED(4),

    /**
     * A new order was refused; it never existed, so its order id is 0.
     */
    REJECTED(5),

    /**
     * A cancel request was refused; the order, if there is one, is untouched.
     */
    CANCEL_REJECTED(6),

    /**
     * A replace request was refused; the order, if there is one, is untouched.
     */
    REPLACE_REJECTED(7);

    private static final ExecType[] BY_CODE =
    {
        NEW, PARTIALLY_FILLED, FILLED, CANCELLED, REPLACED, REJECTED, CANCEL_REJECTED, REPLACE_REJECTED
    };

    private final int code;

    ExecType(final int code)
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
     * Is this a fill, partial or full?
     *
     * @return true for {@link #PARTIALLY_FILLED} and {@link #FILLED}.
     */
    public boolean isFill()
    {
        return PARTIALLY_FILLED == this || FILLED == this;
    }

    /**
     * Look up an exec type by its code without allocating.
     *
     * @param code as returned by {@link #code()}.
     * @return the exec type, or {@code null} if the code is unknown.
     */
    public static ExecType get(final int code)
    {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
