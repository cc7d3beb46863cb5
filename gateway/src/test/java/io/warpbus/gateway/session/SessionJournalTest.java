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
import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.SystemEpochNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;

@Timeout(60)
class SessionJournalTest
{
    /**
     * Every kind the gateway appends: an event as queued to a session, and each of the core's own records.
     */
    private static final int[] KINDS =
    {
        EventDescriptor.EXECUTION_REPORT,
        EventDescriptor.LOGON_ACCEPTED,
        SessionJournal.SESSION_OPENED_RECORD,
        SessionJournal.SESSION_ENDED_RECORD,
        SessionJournal.ORDER_SENT_RECORD,
        SessionJournal.INSTRUMENT_RECORD,
        SessionJournal.SEQ_MARK_RECORD,
        SessionJournal.SESSION_FLAGS_RECORD,
    };

    @TempDir
    Path dir;

    private final UnsafeBuffer record = new UnsafeBuffer(new byte[64]);

    @Test
    void shouldCountEveryRecordItAppendsOfEveryKind()
    {
        final List<Integer> replayed = new ArrayList<>();
        try (GatewayCounters counters = new GatewayCounters(dir.resolve("counters"));
            SessionJournal journal = new SessionJournal(dir.resolve("journal"), 1, new SystemEpochNanoClock(),
                counters))
        {
            for (int i = 0; i < KINDS.length; i++)
            {
                record.putLong(0, i);
                assertEquals(i, journal.append(i % 3, KINDS[i], record, 0, 8 + i));
                assertEquals(i + 1, counters.value(GatewayCounterDescriptor.JOURNAL_RECORDS),
                    "after appending kind " + KINDS[i]);
            }

            assertEquals(KINDS.length, journal.replay((sequence, session, flags, publisherNs, receiveNs, buffer,
                offset, length) -> replayed.add(flags)));
        }
        final List<Integer> expected = new ArrayList<>();
        for (final int kind : KINDS)
        {
            expected.add(kind);
        }
        assertEquals(expected, replayed, "every record was journaled once, in order");
    }

    @Test
    void shouldCountOnlyWhatThisProcessAppendedAfterARestart()
    {
        try (GatewayCounters counters = new GatewayCounters(dir.resolve("counters"));
            SessionJournal journal = new SessionJournal(dir.resolve("journal"), 1, new SystemEpochNanoClock(),
                counters))
        {
            journal.append(0, SessionJournal.SESSION_OPENED_RECORD, record, 0, 8);
            journal.append(0, SessionJournal.SESSION_ENDED_RECORD, record, 0, 8);
        }
        try (GatewayCounters counters = new GatewayCounters(dir.resolve("counters-after"));
            SessionJournal journal = new SessionJournal(dir.resolve("journal"), 1, new SystemEpochNanoClock(),
                counters))
        {
            assertEquals(2, journal.append(1, SessionJournal.SEQ_MARK_RECORD, record, 0, 8),
                "the journal's sequence goes on from the records before the restart");
            assertEquals(1, counters.value(GatewayCounterDescriptor.JOURNAL_RECORDS));
            assertEquals(3, journal.replay((sequence, session, flags, publisherNs, receiveNs, buffer, offset,
                length) ->
            {
            }));
        }
    }
}
