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
package io.warpbus.bus;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The policy for durable subscribers a publication lost: who is durable, which place is kept and for how long,
 * and when it is released.
 */
@Timeout(10)
class DurableSubscriberTrackerTest
{
    private static final long TIMEOUT_NS = 30_000_000_000L;
    private static final String RECORDER = "10.0.0.5:40457";
    private static final String OTHER_RECORDER = "10.0.0.6:40457";

    private final DurableSubscriberTracker tracker = new DurableSubscriberTracker(TIMEOUT_NS);

    @Test
    void shouldMakeDurableOnlyABlockingSubscriberThatAnnouncesAReplayEndpoint()
    {
        assertTrue(tracker.isDurable(SlowConsumerPolicy.BLOCK, RECORDER));
        assertFalse(tracker.isDurable(SlowConsumerPolicy.BLOCK, ""), "no announce: an ordinary subscriber");
        assertFalse(tracker.isDurable(SlowConsumerPolicy.DROP, RECORDER), "a drop subscriber is never waited for");
        assertFalse(tracker.isDurable(SlowConsumerPolicy.CONFLATE, RECORDER));
        assertFalse(new DurableSubscriberTracker(0).isDurable(SlowConsumerPolicy.BLOCK, RECORDER),
            "a durable timeout of 0 turns bridging off");
    }

    @Test
    void shouldHoldNothingWhileNobodyIsAway()
    {
        assertEquals(0, tracker.absentCount());
        assertEquals(Long.MAX_VALUE, tracker.heldPosition());
        assertEquals(Long.MAX_VALUE, tracker.heldPosition(RECORDER));
        assertNull(tracker.expire(Long.MAX_VALUE));
        assertNull(tracker.onReturned(RECORDER));
    }

    @Test
    void shouldKeepTheLowestPlaceOfEveryAbsentSubscriber()
    {
        tracker.onLost(RECORDER, "recorder-1", 4096, 1_000);
        tracker.onLost(OTHER_RECORDER, "recorder-2", 1024, 2_000);

        assertEquals(2, tracker.absentCount());
        assertEquals(1024, tracker.heldPosition());
        assertEquals(4096, tracker.heldPosition(RECORDER));
        assertEquals(1024, tracker.heldPosition(OTHER_RECORDER));
        assertEquals(Long.MAX_VALUE, tracker.heldPosition(""), "an ordinary subscriber has no place");
    }

    @Test
    void shouldNotExtendAnAbsenceWhenTheSubscriberIsLostAgainBeforeItWasBack()
    {
        final DurableSubscriberTracker.Absence first = tracker.onLost(RECORDER, "recorder-1", 4096, 1_000);
        final DurableSubscriberTracker.Absence again = tracker.onLost(RECORDER, "recorder-2", 8192, 5_000);

        assertEquals(first, again);
        assertEquals(1, tracker.absentCount());
        assertEquals(4096, tracker.heldPosition(), "the first place, where its journal ends");
        assertEquals(1_000 + TIMEOUT_NS, again.deadlineNs(), "the first deadline");
    }

    @Test
    void shouldReleaseThePlaceWhenTheSubscriberReturns()
    {
        tracker.onLost(RECORDER, "recorder-1", 4096, 1_000);

        final DurableSubscriberTracker.Absence absence = tracker.onReturned(RECORDER);

        assertEquals("recorder-1", absence.name());
        assertEquals(1_000, absence.sinceNs());
        assertEquals(0, tracker.absentCount());
        assertEquals(Long.MAX_VALUE, tracker.heldPosition());
        assertNull(tracker.onReturned(RECORDER), "released once");
    }

    @Test
    void shouldReleaseThePlaceAtTheDeadlineAndNotBefore()
    {
        tracker.onLost(RECORDER, "recorder-1", 4096, 1_000);
        tracker.onLost(OTHER_RECORDER, "recorder-2", 1024, 2_000);

        assertNull(tracker.expire(1_000 + TIMEOUT_NS - 1));
        final DurableSubscriberTracker.Absence expired = tracker.expire(1_000 + TIMEOUT_NS);
        assertEquals(RECORDER, expired.key());
        assertEquals(1, tracker.absentCount());
        assertEquals(1024, tracker.heldPosition());
        assertNull(tracker.expire(2_000 + TIMEOUT_NS - 1));
        assertEquals(OTHER_RECORDER, tracker.expire(2_000 + TIMEOUT_NS).key());
        assertEquals(Long.MAX_VALUE, tracker.heldPosition());
    }

    @Test
    void shouldForgetEveryPlaceWhenThePublicationCloses()
    {
        tracker.onLost(RECORDER, "recorder-1", 4096, 1_000);
        tracker.clear();

        assertEquals(0, tracker.absentCount());
        assertEquals(Long.MAX_VALUE, tracker.heldPosition());
    }
}
