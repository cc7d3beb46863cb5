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

import java.nio.ByteOrder;

import io.warpbus.marketdata.sbe.BookUpdateDecoder;
import io.warpbus.marketdata.sbe.BookUpdateEncoder;
import io.warpbus.marketdata.sbe.HeartbeatDecoder;
import io.warpbus.marketdata.sbe.HeartbeatEncoder;
import io.warpbus.marketdata.sbe.InstrumentDefinitionDecoder;
import io.warpbus.marketdata.sbe.InstrumentDefinitionEncoder;
import io.warpbus.marketdata.sbe.MessageHeaderDecoder;
import io.warpbus.marketdata.sbe.MessageHeaderEncoder;
import io.warpbus.marketdata.sbe.Side;
import io.warpbus.marketdata.sbe.TopOfBookDecoder;
import io.warpbus.marketdata.sbe.TopOfBookEncoder;
import io.warpbus.marketdata.sbe.TradeDecoder;
import io.warpbus.marketdata.sbe.TradeEncoder;
import io.warpbus.marketdata.sbe.UpdateAction;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Encodes every message of the schema with literal values, checks lengths and key bytes against the layout worked
 * out by hand from the schema, and decodes the literals back. Messages are placed at an odd offset so nothing
 * relies on alignment.
 */
class MarketDataCodecTest
{
    private static final int OFFSET = 13;
    private static final long T0 = 1_772_461_800_000_000_000L;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[512]);
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();

    @Test
    void shouldRoundTripInstrumentDefinition()
    {
        final InstrumentDefinitionEncoder encoder = new InstrumentDefinitionEncoder()
            .wrapAndApplyHeader(buffer, OFFSET, headerEncoder)
            .instrumentId(4_000_000_001L)
            .priceScale((short)2)
            .currency("USD")
            .tickSize(25)
            .lotSize(100)
            .symbol("ESZ6");

        // 4 instrumentId + 1 priceScale + 3 currency + 8 tickSize + 8 lotSize + 16 symbol
        assertEquals(40, encoder.encodedLength());
        assertHeader(40, 1);
        assertEquals(0xEE6B2801, buffer.getInt(OFFSET + 8, ByteOrder.LITTLE_ENDIAN));
        assertEquals('U', buffer.getByte(OFFSET + 8 + 5));
        assertEquals('E', buffer.getByte(OFFSET + 8 + 24));
        assertEquals(0, buffer.getByte(OFFSET + 8 + 28), "symbol is NUL padded");

        final InstrumentDefinitionDecoder decoder = new InstrumentDefinitionDecoder()
            .wrapAndApplyHeader(buffer, OFFSET, headerDecoder);
        assertEquals(4_000_000_001L, decoder.instrumentId());
        assertEquals(2, decoder.priceScale());
        assertEquals("USD", decoder.currency());
        assertEquals(25, decoder.tickSize());
        assertEquals(100, decoder.lotSize());
        assertEquals("ESZ6", decoder.symbol());
    }

    @Test
    void shouldRoundTripBookUpdateWithItsLevels()
    {
        final BookUpdateEncoder encoder = new BookUpdateEncoder()
            .wrapAndApplyHeader(buffer, OFFSET, headerEncoder)
            .instrumentId(7)
            .sequence(0xFFFF_FFFF_FFFF_FFFEL)
            .transactTime(T0 + 12_345);
        final BookUpdateEncoder.LevelsEncoder levels = encoder.levelsCount(3);
        levels.next().price(19_001).quantity(12).orderCount(3).level((short)1).side(Side.Buy)
            .action(UpdateAction.Add);
        levels.next().price(19_003).quantity(40).orderCount(9).level((short)2).side(Side.Sell)
            .action(UpdateAction.Change);
        levels.next().price(-5).quantity(0).orderCount(0).level((short)5).side(Side.Sell)
            .action(UpdateAction.Delete);

        // root 4 + 8 + 8, group header 2 + 2, each level 8 + 8 + 4 + 1 + 1 + 1
        assertEquals(20 + 4 + 3 * 23, encoder.encodedLength());
        assertHeader(20, 2);
        assertEquals(23, buffer.getShort(OFFSET + 28, ByteOrder.LITTLE_ENDIAN), "group block length");
        assertEquals(3, buffer.getShort(OFFSET + 30, ByteOrder.LITTLE_ENDIAN), "group count");
        assertEquals(2, buffer.getByte(OFFSET + 32 + 2 * 23 + 22), "third level's action is Delete");

        final BookUpdateDecoder decoder = new BookUpdateDecoder().wrapAndApplyHeader(buffer, OFFSET, headerDecoder);
        assertEquals(7, decoder.instrumentId());
        assertEquals(0xFFFF_FFFF_FFFF_FFFEL, decoder.sequence());
        assertEquals(1_772_461_800_000_012_345L, decoder.transactTime());
        final BookUpdateDecoder.LevelsDecoder decoded = decoder.levels();
        assertEquals(3, decoded.count());

        decoded.next();
        assertLevel(decoded, 19_001, 12, 3, 1, Side.Buy, UpdateAction.Add);
        decoded.next();
        assertLevel(decoded, 19_003, 40, 9, 2, Side.Sell, UpdateAction.Change);
        decoded.next();
        assertLevel(decoded, -5, 0, 0, 5, Side.Sell, UpdateAction.Delete);
        assertFalse(decoded.hasNext());
        assertEquals(93, decoder.encodedLength());
    }

    @Test
    void shouldRoundTripTrade()
    {
        final TradeEncoder encoder = new TradeEncoder()
            .wrapAndApplyHeader(buffer, OFFSET, headerEncoder)
            .instrumentId(42)
            .sequence(1001)
            .transactTime(T0)
            .tradeId(987_654_321L)
            .price(6_500_125)
            .quantity(3)
            .aggressorSide(Side.Sell);

        // 4 + 8 sequence + 8 transactTime + 8 tradeId + 8 price + 8 quantity + 1 aggressorSide
        assertEquals(45, encoder.encodedLength());
        assertHeader(45, 3);
        assertEquals(1, buffer.getByte(OFFSET + 8 + 44), "aggressorSide Sell");

        final TradeDecoder decoder = new TradeDecoder().wrapAndApplyHeader(buffer, OFFSET, headerDecoder);
        assertEquals(42, decoder.instrumentId());
        assertEquals(1001, decoder.sequence());
        assertEquals(1_772_461_800_000_000_000L, decoder.transactTime());
        assertEquals(987_654_321L, decoder.tradeId());
        assertEquals(6_500_125, decoder.price());
        assertEquals(3, decoder.quantity());
        assertEquals(Side.Sell, decoder.aggressorSide());
    }

    @Test
    void shouldRoundTripTradeWithoutAggressor()
    {
        new TradeEncoder().wrapAndApplyHeader(buffer, OFFSET, headerEncoder).aggressorSide(Side.NULL_VAL);

        assertEquals((byte)0xFF, buffer.getByte(OFFSET + 8 + 44));
        assertEquals(Side.NULL_VAL, new TradeDecoder().wrapAndApplyHeader(buffer, OFFSET, headerDecoder)
            .aggressorSide());
    }

    @Test
    void shouldRoundTripTopOfBookWithAnEmptySide()
    {
        final TopOfBookEncoder encoder = new TopOfBookEncoder()
            .wrapAndApplyHeader(buffer, OFFSET, headerEncoder)
            .instrumentId(3)
            .sequence(77)
            .transactTime(T0 + 1)
            .bidPrice(108_512)
            .bidQty(5)
            .askPrice(TopOfBookEncoder.askPriceNullValue())
            .askQty(0);

        // 4 + 8 sequence + 8 transactTime + 4 * 8 prices and quantities
        assertEquals(52, encoder.encodedLength());
        assertHeader(52, 4);
        assertEquals(Long.MIN_VALUE, buffer.getLong(OFFSET + 8 + 36, ByteOrder.LITTLE_ENDIAN));

        final TopOfBookDecoder decoder = new TopOfBookDecoder().wrapAndApplyHeader(buffer, OFFSET, headerDecoder);
        assertEquals(3, decoder.instrumentId());
        assertEquals(77, decoder.sequence());
        assertEquals(1_772_461_800_000_000_001L, decoder.transactTime());
        assertEquals(108_512, decoder.bidPrice());
        assertEquals(5, decoder.bidQty());
        assertEquals(Long.MIN_VALUE, decoder.askPrice());
        assertEquals(0, decoder.askQty());
    }

    @Test
    void shouldEncodeHeartbeatByteForByte()
    {
        final HeartbeatEncoder encoder = new HeartbeatEncoder()
            .wrapAndApplyHeader(buffer, OFFSET, headerEncoder)
            .timestamp(0x0102_0304_0506_0708L);

        assertEquals(8, encoder.encodedLength());
        final byte[] expected = {
            8, 0, 5, 0, 1, 0, 0, 0,  // blockLength 8, templateId 5, schemaId 1, version 0
            8, 7, 6, 5, 4, 3, 2, 1   // timestamp, little-endian
        };
        final byte[] actual = new byte[expected.length];
        buffer.getBytes(OFFSET, actual);
        for (int i = 0; i < expected.length; i++)
        {
            assertEquals(expected[i], actual[i], "byte " + i);
        }

        final HeartbeatDecoder decoder = new HeartbeatDecoder().wrapAndApplyHeader(buffer, OFFSET, headerDecoder);
        assertEquals(0x0102_0304_0506_0708L, decoder.timestamp());
    }

    @Test
    void shouldDecodeAnEnumValueFromANewerProducerAsUnknown()
    {
        new TradeEncoder().wrapAndApplyHeader(buffer, OFFSET, headerEncoder);
        buffer.putByte(OFFSET + 8 + 44, (byte)7);

        assertEquals(Side.SBE_UNKNOWN, new TradeDecoder().wrapAndApplyHeader(buffer, OFFSET, headerDecoder)
            .aggressorSide());
    }

    private void assertHeader(final int blockLength, final int templateId)
    {
        headerDecoder.wrap(buffer, OFFSET);
        assertEquals(blockLength, headerDecoder.blockLength());
        assertEquals(templateId, headerDecoder.templateId());
        assertEquals(1, headerDecoder.schemaId());
        assertEquals(0, headerDecoder.version());
        assertTrue(buffer.getShort(OFFSET, ByteOrder.LITTLE_ENDIAN) == blockLength, "little-endian header");
    }

    private static void assertLevel(
        final BookUpdateDecoder.LevelsDecoder level,
        final long price,
        final long quantity,
        final long orderCount,
        final int depth,
        final Side side,
        final UpdateAction action)
    {
        assertEquals(price, level.price());
        assertEquals(quantity, level.quantity());
        assertEquals(orderCount, level.orderCount());
        assertEquals(depth, level.level());
        assertEquals(side, level.side());
        assertEquals(action, level.action());
    }
}
