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
package io.warpbus.bus.status;

import io.warpbus.iwarp.RnicCounters;

/**
 * Type ids of the counters the bus allocates, so readers such as the {@code warpbus stat} tool can group, sort and
 * interpret counters without relying on their labels or on counter ids (which depend on allocation order).
 * <p>
 * Ranges: {@code 0} is Agrona's default type id (counters allocated without a type); {@code 100} is the iWARP
 * engine's {@link RnicCounters#TYPE_ID}; {@code 200..299} belong to the bus and are defined here.
 * Like {@link SystemCounterDescriptor} ids, these values are part of the file format: never change or reuse one,
 * only add new ones.
 */
public final class CounterTypeIds
{
    /** Bus-wide counters of {@link SystemCounterDescriptor}; key: the descriptor id (int). */
    public static final int SYSTEM_COUNTER = 200;

    /** {@code pub-pos}: a publication's position, bytes appended. */
    public static final int PUBLISHER_POSITION = 201;

    /** {@code pub-lmt}: how far a publication may advance before it is back-pressured. */
    public static final int PUBLISHER_LIMIT = 202;

    /** {@code sub-pos}: one subscriber's position as seen by the publisher. */
    public static final int SUBSCRIBER_POSITION = 203;

    /** {@code sub-lag}: how far one subscriber is behind the publisher, in bytes. */
    public static final int SUBSCRIBER_LAG = 204;

    /** {@code img-pos}: a subscription's image (one publisher session) position. */
    public static final int IMAGE_POSITION = 205;

    /** {@code msgs-in}: messages received on a stream. */
    public static final int STREAM_MESSAGES_IN = 206;

    /** {@code msgs-out}: messages sent on a stream. */
    public static final int STREAM_MESSAGES_OUT = 207;

    /** {@code bytes-in}: payload bytes received on a stream. */
    public static final int STREAM_BYTES_IN = 208;

    /** {@code bytes-out}: payload bytes sent on a stream. */
    public static final int STREAM_BYTES_OUT = 209;

    /** {@code back-pressure}: offers of one publication refused at its limit. */
    public static final int BACK_PRESSURE = 210;

    /** {@code gaps}: gaps one subscription has seen. */
    public static final int GAPS = 211;

    private CounterTypeIds()
    {
    }

    /**
     * A short name for a type id, for display.
     *
     * @param typeId of a counter.
     * @return its name, such as {@code "pub-pos"} or {@code "system"}, or {@code "type-<id>"} when unknown.
     */
    public static String name(final int typeId)
    {
        switch (typeId)
        {
            case SYSTEM_COUNTER:
                return "system";
            case PUBLISHER_POSITION:
                return StreamCounters.PUBLISHER_POSITION_NAME;
            case PUBLISHER_LIMIT:
                return StreamCounters.PUBLISHER_LIMIT_NAME;
            case SUBSCRIBER_POSITION:
                return StreamCounters.SUBSCRIBER_POSITION_NAME;
            case SUBSCRIBER_LAG:
                return StreamCounters.SUBSCRIBER_LAG_NAME;
            case IMAGE_POSITION:
                return StreamCounters.IMAGE_POSITION_NAME;
            case STREAM_MESSAGES_IN:
                return StreamCounters.MESSAGES_IN_NAME;
            case STREAM_MESSAGES_OUT:
                return StreamCounters.MESSAGES_OUT_NAME;
            case STREAM_BYTES_IN:
                return StreamCounters.BYTES_IN_NAME;
            case STREAM_BYTES_OUT:
                return StreamCounters.BYTES_OUT_NAME;
            case BACK_PRESSURE:
                return "back-pressure";
            case GAPS:
                return "gaps";
            case RnicCounters.TYPE_ID:
                return "rnic";
            default:
                return "type-" + typeId;
        }
    }
}
