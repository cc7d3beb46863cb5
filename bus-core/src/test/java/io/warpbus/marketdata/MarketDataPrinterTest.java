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

import io.warpbus.marketdata.sbe.BookUpdateEncoder;
import io.warpbus.marketdata.sbe.HeartbeatEncoder;
import io.warpbus.marketdata.sbe.InstrumentDefinitionEncoder;
import io.warpbus.marketdata.sbe.MessageHeaderEncoder;
import io.warpbus.marketdata.sbe.Side;
import io.warpbus.marketdata.sbe.TopOfBookEncoder;
import io.warpbus.marketdata.sbe.TradeEncoder;
import io.warpbus.marketdata.sbe.UpdateAction;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class MarketDataPrinterTest
{
    private static final int OFFSET = 3;
    private static final long T0 = 1_772_461_800_000_000_000L;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1024]);
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final MarketDataPrinter printer = new MarketDataPrinter();

    @Test
    void shouldPrintAnInstrumentDefinition()
    {
        final int length = encodeAaplDefinition(OFFSET);

        assertEquals(
            "InstrumentDefinition instrumentId=1 symbol=AAPL currency=USD priceScale=2 tickSize=0.01 lotSize=100",
            printer.format(buffer, OFFSET, length));
    }

    @Test
    void shouldPrintABookUpdateWithPricesScaledByTheDefinition()
    {
        encodeAaplDefinition(OFFSET);
        printer.format(buffer, OFFSET, 48);
        final BookUpdateEncoder encoder = new BookUpdateEncoder().wrapAndApplyHeader(buffer, OFFSET, header)
            .instrumentId(1)
            .sequence(7)
            .transactTime(T0 + 12_345);
        final BookUpdateEncoder.LevelsEncoder levels = encoder.levelsCount(2);
        levels.next().side(Side.Buy).action(UpdateAction.Change).level((short)1).price(19_001).quantity(12)
            .orderCount(3);
        levels.next().side(Side.Sell).action(UpdateAction.Delete).level((short)2).price(19_003).quantity(0)
            .orderCount(0);

        assertEquals(
            "BookUpdate instrumentId=1 sequence=7 transactTime=2026-03-02T14:30:00.000012345Z " +
            "levels=[Buy Change L1 12@190.01 orders=3, Sell Delete L2 0@190.03 orders=0]",
            printer.format(buffer, OFFSET, 8 + encoder.encodedLength()));
    }

    @Test
    void shouldPrintRawPricesUntilTheInstrumentIsDefined()
    {
        final int length = encodeTrade(OFFSET, Side.Buy);
        assertEquals(
            "Trade instrumentId=1 sequence=8 transactTime=2026-03-02T14:30:00.000020000Z tradeId=42 price=19002 " +
            "quantity=5 aggressorSide=Buy",
            printer.format(buffer, OFFSET, length));

        printer.format(buffer, 200, encodeAaplDefinition(200));
        assertEquals(
            "Trade instrumentId=1 sequence=8 transactTime=2026-03-02T14:30:00.000020000Z tradeId=42 price=190.02 " +
            "quantity=5 aggressorSide=Buy",
            printer.format(buffer, OFFSET, length));
    }

    @Test
    void shouldPrintATradeWithoutAggressorAndOneWithAnUnknownSide()
    {
        final int length = encodeTrade(OFFSET, Side.NULL_VAL);
        assertEquals(
            "Trade instrumentId=1 sequence=8 transactTime=2026-03-02T14:30:00.000020000Z tradeId=42 price=19002 " +
            "quantity=5 aggressorSide=none",
            printer.format(buffer, OFFSET, length));

        buffer.putByte(OFFSET + 8 + 44, (byte)9);
        assertEquals(
            "Trade instrumentId=1 sequence=8 transactTime=2026-03-02T14:30:00.000020000Z tradeId=42 price=19002 " +
            "quantity=5 aggressorSide=unknown",
            printer.format(buffer, OFFSET, length));
    }

    @Test
    void shouldPrintATopOfBookWithAnEmptySide()
    {
        printer.format(buffer, 200, encodeAaplDefinition(200));
        new TopOfBookEncoder().wrapAndApplyHeader(buffer, OFFSET, header)
            .instrumentId(1)
            .sequence(8)
            .transactTime(T0 + 30_000)
            .bidPrice(-5)
            .bidQty(12)
            .askPrice(TopOfBookEncoder.askPriceNullValue())
            .askQty(0);

        assertEquals(
            "TopOfBook instrumentId=1 sequence=8 transactTime=2026-03-02T14:30:00.000030000Z bid=12@-0.05 ask=0@null",
            printer.format(buffer, OFFSET, 60));
    }

    @Test
    void shouldPrintAHeartbeat()
    {
        new HeartbeatEncoder().wrapAndApplyHeader(buffer, OFFSET, header).timestamp(T0 + 1_000_000);

        assertEquals("Heartbeat timestamp=2026-03-02T14:30:00.001000000Z", printer.format(buffer, OFFSET, 16));
        new HeartbeatEncoder().wrapAndApplyHeader(buffer, OFFSET, header).timestamp(0);
        assertEquals("Heartbeat timestamp=1970-01-01T00:00:00.000000000Z", printer.format(buffer, OFFSET, 16));
    }

    @Test
    void shouldReturnTheLengthOfEachMessageSoBackToBackMessagesCanBeWalked()
    {
        final int first = encodeAaplDefinition(OFFSET);
        final int second = encodeTrade(OFFSET + first, Side.Sell);
        final StringBuilder out = new StringBuilder();

        assertEquals(48, printer.appendTo(out, buffer, OFFSET, first + second));
        assertEquals(53, printer.appendTo(out.append('\n'), buffer, OFFSET + 48, second));
        assertEquals(
            "InstrumentDefinition instrumentId=1 symbol=AAPL currency=USD priceScale=2 tickSize=0.01 lotSize=100\n" +
            "Trade instrumentId=1 sequence=8 transactTime=2026-03-02T14:30:00.000020000Z tradeId=42 price=190.02 " +
            "quantity=5 aggressorSide=Sell",
            out.toString());
    }

    @Test
    void shouldDescribeWhatItCannotDecode()
    {
        assertEquals("Truncated header length=5", printer.format(buffer, OFFSET, 5));

        final int trade = encodeTrade(OFFSET, Side.Buy);
        assertEquals("Truncated Trade blockLength=45 length=30", printer.format(buffer, OFFSET, 30));

        buffer.putShort(OFFSET + 4, (short)2, ByteOrder.LITTLE_ENDIAN);
        assertEquals("Unknown schemaId=2 templateId=3 version=0 blockLength=45 length=53",
            printer.format(buffer, OFFSET, trade));

        header.wrap(buffer, OFFSET).blockLength(4).templateId(77).schemaId(1).version(0);
        assertEquals("Unknown schemaId=1 templateId=77 version=0 blockLength=4 length=53",
            printer.format(buffer, OFFSET, trade));
        assertEquals(53, printer.appendTo(new StringBuilder(), buffer, OFFSET, trade));

        final BookUpdateEncoder bookUpdate = new BookUpdateEncoder().wrapAndApplyHeader(buffer, OFFSET, header);
        final BookUpdateEncoder.LevelsEncoder levels = bookUpdate.levelsCount(3);
        levels.next();
        levels.next();
        levels.next();
        assertEquals("Truncated BookUpdate blockLength=20 length=80", printer.format(buffer, OFFSET, 80));
        assertEquals("Truncated BookUpdate blockLength=20 length=30", printer.format(buffer, OFFSET, 30));
    }

    private int encodeAaplDefinition(final int offset)
    {
        return MessageHeaderEncoder.ENCODED_LENGTH + new InstrumentDefinitionEncoder()
            .wrapAndApplyHeader(buffer, offset, header)
            .instrumentId(1)
            .priceScale((short)2)
            .currency("USD")
            .tickSize(1)
            .lotSize(100)
            .symbol("AAPL")
            .encodedLength();
    }

    private int encodeTrade(final int offset, final Side aggressor)
    {
        return MessageHeaderEncoder.ENCODED_LENGTH + new TradeEncoder()
            .wrapAndApplyHeader(buffer, offset, header)
            .instrumentId(1)
            .sequence(8)
            .transactTime(T0 + 20_000)
            .tradeId(42)
            .price(19_002)
            .quantity(5)
            .aggressorSide(aggressor)
            .encodedLength();
    }
}
