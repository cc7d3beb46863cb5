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

import java.util.Arrays;
import java.util.function.Consumer;

import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.Object2ObjectHashMap;

/**
 * The orders the gateway tracks, found by the engine's client order id (reports) and by session and client order
 * id (the client's cancels and replaces). A fixed pool, so steady state allocates nothing; an order leaves when it
 * is done (filled, cancelled, rejected). A done order is <em>retired</em>: its client order id and place in its
 * session are freed at once, but the engine's id still finds it until its slot is reused, oldest done first, so the
 * engine's answer to a cancel or replace that crossed the order's end still reaches the session. Owned by the
 * session core's thread.
 */
final class OrderTable
{
    private final GatewayOrder[] pool;
    /** Slots to take, oldest first: those never used, then retired orders in the order they were done. */
    private final int[] reusable;
    private int reusableHead;
    private int reusableCount;
    private final Long2ObjectHashMap<GatewayOrder> byEngineId;
    private final Object2ObjectHashMap<ClientOrderKey, GatewayOrder> byClientId;
    private final int[] firstOfSession;
    private final int[] lastOfSession;

    OrderTable(final int capacity, final int maxSessions)
    {
        firstOfSession = new int[maxSessions];
        Arrays.fill(firstOfSession, -1);
        lastOfSession = firstOfSession.clone();
        pool = new GatewayOrder[capacity];
        reusable = new int[capacity];
        for (int i = 0; i < capacity; i++)
        {
            pool[i] = new GatewayOrder(i);
            reusable[i] = i;
        }
        reusableCount = capacity;
        byEngineId = new Long2ObjectHashMap<>(2 * capacity, 0.65f);
        byClientId = new Object2ObjectHashMap<>(2 * capacity, 0.65f);
    }

    /**
     * Take an order from the pool for a session's client order id.
     *
     * @param key                 the session and client order id; copied.
     * @param engineClientOrderId the id the engine will know it by.
     * @return the order, cleared, or null when every slot holds a live order.
     */
    GatewayOrder add(final ClientOrderKey key, final long engineClientOrderId)
    {
        if (0 == reusableCount)
        {
            return null;
        }
        final GatewayOrder order = pool[reusable[reusableHead]];
        reusableHead = reusableHead + 1 == reusable.length ? 0 : reusableHead + 1;
        reusableCount--;
        if (order.retired)
        {
            byEngineId.remove(order.engineClientOrderId);
        }
        order.clear();
        order.key.set(key);
        order.engineClientOrderId = engineClientOrderId;
        byEngineId.put(engineClientOrderId, order);
        byClientId.put(order.key, order);
        final int session = order.session();
        final int last = lastOfSession[session];
        order.previousInSession = last;
        order.nextInSession = -1;
        if (-1 == last)
        {
            firstOfSession[session] = order.slot;
        }
        else
        {
            pool[last].nextInSession = order.slot;
        }
        lastOfSession[session] = order.slot;
        return order;
    }

    /**
     * An order by the engine's id for it: a live order, or a retired one whose slot has not been reused yet.
     *
     * @param engineClientOrderId the id.
     * @return the order, or null.
     */
    GatewayOrder byEngineId(final long engineClientOrderId)
    {
        return byEngineId.get(engineClientOrderId);
    }

    GatewayOrder byClientId(final ClientOrderKey key)
    {
        return byClientId.get(key);
    }

    /**
     * Retire a done order: its client order id and its place in its session go at once, its slot joins the end of
     * the queue of slots to reuse, and until then {@link #byEngineId(long)} still finds it.
     *
     * @param order a live order.
     */
    void retire(final GatewayOrder order)
    {
        byClientId.remove(order.key);
        if (-1 == order.previousInSession)
        {
            firstOfSession[order.session()] = order.nextInSession;
        }
        else
        {
            pool[order.previousInSession].nextInSession = order.nextInSession;
        }
        if (-1 == order.nextInSession)
        {
            lastOfSession[order.session()] = order.previousInSession;
        }
        else
        {
            pool[order.nextInSession].previousInSession = order.previousInSession;
        }
        order.previousInSession = -1;
        order.nextInSession = -1;
        order.retired = true;
        final int tail = reusableHead + reusableCount;
        reusable[tail >= reusable.length ? tail - reusable.length : tail] = order.slot;
        reusableCount++;
    }

    /**
     * Live orders.
     *
     * @return how many.
     */
    int size()
    {
        return pool.length - reusableCount;
    }

    int capacity()
    {
        return pool.length;
    }

    /**
     * Visit the tracked orders of one session index (those of an earlier session that had the same index included),
     * oldest first, walking that session's list rather than the pool: a logout or a disconnect costs in proportion
     * to the session's orders, not to the table's capacity. The visitor may retire the order it is given (a
     * recovered order found lost), but must not add orders or retire others.
     *
     * @param session the session index.
     * @param visitor called for each.
     */
    void forEach(final int session, final Consumer<GatewayOrder> visitor)
    {
        for (int slot = firstOfSession[session]; -1 != slot; )
        {
            final GatewayOrder order = pool[slot];
            slot = order.nextInSession;
            visitor.accept(order);
        }
    }

    /**
     * Visit every tracked order, session by session (control path only), with the rules of
     * {@link #forEach(int, Consumer)}.
     *
     * @param visitor called for each.
     */
    void forEach(final Consumer<GatewayOrder> visitor)
    {
        for (int session = 0; session < firstOfSession.length; session++)
        {
            forEach(session, visitor);
        }
    }
}
