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
package io.warpbus.gateway.fix;

import java.util.Arrays;

/**
 * What a FIX session may do, set per session in configuration.
 */
public enum FixSessionType
{
    /** NewOrderSingle, OrderCancelRequest, OrderCancelReplaceRequest in; execution reports of its own orders out. */
    ORDER_ENTRY("order-entry"),
    /** Market data requests in, snapshots and increments out. */
    MARKET_DATA("market-data"),
    /** Nothing in but the session layer; a copy of every fill of the user's accounts out. */
    DROP_COPY("drop-copy");

    private final String label;

    FixSessionType(final String label)
    {
        this.label = label;
    }

    /**
     * The name in configuration.
     *
     * @return the label.
     */
    public String label()
    {
        return label;
    }

    /**
     * The type with this configuration name.
     *
     * @param label a label.
     * @return the type.
     * @throws IllegalArgumentException naming the labels allowed.
     */
    public static FixSessionType of(final String label)
    {
        for (final FixSessionType type : values())
        {
            if (type.label.equals(label))
            {
                return type;
            }
        }
        throw new IllegalArgumentException("FIX session type '" + label + "': it must be one of " +
            Arrays.stream(values()).map(FixSessionType::label).toList());
    }
}
