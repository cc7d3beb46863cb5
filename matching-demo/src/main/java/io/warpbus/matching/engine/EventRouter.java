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
import io.warpbus.orderentry.RejectReason;
import org.agrona.collections.Int2ObjectHashMap;

/**
 * Sits between the books and the application's listener: keeps the accounts' live orders and positions in step with
 * the execution reports the books emit, then passes every event on unchanged.
 * <p>
 * All events of one book call belong to one instrument, so the engine sets {@link #instrumentIndex(int)} before each
 * call instead of the router looking the instrument up per event.
 */
final class EventRouter implements MatchingEventListener
{
    private final Int2ObjectHashMap<Account> accounts;
    private final MatchingEventListener listener;
    private int instrumentIndex;

    EventRouter(final Int2ObjectHashMap<Account> accounts, final MatchingEventListener listener)
    {
        this.accounts = accounts;
        this.listener = listener;
    }

    void instrumentIndex(final int instrumentIndex)
    {
        this.instrumentIndex = instrumentIndex;
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
        final Account account = accounts.get(accountId);
        if (ExecType.NEW == execType)
        {
            account.onLive(clientOrderId, orderId);
        }
        else if (ExecType.FILLED == execType || ExecType.CANCELLED == execType)
        {
            account.onDone(clientOrderId);
        }
        if (execType.isFill())
        {
            account.addPosition(instrumentIndex, Side.BUY == side ? lastQuantity : -lastQuantity);
        }

        listener.onExecution(
            instrumentId, orderId, clientOrderId, accountId, side, execType, reason, price, orderQuantity, lastPrice,
            lastQuantity, cumulativeQuantity, leavesQuantity, timestampNs);
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
        listener.onTrade(
            instrumentId, tradeId, price, quantity, aggressorSide, aggressorOrderId, restingOrderId, timestampNs);
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
        listener.onBookLevel(instrumentId, side, action, price, quantity, orderCount, depth, timestampNs);
    }
}
