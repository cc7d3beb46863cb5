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
package io.warpbus.demo.engine;

import java.nio.ByteBuffer;

import io.warpbus.marketdata.sbe.BookUpdateEncoder;
import io.warpbus.marketdata.sbe.TradeEncoder;
import io.warpbus.marketdata.sbe.UpdateAction;
import io.warpbus.matching.BookAction;
import io.warpbus.matching.ExecType;
import io.warpbus.matching.MatchingEventListener;
import io.warpbus.matching.RejectReason;
import io.warpbus.matching.Side;
import io.warpbus.orderentry.sbe.ExecutionReportEncoder;
import io.warpbus.orderentry.sbe.MessageHeaderEncoder;
import org.agrona.BitUtil;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * Turns the matching core's events into messages as they happen, on the engine's thread, allocating nothing: an
 * {@code ExecutionReport} per execution on the execution-report stream, a market-data {@code Trade} per trade, and
 * the command's L2 level changes gathered into one {@code BookUpdate} per command, sent by {@link #endCommand()}.
 * <p>
 * Every report carries the engine-wide {@code execId} (1, 2, 3...) and the {@code sendingTime} of the command that
 * caused it; every Trade and BookUpdate takes the next market-data sequence of its instrument. Quantities leave in
 * lots: the core's units divided by the instrument's lot size.
 * <p>
 * While {@link #replaying(boolean) replaying} the journal at start-up it publishes and counts nothing, but still
 * takes exec ids and market-data sequences, so that the service resumes numbering exactly where the journal left it.
 * <p>
 * It holds the most recent execution reports, byte for byte as published, and sends a range of them again on a
 * client's {@code ResendRequest} ({@link #resend}). Replay refills the history, so reports lost with an engine that
 * was killed after journaling their command, and a client's own losses, can be asked for again.
 */
final class EngineOutput implements MatchingEventListener
{
    /**
     * Most levels in one BookUpdate; a command that changes more (a sweep) sends several.
     */
    static final int MAX_LEVELS_PER_UPDATE = 256;
    static final int MAX_DEPTH = 255;

    static final int REPORT_LENGTH = MessageHeaderEncoder.ENCODED_LENGTH + ExecutionReportEncoder.BLOCK_LENGTH;
    private static final int HISTORY_SLOT = BitUtil.findNextPositivePowerOfTwo(REPORT_LENGTH);
    private static final int RESEND_QUEUE = 64;

    private final InstrumentTable instruments;
    private final OutboundStream executionReports;
    private final OutboundStream marketData;
    private final AtomicCounter reportCounter;
    private final AtomicCounter tradeCounter;
    private final AtomicCounter rejectCounter;
    private final UnsafeBuffer history;
    private final long historyMask;
    private final AtomicCounter resentCounter;
    private final long[] resendRanges = new long[2 * RESEND_QUEUE];
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
    private long lastExecId;
    private long sendingTime;
    private boolean replaying;
    private long firstHeldExecId;
    private long resendHead;
    private long resendTail;
    private long resendNext = 1;
    private long resendLast;

    @SuppressWarnings("checkstyle:parameternumber")
    EngineOutput(
        final InstrumentTable instruments,
        final OutboundStream executionReports,
        final OutboundStream marketData,
        final AtomicCounter reportCounter,
        final AtomicCounter tradeCounter,
        final AtomicCounter rejectCounter,
        final AtomicCounter resentCounter,
        final int historyCapacity)
    {
        this.instruments = instruments;
        this.executionReports = executionReports;
        this.marketData = marketData;
        this.reportCounter = reportCounter;
        this.tradeCounter = tradeCounter;
        this.rejectCounter = rejectCounter;
        this.resentCounter = resentCounter;
        this.history = new UnsafeBuffer(ByteBuffer.allocateDirect(historyCapacity * HISTORY_SLOT));
        this.historyMask = historyCapacity - 1;
    }

    /**
     * Queue a request to publish again the held execution reports {@code fromExecId} to {@code toExecId}, as they
     * were first sent; {@link #continueResend} sends them a batch per duty cycle, so that a long range neither stalls
     * matching nor floods a subscriber that has just come back. What has left the history by then (or came before
     * this process's first report) is skipped: the client sees the first resent {@code execId} above what it asked
     * for and knows the rest is gone.
     *
     * @param fromExecId first wanted.
     * @param toExecId   last wanted; 0 or beyond the latest means through the latest.
     * @return false when {@value #RESEND_QUEUE} requests are already waiting and this one is refused.
     */
    boolean resend(final long fromExecId, final long toExecId)
    {
        if (replaying)
        {
            return true;
        }
        final long last = 0 == toExecId || toExecId > lastExecId ? lastExecId : toExecId;
        final long first = Math.max(1, fromExecId);
        if (first > last)
        {
            return true;
        }
        if (resendTail - resendHead == RESEND_QUEUE)
        {
            return false;
        }
        final int slot = (int)(resendTail++ & (RESEND_QUEUE - 1));
        resendRanges[2 * slot] = first;
        resendRanges[2 * slot + 1] = last;
        return true;
    }

    /**
     * Send the next batch of queued resend requests.
     *
     * @param limit most reports to publish.
     * @return reports published.
     */
    int continueResend(final int limit)
    {
        int resent = 0;
        while (resent < limit)
        {
            if (resendNext > resendLast)
            {
                if (resendHead == resendTail)
                {
                    break;
                }
                final int slot = (int)(resendHead++ & (RESEND_QUEUE - 1));
                resendNext = resendRanges[2 * slot];
                resendLast = resendRanges[2 * slot + 1];
            }
            if (0 == firstHeldExecId)
            {
                resendNext = resendLast + 1;
                continue;
            }
            resendNext = Math.max(resendNext, Math.max(firstHeldExecId, lastExecId - historyMask));
            if (resendNext > resendLast)
            {
                continue;
            }
            if (executionReports.publish(history, slotOffset(resendNext), REPORT_LENGTH) < 0)
            {
                // No subscriber left, or closing: the rest of this range would go nowhere either.
                resendNext = resendLast + 1;
                continue;
            }
            resendNext++;
            resent++;
        }
        if (resent > 0)
        {
            resentCounter.getAndAddRelease(resent);
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

    long lastExecId()
    {
        return lastExecId;
    }

    void lastExecId(final long lastExecId)
    {
        this.lastExecId = lastExecId;
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
        final long execId = ++lastExecId;
        if (0 == firstHeldExecId)
        {
            firstHeldExecId = execId;
        }
        // Encoded straight into its history slot, and published from there.
        final int slot = slotOffset(execId);
        reportEncoder.wrapAndApplyHeader(history, slot, headerEncoder)
            .accountId(accountId & 0xFFFF_FFFFL)
            .instrumentId(instrumentId & 0xFFFF_FFFFL)
            .execId(execId)
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
        if (ExecType.REJECTED == execType || ExecType.CANCEL_REJECTED == execType ||
            ExecType.REPLACE_REJECTED == execType)
        {
            rejectCounter.incrementRelease();
        }
        executionReports.publish(history, slot, REPORT_LENGTH);
    }

    /**
     * Execution reports held, the newest ending at {@link #lastExecId()}.
     *
     * @return the count.
     */
    int heldReports()
    {
        return 0 == firstHeldExecId ? 0 : (int)Math.min(lastExecId - firstHeldExecId + 1, historyMask + 1);
    }

    /**
     * Copy the held reports, oldest first, for a recovery snapshot.
     *
     * @param buffer to copy into.
     * @param offset where.
     * @return bytes written: {@link #heldReports()} reports of {@link #REPORT_LENGTH} bytes.
     */
    int copyHistory(final MutableDirectBuffer buffer, final int offset)
    {
        final int count = heldReports();
        for (int i = 0; i < count; i++)
        {
            final long execId = lastExecId - count + 1 + i;
            buffer.putBytes(offset + i * REPORT_LENGTH, history, slotOffset(execId), REPORT_LENGTH);
        }
        return count * REPORT_LENGTH;
    }

    /**
     * Take back the reports of a recovery snapshot, after {@link #lastExecId(long)}: they end at that exec id.
     *
     * @param buffer holding them, oldest first.
     * @param offset where they start.
     * @param count  how many; the newest {@code historyCapacity} are kept.
     */
    void restoreHistory(final DirectBuffer buffer, final int offset, final int count)
    {
        final int kept = (int)Math.min(count, historyMask + 1);
        for (int i = count - kept; i < count; i++)
        {
            final long execId = lastExecId - count + 1 + i;
            history.putBytes(slotOffset(execId), buffer, offset + i * REPORT_LENGTH, REPORT_LENGTH);
        }
        firstHeldExecId = 0 == kept ? 0 : lastExecId - kept + 1;
    }

    private int slotOffset(final long execId)
    {
        return (int)((execId & historyMask) * HISTORY_SLOT);
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
