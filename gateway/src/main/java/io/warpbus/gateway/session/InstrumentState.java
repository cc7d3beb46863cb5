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

import org.agrona.collections.IntArrayList;

/**
 * The session core's view of one instrument: its definition, the L2 book rebuilt from the engine's market data,
 * the book being assembled from a snapshot cycle while the instrument is not in sync, and the sessions subscribed
 * to it.
 * <p>
 * In sync means the book is known up to market-data sequence {@link #sequence}: an incremental with the next
 * sequence applies, an older one is a duplicate, a later one a gap that takes the instrument out of sync until the
 * next snapshot cycle whose sequence is not behind what the incremental stream has shown.
 */
final class InstrumentState
{
    final int index;
    final BookSide bids;
    final BookSide asks;
    final BookSide stagingBids;
    final BookSide stagingAsks;
    final IntArrayList subscribers = new IntArrayList();
    InstrumentInfo info;
    long sequence;
    long highestIncrementalSeen;
    boolean synced;
    boolean staging;
    long stagingSequence;
    long gaps;

    InstrumentState(final int index, final InstrumentInfo info, final int levelCapacity)
    {
        this.index = index;
        this.info = info;
        bids = new BookSide(true, levelCapacity);
        asks = new BookSide(false, levelCapacity);
        stagingBids = new BookSide(true, levelCapacity);
        stagingAsks = new BookSide(false, levelCapacity);
    }

    BookSide side(final boolean bid)
    {
        return bid ? bids : asks;
    }

    BookSide stagingSide(final boolean bid)
    {
        return bid ? stagingBids : stagingAsks;
    }

    /**
     * Adopt the staged snapshot as the book, in sync at its sequence.
     */
    void adoptStaging()
    {
        bids.copyFrom(stagingBids);
        asks.copyFrom(stagingAsks);
        sequence = stagingSequence;
        synced = true;
        staging = false;
    }
}
