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

import io.warpbus.matching.BookAction;
import io.warpbus.matching.ExecType;
import io.warpbus.matching.MatchingEventListener;
import io.warpbus.matching.Side;
import io.warpbus.matching.book.StateHash;
import io.warpbus.matching.load.LoadGenerator;
import io.warpbus.orderentry.RejectReason;

/**
 * A listener that allocates nothing: counts events by kind and reason, folds every argument into a digest so two runs
 * can be compared, and optionally tells a {@link LoadGenerator} which orders are done.
 */
final class CountingListener implements MatchingEventListener
{
    final long[] execTypes = new long[ExecType.values().length];
    final long[] reasons = new long[500];
    long trades;
    long bookLevels;
    long digest = StateHash.SEED;
    private LoadGenerator feedback;

    CountingListener feedback(final LoadGenerator generator)
    {
        this.feedback = generator;
        return this;
    }

    long events()
    {
        long events = trades + bookLevels;
        for (final long count : execTypes)
        {
            events += count;
        }

        return events;
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
        execTypes[execType.code()]++;
        reasons[reason.code()]++;
        long hash = StateHash.mix(digest, instrumentId);
        hash = StateHash.mix(hash, orderId);
        hash = StateHash.mix(hash, clientOrderId);
        hash = StateHash.mix(hash, ((long)accountId << 32) | ((long)execType.code() << 16) | reason.code());
        hash = StateHash.mix(hash, null == side ? -1 : side.code());
        hash = StateHash.mix(hash, price);
        hash = StateHash.mix(hash, orderQuantity);
        hash = StateHash.mix(hash, lastPrice);
        hash = StateHash.mix(hash, lastQuantity);
        hash = StateHash.mix(hash, cumulativeQuantity);
        hash = StateHash.mix(hash, leavesQuantity);
        digest = StateHash.mix(hash, timestampNs);

        if (null != feedback && (ExecType.FILLED == execType || ExecType.CANCELLED == execType ||
            ExecType.REJECTED == execType))
        {
            feedback.onOrderDone(clientOrderId);
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
        trades++;
        long hash = StateHash.mix(digest, instrumentId);
        hash = StateHash.mix(hash, tradeId);
        hash = StateHash.mix(hash, price);
        hash = StateHash.mix(hash, quantity);
        hash = StateHash.mix(hash, aggressorSide.code());
        hash = StateHash.mix(hash, aggressorOrderId);
        hash = StateHash.mix(hash, restingOrderId);
        digest = StateHash.mix(hash, timestampNs);
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
        bookLevels++;
        long hash = StateHash.mix(digest, instrumentId);
        hash = StateHash.mix(hash, ((long)side.code() << 8) | action.code());
        hash = StateHash.mix(hash, price);
        hash = StateHash.mix(hash, quantity);
        hash = StateHash.mix(hash, ((long)orderCount << 32) | depth);
        digest = StateHash.mix(hash, timestampNs);
    }
}
