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

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.warpbus.marketdata.sbe.BookUpdateDecoder;
import io.warpbus.marketdata.sbe.HeartbeatDecoder;
import io.warpbus.marketdata.sbe.InstrumentDefinitionDecoder;
import io.warpbus.marketdata.sbe.MessageHeaderDecoder;
import io.warpbus.marketdata.sbe.Side;
import io.warpbus.marketdata.sbe.TopOfBookDecoder;
import io.warpbus.marketdata.sbe.TradeDecoder;
import io.warpbus.marketdata.sbe.UpdateAction;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import io.warpbus.testing.ThreadAllocation;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Decodes what the generator produces for many seeds and checks it as a market-data consumer would: an L2 book per
 * instrument built only from the messages, which every later message must agree with.
 */
class MarketDataGeneratorTest
{
    private static final int SEEDS = 200;
    private static final int MESSAGES_PER_SEED = 3_000;

    private final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(64 * 1024));

    @Test
    void shouldProduceDecodableConsistentMessagesForManySeeds()
    {
        final int[] templateCounts = new int[6];
        for (int seed = 0; seed < SEEDS; seed++)
        {
            final int instruments = 1 + seed % 12;
            final MarketDataGenerator generator = new MarketDataGenerator(seed, instruments);
            final Consumer consumer = new Consumer(instruments, "seed " + seed);
            for (int i = 0; i < MESSAGES_PER_SEED; i++)
            {
                final int offset = (i * 17) % 1024;
                final int length = generator.encodeNext(buffer, offset);
                assertTrue(length > 8 && length <= MarketDataGenerator.MAX_MESSAGE_LENGTH, "length " + length);
                templateCounts[consumer.onMessage(buffer, offset, length, i)]++;
            }
            assertEquals(MESSAGES_PER_SEED, generator.messagesEncoded());
        }

        for (int templateId = 1; templateId <= 5; templateId++)
        {
            assertTrue(templateCounts[templateId] > SEEDS, "template " + templateId + ": " +
                Arrays.toString(templateCounts));
        }
    }

    @Test
    void shouldStartWithDefinitionsThenBuildEveryBook()
    {
        final MarketDataGenerator generator = new MarketDataGenerator(42, 3);
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final InstrumentDefinitionDecoder definition = new InstrumentDefinitionDecoder();
        final BookUpdateDecoder bookUpdate = new BookUpdateDecoder();

        final String[] symbols = { "AAPL", "MSFT", "SAP.DE" };
        for (int i = 0; i < 3; i++)
        {
            assertEquals(48, generator.encodeNext(buffer, 0));
            definition.wrapAndApplyHeader(buffer, 0, header);
            assertEquals(i + 1, definition.instrumentId());
            assertEquals(symbols[i], definition.symbol());
        }
        for (int i = 0; i < 3; i++)
        {
            assertEquals(8 + 20 + 4 + 10 * 23, generator.encodeNext(buffer, 0));
            bookUpdate.wrapAndApplyHeader(buffer, 0, header);
            assertEquals(i + 1, bookUpdate.instrumentId());
            assertEquals(1, bookUpdate.sequence());
            assertEquals(10, bookUpdate.levels().count());
        }
        assertEquals(MarketDataGenerator.MAX_MESSAGE_LENGTH, 8 + 20 + 4 + 10 * 23);
    }

    @Test
    void shouldNameInstrumentsBeyondTheReferenceSetDistinctly()
    {
        final MarketDataGenerator generator = new MarketDataGenerator(1, 20);
        final InstrumentDefinitionDecoder definition = new InstrumentDefinitionDecoder();
        final List<String> symbols = new ArrayList<>();
        for (int i = 0; i < 20; i++)
        {
            generator.encodeNext(buffer, 0);
            symbols.add(definition.wrapAndApplyHeader(buffer, 0, new MessageHeaderDecoder()).symbol());
        }

        assertEquals(20, symbols.stream().distinct().count(), symbols.toString());
        assertEquals("AAPL.1", symbols.get(7));
        assertEquals("7203.T.1", symbols.get(13));
        assertEquals("BTC-USD.2", symbols.get(19));
    }

    @Test
    void shouldGiveTheSameBytesForTheSameSeed()
    {
        final UnsafeBuffer other = new UnsafeBuffer(new byte[buffer.capacity()]);
        final int length = new MarketDataGenerator(7, 5).fill(buffer, 0, 60_000);
        assertEquals(length, new MarketDataGenerator(7, 5).fill(other, 0, 60_000));

        final byte[] expected = new byte[length];
        final byte[] actual = new byte[length];
        buffer.getBytes(0, expected);
        other.getBytes(0, actual);
        assertArrayEquals(expected, actual);

        new MarketDataGenerator(8, 5).fill(other, 0, 60_000);
        other.getBytes(0, actual);
        assertFalse(Arrays.equals(expected, actual), "another seed, other messages");
    }

    @Test
    void shouldFillABufferWithMessagesThatWalkBackToBack()
    {
        final MarketDataGenerator generator = new MarketDataGenerator(99, 4);
        final int used = generator.fill(buffer, 100, 50_000);
        assertTrue(used > 50_000 - MarketDataGenerator.MAX_MESSAGE_LENGTH && used <= 50_000, "used " + used);

        final MarketDataPrinter printer = new MarketDataPrinter();
        final StringBuilder line = new StringBuilder();
        final Consumer consumer = new Consumer(4, "fill");
        int position = 100;
        int messages = 0;
        while (position < 100 + used)
        {
            line.setLength(0);
            final int length = printer.appendTo(line, buffer, position, 100 + used - position);
            assertFalse(line.toString().startsWith("Unknown") || line.toString().startsWith("Truncated"),
                line.toString());
            consumer.onMessage(buffer, position, length, messages);
            position += length;
            messages++;
        }

        assertEquals(100 + used, position);
        assertEquals(generator.messagesEncoded(), messages);
    }

    @Test
    void shouldRefuseABufferTooShortAndCarryOnUnchanged()
    {
        final MarketDataGenerator generator = new MarketDataGenerator(3, 2);
        final UnsafeBuffer small = new UnsafeBuffer(new byte[MarketDataGenerator.MAX_MESSAGE_LENGTH + 10]);

        assertThrows(IllegalArgumentException.class, () -> generator.encodeNext(small, 11));
        assertEquals(0, generator.messagesEncoded());
        assertEquals(48, generator.encodeNext(small, 10));

        final ExpandableArrayBuffer expandable = new ExpandableArrayBuffer(16);
        assertEquals(48, generator.encodeNext(expandable, 0));
    }

    @Test
    void shouldSendAHeartbeatEveryMillisecondOfSimulatedTime()
    {
        final MarketDataGenerator generator = new MarketDataGenerator(5, 3, 0);
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final HeartbeatDecoder heartbeat = new HeartbeatDecoder();
        long expected = MarketDataGenerator.HEARTBEAT_INTERVAL_NS;
        int heartbeats = 0;
        while (generator.clockNs() < 50 * MarketDataGenerator.HEARTBEAT_INTERVAL_NS)
        {
            generator.encodeNext(buffer, 0);
            header.wrap(buffer, 0);
            if (HeartbeatDecoder.TEMPLATE_ID == header.templateId())
            {
                final long timestamp = heartbeat.wrapAndApplyHeader(buffer, 0, header).timestamp();
                assertTrue(timestamp >= expected && timestamp < expected + 20_000, "heartbeat at " + timestamp);
                expected += MarketDataGenerator.HEARTBEAT_INTERVAL_NS;
                heartbeats++;
            }
        }

        assertTrue(heartbeats >= 49 && heartbeats <= 50, "heartbeats " + heartbeats);
    }

    /**
     * Measured over several windows, taking the least: an allocation per message, however rare, shows in every
     * window, while the odd few bytes the JVM allocates on this thread once as the JIT settles (seen here as a
     * single 48-byte blip, and not at all under {@code -Xint}) show in one.
     */
    @Test
    void shouldNotAllocateInSteadyState()
    {
        final MarketDataGenerator generator = new MarketDataGenerator(11, 16);
        encode(generator, 200_000);
        long leastAllocated = Long.MAX_VALUE;
        final long[] windows = new long[5];
        for (int i = 0; i < windows.length; i++)
        {
            final long before = ThreadAllocation.current();
            encode(generator, 200_000);
            windows[i] = ThreadAllocation.current() - before;
            leastAllocated = Math.min(leastAllocated, windows[i]);
        }

        assertEquals(0, leastAllocated, "bytes allocated per window of 200,000 messages: " +
            Arrays.toString(windows));
    }

    private void encode(final MarketDataGenerator generator, final int count)
    {
        int offset = 0;
        for (int i = 0; i < count; i++)
        {
            offset += generator.encodeNext(buffer, offset);
            if (offset > buffer.capacity() - MarketDataGenerator.MAX_MESSAGE_LENGTH)
            {
                offset = 0;
            }
        }
    }

    /**
     * A consumer that keeps an L2 book per instrument from the messages alone and checks each message against it.
     */
    private static final class Consumer
    {
        private static final int DEPTH = MarketDataGenerator.BOOK_DEPTH;

        private final MessageHeaderDecoder header = new MessageHeaderDecoder();
        private final InstrumentDefinitionDecoder definition = new InstrumentDefinitionDecoder();
        private final BookUpdateDecoder bookUpdate = new BookUpdateDecoder();
        private final TradeDecoder trade = new TradeDecoder();
        private final TopOfBookDecoder topOfBook = new TopOfBookDecoder();
        private final HeartbeatDecoder heartbeat = new HeartbeatDecoder();
        private final int instruments;
        private final String context;
        private final long[] tickSizes;
        private final long[] sequences;
        private final List<List<long[]>> bids = new ArrayList<>();
        private final List<List<long[]>> asks = new ArrayList<>();
        private long lastTime;
        private long lastTradeId;
        private int tradedInstrument = -1;
        private long tradeTime;
        private long tradePrice;
        private long restingAfterTrade;

        Consumer(final int instruments, final String context)
        {
            this.instruments = instruments;
            this.context = context;
            tickSizes = new long[instruments];
            sequences = new long[instruments];
            for (int i = 0; i < instruments; i++)
            {
                bids.add(new ArrayList<>());
                asks.add(new ArrayList<>());
            }
        }

        /**
         * Check one message of the stream; returns its template id.
         */
        int onMessage(final UnsafeBuffer buffer, final int offset, final int length, final int index)
        {
            final String at = context + " message " + index;
            header.wrap(buffer, offset);
            assertEquals(MessageHeaderDecoder.SCHEMA_ID, header.schemaId(), at);
            assertEquals(MessageHeaderDecoder.SCHEMA_VERSION, header.version(), at);
            final int templateId = header.templateId();
            final long instrumentId = MarketDataMessages.instrumentId(buffer, offset, length);
            if (-1 != tradedInstrument)
            {
                assertEquals(BookUpdateDecoder.TEMPLATE_ID, templateId, at + ": a trade's book update comes next");
            }
            if (index < instruments)
            {
                assertEquals(InstrumentDefinitionDecoder.TEMPLATE_ID, templateId, at);
            }
            else if (index < 2 * instruments)
            {
                assertEquals(BookUpdateDecoder.TEMPLATE_ID, templateId, at);
            }

            switch (templateId)
            {
                case InstrumentDefinitionDecoder.TEMPLATE_ID:
                    definition.wrapAndApplyHeader(buffer, offset, header);
                    assertEquals(length, 8 + definition.sbeDecodedLength(), at);
                    assertEquals(index + 1, definition.instrumentId(), at);
                    assertTrue(definition.tickSize() > 0 && definition.lotSize() > 0, at);
                    assertEquals(3, definition.currency().length(), at);
                    tickSizes[index] = definition.tickSize();
                    break;

                case BookUpdateDecoder.TEMPLATE_ID:
                    bookUpdate.wrapAndApplyHeader(buffer, offset, header);
                    assertEquals(length, 8 + bookUpdate.sbeDecodedLength(), at);
                    onBookUpdate(at);
                    if (-1 != tradedInstrument)
                    {
                        onBookUpdateAfterTrade(at);
                    }
                    break;

                case TradeDecoder.TEMPLATE_ID:
                    trade.wrapAndApplyHeader(buffer, offset, header);
                    assertEquals(length, 8 + trade.sbeDecodedLength(), at);
                    onTrade(at);
                    break;

                case TopOfBookDecoder.TEMPLATE_ID:
                    topOfBook.wrapAndApplyHeader(buffer, offset, header);
                    assertEquals(length, 8 + topOfBook.sbeDecodedLength(), at);
                    onTopOfBook(at);
                    break;

                case HeartbeatDecoder.TEMPLATE_ID:
                    heartbeat.wrapAndApplyHeader(buffer, offset, header);
                    assertEquals(16, length, at);
                    assertEquals(-1, instrumentId, at);
                    onTime(heartbeat.timestamp(), at);
                    return templateId;

                default:
                    fail(at + ": template " + templateId);
            }

            assertTrue(instrumentId >= 1 && instrumentId <= instruments, at + ": instrument " + instrumentId);
            return templateId;
        }

        private void onBookUpdate(final String at)
        {
            final int instrument = instrument(bookUpdate.instrumentId(), at);
            assertEquals(++sequences[instrument], bookUpdate.sequence(), at + ": sequence");
            onTime(bookUpdate.transactTime(), at);

            for (final BookUpdateDecoder.LevelsDecoder level : bookUpdate.levels())
            {
                final List<long[]> side = Side.Buy == level.side() ? bids.get(instrument) : asks.get(instrument);
                final int index = level.level() - 1;
                final long price = level.price();
                assertEquals(0, price % tickSizes[instrument], at + ": price on the tick");
                if (UpdateAction.Delete == level.action())
                {
                    assertEquals(price, side.remove(index)[0], at + ": deleted price");
                    assertEquals(0, level.quantity(), at);
                    continue;
                }

                assertTrue(level.quantity() > 0, at + ": quantity");
                assertTrue(level.orderCount() >= 1 && level.orderCount() <= level.quantity(), at + ": orders");
                final long[] entry = { price, level.quantity(), level.orderCount() };
                if (UpdateAction.Add == level.action())
                {
                    side.add(index, entry);
                }
                else
                {
                    assertEquals(UpdateAction.Change, level.action(), at);
                    assertEquals(price, side.get(index)[0], at + ": changed price");
                    side.set(index, entry);
                }
            }

            assertBookIsSane(instrument, at);
        }

        private void onTrade(final String at)
        {
            final int instrument = instrument(trade.instrumentId(), at);
            assertEquals(++sequences[instrument], trade.sequence(), at + ": sequence");
            assertTrue(trade.tradeId() > lastTradeId, at + ": trade id");
            lastTradeId = trade.tradeId();
            onTime(trade.transactTime(), at);

            final boolean buy = Side.Buy == trade.aggressorSide();
            assertTrue(buy || Side.Sell == trade.aggressorSide(), at);
            final long[] touch = (buy ? asks : bids).get(instrument).get(0);
            assertEquals(touch[0], trade.price(), at + ": trades at the touch");
            assertTrue(trade.quantity() >= 1 && trade.quantity() <= touch[1], at + ": trade quantity");
            tradedInstrument = instrument;
            tradeTime = trade.transactTime();
            tradePrice = trade.price();
            restingAfterTrade = touch[1] - trade.quantity();
        }

        /**
         * The update that follows a trade: same instrument and time, and the level it hit has what the trade left,
         * or is gone if it took everything.
         */
        private void onBookUpdateAfterTrade(final String at)
        {
            assertEquals(tradedInstrument + 1, bookUpdate.instrumentId(), at + ": the traded instrument");
            assertEquals(tradeTime, bookUpdate.transactTime(), at + ": the trade's time");
            final BookUpdateDecoder.LevelsDecoder first = bookUpdate.sbeRewind().levels().next();
            assertEquals(tradePrice, first.price(), at + ": the level the trade hit");
            assertEquals(1, first.level(), at);
            if (0 == restingAfterTrade)
            {
                assertEquals(UpdateAction.Delete, first.action(), at + ": emptied level deleted");
            }
            else
            {
                assertEquals(UpdateAction.Change, first.action(), at);
                assertEquals(restingAfterTrade, first.quantity(), at + ": what the trade left");
            }
            tradedInstrument = -1;
        }

        private void onTopOfBook(final String at)
        {
            final int instrument = instrument(topOfBook.instrumentId(), at);
            assertEquals(sequences[instrument], topOfBook.sequence(), at + ": sequence of what it reflects");
            onTime(topOfBook.transactTime(), at);

            final long[] bid = bids.get(instrument).get(0);
            final long[] ask = asks.get(instrument).get(0);
            assertEquals(bid[0], topOfBook.bidPrice(), at);
            assertEquals(bid[1], topOfBook.bidQty(), at);
            assertEquals(ask[0], topOfBook.askPrice(), at);
            assertEquals(ask[1], topOfBook.askQty(), at);
        }

        private void assertBookIsSane(final int instrument, final String at)
        {
            final List<long[]> bidLevels = bids.get(instrument);
            final List<long[]> askLevels = asks.get(instrument);
            assertEquals(DEPTH, bidLevels.size(), at + ": bid depth");
            assertEquals(DEPTH, askLevels.size(), at + ": ask depth");
            for (int i = 1; i < DEPTH; i++)
            {
                assertTrue(bidLevels.get(i)[0] < bidLevels.get(i - 1)[0], at + ": bids descend");
                assertTrue(askLevels.get(i)[0] > askLevels.get(i - 1)[0], at + ": asks ascend");
            }
            assertTrue(bidLevels.get(0)[0] < askLevels.get(0)[0], at + ": book not crossed");
            assertTrue(bidLevels.get(DEPTH - 1)[0] > 0, at + ": prices positive");
        }

        private void onTime(final long time, final String at)
        {
            assertTrue(time >= lastTime, at + ": time goes forward");
            lastTime = time;
        }

        private int instrument(final long instrumentId, final String at)
        {
            assertTrue(instrumentId >= 1 && instrumentId <= instruments, at + ": instrument " + instrumentId);
            return (int)instrumentId - 1;
        }
    }
}
