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
package io.warpbus.demo.subscriber;

import java.util.concurrent.atomic.AtomicLong;

import io.warpbus.bus.FragmentHandler;
import io.warpbus.bus.Header;
import io.warpbus.marketdata.sbe.BookUpdateDecoder;
import io.warpbus.marketdata.sbe.HeartbeatDecoder;
import io.warpbus.marketdata.sbe.InstrumentDefinitionDecoder;
import io.warpbus.marketdata.sbe.MessageHeaderDecoder;
import io.warpbus.marketdata.sbe.TopOfBookDecoder;
import io.warpbus.marketdata.sbe.TradeDecoder;
import io.warpbus.matching.Side;
import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;

/**
 * A market-data consumer: rebuilds each instrument's L2 book from the incremental stream, joins late from the
 * snapshot stream, and checks every instrument's sequence.
 * <p>
 * An instrument is <em>synced</em> once its book is known: from the start of its stream (its first incremental
 * has sequence 1), or from a snapshot cycle of sequence {@code S} taken while no incremental beyond {@code S} had
 * been seen. A synced instrument expects sequence {@code last + 1}; anything further on is a gap (counted, and the
 * instrument waits for the next snapshot), anything at or below {@code last} a duplicate. While synced, each
 * snapshot taken exactly at {@code last} is compared with the rebuilt book: a mismatch means the incrementals and
 * the engine disagree. Runs on one thread; counts are readable from any thread.
 */
public final class MarketDataClient
{
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final BookUpdateDecoder bookUpdate = new BookUpdateDecoder();
    private final TradeDecoder trade = new TradeDecoder();
    private final TopOfBookDecoder topOfBook = new TopOfBookDecoder();
    private final InstrumentDefinitionDecoder definition = new InstrumentDefinitionDecoder();
    private final Int2ObjectHashMap<InstrumentState> instruments = new Int2ObjectHashMap<>();
    private final AtomicLong messages = new AtomicLong();
    private final AtomicLong syncedCount = new AtomicLong();
    private final AtomicLong bookUpdates = new AtomicLong();
    private final AtomicLong trades = new AtomicLong();
    private final AtomicLong heartbeats = new AtomicLong();
    private final AtomicLong gaps = new AtomicLong();
    private final AtomicLong duplicates = new AtomicLong();
    private final AtomicLong unknown = new AtomicLong();
    private final AtomicLong snapshots = new AtomicLong();
    private final AtomicLong syncs = new AtomicLong();
    private final AtomicLong snapshotChecks = new AtomicLong();
    private final AtomicLong snapshotMismatches = new AtomicLong();
    private final AtomicLong crossedBooks = new AtomicLong();
    private final FragmentHandler incrementalHandler = this::onIncremental;
    private final FragmentHandler snapshotHandler = this::onSnapshot;

    /**
     * Handler for the incremental stream.
     *
     * @return the handler.
     */
    public FragmentHandler incrementalHandler()
    {
        return incrementalHandler;
    }

    /**
     * Handler for the snapshot stream.
     *
     * @return the handler.
     */
    public FragmentHandler snapshotHandler()
    {
        return snapshotHandler;
    }

    /**
     * The rebuilt book of an instrument.
     *
     * @param instrumentId the instrument.
     * @return its book, or null if nothing was seen of it.
     */
    public L2Book book(final int instrumentId)
    {
        final InstrumentState state = instruments.get(instrumentId);
        return null == state ? null : state.book;
    }

    /**
     * Is the instrument's book known?
     *
     * @param instrumentId the instrument.
     * @return true if synced.
     */
    public boolean isSynced(final int instrumentId)
    {
        final InstrumentState state = instruments.get(instrumentId);
        return null != state && state.synced;
    }

    /**
     * Last sequence applied to an instrument's book.
     *
     * @param instrumentId the instrument.
     * @return the sequence, 0 if none.
     */
    public long lastSequence(final int instrumentId)
    {
        final InstrumentState state = instruments.get(instrumentId);
        return null == state ? 0 : state.lastSequence;
    }

    /**
     * Instruments whose book is known.
     *
     * @return the count.
     */
    public long syncedInstruments()
    {
        return syncedCount.get();
    }

    /**
     * Messages received on both streams.
     *
     * @return the count.
     */
    public long messages()
    {
        return messages.get();
    }

    /**
     * Incremental book updates applied.
     *
     * @return the count.
     */
    public long bookUpdates()
    {
        return bookUpdates.get();
    }

    /**
     * Trades received.
     *
     * @return the count.
     */
    public long trades()
    {
        return trades.get();
    }

    /**
     * Heartbeats received.
     *
     * @return the count.
     */
    public long heartbeats()
    {
        return heartbeats.get();
    }

    /**
     * Missing sequence numbers on synced instruments.
     *
     * @return the count.
     */
    public long gaps()
    {
        return gaps.get();
    }

    /**
     * Incrementals at or below the last applied sequence.
     *
     * @return the count.
     */
    public long duplicates()
    {
        return duplicates.get();
    }

    /**
     * Messages of another schema or an unknown template.
     *
     * @return the count.
     */
    public long unknown()
    {
        return unknown.get();
    }

    /**
     * Complete instrument snapshots received.
     *
     * @return the count.
     */
    public long snapshots()
    {
        return snapshots.get();
    }

    /**
     * Times an instrument synced from a snapshot.
     *
     * @return the count.
     */
    public long syncs()
    {
        return syncs.get();
    }

    /**
     * Snapshots compared with a synced book.
     *
     * @return the count.
     */
    public long snapshotChecks()
    {
        return snapshotChecks.get();
    }

    /**
     * Snapshots that differed from the synced book.
     *
     * @return the count.
     */
    public long snapshotMismatches()
    {
        return snapshotMismatches.get();
    }

    /**
     * Times a synced book was crossed after a complete command's updates.
     *
     * @return the count.
     */
    public long crossedBooks()
    {
        return crossedBooks.get();
    }

    private void onIncremental(final DirectBuffer buffer, final int offset, final int length, final Header frame)
    {
        if (!wrapHeader(buffer, offset, length))
        {
            return;
        }
        switch (header.templateId())
        {
            case BookUpdateDecoder.TEMPLATE_ID:
            {
                bookUpdate.wrapAndApplyHeader(buffer, offset, header);
                final InstrumentState state = state((int)bookUpdate.instrumentId());
                if (accept(state, bookUpdate.sequence()))
                {
                    bookUpdates.lazySet(bookUpdates.get() + 1);
                    apply(state.book, bookUpdate);
                    if (state.book.isCrossed())
                    {
                        crossedBooks.lazySet(crossedBooks.get() + 1);
                    }
                }
                break;
            }
            case TradeDecoder.TEMPLATE_ID:
            {
                trade.wrapAndApplyHeader(buffer, offset, header);
                trades.lazySet(trades.get() + 1);
                accept(state((int)trade.instrumentId()), trade.sequence());
                break;
            }
            case HeartbeatDecoder.TEMPLATE_ID:
                heartbeats.lazySet(heartbeats.get() + 1);
                break;
            default:
                unknown.lazySet(unknown.get() + 1);
                break;
        }
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
            {
                definition.wrapAndApplyHeader(buffer, offset, header);
                final InstrumentState state = state((int)definition.instrumentId());
                state.snapshot.clear();
                state.snapshotOpen = true;
                break;
            }
            case BookUpdateDecoder.TEMPLATE_ID:
            {
                bookUpdate.wrapAndApplyHeader(buffer, offset, header);
                final InstrumentState state = state((int)bookUpdate.instrumentId());
                if (state.snapshotOpen)
                {
                    apply(state.snapshot, bookUpdate);
                }
                break;
            }
            case TopOfBookDecoder.TEMPLATE_ID:
            {
                topOfBook.wrapAndApplyHeader(buffer, offset, header);
                final InstrumentState state = state((int)topOfBook.instrumentId());
                if (state.snapshotOpen)
                {
                    state.snapshotOpen = false;
                    snapshots.lazySet(snapshots.get() + 1);
                    onSnapshotComplete(state, topOfBook.sequence());
                }
                break;
            }
            default:
                unknown.lazySet(unknown.get() + 1);
                break;
        }
    }

    private void onSnapshotComplete(final InstrumentState state, final long sequence)
    {
        if (state.synced)
        {
            if (state.lastSequence == sequence)
            {
                snapshotChecks.lazySet(snapshotChecks.get() + 1);
                if (!state.book.sameAs(state.snapshot))
                {
                    snapshotMismatches.lazySet(snapshotMismatches.get() + 1);
                }
            }
        }
        else if (state.lastSeen <= sequence)
        {
            state.book.copyFrom(state.snapshot);
            state.lastSequence = sequence;
            state.lastSeen = sequence;
            state.synced = true;
            syncedCount.lazySet(syncedCount.get() + 1);
            syncs.lazySet(syncs.get() + 1);
        }
    }

    /**
     * Decide whether an incremental applies to the book, counting gaps and duplicates.
     */
    private boolean accept(final InstrumentState state, final long sequence)
    {
        if (!state.synced)
        {
            if (1 == sequence)
            {
                state.synced = true;
                syncedCount.lazySet(syncedCount.get() + 1);
                state.lastSequence = 1;
                state.lastSeen = 1;
                return true;
            }
            state.lastSeen = Math.max(state.lastSeen, sequence);
            return false;
        }
        if (sequence == state.lastSequence + 1)
        {
            state.lastSequence = sequence;
            state.lastSeen = sequence;
            return true;
        }
        if (sequence <= state.lastSequence)
        {
            duplicates.lazySet(duplicates.get() + 1);
            return false;
        }
        gaps.lazySet(gaps.get() + (sequence - state.lastSequence - 1));
        state.synced = false;
        syncedCount.lazySet(syncedCount.get() - 1);
        state.lastSeen = sequence;
        return false;
    }

    private static void apply(final L2Book book, final BookUpdateDecoder update)
    {
        for (final BookUpdateDecoder.LevelsDecoder level : update.levels())
        {
            final Side side = Side.get(level.sideRaw());
            if (null != side)
            {
                book.set(side, level.price(), 2 == level.actionRaw() ? 0 : level.quantity(), level.orderCount());
            }
        }
    }

    private boolean wrapHeader(final DirectBuffer buffer, final int offset, final int length)
    {
        messages.lazySet(messages.get() + 1);
        if (length < MessageHeaderDecoder.ENCODED_LENGTH)
        {
            unknown.lazySet(unknown.get() + 1);
            return false;
        }
        header.wrap(buffer, offset);
        if (MessageHeaderDecoder.SCHEMA_ID != header.schemaId())
        {
            unknown.lazySet(unknown.get() + 1);
            return false;
        }
        return true;
    }

    private InstrumentState state(final int instrumentId)
    {
        InstrumentState state = instruments.get(instrumentId);
        if (null == state)
        {
            state = new InstrumentState();
            instruments.put(instrumentId, state);
        }
        return state;
    }

    private static final class InstrumentState
    {
        final L2Book book = new L2Book();
        final L2Book snapshot = new L2Book();
        boolean synced;
        boolean snapshotOpen;
        long lastSequence;
        long lastSeen;
    }
}
