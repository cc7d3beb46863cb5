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
package io.warpbus.demo.service;

import java.nio.ByteBuffer;
import java.util.Arrays;

import io.warpbus.marketdata.sbe.BookUpdateEncoder;
import io.warpbus.marketdata.sbe.TradeEncoder;
import io.warpbus.marketdata.sbe.UpdateAction;
import io.warpbus.matching.BookAction;
import io.warpbus.matching.ExecType;
import io.warpbus.matching.MatchingEventListener;
import io.warpbus.matching.Side;
import io.warpbus.orderentry.RejectReason;
import io.warpbus.orderentry.sbe.ExecutionReportEncoder;
import io.warpbus.orderentry.sbe.MessageHeaderEncoder;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * Turns the matching core's events into messages as they happen, on the engine's thread, allocating nothing: an
 * {@code ExecutionReport} per execution on the report stream of the order's route, a market-data {@code Trade} per
 * trade, and the command's L2 level changes gathered into one {@code BookUpdate} per command, sent by
 * {@link #endCommand()}.
 * <p>
 * <b>Routing.</b> A report goes to the {@link ReportRoute} of its order's origin, the top 16 bits of the client
 * order id, so a gateway gets the reports of its own orders only, resting ones included. A rejection answers the
 * command being processed and goes back on the route that command came on (its id's origin may be anything), as
 * does anything whose origin has no route. With a drop-copy stream every report is also copied there.
 * <p>
 * Every report carries its route's {@code execId} (1, 2, 3... per route) and the {@code sendingTime} of the command
 * that caused it; every Trade and BookUpdate takes the next market-data sequence of its instrument. Quantities
 * leave in lots: the core's units divided by the instrument's lot size.
 * <p>
 * While {@link #replaying(boolean) replaying} the journal at start-up it publishes and counts nothing, but still
 * takes exec ids and market-data sequences, so that the service resumes numbering exactly where the journal left it.
 */
final class EngineOutput implements MatchingEventListener
{
    /**
     * Most levels in one BookUpdate; a command that changes more (a sweep) sends several.
     */
    static final int MAX_LEVELS_PER_UPDATE = 256;
    static final int MAX_DEPTH = 255;

    private final InstrumentTable instruments;
    private final ReportRoute[] routes;
    private final int[] routeByOrigin = new int[EngineContext.Route.MAX_ORIGIN + 1];
    private final OutboundStream dropCopy;
    private final OutboundStream marketData;
    private final AtomicCounter reportCounter;
    private final AtomicCounter tradeCounter;
    private final AtomicCounter rejectCounter;
    private final UnsafeBuffer marketDataBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(
        64 + MAX_LEVELS_PER_UPDATE * BookUpdateEncoder.LevelsEncoder.sbeBlockLength()));
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final ExecutionReportEncoder reportEncoder = new ExecutionReportEncoder();
    private final io.warpbus.marketdata.sbe.MessageHeaderEncoder mdHeaderEncoder =
        new io.warpbus.marketdata.sbe.MessageHeaderEncoder();
    private final TradeEncoder tradeEncoder = new TradeEncoder();
    private final BookUpdateEncoder bookUpdateEncoder = new BookUpdateEncoder();
    private final long[] levelPrices = new long[MAX_LEVELS_PER_UPDATE];
    private final long[] levelQuantities = new long[MAX_LEVELS_PER_UPDATE];
    private final int[] levelOrderCounts = new int[MAX_LEVELS_PER_UPDATE];
    private final int[] levelDepths = new int[MAX_LEVELS_PER_UPDATE];
    private final Side[] levelSides = new Side[MAX_LEVELS_PER_UPDATE];
    private final BookAction[] levelActions = new BookAction[MAX_LEVELS_PER_UPDATE];
    private int pendingLevels;
    private int pendingInstrumentId;
    private long pendingTimestampNs;
    private long sendingTime;
    private int currentRoute;
    private boolean replaying;

    @SuppressWarnings("checkstyle:parameternumber")
    EngineOutput(
        final InstrumentTable instruments,
        final ReportRoute[] routes,
        final OutboundStream dropCopy,
        final OutboundStream marketData,
        final AtomicCounter reportCounter,
        final AtomicCounter tradeCounter,
        final AtomicCounter rejectCounter)
    {
        this.instruments = instruments;
        this.routes = routes.clone();
        this.dropCopy = dropCopy;
        this.marketData = marketData;
        this.reportCounter = reportCounter;
        this.tradeCounter = tradeCounter;
        this.rejectCounter = rejectCounter;
        Arrays.fill(routeByOrigin, -1);
        for (int i = 0; i < routes.length; i++)
        {
            routeByOrigin[routes[i].origin()] = i;
        }
    }

    /**
     * The routes, in the service's order (the default route first).
     *
     * @return the routes; do not modify.
     */
    ReportRoute[] routes()
    {
        return routes;
    }

    /**
     * The index in {@link #routes()} of the route of an origin.
     *
     * @param origin 0 to 65535.
     * @return the index, or -1 when the origin has no route.
     */
    int routeIndex(final int origin)
    {
        return origin < 0 || origin >= routeByOrigin.length ? -1 : routeByOrigin[origin];
    }

    /**
     * The route of the command being processed.
     *
     * @return the route.
     */
    ReportRoute currentRoute()
    {
        return routes[currentRoute];
    }

    /**
     * Set the route the next commands came on.
     *
     * @param index of the route in {@link #routes()}.
     */
    void route(final int index)
    {
        currentRoute = index;
    }

    /**
     * Send the next batch of queued resend requests of every route.
     *
     * @param limit most reports to publish per route.
     * @return reports published.
     */
    int continueResend(final int limit)
    {
        int resent = 0;
        for (final ReportRoute route : routes)
        {
            resent += route.continueResend(limit);
        }
        return resent;
    }

    /**
     * Start a command: its reports will echo this sendingTime.
     */
    void beginCommand(final long sendingTime)
    {
        this.sendingTime = sendingTime;
    }

    /**
     * End a command: send its gathered level changes.
     */
    void endCommand()
    {
        flushLevels();
    }

    /**
     * Replay mode: take exec ids and sequences, publish and count nothing.
     */
    void replaying(final boolean replaying)
    {
        this.replaying = replaying;
    }

    boolean isReplaying()
    {
        return replaying;
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
        final long lotSize = instruments.lotSize(instrumentId);
        final ReportRoute route = routeOf(execType, clientOrderId);
        // Encoded straight into its history slot, and published from there.
        final int slot = route.claim();
        final MutableDirectBuffer history = route.history();
        reportEncoder.wrapAndApplyHeader(history, slot, headerEncoder)
            .accountId(accountId & 0xFFFF_FFFFL)
            .instrumentId(instrumentId & 0xFFFF_FFFFL)
            .execId(route.lastExecId())
            .orderId(orderId)
            .clientOrderId(clientOrderId)
            .execType(io.warpbus.orderentry.sbe.ExecType.get((short)execType.code()))
            .side(null == side ? io.warpbus.orderentry.sbe.Side.NULL_VAL :
                io.warpbus.orderentry.sbe.Side.get((short)side.code()))
            .reason(reason.code())
            .price(price)
            .orderQuantity(orderQuantity / lotSize)
            .lastPrice(lastPrice)
            .lastQuantity(lastQuantity / lotSize)
            .cumulativeQuantity(cumulativeQuantity / lotSize)
            .leavesQuantity(leavesQuantity / lotSize)
            .transactTime(timestampNs)
            .sendingTime(sendingTime);
        if (replaying)
        {
            return;
        }
        reportCounter.incrementRelease();
        if (isRejection(execType))
        {
            rejectCounter.incrementRelease();
        }
        route.publish(slot);
        if (null != dropCopy)
        {
            dropCopy.publish(history, slot, ReportRoute.REPORT_LENGTH);
        }
    }

    private ReportRoute routeOf(final ExecType execType, final long clientOrderId)
    {
        if (isRejection(execType))
        {
            return routes[currentRoute];
        }
        final int index = routeByOrigin[(int)(clientOrderId >>> 48)];
        return routes[-1 == index ? currentRoute : index];
    }

    private static boolean isRejection(final ExecType execType)
    {
        return ExecType.REJECTED == execType || ExecType.CANCEL_REJECTED == execType ||
            ExecType.REPLACE_REJECTED == execType;
    }

    @Override
    @SuppressWarnings("checkstyle:parameternumber")
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
        final int index = instruments.index(instrumentId);
        if (replaying)
        {
            instruments.nextSequence(index);
            return;
        }
        tradeEncoder.wrapAndApplyHeader(marketDataBuffer, 0, mdHeaderEncoder)
            .instrumentId(instrumentId & 0xFFFF_FFFFL)
            .sequence(instruments.nextSequence(index))
            .transactTime(timestampNs)
            .tradeId(tradeId)
            .price(price)
            .quantity(quantity / instruments.lotSize(instrumentId))
            .aggressorSide(io.warpbus.marketdata.sbe.Side.get((short)aggressorSide.code()));
        tradeCounter.incrementRelease();
        marketData.publish(marketDataBuffer, 0,
            io.warpbus.marketdata.sbe.MessageHeaderEncoder.ENCODED_LENGTH + tradeEncoder.encodedLength());
    }

    @Override
    @SuppressWarnings("checkstyle:parameternumber")
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
        if (pendingLevels > 0 && (pendingInstrumentId != instrumentId || MAX_LEVELS_PER_UPDATE == pendingLevels))
        {
            flushLevels();
        }
        final int i = pendingLevels++;
        pendingInstrumentId = instrumentId;
        pendingTimestampNs = timestampNs;
        levelPrices[i] = price;
        levelQuantities[i] = quantity;
        levelOrderCounts[i] = orderCount;
        levelDepths[i] = depth;
        levelSides[i] = side;
        levelActions[i] = action;
    }

    private void flushLevels()
    {
        final int count = pendingLevels;
        if (0 == count)
        {
            return;
        }
        pendingLevels = 0;

        final int instrumentId = pendingInstrumentId;
        if (replaying)
        {
            instruments.nextSequence(instruments.index(instrumentId));
            return;
        }
        final long lotSize = instruments.lotSize(instrumentId);
        bookUpdateEncoder.wrapAndApplyHeader(marketDataBuffer, 0, mdHeaderEncoder)
            .instrumentId(instrumentId & 0xFFFF_FFFFL)
            .sequence(instruments.nextSequence(instruments.index(instrumentId)))
            .transactTime(pendingTimestampNs);
        final BookUpdateEncoder.LevelsEncoder levels = bookUpdateEncoder.levelsCount(count);
        for (int i = 0; i < count; i++)
        {
            levels.next()
                .price(levelPrices[i])
                .quantity(levelQuantities[i] / lotSize)
                .orderCount(levelOrderCounts[i])
                .level((short)Math.max(1, Math.min(MAX_DEPTH, levelDepths[i])))
                .side(io.warpbus.marketdata.sbe.Side.get((short)levelSides[i].code()))
                .action(UpdateAction.get((short)levelActions[i].code()));
        }
        marketData.publish(marketDataBuffer, 0,
            io.warpbus.marketdata.sbe.MessageHeaderEncoder.ENCODED_LENGTH + bookUpdateEncoder.encodedLength());
    }
}
