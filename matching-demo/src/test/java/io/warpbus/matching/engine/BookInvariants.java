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
package io.warpbus.matching.engine;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

import io.warpbus.matching.BookAction;
import io.warpbus.matching.ExecType;
import io.warpbus.matching.MatchingEventListener;
import io.warpbus.matching.Side;
import io.warpbus.matching.book.OrderBook;
import io.warpbus.orderentry.RejectReason;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Checks what must hold after every command, from the events alone and against the books:
 * <ul>
 *     <li>no book is crossed at rest;</li>
 *     <li>an L2 book rebuilt only from level events (each event consistent with it: add only a new price, change or
 *     delete only a known one, the depth right) equals the levels of the real book;</li>
 *     <li>per order, filled + resting + cancelled == submitted, with increases of an amendment counted as submitted
 *     and decreases as cancelled, and every report's cumulative and leaves quantities agree;</li>
 *     <li>trade ids run 1, 2, 3 per instrument and positions net to zero per instrument.</li>
 * </ul>
 */
final class BookInvariants implements MatchingEventListener
{
    private final Map<Integer, TreeMap<Long, long[]>> bids = new HashMap<>();
    private final Map<Integer, TreeMap<Long, long[]>> asks = new HashMap<>();
    private final Map<Long, long[]> ledger = new HashMap<>();
    private final Map<Integer, Long> lastTradeIds = new HashMap<>();

    private static final int SUBMITTED = 0;
    private static final int FILLED = 1;
    private static final int CANCELLED = 2;
    private static final int ORDER_QUANTITY = 3;
    private static final int INSTRUMENT = 4;

    @Override
    @SuppressWarnings("checkstyle:parameternumber")
    public void onExecution(
        final int instrumentId,
        final long orderId,
        final long clientOrderId,
        final int accountId,
        final Side side,
        final ExecType execType,
        final RejectReason reason,
        final long price,
        final long orderQuantity,
        final long lastPrice,
        final long lastQuantity,
        final long cumulativeQuantity,
        final long leavesQuantity,
        final long timestampNs)
    {
        if (ExecType.REJECTED == execType || ExecType.CANCEL_REJECTED == execType ||
            ExecType.REPLACE_REJECTED == execType)
        {
            return;
        }

        if (ExecType.NEW == execType)
        {
            assertNull(ledger.get(orderId), "order id reused: " + orderId);
            ledger.put(orderId, new long[]{ orderQuantity, 0, 0, orderQuantity, instrumentId });
        }
        final long[] order = ledger.get(orderId);
        assertNotNull(order, "report for an order never reported NEW: " + orderId);

        if (execType.isFill())
        {
            order[FILLED] += lastQuantity;
            assertTrue(lastQuantity > 0, "fill of nothing");
        }
        else if (ExecType.REPLACED == execType)
        {
            final long delta = orderQuantity - order[ORDER_QUANTITY];
            order[delta > 0 ? SUBMITTED : CANCELLED] += Math.abs(delta);
            order[ORDER_QUANTITY] = orderQuantity;
        }
        else if (ExecType.CANCELLED == execType)
        {
            order[CANCELLED] += order[ORDER_QUANTITY] - order[FILLED];
            assertEquals(0, leavesQuantity, "leaves of a cancelled order");
        }

        assertEquals(order[FILLED], cumulativeQuantity, "cumulative quantity of order " + orderId);
        if (ExecType.CANCELLED != execType)
        {
            assertEquals(orderQuantity - cumulativeQuantity, leavesQuantity, "leaves of order " + orderId);
        }
    }

    @Override
    public void onTrade(
        final int instrumentId,
        final long tradeId,
        final long price,
        final long quantity,
        final Side aggressorSide,
        final long aggressorOrderId,
        final long restingOrderId,
        final long timestampNs)
    {
        final long expected = lastTradeIds.getOrDefault(instrumentId, 0L) + 1;
        assertEquals(expected, tradeId, "trade id");
        lastTradeIds.put(instrumentId, tradeId);
        assertTrue(quantity > 0, "trade of nothing");
    }

    @Override
    public void onBookLevel(
        final int instrumentId,
        final Side side,
        final BookAction action,
        final long price,
        final long quantity,
        final int orderCount,
        final int depth,
        final long timestampNs)
    {
        final TreeMap<Long, long[]> levels = levels(instrumentId, side);
        final int expectedDepth = 1 + (Side.BUY == side ? levels.tailMap(price, false) : levels.headMap(price)).size();
        assertEquals(expectedDepth, depth, action + " depth at " + price);
        switch (action)
        {
            case ADD:
                assertFalse(levels.containsKey(price), "add of an existing level " + price);
                levels.put(price, new long[]{ quantity, orderCount });
                break;
            case CHANGE:
                assertTrue(levels.containsKey(price), "change of a missing level " + price);
                levels.put(price, new long[]{ quantity, orderCount });
                break;
            default:
                assertTrue(levels.containsKey(price), "delete of a missing level " + price);
                assertEquals(0, quantity);
                assertEquals(0, orderCount);
                levels.remove(price);
                break;
        }
        assertTrue(BookAction.DELETE == action || (quantity > 0 && orderCount > 0), "empty level " + price);
    }

    void check(final MatchingEngine engine)
    {
        for (final int instrumentId : new int[]{ TestEngines.ONE.id(), TestEngines.TWO.id() })
        {
            final OrderBook book = engine.book(instrumentId);
            final long bestBid = book.bestPrice(Side.BUY);
            final long bestAsk = book.bestPrice(Side.SELL);
            assertTrue(OrderBook.NULL_PRICE == bestBid || OrderBook.NULL_PRICE == bestAsk || bestBid < bestAsk,
                "crossed book " + bestBid + " / " + bestAsk);

            final Map<Side, TreeMap<Long, long[]>> actual = new HashMap<>();
            actual.put(Side.BUY, new TreeMap<>());
            actual.put(Side.SELL, new TreeMap<>());
            book.forEachOrder((orderId, clientOrderId, accountId, side, type, price, quantity, filled) ->
            {
                final long[] level = actual.get(side).computeIfAbsent(price, p -> new long[2]);
                level[0] += quantity - filled;
                level[1]++;
            });
            for (final Side side : Side.values())
            {
                assertEquals(describe(actual.get(side)), describe(levels(instrumentId, side)),
                    "L2 from events vs book, " + side + " of instrument " + instrumentId);
                assertEquals(actual.get(side).size(), book.levelCount(side), "level count");
            }

            long netPosition = 0;
            for (final int accountId : new int[]{ 1, 2, 3, 4, TestEngines.TIGHT_ACCOUNT })
            {
                netPosition += engine.position(accountId, instrumentId);
            }
            assertEquals(0, netPosition, "positions of instrument " + instrumentId + " do not net to zero");
        }

        final Iterator<Map.Entry<Long, long[]>> orders = ledger.entrySet().iterator();
        while (orders.hasNext())
        {
            final Map.Entry<Long, long[]> entry = orders.next();
            final long[] order = entry.getValue();
            final OrderBook book = engine.book((int)order[INSTRUMENT]);
            final long orderId = entry.getKey();
            final long resting = book.orderQuantity(orderId) - book.orderFilledQuantity(orderId);
            assertEquals(order[SUBMITTED], order[FILLED] + resting + order[CANCELLED],
                "quantity not conserved for order " + orderId);
            if (!book.containsOrder(orderId))
            {
                orders.remove();
            }
        }
    }

    private TreeMap<Long, long[]> levels(final int instrumentId, final Side side)
    {
        return (Side.BUY == side ? bids : asks).computeIfAbsent(instrumentId, id -> new TreeMap<>());
    }

    private static String describe(final TreeMap<Long, long[]> levels)
    {
        final StringBuilder builder = new StringBuilder();
        for (final Map.Entry<Long, long[]> level : levels.entrySet())
        {
            builder.append(level.getKey()).append(':').append(level.getValue()[0]).append('/')
                .append(level.getValue()[1]).append(' ');
        }

        return builder.toString();
    }
}
