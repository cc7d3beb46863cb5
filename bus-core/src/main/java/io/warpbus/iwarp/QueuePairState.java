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
 * States of a {@link QueuePair}, after the iWARP verbs state machine.
 * <pre>
 *   IDLE --connect/accept--&gt; CONNECTING --MPA exchange done--&gt; RTS --disconnect--&gt; CLOSING --&gt; CLOSED
 *                                  |                             |
 *                                  +--------- error -------------+--&gt; TERMINATE (Terminate sent or received)
 *                                                                       --&gt; ERROR (work requests flushed)
 * </pre>
 */
public enum QueuePairState
{
    /** Created, not yet connected. Receive buffers may be posted. */
    IDLE,
    /** Connection and MPA negotiation under way. */
    CONNECTING,
    /** Ready to send: connected, work requests are processed. */
    RTS,
    /** Graceful close under way: queued work is finished, nothing new is accepted. */
    CLOSING,
    /** A Terminate was sent or received; the connection is being torn down. */
    TERMINATE,
    /** The connection failed; outstanding work requests complete with an error status. */
    ERROR,
    /** Closed after a graceful disconnect; outstanding work requests were flushed. */
    CLOSED;

    /**
     * Has the queue pair finished for good?
     *
     * @return true for {@link #ERROR} and {@link #CLOSED}.
     */
    public boolean isFinal()
    {
        return this == ERROR || this == CLOSED;
    }
}
