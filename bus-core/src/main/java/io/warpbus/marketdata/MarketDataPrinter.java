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

import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

import io.warpbus.marketdata.sbe.BookUpdateDecoder;
import io.warpbus.marketdata.sbe.HeartbeatDecoder;
import io.warpbus.marketdata.sbe.InstrumentDefinitionDecoder;
import io.warpbus.marketdata.sbe.MessageHeaderDecoder;
import io.warpbus.marketdata.sbe.Side;
import io.warpbus.marketdata.sbe.TopOfBookDecoder;
import io.warpbus.marketdata.sbe.TradeDecoder;
import io.warpbus.marketdata.sbe.UpdateAction;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2LongHashMap;

/**
 * Decodes any message of the market-data schema into one human-readable line, as {@code warpbus journal dump}
 * shows it. For example, with {@code T} standing for a UTC time such as {@code 2026-03-02T14:30:00.000012345Z}:
 * <pre>
 * InstrumentDefinition instrumentId=1 symbol=AAPL currency=USD priceScale=2 tickSize=0.01 lotSize=100
 * BookUpdate instrumentId=1 sequence=7 transactTime=T levels=[Buy Change L1 12@190.01 orders=3, ...]
 * Trade instrumentId=1 sequence=8 transactTime=T tradeId=42 price=190.02 quantity=5 aggressorSide=Buy
 * TopOfBook instrumentId=1 sequence=8 transactTime=T bid=12@190.01 ask=2@190.02
 * Heartbeat timestamp=T
 * </pre>
 * Book levels read side, action, level (L1 is the best), quantity{@code @}price and order count; a trade without
 * an aggressor shows {@code aggressorSide=none}.
 * Prices are shown as decimals once the printer has seen the instrument's {@code InstrumentDefinition} (it remembers
 * the price scale of every definition it prints), and as the raw integer before that; an absent price shows as
 * {@code null}. Times are UTC with nanoseconds. Messages of another schema, of unknown templates or cut short are
 * described rather than decoded, never thrown at.
 * <p>
 * Reuses its decoders; not thread safe, and meant for tools rather than the hot path.
 */
public final class MarketDataPrinter
{
    private static final long UNKNOWN_SCALE = -1;
    private static final int MAX_PRICE_SCALE = 18;
    private static final int NANOS_DIGITS = 9;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final DateTimeFormatter SECONDS =
        DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss").withZone(ZoneOffset.UTC);

    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final InstrumentDefinitionDecoder definitionDecoder = new InstrumentDefinitionDecoder();
    private final BookUpdateDecoder bookUpdateDecoder = new BookUpdateDecoder();
    private final TradeDecoder tradeDecoder = new TradeDecoder();
    private final TopOfBookDecoder topOfBookDecoder = new TopOfBookDecoder();
    private final HeartbeatDecoder heartbeatDecoder = new HeartbeatDecoder();
    private final Long2LongHashMap priceScaleByInstrument = new Long2LongHashMap(UNKNOWN_SCALE);
    private final StringBuilder line = new StringBuilder(256);

    /**
     * Decode a message into one line.
     *
     * @param buffer holding the message.
     * @param offset of the message header.
     * @param length available for the message, header included; the message may be shorter.
     * @return the line, without a line separator.
     */
    public String format(final DirectBuffer buffer, final int offset, final int length)
    {
        line.setLength(0);
        appendTo(line, buffer, offset, length);
        return line.toString();
    }

    /**
     * Decode a message and append it as one line.
     *
     * @param out    to append to; no line separator is added.
     * @param buffer holding the message.
     * @param offset of the message header.
     * @param length available for the message, header included; the message may be shorter.
     * @return the length of the decoded message, header included, so the next of several messages placed back to
     * back starts there; {@code length} when the message could not be decoded.
     */
    public int appendTo(final StringBuilder out, final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < MessageHeaderDecoder.ENCODED_LENGTH)
        {
            out.append("Truncated header length=").append(length);
            return length;
        }

        headerDecoder.wrap(buffer, offset);
        final int templateId = headerDecoder.templateId();
        final int blockLength = headerDecoder.blockLength();
        final int version = headerDecoder.version();
        final int bodyOffset = offset + MessageHeaderDecoder.ENCODED_LENGTH;
        final int bodyLength = length - MessageHeaderDecoder.ENCODED_LENGTH;

        if (MessageHeaderDecoder.SCHEMA_ID != headerDecoder.schemaId() || !isKnownTemplate(templateId))
        {
            appendUnknown(out, length);
            return length;
        }

        final int decodedLength = decodedLength(buffer, templateId, bodyOffset, bodyLength, blockLength, version);
        if (decodedLength < 0 || decodedLength > bodyLength)
        {
            out.append("Truncated ").append(templateName(templateId))
                .append(" blockLength=").append(blockLength).append(" length=").append(length);
            return length;
        }

        switch (templateId)
        {
            case InstrumentDefinitionDecoder.TEMPLATE_ID:
                appendDefinition(out);
                break;

            case BookUpdateDecoder.TEMPLATE_ID:
                appendBookUpdate(out);
                break;

            case TradeDecoder.TEMPLATE_ID:
                appendTrade(out);
                break;

            case TopOfBookDecoder.TEMPLATE_ID:
                appendTopOfBook(out);
                break;

            default:
                out.append("Heartbeat timestamp=");
                appendTime(out, heartbeatDecoder.timestamp());
                break;
        }

        return MessageHeaderDecoder.ENCODED_LENGTH + decodedLength;
    }

    /**
     * Wrap the decoder of the template and measure the message body, or -1 if even its fixed part is cut short.
     */
    private int decodedLength(
        final DirectBuffer buffer,
        final int templateId,
        final int bodyOffset,
        final int bodyLength,
        final int blockLength,
        final int version)
    {
        switch (templateId)
        {
            case InstrumentDefinitionDecoder.TEMPLATE_ID:
                return blockLength < InstrumentDefinitionDecoder.BLOCK_LENGTH ? -1 :
                    definitionDecoder.wrap(buffer, bodyOffset, blockLength, version).sbeDecodedLength();

            case BookUpdateDecoder.TEMPLATE_ID:
                if (blockLength < BookUpdateDecoder.BLOCK_LENGTH ||
                    bodyLength < blockLength + BookUpdateDecoder.LevelsDecoder.HEADER_SIZE)
                {
                    return -1;
                }
                return bookUpdateDecoder.wrap(buffer, bodyOffset, blockLength, version).sbeDecodedLength();

            case TradeDecoder.TEMPLATE_ID:
                return blockLength < TradeDecoder.BLOCK_LENGTH ? -1 :
                    tradeDecoder.wrap(buffer, bodyOffset, blockLength, version).sbeDecodedLength();

            case TopOfBookDecoder.TEMPLATE_ID:
                return blockLength < TopOfBookDecoder.BLOCK_LENGTH ? -1 :
                    topOfBookDecoder.wrap(buffer, bodyOffset, blockLength, version).sbeDecodedLength();

            default:
                return blockLength < HeartbeatDecoder.BLOCK_LENGTH ? -1 :
                    heartbeatDecoder.wrap(buffer, bodyOffset, blockLength, version).sbeDecodedLength();
        }
    }

    private void appendDefinition(final StringBuilder out)
    {
        final InstrumentDefinitionDecoder decoder = definitionDecoder;
        final long instrumentId = decoder.instrumentId();
        final short priceScale = decoder.priceScale();
        if (priceScale <= MAX_PRICE_SCALE)
        {
            priceScaleByInstrument.put(instrumentId, priceScale);
        }

        out.append("InstrumentDefinition instrumentId=").append(instrumentId).append(" symbol=");
        decoder.getSymbol(out);
        out.append(" currency=");
        decoder.getCurrency(out);
        out.append(" priceScale=").append(priceScale).append(" tickSize=");
        appendPrice(out, instrumentId, decoder.tickSize());
        out.append(" lotSize=").append(decoder.lotSize());
    }

    private void appendBookUpdate(final StringBuilder out)
    {
        final BookUpdateDecoder decoder = bookUpdateDecoder;
        final long instrumentId = decoder.instrumentId();
        out.append("BookUpdate instrumentId=").append(instrumentId)
            .append(" sequence=").append(Long.toUnsignedString(decoder.sequence()))
            .append(" transactTime=");
        appendTime(out, decoder.transactTime());
        out.append(" levels=[");

        String separator = "";
        for (final BookUpdateDecoder.LevelsDecoder level : decoder.levels())
        {
            out.append(separator);
            appendSide(out, level.side());
            out.append(' ').append(actionName(level.action()))
                .append(" L").append(level.level())
                .append(' ').append(level.quantity()).append('@');
            appendPrice(out, instrumentId, level.price());
            out.append(" orders=").append(level.orderCount());
            separator = ", ";
        }
        out.append(']');
    }

    private void appendTrade(final StringBuilder out)
    {
        final TradeDecoder decoder = tradeDecoder;
        final long instrumentId = decoder.instrumentId();
        out.append("Trade instrumentId=").append(instrumentId)
            .append(" sequence=").append(Long.toUnsignedString(decoder.sequence()))
            .append(" transactTime=");
        appendTime(out, decoder.transactTime());
        out.append(" tradeId=").append(Long.toUnsignedString(decoder.tradeId())).append(" price=");
        appendPrice(out, instrumentId, decoder.price());
        out.append(" quantity=").append(decoder.quantity()).append(" aggressorSide=");
        appendSide(out, decoder.aggressorSide());
    }

    private void appendTopOfBook(final StringBuilder out)
    {
        final TopOfBookDecoder decoder = topOfBookDecoder;
        final long instrumentId = decoder.instrumentId();
        out.append("TopOfBook instrumentId=").append(instrumentId)
            .append(" sequence=").append(Long.toUnsignedString(decoder.sequence()))
            .append(" transactTime=");
        appendTime(out, decoder.transactTime());
        out.append(" bid=").append(decoder.bidQty()).append('@');
        appendOptionalPrice(out, instrumentId, decoder.bidPrice());
        out.append(" ask=").append(decoder.askQty()).append('@');
        appendOptionalPrice(out, instrumentId, decoder.askPrice());
    }

    private void appendUnknown(final StringBuilder out, final int length)
    {
        out.append("Unknown schemaId=").append(headerDecoder.schemaId())
            .append(" templateId=").append(headerDecoder.templateId())
            .append(" version=").append(headerDecoder.version())
            .append(" blockLength=").append(headerDecoder.blockLength())
            .append(" length=").append(length);
    }

    private void appendOptionalPrice(final StringBuilder out, final long instrumentId, final long price)
    {
        if (TopOfBookDecoder.bidPriceNullValue() == price)
        {
            out.append("null");
        }
        else
        {
            appendPrice(out, instrumentId, price);
        }
    }

    private void appendPrice(final StringBuilder out, final long instrumentId, final long price)
    {
        final long scale = priceScaleByInstrument.get(instrumentId);
        if (UNKNOWN_SCALE == scale)
        {
            out.append(price);
        }
        else
        {
            out.append(BigDecimal.valueOf(price, (int)scale).toPlainString());
        }
    }

    private static void appendTime(final StringBuilder out, final long nanosSinceEpoch)
    {
        final long seconds = Long.divideUnsigned(nanosSinceEpoch, NANOS_PER_SECOND);
        final String nanos = Long.toString(Long.remainderUnsigned(nanosSinceEpoch, NANOS_PER_SECOND));
        SECONDS.formatTo(Instant.ofEpochSecond(seconds), out);
        out.append('.');
        for (int i = nanos.length(); i < NANOS_DIGITS; i++)
        {
            out.append('0');
        }
        out.append(nanos).append('Z');
    }

    private static void appendSide(final StringBuilder out, final Side side)
    {
        switch (side)
        {
            case Buy:
            case Sell:
                out.append(side.name());
                break;

            case NULL_VAL:
                out.append("none");
                break;

            default:
                out.append("unknown");
                break;
        }
    }

    private static String actionName(final UpdateAction action)
    {
        return UpdateAction.SBE_UNKNOWN == action ? "unknown" : action.name();
    }

    private static boolean isKnownTemplate(final int templateId)
    {
        return MarketDataMessages.isInstrumentScoped(templateId) || HeartbeatDecoder.TEMPLATE_ID == templateId;
    }

    private static String templateName(final int templateId)
    {
        switch (templateId)
        {
            case InstrumentDefinitionDecoder.TEMPLATE_ID:
                return "InstrumentDefinition";

            case BookUpdateDecoder.TEMPLATE_ID:
                return "BookUpdate";

            case TradeDecoder.TEMPLATE_ID:
                return "Trade";

            case TopOfBookDecoder.TEMPLATE_ID:
                return "TopOfBook";

            default:
                return "Heartbeat";
        }
    }
}
