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
package io.warpbus.gateway.client;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The trader's check of a session's outbound numbers across connections, as docs/gateway.md ("Resume") describes
 * them: a fresh logon is 1; a resumed logon reply takes the session's next number and the resend (messages and gap
 * fills) covers the numbers before it; a number twice is a duplicate, a number skipped is missing.
 */
@Timeout(10)
class SequenceTrackerTest
{
    private final SequenceTracker tracker = new SequenceTracker();

    @Test
    void shouldAcceptALiveSessionNumberedWithoutHoles()
    {
        assertNull(tracker.onLogon(1, false));
        for (long seq = 2; seq <= 10; seq++)
        {
            assertNull(tracker.onMessage(seq));
        }
        assertEquals(11, tracker.resumeFrom());
        assertEquals(10, tracker.received());
        assertEquals(0, tracker.missing());
        assertEquals(0, tracker.duplicates());
    }

    @Test
    void shouldAcceptAResumeWhoseResendAndGapFillCoverEveryNumberBeforeTheLogonReply()
    {
        tracker.onLogon(1, false);
        tracker.onMessage(2);
        tracker.onMessage(3);
        // The connection dies; the client resumes from 4. The restarted gateway numbers on from its mark, 1025.
        assertEquals(4, tracker.resumeFrom());
        assertNull(tracker.onLogon(1025, true));
        assertNull(tracker.onMessage(4));
        assertNull(tracker.onMessage(5));
        assertNull(tracker.onGapFill(6, 1025));
        assertNull(tracker.onMessage(1026));
        assertEquals(1027, tracker.resumeFrom());
        assertEquals(2, tracker.resent());
        assertEquals(1019, tracker.gapFilled());
        assertEquals(0, tracker.missing());
        assertEquals(0, tracker.duplicates());
    }

    @Test
    void shouldAcceptAResumeWithNothingMissed()
    {
        tracker.onLogon(1, false);
        tracker.onMessage(2);
        assertNull(tracker.onLogon(3, true));
        assertNull(tracker.onMessage(4));
        assertEquals(0, tracker.resent());
        assertEquals(0, tracker.missing());
    }

    @Test
    void shouldCountANumberSeenAgainAsADuplicate()
    {
        tracker.onLogon(1, false);
        tracker.onMessage(2);
        tracker.onMessage(3);
        assertNotNull(tracker.onMessage(3));
        assertNotNull(tracker.onMessage(2));
        assertEquals(2, tracker.duplicates());
        assertEquals(4, tracker.resumeFrom());
    }

    @Test
    void shouldCountNumbersSkippedAsMissingButNotTheLogonReplysOwn()
    {
        tracker.onLogon(1, false);
        tracker.onMessage(2);
        tracker.onLogon(10, true);
        // 3..9 should be resent before 11 comes; only 3 and 4 do.
        tracker.onMessage(3);
        tracker.onMessage(4);
        assertNotNull(tracker.onMessage(11));
        assertEquals(5, tracker.missing(), "5..9 missing, 10 was the logon reply");
        assertEquals(12, tracker.resumeFrom());
    }

    @Test
    void shouldCountAResentNumberAfterTheLiveOnesAsADuplicate()
    {
        tracker.onLogon(1, false);
        tracker.onLogon(5, true);
        tracker.onGapFill(2, 5);
        tracker.onMessage(6);
        assertNotNull(tracker.onMessage(3));
        assertEquals(1, tracker.duplicates());
    }

    @Test
    void shouldRefuseAFreshLogonWhereAResumeWasExpected()
    {
        tracker.onLogon(1, false);
        tracker.onMessage(2);
        assertNotNull(tracker.onLogon(1, false), "the session was lost: a new one started at 1");
    }

    @Test
    void shouldRefuseAGapFillThatGoesBackwards()
    {
        tracker.onLogon(1, false);
        assertNotNull(tracker.onGapFill(5, 5));
    }
}
