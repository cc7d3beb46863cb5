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

import java.util.ArrayList;
import java.util.List;

import io.warpbus.matching.BookAction;
import io.warpbus.matching.ExecType;
import io.warpbus.matching.MatchingEventListener;
import io.warpbus.matching.Side;
import io.warpbus.orderentry.RejectReason;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Records every event as one readable line, and checks each carries the timestamp of the command being run.
 * <pre>
 *   NEW o1 c1 a1 BUY 10@100 last 0@0 cum 0 leaves 10 [reason]
 *   TRADE t1 4@100 SELL aggressor o2 resting o1
 *   L2 BUY ADD 100 qty 10 n 1 d 1
 * </pre>
 */
final class EventLog implements MatchingEventListener
{
    private final List<String> events = new ArrayList<>();
    private final List<MatchingEventListener> taps = new ArrayList<>();
    private long expectedTimestampNs = Long.MIN_VALUE;

    /**
     * Every event from now on must carry this timestamp.
     */
    void expectTimestampNs(final long timestampNs)
    {
        expectedTimestampNs = timestampNs;
    }

    /**
     * Also pass every event to another listener, after recording it.
     */
    EventLog tap(final MatchingEventListener listener)
    {
        taps.add(listener);
        return this;
    }

    List<String> drain()
    {
        final List<String> drained = new ArrayList<>(events);
        events.clear();
        return drained;
    }

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
        checkTimestamp(timestampNs);
        events.add(execType + " o" + orderId + " c" + clientOrderId + " a" + accountId + instrumentTag(instrumentId) +
            " " + side + " " + orderQuantity + "@" + price + " last " + lastQuantity + "@" + lastPrice + " cum " +
            cumulativeQuantity + " leaves " + leavesQuantity + (RejectReason.NONE == reason ? "" : " " + reason));
        for (final MatchingEventListener tap : taps)
        {
            tap.onExecution(
                instrumentId, orderId, clientOrderId, accountId, side, execType, reason, price, orderQuantity,
                lastPrice, lastQuantity, cumulativeQuantity, leavesQuantity, timestampNs);
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
        checkTimestamp(timestampNs);
        events.add("TRADE t" + tradeId + instrumentTag(instrumentId) + " " + quantity + "@" + price + " " +
            aggressorSide + " aggressor o" + aggressorOrderId + " resting o" + restingOrderId);
        for (final MatchingEventListener tap : taps)
        {
            tap.onTrade(
                instrumentId, tradeId, price, quantity, aggressorSide, aggressorOrderId, restingOrderId, timestampNs);
        }
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
        checkTimestamp(timestampNs);
        events.add("L2" + instrumentTag(instrumentId) + " " + side + " " + action + " " + price + " qty " + quantity +
            " n " + orderCount + " d " + depth);
        for (final MatchingEventListener tap : taps)
        {
            tap.onBookLevel(instrumentId, side, action, price, quantity, orderCount, depth, timestampNs);
        }
    }

    /**
     * Instrument 1 is the default and left out of the line to keep hand-written expectations short.
     */
    private static String instrumentTag(final int instrumentId)
    {
        return 1 == instrumentId ? "" : " i" + instrumentId;
    }

    private void checkTimestamp(final long timestampNs)
    {
        if (Long.MIN_VALUE != expectedTimestampNs)
        {
            assertEquals(expectedTimestampNs, timestampNs, "event timestamp");
        }
    }
}
