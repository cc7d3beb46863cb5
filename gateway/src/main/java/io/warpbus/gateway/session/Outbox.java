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

import java.nio.ByteBuffer;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
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
 *     journal for the resend; if the queue is full, the session falls behind: it is caught up from the journal as a
 *     resend is, with its market data held back until then, and disconnected as a slow consumer only if it stays
 *     behind for longer than the slow-consumer timeout.</li>
 *     <li>Anything else (market data, heartbeats) takes a sequence number only once it has a place in the queue,
 *     so a client never sees a hole in the numbers of a live connection; a resend fills the numbers it took with a
 *     gap fill.</li>
 *     <li>Every {@value #SEQ_MARK_INTERVAL} numbers the journal notes how far the session's numbering may go before
 *     the next note, so that a restarted gateway numbers on past anything the client saw, market data included.</li>
 * </ul>
 */
final class Outbox
{
    static final int SLOW_CONSUMER_CLOSE = 1008;
    static final int NORMAL_CLOSE = 1000;
    static final long SEQ_MARK_INTERVAL = 1024;
    static final int MARKET_DATA_BACKLOG_BYTES = ConnectionTable.MIN_QUEUE_BYTES / 4;

    /**
     * Told when a session's queue has no room for a recoverable event, which is in the journal already.
     */
    @FunctionalInterface
    interface BehindHandler
    {
        /**
         * The session must be caught up from the journal, from this number on.
         *
         * @param session the session.
         * @param seq     the number of the event that found no room.
         */
        void onBehind(Session session, long seq);
    }

    private final ConnectionTable connections;
    private final SessionJournal journal;
    private final GatewayCounters counters;
    private final UnsafeBuffer mark = new UnsafeBuffer(ByteBuffer.allocateDirect(SessionJournal.SEQ_MARK_LENGTH));
    private BehindHandler behindHandler;

    Outbox(final ConnectionTable connections, final SessionJournal journal, final GatewayCounters counters)
    {
        this.connections = connections;
        this.journal = journal;
        this.counters = counters;
    }

    /**
     * Who catches up a session whose queue was full for a recoverable event.
     *
     * @param handler the handler.
     */
    void behindHandler(final BehindHandler handler)
    {
        this.behindHandler = handler;
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
            final long seq = takeSeq(session);
            buffer.putLong(offset + EventDescriptor.SEQ_OFFSET, seq);
            final long position = journal.append(session.index, type, buffer, offset, length);
            session.journalIndex.record(seq, position);
            if (!session.isConnected() || session.resending)
            {
                return false;
            }
            final RingBuffer ring = connections.get(session.connection).outbound();
            final int index = ring.tryClaim(type, length);
            if (index < 0)
            {
                counters.increment(GatewayCounterDescriptor.CATCH_UPS);
                behindHandler.onBehind(session, seq);
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
        ring.buffer().putLong(index + EventDescriptor.SEQ_OFFSET, takeSeq(session));
        ring.commit(index);
        sent(session, type, nowNs);
        return true;
    }

    /**
     * The session's next number; the first of every {@value #SEQ_MARK_INTERVAL} is preceded by a journal note that
     * numbers below the next note's may be in use.
     */
    private long takeSeq(final Session session)
    {
        final long seq = session.takeSeq();
        if (1 == (seq & (SEQ_MARK_INTERVAL - 1)))
        {
            mark.putLong(SessionJournal.SEQ_MARK_OFFSET, seq + SEQ_MARK_INTERVAL);
            journal.append(session.index, SessionJournal.SEQ_MARK_RECORD, mark, 0, SessionJournal.SEQ_MARK_LENGTH);
        }
        return seq;
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
     * Can a connection's queue take market data of this length now? Market data may fill a queue only up to
     * {@value #MARKET_DATA_BACKLOG_BYTES} bytes, a quarter of the smallest queue: what lies in a queue is not
     * conflated any more, and a client's execution reports wait behind it, so a client that reads slowly gets its
     * books conflated early instead of a deep backlog of increments, and the rest of the queue is kept for what
     * cannot be conflated (execution reports, replies, heartbeats).
     *
     * @param session a connected session.
     * @param length  the event's length.
     * @return true if there is room.
     */
    boolean hasRoomForMarketData(final Session session, final int length)
    {
        final RingBuffer ring = connections.get(session.connection).outbound();
        return ring.size() + length <= MARKET_DATA_BACKLOG_BYTES;
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
     * Disconnect a session that has stayed too slow for too long.
     *
     * @param session a connected session.
     * @param reason  what it was too slow for.
     */
    void closeSlowConsumer(final Session session, final String reason)
    {
        connections.get(session.connection).requestClose(SLOW_CONSUMER_CLOSE, reason);
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
