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

import java.util.Arrays;

import io.warpbus.journal.JournalReader;

/**
 * One client session: who logged on, its sequence numbers, heartbeat timers, rate limit, market-data subscriptions
 * with their conflation state, and the journal index its resend reads. A session outlives its connection: after a
 * disconnect it waits to be resumed. Pooled by the session core and owned by its thread.
 */
final class Session
{
    /** States. */
    static final int FREE = 0;
    static final int CONNECTED = 1;
    static final int DISCONNECTED = 2;
    /** Ended (logout, an operator, expiry) while orders were still open: not resumable, its slot kept until done. */
    static final int ENDING = 3;

    final int index;
    final TokenBucket orderLimit = new TokenBucket();
    final boolean[] subscribed;
    /** Per instrument index: 0, or the reason a whole book is owed to the client (conflated, resynced, resumed). */
    final byte[] pendingBook;
    /** Where the session's journaled events are, for a resend. */
    final SparseJournalIndex journalIndex = new SparseJournalIndex(256);
    int state = FREE;
    long tokenHigh;
    long tokenLow;
    User user;
    String name;
    String address;
    int connection = -1;
    long nextSeq = 1;
    long heartbeatIntervalNs;
    long lastInboundNs;
    long lastOutboundNs;
    long testRequestSentNs;
    long createdEpochMs;
    long disconnectedNs;
    long conflatedSinceNs;
    /** When the session fell behind on recoverable events and began to be caught up from the journal, else 0. */
    long behindSinceNs;
    /** A drop-copy session: it gets a copy of every fill of its user's accounts, whichever session traded. */
    boolean dropCopy;
    /** Its orders must be cancelled (ended, or disconnected with cancel-on-disconnect) and some cancels are unsent. */
    boolean cancelPending;
    int pendingBooks;
    long conflatedUpdates;
    long protocolErrorWindowStartNs;
    int protocolErrorsInWindow;
    int openOrders;
    long messagesIn;
    long messagesOut;
    /** Resend in progress: the next session seq to send, read from the journal; live events wait meanwhile. */
    long resendNextSeq;
    JournalReader resendReader;
    long logonSeq;
    boolean resending;
    /** Rebuilt from the journal at start-up and not resumed since. */
    boolean restored;

    Session(final int index, final int maxInstruments)
    {
        this.index = index;
        subscribed = new boolean[maxInstruments];
        pendingBook = new byte[maxInstruments];
    }

    boolean isConnected()
    {
        return CONNECTED == state;
    }

    boolean hasToken(final long high, final long low)
    {
        return FREE != state && tokenHigh == high && tokenLow == low;
    }

    /**
     * Take the next sequence number.
     *
     * @return it.
     */
    long takeSeq()
    {
        return nextSeq++;
    }

    void clear()
    {
        state = FREE;
        dropCopy = false;
        tokenHigh = 0;
        tokenLow = 0;
        user = null;
        name = null;
        address = null;
        connection = -1;
        nextSeq = 1;
        heartbeatIntervalNs = 0;
        lastInboundNs = 0;
        lastOutboundNs = 0;
        testRequestSentNs = 0;
        createdEpochMs = 0;
        disconnectedNs = 0;
        conflatedSinceNs = 0;
        behindSinceNs = 0;
        cancelPending = false;
        pendingBooks = 0;
        conflatedUpdates = 0;
        protocolErrorWindowStartNs = 0;
        protocolErrorsInWindow = 0;
        openOrders = 0;
        messagesIn = 0;
        messagesOut = 0;
        resendNextSeq = 0;
        resendReader = null;
        logonSeq = 0;
        resending = false;
        restored = false;
        journalIndex.clear();
        Arrays.fill(subscribed, false);
        Arrays.fill(pendingBook, (byte)0);
    }

    /**
     * The session token as clients see it: 32 hex digits.
     *
     * @return the token.
     */
    String token()
    {
        return String.format("%016x%016x", tokenHigh, tokenLow);
    }
}
