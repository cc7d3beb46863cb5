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
package io.warpbus.iwarp;

import java.util.EnumSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static io.warpbus.iwarp.ConnectionState.AWAIT_DECISION;
import static io.warpbus.iwarp.ConnectionState.AWAIT_FIRST_FPDU;
import static io.warpbus.iwarp.ConnectionState.AWAIT_REPLY;
import static io.warpbus.iwarp.ConnectionState.AWAIT_REQUEST;
import static io.warpbus.iwarp.ConnectionState.CLOSED;
import static io.warpbus.iwarp.ConnectionState.CLOSING;
import static io.warpbus.iwarp.ConnectionState.CONNECTING;
import static io.warpbus.iwarp.ConnectionState.RTS;
import static io.warpbus.iwarp.ConnectionState.TERMINATING;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The connection's states, their legal moves, deadlines and the events reported once.
 */
class ConnectionLifecycleTest
{
    @Test
    void shouldAllowExactlyTheMovesOfTheDiagram()
    {
        final Set<String> legal = Set.of(
            "CONNECTING>AWAIT_REPLY",
            "AWAIT_REQUEST>AWAIT_DECISION",
            "AWAIT_DECISION>AWAIT_FIRST_FPDU",
            "AWAIT_REPLY>RTS",
            "AWAIT_FIRST_FPDU>RTS",
            "RTS>CLOSING",
            "TERMINATING>CLOSED");
        for (final ConnectionState from : ConnectionState.values())
        {
            for (final ConnectionState to : ConnectionState.values())
            {
                final boolean expected = legal.contains(from + ">" + to) ||
                    (TERMINATING == to && !from.isEnding()) || (CLOSED == to && CLOSED != from);
                assertEquals(expected, from.canMoveTo(to), from + " -> " + to);
            }
        }
    }

    @Test
    void shouldFollowTheInitiatorsPathWithADeadlineForEachState()
    {
        final ConnectionLifecycle lifecycle = new ConnectionLifecycle(CONNECTING, 100);

        lifecycle.moveTo(AWAIT_REPLY, 200);
        assertEquals(AWAIT_REPLY, lifecycle.state());
        assertEquals(200, lifecycle.deadlineNs());
        lifecycle.moveTo(RTS, Long.MAX_VALUE);
        lifecycle.moveTo(CLOSING, 300);
        assertEquals(CLOSING, lifecycle.state());
        assertEquals(300, lifecycle.deadlineNs());
        assertTrue(lifecycle.close());
        assertTrue(lifecycle.isClosed());
    }

    @Test
    void shouldFollowTheRespondersPath()
    {
        final ConnectionLifecycle lifecycle = new ConnectionLifecycle(AWAIT_REQUEST, 100);

        lifecycle.moveTo(AWAIT_DECISION, 200);
        lifecycle.moveTo(AWAIT_FIRST_FPDU, 300);
        lifecycle.moveTo(RTS, Long.MAX_VALUE);

        assertEquals(RTS, lifecycle.state());
        assertEquals(Long.MAX_VALUE, lifecycle.deadlineNs());
    }

    @Test
    void shouldRefuseToSkipTheMpaExchangeAndKeepTheStateItWasIn()
    {
        final ConnectionLifecycle lifecycle = new ConnectionLifecycle(AWAIT_DECISION, 100);

        final IllegalStateException ex = assertThrows(IllegalStateException.class,
            () -> lifecycle.moveTo(RTS, Long.MAX_VALUE));

        assertTrue(ex.getMessage().contains("AWAIT_DECISION -> RTS"), ex.getMessage());
        assertEquals(AWAIT_DECISION, lifecycle.state());
        assertEquals(100, lifecycle.deadlineNs());
    }

    @Test
    void shouldNeverLeaveClosed()
    {
        final ConnectionLifecycle lifecycle = new ConnectionLifecycle(RTS, Long.MAX_VALUE);
        assertTrue(lifecycle.close());

        assertFalse(lifecycle.close());
        for (final ConnectionState next : ConnectionState.values())
        {
            assertThrows(IllegalStateException.class, () -> lifecycle.moveTo(next, 0), "CLOSED -> " + next);
        }
        assertEquals(CLOSED, lifecycle.state());
    }

    @Test
    void shouldNotTerminateTwice()
    {
        final ConnectionLifecycle lifecycle = new ConnectionLifecycle(CLOSING, 100);
        lifecycle.moveTo(TERMINATING, 200);

        assertThrows(IllegalStateException.class, () -> lifecycle.moveTo(TERMINATING, 300));
        assertThrows(IllegalStateException.class, () -> lifecycle.moveTo(RTS, 300));
        assertEquals(200, lifecycle.deadlineNs());
    }

    @Test
    void shouldExpireOnlyPastTheDeadlineAndNeverOnceClosed()
    {
        final ConnectionLifecycle lifecycle = new ConnectionLifecycle(AWAIT_REQUEST, 1_000);

        assertFalse(lifecycle.isExpired(999));
        assertFalse(lifecycle.isExpired(1_000));
        assertTrue(lifecycle.isExpired(1_001));
        lifecycle.close();
        assertFalse(lifecycle.isExpired(1_001));
    }

    @Test
    void shouldGroupTheStatesAsTheDutyCycleAsks()
    {
        assertEquals(EnumSet.of(CONNECTING, AWAIT_REQUEST, AWAIT_DECISION, AWAIT_REPLY, AWAIT_FIRST_FPDU),
            matching(ConnectionState::isMpaExchange));
        assertEquals(EnumSet.of(AWAIT_FIRST_FPDU, RTS, CLOSING), matching(ConnectionState::receivesFpdus));
        assertEquals(EnumSet.of(RTS, CLOSING), matching(ConnectionState::isFullOperation));
        assertEquals(EnumSet.of(TERMINATING, CLOSED), matching(ConnectionState::isEnding));
    }

    @Test
    void shouldReportOneOutcomeAndOneDisconnectOnlyAfterEstablished()
    {
        final ConnectionLifecycle lifecycle = new ConnectionLifecycle(CONNECTING, 100);
        assertEquals(ConnectionEventType.CONNECT_ERROR, lifecycle.endEvent());

        assertFalse(lifecycle.recordReport(ConnectionEventType.DISCONNECTED), "not established yet");
        assertTrue(lifecycle.recordReport(ConnectionEventType.ESTABLISHED));
        assertTrue(lifecycle.isEstablished());
        assertEquals(ConnectionEventType.DISCONNECTED, lifecycle.endEvent());
        assertFalse(lifecycle.recordReport(ConnectionEventType.CONNECT_ERROR), "the outcome was reported");
        assertTrue(lifecycle.recordReport(ConnectionEventType.DISCONNECTED));
        assertFalse(lifecycle.recordReport(ConnectionEventType.DISCONNECTED), "disconnected once");
    }

    @Test
    void shouldNeverReportADisconnectAfterAFailedConnect()
    {
        final ConnectionLifecycle lifecycle = new ConnectionLifecycle(CONNECTING, 100);

        assertTrue(lifecycle.recordReport(ConnectionEventType.CONNECT_ERROR));

        assertFalse(lifecycle.isEstablished());
        assertFalse(lifecycle.recordReport(ConnectionEventType.ESTABLISHED));
        assertFalse(lifecycle.recordReport(ConnectionEventType.DISCONNECTED));
        assertEquals(ConnectionEventType.CONNECT_ERROR, lifecycle.endEvent());
    }

    @Test
    void shouldKeepTheCloseReasonGiven()
    {
        final ConnectionLifecycle lifecycle = new ConnectionLifecycle(RTS, Long.MAX_VALUE);
        assertNull(lifecycle.closeReason());

        lifecycle.closeReason("closed by the peer");

        assertEquals("closed by the peer", lifecycle.closeReason());
    }

    private static EnumSet<ConnectionState> matching(final java.util.function.Predicate<ConnectionState> test)
    {
        final EnumSet<ConnectionState> states = EnumSet.noneOf(ConnectionState.class);
        for (final ConnectionState state : ConnectionState.values())
        {
            if (test.test(state))
            {
                states.add(state);
            }
        }
        return states;
    }
}
