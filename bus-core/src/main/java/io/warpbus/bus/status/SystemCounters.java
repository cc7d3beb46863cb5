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

import java.util.EnumMap;
import java.util.Map;

import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

/**
 * All the {@link SystemCounterDescriptor} counters, allocated together from one {@link CountersManager} (in the
 * order of their ids, so that in a fresh file counter id equals descriptor id) and looked up by descriptor.
 * <p>
 * The counters are plain Agrona {@link AtomicCounter}s: use {@code increment()} / {@code getAndAdd()} where several
 * threads update a counter and the cheaper {@code incrementRelease()} / {@code getAndAddRelease()} where only one
 * does.
 */
public final class SystemCounters implements AutoCloseable
{
    private final Map<SystemCounterDescriptor, AtomicCounter> counters =
        new EnumMap<>(SystemCounterDescriptor.class);

    /**
     * Allocate every system counter.
     *
     * @param countersManager to allocate from, usually {@link CountersFile#countersManager()}.
     * @throws IllegalStateException when the counters manager is full; nothing stays allocated then.
     */
    public SystemCounters(final CountersManager countersManager)
    {
        try
        {
            for (final SystemCounterDescriptor descriptor : SystemCounterDescriptor.values())
            {
                counters.put(descriptor, descriptor.newCounter(countersManager));
            }
        }
        catch (final RuntimeException ex)
        {
            close();
            throw ex;
        }
    }

    /**
     * The counter for a descriptor.
     *
     * @param descriptor which counter.
     * @return its counter.
     */
    public AtomicCounter get(final SystemCounterDescriptor descriptor)
    {
        return counters.get(descriptor);
    }

    /**
     * Free the counters in their counters manager. Not needed when the whole {@link CountersFile} is closed; must
     * not be called after it is.
     */
    public void close()
    {
        for (final AtomicCounter counter : counters.values())
        {
            counter.close();
        }
    }
}
