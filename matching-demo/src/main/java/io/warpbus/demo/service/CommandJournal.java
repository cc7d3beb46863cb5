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
package io.warpbus.demo.service;

import java.nio.file.Path;

import io.warpbus.journal.Journal;
import io.warpbus.journal.JournalContext;
import io.warpbus.journal.JournalHandler;
import io.warpbus.journal.JournalReader;
import io.warpbus.journal.JournalWriter;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;

/**
 * The engine's command journal: every inbound order-entry message, exactly as received, appended to stream
 * {@value #STREAM_ID} of a {@link Journal} before the engine processes it, so that the engine's state is a
 * function of the journal and can be rebuilt by replaying it.
 * <p>
 * Record fields: the sequence is the journal's own count (0, 1, 2, ...; not the bus sequence, since several
 * order-entry streams interleave), the session is the publisher's bus session, flags hold the origin of the route the
 * message came on (see {@link EngineContext}), and both timestamps are
 * the engine's epoch time for the command, which replay hands to the core again; the payload is the SBE message.
 * {@link #append} allocates nothing in steady state (the journal writer's guarantee); it throws when the journal
 * cannot take the record, and then the message must not be processed.
 */
final class CommandJournal implements AutoCloseable
{
    /**
     * The journal stream of inbound order entry.
     */
    static final int STREAM_ID = 1001;

    private static final int REPLAY_BATCH = 1024;

    private final Journal journal;
    private final JournalWriter writer;
    private final Path directory;
    private long nextSequence;

    CommandJournal(final Path directory)
    {
        this.directory = directory;
        // No retention, whatever the JVM's journal properties say: recovery needs every command after the oldest
        // checkpoint it may fall back to.
        final Journal journal = Journal.open(new JournalContext().directory(directory).retentionCycles(0)
            .retentionDays(0));
        try
        {
            this.writer = journal.writer(STREAM_ID);
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietClose(journal);
            throw ex;
        }
        this.journal = journal;
        this.nextSequence = writer.lastSequence() + 1;
    }

    /**
     * Append one inbound message.
     *
     * @param buffer      holding the message.
     * @param offset      where it starts.
     * @param length      its length.
     * @param sessionId   the publisher's bus session.
     * @param origin      of the route it came on, 0 to 65535.
     * @param timestampNs the engine's time for the command.
     */
    void append(
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final int sessionId,
        final int origin,
        final long timestampNs)
    {
        try
        {
            writer.append(nextSequence, sessionId, origin, timestampNs, timestampNs, buffer, offset, length);
        }
        finally
        {
            // Whatever happened, the next record follows the last one actually written.
            nextSequence = writer.lastSequence() + 1;
        }
    }

    /**
     * Sequence of the last record, -1 when the journal is empty.
     *
     * @return the sequence.
     */
    long lastSequence()
    {
        return nextSequence - 1;
    }

    /**
     * Deliver every record after a sequence, in order, to the end of the journal. Start-up only.
     *
     * @param afterSequence the last sequence already applied (a checkpoint's), -1 for all.
     * @param handler       receives each record.
     * @return records delivered.
     * @throws IllegalStateException when the journal does not hold every record after {@code afterSequence}.
     */
    long replay(final long afterSequence, final JournalHandler handler)
    {
        final long last = lastSequence();
        if (afterSequence > last)
        {
            throw new IllegalStateException("journal " + directory + " ends at sequence " + last +
                ", before the checkpoint's " + afterSequence + ": not the journal the checkpoint was taken from");
        }
        if (afterSequence == last)
        {
            return 0;
        }
        try (JournalReader reader = journal.reader(STREAM_ID))
        {
            if (afterSequence < 0)
            {
                reader.toStart();
            }
            else
            {
                reader.seekToSequence(afterSequence + 1);
            }
            long expected = afterSequence + 1;
            long count = 0;
            int read;
            while ((read = reader.poll(handler, REPLAY_BATCH)) > 0)
            {
                count += read;
                expected += read;
                if (reader.lastReadSequence() != expected - 1)
                {
                    throw new IllegalStateException("journal " + directory + " has a hole: read sequence " +
                        reader.lastReadSequence() + " where " + (expected - 1) + " was expected");
                }
            }
            if (expected - 1 != last)
            {
                throw new IllegalStateException("journal " + directory + " replay stopped at sequence " +
                    (expected - 1) + " of " + last + (null == reader.damage() ? "" : ": " + reader.damage()));
            }
            return count;
        }
    }

    /**
     * The journal's directory.
     *
     * @return the directory.
     */
    Path directory()
    {
        return directory;
    }

    @Override
    public void close()
    {
        CloseHelper.quietCloseAll(writer, journal);
    }
}
