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
 * Execution report types in events, with the codes of the order-entry schema's {@code ExecType}.
 */
public final class ExecTypes
{
    /** The order is accepted and live. */
    public static final byte NEW = 0;
    /** A fill, quantity left. */
    public static final byte PARTIALLY_FILLED = 1;
    /** The last fill. */
    public static final byte FILLED = 2;
    /** Cancelled, on request or by the engine (the reason says which). */
    public static final byte CANCELLED = 3;
    /** Price or quantity amended. */
    public static final byte REPLACED = 4;
    /** A new order refused. */
    public static final byte REJECTED = 5;
    /** A cancel refused. */
    public static final byte CANCEL_REJECTED = 6;
    /** A replace refused. */
    public static final byte REPLACE_REJECTED = 7;

    private ExecTypes()
    {
    }

    /**
     * Is it a refusal of a request?
     *
     * @param execType a type.
     * @return true for the three rejected types.
     */
    public static boolean isRejection(final byte execType)
    {
        return REJECTED == execType || CANCEL_REJECTED == execType || REPLACE_REJECTED == execType;
    }
}
