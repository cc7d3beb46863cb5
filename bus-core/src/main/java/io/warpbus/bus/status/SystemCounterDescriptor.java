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

import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

/**
 * The bus-wide counters, allocated together by {@link SystemCounters} with type id
 * {@link CounterTypeIds#SYSTEM_COUNTER} and their {@link #id()} as key (an int at key offset 0).
 * <p>
 * The ids are part of the counters file format, read by tools in other processes and possibly other versions:
 * <b>an id is never changed and never reused</b>, even after its counter is removed. Add new counters at the end
 * with the next unused id; a retired counter's id stays retired (list it in a comment here).
 */
public enum SystemCounterDescriptor
{
    /** Payload bytes sent by all publications. */
    BYTES_SENT(0, "Bytes sent"),

    /** Payload bytes received by all subscriptions. */
    BYTES_RECEIVED(1, "Bytes received"),

    /** Messages sent by all publications. */
    MESSAGES_SENT(2, "Messages sent"),

    /** Messages received by all subscriptions. */
    MESSAGES_RECEIVED(3, "Messages received"),

    /** Offers refused because a publication was at its limit. */
    BACK_PRESSURE_EVENTS(4, "Back-pressure events"),

    /** Subscribers that went away, cleanly or not. */
    SUBSCRIBER_DISCONNECTS(5, "Subscriber disconnects"),

    /** Subscribers dropped for falling too far behind. */
    SLOW_CONSUMER_DROPS(6, "Slow consumer drops"),

    /** Gaps in a stream seen by a subscriber. */
    GAPS_DETECTED(7, "Gaps detected"),

    /** Errors recorded in the distinct error log; see {@link RecordingErrorHandler}. */
    ERRORS(8, "Errors"),

    /** Inbound connections accepted. */
    CONNECTIONS_ACCEPTED(9, "Connections accepted"),

    /** Outbound connection attempts retried. */
    CONNECT_RETRIES(10, "Connect retries"),

    /** Heartbeats sent to peers. */
    HEARTBEATS_SENT(11, "Heartbeats sent"),

    /** Longest duty cycle seen, in ns; see {@link DutyCycleTracker}. */
    DUTY_CYCLE_MAX_NS(12, "Duty cycle max time in ns"),

    /** Duty cycles longer than the stall threshold; see {@link DutyCycleTracker}. */
    DUTY_CYCLE_STALLS(13, "Duty cycle stalls over threshold");

    // Retired ids, never to be reused: none yet.

    private static final SystemCounterDescriptor[] BY_ID;

    static
    {
        final SystemCounterDescriptor[] values = values();
        int maxId = 0;
        for (final SystemCounterDescriptor descriptor : values)
        {
            maxId = Math.max(maxId, descriptor.id);
        }
        BY_ID = new SystemCounterDescriptor[maxId + 1];
        for (final SystemCounterDescriptor descriptor : values)
        {
            if (null != BY_ID[descriptor.id])
            {
                throw new IllegalStateException("duplicate system counter id " + descriptor.id + ": " +
                    BY_ID[descriptor.id] + " and " + descriptor);
            }
            BY_ID[descriptor.id] = descriptor;
        }
    }

    private final int id;
    private final String label;

    SystemCounterDescriptor(final int id, final String label)
    {
        if (id < 0)
        {
            throw new IllegalArgumentException("negative id " + id);
        }
        this.id = id;
        this.label = label;
    }

    /**
     * The stable id, stored as the counter's key.
     *
     * @return the id, never changed or reused.
     */
    public int id()
    {
        return id;
    }

    /**
     * The counter's label.
     *
     * @return a human-readable label.
     */
    public String label()
    {
        return label;
    }

    /**
     * The counter's type id.
     *
     * @return {@link CounterTypeIds#SYSTEM_COUNTER}.
     */
    public int typeId()
    {
        return CounterTypeIds.SYSTEM_COUNTER;
    }

    /**
     * The descriptor with an id.
     *
     * @param id a descriptor id, e.g. read from a counter's key.
     * @return the descriptor, or null when no descriptor has that id (e.g. a counter from a newer version).
     */
    public static SystemCounterDescriptor find(final int id)
    {
        return id >= 0 && id < BY_ID.length ? BY_ID[id] : null;
    }

    AtomicCounter newCounter(final CountersManager countersManager)
    {
        return countersManager.newCounter(label, CounterTypeIds.SYSTEM_COUNTER, (keyBuffer) -> keyBuffer.putInt(0, id));
    }
}
