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
package io.warpbus.gateway.fix;

import io.warpbus.gateway.session.CommandDescriptor;
import io.warpbus.gateway.session.EventDescriptor;
import io.warpbus.gateway.session.InstrumentInfo;
import io.warpbus.gateway.session.InstrumentRegistry;
import io.warpbus.gateway.session.User;
import io.warpbus.gateway.session.UserDirectory;
import org.agrona.DirectBuffer;
import quickfix.Group;
import quickfix.Message;
import quickfix.field.MDEntryPx;
import quickfix.field.MDEntrySize;
import quickfix.field.MDEntryType;
import quickfix.field.MDReqID;
import quickfix.field.MDReqRejReason;
import quickfix.field.MDUpdateAction;
import quickfix.field.NumberOfOrders;
import quickfix.field.SecurityReqID;
import quickfix.field.SecurityRequestResult;
import quickfix.field.SecurityResponseID;
import quickfix.field.Symbol;
import quickfix.field.Text;
import quickfix.field.TotNoRelatedSym;
import quickfix.fix44.MarketDataIncrementalRefresh;
import quickfix.fix44.MarketDataRequestReject;
import quickfix.fix44.MarketDataSnapshotFullRefresh;
import quickfix.fix44.SecurityList;

/**
 * Turns the session core's market-data events into FIX 4.4 market data for a market-data session: the instrument
 * list into a SecurityList (y), a whole book (on subscribe, and again when the core conflates a slow session's
 * updates) into a MarketDataSnapshotFullRefresh (W), changed levels and trades into a MarketDataIncrementalRefresh
 * (X), and a refused subscription into a MarketDataRequestReject (Y). Book entries are price levels: MDEntryType
 * (269) 0 bid or 1 offer, MDEntryPx (270), MDEntrySize (271) the level's total, NumberOfOrders (346); an increment
 * is MDUpdateAction (279) 2 delete when the level is gone, else 1 change carrying the level's new total (a client
 * keyed by price treats a change of a price it does not hold as new). FIX 4.4 has no RptSeq in these messages; the
 * FIX session's own sequence numbers show a client any gap, and the gateway sends a fresh W whenever it had to
 * conflate or resynchronise a book. Sender thread.
 */
final class FixMarketData
{
    private final InstrumentRegistry instruments;
    private final UserDirectory users;

    FixMarketData(final InstrumentRegistry instruments, final UserDirectory users)
    {
        this.instruments = instruments;
        this.users = users;
    }

    /**
     * The SecurityList for an {@code INSTRUMENTS} event: the instruments the user may see.
     *
     * @param buffer the event.
     * @param offset where it starts.
     * @return the y.
     */
    Message securityList(final DirectBuffer buffer, final int offset)
    {
        final String requestId = FixReports.ascii(buffer, offset + EventDescriptor.INSTRUMENTS_REQUEST_ID_OFFSET,
            EventDescriptor.REQUEST_ID_WIDTH);
        final User user = users.get(buffer.getInt(offset + EventDescriptor.INSTRUMENTS_USER_OFFSET));
        final SecurityList list = new SecurityList();
        list.set(new SecurityReqID(requestId.startsWith("x:") ? requestId.substring(2) : requestId));
        list.set(new SecurityResponseID(Long.toString(buffer.getLong(offset + EventDescriptor.SEQ_OFFSET))));
        list.set(new SecurityRequestResult(SecurityRequestResult.VALID_REQUEST));
        int count = 0;
        for (final InstrumentInfo info : instruments.all())
        {
            if (null == user || !user.mayView(info.symbol()))
            {
                continue;
            }
            final Group entry = new SecurityList.NoRelatedSym();
            entry.setString(Symbol.FIELD, info.symbol());
            // FIX 4.4 has no MinPriceIncrement (969): the tick goes in SecurityDesc (107).
            entry.setString(107, "tick " + FixReports.price(info.tickSize(), info.priceScale()));
            entry.setString(561, Long.toString(info.lotSize()));
            list.addGroup(entry);
            count++;
        }
        list.set(new TotNoRelatedSym(count));
        return list;
    }

    /**
     * A whole book as a MarketDataSnapshotFullRefresh.
     *
     * @param buffer  the {@code BOOK} event.
     * @param offset  where it starts.
     * @param context whose subscription (for the MDReqID).
     * @return the W, or null for an instrument the session did not ask for.
     */
    Message snapshot(final DirectBuffer buffer, final int offset, final FixSessionContext context)
    {
        final MarketDataSnapshotFullRefresh snapshot = new MarketDataSnapshotFullRefresh();
        final InstrumentInfo info = subscribed(buffer, offset, context, snapshot);
        if (null == info)
        {
            return null;
        }
        snapshot.set(new Symbol(info.symbol()));
        final int bids = buffer.getInt(offset + EventDescriptor.BID_COUNT_OFFSET);
        final int asks = buffer.getInt(offset + EventDescriptor.ASK_COUNT_OFFSET);
        if (0 == bids + asks)
        {
            // An empty book: NoMDEntries (268) is required all the same.
            snapshot.setInt(268, 0);
        }
        int level = offset + EventDescriptor.BOOK_LEVELS_OFFSET;
        for (int i = 0; i < bids + asks; i++, level += EventDescriptor.LEVEL_LENGTH)
        {
            final Group entry = new MarketDataSnapshotFullRefresh.NoMDEntries();
            entry.setChar(MDEntryType.FIELD, i < bids ? MDEntryType.BID : MDEntryType.OFFER);
            levelFields(entry, buffer, level, info.priceScale());
            snapshot.addGroup(entry);
        }
        return snapshot;
    }

    /**
     * Changed levels as a MarketDataIncrementalRefresh.
     *
     * @param buffer  the {@code BOOK_UPDATE} event.
     * @param offset  where it starts.
     * @param context whose subscription.
     * @return the X, or null for an instrument the session did not ask for.
     */
    Message update(final DirectBuffer buffer, final int offset, final FixSessionContext context)
    {
        final MarketDataIncrementalRefresh refresh = new MarketDataIncrementalRefresh();
        final InstrumentInfo info = subscribed(buffer, offset, context, refresh);
        if (null == info)
        {
            return null;
        }
        final int count = buffer.getInt(offset + EventDescriptor.UPDATE_COUNT_OFFSET);
        int level = offset + EventDescriptor.UPDATE_LEVELS_OFFSET;
        for (int i = 0; i < count; i++, level += EventDescriptor.LEVEL_LENGTH)
        {
            final Group entry = new MarketDataIncrementalRefresh.NoMDEntries();
            final long quantity = buffer.getLong(level + EventDescriptor.LEVEL_QUANTITY_OFFSET);
            entry.setChar(MDUpdateAction.FIELD, 0 == quantity ? MDUpdateAction.DELETE : MDUpdateAction.CHANGE);
            entry.setChar(MDEntryType.FIELD, CommandDescriptor.BUY == buffer.getByte(level +
                EventDescriptor.LEVEL_SIDE_OFFSET) ? MDEntryType.BID : MDEntryType.OFFER);
            entry.setString(Symbol.FIELD, info.symbol());
            levelFields(entry, buffer, level, info.priceScale());
            refresh.addGroup(entry);
        }
        return refresh;
    }

    /**
     * A trade as a MarketDataIncrementalRefresh with one new Trade entry.
     *
     * @param buffer  the {@code TRADE} event.
     * @param offset  where it starts.
     * @param context whose subscription.
     * @return the X, or null for an instrument the session did not ask for.
     */
    Message trade(final DirectBuffer buffer, final int offset, final FixSessionContext context)
    {
        final MarketDataIncrementalRefresh refresh = new MarketDataIncrementalRefresh();
        final InstrumentInfo info = subscribed(buffer, offset, context, refresh);
        if (null == info)
        {
            return null;
        }
        final Group entry = new MarketDataIncrementalRefresh.NoMDEntries();
        entry.setChar(MDUpdateAction.FIELD, MDUpdateAction.NEW);
        entry.setChar(MDEntryType.FIELD, MDEntryType.TRADE);
        entry.setString(Symbol.FIELD, info.symbol());
        entry.setString(MDEntryPx.FIELD, FixReports.price(buffer.getLong(offset +
            EventDescriptor.TRADE_PRICE_OFFSET), info.priceScale()));
        entry.setString(MDEntrySize.FIELD, Long.toString(buffer.getLong(offset +
            EventDescriptor.TRADE_QUANTITY_OFFSET)));
        entry.setString(278, Long.toString(buffer.getLong(offset + EventDescriptor.TRADE_ID_OFFSET)));
        refresh.addGroup(entry);
        return refresh;
    }

    /**
     * A refused subscription.
     *
     * @param mdReqId the request's MDReqID.
     * @param text    why.
     * @return the Y.
     */
    static Message reject(final String mdReqId, final String text)
    {
        final MarketDataRequestReject reject = new MarketDataRequestReject();
        reject.set(new MDReqID(mdReqId));
        reject.set(new MDReqRejReason(MDReqRejReason.UNKNOWN_SYMBOL));
        reject.set(new Text(text));
        return reject;
    }

    /**
     * The instrument of a market-data event (its id at {@link EventDescriptor#INSTRUMENT_OFFSET}), if the session
     * subscribed to it: then the MDReqID (262) of that subscription is set on the message.
     *
     * @param buffer  the event.
     * @param offset  where it starts.
     * @param context the session's context.
     * @param message the W or X being built.
     * @return the instrument, or null when it is unknown or the session did not ask for it.
     */
    private InstrumentInfo subscribed(final DirectBuffer buffer, final int offset, final FixSessionContext context,
        final Message message)
    {
        final int instrumentId = buffer.getInt(offset + EventDescriptor.INSTRUMENT_OFFSET);
        final InstrumentInfo info = instruments.get(instrumentId);
        final String mdReqId = context.mdReqId(instrumentId);
        if (null == info || null == mdReqId)
        {
            return null;
        }
        message.setField(new MDReqID(mdReqId));
        return info;
    }

    private static void levelFields(final Group entry, final DirectBuffer buffer, final int level, final int scale)
    {
        entry.setString(MDEntryPx.FIELD, FixReports.price(buffer.getLong(level +
            EventDescriptor.LEVEL_PRICE_OFFSET), scale));
        entry.setString(MDEntrySize.FIELD, Long.toString(buffer.getLong(level +
            EventDescriptor.LEVEL_QUANTITY_OFFSET)));
        entry.setInt(NumberOfOrders.FIELD, buffer.getInt(level + EventDescriptor.LEVEL_ORDERS_OFFSET));
    }
}
