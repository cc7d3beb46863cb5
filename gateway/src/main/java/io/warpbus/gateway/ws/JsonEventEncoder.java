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
package io.warpbus.gateway.ws;

import java.math.BigDecimal;
import java.math.RoundingMode;

import io.warpbus.gateway.session.CommandDescriptor;
import io.warpbus.gateway.session.EventDescriptor;
import io.warpbus.gateway.session.EventText;
import io.warpbus.gateway.session.ExecTypes;
import io.warpbus.gateway.session.InstrumentInfo;
import io.warpbus.gateway.session.InstrumentRegistry;
import io.warpbus.gateway.session.User;
import io.warpbus.gateway.session.UserDirectory;
import io.warpbus.orderentry.RejectReason;
import org.agrona.DirectBuffer;

/**
 * The gateway's JSON protocol, outbound: turns one session-core event into the text of one WebSocket message
 * (docs/gateway.md). Runs on the sender's thread, so it may allocate; prices become decimal strings in the
 * instrument's scale, quantities stay integers in units.
 */
final class JsonEventEncoder
{
    private static final String[] EXEC_TYPES = { "new", "partiallyFilled", "filled", "cancelled", "replaced",
        "rejected", "cancelRejected", "replaceRejected" };
    private static final String[] ORDER_STATUSES = { "pendingNew", "new", "partiallyFilled", "filled", "cancelled",
        "rejected" };
    private static final String[] BOOK_REASONS = { "", "subscribed", "conflated", "resynced", "resumed" };
    /** Recent market-data encodings kept, direct-mapped by instrument and market-data sequence. */
    private static final int CACHE_SLOTS = 4096;
    /** Events longer than this (wide updates) are encoded afresh for each subscriber. */
    private static final int MAX_CACHED_EVENT = 512;

    private final InstrumentRegistry instruments;
    private final UserDirectory users;
    private final StringBuilder json = new StringBuilder(4096);
    private final byte[][] cachedEvents = new byte[CACHE_SLOTS][];
    private final int[] cachedLengths = new int[CACHE_SLOTS];
    private final InstrumentInfo[] cachedInstruments = new InstrumentInfo[CACHE_SLOTS];
    private final String[] cachedTails = new String[CACHE_SLOTS];

    JsonEventEncoder(final InstrumentRegistry instruments, final UserDirectory users)
    {
        this.instruments = instruments;
        this.users = users;
    }

    /**
     * Encode an event.
     *
     * @param type   the event type.
     * @param buffer holding it.
     * @param offset where it starts.
     * @param length its length.
     * @return the JSON text, or null for an event that is not sent ({@code CLOSE}).
     */
    String encode(final int type, final DirectBuffer buffer, final int offset, final int length)
    {
        final StringBuilder json = this.json;
        json.setLength(0);
        switch (type)
        {
            case EventDescriptor.LOGON_ACCEPTED:
                logon(buffer, offset);
                break;
            case EventDescriptor.LOGON_REJECTED:
                start("logonRejected", buffer, offset);
                text("reason", EventText.get(buffer, offset + EventDescriptor.REASON_TEXT_OFFSET));
                break;
            case EventDescriptor.LOGOUT:
                start("logout", buffer, offset);
                text("reason", EventText.get(buffer, offset + EventDescriptor.REASON_TEXT_OFFSET));
                break;
            case EventDescriptor.HEARTBEAT:
            case EventDescriptor.TEST_REQUEST:
                start(EventDescriptor.HEARTBEAT == type ? "heartbeat" : "testRequest", buffer, offset);
                ascii("testId", buffer, offset + EventDescriptor.TEST_ID_OFFSET, EventDescriptor.TEST_ID_WIDTH);
                break;
            case EventDescriptor.ERROR:
                error(buffer, offset);
                break;
            case EventDescriptor.GAP_FILL:
                start("gapFill", buffer, offset);
                number("newSeq", buffer.getLong(offset + EventDescriptor.NEW_SEQ_OFFSET));
                break;
            case EventDescriptor.INSTRUMENTS:
                instrumentList(buffer, offset);
                break;
            case EventDescriptor.SUBSCRIBED:
            case EventDescriptor.UNSUBSCRIBED:
                start(EventDescriptor.SUBSCRIBED == type ? "subscribed" : "unsubscribed", buffer, offset);
                ascii("reqId", buffer, offset + EventDescriptor.SUBSCRIPTION_REQUEST_ID_OFFSET,
                    EventDescriptor.REQUEST_ID_WIDTH);
                text("instrument", symbol(buffer.getInt(offset + EventDescriptor.INSTRUMENT_OFFSET)));
                break;
            case EventDescriptor.BOOK:
                book(buffer, offset);
                break;
            case EventDescriptor.BOOK_UPDATE:
            case EventDescriptor.TRADE:
                return marketData(type, buffer, offset, length);
            case EventDescriptor.EXECUTION_REPORT:
                start("executionReport", buffer, offset);
                report(buffer, offset);
                break;
            case EventDescriptor.OPEN_ORDERS:
                openOrders(buffer, offset);
                break;
            default:
                return null;
        }
        json.append('}');
        return json.toString();
    }

    private void logon(final DirectBuffer buffer, final int offset)
    {
        start("logon", buffer, offset);
        text("session", String.format("%016x%016x", buffer.getLong(offset + EventDescriptor.TOKEN_OFFSET),
            buffer.getLong(offset + EventDescriptor.TOKEN_OFFSET + 8)));
        final User user = users.get(buffer.getInt(offset + EventDescriptor.LOGON_USER_OFFSET));
        text("user", null == user ? "" : user.name());
        number("heartbeatMs", buffer.getInt(offset + EventDescriptor.LOGON_HEARTBEAT_OFFSET));
        bool("resumed", 0 != buffer.getByte(offset + EventDescriptor.RESUMED_OFFSET));
        json.append(",\"accounts\":[");
        if (null != user)
        {
            final long[] accounts = user.accounts();
            for (int i = 0; i < accounts.length; i++)
            {
                json.append(i > 0 ? "," : "").append(accounts[i]);
            }
        }
        json.append(']');
        json.append(",\"roles\":[");
        if (null != user)
        {
            boolean first = true;
            for (final String role : user.roles())
            {
                json.append(first ? "" : ",");
                quote(role);
                first = false;
            }
        }
        json.append(']');
        final long from = buffer.getLong(offset + EventDescriptor.RESEND_FROM_OFFSET);
        if (from > 0)
        {
            json.append(",\"resend\":{\"from\":").append(from).append(",\"to\":")
                .append(buffer.getLong(offset + EventDescriptor.RESEND_TO_OFFSET)).append('}');
        }
    }

    private void error(final DirectBuffer buffer, final int offset)
    {
        start("error", buffer, offset);
        final io.warpbus.gateway.session.ProtocolError error =
            io.warpbus.gateway.session.ProtocolError.get(buffer.getInt(offset + EventDescriptor.CODE_OFFSET));
        text("code", null == error ? "error" : error.label());
        text("text", EventText.get(buffer, offset + EventDescriptor.ERROR_TEXT_OFFSET));
        ascii("reqId", buffer, offset + EventDescriptor.ERROR_REQUEST_ID_OFFSET, EventDescriptor.REQUEST_ID_WIDTH);
    }

    private void instrumentList(final DirectBuffer buffer, final int offset)
    {
        start("instruments", buffer, offset);
        ascii("reqId", buffer, offset + EventDescriptor.INSTRUMENTS_REQUEST_ID_OFFSET,
            EventDescriptor.REQUEST_ID_WIDTH);
        final User user = users.get(buffer.getInt(offset + EventDescriptor.INSTRUMENTS_USER_OFFSET));
        json.append(",\"instruments\":[");
        boolean first = true;
        for (final InstrumentInfo info : instruments.all())
        {
            if (null == user || !user.mayView(info.symbol()))
            {
                continue;
            }
            json.append(first ? "{" : ",{");
            first = false;
            json.append("\"symbol\":");
            quote(info.symbol());
            text("tickSize", price(info.tickSize(), info.priceScale()));
            number("lotSize", info.lotSize());
            number("priceScale", info.priceScale());
            number("minQuantity", info.minQuantity());
            number("maxQuantity", info.maxQuantity());
            bool("trading", info.trading());
            json.append('}');
        }
        json.append(']');
    }

    private void book(final DirectBuffer buffer, final int offset)
    {
        start("book", buffer, offset);
        final InstrumentInfo info = instruments.get(buffer.getInt(offset + EventDescriptor.INSTRUMENT_OFFSET));
        final int scale = null == info ? 0 : info.priceScale();
        text("instrument", null == info ? "?" : info.symbol());
        number("mdSeq", buffer.getLong(offset + EventDescriptor.MD_SEQ_OFFSET));
        final byte reason = buffer.getByte(offset + EventDescriptor.BOOK_REASON_OFFSET);
        text("reason", reason > 0 && reason < BOOK_REASONS.length ? BOOK_REASONS[reason] : "subscribed");
        final int bids = buffer.getInt(offset + EventDescriptor.BID_COUNT_OFFSET);
        final int asks = buffer.getInt(offset + EventDescriptor.ASK_COUNT_OFFSET);
        int level = offset + EventDescriptor.BOOK_LEVELS_OFFSET;
        json.append(",\"bids\":[");
        for (int i = 0; i < bids; i++, level += EventDescriptor.LEVEL_LENGTH)
        {
            level(buffer, level, scale, i > 0, false);
        }
        json.append("],\"asks\":[");
        for (int i = 0; i < asks; i++, level += EventDescriptor.LEVEL_LENGTH)
        {
            level(buffer, level, scale, i > 0, false);
        }
        json.append(']');
    }

    /**
     * A {@code bookUpdate} or {@code trade}: every subscriber of the instrument gets the same event but for its
     * sequence number, so what follows the sequence number is encoded once, kept, and reused while the event's bytes
     * (after the sequence number) and the instrument's definition are the same; the sender meets the same update
     * once per subscriber, a few sockets apart.
     */
    private String marketData(final int type, final DirectBuffer buffer, final int offset, final int length)
    {
        final StringBuilder json = this.json;
        final boolean update = EventDescriptor.BOOK_UPDATE == type;
        start(update ? "bookUpdate" : "trade", buffer, offset);
        final int instrumentId = buffer.getInt(offset + EventDescriptor.INSTRUMENT_OFFSET);
        final InstrumentInfo info = instruments.get(instrumentId);
        final int slot = (int)((instrumentId * 31L + buffer.getLong(offset + EventDescriptor.MD_SEQ_OFFSET)) &
            (CACHE_SLOTS - 1));
        final int from = EventDescriptor.SEQ_OFFSET + Long.BYTES;
        final int cachedLength = length - from;
        if (null != info && cachedLength <= MAX_CACHED_EVENT && info == cachedInstruments[slot] &&
            cachedLength == cachedLengths[slot] && sameBytes(buffer, offset + from, cachedEvents[slot], cachedLength))
        {
            return json.append(cachedTails[slot]).toString();
        }
        final int tailStart = json.length();
        if (update)
        {
            bookUpdateFields(buffer, offset);
        }
        else
        {
            tradeFields(buffer, offset);
        }
        json.append('}');
        if (null != info && cachedLength <= MAX_CACHED_EVENT)
        {
            if (null == cachedEvents[slot])
            {
                cachedEvents[slot] = new byte[MAX_CACHED_EVENT];
            }
            buffer.getBytes(offset + from, cachedEvents[slot], 0, cachedLength);
            cachedLengths[slot] = cachedLength;
            cachedInstruments[slot] = info;
            cachedTails[slot] = json.substring(tailStart);
        }
        return json.toString();
    }

    private static boolean sameBytes(final DirectBuffer buffer, final int offset, final byte[] cached,
        final int length)
    {
        for (int i = 0; i < length; i++)
        {
            if (buffer.getByte(offset + i) != cached[i])
            {
                return false;
            }
        }
        return true;
    }

    private void bookUpdateFields(final DirectBuffer buffer, final int offset)
    {
        final InstrumentInfo info = instruments.get(buffer.getInt(offset + EventDescriptor.INSTRUMENT_OFFSET));
        final int scale = null == info ? 0 : info.priceScale();
        text("instrument", null == info ? "?" : info.symbol());
        number("mdSeq", buffer.getLong(offset + EventDescriptor.MD_SEQ_OFFSET));
        final int count = buffer.getInt(offset + EventDescriptor.UPDATE_COUNT_OFFSET);
        int level = offset + EventDescriptor.UPDATE_LEVELS_OFFSET;
        json.append(",\"changes\":[");
        for (int i = 0; i < count; i++, level += EventDescriptor.LEVEL_LENGTH)
        {
            level(buffer, level, scale, i > 0, true);
        }
        json.append(']');
    }

    private void level(final DirectBuffer buffer, final int offset, final int scale, final boolean comma,
        final boolean withSide)
    {
        json.append(comma ? ",[" : "[");
        if (withSide)
        {
            quote(CommandDescriptor.BUY == buffer.getByte(offset + EventDescriptor.LEVEL_SIDE_OFFSET) ?
                "buy" : "sell");
            json.append(',');
        }
        quote(price(buffer.getLong(offset + EventDescriptor.LEVEL_PRICE_OFFSET), scale));
        json.append(',').append(buffer.getLong(offset + EventDescriptor.LEVEL_QUANTITY_OFFSET))
            .append(',').append(buffer.getInt(offset + EventDescriptor.LEVEL_ORDERS_OFFSET)).append(']');
    }

    private void tradeFields(final DirectBuffer buffer, final int offset)
    {
        final InstrumentInfo info = instruments.get(buffer.getInt(offset + EventDescriptor.INSTRUMENT_OFFSET));
        final int scale = null == info ? 0 : info.priceScale();
        text("instrument", null == info ? "?" : info.symbol());
        number("mdSeq", buffer.getLong(offset + EventDescriptor.MD_SEQ_OFFSET));
        number("tradeId", buffer.getLong(offset + EventDescriptor.TRADE_ID_OFFSET));
        text("price", price(buffer.getLong(offset + EventDescriptor.TRADE_PRICE_OFFSET), scale));
        number("quantity", buffer.getLong(offset + EventDescriptor.TRADE_QUANTITY_OFFSET));
        final byte aggressor = buffer.getByte(offset + EventDescriptor.AGGRESSOR_OFFSET);
        if (EventDescriptor.NO_SIDE != aggressor)
        {
            text("aggressor", CommandDescriptor.BUY == aggressor ? "buy" : "sell");
        }
        number("time", buffer.getLong(offset + EventDescriptor.TRADE_TIME_OFFSET));
    }

    /**
     * The fields of an order or execution report, from an event laid out as {@code EXECUTION_REPORT} at
     * {@code base} (whose client order id is at {@code base + 8}).
     */
    private void report(final DirectBuffer buffer, final int base)
    {
        ascii("clOrdId", buffer, base + EventDescriptor.CLIENT_ORDER_ID_OFFSET,
            EventDescriptor.CLIENT_ORDER_ID_WIDTH);
        number("orderId", buffer.getLong(base + EventDescriptor.ORDER_ID_OFFSET));
        number("execId", buffer.getLong(base + EventDescriptor.EXEC_ID_OFFSET));
        final byte execType = buffer.getByte(base + EventDescriptor.EXEC_TYPE_OFFSET);
        text("execType", execType >= 0 && execType < EXEC_TYPES.length ? EXEC_TYPES[execType] : "unknown");
        final byte status = buffer.getByte(base + EventDescriptor.ORDER_STATUS_OFFSET);
        text("orderStatus", status >= 0 && status < ORDER_STATUSES.length ? ORDER_STATUSES[status] : "unknown");
        number("account", buffer.getLong(base + EventDescriptor.ACCOUNT_OFFSET));
        final InstrumentInfo info = instruments.get(buffer.getInt(base + EventDescriptor.REPORT_INSTRUMENT_OFFSET));
        final int scale = null == info ? 0 : info.priceScale();
        text("instrument", null == info ? "?" : info.symbol());
        text("side", CommandDescriptor.BUY == buffer.getByte(base + EventDescriptor.SIDE_OFFSET) ? "buy" : "sell");
        text("orderType", CommandDescriptor.MARKET == buffer.getByte(base + EventDescriptor.ORDER_TYPE_OFFSET) ?
            "market" : "limit");
        final byte tif = buffer.getByte(base + EventDescriptor.TIME_IN_FORCE_OFFSET);
        text("timeInForce", CommandDescriptor.IOC == tif ? "ioc" : CommandDescriptor.FOK == tif ? "fok" : "gtc");
        bool("postOnly", 0 != buffer.getByte(base + EventDescriptor.POST_ONLY_OFFSET));
        text("price", price(buffer.getLong(base + EventDescriptor.PRICE_OFFSET), scale));
        number("quantity", buffer.getLong(base + EventDescriptor.QUANTITY_OFFSET));
        text("lastPrice", price(buffer.getLong(base + EventDescriptor.LAST_PRICE_OFFSET), scale));
        number("lastQuantity", buffer.getLong(base + EventDescriptor.LAST_QUANTITY_OFFSET));
        final long cumQuantity = buffer.getLong(base + EventDescriptor.CUM_QUANTITY_OFFSET);
        number("cumQuantity", cumQuantity);
        number("leavesQuantity", buffer.getLong(base + EventDescriptor.LEAVES_QUANTITY_OFFSET));
        text("avgPrice", averagePrice(buffer.getLong(base + EventDescriptor.CUM_NOTIONAL_OFFSET), cumQuantity,
            scale));
        final int code = buffer.getShort(base + EventDescriptor.REASON_OFFSET) & 0xFFFF;
        number("reason", code);
        final RejectReason reason = RejectReason.get(code);
        text("text", null == reason ? "reason " + code : reason.text());
        if (ExecTypes.isRejection(execType) || 0 != code)
        {
            bool("requestOnly", 0 != buffer.getByte(base + EventDescriptor.REQUEST_ONLY_OFFSET));
        }
        number("time", buffer.getLong(base + EventDescriptor.TRANSACT_TIME_OFFSET));
    }

    private void openOrders(final DirectBuffer buffer, final int offset)
    {
        start("openOrders", buffer, offset);
        ascii("reqId", buffer, offset + EventDescriptor.OPEN_ORDERS_REQUEST_ID_OFFSET,
            EventDescriptor.REQUEST_ID_WIDTH);
        bool("more", 0 != buffer.getByte(offset + EventDescriptor.OPEN_ORDERS_MORE_OFFSET));
        final int count = buffer.getInt(offset + EventDescriptor.OPEN_ORDERS_COUNT_OFFSET);
        json.append(",\"orders\":[");
        for (int i = 0; i < count; i++)
        {
            final int entry = offset + EventDescriptor.OPEN_ORDERS_ENTRIES_OFFSET +
                i * EventDescriptor.ORDER_ENTRY_LENGTH;
            json.append(i > 0 ? ",{" : "{");
            final int mark = json.length();
            // Entries are reports without their seq: shift so the report's offsets apply.
            report(buffer, entry - EventDescriptor.CLIENT_ORDER_ID_OFFSET);
            json.deleteCharAt(mark);
            json.append('}');
        }
        json.append(']');
    }

    private void start(final String type, final DirectBuffer buffer, final int offset)
    {
        json.append("{\"type\":\"").append(type).append("\",\"seq\":")
            .append(buffer.getLong(offset + EventDescriptor.SEQ_OFFSET));
    }

    private void text(final String name, final String value)
    {
        json.append(",\"").append(name).append("\":");
        quote(value);
    }

    private void ascii(final String name, final DirectBuffer buffer, final int offset, final int width)
    {
        final int length = Math.min(width, buffer.getByte(offset) & 0xFF);
        if (0 == length)
        {
            return;
        }
        text(name, buffer.getStringWithoutLengthAscii(offset + 1, length));
    }

    private void number(final String name, final long value)
    {
        json.append(",\"").append(name).append("\":").append(value);
    }

    private void bool(final String name, final boolean value)
    {
        json.append(",\"").append(name).append("\":").append(value);
    }

    private void quote(final String value)
    {
        json.append('"');
        for (int i = 0; i < value.length(); i++)
        {
            final char c = value.charAt(i);
            if ('"' == c || '\\' == c)
            {
                json.append('\\');
            }
            if (c < 0x20)
            {
                json.append(String.format("\\u%04x", (int)c));
                continue;
            }
            json.append(c);
        }
        json.append('"');
    }

    private String symbol(final int instrumentId)
    {
        final InstrumentInfo info = instruments.get(instrumentId);
        return null == info ? "?" : info.symbol();
    }

    /**
     * A price in price units as a decimal string with the instrument's scale.
     */
    static String price(final long units, final int scale)
    {
        return BigDecimal.valueOf(units, scale).toPlainString();
    }

    private static String averagePrice(final long notional, final long quantity, final int scale)
    {
        if (0 == quantity)
        {
            return price(0, scale);
        }
        return BigDecimal.valueOf(notional, scale).divide(BigDecimal.valueOf(quantity), scale + 4,
            RoundingMode.HALF_EVEN).stripTrailingZeros().toPlainString();
    }
}
