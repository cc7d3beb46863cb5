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

/**
 * A connection's state, the deadline of that state, why it is ending, and which outcome it has reported: the
 * single place that knows where the connection is in its life.
 * <p>
 * Every move is checked against {@link ConnectionState#canMoveTo(ConnectionState)}; an illegal one is a bug in
 * the engine and throws. A connection reports one outcome (ESTABLISHED, REJECTED or CONNECT_ERROR), and, once
 * established, at most one DISCONNECTED. Owned by the engine's thread.
 */
final class ConnectionLifecycle
{
    private ConnectionState state;
    private long deadlineNs;
    private String closeReason;
    private boolean outcomeReported;
    private boolean established;
    private boolean disconnectReported;

    ConnectionLifecycle(final ConnectionState initial, final long deadlineNs)
    {
        this.state = initial;
        this.deadlineNs = deadlineNs;
    }

    ConnectionState state()
    {
        return state;
    }

    long deadlineNs()
    {
        return deadlineNs;
    }

    /**
     * Move to the next state.
     *
     * @param next       the state to move to.
     * @param deadlineNs when the next state must have been left, or {@link Long#MAX_VALUE} for never.
     * @throws IllegalStateException when the move is not legal from the current state.
     */
    void moveTo(final ConnectionState next, final long deadlineNs)
    {
        if (!state.canMoveTo(next))
        {
            throw new IllegalStateException("illegal connection state change " + state + " -> " + next);
        }
        state = next;
        this.deadlineNs = deadlineNs;
    }

    /**
     * Move to {@link ConnectionState#CLOSED}, the deadline no longer mattering.
     *
     * @return false when the connection was closed already.
     */
    boolean close()
    {
        if (ConnectionState.CLOSED == state)
        {
            return false;
        }
        state = ConnectionState.CLOSED;
        return true;
    }

    boolean isClosed()
    {
        return ConnectionState.CLOSED == state;
    }

    /**
     * Has the deadline of the current state passed? A closed connection has none.
     *
     * @param nowNs the time.
     * @return true when it has.
     */
    boolean isExpired(final long nowNs)
    {
        return deadlineNs - nowNs < 0 && ConnectionState.CLOSED != state;
    }

    /**
     * Why the connection is ending, once that is known.
     *
     * @return the reason, or null.
     */
    String closeReason()
    {
        return closeReason;
    }

    void closeReason(final String reason)
    {
        closeReason = reason;
    }

    /**
     * Record an event about to be reported, unless one like it was reported already.
     *
     * @param type the event.
     * @return true when it is to be reported: the first outcome, or the first DISCONNECTED after ESTABLISHED.
     */
    boolean recordReport(final ConnectionEventType type)
    {
        if (ConnectionEventType.DISCONNECTED == type)
        {
            if (!established || disconnectReported)
            {
                return false;
            }
            disconnectReported = true;
            return true;
        }
        if (outcomeReported)
        {
            return false;
        }
        outcomeReported = true;
        established = ConnectionEventType.ESTABLISHED == type;
        return true;
    }

    /**
     * Was ESTABLISHED reported?
     *
     * @return true when it was.
     */
    boolean isEstablished()
    {
        return established;
    }

    /**
     * The event that reports the end of the connection.
     *
     * @return DISCONNECTED once established, else CONNECT_ERROR.
     */
    ConnectionEventType endEvent()
    {
        return established ? ConnectionEventType.DISCONNECTED : ConnectionEventType.CONNECT_ERROR;
    }
}
