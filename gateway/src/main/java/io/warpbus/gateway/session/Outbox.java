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

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;

/**
 * Puts events on their way to a session's client: takes the session's next sequence number, journals what must
 * survive a disconnect or a restart, and copies the event into the connection's bounded outbound queue. Core thread,
 * allocation free.
 * <p>
 * The rules that keep "nothing lost, nothing duplicated" true:
 * <ul>
 *     <li>A recoverable event ({@link EventDescriptor#isRecoverable}) always takes a sequence number and is
 *     journaled before it is queued. If the session is not connected, or is being resent to, it stays in the
 *     journal for the resend; if the queue is full, the client is too slow for its own reports and the connection
 *     is closed: it gets them when it resumes.</li>
 *     <li>Anything else (market data, heartbeats) takes a sequence number only once it has a place in the queue,
 *     so a client never sees a hole in the numbers of a live connection; a resend fills the numbers it took with a
 *     gap fill.</li>
 * </ul>
 */
final class Outbox
{
    static final int SLOW_CONSUMER_CLOSE = 1008;
    static final int NORMAL_CLOSE = 1000;

    private final ConnectionTable connections;
    private final SessionJournal journal;
    private final GatewayCounters counters;

    Outbox(final ConnectionTable connections, final SessionJournal journal, final GatewayCounters counters)
    {
        this.connections = connections;
        this.journal = journal;
        this.counters = counters;
    }

    /**
     * Send an event to a session.
     *
     * @param session the session.
     * @param type    the event type.
     * @param buffer  holding the event; its sequence field is written here.
     * @param offset  where it starts.
     * @param length  its length.
     * @param nowNs   the time now.
     * @return true if it was queued for the client now; false if not (journaled for later, or, for market data,
     * dropped because there was no room).
     */
    boolean send(final Session session, final int type, final MutableDirectBuffer buffer, final int offset,
        final int length, final long nowNs)
    {
        if (EventDescriptor.isRecoverable(type))
        {
            final long seq = session.takeSeq();
            buffer.putLong(offset + EventDescriptor.SEQ_OFFSET, seq);
            final long position = journal.append(session.index, type, buffer, offset, length);
            counters.increment(GatewayCounterDescriptor.JOURNAL_RECORDS);
            session.journalIndex.record(seq, position);
            if (!session.isConnected() || session.resending)
            {
                return false;
            }
            final RingBuffer ring = connections.get(session.connection).outbound();
            final int index = ring.tryClaim(type, length);
            if (index < 0)
            {
                connections.get(session.connection).requestClose(SLOW_CONSUMER_CLOSE,
                    "slow consumer: outbound queue full");
                counters.increment(GatewayCounterDescriptor.SLOW_CONSUMER_DISCONNECTS);
                return false;
            }
            ring.buffer().putBytes(index, buffer, offset, length);
            ring.commit(index);
            sent(session, type, nowNs);
            return true;
        }
        if (!session.isConnected() || session.resending)
        {
            return false;
        }
        final RingBuffer ring = connections.get(session.connection).outbound();
        final int index = ring.tryClaim(type, length);
        if (index < 0)
        {
            return false;
        }
        ring.buffer().putBytes(index, buffer, offset, length);
        ring.buffer().putLong(index + EventDescriptor.SEQ_OFFSET, session.takeSeq());
        ring.commit(index);
        sent(session, type, nowNs);
        return true;
    }

    /**
     * Queue an event that already carries its sequence number: a resent one.
     *
     * @return true if queued; false when the queue has no room now.
     */
    boolean resend(final Session session, final int type, final MutableDirectBuffer buffer, final int offset,
        final int length, final long nowNs)
    {
        final RingBuffer ring = connections.get(session.connection).outbound();
        if (!ring.write(type, buffer, offset, length))
        {
            return false;
        }
        sent(session, type, nowNs);
        counters.increment(GatewayCounterDescriptor.RESENT_MESSAGES);
        return true;
    }

    /**
     * Can a connection's queue take an event of this length now?
     *
     * @param session a connected session.
     * @param length  the event's length.
     * @return true if there is room.
     */
    boolean hasRoom(final Session session, final int length)
    {
        final RingBuffer ring = connections.get(session.connection).outbound();
        return ring.capacity() - ring.size() >= length + 64;
    }

    /**
     * Queue an event for a connection without a session (seq 0): a refused logon.
     *
     * @return true if queued.
     */
    boolean sendToConnection(final Connection connection, final int type, final MutableDirectBuffer buffer,
        final int offset, final int length)
    {
        buffer.putLong(offset + EventDescriptor.SEQ_OFFSET, 0);
        final boolean queued = connection.outbound().write(type, buffer, offset, length);
        if (queued)
        {
            counters.increment(GatewayCounterDescriptor.MESSAGES_OUT);
        }
        return queued;
    }

    /**
     * Close a connection after what is queued: a {@code CLOSE} event, or at once when the queue is full.
     *
     * @param connection the connection.
     * @param code       close code.
     * @param reason     for the peer; the adapter truncates it to fit its protocol.
     * @param scratch    a buffer to encode the event in.
     */
    void close(final Connection connection, final int code, final CharSequence reason,
        final MutableDirectBuffer scratch)
    {
        scratch.putLong(EventDescriptor.SEQ_OFFSET, 0);
        scratch.putInt(EventDescriptor.CODE_OFFSET, code);
        EventText.put(scratch, EventDescriptor.REASON_TEXT_OFFSET, reason);
        if (!connection.outbound().write(EventDescriptor.CLOSE, scratch, 0, EventDescriptor.REASON_LENGTH))
        {
            connection.requestClose(code, reason.toString());
        }
    }

    /**
     * Disconnect a session that has stayed too slow for too long to take its market data.
     *
     * @param session a connected session.
     */
    void closeSlowConsumer(final Session session)
    {
        connections.get(session.connection).requestClose(SLOW_CONSUMER_CLOSE,
            "slow consumer: market data conflated for too long");
        counters.increment(GatewayCounterDescriptor.SLOW_CONSUMER_DISCONNECTS);
    }

    private void sent(final Session session, final int type, final long nowNs)
    {
        session.lastOutboundNs = nowNs;
        session.messagesOut++;
        counters.increment(GatewayCounterDescriptor.MESSAGES_OUT);
        if (EventDescriptor.isMarketData(type))
        {
            counters.increment(GatewayCounterDescriptor.MARKET_DATA_OUT);
        }
        else if (EventDescriptor.EXECUTION_REPORT == type)
        {
            counters.increment(GatewayCounterDescriptor.REPORTS_OUT);
        }
    }
}
