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

import java.util.function.Consumer;

import org.agrona.collections.IntArrayList;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.Object2ObjectHashMap;

/**
 * The orders the gateway tracks, found by the engine's client order id (reports) and by session and client order
 * id (the client's cancels and replaces). A fixed pool, so steady state allocates nothing; an order leaves when it
 * is done (filled, cancelled, rejected). Owned by the session core's thread.
 */
final class OrderTable
{
    private final GatewayOrder[] pool;
    private final IntArrayList free;
    private final Long2ObjectHashMap<GatewayOrder> byEngineId;
    private final Object2ObjectHashMap<ClientOrderKey, GatewayOrder> byClientId;

    OrderTable(final int capacity)
    {
        pool = new GatewayOrder[capacity];
        free = new IntArrayList(capacity, -1);
        for (int i = capacity - 1; i >= 0; i--)
        {
            pool[i] = new GatewayOrder(i);
            free.addInt(i);
        }
        byEngineId = new Long2ObjectHashMap<>(2 * capacity, 0.65f);
        byClientId = new Object2ObjectHashMap<>(2 * capacity, 0.65f);
    }

    /**
     * Take an order from the pool for a session's client order id.
     *
     * @param key                 the session and client order id; copied.
     * @param engineClientOrderId the id the engine will know it by.
     * @return the order, cleared, or null when the pool is empty.
     */
    GatewayOrder add(final ClientOrderKey key, final long engineClientOrderId)
    {
        if (free.isEmpty())
        {
            return null;
        }
        final GatewayOrder order = pool[free.popInt()];
        order.clear();
        order.key.set(key);
        order.engineClientOrderId = engineClientOrderId;
        byEngineId.put(engineClientOrderId, order);
        byClientId.put(order.key, order);
        return order;
    }

    GatewayOrder byEngineId(final long engineClientOrderId)
    {
        return byEngineId.get(engineClientOrderId);
    }

    GatewayOrder byClientId(final ClientOrderKey key)
    {
        return byClientId.get(key);
    }

    /**
     * Return a done order to the pool.
     *
     * @param order the order.
     */
    void remove(final GatewayOrder order)
    {
        byEngineId.remove(order.engineClientOrderId);
        byClientId.remove(order.key);
        free.addInt(order.slot);
    }

    int size()
    {
        return pool.length - free.size();
    }

    int capacity()
    {
        return pool.length;
    }

    /**
     * Visit every tracked order (control path only: it goes through the map).
     *
     * @param visitor called for each.
     */
    void forEach(final Consumer<GatewayOrder> visitor)
    {
        for (final GatewayOrder order : pool)
        {
            if (0 != order.engineClientOrderId && byEngineId.get(order.engineClientOrderId) == order)
            {
                visitor.accept(order);
            }
        }
    }
}
