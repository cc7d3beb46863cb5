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
 * Where a {@link Connection} is in its life, and which moves between states are legal.
 * <pre>
 *  initiator: CONNECTING -&gt; AWAIT_REPLY --------------------------&gt; RTS -&gt; CLOSING -&gt; CLOSED
 *  responder: AWAIT_REQUEST -&gt; AWAIT_DECISION -&gt; AWAIT_FIRST_FPDU -&gt; RTS -&gt; CLOSING -&gt; CLOSED
 *  any error, or a rejected request: -&gt; TERMINATING (Terminate or reject flushed) -&gt; CLOSED
 *  any state: -&gt; CLOSED
 * </pre>
 * The groups the duty cycle asks about are flags of each constant, so asking costs a field read.
 */
enum ConnectionState
{
    /** Initiator: the TCP connect is under way. */
    CONNECTING(true, false, false, false),
    /** Responder: waiting for the initiator's MPA Request. */
    AWAIT_REQUEST(true, false, false, false),
    /** Responder: the Request is with the application, which accepts or rejects it. */
    AWAIT_DECISION(true, false, false, false),
    /** Initiator: the Request is sent, waiting for the Reply. */
    AWAIT_REPLY(true, false, false, false),
    /** Responder: the Reply is sent, waiting for the initiator's first FPDU (RFC 5044 section 7.1.2, rule 4). */
    AWAIT_FIRST_FPDU(true, true, false, false),
    /** Full operation in both directions. */
    RTS(false, true, true, false),
    /** Graceful close: queued work is finished, then the socket is shut down. */
    CLOSING(false, true, true, false),
    /** A Terminate or a reject is being flushed before the socket is closed. */
    TERMINATING(false, false, false, true),
    /** The socket is closed. */
    CLOSED(false, false, false, true);

    private final boolean mpaExchange;
    private final boolean receivesFpdus;
    private final boolean fullOperation;
    private final boolean ending;

    ConnectionState(
        final boolean mpaExchange, final boolean receivesFpdus, final boolean fullOperation, final boolean ending)
    {
        this.mpaExchange = mpaExchange;
        this.receivesFpdus = receivesFpdus;
        this.fullOperation = fullOperation;
        this.ending = ending;
    }

    /**
     * Is the MPA exchange still under way, bounded by the MPA timeout?
     *
     * @return true from {@link #CONNECTING} to {@link #AWAIT_FIRST_FPDU}.
     */
    boolean isMpaExchange()
    {
        return mpaExchange;
    }

    /**
     * Are inbound FPDUs read and placed?
     *
     * @return true for {@link #AWAIT_FIRST_FPDU}, {@link #RTS} and {@link #CLOSING}.
     */
    boolean receivesFpdus()
    {
        return receivesFpdus;
    }

    /**
     * Are work requests turned into FPDUs?
     *
     * @return true for {@link #RTS} and {@link #CLOSING}.
     */
    boolean isFullOperation()
    {
        return fullOperation;
    }

    /**
     * Is the connection past the point where an error can still be reported to the peer?
     *
     * @return true for {@link #TERMINATING} and {@link #CLOSED}.
     */
    boolean isEnding()
    {
        return ending;
    }

    /**
     * May a connection in this state move to the next?
     *
     * @param next the state to move to.
     * @return true when the move is one of the diagram's.
     */
    boolean canMoveTo(final ConnectionState next)
    {
        if (CLOSED == this)
        {
            return false;
        }
        if (CLOSED == next)
        {
            return true;
        }
        if (TERMINATING == next)
        {
            return TERMINATING != this;
        }
        switch (this)
        {
            case CONNECTING:
                return AWAIT_REPLY == next;
            case AWAIT_REQUEST:
                return AWAIT_DECISION == next;
            case AWAIT_DECISION:
                return AWAIT_FIRST_FPDU == next;
            case AWAIT_REPLY:
            case AWAIT_FIRST_FPDU:
                return RTS == next;
            case RTS:
                return CLOSING == next;
            default:
                return false;
        }
    }
}
