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
import io.warpbus.marketdata.sbe.InstrumentDefinitionEncoder;
import io.warpbus.marketdata.sbe.MessageHeaderEncoder;
import io.warpbus.marketdata.sbe.TopOfBookEncoder;
import io.warpbus.marketdata.sbe.UpdateAction;
import io.warpbus.matching.Instrument;
import io.warpbus.matching.OrderType;
import io.warpbus.matching.Side;
import io.warpbus.matching.book.OrderBook;
import io.warpbus.matching.book.OrderVisitor;
import io.warpbus.matching.engine.MatchingEngine;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The snapshot stream for late joiners: per instrument, in one go between two commands, an
 * {@code InstrumentDefinition}, then the whole book as {@code BookUpdate}s whose levels are all {@code Add} (bids
 * best first, then asks best first, at most {@link EngineOutput#MAX_LEVELS_PER_UPDATE} levels a message), then a
 * {@code TopOfBook}. All carry the instrument's current market-data sequence {@code S}, the last incremental the
 * snapshot reflects: a subscriber that joins late takes the snapshot and applies incrementals from {@code S + 1}.
 * <p>
 * Levels are gathered from the book's resting orders in priority order into arrays that grow only when a book has
 * more levels than ever before, so a cycle allocates nothing in steady state.
 */
final class MarketDataSnapshots implements OrderVisitor
{
    private static final int INITIAL_LEVELS = 1024;

    private final MatchingEngine engine;
    private final InstrumentTable instruments;
    private final OutboundStream snapshots;
    private final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(
        64 + EngineOutput.MAX_LEVELS_PER_UPDATE * BookUpdateEncoder.LevelsEncoder.sbeBlockLength()));
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final InstrumentDefinitionEncoder definitionEncoder = new InstrumentDefinitionEncoder();
    private final BookUpdateEncoder bookUpdateEncoder = new BookUpdateEncoder();
    private final TopOfBookEncoder topOfBookEncoder = new TopOfBookEncoder();
    private final byte[] symbol = new byte[InstrumentDefinitionEncoder.symbolLength()];
    private long[] prices = new long[INITIAL_LEVELS];
    private long[] quantities = new long[INITIAL_LEVELS];
    private int[] orderCounts = new int[INITIAL_LEVELS];
    private Side[] sides = new Side[INITIAL_LEVELS];
    private int levelCount;
    private long cycles;

    MarketDataSnapshots(final MatchingEngine engine, final InstrumentTable instruments, final OutboundStream snapshots)
    {
        this.engine = engine;
        this.instruments = instruments;
        this.snapshots = snapshots;
    }

    /**
     * Publish one snapshot of every instrument, if anyone listens.
     *
     * @param nowNs epoch nanoseconds for the transact times.
     * @return true if a cycle was published.
     */
    boolean publish(final long nowNs)
    {
        if (!snapshots.isConnected())
        {
            return false;
        }
        for (int i = 0; i < instruments.count(); i++)
        {
            publish(i, nowNs);
        }
        cycles++;

        return true;
    }

    long cycles()
    {
        return cycles;
    }

    @Override
    @SuppressWarnings("checkstyle:parameternumber")
    public void onOrder(
        final long orderId,
        final long clientOrderId,
        final int accountId,
        final Side side,
        final OrderType type,
        final long price,
        final long quantity,
        final long filledQuantity)
    {
        final int last = levelCount - 1;
        final long open = quantity - filledQuantity;
        if (last >= 0 && sides[last] == side && prices[last] == price)
        {
            quantities[last] += open;
            orderCounts[last]++;
            return;
        }
        if (levelCount == prices.length)
        {
            final int capacity = levelCount * 2;
            prices = Arrays.copyOf(prices, capacity);
            quantities = Arrays.copyOf(quantities, capacity);
            orderCounts = Arrays.copyOf(orderCounts, capacity);
            sides = Arrays.copyOf(sides, capacity);
        }
        prices[levelCount] = price;
        quantities[levelCount] = open;
        orderCounts[levelCount] = 1;
        sides[levelCount] = side;
        levelCount++;
    }

    private void publish(final int index, final long nowNs)
    {
        final Instrument instrument = instruments.instrument(index);
        final int instrumentId = instrument.id();
        final long sequence = instruments.sequence(index);
        final long lotSize = instrument.lotSize();

        definitionEncoder.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .instrumentId(instrumentId & 0xFFFF_FFFFL)
            .priceScale((short)instrument.priceScale())
            .putCurrency((byte)'U', (byte)'S', (byte)'D')
            .tickSize(instrument.tickSize())
            .lotSize(lotSize);
        final String text = instrument.symbol();
        Arrays.fill(symbol, (byte)0);
        for (int i = 0; i < text.length(); i++)
        {
            symbol[i] = (byte)text.charAt(i);
        }
        definitionEncoder.putSymbol(symbol, 0);
        snapshots.publish(buffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + definitionEncoder.encodedLength());

        levelCount = 0;
        final OrderBook book = engine.book(instrumentId);
        book.forEachOrder(this);

        int bidLevel = 0;
        int askLevel = 0;
        for (int start = 0; start < levelCount; start += EngineOutput.MAX_LEVELS_PER_UPDATE)
        {
            final int count = Math.min(EngineOutput.MAX_LEVELS_PER_UPDATE, levelCount - start);
            bookUpdateEncoder.wrapAndApplyHeader(buffer, 0, headerEncoder)
                .instrumentId(instrumentId & 0xFFFF_FFFFL)
                .sequence(sequence)
                .transactTime(nowNs);
            final BookUpdateEncoder.LevelsEncoder levels = bookUpdateEncoder.levelsCount(count);
            for (int i = start; i < start + count; i++)
            {
                final int depth = Side.BUY == sides[i] ? ++bidLevel : ++askLevel;
                levels.next()
                    .price(prices[i])
                    .quantity(quantities[i] / lotSize)
                    .orderCount(orderCounts[i])
                    .level((short)Math.min(EngineOutput.MAX_DEPTH, depth))
                    .side(io.warpbus.marketdata.sbe.Side.get((short)sides[i].code()))
                    .action(UpdateAction.Add);
            }
            snapshots.publish(buffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + bookUpdateEncoder.encodedLength());
        }

        final int firstAsk = bidLevel;
        topOfBookEncoder.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .instrumentId(instrumentId & 0xFFFF_FFFFL)
            .sequence(sequence)
            .transactTime(nowNs)
            .bidPrice(bidLevel > 0 ? prices[0] : TopOfBookEncoder.bidPriceNullValue())
            .bidQty(bidLevel > 0 ? quantities[0] / lotSize : 0)
            .askPrice(askLevel > 0 ? prices[firstAsk] : TopOfBookEncoder.askPriceNullValue())
            .askQty(askLevel > 0 ? quantities[firstAsk] / lotSize : 0);
        snapshots.publish(buffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + topOfBookEncoder.encodedLength());
    }
}
