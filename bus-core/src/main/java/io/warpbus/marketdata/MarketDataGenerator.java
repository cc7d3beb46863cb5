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
package io.warpbus.marketdata;

import java.util.Random;

import io.warpbus.marketdata.sbe.BookUpdateEncoder;
import io.warpbus.marketdata.sbe.HeartbeatEncoder;
import io.warpbus.marketdata.sbe.InstrumentDefinitionEncoder;
import io.warpbus.marketdata.sbe.MessageHeaderEncoder;
import io.warpbus.marketdata.sbe.Side;
import io.warpbus.marketdata.sbe.TopOfBookEncoder;
import io.warpbus.marketdata.sbe.TradeEncoder;
import io.warpbus.marketdata.sbe.UpdateAction;
import org.agrona.MutableDirectBuffer;

/**
 * Produces a realistic, reproducible stream of market-data messages for tests, benchmarks and demos.
 * <p>
 * The stream opens with an {@code InstrumentDefinition} per instrument, then one {@code BookUpdate} per instrument
 * that builds its book ({@link #BOOK_DEPTH} levels a side), then runs: quantity changes, one-tick price moves,
 * trades against the best level (each followed by the {@code BookUpdate} that reflects it, at the same
 * {@code transactTime}), {@code TopOfBook} snapshots of the book as it is, and a {@code Heartbeat} every millisecond
 * of simulated time. The generator keeps a dense L2 book per instrument so every message agrees with the ones
 * before it: sequences per instrument have no gaps, prices are multiples of the tick size, trades happen at the
 * touch, and prices wander around a reference price per instrument without drifting away.
 * <p>
 * The same seed and instrument count give the same bytes. Once constructed the generator allocates nothing: the
 * encoders are reused and the state is in primitive arrays. Not thread safe.
 */
public final class MarketDataGenerator
{
    /**
     * Price levels kept on each side of every book.
     */
    public static final int BOOK_DEPTH = 5;

    /**
     * Instrument id of the first instrument; the others follow consecutively.
     */
    public static final int FIRST_INSTRUMENT_ID = 1;

    /**
     * Most instruments one generator simulates.
     */
    public static final int MAX_INSTRUMENTS = 65_536;

    /**
     * Simulated time between heartbeats.
     */
    public static final long HEARTBEAT_INTERVAL_NS = 1_000_000L;

    /**
     * Default start of the simulated clock: 2026-03-02T14:30:00Z in nanoseconds since the epoch.
     */
    public static final long DEFAULT_START_TIME_NS = 1_772_461_800_000_000_000L;

    /**
     * Longest message the generator encodes: a book-building {@code BookUpdate} with every level of both sides.
     */
    public static final int MAX_MESSAGE_LENGTH = MessageHeaderEncoder.ENCODED_LENGTH + BookUpdateEncoder.BLOCK_LENGTH +
        BookUpdateEncoder.LevelsEncoder.HEADER_SIZE + 2 * BOOK_DEPTH * BookUpdateEncoder.LevelsEncoder.sbeBlockLength();

    private static final int MAX_STEP_NS = 20_000;
    private static final int MAX_ORDERS = 8;
    private static final int PRICE_JITTER_TICKS = 100;
    private static final int PRICE_BAND_TICKS = 1_000;
    private static final int NONE = -1;

    // symbol, currency, price scale, tick size, lot size, reference price (in price units), most lots at a level
    private static final String[] SYMBOLS = { "AAPL", "MSFT", "SAP.DE", "ESZ6", "EURUSD", "BTC-USD", "7203.T" };
    private static final String[] CURRENCIES = { "USD", "USD", "EUR", "USD", "USD", "USD", "JPY" };
    private static final short[] PRICE_SCALES = { 2, 2, 2, 2, 5, 2, 0 };
    private static final long[] TICK_SIZES = { 1, 1, 1, 25, 1, 1, 1 };
    private static final long[] LOT_SIZES = { 100, 100, 1, 1, 1_000_000, 1, 100 };
    private static final long[] REFERENCE_PRICES = { 19_000, 41_000, 18_000, 450_000, 108_500, 6_500_000, 2_800 };
    private static final int[] MAX_LOTS = { 50, 50, 200, 20, 10, 5, 100 };

    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final InstrumentDefinitionEncoder definitionEncoder = new InstrumentDefinitionEncoder();
    private final BookUpdateEncoder bookUpdateEncoder = new BookUpdateEncoder();
    private final TradeEncoder tradeEncoder = new TradeEncoder();
    private final TopOfBookEncoder topOfBookEncoder = new TopOfBookEncoder();
    private final HeartbeatEncoder heartbeatEncoder = new HeartbeatEncoder();

    private final Random random;
    private final int instrumentCount;
    private final String[] symbols;
    private final int[] kinds;
    private final long[] sequences;
    private final long[] bestBids;
    private final long[] spreads;
    private final long[][] bidQuantities;
    private final long[][] askQuantities;
    private final long[][] bidOrders;
    private final long[][] askOrders;

    private long clockNs;
    private long nextHeartbeatNs;
    private long lastTradeId;
    private long messagesEncoded;
    private int definitionsSent;
    private int booksBuilt;
    private int pendingInstrument = NONE;
    private Side pendingAggressor = Side.NULL_VAL;

    /**
     * A generator for instruments with ids {@link #FIRST_INSTRUMENT_ID} onwards, its clock starting at
     * {@link #DEFAULT_START_TIME_NS}.
     *
     * @param seed            of the {@link Random} that drives every choice.
     * @param instrumentCount how many instruments, 1 to {@link #MAX_INSTRUMENTS}.
     */
    public MarketDataGenerator(final long seed, final int instrumentCount)
    {
        this(seed, instrumentCount, DEFAULT_START_TIME_NS);
    }

    /**
     * A generator for instruments with ids {@link #FIRST_INSTRUMENT_ID} onwards.
     *
     * @param seed            of the {@link Random} that drives every choice.
     * @param instrumentCount how many instruments, 1 to {@link #MAX_INSTRUMENTS}.
     * @param startTimeNs     of the simulated clock, nanoseconds since the epoch.
     */
    public MarketDataGenerator(final long seed, final int instrumentCount, final long startTimeNs)
    {
        if (instrumentCount < 1 || instrumentCount > MAX_INSTRUMENTS)
        {
            throw new IllegalArgumentException(
                "instrumentCount must be 1 to " + MAX_INSTRUMENTS + ": " + instrumentCount);
        }

        this.random = new Random(seed);
        this.instrumentCount = instrumentCount;
        this.clockNs = startTimeNs;
        this.nextHeartbeatNs = startTimeNs + HEARTBEAT_INTERVAL_NS;
        symbols = new String[instrumentCount];
        kinds = new int[instrumentCount];
        sequences = new long[instrumentCount];
        bestBids = new long[instrumentCount];
        spreads = new long[instrumentCount];
        bidQuantities = new long[instrumentCount][BOOK_DEPTH];
        askQuantities = new long[instrumentCount][BOOK_DEPTH];
        bidOrders = new long[instrumentCount][BOOK_DEPTH];
        askOrders = new long[instrumentCount][BOOK_DEPTH];

        for (int i = 0; i < instrumentCount; i++)
        {
            final int kind = i % SYMBOLS.length;
            final long tick = TICK_SIZES[kind];
            kinds[i] = kind;
            symbols[i] = i < SYMBOLS.length ? SYMBOLS[kind] : SYMBOLS[kind] + "." + (i / SYMBOLS.length);
            bestBids[i] = REFERENCE_PRICES[kind] + (random.nextInt(2 * PRICE_JITTER_TICKS + 1) - PRICE_JITTER_TICKS) *
                tick;
            spreads[i] = (1 + random.nextInt(2)) * tick;
            for (int level = 0; level < BOOK_DEPTH; level++)
            {
                refill(i, bidQuantities, bidOrders, level);
                refill(i, askQuantities, askOrders, level);
            }
        }
    }

    /**
     * How many instruments this generator simulates.
     *
     * @return the instrument count.
     */
    public int instrumentCount()
    {
        return instrumentCount;
    }

    /**
     * How many messages {@link #encodeNext(MutableDirectBuffer, int)} has encoded so far.
     *
     * @return the message count.
     */
    public long messagesEncoded()
    {
        return messagesEncoded;
    }

    /**
     * The simulated clock: the time of the last message encoded.
     *
     * @return nanoseconds since the epoch.
     */
    public long clockNs()
    {
        return clockNs;
    }

    /**
     * Encode the next message of the stream, header included.
     *
     * @param buffer to encode into; unless it is expandable it must have {@link #MAX_MESSAGE_LENGTH} bytes from
     *               {@code offset} on.
     * @param offset at which the message header goes.
     * @return the length of the message, header included.
     * @throws IllegalArgumentException if the buffer is too short, leaving the generator as it was.
     */
    public int encodeNext(final MutableDirectBuffer buffer, final int offset)
    {
        if (!buffer.isExpandable() && (offset < 0 || buffer.capacity() - offset < MAX_MESSAGE_LENGTH))
        {
            throw new IllegalArgumentException("need " + MAX_MESSAGE_LENGTH + " bytes at offset " + offset +
                " of a buffer of capacity " + buffer.capacity());
        }

        final int length;
        if (definitionsSent < instrumentCount)
        {
            length = encodeDefinition(buffer, offset, definitionsSent++);
        }
        else if (booksBuilt < instrumentCount)
        {
            length = encodeBookBuild(buffer, offset, booksBuilt++);
        }
        else
        {
            length = encodeRunning(buffer, offset);
        }
        messagesEncoded++;

        return length;
    }

    /**
     * Encode messages back to back while at least {@link #MAX_MESSAGE_LENGTH} bytes remain. The messages are not
     * framed: a reader finds where each ends by decoding it, e.g. with
     * {@link MarketDataPrinter#appendTo(StringBuilder, org.agrona.DirectBuffer, int, int)}.
     *
     * @param buffer to encode into.
     * @param offset of the first message.
     * @param length of the region to fill.
     * @return the number of bytes used; the messages end there.
     */
    public int fill(final MutableDirectBuffer buffer, final int offset, final int length)
    {
        final int end = offset + length;
        int position = offset;
        while (end - position >= MAX_MESSAGE_LENGTH)
        {
            position += encodeNext(buffer, position);
        }

        return position - offset;
    }

    private int encodeRunning(final MutableDirectBuffer buffer, final int offset)
    {
        if (NONE != pendingInstrument)
        {
            // the book update a trade caused belongs to the same match event: same transactTime
            final int instrument = pendingInstrument;
            pendingInstrument = NONE;
            return encodeAfterTrade(buffer, offset, instrument, pendingAggressor);
        }

        clockNs += 1 + random.nextInt(MAX_STEP_NS);
        if (clockNs >= nextHeartbeatNs)
        {
            nextHeartbeatNs += HEARTBEAT_INTERVAL_NS;
            heartbeatEncoder.wrapAndApplyHeader(buffer, offset, headerEncoder).timestamp(clockNs);
            return MessageHeaderEncoder.ENCODED_LENGTH + heartbeatEncoder.encodedLength();
        }

        final int instrument = random.nextInt(instrumentCount);
        final int choice = random.nextInt(100);
        if (choice < 55)
        {
            return encodeQuantityChange(buffer, offset, instrument);
        }
        else if (choice < 70)
        {
            return encodePriceMove(buffer, offset, instrument, upwardPressure(instrument));
        }
        else if (choice < 85)
        {
            return encodeTrade(buffer, offset, instrument);
        }

        return encodeTopOfBook(buffer, offset, instrument);
    }

    private int encodeDefinition(final MutableDirectBuffer buffer, final int offset, final int instrument)
    {
        final int kind = kinds[instrument];
        definitionEncoder.wrapAndApplyHeader(buffer, offset, headerEncoder)
            .instrumentId(instrumentId(instrument))
            .priceScale(PRICE_SCALES[kind])
            .currency(CURRENCIES[kind])
            .tickSize(TICK_SIZES[kind])
            .lotSize(LOT_SIZES[kind])
            .symbol(symbols[instrument]);

        return MessageHeaderEncoder.ENCODED_LENGTH + definitionEncoder.encodedLength();
    }

    private int encodeBookBuild(final MutableDirectBuffer buffer, final int offset, final int instrument)
    {
        final BookUpdateEncoder.LevelsEncoder levels = startBookUpdate(buffer, offset, instrument, 2 * BOOK_DEPTH);
        for (int level = 0; level < BOOK_DEPTH; level++)
        {
            level(levels, Side.Buy, UpdateAction.Add, level, bidPrice(instrument, level),
                bidQuantities[instrument][level], bidOrders[instrument][level]);
            level(levels, Side.Sell, UpdateAction.Add, level, askPrice(instrument, level),
                askQuantities[instrument][level], askOrders[instrument][level]);
        }

        return MessageHeaderEncoder.ENCODED_LENGTH + bookUpdateEncoder.encodedLength();
    }

    private int encodeQuantityChange(final MutableDirectBuffer buffer, final int offset, final int instrument)
    {
        final int level = random.nextInt(BOOK_DEPTH);
        final boolean bid = random.nextBoolean();
        final BookUpdateEncoder.LevelsEncoder levels = startBookUpdate(buffer, offset, instrument, 1);
        if (bid)
        {
            refill(instrument, bidQuantities, bidOrders, level);
            level(levels, Side.Buy, UpdateAction.Change, level, bidPrice(instrument, level),
                bidQuantities[instrument][level], bidOrders[instrument][level]);
        }
        else
        {
            refill(instrument, askQuantities, askOrders, level);
            level(levels, Side.Sell, UpdateAction.Change, level, askPrice(instrument, level),
                askQuantities[instrument][level], askOrders[instrument][level]);
        }

        return MessageHeaderEncoder.ENCODED_LENGTH + bookUpdateEncoder.encodedLength();
    }

    /**
     * Move both sides one tick: the best level of one side goes, the other side gains a new best level, and each
     * side keeps {@link #BOOK_DEPTH} levels by adding or dropping one at the back. Entries are in the order a book
     * of fixed depth applies them.
     */
    private int encodePriceMove(
        final MutableDirectBuffer buffer, final int offset, final int instrument, final boolean upRequested)
    {
        final long tick = TICK_SIZES[kinds[instrument]];
        final boolean up = upRequested || bidPrice(instrument, BOOK_DEPTH) < tick;
        final int last = BOOK_DEPTH - 1;
        final BookUpdateEncoder.LevelsEncoder levels = startBookUpdate(buffer, offset, instrument, 4);
        if (up)
        {
            level(levels, Side.Sell, UpdateAction.Delete, 0, askPrice(instrument, 0), 0, 0);
            level(levels, Side.Buy, UpdateAction.Delete, last, bidPrice(instrument, last), 0, 0);
            bestBids[instrument] += tick;
            shiftTowardsBack(instrument, bidQuantities, bidOrders);
            shiftTowardsFront(instrument, askQuantities, askOrders);
            level(levels, Side.Sell, UpdateAction.Add, last, askPrice(instrument, last),
                askQuantities[instrument][last], askOrders[instrument][last]);
            level(levels, Side.Buy, UpdateAction.Add, 0, bidPrice(instrument, 0),
                bidQuantities[instrument][0], bidOrders[instrument][0]);
        }
        else
        {
            level(levels, Side.Buy, UpdateAction.Delete, 0, bidPrice(instrument, 0), 0, 0);
            level(levels, Side.Sell, UpdateAction.Delete, last, askPrice(instrument, last), 0, 0);
            bestBids[instrument] -= tick;
            shiftTowardsFront(instrument, bidQuantities, bidOrders);
            shiftTowardsBack(instrument, askQuantities, askOrders);
            level(levels, Side.Buy, UpdateAction.Add, last, bidPrice(instrument, last),
                bidQuantities[instrument][last], bidOrders[instrument][last]);
            level(levels, Side.Sell, UpdateAction.Add, 0, askPrice(instrument, 0),
                askQuantities[instrument][0], askOrders[instrument][0]);
        }

        return MessageHeaderEncoder.ENCODED_LENGTH + bookUpdateEncoder.encodedLength();
    }

    private int encodeTrade(final MutableDirectBuffer buffer, final int offset, final int instrument)
    {
        final boolean buy = upwardPressure(instrument);
        final Side aggressor = buy ? Side.Buy : Side.Sell;
        final long[] restingQuantities = buy ? askQuantities[instrument] : bidQuantities[instrument];
        final long[] restingOrders = buy ? askOrders[instrument] : bidOrders[instrument];
        final long price = buy ? askPrice(instrument, 0) : bidPrice(instrument, 0);
        final long quantity = 1 + random.nextInt((int)restingQuantities[0]);

        restingQuantities[0] -= quantity;
        restingOrders[0] = 0 == restingQuantities[0] ?
            0 : Math.max(1, Math.min(restingOrders[0] - random.nextInt(2), restingQuantities[0]));
        pendingInstrument = instrument;
        pendingAggressor = aggressor;

        tradeEncoder.wrapAndApplyHeader(buffer, offset, headerEncoder)
            .instrumentId(instrumentId(instrument))
            .sequence(++sequences[instrument])
            .transactTime(clockNs)
            .tradeId(++lastTradeId)
            .price(price)
            .quantity(quantity)
            .aggressorSide(aggressor);

        return MessageHeaderEncoder.ENCODED_LENGTH + tradeEncoder.encodedLength();
    }

    /**
     * The book update a trade causes: less at the best level it hit, or the level gone and the price moved.
     */
    private int encodeAfterTrade(
        final MutableDirectBuffer buffer, final int offset, final int instrument, final Side aggressor)
    {
        final boolean buy = Side.Buy == aggressor;
        final long[] restingQuantities = buy ? askQuantities[instrument] : bidQuantities[instrument];
        if (0 == restingQuantities[0])
        {
            return encodePriceMove(buffer, offset, instrument, buy);
        }

        final BookUpdateEncoder.LevelsEncoder levels = startBookUpdate(buffer, offset, instrument, 1);
        level(levels, buy ? Side.Sell : Side.Buy, UpdateAction.Change, 0,
            buy ? askPrice(instrument, 0) : bidPrice(instrument, 0), restingQuantities[0],
            buy ? askOrders[instrument][0] : bidOrders[instrument][0]);

        return MessageHeaderEncoder.ENCODED_LENGTH + bookUpdateEncoder.encodedLength();
    }

    private int encodeTopOfBook(final MutableDirectBuffer buffer, final int offset, final int instrument)
    {
        topOfBookEncoder.wrapAndApplyHeader(buffer, offset, headerEncoder)
            .instrumentId(instrumentId(instrument))
            .sequence(sequences[instrument])
            .transactTime(clockNs)
            .bidPrice(bidPrice(instrument, 0))
            .bidQty(bidQuantities[instrument][0])
            .askPrice(askPrice(instrument, 0))
            .askQty(askQuantities[instrument][0]);

        return MessageHeaderEncoder.ENCODED_LENGTH + topOfBookEncoder.encodedLength();
    }

    /**
     * A coin for the direction of the next move or aggressor, biased back towards the reference price so the price
     * stays within {@link #PRICE_BAND_TICKS} of it: even odds at the reference, certainty at the edge of the band.
     */
    private boolean upwardPressure(final int instrument)
    {
        final int kind = kinds[instrument];
        final long ticksAboveReference = (bestBids[instrument] - REFERENCE_PRICES[kind]) / TICK_SIZES[kind];

        return random.nextInt(2 * PRICE_BAND_TICKS) >= PRICE_BAND_TICKS + ticksAboveReference;
    }

    private BookUpdateEncoder.LevelsEncoder startBookUpdate(
        final MutableDirectBuffer buffer, final int offset, final int instrument, final int count)
    {
        return bookUpdateEncoder.wrapAndApplyHeader(buffer, offset, headerEncoder)
            .instrumentId(instrumentId(instrument))
            .sequence(++sequences[instrument])
            .transactTime(clockNs)
            .levelsCount(count);
    }

    private static void level(
        final BookUpdateEncoder.LevelsEncoder levels,
        final Side side,
        final UpdateAction action,
        final int level,
        final long price,
        final long quantity,
        final long orders)
    {
        levels.next()
            .price(price)
            .quantity(quantity)
            .orderCount(orders)
            .level((short)(level + 1))
            .side(side)
            .action(action);
    }

    private void refill(final int instrument, final long[][] quantities, final long[][] orders, final int level)
    {
        final long quantity = 1 + random.nextInt(MAX_LOTS[kinds[instrument]]);
        quantities[instrument][level] = quantity;
        orders[instrument][level] = 1 + random.nextInt((int)Math.min(quantity, MAX_ORDERS));
    }

    private void shiftTowardsBack(final int instrument, final long[][] quantities, final long[][] orders)
    {
        System.arraycopy(quantities[instrument], 0, quantities[instrument], 1, BOOK_DEPTH - 1);
        System.arraycopy(orders[instrument], 0, orders[instrument], 1, BOOK_DEPTH - 1);
        refill(instrument, quantities, orders, 0);
    }

    private void shiftTowardsFront(final int instrument, final long[][] quantities, final long[][] orders)
    {
        System.arraycopy(quantities[instrument], 1, quantities[instrument], 0, BOOK_DEPTH - 1);
        System.arraycopy(orders[instrument], 1, orders[instrument], 0, BOOK_DEPTH - 1);
        refill(instrument, quantities, orders, BOOK_DEPTH - 1);
    }

    private long bidPrice(final int instrument, final int level)
    {
        return bestBids[instrument] - level * TICK_SIZES[kinds[instrument]];
    }

    private long askPrice(final int instrument, final int level)
    {
        return bestBids[instrument] + spreads[instrument] + level * TICK_SIZES[kinds[instrument]];
    }

    private static long instrumentId(final int instrument)
    {
        return FIRST_INSTRUMENT_ID + instrument;
    }
}
