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

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.Set;

import io.warpbus.iwarp.RnicCounters;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StreamCountersTest
{
    private final CountersManager manager = SystemCountersTest.newCountersManager(32);

    @Test
    void shouldLabelAndKeyThePublisherCounters()
    {
        final AtomicCounter position = StreamCounters.publisherPosition(manager, 5, 1001, 42, "10.0.0.5:40456");
        final AtomicCounter limit = StreamCounters.publisherLimit(manager, 5, 1001, 42, "10.0.0.5:40456");

        assertEquals("pub-pos: stream=1001 session=42 endpoint=10.0.0.5:40456", position.label());
        assertEquals("pub-lmt: stream=1001 session=42 endpoint=10.0.0.5:40456", limit.label());
        assertEquals(CounterTypeIds.PUBLISHER_POSITION, manager.getCounterTypeId(position.id()));
        assertEquals(CounterTypeIds.PUBLISHER_LIMIT, manager.getCounterTypeId(limit.id()));
        assertKey(position, 5, 1001, 42, 0);
        assertKey(limit, 5, 1001, 42, 0);
        assertEquals(5, manager.getCounterRegistrationId(position.id()));
        assertEquals(position.id(), manager.findByTypeIdAndRegistrationId(CounterTypeIds.PUBLISHER_POSITION, 5));
        assertEquals(limit.id(), manager.findByTypeIdAndRegistrationId(CounterTypeIds.PUBLISHER_LIMIT, 5));
    }

    @Test
    void shouldNameTheSubscriberInItsCounters()
    {
        final AtomicCounter position = StreamCounters.subscriberPosition(
            manager, 5, 1001, 42, 3, "risk-engine@10.0.0.9:51000");
        final AtomicCounter lag = StreamCounters.subscriberLag(manager, 5, 1001, 42, 4, "10.0.0.10:51001");

        assertEquals("sub-pos: stream=1001 session=42 subscriber=3 name=risk-engine@10.0.0.9:51000", position.label());
        assertEquals("sub-lag: stream=1001 session=42 subscriber=4 name=10.0.0.10:51001", lag.label());
        assertEquals(CounterTypeIds.SUBSCRIBER_POSITION, manager.getCounterTypeId(position.id()));
        assertEquals(CounterTypeIds.SUBSCRIBER_LAG, manager.getCounterTypeId(lag.id()));
        assertKey(position, 5, 1001, 42, 3);
        assertKey(lag, 5, 1001, 42, 4);
        assertEquals(3, manager.getCounterReferenceId(position.id()));
        assertEquals(4, manager.getCounterReferenceId(lag.id()));
    }

    @Test
    void shouldLabelAndKeyTheImageAndStreamCounters()
    {
        final AtomicCounter image = StreamCounters.imagePosition(manager, 9, 2002, -7, "10.0.0.5:40456");
        assertEquals("img-pos: stream=2002 session=-7 source=10.0.0.5:40456", image.label());
        assertEquals(CounterTypeIds.IMAGE_POSITION, manager.getCounterTypeId(image.id()));
        assertKey(image, 9, 2002, -7, 0);

        final AtomicCounter messagesIn = StreamCounters.messagesIn(manager, 9, 2002, "0.0.0.0:40456");
        final AtomicCounter messagesOut = StreamCounters.messagesOut(manager, 10, 2002, "0.0.0.0:40457");
        final AtomicCounter bytesIn = StreamCounters.bytesIn(manager, 9, 2002, "0.0.0.0:40456");
        final AtomicCounter bytesOut = StreamCounters.bytesOut(manager, 10, 2002, "0.0.0.0:40457");
        assertEquals("msgs-in: stream=2002 endpoint=0.0.0.0:40456", messagesIn.label());
        assertEquals("msgs-out: stream=2002 endpoint=0.0.0.0:40457", messagesOut.label());
        assertEquals("bytes-in: stream=2002 endpoint=0.0.0.0:40456", bytesIn.label());
        assertEquals("bytes-out: stream=2002 endpoint=0.0.0.0:40457", bytesOut.label());
        assertEquals(CounterTypeIds.STREAM_MESSAGES_IN, manager.getCounterTypeId(messagesIn.id()));
        assertEquals(CounterTypeIds.STREAM_MESSAGES_OUT, manager.getCounterTypeId(messagesOut.id()));
        assertEquals(CounterTypeIds.STREAM_BYTES_IN, manager.getCounterTypeId(bytesIn.id()));
        assertEquals(CounterTypeIds.STREAM_BYTES_OUT, manager.getCounterTypeId(bytesOut.id()));
        assertKey(bytesOut, 10, 2002, 0, 0);
    }

    @Test
    void shouldTruncateOverlongLabels()
    {
        final String name = "x".repeat(1000);
        final AtomicCounter lag = StreamCounters.subscriberLag(manager, 1, 2, 3, 4, name);
        assertEquals(CountersReader.MAX_LABEL_LENGTH, lag.label().length());
        assertTrue(lag.label().startsWith("sub-lag: stream=2 session=3 subscriber=4 name=xxx"), lag.label());
    }

    @Test
    void shouldRejectAMissingEndpoint()
    {
        assertThrows(NullPointerException.class, () -> StreamCounters.publisherPosition(manager, 1, 2, 3, null));
        assertEquals(0, manager.capacity() - manager.available(), "nothing allocated");
    }

    @Test
    void shouldUseDistinctTypeIdsWithNames() throws IllegalAccessException
    {
        final Set<Integer> typeIds = new HashSet<>();
        for (final Field field : CounterTypeIds.class.getFields())
        {
            if (Modifier.isStatic(field.getModifiers()) && int.class == field.getType())
            {
                final int typeId = field.getInt(null);
                assertTrue(typeIds.add(typeId), "duplicate type id " + typeId + " of " + field.getName());
                assertTrue(typeId >= 200 && typeId < 300, field.getName() + " outside the bus's range");
                assertFalse(CounterTypeIds.name(typeId).startsWith("type-"), field.getName() + " has no name");
            }
        }
        assertEquals(12, typeIds.size());
        assertNotEquals(RnicCounters.TYPE_ID, CounterTypeIds.SYSTEM_COUNTER);
        assertEquals("rnic", CounterTypeIds.name(RnicCounters.TYPE_ID));
        assertEquals("pub-pos", CounterTypeIds.name(CounterTypeIds.PUBLISHER_POSITION));
        assertEquals("type-7", CounterTypeIds.name(7));
    }

    private void assertKey(
        final AtomicCounter counter,
        final long registrationId,
        final int streamId,
        final int sessionId,
        final long subscriberId)
    {
        final int keyOffset = CountersReader.metaDataOffset(counter.id()) + CountersReader.KEY_OFFSET;
        final DirectBuffer metadata = manager.metaDataBuffer();
        assertEquals(registrationId, metadata.getLong(keyOffset + StreamCounters.REGISTRATION_ID_KEY_OFFSET));
        assertEquals(streamId, metadata.getInt(keyOffset + StreamCounters.STREAM_ID_KEY_OFFSET));
        assertEquals(sessionId, metadata.getInt(keyOffset + StreamCounters.SESSION_ID_KEY_OFFSET));
        assertEquals(subscriberId, metadata.getLong(keyOffset + StreamCounters.SUBSCRIBER_ID_KEY_OFFSET));
    }
}
