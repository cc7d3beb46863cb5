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

import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.Set;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SystemCountersTest
{
    @Test
    void shouldKeepTheStableIdsWrittenHere()
    {
        // These numbers are part of the counters file format: if this test fails, an id was changed. Don't.
        assertEquals(0, SystemCounterDescriptor.BYTES_SENT.id());
        assertEquals(1, SystemCounterDescriptor.BYTES_RECEIVED.id());
        assertEquals(2, SystemCounterDescriptor.MESSAGES_SENT.id());
        assertEquals(3, SystemCounterDescriptor.MESSAGES_RECEIVED.id());
        assertEquals(4, SystemCounterDescriptor.BACK_PRESSURE_EVENTS.id());
        assertEquals(5, SystemCounterDescriptor.SUBSCRIBER_DISCONNECTS.id());
        assertEquals(6, SystemCounterDescriptor.SLOW_CONSUMER_DROPS.id());
        assertEquals(7, SystemCounterDescriptor.GAPS_DETECTED.id());
        assertEquals(8, SystemCounterDescriptor.ERRORS.id());
        assertEquals(9, SystemCounterDescriptor.CONNECTIONS_ACCEPTED.id());
        assertEquals(10, SystemCounterDescriptor.CONNECT_RETRIES.id());
        assertEquals(11, SystemCounterDescriptor.HEARTBEATS_SENT.id());
        assertEquals(12, SystemCounterDescriptor.DUTY_CYCLE_MAX_NS.id());
        assertEquals(13, SystemCounterDescriptor.DUTY_CYCLE_STALLS.id());
        assertEquals(200, CounterTypeIds.SYSTEM_COUNTER);
    }

    @Test
    void shouldHaveUniqueIdsAndLabels()
    {
        final Set<Integer> ids = new HashSet<>();
        final Set<String> labels = new HashSet<>();
        for (final SystemCounterDescriptor descriptor : SystemCounterDescriptor.values())
        {
            assertTrue(ids.add(descriptor.id()), "duplicate id " + descriptor.id() + " of " + descriptor);
            assertTrue(labels.add(descriptor.label()), "duplicate label of " + descriptor);
            assertEquals(CounterTypeIds.SYSTEM_COUNTER, descriptor.typeId());
            assertSame(descriptor, SystemCounterDescriptor.find(descriptor.id()));
        }
        assertNull(SystemCounterDescriptor.find(-1));
        assertNull(SystemCounterDescriptor.find(10_000));
    }

    @Test
    void shouldAllocateEveryCounterWithLabelTypeAndKey()
    {
        final CountersManager manager = newCountersManager(64);
        final SystemCounters counters = new SystemCounters(manager);
        for (final SystemCounterDescriptor descriptor : SystemCounterDescriptor.values())
        {
            final AtomicCounter counter = counters.get(descriptor);
            assertEquals(descriptor.id(), counter.id(), "a fresh manager gives counter id == descriptor id");
            assertEquals(descriptor.label(), manager.getCounterLabel(counter.id()));
            assertEquals(CounterTypeIds.SYSTEM_COUNTER, manager.getCounterTypeId(counter.id()));
            assertEquals(descriptor.id(), manager.metaDataBuffer().getInt(
                CountersReader.metaDataOffset(counter.id()) + CountersReader.KEY_OFFSET));
        }

        counters.get(SystemCounterDescriptor.ERRORS).increment();
        assertEquals(1, manager.getCounterValue(SystemCounterDescriptor.ERRORS.id()));
        assertEquals(0, manager.getCounterValue(SystemCounterDescriptor.BYTES_SENT.id()));
    }

    @Test
    void shouldFreeTheCountersOnClose()
    {
        final CountersManager manager = newCountersManager(64);
        final SystemCounters counters = new SystemCounters(manager);
        assertEquals(SystemCounterDescriptor.values().length, allocated(manager));
        counters.close();
        assertEquals(0, allocated(manager));
    }

    @Test
    void shouldLeaveNothingAllocatedWhenTheManagerIsTooSmall()
    {
        final CountersManager manager = newCountersManager(5);
        assertThrows(IllegalStateException.class, () -> new SystemCounters(manager));
        assertEquals(0, allocated(manager));
    }

    static CountersManager newCountersManager(final int maxCounters)
    {
        return new CountersManager(
            new UnsafeBuffer(ByteBuffer.allocateDirect(maxCounters * CountersReader.METADATA_LENGTH)),
            new UnsafeBuffer(ByteBuffer.allocateDirect(maxCounters * CountersReader.COUNTER_LENGTH)));
    }

    private static int allocated(final CountersReader reader)
    {
        final int[] count = new int[1];
        reader.forEach((value, counterId, label) -> count[0]++);
        return count[0];
    }
}
