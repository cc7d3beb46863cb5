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
import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;

import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.collections.IntArrayList;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Sessions in the session core: logon (new or resumed), heartbeats and test requests, the silence timeout, logout,
 * disconnects and expiry, and the resend that brings a resumed session up to date from the journal. Core thread;
 * allocation free but at logon and session end.
 * <p>
 * <b>Resume.</b> A client logs on with the session's token and the sequence number it wants next. The gateway
 * answers with the logon (taking the next number), then sends again every journaled event from that number on, in
 * order and byte for byte, filling the numbers that carried only market data or heartbeats with {@code GAP_FILL}s,
 * then goes on live; events raised meanwhile wait in the journal and are part of the resend. Nothing is lost and
 * nothing is sent twice: a number is either resent, gap-filled, or was the logon's.
 */
final class SessionLifecycle
{
    static final int TIMEOUT_CLOSE = 4001;
    static final int SUPERSEDED_CLOSE = 4002;
    static final int ENDED_CLOSE = 4003;
    static final int ABUSE_CLOSE = 4004;
    private static final int RESEND_ROOM = 16 * 1024;
    private static final int RESEND_SCAN = 512;
    private static final long TIMER_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(10);

    private final SessionCoreContext context;
    private final Session[] sessions;
    private final ConnectionTable connections;
    private final Outbox outbox;
    private final SessionErrors errors;
    private final SessionJournal journal;
    private final GatewayCounters counters;
    private final IntArrayList free = new IntArrayList();
    private final IntArrayList resending = new IntArrayList();
    private final Long2ObjectHashMap<Session> byToken = new Long2ObjectHashMap<>();
    private final UnsafeBuffer event = new UnsafeBuffer(ByteBuffer.allocateDirect(
        EventDescriptor.OPEN_ORDERS_ENTRIES_OFFSET + EventDescriptor.MAX_ORDERS_PER_MESSAGE *
        EventDescriptor.ORDER_ENTRY_LENGTH));
    private final UnsafeBuffer record = new UnsafeBuffer(ByteBuffer.allocateDirect(512));
    private final SecureRandom random = new SecureRandom();
    private final ResendReader resendReader = new ResendReader();
    private OrderEntry orders;
    private MarketDataFanout marketData;
    private long nextTimersNs;
    private int connected;
    private int held;

    SessionLifecycle(final SessionCoreContext context, final Session[] sessions, final Outbox outbox,
        final SessionErrors errors, final SessionJournal journal)
    {
        this.context = context;
        this.sessions = sessions;
        this.connections = context.connections();
        this.outbox = outbox;
        this.errors = errors;
        this.journal = journal;
        this.counters = context.counters();
        for (int i = sessions.length - 1; i >= 0; i--)
        {
            free.addInt(i);
        }
        outbox.behindHandler(this::onBehind);
    }

    void wire(final OrderEntry orders, final MarketDataFanout marketData)
    {
        this.orders = orders;
        this.marketData = marketData;
    }

    /**
     * A logon whose credentials the adapter has verified.
     */
    void onLogon(final Connection connection, final DirectBuffer command, final int offset, final long nowNs)
    {
        if (connection.session >= 0)
        {
            errors.send(sessions[connection.session], ProtocolError.ALREADY_LOGGED_ON, command, offset,
                "this connection is logged on already", null, nowNs);
            return;
        }
        if (connection.logonSeen)
        {
            return;
        }
        connection.logonSeen = true;
        final User user = context.users().get(command.getInt(offset + CommandDescriptor.USER_OFFSET));
        if (null == user || user.isBlocked())
        {
            refuse(connection, GatewayCounterDescriptor.LOGON_FAILED_BLOCKED, "user blocked by an operator");
            return;
        }
        final long heartbeatMs = Math.max(context.minHeartbeatMs(), Math.min(context.maxHeartbeatMs(),
            command.getInt(offset + CommandDescriptor.HEARTBEAT_MS_OFFSET)));
        final long resumeFrom = command.getLong(offset + CommandDescriptor.RESUME_FROM_OFFSET);
        final Session session;
        long resendFrom = 0;
        if (resumeFrom >= 0)
        {
            session = resumable(connection, user, command, offset, resumeFrom);
            if (null == session)
            {
                return;
            }
            if (session.isConnected())
            {
                final Connection previous = connections.get(session.connection);
                previous.session = -1;
                previous.requestClose(SUPERSEDED_CLOSE, "session resumed on another connection");
            }
            resendFrom = resumeFrom;
        }
        else
        {
            session = open(connection, user, command, offset, heartbeatMs, nowNs);
            if (null == session)
            {
                return;
            }
        }
        dropCopy(session, CommandDescriptor.LOGON_DROP_COPY ==
            (command.getByte(offset + CommandDescriptor.LOGON_FLAGS_OFFSET) & CommandDescriptor.LOGON_DROP_COPY));
        bind(session, connection, heartbeatMs, nowNs);
        final long resendTo = session.nextSeq - 1;
        accepted(session, resendFrom > resendTo ? 0 : resendFrom, resendFrom > resendTo ? 0 : resendTo,
            resumeFrom >= 0, nowNs);
        if (0 < resendFrom && resendFrom <= resendTo)
        {
            startResend(session, resendFrom);
        }
        else if (resumeFrom >= 0)
        {
            marketData.onResumed(session);
        }
        counters.increment(GatewayCounterDescriptor.LOGONS);
        updateGauges();
    }

    /**
     * The client logs out: its orders are cancelled, and the session ends.
     */
    void onLogout(final Session session, final long nowNs)
    {
        counters.increment(GatewayCounterDescriptor.LOGOUTS);
        end(session, "logout", Outbox.NORMAL_CLOSE, nowNs);
    }

    /**
     * Answer a client's test request with a heartbeat carrying its id.
     */
    void onTestRequest(final Session session, final DirectBuffer command, final int offset, final long nowNs)
    {
        event.putBytes(EventDescriptor.TEST_ID_OFFSET, command, offset + CommandDescriptor.TEST_ID_OFFSET,
            1 + CommandDescriptor.TEST_ID_WIDTH);
        outbox.send(session, EventDescriptor.HEARTBEAT, event, 0, EventDescriptor.HEARTBEAT_LENGTH, nowNs);
    }

    /**
     * Any message from the client: it is alive.
     */
    void onInbound(final Session session, final long nowNs)
    {
        session.lastInboundNs = nowNs;
        session.testRequestSentNs = 0;
        session.messagesIn++;
    }

    /**
     * An error the adapter found; repeated abuse closes the connection.
     */
    void onProtocolError(final Session session, final DirectBuffer command, final int offset, final long nowNs)
    {
        final ProtocolError error = ProtocolError.get(command.getInt(offset + CommandDescriptor.ERROR_CODE_OFFSET));
        errors.send(session, null == error ? ProtocolError.MALFORMED : error, command, offset,
            EventText.get(command, offset + CommandDescriptor.ERROR_TEXT_OFFSET), null, nowNs);
        if (nowNs - session.protocolErrorWindowStartNs > context.protocolErrorWindowNs())
        {
            session.protocolErrorWindowStartNs = nowNs;
            session.protocolErrorsInWindow = 0;
        }
        if (++session.protocolErrorsInWindow > context.protocolErrorLimit())
        {
            counters.increment(GatewayCounterDescriptor.ABUSE_DISCONNECTS);
            disconnect(session, "too many bad messages: " + session.protocolErrorsInWindow + " in " +
                TimeUnit.NANOSECONDS.toSeconds(context.protocolErrorWindowNs()) + " s", ABUSE_CLOSE, nowNs);
        }
    }

    /**
     * The connection is gone: its session waits to be resumed (its orders are cancelled first with
     * cancel-on-disconnect).
     */
    void onClosed(final Connection connection, final long nowNs)
    {
        if (connection.session >= 0)
        {
            detach(sessions[connection.session], nowNs);
        }
        connection.retire();
        updateGauges();
    }

    /**
     * A session has lost its connection, whoever ended it: it waits to be resumed, its orders cancelled first with
     * cancel-on-disconnect.
     */
    private void detach(final Session session, final long nowNs)
    {
        session.state = Session.DISCONNECTED;
        session.connection = -1;
        session.disconnectedNs = nowNs;
        stopResend(session);
        marketData.onDisconnected(session);
        if (context.cancelOnDisconnect())
        {
            session.cancelPending = 0 != orders.cancelAll(session);
        }
    }

    /**
     * An order of the session is done: an ended session's slot is freed with its last order.
     */
    void onOrderDone(final Session session)
    {
        if (Session.ENDING == session.state && 0 == session.openOrders)
        {
            release(session);
        }
    }

    /**
     * Heartbeats, test requests, timeouts and expiry, every few milliseconds; resends every cycle.
     *
     * @param nowNs the time now.
     * @return work done.
     */
    int doWork(final long nowNs)
    {
        int work = pumpResends(nowNs);
        if (nowNs - nextTimersNs < 0)
        {
            return work;
        }
        nextTimersNs = nowNs + TIMER_INTERVAL_NS;
        final Session[] sessions = this.sessions;
        final boolean engineReady = orders.isEngineReady();
        for (final Session session : sessions)
        {
            if (session.cancelPending && engineReady)
            {
                // Cancels the engine could not take when they were due, or due since a restart: sent again.
                session.cancelPending = 0 != orders.cancelAll(session);
                work++;
            }
            if (Session.CONNECTED == session.state)
            {
                work += timers(session, nowNs);
            }
            else if (Session.DISCONNECTED == session.state &&
                nowNs - session.disconnectedNs > context.sessionExpiryNs())
            {
                end(session, "expired", ENDED_CLOSE, nowNs);
                work++;
            }
        }
        counters.heartbeat(System.currentTimeMillis());
        return work;
    }

    /**
     * End a session: cancel its orders, journal the end, close its connection with a logout naming the reason.
     *
     * @param session the session.
     * @param reason  for the client and the journal.
     * @param code    close code.
     * @param nowNs   the time now.
     */
    void end(final Session session, final String reason, final int code, final long nowNs)
    {
        if (Session.FREE == session.state || Session.ENDING == session.state)
        {
            return;
        }
        session.cancelPending = 0 != orders.cancelAll(session);
        record.putShort(0, (short)0);
        EventText.put(record, 0, reason);
        journal.append(session.index, SessionJournal.SESSION_ENDED_RECORD, record, 0, SessionJournal.ENDED_LENGTH);
        if (session.isConnected())
        {
            disconnect(session, reason, code, nowNs);
        }
        byToken.remove(session.tokenHigh);
        marketData.removeSession(session);
        stopResend(session);
        if (session.openOrders > 0)
        {
            session.state = Session.ENDING;
        }
        else
        {
            release(session);
        }
        updateGauges();
    }

    /**
     * Close a session's connection with a logout giving the reason; the session stays resumable.
     */
    void disconnect(final Session session, final String reason, final int code, final long nowNs)
    {
        if (!session.isConnected())
        {
            return;
        }
        EventText.put(event, EventDescriptor.REASON_TEXT_OFFSET, reason);
        event.putInt(EventDescriptor.CODE_OFFSET, code);
        outbox.send(session, EventDescriptor.LOGOUT, event, 0, EventDescriptor.REASON_LENGTH, nowNs);
        final Connection connection = connections.get(session.connection);
        outbox.close(connection, code, reason, event);
        connection.session = -1;
        detach(session, nowNs);
        updateGauges();
    }

    /**
     * Send an event to a session.
     */
    void send(final Session session, final int type, final UnsafeBuffer buffer, final int length, final long nowNs)
    {
        outbox.send(session, type, buffer, 0, length, nowNs);
    }

    Session byToken(final long high, final long low)
    {
        final Session session = byToken.get(high);
        return null != session && session.hasToken(high, low) ? session : null;
    }

    int connectedCount()
    {
        return connected;
    }

    int heldCount()
    {
        return held;
    }

    /**
     * Rebuild a session from its journaled {@code SESSION_OPENED} record, at the index it had. Start-up only.
     */
    Session restoreOpened(final int index, final DirectBuffer record, final int offset)
    {
        final Session session = sessions[index];
        session.clear();
        final String userName = CommandDescriptor.getAscii(record, offset + SessionJournal.OPENED_USER_OFFSET,
            SessionJournal.USER_WIDTH, new StringBuilder()).toString();
        final User user = context.users().get(userName);
        if (null == user)
        {
            // The user is gone from the credentials: its session cannot be resumed; its orders still resolve.
            session.state = Session.ENDING;
            return session;
        }
        session.user = user;
        session.tokenHigh = record.getLong(offset + SessionJournal.OPENED_TOKEN_OFFSET);
        session.tokenLow = record.getLong(offset + SessionJournal.OPENED_TOKEN_OFFSET + 8);
        session.heartbeatIntervalNs = TimeUnit.MILLISECONDS.toNanos(
            record.getInt(offset + SessionJournal.OPENED_HEARTBEAT_OFFSET));
        session.createdEpochMs = record.getLong(offset + SessionJournal.OPENED_CREATED_OFFSET);
        session.name = CommandDescriptor.getAscii(record, offset + SessionJournal.OPENED_NAME_OFFSET,
            CommandDescriptor.SESSION_NAME_WIDTH, new StringBuilder()).toString();
        session.address = CommandDescriptor.getAscii(record, offset + SessionJournal.OPENED_ADDRESS_OFFSET,
            CommandDescriptor.ADDRESS_WIDTH, new StringBuilder()).toString();
        session.state = Session.DISCONNECTED;
        session.restored = true;
        session.disconnectedNs = context.nanoClock().nanoTime();
        session.orderLimit.reset(context.sessionOrdersPerSecond(), context.sessionOrderBurst(),
            session.disconnectedNs);
        byToken.put(session.tokenHigh, session);
        free.removeInt(index);
        return session;
    }

    /**
     * A journaled session event while restoring: its sequence number and place in the journal.
     */
    void restoreEvent(final Session session, final long seq, final long position)
    {
        session.journalIndex.record(seq, position);
        session.nextSeq = Math.max(session.nextSeq, seq + 1);
    }

    /**
     * A journaled sequence mark while restoring: the session numbers on from there at the least.
     */
    void restoreSeqMark(final Session session, final long nextSeq)
    {
        session.nextSeq = Math.max(session.nextSeq, nextSeq);
    }

    /**
     * A session's queue had no room for a recoverable event (journaled already under {@code seq}): it is caught up
     * from the journal like a resend, its market data held back until then (a book per subscription afterwards), and
     * disconnected if it stays behind longer than the slow-consumer timeout.
     */
    private void onBehind(final Session session, final long seq)
    {
        if (!session.resending)
        {
            startResend(session, seq);
            session.behindSinceNs = context.nanoClock().nanoTime();
        }
    }

    /**
     * A journaled end while restoring.
     */
    void restoreEnded(final Session session)
    {
        byToken.remove(session.tokenHigh);
        session.state = Session.ENDING;
    }

    /**
     * After restoring: free what has ended and has no order left, and count.
     */
    void restored()
    {
        for (final Session session : sessions)
        {
            // Cancels that were due before the restart (an ended session's, or a disconnected one's with
            // cancel-on-disconnect) may have died with the process: sent again once the engine is ready.
            final boolean cancelDue = Session.ENDING == session.state ||
                Session.DISCONNECTED == session.state && context.cancelOnDisconnect();
            session.cancelPending = cancelDue && session.openOrders > 0 && null != session.user;
            if (Session.FREE == session.state && session.openOrders > 0)
            {
                // Orders of a session whose opening record has left the journal: keep the slot until they are done.
                session.state = Session.ENDING;
                free.removeInt(session.index);
            }
            if (Session.ENDING == session.state && 0 == session.openOrders)
            {
                release(session);
            }
        }
        updateGauges();
    }

    private Session resumable(final Connection connection, final User user, final DirectBuffer command,
        final int offset, final long resumeFrom)
    {
        final Session session = byToken(command.getLong(offset + CommandDescriptor.RESUME_TOKEN_OFFSET),
            command.getLong(offset + CommandDescriptor.RESUME_TOKEN_OFFSET + 8));
        if (null == session || Session.ENDING == session.state || session.user != user)
        {
            refuse(connection, GatewayCounterDescriptor.LOGON_FAILED_RESUME,
                "cannot resume: unknown, ended or expired session");
            return null;
        }
        if (resumeFrom < 1 || resumeFrom > session.nextSeq)
        {
            refuse(connection, GatewayCounterDescriptor.LOGON_FAILED_RESUME, "cannot resume from " + resumeFrom +
                ": the session's next sequence number is " + session.nextSeq);
            return null;
        }
        final long position = session.journalIndex.floorPosition(resumeFrom);
        if (resumeFrom < session.nextSeq && position >= 0 && position < journal.firstSequence())
        {
            refuse(connection, GatewayCounterDescriptor.LOGON_FAILED_RESUME, "cannot resume from " + resumeFrom +
                ": the journal no longer holds the session's messages from there (retention " +
                context.journalRetentionDays() + " days)");
            return null;
        }
        return session;
    }

    private Session open(final Connection connection, final User user, final DirectBuffer command, final int offset,
        final long heartbeatMs, final long nowNs)
    {
        if (free.isEmpty())
        {
            refuse(connection, GatewayCounterDescriptor.LOGON_FAILED_CAPACITY, "the gateway holds its maximum of " +
                sessions.length + " sessions");
            return null;
        }
        final Session session = sessions[free.popInt()];
        session.clear();
        do
        {
            session.tokenHigh = random.nextLong();
            session.tokenLow = random.nextLong();
        }
        while (0 == session.tokenHigh || byToken.containsKey(session.tokenHigh));
        session.user = user;
        session.name = CommandDescriptor.getAscii(command, offset + CommandDescriptor.SESSION_NAME_OFFSET,
            CommandDescriptor.SESSION_NAME_WIDTH, new StringBuilder()).toString();
        session.address = CommandDescriptor.getAscii(command, offset + CommandDescriptor.ADDRESS_OFFSET,
            CommandDescriptor.ADDRESS_WIDTH, new StringBuilder()).toString();
        session.createdEpochMs = System.currentTimeMillis();
        session.orderLimit.reset(context.sessionOrdersPerSecond(), context.sessionOrderBurst(), nowNs);
        byToken.put(session.tokenHigh, session);

        record.putLong(SessionJournal.OPENED_TOKEN_OFFSET, session.tokenHigh);
        record.putLong(SessionJournal.OPENED_TOKEN_OFFSET + 8, session.tokenLow);
        record.putInt(SessionJournal.OPENED_HEARTBEAT_OFFSET, (int)heartbeatMs);
        record.putLong(SessionJournal.OPENED_CREATED_OFFSET, session.createdEpochMs);
        CommandDescriptor.putAscii(record, SessionJournal.OPENED_USER_OFFSET, SessionJournal.USER_WIDTH, user.name());
        CommandDescriptor.putAscii(record, SessionJournal.OPENED_NAME_OFFSET, CommandDescriptor.SESSION_NAME_WIDTH,
            session.name);
        CommandDescriptor.putAscii(record, SessionJournal.OPENED_ADDRESS_OFFSET, CommandDescriptor.ADDRESS_WIDTH,
            session.address);
        journal.append(session.index, SessionJournal.SESSION_OPENED_RECORD, record, 0, SessionJournal.OPENED_LENGTH);
        return session;
    }

    private void bind(final Session session, final Connection connection, final long heartbeatMs, final long nowNs)
    {
        session.state = Session.CONNECTED;
        session.restored = false;
        // Back before its cancel-on-disconnect could be carried out: its client has its orders again.
        session.cancelPending = false;
        session.connection = connection.index();
        connection.session = session.index;
        session.heartbeatIntervalNs = TimeUnit.MILLISECONDS.toNanos(heartbeatMs);
        session.lastInboundNs = nowNs;
        session.lastOutboundNs = nowNs;
        session.testRequestSentNs = 0;
        session.protocolErrorsInWindow = 0;
    }

    private void accepted(final Session session, final long resendFrom, final long resendTo, final boolean resumed,
        final long nowNs)
    {
        event.putLong(EventDescriptor.TOKEN_OFFSET, session.tokenHigh);
        event.putLong(EventDescriptor.TOKEN_OFFSET + 8, session.tokenLow);
        event.putInt(EventDescriptor.LOGON_USER_OFFSET, session.user.index());
        event.putInt(EventDescriptor.LOGON_HEARTBEAT_OFFSET,
            (int)TimeUnit.NANOSECONDS.toMillis(session.heartbeatIntervalNs));
        event.putLong(EventDescriptor.RESEND_FROM_OFFSET, resendFrom);
        event.putLong(EventDescriptor.RESEND_TO_OFFSET, resendTo);
        event.putByte(EventDescriptor.RESUMED_OFFSET, (byte)(resumed ? 1 : 0));
        session.logonSeq = session.nextSeq;
        outbox.send(session, EventDescriptor.LOGON_ACCEPTED, event, 0, EventDescriptor.LOGON_ACCEPTED_LENGTH, nowNs);
    }

    private void refuse(final Connection connection, final GatewayCounterDescriptor counter, final String reason)
    {
        counters.increment(counter);
        event.putInt(EventDescriptor.CODE_OFFSET, counter.id());
        EventText.put(event, EventDescriptor.REASON_TEXT_OFFSET, reason);
        outbox.sendToConnection(connection, EventDescriptor.LOGON_REJECTED, event, 0, EventDescriptor.REASON_LENGTH);
        outbox.close(connection, ENDED_CLOSE, reason, event);
    }

    private int timers(final Session session, final long nowNs)
    {
        final long interval = session.heartbeatIntervalNs;
        final long silence = nowNs - session.lastInboundNs;
        if (silence >= interval * 5 / 2)
        {
            counters.increment(GatewayCounterDescriptor.HEARTBEAT_TIMEOUTS);
            disconnect(session, "heartbeat timeout: nothing received for " +
                TimeUnit.NANOSECONDS.toMillis(silence) + " ms", TIMEOUT_CLOSE, nowNs);
            return 1;
        }
        int work = 0;
        if (silence >= interval * 3 / 2 && 0 == session.testRequestSentNs)
        {
            session.testRequestSentNs = nowNs;
            CommandDescriptor.putAscii(event, EventDescriptor.TEST_ID_OFFSET, EventDescriptor.TEST_ID_WIDTH,
                "silence");
            outbox.send(session, EventDescriptor.TEST_REQUEST, event, 0, EventDescriptor.HEARTBEAT_LENGTH, nowNs);
            work++;
        }
        if (nowNs - session.lastOutboundNs >= interval)
        {
            event.putByte(EventDescriptor.TEST_ID_OFFSET, (byte)0);
            outbox.send(session, EventDescriptor.HEARTBEAT, event, 0, EventDescriptor.HEARTBEAT_LENGTH, nowNs);
            work++;
        }
        return work;
    }

    private void startResend(final Session session, final long from)
    {
        final long position = session.journalIndex.floorPosition(from);
        session.resending = true;
        session.resendNextSeq = from;
        session.resendReader = position < 0 ? null : journal.readerFrom(position);
        resending.addInt(session.index);
    }

    private void stopResend(final Session session)
    {
        session.behindSinceNs = 0;
        if (session.resending)
        {
            session.resending = false;
            resending.removeInt(session.index);
        }
        if (null != session.resendReader)
        {
            CloseHelper.quietClose(session.resendReader);
            session.resendReader = null;
        }
    }

    private int pumpResends(final long nowNs)
    {
        int work = 0;
        for (int i = resending.size() - 1; i >= 0; i--)
        {
            final Session session = sessions[resending.getInt(i)];
            work += pump(session, nowNs);
            if (session.resending && session.resendNextSeq >= session.nextSeq)
            {
                stopResend(session);
                marketData.onResumed(session);
            }
            else if (0 != session.behindSinceNs && nowNs - session.behindSinceNs > context.slowConsumerTimeoutNs())
            {
                stopResend(session);
                outbox.closeSlowConsumer(session, "slow consumer: behind on its execution reports for too long");
            }
        }
        return work;
    }

    /**
     * Send the next part of a resend: read the journal from the session's checkpoint on, skip other sessions'
     * records and what comes before the range, resend the session's events with their own numbers, and fill every
     * number between them that carried nothing recoverable (market data, heartbeats) with a gap fill; the logon's own
     * number is skipped. Reaching the end of the journal means every recoverable event before the session's next
     * number has been seen (the journal is written on this thread), so the rest is one gap fill. At most
     * {@value #RESEND_SCAN} records are read per duty cycle.
     */
    private int pump(final Session session, final long nowNs)
    {
        int sent = 0;
        int scanned = 0;
        while (session.resendNextSeq < session.nextSeq && scanned < RESEND_SCAN &&
            outbox.hasRoom(session, RESEND_ROOM))
        {
            if (session.resendNextSeq == session.logonSeq)
            {
                session.resendNextSeq++;
                continue;
            }
            final int read = null == session.resendReader ? 0 : session.resendReader.poll(resendReader, 1);
            scanned++;
            if (0 == read)
            {
                gapFill(session, session.nextSeq, nowNs);
                sent++;
                continue;
            }
            if (resendReader.session != session.index || !EventDescriptor.isRecoverable(resendReader.type))
            {
                continue;
            }
            final long seq = resendReader.buffer.getLong(EventDescriptor.SEQ_OFFSET);
            if (seq < session.resendNextSeq)
            {
                continue;
            }
            while (session.resendNextSeq < seq)
            {
                if (session.resendNextSeq == session.logonSeq)
                {
                    session.resendNextSeq++;
                    continue;
                }
                gapFill(session, seq, nowNs);
                sent++;
            }
            outbox.resend(session, resendReader.type, resendReader.buffer, 0, resendReader.length, nowNs);
            session.resendNextSeq = seq + 1;
            sent++;
        }
        return sent;
    }

    /**
     * A gap fill from the next number to resend up to {@code upTo} (exclusive), stopping short of the logon's.
     */
    private void gapFill(final Session session, final long upTo, final long nowNs)
    {
        final long from = session.resendNextSeq;
        final long newSeq = session.logonSeq > from && session.logonSeq < upTo ? session.logonSeq : upTo;
        event.putLong(EventDescriptor.SEQ_OFFSET, from);
        event.putLong(EventDescriptor.NEW_SEQ_OFFSET, newSeq);
        outbox.resend(session, EventDescriptor.GAP_FILL, event, 0, EventDescriptor.GAP_FILL_LENGTH, nowNs);
        session.resendNextSeq = newSeq;
    }

    /**
     * A logon says whether its session is a drop copy: journaled when that changes, so a restart knows.
     */
    private void dropCopy(final Session session, final boolean dropCopy)
    {
        if (session.dropCopy == dropCopy)
        {
            return;
        }
        record.putByte(SessionJournal.FLAGS_OFFSET, dropCopy ? CommandDescriptor.LOGON_DROP_COPY : 0);
        journal.append(session.index, SessionJournal.SESSION_FLAGS_RECORD, record, 0, SessionJournal.FLAGS_LENGTH);
        restoreFlags(session, record.getByte(SessionJournal.FLAGS_OFFSET));
    }

    /**
     * A session's flags, from a logon or the journal.
     */
    void restoreFlags(final Session session, final byte flags)
    {
        session.dropCopy = CommandDescriptor.LOGON_DROP_COPY == (flags & CommandDescriptor.LOGON_DROP_COPY);
        if (session.dropCopy)
        {
            orders.addDropCopy(session);
        }
        else
        {
            orders.removeDropCopy(session);
        }
    }

    private void release(final Session session)
    {
        orders.removeDropCopy(session);
        marketData.removeSession(session);
        byToken.remove(session.tokenHigh);
        session.clear();
        free.addInt(session.index);
    }

    private void updateGauges()
    {
        int connected = 0;
        int held = 0;
        for (final Session session : sessions)
        {
            if (Session.CONNECTED == session.state)
            {
                connected++;
            }
            if (Session.CONNECTED == session.state || Session.DISCONNECTED == session.state)
            {
                held++;
            }
        }
        this.connected = connected;
        this.held = held;
        counters.get(GatewayCounterDescriptor.SESSIONS_CONNECTED).setRelease(connected);
        counters.get(GatewayCounterDescriptor.SESSIONS_HELD).setRelease(held);
    }

    /**
     * Copies a journal record for a resend.
     */
    private static final class ResendReader implements io.warpbus.journal.JournalHandler
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(RESEND_ROOM));
        int session;
        int type;
        int length;

        @Override
        public void onRecord(final long sequence, final int sessionId, final int flags, final long publisherNs,
            final long receiveNs, final DirectBuffer payload, final int offset, final int length)
        {
            this.session = sessionId;
            this.type = flags;
            this.length = Math.min(length, buffer.capacity());
            buffer.putBytes(0, payload, offset, this.length);
        }
    }
}
