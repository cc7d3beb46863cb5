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
package io.warpbus.gateway.session;

import java.nio.ByteBuffer;

import io.warpbus.bus.FragmentHandler;
import io.warpbus.bus.Header;
import io.warpbus.marketdata.sbe.BookUpdateDecoder;
import io.warpbus.marketdata.sbe.InstrumentDefinitionDecoder;
import io.warpbus.marketdata.sbe.MessageHeaderDecoder;
import io.warpbus.marketdata.sbe.TopOfBookDecoder;
import io.warpbus.marketdata.sbe.TradeDecoder;
import io.warpbus.marketdata.sbe.UpdateAction;
import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.IntArrayList;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Market data in the session core: takes the engine's market data once (the snapshot stream and the incremental
 * stream, SBE schema 1), keeps every instrument's L2 book in sync, and fans each book update and trade out to the
 * sessions subscribed to its instrument, each into its own bounded outbound queue.
 * <p>
 * <b>Conflation.</b> A slow client never holds anyone up: when a session's queue has no room for an update, that
 * instrument is marked as owing the session a whole book, and later updates of it are counted as conflated instead
 * of queued. As soon as the queue has room again the session gets one {@code BOOK} (reason "conflated") with the
 * latest state and goes on with increments. A session that stays behind for longer than the slow-consumer timeout
 * is disconnected with that reason. The same mechanism delivers a book after a subscribe, after the gateway
 * resynchronised an instrument from the engine's snapshots (a gap in the engine's market data), and after a resume.
 * Core thread, allocation free.
 */
final class MarketDataFanout
{
    /**
     * Levels per side in a book, and levels in an update: the largest book must fit one message of the smallest
     * outbound queue ({@link ConnectionTable#MIN_QUEUE_BYTES}, whose ring takes messages of up to an eighth of it).
     */
    static final int MAX_BOOK_LEVELS = 160;

    private final SessionCoreContext context;
    private final Session[] sessions;
    private final InstrumentRegistry registry;
    private final Outbox outbox;
    private final SessionErrors errors;
    private final SessionJournal journal;
    private final GatewayCounters counters;
    private final Int2ObjectHashMap<InstrumentState> byId;
    private final InstrumentState[] byIndex;
    private final boolean[][] viewers;
    private final IntArrayList pendingSessions = new IntArrayList();
    private final UnsafeBuffer event = new UnsafeBuffer(ByteBuffer.allocateDirect(
        EventDescriptor.BOOK_LEVELS_OFFSET + 2 * MAX_BOOK_LEVELS * EventDescriptor.LEVEL_LENGTH));
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final InstrumentDefinitionDecoder definition = new InstrumentDefinitionDecoder();
    private final BookUpdateDecoder bookUpdate = new BookUpdateDecoder();
    private final TradeDecoder trade = new TradeDecoder();
    private final TopOfBookDecoder topOfBook = new TopOfBookDecoder();
    private final StringBuilder symbol = new StringBuilder(16);
    private final UnsafeBuffer record = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
    private final FragmentHandler snapshotHandler = this::onSnapshot;
    private final FragmentHandler incrementalHandler = this::onIncremental;
    private int instrumentCount;
    private long nowNs;

    MarketDataFanout(final SessionCoreContext context, final Session[] sessions,
        final Int2ObjectHashMap<InstrumentState> byId, final Outbox outbox, final SessionErrors errors,
        final SessionJournal journal)
    {
        this.errors = errors;
        this.journal = journal;
        this.context = context;
        this.sessions = sessions;
        this.registry = context.instruments();
        this.outbox = outbox;
        this.counters = context.counters();
        this.byId = byId;
        this.byIndex = new InstrumentState[context.maxInstruments()];
        this.viewers = new boolean[context.maxInstruments()][];
    }

    FragmentHandler snapshotHandler()
    {
        return snapshotHandler;
    }

    FragmentHandler incrementalHandler()
    {
        return incrementalHandler;
    }

    void now(final long nowNs)
    {
        this.nowNs = nowNs;
    }

    /**
     * Subscribe a session to an instrument: {@code SUBSCRIBED}, then a whole book as soon as it is known.
     */
    void subscribe(final Session session, final DirectBuffer command, final int offset, final long nowNs)
    {
        final InstrumentState instrument = viewable(session,
            command.getInt(offset + CommandDescriptor.INSTRUMENT_OFFSET));
        if (null == instrument)
        {
            errors.unknownInstrument(session, command, offset, nowNs);
            return;
        }
        if (session.subscribed[instrument.index])
        {
            errors.send(session, ProtocolError.SUBSCRIPTION_STATE, command, offset, "already subscribed to ",
                instrument.info.symbol(), nowNs);
            return;
        }
        session.subscribed[instrument.index] = true;
        instrument.subscribers.addInt(session.index);
        subscription(session, EventDescriptor.SUBSCRIBED, instrument, command, offset, nowNs);
        owe(session, instrument.index, EventDescriptor.BOOK_SUBSCRIBED);
    }

    /**
     * A journaled {@code SUBSCRIBED} or {@code UNSUBSCRIBED} while restoring: only the session's flag, the client had
     * the reply; {@link #restoredSubscriptions} turns the flags into subscriptions once the journal is read.
     */
    void restoreSubscription(final Session session, final int type, final DirectBuffer record, final int offset)
    {
        final InstrumentState instrument = null == session.user ? null :
            viewable(session, record.getInt(offset + EventDescriptor.INSTRUMENT_OFFSET));
        if (null != instrument)
        {
            session.subscribed[instrument.index] = EventDescriptor.SUBSCRIBED == type;
        }
    }

    /**
     * After restoring: every session that can be resumed is subscribed again to what it was subscribed to before
     * the restart, and gets a book of each when it resumes; an ended session keeps nothing.
     */
    void restoredSubscriptions()
    {
        for (final Session session : sessions)
        {
            final boolean resumable = Session.DISCONNECTED == session.state;
            for (int i = 0; i < instrumentCount; i++)
            {
                if (session.subscribed[i])
                {
                    if (resumable)
                    {
                        byIndex[i].subscribers.addInt(session.index);
                    }
                    else
                    {
                        session.subscribed[i] = false;
                    }
                }
            }
        }
    }

    /**
     * End a session's subscription: {@code UNSUBSCRIBED}, and nothing more of the instrument.
     */
    void unsubscribe(final Session session, final DirectBuffer command, final int offset, final long nowNs)
    {
        final InstrumentState instrument = viewable(session,
            command.getInt(offset + CommandDescriptor.INSTRUMENT_OFFSET));
        if (null == instrument)
        {
            errors.unknownInstrument(session, command, offset, nowNs);
            return;
        }
        if (!session.subscribed[instrument.index])
        {
            errors.send(session, ProtocolError.SUBSCRIPTION_STATE, command, offset, "not subscribed to ",
                instrument.info.symbol(), nowNs);
            return;
        }
        drop(session, instrument);
        subscription(session, EventDescriptor.UNSUBSCRIBED, instrument, command, offset, nowNs);
    }

    /**
     * A session ends: it leaves every instrument.
     */
    void removeSession(final Session session)
    {
        for (int i = 0; i < instrumentCount; i++)
        {
            if (session.subscribed[i])
            {
                drop(session, byIndex[i]);
            }
        }
        clearPending(session);
    }

    /**
     * A session lost its connection: what it was owed goes with it; a resume brings whole books again.
     */
    void onDisconnected(final Session session)
    {
        clearPending(session);
    }

    /**
     * A resumed session has had its resend: every instrument it is subscribed to owes it a whole book.
     */
    void onResumed(final Session session)
    {
        for (int i = 0; i < instrumentCount; i++)
        {
            if (session.subscribed[i])
            {
                owe(session, i, EventDescriptor.BOOK_RESUMED);
            }
        }
    }

    /**
     * Send the books sessions are owed where their queues have room, and disconnect sessions that have stayed
     * behind for too long.
     *
     * @param nowNs the time now.
     * @return books sent.
     */
    int flush(final long nowNs)
    {
        int sent = 0;
        final IntArrayList pending = this.pendingSessions;
        for (int p = pending.size() - 1; p >= 0; p--)
        {
            final Session session = sessions[pending.getInt(p)];
            if (!session.isConnected())
            {
                clearPending(session);
                continue;
            }
            if (session.resending)
            {
                continue;
            }
            for (int i = 0; i < instrumentCount && session.pendingBooks > 0; i++)
            {
                final byte reason = session.pendingBook[i];
                if (0 == reason || !byIndex[i].synced)
                {
                    continue;
                }
                // Room first: a session that is behind has no room for many cycles, and a book is long to encode.
                if (!outbox.hasRoomForMarketData(session, bookLength(byIndex[i])))
                {
                    break;
                }
                final int length = encodeBook(byIndex[i], reason);
                if (!outbox.send(session, EventDescriptor.BOOK, event, 0, length, nowNs))
                {
                    break;
                }
                session.pendingBook[i] = 0;
                session.pendingBooks--;
                sent++;
            }
            if (0 == session.pendingBooks)
            {
                session.conflatedSinceNs = 0;
                pending.fastUnorderedRemove(p);
            }
            else if (0 != session.conflatedSinceNs &&
                nowNs - session.conflatedSinceNs > context.slowConsumerTimeoutNs())
            {
                session.conflatedSinceNs = 0;
                outbox.closeSlowConsumer(session, "slow consumer: market data conflated for too long");
            }
        }
        return sent;
    }

    /**
     * The instrument's state, if the session may see it.
     *
     * @return the state, or null when unknown or not entitled.
     */
    InstrumentState viewable(final Session session, final int instrumentId)
    {
        final InstrumentState instrument = instrumentId < 0 ? null : byId.get(instrumentId);
        return null == instrument || !viewers[instrument.index][session.user.index()] ? null : instrument;
    }

    private void subscription(final Session session, final int type, final InstrumentState instrument,
        final DirectBuffer command, final int offset, final long nowNs)
    {
        event.putInt(EventDescriptor.INSTRUMENT_OFFSET, instrument.info.id());
        event.putBytes(EventDescriptor.SUBSCRIPTION_REQUEST_ID_OFFSET, command,
            offset + CommandDescriptor.REQUEST_ID_OFFSET, 1 + EventDescriptor.REQUEST_ID_WIDTH);
        outbox.send(session, type, event, 0, EventDescriptor.SUBSCRIPTION_LENGTH, nowNs);
    }

    private void drop(final Session session, final InstrumentState instrument)
    {
        session.subscribed[instrument.index] = false;
        instrument.subscribers.removeInt(session.index);
        if (0 != session.pendingBook[instrument.index])
        {
            session.pendingBook[instrument.index] = 0;
            session.pendingBooks--;
        }
    }

    private void owe(final Session session, final int instrumentIndex, final byte reason)
    {
        if (0 == session.pendingBook[instrumentIndex])
        {
            if (0 == session.pendingBooks++)
            {
                pendingSessions.addInt(session.index);
            }
        }
        if (EventDescriptor.BOOK_CONFLATED == reason && 0 == session.conflatedSinceNs)
        {
            session.conflatedSinceNs = nowNs;
        }
        session.pendingBook[instrumentIndex] = reason;
    }

    private void clearPending(final Session session)
    {
        if (session.pendingBooks > 0)
        {
            for (int i = 0; i < instrumentCount; i++)
            {
                session.pendingBook[i] = 0;
            }
            session.pendingBooks = 0;
            pendingSessions.removeInt(session.index);
        }
        session.conflatedSinceNs = 0;
    }

    private void fanOut(final InstrumentState instrument, final int type, final int length)
    {
        final IntArrayList subscribers = instrument.subscribers;
        for (int i = 0, size = subscribers.size(); i < size; i++)
        {
            final Session session = sessions[subscribers.getInt(i)];
            if (!session.isConnected() || session.resending)
            {
                continue;
            }
            if (0 != session.pendingBook[instrument.index])
            {
                conflated(session);
                continue;
            }
            if (!outbox.hasRoomForMarketData(session, length) || !outbox.send(session, type, event, 0, length, nowNs))
            {
                conflated(session);
                owe(session, instrument.index, EventDescriptor.BOOK_CONFLATED);
            }
        }
    }

    private void conflated(final Session session)
    {
        session.conflatedUpdates++;
        counters.increment(GatewayCounterDescriptor.CONFLATED_UPDATES);
    }

    private static int bookLength(final InstrumentState instrument)
    {
        return EventDescriptor.BOOK_LEVELS_OFFSET + EventDescriptor.LEVEL_LENGTH *
            (Math.min(MAX_BOOK_LEVELS, instrument.bids.size()) + Math.min(MAX_BOOK_LEVELS, instrument.asks.size()));
    }

    private int encodeBook(final InstrumentState instrument, final byte reason)
    {
        final UnsafeBuffer event = this.event;
        final long lotSize = instrument.info.lotSize();
        final int bids = Math.min(MAX_BOOK_LEVELS, instrument.bids.size());
        final int asks = Math.min(MAX_BOOK_LEVELS, instrument.asks.size());
        event.putInt(EventDescriptor.INSTRUMENT_OFFSET, instrument.info.id());
        event.putByte(EventDescriptor.BOOK_REASON_OFFSET, reason);
        event.putLong(EventDescriptor.MD_SEQ_OFFSET, instrument.sequence);
        event.putInt(EventDescriptor.BID_COUNT_OFFSET, bids);
        event.putInt(EventDescriptor.ASK_COUNT_OFFSET, asks);
        int offset = EventDescriptor.BOOK_LEVELS_OFFSET;
        for (int i = 0; i < bids; i++)
        {
            offset = putLevel(offset, instrument.bids.price(i), instrument.bids.quantity(i) * lotSize,
                instrument.bids.orders(i), CommandDescriptor.BUY);
        }
        for (int i = 0; i < asks; i++)
        {
            offset = putLevel(offset, instrument.asks.price(i), instrument.asks.quantity(i) * lotSize,
                instrument.asks.orders(i), CommandDescriptor.SELL);
        }
        return offset;
    }

    private int putLevel(final int offset, final long price, final long quantity, final int orders, final byte side)
    {
        event.putLong(offset + EventDescriptor.LEVEL_PRICE_OFFSET, price);
        event.putLong(offset + EventDescriptor.LEVEL_QUANTITY_OFFSET, quantity);
        event.putInt(offset + EventDescriptor.LEVEL_ORDERS_OFFSET, orders);
        event.putByte(offset + EventDescriptor.LEVEL_SIDE_OFFSET, side);
        return offset + EventDescriptor.LEVEL_LENGTH;
    }

    private void onSnapshot(final DirectBuffer buffer, final int offset, final int length, final Header frame)
    {
        if (!wrapHeader(buffer, offset, length))
        {
            return;
        }
        switch (header.templateId())
        {
            case InstrumentDefinitionDecoder.TEMPLATE_ID:
                definition.wrapAndApplyHeader(buffer, offset, header);
                onDefinition();
                break;
            case BookUpdateDecoder.TEMPLATE_ID:
            {
                bookUpdate.wrapAndApplyHeader(buffer, offset, header);
                final InstrumentState instrument = byId.get((int)bookUpdate.instrumentId());
                if (null != instrument && instrument.staging)
                {
                    instrument.stagingSequence = bookUpdate.sequence();
                    for (final BookUpdateDecoder.LevelsDecoder level : bookUpdate.levels())
                    {
                        instrument.stagingSide(io.warpbus.marketdata.sbe.Side.Buy == level.side())
                            .set(level.price(), level.quantity(), (int)level.orderCount());
                    }
                }
                break;
            }
            case TopOfBookDecoder.TEMPLATE_ID:
            {
                topOfBook.wrapAndApplyHeader(buffer, offset, header);
                final InstrumentState instrument = byId.get((int)topOfBook.instrumentId());
                if (null != instrument && instrument.staging)
                {
                    endSnapshot(instrument, topOfBook.sequence());
                }
                break;
            }
            default:
                break;
        }
    }

    private void onDefinition()
    {
        final int id = (int)definition.instrumentId();
        InstrumentState instrument = byId.get(id);
        symbol.setLength(0);
        for (int i = 0; i < InstrumentDefinitionDecoder.symbolLength(); i++)
        {
            final byte b = definition.symbol(i);
            if (0 == b)
            {
                break;
            }
            symbol.append((char)b);
        }
        if (null == instrument || !instrument.info.sameDefinition(symbol, definition.tickSize(),
            definition.lotSize(), definition.priceScale()))
        {
            instrument = define(id, symbol.toString(), definition.tickSize(), definition.lotSize(),
                definition.priceScale(), instrument);
            if (null == instrument)
            {
                return;
            }
            journalDefinition(instrument.info);
        }
        if (!instrument.synced)
        {
            instrument.staging = true;
            instrument.stagingSequence = 0;
            instrument.stagingBids.clear();
            instrument.stagingAsks.clear();
        }
    }

    /**
     * Take back a journaled definition at start-up.
     *
     * @param record the journal record.
     * @param offset where it starts.
     */
    void restoreDefinition(final DirectBuffer record, final int offset)
    {
        final int id = record.getInt(offset + SessionJournal.INSTRUMENT_ID_OFFSET);
        define(id, CommandDescriptor.getAscii(record, offset + SessionJournal.INSTRUMENT_SYMBOL_OFFSET,
            CommandDescriptor.SYMBOL_WIDTH, new StringBuilder()).toString(),
            record.getLong(offset + SessionJournal.INSTRUMENT_TICK_OFFSET),
            record.getLong(offset + SessionJournal.INSTRUMENT_LOT_OFFSET),
            record.getInt(offset + SessionJournal.INSTRUMENT_SCALE_OFFSET), byId.get(id));
    }

    private void journalDefinition(final InstrumentInfo info)
    {
        record.putInt(SessionJournal.INSTRUMENT_ID_OFFSET, info.id());
        record.putInt(SessionJournal.INSTRUMENT_SCALE_OFFSET, info.priceScale());
        record.putLong(SessionJournal.INSTRUMENT_TICK_OFFSET, info.tickSize());
        record.putLong(SessionJournal.INSTRUMENT_LOT_OFFSET, info.lotSize());
        CommandDescriptor.putAscii(record, SessionJournal.INSTRUMENT_SYMBOL_OFFSET, CommandDescriptor.SYMBOL_WIDTH,
            info.symbol());
        journal.append(-1, SessionJournal.INSTRUMENT_RECORD, record, 0, SessionJournal.INSTRUMENT_LENGTH);
    }

    /**
     * A new instrument, or a changed definition: not the steady state, so it may allocate.
     */
    private InstrumentState define(final int id, final String symbol, final long tickSize, final long lotSize,
        final int priceScale, final InstrumentState existing)
    {
        final InstrumentInfo info = registry.define(id, symbol, tickSize, lotSize, priceScale);
        if (null != existing)
        {
            existing.info = info;
            return existing;
        }
        if (instrumentCount == byIndex.length)
        {
            counters.onError(new IllegalStateException("instrument " + info.symbol() + " ignored: the gateway " +
                "tracks at most " + byIndex.length + " instruments (max-instruments)"));
            return null;
        }
        final InstrumentState instrument = new InstrumentState(instrumentCount, info, 64);
        final boolean[] entitled = new boolean[context.users().all().size()];
        for (final User user : context.users().all())
        {
            entitled[user.index()] = user.mayView(info.symbol());
        }
        viewers[instrumentCount] = entitled;
        byIndex[instrumentCount++] = instrument;
        byId.put(id, instrument);
        return instrument;
    }

    private void endSnapshot(final InstrumentState instrument, final long sequence)
    {
        instrument.staging = false;
        instrument.stagingSequence = sequence;
        if (instrument.synced || sequence < instrument.highestIncrementalSeen)
        {
            // Increments beyond this snapshot went by already: the next cycle will be at or beyond them.
            return;
        }
        instrument.adoptStaging();
        final IntArrayList subscribers = instrument.subscribers;
        for (int i = 0, size = subscribers.size(); i < size; i++)
        {
            owe(sessions[subscribers.getInt(i)], instrument.index, EventDescriptor.BOOK_RESYNCED);
        }
    }

    private void onIncremental(final DirectBuffer buffer, final int offset, final int length, final Header frame)
    {
        if (!wrapHeader(buffer, offset, length))
        {
            return;
        }
        final int templateId = header.templateId();
        if (BookUpdateDecoder.TEMPLATE_ID == templateId)
        {
            bookUpdate.wrapAndApplyHeader(buffer, offset, header);
            final InstrumentState instrument = byId.get((int)bookUpdate.instrumentId());
            if (null != instrument && inSequence(instrument, bookUpdate.sequence()))
            {
                onBookUpdate(instrument);
            }
        }
        else if (TradeDecoder.TEMPLATE_ID == templateId)
        {
            trade.wrapAndApplyHeader(buffer, offset, header);
            final InstrumentState instrument = byId.get((int)trade.instrumentId());
            if (null != instrument && inSequence(instrument, trade.sequence()))
            {
                onTrade(instrument);
            }
        }
    }

    /**
     * Does the next incremental of an in-sync instrument apply? A gap takes it out of sync until a snapshot.
     */
    private boolean inSequence(final InstrumentState instrument, final long sequence)
    {
        instrument.highestIncrementalSeen = Math.max(instrument.highestIncrementalSeen, sequence);
        if (!instrument.synced || sequence <= instrument.sequence)
        {
            return false;
        }
        if (sequence != instrument.sequence + 1)
        {
            instrument.synced = false;
            instrument.gaps++;
            counters.increment(GatewayCounterDescriptor.MARKET_DATA_GAPS);
            return false;
        }
        instrument.sequence = sequence;
        return true;
    }

    private void onBookUpdate(final InstrumentState instrument)
    {
        final long lotSize = instrument.info.lotSize();
        int offset = EventDescriptor.UPDATE_LEVELS_OFFSET;
        int count = 0;
        for (final BookUpdateDecoder.LevelsDecoder level : bookUpdate.levels())
        {
            final boolean bid = io.warpbus.marketdata.sbe.Side.Buy == level.side();
            final long quantity = UpdateAction.Delete == level.action() ? 0 : level.quantity();
            instrument.side(bid).set(level.price(), quantity, (int)level.orderCount());
            if (count < MAX_BOOK_LEVELS)
            {
                offset = putLevel(offset, level.price(), quantity * lotSize, (int)level.orderCount(),
                    bid ? CommandDescriptor.BUY : CommandDescriptor.SELL);
            }
            count++;
        }
        if (count > MAX_BOOK_LEVELS)
        {
            // Too wide for one message (a sweep through many levels): every subscriber gets the whole book instead,
            // never a part of the change.
            oweEveryone(instrument);
            return;
        }
        event.putInt(EventDescriptor.INSTRUMENT_OFFSET, instrument.info.id());
        event.putInt(EventDescriptor.UPDATE_COUNT_OFFSET, count);
        event.putLong(EventDescriptor.MD_SEQ_OFFSET, instrument.sequence);
        fanOut(instrument, EventDescriptor.BOOK_UPDATE, offset);
    }

    private void oweEveryone(final InstrumentState instrument)
    {
        final IntArrayList subscribers = instrument.subscribers;
        for (int i = 0, size = subscribers.size(); i < size; i++)
        {
            final Session session = sessions[subscribers.getInt(i)];
            if (session.isConnected())
            {
                owe(session, instrument.index, EventDescriptor.BOOK_CONFLATED);
            }
        }
    }

    private void onTrade(final InstrumentState instrument)
    {
        final UnsafeBuffer event = this.event;
        event.putInt(EventDescriptor.INSTRUMENT_OFFSET, instrument.info.id());
        final short aggressor = trade.aggressorSideRaw();
        event.putByte(EventDescriptor.AGGRESSOR_OFFSET, 0 == aggressor ? CommandDescriptor.BUY :
            1 == aggressor ? CommandDescriptor.SELL : EventDescriptor.NO_SIDE);
        event.putLong(EventDescriptor.MD_SEQ_OFFSET, instrument.sequence);
        event.putLong(EventDescriptor.TRADE_ID_OFFSET, trade.tradeId());
        event.putLong(EventDescriptor.TRADE_PRICE_OFFSET, trade.price());
        event.putLong(EventDescriptor.TRADE_QUANTITY_OFFSET, trade.quantity() * instrument.info.lotSize());
        event.putLong(EventDescriptor.TRADE_TIME_OFFSET, trade.transactTime());
        fanOut(instrument, EventDescriptor.TRADE, EventDescriptor.TRADE_LENGTH);
    }

    private boolean wrapHeader(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < MessageHeaderDecoder.ENCODED_LENGTH)
        {
            return false;
        }
        header.wrap(buffer, offset);
        return MessageHeaderDecoder.SCHEMA_ID == header.schemaId();
    }

    /**
     * Take a changed definition of a known instrument (its trading state).
     *
     * @param info the instrument as registered now.
     */
    void redefine(final InstrumentInfo info)
    {
        final InstrumentState instrument = byId.get(info.id());
        if (null != instrument)
        {
            instrument.info = info;
        }
    }

    int instrumentCount()
    {
        return instrumentCount;
    }

    InstrumentState instrument(final int index)
    {
        return byIndex[index];
    }
}
