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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import io.warpbus.bus.Bus;
import io.warpbus.bus.FragmentAssembler;
import io.warpbus.bus.Subscription;
import io.warpbus.iwarp.ThreadingMode;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.LangUtil;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * The gateway's session core: one agent, on its own thread, that owns every session and drives the gateway's bus
 * client. Protocol adapters only translate: they hand it commands through a ring buffer ({@link CommandProxy}) and
 * drain the events it queues per connection; operators reach it through {@link #call}. Nothing else touches its
 * state, so it needs no locks.
 * <pre>
 *   adapters --CommandProxy--&gt; inbound ring --&gt; SessionCore --&gt; per-connection queues --&gt; adapters
 *                                                   |    ^
 *                      order entry (origin's stream) v    | reports (its route), market data, snapshots,
 *                                                               drop copy (every route: other gateways' fills)
 *                                                matching engine, over the bus
 * </pre>
 * One duty cycle: the bus (in {@code INVOKER} mode), market-data snapshots then increments (fanned out with
 * conflation), the engine's reports, the inbound commands, session timers and resends, owed books, control calls.
 * Steady state allocates nothing. On construction it rebuilds its sessions and orders from the session journal, so a
 * gateway restarted after {@code kill -9} resumes its clients and asks the engine for the reports it missed.
 */
public final class SessionCore implements Agent, AutoCloseable
{
    private static final int COMMAND_LIMIT = 256;
    private static final int FRAGMENT_LIMIT = 256;
    private static final long STATUS_INTERVAL_NS = 10_000_000L;

    private final SessionCoreContext context;
    private final Bus bus;
    private final boolean invoker;
    private final ConnectionTable connections;
    private final Session[] sessions;
    private final ManyToOneRingBuffer inbound;
    private final CommandProxy proxy;
    private final ManyToOneConcurrentArrayQueue<Runnable> control = new ManyToOneConcurrentArrayQueue<>(1024);
    private final SessionJournal journal;
    private final SessionLifecycle lifecycle;
    private final OrderEntry orders;
    private final MarketDataFanout marketData;
    private final EngineLink engine;
    private final DropCopyAdapter dropCopy;
    private final Subscription marketDataSubscription;
    private final Subscription snapshotSubscription;
    private final FragmentAssembler marketDataAssembler;
    private final FragmentAssembler snapshotAssembler;
    private final MessageHandler commandHandler = this::onCommand;
    private final GatewayCounters counters;
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final UnsafeBuffer event = new UnsafeBuffer(ByteBuffer.allocateDirect(
        EventDescriptor.OPEN_ORDERS_ENTRIES_OFFSET + EventDescriptor.MAX_ORDERS_PER_MESSAGE *
        EventDescriptor.ORDER_ENTRY_LENGTH));
    private volatile boolean engineConnected;
    private volatile boolean engineCaughtUp;
    private volatile boolean marketDataConnected;
    private Agent coLocated;
    private long nowNs;
    private long nextStatusNs;

    /**
     * Build the core: the journal, the sessions and orders restored from it, the bus publication and
     * subscriptions.
     *
     * @param context configuration, {@link SessionCoreContext#conclude() concluded} here.
     * @throws IllegalStateException when the configuration is incomplete or the journal cannot be restored; nothing
     *                               is left open.
     */
    public SessionCore(final SessionCoreContext context)
    {
        this.context = context.conclude();
        this.bus = context.bus();
        this.invoker = ThreadingMode.INVOKER == bus.context().threadingMode();
        this.connections = context.connections();
        this.counters = context.counters();
        this.sessions = new Session[context.maxSessions()];
        for (int i = 0; i < sessions.length; i++)
        {
            sessions[i] = new Session(i, context.maxInstruments());
        }
        inbound = new ManyToOneRingBuffer(new UnsafeBuffer(ByteBuffer.allocateDirect(
            context.inboundCapacity() + RingBufferDescriptor.TRAILER_LENGTH)));
        proxy = new CommandProxy(inbound);
        final Int2ObjectHashMap<InstrumentState> instruments = new Int2ObjectHashMap<>();
        try
        {
            journal = new SessionJournal(context.journalDirectory(), context.journalRetentionDays(),
                context.epochClock(), counters);
            closeables.add(journal);
            final Outbox outbox = new Outbox(connections, journal, counters);
            final SessionErrors errors = new SessionErrors(outbox, counters);
            lifecycle = new SessionLifecycle(context, sessions, outbox, errors, journal);
            orders = new OrderEntry(context, sessions, new OrderTable(context.maxOrders(), context.maxSessions()),
                instruments, outbox, journal);
            marketData = new MarketDataFanout(context, sessions, instruments, outbox, errors, journal);
            lifecycle.wire(orders, marketData);
            orders.lifecycle(lifecycle);
            final long lastExecId = restore();
            engine = new EngineLink(bus, context.orderEntryChannel(), context.executionReportChannel(), orders,
                counters);
            closeables.add(engine);
            engine.lastExecId(lastExecId);
            orders.engine(engine);
            snapshotSubscription = bus.addSubscription(context.snapshotChannel());
            closeables.add(snapshotSubscription);
            marketDataSubscription = bus.addSubscription(context.marketDataChannel());
            closeables.add(marketDataSubscription);
            if (null != context.dropCopyChannel())
            {
                final Subscription dropCopySubscription = bus.addSubscription(context.dropCopyChannel());
                dropCopy = new DropCopyAdapter(dropCopySubscription, orders, instruments, context.origin());
                closeables.add(dropCopy);
            }
            else
            {
                dropCopy = null;
            }
            snapshotAssembler = new FragmentAssembler(marketData.snapshotHandler());
            marketDataAssembler = new FragmentAssembler(marketData.incrementalHandler());
        }
        catch (final RuntimeException ex)
        {
            closeAll();
            throw ex;
        }
    }

    /**
     * Where adapters send commands.
     *
     * @return the proxy, safe from any thread.
     */
    public CommandProxy commands()
    {
        return proxy;
    }

    /**
     * Run an adapter's duty cycle inside the core's, on the core's thread: its commands then reach the core and the
     * core's events reach its sockets with no hand-off between threads. Its {@code onStart} and {@code onClose} run
     * with the core's. Call it before the core's runner starts.
     *
     * @param agent the adapter; it must never block, since the bus waits while it works.
     * @throws IllegalStateException if an agent already runs with the core.
     */
    public void coLocate(final Agent agent)
    {
        if (null != coLocated)
        {
            throw new IllegalStateException(coLocated.roleName() + " already runs on the session core's thread");
        }
        coLocated = agent;
    }

    @Override
    public int doWork()
    {
        final long nowNs = context.nanoClock().nanoTime();
        this.nowNs = nowNs;
        int work = invoker ? bus.doWork() : 0;
        marketData.now(nowNs);
        work += snapshotSubscription.poll(snapshotAssembler, FRAGMENT_LIMIT);
        work += marketDataSubscription.poll(marketDataAssembler, FRAGMENT_LIMIT);
        work += engine.poll(nowNs);
        if (null != dropCopy)
        {
            work += dropCopy.poll();
        }
        work += inbound.read(commandHandler, COMMAND_LIMIT);
        work += lifecycle.doWork(nowNs);
        if (nowNs - nextStatusNs >= 0)
        {
            nextStatusNs = nowNs + STATUS_INTERVAL_NS;
            engineConnected = engine.isConnected();
            engineCaughtUp = engine.isCaughtUp() && !engine.isRepairing();
            marketDataConnected = marketDataSubscription.isConnected() && snapshotSubscription.isConnected();
        }
        work += marketData.flush(nowNs);
        work += runControl();
        if (work > 0)
        {
            connections.wakeDrainers();
        }
        if (null != coLocated)
        {
            try
            {
                work += coLocated.doWork();
            }
            catch (final Exception ex)
            {
                // Unchanged, for the runner's error handler, as if the agent ran on its own thread.
                LangUtil.rethrowUnchecked(ex);
            }
        }
        return work;
    }

    @Override
    public void onStart()
    {
        proxy.consumer(Thread.currentThread());
        if (null != coLocated)
        {
            coLocated.onStart();
        }
    }

    @Override
    public String roleName()
    {
        return "gateway-session-core";
    }

    @Override
    public void onClose()
    {
        if (null != coLocated)
        {
            coLocated.onClose();
        }
        proxy.consumer(null);
        closeAll();
    }

    @Override
    public void close()
    {
        closeAll();
    }

    /**
     * Run something on the core's thread (admin and health calls) and get its result.
     *
     * @param call what to run; it may read and change session state.
     * @param <T>  its result.
     * @return the result, completed on the core's thread; failed if the control queue is full.
     */
    public <T> CompletableFuture<T> call(final Supplier<T> call)
    {
        final CompletableFuture<T> result = new CompletableFuture<>();
        if (!control.offer(() ->
        {
            try
            {
                result.complete(call.get());
            }
            catch (final RuntimeException ex)
            {
                result.completeExceptionally(ex);
            }
        }))
        {
            result.completeExceptionally(new IllegalStateException("session core control queue is full"));
        }
        return result;
    }

    /**
     * Every session, on the core's thread.
     *
     * @return a snapshot of each held session.
     */
    public CompletableFuture<List<SessionInfo>> sessions()
    {
        return call(this::describeSessions);
    }

    /**
     * End a session, on the core's thread: its orders are cancelled and its client logged out with the reason.
     *
     * @param token  the session token.
     * @param reason for the client.
     * @return true if a session was ended.
     */
    public CompletableFuture<Boolean> endSession(final String token, final String reason)
    {
        return call(() ->
        {
            final Session session = byToken(token);
            if (null == session)
            {
                return false;
            }
            lifecycle.end(session, reason, SessionLifecycle.ENDED_CLOSE, nowNs);
            return true;
        });
    }

    /**
     * Block or unblock a user, on the core's thread; blocking ends its sessions.
     *
     * @param userName the user.
     * @param blocked  the new state.
     * @return the number of sessions ended, or -1 when there is no such user.
     */
    public CompletableFuture<Integer> blockUser(final String userName, final boolean blocked)
    {
        return call(() ->
        {
            final User user = context.users().get(userName);
            if (null == user)
            {
                return -1;
            }
            user.blocked(blocked);
            int ended = 0;
            if (blocked)
            {
                for (final Session session : sessions)
                {
                    if (user == session.user && Session.FREE != session.state && Session.ENDING != session.state)
                    {
                        lifecycle.end(session, "user blocked by an operator", SessionLifecycle.ENDED_CLOSE, nowNs);
                        ended++;
                    }
                }
            }
            return ended;
        });
    }

    /**
     * Halt or resume trading of an instrument at this gateway, on the core's thread.
     *
     * @param symbol  the instrument.
     * @param trading the new state.
     * @return the instrument as it is now, or null when unknown.
     */
    public CompletableFuture<InstrumentInfo> trading(final String symbol, final boolean trading)
    {
        return call(() ->
        {
            final InstrumentInfo info = context.instruments().trading(symbol, trading);
            if (null != info)
            {
                marketData.redefine(info);
            }
            return info;
        });
    }

    /**
     * Is the engine connected both ways (it subscribes to this gateway's orders, its reports arrive)?
     *
     * @return true if so; updated every few milliseconds.
     */
    public boolean isEngineConnected()
    {
        return engineConnected;
    }

    /**
     * Has the gateway every report the engine has sent it?
     *
     * @return true once the engine's heartbeat names the last report received.
     */
    public boolean isEngineCaughtUp()
    {
        return engineCaughtUp;
    }

    /**
     * Are the market-data and snapshot streams connected?
     *
     * @return true if so.
     */
    public boolean isMarketDataConnected()
    {
        return marketDataConnected;
    }

    /**
     * The session journal's directory.
     *
     * @return the directory.
     */
    public java.nio.file.Path journalDirectory()
    {
        return journal.directory();
    }

    /**
     * Free space for the session journal.
     *
     * @return usable bytes.
     */
    public long journalUsableSpace()
    {
        return journal.usableSpace();
    }

    private void onCommand(final int type, final DirectBuffer buffer, final int offset, final int length)
    {
        final int connectionIndex = buffer.getInt(offset + CommandDescriptor.CONNECTION_OFFSET);
        if (connectionIndex < 0 || connectionIndex >= connections.capacity())
        {
            return;
        }
        final Connection connection = connections.get(connectionIndex);
        counters.increment(GatewayCounterDescriptor.MESSAGES_IN);
        if (CommandDescriptor.LOGON == type)
        {
            lifecycle.onLogon(connection, buffer, offset, nowNs);
            return;
        }
        if (CommandDescriptor.CLOSED == type)
        {
            lifecycle.onClosed(connection, nowNs);
            return;
        }
        if (connection.session < 0)
        {
            // Before a logon was accepted, or after it was refused or superseded: nothing to answer it on.
            return;
        }
        final Session session = sessions[connection.session];
        lifecycle.onInbound(session, nowNs);
        switch (type)
        {
            case CommandDescriptor.LOGOUT:
                lifecycle.onLogout(session, nowNs);
                break;
            case CommandDescriptor.TEST_REQUEST:
                lifecycle.onTestRequest(session, buffer, offset, nowNs);
                break;
            case CommandDescriptor.SUBSCRIBE:
                marketData.subscribe(session, buffer, offset, nowNs);
                break;
            case CommandDescriptor.UNSUBSCRIBE:
                marketData.unsubscribe(session, buffer, offset, nowNs);
                break;
            case CommandDescriptor.NEW_ORDER:
                orders.onNewOrder(session, buffer, offset, nowNs);
                break;
            case CommandDescriptor.CANCEL:
                orders.onCancel(session, buffer, offset, nowNs);
                break;
            case CommandDescriptor.REPLACE:
                orders.onReplace(session, buffer, offset, nowNs);
                break;
            case CommandDescriptor.OPEN_ORDERS:
                openOrders(session, buffer, offset);
                break;
            case CommandDescriptor.INSTRUMENTS:
                instruments(session, buffer, offset);
                break;
            case CommandDescriptor.PROTOCOL_ERROR:
                lifecycle.onProtocolError(session, buffer, offset, nowNs);
                break;
            default:
                break;
        }
    }

    private void instruments(final Session session, final DirectBuffer command, final int offset)
    {
        event.putBytes(EventDescriptor.INSTRUMENTS_REQUEST_ID_OFFSET, command,
            offset + CommandDescriptor.REQUEST_ID_OFFSET, 1 + EventDescriptor.REQUEST_ID_WIDTH);
        event.putInt(EventDescriptor.INSTRUMENTS_USER_OFFSET, session.user.index());
        lifecycleSend(session, EventDescriptor.INSTRUMENTS, EventDescriptor.INSTRUMENTS_LENGTH);
    }

    /**
     * The session's live orders, in messages of at most {@value EventDescriptor#MAX_ORDERS_PER_MESSAGE}; a request
     * path, so it walks the order table.
     */
    private void openOrders(final Session session, final DirectBuffer command, final int offset)
    {
        event.putBytes(EventDescriptor.OPEN_ORDERS_REQUEST_ID_OFFSET, command,
            offset + CommandDescriptor.REQUEST_ID_OFFSET, 1 + EventDescriptor.REQUEST_ID_WIDTH);
        final int[] count = new int[1];
        orders.forEachOpen(session, (order, report) ->
        {
            event.putBytes(EventDescriptor.OPEN_ORDERS_ENTRIES_OFFSET + count[0]++ * EventDescriptor.ORDER_ENTRY_LENGTH,
                report, EventDescriptor.CLIENT_ORDER_ID_OFFSET, EventDescriptor.ORDER_ENTRY_LENGTH);
            if (EventDescriptor.MAX_ORDERS_PER_MESSAGE == count[0])
            {
                sendOpenOrders(session, count[0], true);
                count[0] = 0;
            }
        });
        sendOpenOrders(session, count[0], false);
    }

    private void sendOpenOrders(final Session session, final int count, final boolean more)
    {
        event.putByte(EventDescriptor.OPEN_ORDERS_MORE_OFFSET, (byte)(more ? 1 : 0));
        event.putInt(EventDescriptor.OPEN_ORDERS_COUNT_OFFSET, count);
        lifecycleSend(session, EventDescriptor.OPEN_ORDERS,
            EventDescriptor.OPEN_ORDERS_ENTRIES_OFFSET + count * EventDescriptor.ORDER_ENTRY_LENGTH);
    }

    private void lifecycleSend(final Session session, final int type, final int length)
    {
        lifecycle.send(session, type, event, length, nowNs);
    }

    private int runControl()
    {
        int work = 0;
        Runnable task;
        while (null != (task = control.poll()))
        {
            task.run();
            work++;
        }
        return work;
    }

    private Session byToken(final String token)
    {
        if (null == token || 32 != token.length())
        {
            return null;
        }
        try
        {
            return lifecycle.byToken(Long.parseUnsignedLong(token.substring(0, 16), 16),
                Long.parseUnsignedLong(token.substring(16), 16));
        }
        catch (final NumberFormatException ex)
        {
            return null;
        }
    }

    private List<SessionInfo> describeSessions()
    {
        final List<SessionInfo> infos = new ArrayList<>();
        for (final Session session : sessions)
        {
            if (Session.FREE == session.state || null == session.user)
            {
                continue;
            }
            final List<String> subscriptions = new ArrayList<>();
            for (int i = 0; i < marketData.instrumentCount(); i++)
            {
                if (session.subscribed[i])
                {
                    subscriptions.add(marketData.instrument(i).info.symbol());
                }
            }
            final int queued = session.isConnected() ? connections.get(session.connection).outbound().size() : 0;
            final int capacity = session.isConnected() ?
                connections.get(session.connection).outbound().capacity() : 0;
            infos.add(new SessionInfo(session.token(), session.user.name(), session.name, session.address,
                Session.CONNECTED == session.state ? "connected" :
                Session.DISCONNECTED == session.state ? "disconnected" : "ending",
                session.createdEpochMs, session.nextSeq - 1, session.messagesIn, session.messagesOut,
                session.openOrders, subscriptions, session.conflatedUpdates, queued, capacity));
        }
        return infos;
    }

    /**
     * Rebuild sessions and orders from the journal.
     *
     * @return the last engine exec id the journal shows.
     */
    private long restore()
    {
        final long[] lastExecId = new long[1];
        journal.replay((sequence, sessionId, flags, publishedNs, receivedNs, buffer, offset, length) ->
        {
            if (SessionJournal.INSTRUMENT_RECORD == flags)
            {
                marketData.restoreDefinition(buffer, offset);
                return;
            }
            if (sessionId < 0 || sessionId >= sessions.length)
            {
                throw new IllegalStateException("session journal " + journal.directory() + " record " + sequence +
                    " names session slot " + sessionId + ", beyond max-sessions " + sessions.length +
                    ": start with the max-sessions it was written with");
            }
            final Session session = sessions[sessionId];
            switch (flags)
            {
                case SessionJournal.SESSION_OPENED_RECORD:
                    lifecycle.restoreOpened(sessionId, buffer, offset);
                    break;
                case SessionJournal.SESSION_ENDED_RECORD:
                    lifecycle.restoreEnded(session);
                    break;
                case SessionJournal.ORDER_SENT_RECORD:
                    orders.restoreOrderSent(sessionId, buffer, offset);
                    break;
                case SessionJournal.SEQ_MARK_RECORD:
                    lifecycle.restoreSeqMark(session, buffer.getLong(offset + SessionJournal.SEQ_MARK_OFFSET));
                    break;
                case SessionJournal.SESSION_FLAGS_RECORD:
                    lifecycle.restoreFlags(session, buffer.getByte(offset + SessionJournal.FLAGS_OFFSET));
                    break;
                default:
                    lifecycle.restoreEvent(session, buffer.getLong(offset + EventDescriptor.SEQ_OFFSET), sequence);
                    if (EventDescriptor.EXECUTION_REPORT == flags)
                    {
                        lastExecId[0] = Math.max(lastExecId[0], orders.restoreReport(sessionId, buffer, offset));
                    }
                    else if (EventDescriptor.SUBSCRIBED == flags || EventDescriptor.UNSUBSCRIBED == flags)
                    {
                        marketData.restoreSubscription(session, flags, buffer, offset);
                    }
                    break;
            }
        });
        lifecycle.restored();
        marketData.restoredSubscriptions();
        return lastExecId[0];
    }

    private void closeAll()
    {
        for (int i = closeables.size() - 1; i >= 0; i--)
        {
            CloseHelper.quietClose(closeables.get(i));
        }
        closeables.clear();
    }
}
