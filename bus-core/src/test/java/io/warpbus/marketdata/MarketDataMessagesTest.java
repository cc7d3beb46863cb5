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

import java.io.InputStream;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import javax.xml.parsers.DocumentBuilderFactory;

import io.warpbus.marketdata.sbe.BookUpdateDecoder;
import io.warpbus.marketdata.sbe.BookUpdateEncoder;
import io.warpbus.marketdata.sbe.HeartbeatEncoder;
import io.warpbus.marketdata.sbe.InstrumentDefinitionDecoder;
import io.warpbus.marketdata.sbe.InstrumentDefinitionEncoder;
import io.warpbus.marketdata.sbe.MessageHeaderEncoder;
import io.warpbus.marketdata.sbe.TopOfBookDecoder;
import io.warpbus.marketdata.sbe.TopOfBookEncoder;
import io.warpbus.marketdata.sbe.TradeDecoder;
import io.warpbus.marketdata.sbe.TradeEncoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MarketDataMessagesTest
{
    private static final int OFFSET = 5;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();

    @Test
    void shouldReadTheInstrumentIdOfEveryInstrumentScopedMessage()
    {
        final int definition = MessageHeaderEncoder.ENCODED_LENGTH + new InstrumentDefinitionEncoder()
            .wrapAndApplyHeader(buffer, OFFSET, header).instrumentId(11).symbol("AAPL").encodedLength();
        assertEquals(11, MarketDataMessages.instrumentId(buffer, OFFSET, definition));

        final BookUpdateEncoder bookUpdate = new BookUpdateEncoder()
            .wrapAndApplyHeader(buffer, OFFSET, header).instrumentId(22).sequence(1);
        bookUpdate.levelsCount(1).next().price(100).quantity(1);
        assertEquals(22, MarketDataMessages.instrumentId(buffer, OFFSET, 8 + bookUpdate.encodedLength()));

        new TradeEncoder().wrapAndApplyHeader(buffer, OFFSET, header).instrumentId(33).price(7);
        assertEquals(33, MarketDataMessages.instrumentId(buffer, OFFSET, 8 + TradeEncoder.BLOCK_LENGTH));

        new TopOfBookEncoder().wrapAndApplyHeader(buffer, OFFSET, header).instrumentId(44).bidQty(1);
        assertEquals(44, MarketDataMessages.instrumentId(buffer, OFFSET, 8 + TopOfBookEncoder.BLOCK_LENGTH));
    }

    @Test
    void shouldReadInstrumentIdsAboveTheIntRangeAsUnsigned()
    {
        new TradeEncoder().wrapAndApplyHeader(buffer, OFFSET, header).instrumentId(4_294_967_295L);

        assertEquals(4_294_967_295L, MarketDataMessages.instrumentId(buffer, OFFSET, 64));
    }

    @Test
    void shouldReturnMinusOneForMessagesWithoutAnInstrument()
    {
        new HeartbeatEncoder().wrapAndApplyHeader(buffer, OFFSET, header).timestamp(123);
        assertEquals(-1, MarketDataMessages.instrumentId(buffer, OFFSET, 16), "Heartbeat");

        new TradeEncoder().wrapAndApplyHeader(buffer, OFFSET, header).instrumentId(33);
        assertEquals(-1, MarketDataMessages.instrumentId(buffer, OFFSET, 11), "too short for the id");
        assertEquals(33, MarketDataMessages.instrumentId(buffer, OFFSET, 12), "just long enough");

        buffer.putShort(OFFSET + 4, (short)2, ByteOrder.LITTLE_ENDIAN);
        assertEquals(-1, MarketDataMessages.instrumentId(buffer, OFFSET, 64), "another schema");
        assertFalse(MarketDataMessages.isMarketData(buffer, OFFSET, 64));

        header.wrap(buffer, OFFSET).blockLength(8).templateId(99).schemaId(1).version(0);
        assertEquals(-1, MarketDataMessages.instrumentId(buffer, OFFSET, 64), "a template this build does not know");
        assertTrue(MarketDataMessages.isMarketData(buffer, OFFSET, 64));
        assertEquals(99, MarketDataMessages.templateId(buffer, OFFSET));

        header.wrap(buffer, OFFSET).blockLength(2).templateId(3).schemaId(1).version(0);
        assertEquals(-1, MarketDataMessages.instrumentId(buffer, OFFSET, 64), "a root block without room for it");
    }

    @Test
    void shouldReadTheIdFromAMessageOfALaterSchemaVersion()
    {
        new TradeEncoder().wrapAndApplyHeader(buffer, OFFSET, header).instrumentId(55);
        header.wrap(buffer, OFFSET).blockLength(TradeEncoder.BLOCK_LENGTH + 8).version(1);

        assertEquals(55, MarketDataMessages.instrumentId(buffer, OFFSET, 8 + TradeEncoder.BLOCK_LENGTH + 8));
    }

    @Test
    void shouldHaveTheInstrumentIdAtBodyOffsetZeroInTheGeneratedCodecs()
    {
        assertEquals(0, InstrumentDefinitionDecoder.instrumentIdEncodingOffset());
        assertEquals(0, BookUpdateDecoder.instrumentIdEncodingOffset());
        assertEquals(0, TradeDecoder.instrumentIdEncodingOffset());
        assertEquals(0, TopOfBookDecoder.instrumentIdEncodingOffset());
        assertEquals(8, MarketDataMessages.INSTRUMENT_ID_OFFSET);
    }

    /**
     * The conflation-key rule of the schema, checked on the schema itself so a new message cannot break it unseen:
     * a message with an instrumentId has it as its first field, of type InstrumentId, and is listed as
     * instrument-scoped; a message without one is not.
     */
    @Test
    void shouldKeepTheConflationKeyRuleForEveryMessageOfTheSchema() throws Exception
    {
        final Document schema;
        try (InputStream in = MarketDataMessagesTest.class.getResourceAsStream("/sbe/market-data.xml"))
        {
            assertNotNull(in, "sbe/market-data.xml on the classpath");
            final DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            schema = factory.newDocumentBuilder().parse(in);
        }

        final NodeList messages = schema.getElementsByTagNameNS("http://fixprotocol.io/2016/sbe", "message");
        final List<String> scoped = new ArrayList<>();
        for (int i = 0; i < messages.getLength(); i++)
        {
            final Element message = (Element)messages.item(i);
            final String name = message.getAttribute("name");
            final int templateId = Integer.parseInt(message.getAttribute("id"));
            final List<Element> fields = childFields(message);
            final boolean hasInstrumentId = fields.stream()
                .anyMatch((field) -> "instrumentId".equals(field.getAttribute("name")));

            assertEquals(hasInstrumentId, MarketDataMessages.isInstrumentScoped(templateId), name);
            if (hasInstrumentId)
            {
                assertEquals("instrumentId", fields.get(0).getAttribute("name"), name + ": first field");
                assertEquals("InstrumentId", fields.get(0).getAttribute("type"), name + ": type");
                assertFalse(fields.get(0).hasAttribute("offset"), name + ": no explicit offset");
                scoped.add(name);
            }
        }

        assertEquals(List.of("InstrumentDefinition", "BookUpdate", "Trade", "TopOfBook"), scoped);
        assertEquals(5, messages.getLength());
    }

    private static List<Element> childFields(final Element message)
    {
        final List<Element> fields = new ArrayList<>();
        for (Node child = message.getFirstChild(); null != child; child = child.getNextSibling())
        {
            if (child instanceof Element && "field".equals(child.getLocalName()))
            {
                fields.add((Element)child);
            }
        }

        return fields;
    }
}
