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

import io.warpbus.marketdata.sbe.BookUpdateDecoder;
import io.warpbus.marketdata.sbe.InstrumentDefinitionDecoder;
import io.warpbus.marketdata.sbe.MessageHeaderDecoder;
import io.warpbus.marketdata.sbe.TopOfBookDecoder;
import io.warpbus.marketdata.sbe.TradeDecoder;
import org.agrona.DirectBuffer;

/**
 * Reads what the bus needs from a market-data message without decoding it: whether it belongs to the schema and
 * the instrument it is about, which is the conflation key.
 * <p>
 * The schema puts {@code instrumentId} (uint32, little-endian) first in the root block of every instrument-scoped
 * message, at {@link #INSTRUMENT_ID_OFFSET} bytes from the start of the message. Allocation free and stateless.
 */
public final class MarketDataMessages
{
    /**
     * Schema id of the market-data schema, as found in every message header.
     */
    public static final int SCHEMA_ID = MessageHeaderDecoder.SCHEMA_ID;

    /**
     * Length of the message header that precedes every message body.
     */
    public static final int HEADER_LENGTH = MessageHeaderDecoder.ENCODED_LENGTH;

    /**
     * Offset of the instrument id from the start of an instrument-scoped message, header included.
     */
    public static final int INSTRUMENT_ID_OFFSET = HEADER_LENGTH;

    /**
     * Returned by {@link #instrumentId(DirectBuffer, int, int)} for a message that has no instrument id.
     */
    public static final long NO_INSTRUMENT_ID = -1;

    private static final int INSTRUMENT_ID_LENGTH = 4;
    private static final long UINT32_MASK = 0xFFFF_FFFFL;

    private MarketDataMessages()
    {
    }

    /**
     * Is this template one of the messages about a single instrument, with the instrument id at body offset 0?
     *
     * @param templateId from the message header.
     * @return true for InstrumentDefinition, BookUpdate, Trade and TopOfBook; false for Heartbeat and unknown ids.
     */
    public static boolean isInstrumentScoped(final int templateId)
    {
        switch (templateId)
        {
            case InstrumentDefinitionDecoder.TEMPLATE_ID:
            case BookUpdateDecoder.TEMPLATE_ID:
            case TradeDecoder.TEMPLATE_ID:
            case TopOfBookDecoder.TEMPLATE_ID:
                return true;

            default:
                return false;
        }
    }

    /**
     * Is there a market-data message header at this offset?
     *
     * @param buffer holding the message.
     * @param offset of the message header.
     * @param length of the message, header included.
     * @return true if the message is long enough for a header and the header carries the market-data schema id.
     */
    public static boolean isMarketData(final DirectBuffer buffer, final int offset, final int length)
    {
        return length >= HEADER_LENGTH && SCHEMA_ID == schemaId(buffer, offset);
    }

    /**
     * The instrument id of the message at an offset, the conflation key of the bus: one read at a fixed offset once
     * the header has been checked.
     *
     * @param buffer holding the message.
     * @param offset of the message header.
     * @param length of the message, header included.
     * @return the instrument id (0 to 2^32 - 1), or {@link #NO_INSTRUMENT_ID} if the message is too short, not of
     * the market-data schema, or of a template without an instrument (Heartbeat, or one this build does not know).
     */
    public static long instrumentId(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < INSTRUMENT_ID_OFFSET + INSTRUMENT_ID_LENGTH ||
            SCHEMA_ID != schemaId(buffer, offset) ||
            !isInstrumentScoped(templateId(buffer, offset)) ||
            blockLength(buffer, offset) < INSTRUMENT_ID_LENGTH)
        {
            return NO_INSTRUMENT_ID;
        }

        return buffer.getInt(offset + INSTRUMENT_ID_OFFSET, MessageHeaderDecoder.BYTE_ORDER) & UINT32_MASK;
    }

    /**
     * The template id from the message header at an offset, unchecked.
     *
     * @param buffer holding the message.
     * @param offset of the message header.
     * @return the template id.
     */
    public static int templateId(final DirectBuffer buffer, final int offset)
    {
        return uint16(buffer, offset + MessageHeaderDecoder.templateIdEncodingOffset());
    }

    private static int schemaId(final DirectBuffer buffer, final int offset)
    {
        return uint16(buffer, offset + MessageHeaderDecoder.schemaIdEncodingOffset());
    }

    private static int blockLength(final DirectBuffer buffer, final int offset)
    {
        return uint16(buffer, offset + MessageHeaderDecoder.blockLengthEncodingOffset());
    }

    private static int uint16(final DirectBuffer buffer, final int index)
    {
        return buffer.getShort(index, MessageHeaderDecoder.BYTE_ORDER) & 0xFFFF;
    }
}
