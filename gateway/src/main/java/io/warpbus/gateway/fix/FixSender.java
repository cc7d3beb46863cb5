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
package io.warpbus.gateway.fix;

import java.util.concurrent.locks.LockSupport;

import io.warpbus.gateway.session.CommandDescriptor;
import io.warpbus.gateway.session.CommandProxy;
import io.warpbus.gateway.session.Connection;
import io.warpbus.gateway.session.ConnectionTable;
import io.warpbus.gateway.session.EventDescriptor;
import io.warpbus.gateway.session.EventText;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.NanoClock;
import org.apache.mina.core.session.IoSession;
import quickfix.Message;
import quickfix.Session;
import quickfix.field.BusinessRejectReason;
import quickfix.field.RefMsgType;
import quickfix.field.RefSeqNum;
import quickfix.field.Text;
import quickfix.fix44.BusinessMessageReject;

/**
 * Drains the FIX connections' outbound queues into QuickFIX/J: one agent on its own thread, round-robin over the
 * connections, like the WebSocket senders. A connection's first event is the core's answer to its logon, handed to
 * the logon thread that waits for it; nothing else leaves before QuickFIX/J has the session logged on. Then each
 * execution report becomes an 8 or a 9 ({@link FixReports}), an error a BusinessMessageReject (j), a logout or close
 * a FIX Logout with the core's reason; the core's heartbeats and test requests stay inside the gateway (QuickFIX/J
 * keeps the FIX session's own), a test request answered for the client while QuickFIX/J has it logged on. Every
 * recoverable event handed to QuickFIX/J (which stores it before it writes it to the socket) is noted in the FIX
 * session's state, and one the client already has (resent by the core after a restart) is skipped.
 */
final class FixSender implements Agent
{
    static final int EVENTS_PER_CONNECTION_PER_ROUND = 64;
    /**
     * Bytes QuickFIX/J may have waiting for a connection's socket before the sender stops draining the connection's
     * queue: beyond them the client is reading too slowly, its queue in the core fills, and the core conflates its
     * market data and times it out exactly as it does a WebSocket client whose socket is full.
     */
    static final long MAX_SCHEDULED_WRITE_BYTES = 16 * 1024;

    private final ConnectionTable connections;
    private final CommandProxy commands;
    private final FixReports reports;
    private final FixMarketData marketData;
    private final NanoClock clock;
    private final MessageHandler sending = this::onEvent;
    private final MessageHandler unsent = this::onUnsent;
    private FixConnection fix;
    private Runnable waker;

    FixSender(final ConnectionTable connections, final CommandProxy commands, final FixReports reports,
        final FixMarketData marketData, final NanoClock clock)
    {
        this.marketData = marketData;
        this.connections = connections;
        this.commands = commands;
        this.reports = reports;
        this.clock = clock;
    }

    @Override
    public int doWork()
    {
        final ConnectionTable connections = this.connections;
        if (0 == connections.inUse(FixApplication.ADAPTER_ID))
        {
            return 0;
        }
        int work = 0;
        for (int i = 0, capacity = connections.capacity(); i < capacity; i++)
        {
            final Connection connection = connections.get(i);
            final int state = connection.state();
            if (Connection.FREE == state || FixApplication.ADAPTER_ID != connection.adapter())
            {
                continue;
            }
            final FixConnection fix = (FixConnection)connection.attachment();
            this.fix = fix;
            if (Connection.RETIRED == state)
            {
                if (null != fix)
                {
                    connection.outbound().read(unsent);
                }
                connections.release(connection);
                work++;
                continue;
            }
            if (null == fix)
            {
                continue;
            }
            if (connection.isCloseRequested())
            {
                work += logout(fix, connection.closeReason());
                continue;
            }
            if (!fix.answer.isDone())
            {
                work += connection.outbound().read(sending, 1);
                continue;
            }
            if (!fix.live || fix.logoutRequested || isBackedUp(fix))
            {
                continue;
            }
            work += connection.outbound().read(sending, EVENTS_PER_CONNECTION_PER_ROUND);
        }
        return work;
    }

    private static boolean isBackedUp(final FixConnection fix)
    {
        final IoSession ioSession = fix.ioSession;
        return null != ioSession && ioSession.getScheduledWriteBytes() > MAX_SCHEDULED_WRITE_BYTES;
    }

    private void onEvent(final int type, final DirectBuffer buffer, final int offset, final int length)
    {
        final FixConnection fix = this.fix;
        switch (type)
        {
            case EventDescriptor.LOGON_ACCEPTED:
                fix.answer.complete(new FixConnection.LogonAnswer(true,
                    buffer.getLong(offset + EventDescriptor.TOKEN_OFFSET),
                    buffer.getLong(offset + EventDescriptor.TOKEN_OFFSET + 8),
                    0 != buffer.getByte(offset + EventDescriptor.RESUMED_OFFSET), null));
                break;
            case EventDescriptor.LOGON_REJECTED:
                fix.answer.complete(new FixConnection.LogonAnswer(false, 0, 0, false,
                    EventText.get(buffer, offset + EventDescriptor.REASON_TEXT_OFFSET)));
                break;
            case EventDescriptor.LOGOUT:
            case EventDescriptor.CLOSE:
                if (!fix.answer.isDone())
                {
                    fix.answer.complete(new FixConnection.LogonAnswer(false, 0, 0, false,
                        EventText.get(buffer, offset + EventDescriptor.REASON_TEXT_OFFSET)));
                }
                logout(fix, EventText.get(buffer, offset + EventDescriptor.REASON_TEXT_OFFSET));
                break;
            case EventDescriptor.TEST_REQUEST:
                if (fix.live)
                {
                    final int testIdLength = CommandDescriptor.asciiLength(buffer,
                        offset + EventDescriptor.TEST_ID_OFFSET, EventDescriptor.TEST_ID_WIDTH);
                    commands.heartbeat(CommandDescriptor.HEARTBEAT, fix.connection.index(), clock.nanoTime(), null,
                        buffer.getStringWithoutLengthAscii(offset + EventDescriptor.TEST_ID_OFFSET + 1,
                        testIdLength));
                }
                break;
            case EventDescriptor.EXECUTION_REPORT:
                deliver(fix, buffer, offset, reports.report(buffer, offset, fix.context));
                break;
            case EventDescriptor.ERROR:
                deliver(fix, buffer, offset, error(buffer, offset));
                break;
            case EventDescriptor.INSTRUMENTS:
                deliver(fix, buffer, offset, marketData.securityList(buffer, offset));
                break;
            case EventDescriptor.BOOK:
                send(fix, marketData.snapshot(buffer, offset, fix.context));
                break;
            case EventDescriptor.BOOK_UPDATE:
                send(fix, marketData.update(buffer, offset, fix.context));
                break;
            case EventDescriptor.TRADE:
                send(fix, marketData.trade(buffer, offset, fix.context));
                break;
            default:
                if (EventDescriptor.isRecoverable(type))
                {
                    // Replies to requests no FIX message makes (instrument lists, subscriptions, open orders).
                    deliver(fix, buffer, offset, null);
                }
                break;
        }
    }

    private void deliver(final FixConnection fix, final DirectBuffer buffer, final int offset, final Message message)
    {
        final long seq = buffer.getLong(offset + EventDescriptor.SEQ_OFFSET);
        final FixSessionState state = fix.context.state();
        if (seq <= state.lastDelivered())
        {
            return;
        }
        final Session session = fix.session;
        if (null != message && null != session)
        {
            session.send(message);
        }
        state.delivered(seq);
    }

    private static void send(final FixConnection fix, final Message message)
    {
        final Session session = fix.session;
        if (null != message && null != session)
        {
            session.send(message);
        }
    }

    private static Message error(final DirectBuffer buffer, final int offset)
    {
        final BusinessMessageReject reject = new BusinessMessageReject();
        final String requestId = FixReports.ascii(buffer, offset + EventDescriptor.ERROR_REQUEST_ID_OFFSET,
            EventDescriptor.REQUEST_ID_WIDTH);
        final int colon = requestId.indexOf(':');
        if (requestId.startsWith("V:"))
        {
            return FixMarketData.reject(requestId.substring(2), EventText.get(buffer,
                offset + EventDescriptor.ERROR_TEXT_OFFSET));
        }
        if (colon > 0)
        {
            reject.set(new RefMsgType(requestId.substring(0, colon)));
            try
            {
                reject.set(new RefSeqNum(Integer.parseInt(requestId.substring(colon + 1))));
            }
            catch (final NumberFormatException ex)
            {
                // Not one of ours: no RefSeqNum.
            }
        }
        else
        {
            reject.set(new RefMsgType("?"));
        }
        reject.set(new BusinessRejectReason(BusinessRejectReason.OTHER));
        reject.set(new Text(EventText.get(buffer, offset + EventDescriptor.ERROR_TEXT_OFFSET)));
        return reject;
    }

    private static int logout(final FixConnection fix, final String reason)
    {
        if (fix.logoutRequested)
        {
            return 0;
        }
        fix.logoutRequested = true;
        final Session session = fix.session;
        if (null != session && session.isLoggedOn())
        {
            session.logout(null == reason ? "session ended by the gateway" : reason);
        }
        return 1;
    }

    private void onUnsent(final int type, final DirectBuffer buffer, final int offset, final int length)
    {
        final FixConnection fix = this.fix;
        if (EventDescriptor.LOGON_ACCEPTED == type || EventDescriptor.LOGON_REJECTED == type)
        {
            fix.answer.complete(new FixConnection.LogonAnswer(false, 0, 0, false,
                "the connection closed before the logon completed"));
        }
    }

    /**
     * Wake the sender if it idles.
     */
    void wake()
    {
        final Runnable waker = this.waker;
        if (null != waker)
        {
            waker.run();
        }
    }

    @Override
    public void onStart()
    {
        final Thread thread = Thread.currentThread();
        waker = () -> LockSupport.unpark(thread);
        connections.addDrainer(FixApplication.ADAPTER_ID, waker);
    }

    @Override
    public void onClose()
    {
        connections.removeDrainer(waker);
    }

    @Override
    public String roleName()
    {
        return "gateway-fix-sender";
    }
}
