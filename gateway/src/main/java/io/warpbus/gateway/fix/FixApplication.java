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

import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

import io.warpbus.gateway.security.Authenticator;
import io.warpbus.gateway.session.CommandDescriptor;
import io.warpbus.gateway.session.CommandProxy;
import io.warpbus.gateway.session.Connection;
import io.warpbus.gateway.session.ConnectionTable;
import io.warpbus.gateway.session.InstrumentInfo;
import io.warpbus.gateway.session.InstrumentRegistry;
import org.agrona.concurrent.NanoClock;
import org.apache.mina.core.session.IoSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import quickfix.Application;
import quickfix.FieldNotFound;
import quickfix.Group;
import quickfix.Message;
import quickfix.RejectLogon;
import quickfix.Session;
import quickfix.SessionID;
import quickfix.UnsupportedMessageType;
import quickfix.field.BusinessRejectReason;
import quickfix.field.BusinessRejectRefID;
import quickfix.field.ClOrdID;
import quickfix.field.HeartBtInt;
import quickfix.field.MDReqID;
import quickfix.field.MsgSeqNum;
import quickfix.field.MsgType;
import quickfix.field.NoRelatedSym;
import quickfix.field.Password;
import quickfix.field.RefMsgType;
import quickfix.field.RefSeqNum;
import quickfix.field.SecurityReqID;
import quickfix.field.SubscriptionRequestType;
import quickfix.field.Symbol;
import quickfix.field.Text;
import quickfix.field.Username;
import quickfix.fix44.BusinessMessageReject;

/**
 * QuickFIX/J's application callbacks for the gateway's FIX sessions, on QuickFIX/J's session threads. A Logon (A) is
 * checked here: Username (553) and Password (554) against the gateway's credentials through the same
 * {@link Authenticator} (and so the same throttle and counters) as the WebSocket logons, then handed to the session
 * core, whose answer it waits for (a bounded wait, on QuickFIX/J's thread, never the core's): a refusal at any step
 * is a Logout carrying the reason in Text (58). Application messages are mapped to core commands and offered to the
 * core's ring without blocking it; everything the core answers comes back through the connection's queue and the
 * {@link FixSender}.
 */
final class FixApplication implements Application
{
    /** The FIX adapter's id in the {@link ConnectionTable}. */
    static final int ADAPTER_ID = 3;
    private static final Logger LOG = LoggerFactory.getLogger(FixApplication.class);
    private static final long OFFER_TIMEOUT_NS = 5_000_000L;
    private static final int DEFAULT_HEARTBEAT_S = 30;

    private final Map<SessionID, FixSessionContext> contexts;
    private final ConnectionTable connections;
    private final CommandProxy commands;
    private final Authenticator authenticator;
    private final FixOrderMapper mapper;
    private final InstrumentRegistry instruments;
    private final FixMetrics metrics;
    private final NanoClock clock;
    private final long logonTimeoutMs;
    private volatile Function<Session, IoSession> ioSessions =
        (session) -> null;
    private volatile Runnable senderWaker = () ->
    {
    };

    FixApplication(final Map<SessionID, FixSessionContext> contexts, final ConnectionTable connections,
        final CommandProxy commands, final Authenticator authenticator, final InstrumentRegistry instruments,
        final FixMetrics metrics, final NanoClock clock, final long logonTimeoutMs)
    {
        this.instruments = instruments;
        this.contexts = contexts;
        this.connections = connections;
        this.commands = commands;
        this.authenticator = authenticator;
        this.mapper = new FixOrderMapper(instruments);
        this.metrics = metrics;
        this.clock = clock;
        this.logonTimeoutMs = logonTimeoutMs;
    }

    void senderWaker(final Runnable waker)
    {
        senderWaker = waker;
    }

    /**
     * How to find the socket's MINA session of a logged-on QuickFIX/J session (the acceptor's).
     *
     * @param finder gives the MINA session, or null when there is none.
     */
    void ioSessions(final Function<Session, IoSession> finder)
    {
        ioSessions = finder;
    }

    @Override
    public void onCreate(final SessionID sessionId)
    {
    }

    @Override
    public void onLogon(final SessionID sessionId)
    {
        final FixSessionContext context = contexts.get(sessionId);
        final FixConnection fix = null == context ? null : context.current;
        if (null != fix)
        {
            fix.session = Session.lookupSession(sessionId);
            fix.ioSession = ioSessions.apply(fix.session);
            fix.live = true;
            metrics.onLogon();
            senderWaker.run();
        }
    }

    @Override
    public void onLogout(final SessionID sessionId)
    {
        final FixSessionContext context = contexts.get(sessionId);
        final FixConnection fix = null == context ? null : context.current;
        if (null != fix)
        {
            if (fix.live)
            {
                metrics.onLoggedOut();
            }
            fix.live = false;
            context.current = null;
            closed(fix);
        }
    }

    @Override
    public void toAdmin(final Message message, final SessionID sessionId)
    {
        metrics.onOutbound();
        try
        {
            if (MsgType.REJECT.equals(message.getHeader().getString(MsgType.FIELD)))
            {
                metrics.onSessionReject();
            }
        }
        catch (final FieldNotFound ex)
        {
            // Every message QuickFIX/J sends has a MsgType.
        }
    }

    @Override
    public void fromAdmin(final Message message, final SessionID sessionId) throws FieldNotFound, RejectLogon
    {
        metrics.onInbound();
        final String msgType = message.getHeader().getString(MsgType.FIELD);
        if (MsgType.LOGON.equals(msgType))
        {
            logon(message, sessionId);
            return;
        }
        final FixSessionContext context = contexts.get(sessionId);
        final FixConnection fix = null == context ? null : context.current;
        if (null != fix && fix.live && MsgType.HEARTBEAT.equals(msgType))
        {
            // The core watches the session's silence as it does a WebSocket's: the client's heartbeats reach it.
            commands.heartbeat(CommandDescriptor.HEARTBEAT, fix.connection.index(), clock.nanoTime(), null, null);
        }
    }

    @Override
    public void toApp(final Message message, final SessionID sessionId)
    {
        metrics.onOutbound();
    }

    @Override
    public void fromApp(final Message message, final SessionID sessionId) throws FieldNotFound,
        UnsupportedMessageType
    {
        metrics.onInbound();
        final long receivedNs = clock.nanoTime();
        final FixSessionContext context = contexts.get(sessionId);
        final FixConnection fix = null == context ? null : context.current;
        final String msgType = message.getHeader().getString(MsgType.FIELD);
        final boolean order = MsgType.ORDER_SINGLE.equals(msgType) || MsgType.ORDER_CANCEL_REQUEST.equals(msgType) ||
            MsgType.ORDER_CANCEL_REPLACE_REQUEST.equals(msgType);
        final boolean marketData = MsgType.MARKET_DATA_REQUEST.equals(msgType) ||
            MsgType.SECURITY_LIST_REQUEST.equals(msgType);
        if (!order && !marketData)
        {
            throw new UnsupportedMessageType();
        }
        try
        {
            if (null == fix || !fix.live)
            {
                throw new FixRefusal(FixRefusal.APPLICATION_NOT_AVAILABLE, "the session is not connected to the " +
                    "gateway's session core");
            }
            if (marketData)
            {
                marketData(message, msgType, context, fix, receivedNs);
                return;
            }
            if (FixSessionType.ORDER_ENTRY != context.type())
            {
                throw new FixRefusal(FixRefusal.UNSUPPORTED_MESSAGE_TYPE, "this is a " + context.type().label() +
                    " session: orders go on an order-entry session");
            }
            final int index = fix.connection.index();
            final String requestId = FixOrderMapper.requestId(message);
            final boolean offered;
            if (MsgType.ORDER_SINGLE.equals(msgType))
            {
                final FixOrderMapper.NewOrder o = mapper.newOrder(message);
                if (context.isAlias(o.clOrdId()))
                {
                    throw new FixRefusal(FixRefusal.OTHER, "ClOrdID(11) " + o.clOrdId() + " names a live order " +
                        "(it replaced another): " + FixReports.reasonText(
                        io.warpbus.orderentry.RejectReason.DUPLICATE_CLIENT_ORDER_ID.code()));
                }
                offered = offer(() -> commands.newOrder(index, receivedNs, requestId, o.clOrdId(), o.account(),
                    o.instrumentId(), o.symbol(), o.side(), o.orderType(), o.timeInForce(), o.postOnly(),
                    o.priceMantissa(), o.priceDecimals(), o.quantity()));
            }
            else if (MsgType.ORDER_CANCEL_REQUEST.equals(msgType))
            {
                final FixOrderMapper.Amend cancel = mapper.cancel(message);
                final String coreId = context.coreId(cancel.origClOrdId());
                context.pending(coreId, cancel.clOrdId());
                offered = offer(() -> commands.cancel(index, receivedNs, requestId, coreId));
                if (!offered)
                {
                    context.answered(coreId);
                }
            }
            else
            {
                final FixOrderMapper.Amend replace = mapper.replace(message);
                final String coreId = context.coreId(replace.origClOrdId());
                context.pending(coreId, replace.clOrdId());
                offered = offer(() -> commands.replace(index, receivedNs, requestId, coreId,
                    replace.priceMantissa(), replace.priceDecimals(), replace.quantity()));
                if (!offered)
                {
                    context.answered(coreId);
                }
            }
            if (!offered)
            {
                throw new FixRefusal(FixRefusal.APPLICATION_NOT_AVAILABLE, "the gateway is overloaded, try again");
            }
        }
        catch (final FixRefusal refusal)
        {
            metrics.onBusinessReject();
            businessReject(message, sessionId, msgType, refusal);
        }
    }

    private void marketData(final Message message, final String msgType, final FixSessionContext context,
        final FixConnection fix, final long receivedNs) throws FixRefusal, FieldNotFound
    {
        if (FixSessionType.MARKET_DATA != context.type())
        {
            throw new FixRefusal(FixRefusal.UNSUPPORTED_MESSAGE_TYPE, "this is a " + context.type().label() +
                " session: market data goes on a market-data session");
        }
        final int index = fix.connection.index();
        if (MsgType.SECURITY_LIST_REQUEST.equals(msgType))
        {
            final String requestId = requestId("x:", message.getString(SecurityReqID.FIELD), "SecurityReqID(320)");
            if (!offer(() -> commands.simple(CommandDescriptor.INSTRUMENTS, index, receivedNs, requestId)))
            {
                throw new FixRefusal(FixRefusal.APPLICATION_NOT_AVAILABLE, "the gateway is overloaded, try again");
            }
            return;
        }
        final String mdReqId = message.getString(MDReqID.FIELD);
        final String requestId = requestId("V:", mdReqId, "MDReqID(262)");
        final char type = message.getChar(SubscriptionRequestType.FIELD);
        if (SubscriptionRequestType.SNAPSHOT_UPDATES != type &&
            SubscriptionRequestType.DISABLE_PREVIOUS_SNAPSHOT_UPDATE_REQUEST != type)
        {
            send(context.sessionId(), FixMarketData.reject(mdReqId, "SubscriptionRequestType(263) must be 1 " +
                "(snapshot plus updates) or 2 (unsubscribe), not " + type));
            return;
        }
        final int command = SubscriptionRequestType.SNAPSHOT_UPDATES == type ? CommandDescriptor.SUBSCRIBE :
            CommandDescriptor.UNSUBSCRIBE;
        for (final Group group : message.getGroups(NoRelatedSym.FIELD))
        {
            final String symbol = group.getString(Symbol.FIELD);
            final InstrumentInfo info = symbol.length() > CommandDescriptor.SYMBOL_WIDTH ? null :
                instruments.get(symbol);
            final int instrumentId = null == info ? -1 : info.id();
            if (instrumentId >= 0)
            {
                if (CommandDescriptor.SUBSCRIBE == command)
                {
                    context.subscribed(instrumentId, mdReqId);
                }
                else
                {
                    context.unsubscribed(instrumentId);
                }
            }
            if (!offer(() -> commands.subscription(command, index, receivedNs, requestId, instrumentId, symbol)))
            {
                throw new FixRefusal(FixRefusal.APPLICATION_NOT_AVAILABLE, "the gateway is overloaded, try again");
            }
        }
    }

    private static String requestId(final String prefix, final String id, final String tag) throws FixRefusal
    {
        if (id.isEmpty() || id.length() > CommandDescriptor.REQUEST_ID_WIDTH - prefix.length())
        {
            throw new FixRefusal(FixRefusal.OTHER, tag + " must be 1 to " +
                (CommandDescriptor.REQUEST_ID_WIDTH - prefix.length()) + " characters");
        }
        return prefix + id;
    }

    private static void send(final SessionID sessionId, final Message message)
    {
        final Session session = Session.lookupSession(sessionId);
        if (null != session)
        {
            session.send(message);
        }
    }

    private void businessReject(final Message message, final SessionID sessionId, final String msgType,
        final FixRefusal refusal) throws FieldNotFound
    {
        final BusinessMessageReject reject = new BusinessMessageReject();
        reject.set(new RefSeqNum(message.getHeader().getInt(MsgSeqNum.FIELD)));
        reject.set(new RefMsgType(msgType));
        if (message.isSetField(ClOrdID.FIELD))
        {
            reject.set(new BusinessRejectRefID(message.getString(ClOrdID.FIELD)));
        }
        reject.set(new BusinessRejectReason(refusal.reason()));
        reject.set(new Text(refusal.getMessage()));
        final Session session = Session.lookupSession(sessionId);
        if (null != session)
        {
            session.send(reject);
        }
    }

    private void logon(final Message message, final SessionID sessionId) throws FieldNotFound, RejectLogon
    {
        final FixSessionContext context = contexts.get(sessionId);
        if (null == context)
        {
            throw refused("unknown FIX session " + sessionId);
        }
        if (!message.isSetField(Username.FIELD) || !message.isSetField(Password.FIELD))
        {
            metrics.onLogonFailure();
            throw refused("a logon needs Username(553) and Password(554)");
        }
        final String userName = message.getString(Username.FIELD);
        final Session session = Session.lookupSession(sessionId);
        final String host = host(null == session ? null : session.getRemoteAddress());
        final Authenticator.Outcome outcome = authenticator.password(userName, message.getString(Password.FIELD),
            host);
        if (!outcome.succeeded())
        {
            metrics.onLogonFailure();
            throw refused(outcome.failure());
        }
        final FixConnection previous = context.current;
        if (null != previous)
        {
            // A logon QuickFIX/J takes while it still had the session is a new connection of the client's.
            if (previous.live)
            {
                metrics.onLoggedOut();
            }
            previous.live = false;
            closed(previous);
        }
        final int heartbeatS = message.isSetField(HeartBtInt.FIELD) ? message.getInt(HeartBtInt.FIELD) :
            DEFAULT_HEARTBEAT_S;
        final int heartbeatMs = (int)Math.min(Integer.MAX_VALUE, Math.max(1, heartbeatS) * 1000L);
        final FixSessionState state = context.state();
        FixConnection.LogonAnswer answer = null;
        FixConnection fix = null;
        if (state.hasCoreSession())
        {
            fix = new FixConnection(context, host, userName);
            answer = coreLogon(fix, outcome.user().index(), heartbeatMs, Math.max(1, state.lastDelivered() + 1),
                state.tokenHigh(), state.tokenLow());
            if (!answer.accepted() && null != fix.connection)
            {
                LOG.warn("FIX session {}: the core did not resume its session ({}); a new one carries it on",
                    sessionId, answer.reason());
                closed(fix);
            }
        }
        if (null == answer || !answer.accepted())
        {
            fix = new FixConnection(context, host, userName);
            answer = coreLogon(fix, outcome.user().index(), heartbeatMs, -1, 0, 0);
            if (answer.accepted())
            {
                state.coreSession(answer.tokenHigh(), answer.tokenLow(), 0);
            }
        }
        if (!answer.accepted())
        {
            if (null != fix.connection)
            {
                closed(fix);
            }
            authenticator.onRefused(host, userName);
            metrics.onLogonFailure();
            throw refused(answer.reason());
        }
        authenticator.onAccepted(userName);
        context.current = fix;
    }

    /**
     * Take a connection slot, hand the logon to the core and wait for its answer.
     */
    private FixConnection.LogonAnswer coreLogon(final FixConnection fix, final int userIndex, final int heartbeatMs,
        final long resumeFrom, final long tokenHigh, final long tokenLow)
    {
        final Connection connection = connections.acquire(ADAPTER_ID, fix);
        if (null == connection)
        {
            return new FixConnection.LogonAnswer(false, 0, 0, false, "the gateway holds its maximum of " +
                connections.capacity() + " connections");
        }
        fix.connection = connection;
        final String name = "fix:" + fix.context.sessionId().getTargetCompID();
        final String sessionName = name.length() > CommandDescriptor.SESSION_NAME_WIDTH ?
            name.substring(0, CommandDescriptor.SESSION_NAME_WIDTH) : name;
        final long receivedNs = clock.nanoTime();
        final byte flags = FixSessionType.DROP_COPY == fix.context.type() ? CommandDescriptor.LOGON_DROP_COPY : 0;
        if (!offer(() -> commands.logon(connection.index(), receivedNs, null, userIndex, heartbeatMs, resumeFrom,
            tokenHigh, tokenLow, sessionName, fix.host, flags)))
        {
            return new FixConnection.LogonAnswer(false, 0, 0, false, "the gateway is overloaded, try again");
        }
        senderWaker.run();
        try
        {
            return fix.answer.get(logonTimeoutMs, TimeUnit.MILLISECONDS);
        }
        catch (final TimeoutException ex)
        {
            return new FixConnection.LogonAnswer(false, 0, 0, false, "the gateway did not answer the logon within " +
                logonTimeoutMs + " ms, try again");
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return new FixConnection.LogonAnswer(false, 0, 0, false, "the gateway is stopping");
        }
        catch (final ExecutionException ex)
        {
            return new FixConnection.LogonAnswer(false, 0, 0, false, "logon failed: " + ex.getCause());
        }
    }

    /**
     * Tell the core a connection is gone, once; retried until the core takes it, as a lost {@code CLOSED} would leak
     * the slot.
     */
    void closed(final FixConnection fix)
    {
        if (null == fix.connection || !fix.closedSent.compareAndSet(false, true))
        {
            return;
        }
        final int index = fix.connection.index();
        final long receivedNs = clock.nanoTime();
        while (!commands.simple(CommandDescriptor.CLOSED, index, receivedNs, null))
        {
            Thread.onSpinWait();
        }
    }

    private static RejectLogon refused(final String reason)
    {
        return new RejectLogon(reason);
    }

    /**
     * The host of a remote address as QuickFIX/J gives it ({@code /127.0.0.1:50123}).
     */
    static String host(final String remoteAddress)
    {
        if (null == remoteAddress)
        {
            return "unknown";
        }
        String host = remoteAddress.startsWith("/") ? remoteAddress.substring(1) : remoteAddress;
        final int slash = host.indexOf('/');
        if (slash >= 0)
        {
            host = host.substring(slash + 1);
        }
        final int colon = host.lastIndexOf(':');
        return colon > 0 ? host.substring(0, colon) : host;
    }

    private boolean offer(final BooleanSupplier command)
    {
        final long deadlineNs = clock.nanoTime() + OFFER_TIMEOUT_NS;
        while (!command.getAsBoolean())
        {
            if (clock.nanoTime() - deadlineNs > 0)
            {
                return false;
            }
            Thread.onSpinWait();
        }
        return true;
    }
}
