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

import java.nio.file.Path;

import io.warpbus.journal.Journal;
import io.warpbus.journal.JournalContext;
import io.warpbus.journal.JournalHandler;
import io.warpbus.journal.JournalReader;
import io.warpbus.journal.JournalWriter;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.EpochNanoClock;

/**
 * The gateway's session journal: every event a session must be able to get again (execution reports, rejects, the
 * replies to its requests), and the core's own records (a session opened or ended, an order sent), appended before
 * they are sent, in one stream of a bus-core {@link Journal} on Chronicle Queue. A restart rebuilds the sessions and
 * orders from it; a resuming session is resent from it.
 * <p>
 * Records: the journal's sequence is the gateway's own count (0, 1, 2...), the session field the session's index,
 * the flags the record kind (an {@link EventDescriptor} type or one of the {@code *_RECORD} kinds here), both
 * timestamps the time of the append, and the payload the event as queued (starting with the session sequence
 * number) or the record below. Cycles roll daily and are kept {@code retentionDays}; that is how long a session can
 * be resumed.
 * <pre>
 *   SESSION_OPENED  0 16 bytes token, 16 int32 heartbeat ms, 20 int64 created epoch ms,
 *                   28 uint8 + 64 bytes user name, 93 uint8 + 32 bytes session name, 126 uint8 + 46 bytes address
 *   SESSION_ENDED   0 uint16 + up to 256 bytes reason
 *   ORDER_SENT      0 int64 engine client order id, then an EXECUTION_REPORT event's fields from its offset 8
 *                   (client order id, account, instrument, side, type, time in force, post-only, price, quantity)
 *   INSTRUMENT      0 int32 instrument id, 4 int32 price scale, 8 int64 tick size, 16 int64 lot size,
 *                   24 uint8 + 16 bytes symbol: a definition when first seen or changed, so that a restarted gateway
 *                   can turn the engine's lots into units before the engine's next snapshot cycle
 *   SEQ_MARK        0 int64 the number a restarted gateway numbers the session on from, at the least: written before
 *                   the session uses the first of every 1024 numbers, so it lies past any number used before the next
 *                   mark (market data and heartbeats take numbers too, and are not journaled)
 *   SESSION_FLAGS   0 uint8 the session's logon flags ({@link CommandDescriptor#LOGON_DROP_COPY}), written when a
 *                   logon sets or changes them
 * </pre>
 */
final class SessionJournal implements AutoCloseable
{
    static final int STREAM_ID = 1;
    static final int SESSION_OPENED_RECORD = 100;
    static final int SESSION_ENDED_RECORD = 101;
    static final int ORDER_SENT_RECORD = 102;
    static final int INSTRUMENT_RECORD = 103;
    static final int SEQ_MARK_RECORD = 104;
    static final int SESSION_FLAGS_RECORD = 105;
    static final int FLAGS_OFFSET = 0;
    static final int FLAGS_LENGTH = 1;
    static final int SEQ_MARK_OFFSET = 0;
    static final int SEQ_MARK_LENGTH = 8;

    static final int OPENED_TOKEN_OFFSET = 0;
    static final int OPENED_HEARTBEAT_OFFSET = 16;
    static final int OPENED_CREATED_OFFSET = 20;
    static final int OPENED_USER_OFFSET = 28;
    static final int USER_WIDTH = 64;
    static final int OPENED_NAME_OFFSET = 93;
    static final int OPENED_ADDRESS_OFFSET = 126;
    static final int OPENED_LENGTH = 173;
    static final int ENDED_LENGTH = 2 + EventDescriptor.TEXT_WIDTH;
    static final int ORDER_ENGINE_ID_OFFSET = 0;
    static final int ORDER_FIELDS_OFFSET = 8;
    static final int ORDER_LENGTH = 8 + EventDescriptor.EXECUTION_REPORT_LENGTH;
    static final int INSTRUMENT_ID_OFFSET = 0;
    static final int INSTRUMENT_SCALE_OFFSET = 4;
    static final int INSTRUMENT_TICK_OFFSET = 8;
    static final int INSTRUMENT_LOT_OFFSET = 16;
    static final int INSTRUMENT_SYMBOL_OFFSET = 24;
    static final int INSTRUMENT_LENGTH = 41;

    private final Journal journal;
    private final JournalWriter writer;
    private final EpochNanoClock clock;
    private final GatewayCounters counters;
    private final Path directory;
    private JournalReader reader;
    private long nextSequence;

    SessionJournal(
        final Path directory, final int retentionDays, final EpochNanoClock clock, final GatewayCounters counters)
    {
        this.directory = directory;
        this.clock = clock;
        this.counters = counters;
        final Journal journal = Journal.open(new JournalContext().directory(directory).rollCycle("FAST_DAILY")
            .retentionDays(retentionDays).retentionCycles(0));
        try
        {
            writer = journal.writer(STREAM_ID);
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietClose(journal);
            throw ex;
        }
        this.journal = journal;
        nextSequence = writer.lastSequence() + 1;
    }

    /**
     * Append a record, and count it ({@link GatewayCounterDescriptor#JOURNAL_RECORDS}). Allocation free in steady
     * state.
     *
     * @param session index of the session it belongs to.
     * @param kind    event type or record kind.
     * @param buffer  holding it.
     * @param offset  where it starts.
     * @param length  its length.
     * @return its journal sequence.
     */
    long append(final int session, final int kind, final DirectBuffer buffer, final int offset, final int length)
    {
        final long nowNs = clock.nanoTime();
        try
        {
            writer.append(nextSequence, session, kind, nowNs, nowNs, buffer, offset, length);
            counters.increment(GatewayCounterDescriptor.JOURNAL_RECORDS);
            return nextSequence;
        }
        finally
        {
            nextSequence = writer.lastSequence() + 1;
        }
    }

    /**
     * Deliver every record from the start, in order. Start-up only.
     *
     * @param handler receives each.
     * @return records delivered.
     */
    long replay(final JournalHandler handler)
    {
        try (JournalReader reader = journal.reader(STREAM_ID))
        {
            reader.toStart();
            long count = 0;
            int read;
            while ((read = reader.poll(handler, 1024)) > 0)
            {
                count += read;
            }
            if (null != reader.damage())
            {
                throw new IllegalStateException("session journal " + directory + " is damaged: " + reader.damage());
            }
            return count;
        }
    }

    /**
     * A reader positioned at a journal sequence, for a resend; the caller closes it.
     *
     * @param sequence where to start.
     * @return the reader.
     */
    JournalReader readerFrom(final long sequence)
    {
        final JournalReader reader = journal.reader(STREAM_ID);
        try
        {
            reader.seekToSequence(Math.max(sequence, reader.firstSequence()));
            return reader;
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietClose(reader);
            throw ex;
        }
    }

    /**
     * The journal sequence of the first record still retained.
     *
     * @return the sequence, or -1 when empty.
     */
    long firstSequence()
    {
        if (null == reader)
        {
            reader = journal.reader(STREAM_ID);
        }
        return reader.firstSequence();
    }

    long lastSequence()
    {
        return nextSequence - 1;
    }

    Path directory()
    {
        return directory;
    }

    /**
     * Can the journal take records: is there room on its file system?
     *
     * @return usable bytes on the journal's file system.
     */
    long usableSpace()
    {
        return directory.toFile().getUsableSpace();
    }

    @Override
    public void close()
    {
        CloseHelper.quietCloseAll(reader, writer, journal);
    }
}
