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

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The trader's check of its execution reports: each request answered once, fills once and in order, nothing after an
 * order's end, exec ids once and without holes; a request unanswered on a live connection is lost, one whose
 * connection died is in doubt.
 */
@Timeout(10)
class OrderReportCheckerTest
{
    private static final int[] CONNECTION_0 = { 0 };
    private static final int[] CONNECTION_1 = { 1 };
    private final OrderReportChecker checker = new OrderReportChecker();

    @Test
    void shouldAcceptAnOrderAcceptedFilledInTwoAndAnIocWhoseRestIsCancelled()
    {
        checker.onNewOrderSent("a", 30, false, 0, 0);
        checker.onNewOrderSent("b", 20, true, 0, 0);
        assertNull(checker.onReport("a", "new", 1, 0, 0, 0));
        assertNull(checker.onReport("b", "new", 2, 0, 0, 0));
        assertNull(checker.onReport("b", "partiallyFilled", 3, 0, 5, 5));
        assertNull(checker.onReport("b", "cancelled", 4, 401, 0, 5));
        assertNull(checker.onReport("a", "partiallyFilled", 5, 0, 10, 10));
        assertNull(checker.onReport("a", "filled", 6, 0, 20, 30));
        final OrderReportChecker.Verdict verdict = checker.verdict(CONNECTION_0);
        assertEquals(0, verdict.lost(), verdict.toString());
        assertEquals(0, verdict.duplicated(), verdict.toString());
        assertEquals(2, verdict.answered());
        assertEquals(6, verdict.maxExecId());
        assertEquals(3, verdict.fills());
    }

    @Test
    void shouldAcceptACancelAnsweredOnceAndACancelRejectedAfterAFill()
    {
        checker.onNewOrderSent("a", 10, false, 0, 0);
        checker.onReport("a", "new", 1, 0, 0, 0);
        checker.onCancelSent("a", 0);
        assertFalse(checker.isCancellable("a"), "a cancel is on its way");
        assertNull(checker.onReport("a", "filled", 2, 0, 10, 10));
        assertNull(checker.onReport("a", "cancelRejected", 3, 301, 0, 10));
        final OrderReportChecker.Verdict verdict = checker.verdict(CONNECTION_0);
        assertEquals(0, verdict.lost() + verdict.duplicated(), verdict.toString());
        assertFalse(checker.isOpen("a"));
    }

    @Test
    void shouldCountAReportWithAnExecIdSeenBeforeAsADuplicate()
    {
        checker.onNewOrderSent("a", 10, false, 0, 0);
        checker.onReport("a", "new", 1, 0, 0, 0);
        assertNotNull(checker.onReport("a", "new", 1, 0, 0, 0));
        assertEquals(1, checker.verdict(CONNECTION_0).duplicateExecIds());
    }

    @Test
    void shouldCountASecondAnswerUnderANewExecIdAsADuplicate()
    {
        checker.onNewOrderSent("a", 10, false, 0, 0);
        checker.onReport("a", "new", 1, 0, 0, 0);
        assertNotNull(checker.onReport("a", "new", 2, 0, 0, 0));
        assertEquals(1, checker.verdict(CONNECTION_0).unexpectedAnswers());
    }

    @Test
    void shouldSeeAFillThatNeverArrivedAndAFillTwice()
    {
        checker.onNewOrderSent("a", 30, false, 0, 0);
        checker.onReport("a", "new", 1, 0, 0, 0);
        // The fill of 10 (exec id 2) never comes: the next says 20 filled after a last of 10.
        assertNotNull(checker.onReport("a", "partiallyFilled", 3, 0, 10, 20));
        assertNotNull(checker.onReport("a", "partiallyFilled", 4, 0, 10, 20), "the same fill again");
        final OrderReportChecker.Verdict verdict = checker.verdict(CONNECTION_0);
        assertEquals(1, verdict.fillGaps());
        assertEquals(1, verdict.execIdGaps(), "exec id 2");
        assertEquals(1, verdict.duplicateFills());
        assertTrue(verdict.lost() > 0 && verdict.duplicated() > 0, verdict.toString());
    }

    @Test
    void shouldCountAReportAfterTheEndAndOfAnOrderNeverSent()
    {
        checker.onNewOrderSent("a", 10, false, 0, 0);
        checker.onReport("a", "rejected", 0, 505, 0, 0);
        assertNotNull(checker.onReport("a", "new", 1, 0, 0, 0));
        assertNotNull(checker.onReport("zz", "new", 2, 0, 0, 0));
        final OrderReportChecker.Verdict verdict = checker.verdict(CONNECTION_0);
        assertEquals(1, verdict.reportsAfterEnd());
        assertEquals(1, verdict.unknownOrders());
        assertEquals(1, verdict.unavailableRejects());
    }

    @Test
    void shouldCallARequestUnansweredOnALiveConnectionLostAndOneWhoseConnectionDiedInDoubt()
    {
        checker.onNewOrderSent("a", 10, false, 0, 0);
        assertEquals(1, checker.pending(CONNECTION_0, false));
        assertEquals(0, checker.pending(CONNECTION_0, true));
        final OrderReportChecker.Verdict live = checker.verdict(CONNECTION_0);
        assertEquals(1, live.unanswered());
        assertEquals(1, live.lost());
        // The connection it went out on died; the session is on connection 1 now.
        final OrderReportChecker.Verdict resumed = checker.verdict(CONNECTION_1);
        assertEquals(0, resumed.unanswered());
        assertEquals(1, resumed.inDoubt());
        assertEquals("a", resumed.examples().get("in doubt"), "the order in doubt is named");
        assertEquals(0, resumed.lost());
        assertEquals(1, checker.pending(CONNECTION_1, true));
        // Its answer comes after the resume: settled.
        checker.onReport("a", "new", 1, 0, 0, 0);
        assertEquals(0, checker.verdict(CONNECTION_1).inDoubt());
    }

    @Test
    void shouldCallAnIocAcceptedButNeverEndedLost()
    {
        checker.onNewOrderSent("b", 10, true, 0, 0);
        checker.onReport("b", "new", 1, 0, 0, 0);
        assertEquals(1, checker.verdict(CONNECTION_0).unfinished());
    }

    @Test
    void shouldOfferTheOldestLiveOrderWithoutACancelForCancelling()
    {
        checker.onNewOrderSent("a", 10, false, 0, 0);
        checker.onNewOrderSent("b", 10, false, 0, 0);
        checker.onNewOrderSent("c", 10, false, 0, 0);
        checker.onReport("b", "new", 1, 0, 0, 0);
        checker.onReport("c", "new", 2, 0, 0, 0);
        assertEquals("b", checker.oldestCancellable(List.of("a", "b", "c")));
        checker.onCancelSent("b", 0);
        assertEquals("c", checker.oldestCancellable(List.of("a", "b", "c")));
    }
}
