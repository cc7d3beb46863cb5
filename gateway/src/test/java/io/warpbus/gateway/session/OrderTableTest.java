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

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OrderTableTest
{
    private static final int SESSIONS = 5;

    private final UnsafeBuffer field = new UnsafeBuffer(new byte[1 + ClientOrderKey.WIDTH]);
    private final ClientOrderKey key = new ClientOrderKey();
    private long nextEngineId = 1;

    @Test
    void shouldVisitExactlyASessionsLiveOrdersOldestFirstThroughRandomAddsAndRetirements()
    {
        final OrderTable table = new OrderTable(64, SESSIONS);
        final List<Map<Long, GatewayOrder>> model = new ArrayList<>();
        for (int i = 0; i < SESSIONS; i++)
        {
            model.add(new LinkedHashMap<>());
        }
        final Random random = new Random(3);
        for (int step = 0; step < 20_000; step++)
        {
            final int session = random.nextInt(SESSIONS);
            final Map<Long, GatewayOrder> expected = model.get(session);
            if (random.nextInt(100) < 55 && table.size() < table.capacity())
            {
                final long engineId = nextEngineId++;
                final GatewayOrder order = table.add(key(session, "c" + engineId), engineId);
                expected.put(engineId, order);
            }
            else if (!expected.isEmpty())
            {
                final List<Long> ids = new ArrayList<>(expected.keySet());
                final long victim = ids.get(random.nextInt(ids.size()));
                table.retire(expected.remove(victim));
            }
            for (int s = 0; s < SESSIONS; s++)
            {
                final List<Long> visited = new ArrayList<>();
                table.forEach(s, (order) -> visited.add(order.engineClientOrderId));
                assertEquals(new ArrayList<>(model.get(s).keySet()), visited, "session " + s + " at step " + step);
            }
        }
    }

    @Test
    void shouldFindARetiredOrderByItsEngineIdOnlyUntilItsSlotIsReusedOldestDoneFirst()
    {
        final OrderTable table = new OrderTable(3, SESSIONS);
        final GatewayOrder first = table.add(key(2, "abc"), 77);
        assertSame(first, table.byEngineId(77));
        assertSame(first, table.byClientId(key(2, "abc")));
        assertNull(table.byClientId(key(3, "abc")));

        table.retire(first);
        assertTrue(first.retired);
        assertSame(first, table.byEngineId(77), "a late answer still finds it");
        assertNull(table.byClientId(key(2, "abc")), "its client order id is free at once");
        assertEquals(0, table.size());
        final List<Long> visited = new ArrayList<>();
        table.forEach(2, (order) -> visited.add(order.engineClientOrderId));
        assertEquals(List.of(), visited, "no longer among its session's orders");

        // The two slots never used go first, then the retired order's: it is findable until then.
        final GatewayOrder reused = table.add(key(2, "abc"), 78);
        assertNotSame(first, reused);
        final GatewayOrder third = table.add(key(1, "x"), 79);
        assertSame(first, table.byEngineId(77));
        table.retire(reused);
        final GatewayOrder fourth = table.add(key(1, "y"), 80);
        assertSame(first, fourth, "the oldest retired slot is taken first");
        assertFalse(fourth.retired);
        assertNull(table.byEngineId(77), "gone once its slot holds another order");
        assertSame(reused, table.byEngineId(78));
        assertSame(reused, table.add(key(1, "z"), 81), "the next retired slot");
        assertNull(table.byEngineId(78));
        assertSame(third, table.byEngineId(79));
        assertEquals(3, table.size());
        assertNull(table.add(key(1, "w"), 82), "full: every slot holds a live order");
    }

    @Test
    void shouldVisitEveryOrderWhileTheVisitorRetiresTheOnesItIsGiven()
    {
        final OrderTable table = new OrderTable(16, SESSIONS);
        for (int i = 0; i < 6; i++)
        {
            table.add(key(i % 2, "r" + i), nextEngineId++);
        }
        final List<Long> visited = new ArrayList<>();
        table.forEach((order) ->
        {
            visited.add(order.engineClientOrderId);
            if (0 == order.engineClientOrderId % 2)
            {
                table.retire(order);
            }
        });
        assertEquals(List.of(1L, 3L, 5L, 2L, 4L, 6L), visited, "session 0's orders, then session 1's");
        final List<Long> left = new ArrayList<>();
        table.forEach((order) -> left.add(order.engineClientOrderId));
        assertEquals(List.of(1L, 3L, 5L), left);
        assertEquals(3, table.size());
    }

    private ClientOrderKey key(final int session, final String clientOrderId)
    {
        field.putByte(0, (byte)clientOrderId.length());
        field.putStringWithoutLengthAscii(1, clientOrderId);
        return key.set(session, field, 0);
    }
}
