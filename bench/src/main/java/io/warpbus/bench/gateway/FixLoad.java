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
package io.warpbus.bench.gateway;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

import io.warpbus.matching.Instrument;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import quickfix.Application;
import quickfix.ConfigError;
import quickfix.DefaultMessageFactory;
import quickfix.Dictionary;
import quickfix.FieldNotFound;
import quickfix.MemoryStoreFactory;
import quickfix.Message;
import quickfix.SLF4JLogFactory;
import quickfix.Session;
import quickfix.SessionID;
import quickfix.SessionSettings;
import quickfix.SocketInitiator;
import quickfix.field.ClOrdID;
import quickfix.field.OrdType;
import quickfix.field.OrigClOrdID;
import quickfix.field.Side;
import quickfix.field.TimeInForce;
import quickfix.field.TransactTime;
import quickfix.fix44.NewOrderSingle;
import quickfix.fix44.OrderCancelRequest;

/**
 * The FIX case of the gateway bench: N QuickFIX/J initiator sessions (one initiator, one socket each, its one I/O
 * thread) on loopback, and a pacer thread that sends orders at a fixed rate across them, round robin: limit orders a
 * few ticks away from the instrument's reference price that rest, one in ten crossing (IOC, it trades against
 * another session's), and once a session has five resting, a cancel of its oldest. An order's round trip is from the
 * time the pacer meant to send it (so that a stall counts, no coordinated omission) to its first answer: an
 * execution report, a cancel reject (9) or a business reject (j).
 */
final class FixLoad implements Application, AutoCloseable
{
    /** Orders a session may have unanswered at once: the slots of its send times. */
    private static final int CAPACITY = 8192;
    private static final int MAX_RESTING = 5;

    /**
     * One session's user.
     *
     * @param user     Username (553).
     * @param password Password (554).
     * @param account  Account (1) of its orders.
     */
    record Login(String user, String password, long account)
    {
    }

    /**
     * What the load counted, and the round trips since the last snapshot.
     *
     * @param sessionsLoggedOn sessions logged on now.
     * @param requestsSent     orders and cancels sent so far.
     * @param answered         of those, answered so far.
     * @param rejects          execution reports with ExecType 8, j and 3 so far.
     * @param logouts          logouts the load did not ask for so far.
     * @param roundTrips       round trips since the last snapshot, ns.
     */
    record Snapshot(int sessionsLoggedOn, long requestsSent, long answered, long rejects, long logouts,
        Histogram roundTrips)
    {
    }

    private final SessionID[] sessions;
    private final Login[] logins;
    private final Map<SessionID, Integer> index = new HashMap<>();
    private final List<ArrayDeque<String>> resting;
    private final long[] nextOrder;
    private final AtomicLongArray sentNs;
    private final AtomicLongArray sentOrders;
    private final Recorder roundTrips = new Recorder(TimeUnit.SECONDS.toNanos(60), 3);
    private final AtomicInteger loggedOn = new AtomicInteger();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong answered = new AtomicLong();
    private final AtomicLong rejects = new AtomicLong();
    private final AtomicLong logouts = new AtomicLong();
    private final Map<String, AtomicLong> rejectReasons = new java.util.concurrent.ConcurrentHashMap<>();
    private final List<Instrument> instruments;
    private final long rate;
    private final SocketInitiator initiator;
    private final Thread pacer;
    private volatile boolean ordering = true;
    private volatile boolean closing;

    FixLoad(final String host, final int port, final List<Login> logins, final int sessionCount, final long rate,
        final List<Instrument> instruments) throws ConfigError
    {
        quietLogging();
        this.rate = rate;
        this.instruments = instruments;
        this.sessions = new SessionID[sessionCount];
        this.logins = new Login[sessionCount];
        this.resting = new ArrayList<>(sessionCount);
        this.nextOrder = new long[sessionCount];
        this.sentNs = new AtomicLongArray(sessionCount * CAPACITY);
        this.sentOrders = new AtomicLongArray(sessionCount * CAPACITY);
        final SessionSettings settings = new SessionSettings();
        settings.setString("ConnectionType", "initiator");
        settings.setString("HeartBtInt", "30");
        settings.setString("ReconnectInterval", "5");
        settings.setString("ResetOnLogon", "Y");
        settings.setString("NonStopSession", "Y");
        settings.setString("UseDataDictionary", "Y");
        settings.setString("DataDictionary", "FIX44.xml");
        settings.setString("ValidateUserDefinedFields", "N");
        settings.setString("SocketTcpNoDelay", "Y");
        settings.setString("SocketConnectHost", host);
        settings.setString("SocketConnectPort", Integer.toString(port));
        for (int i = 0; i < sessionCount; i++)
        {
            sessions[i] = new SessionID("FIX.4.4", compId(i), "WARPBUS");
            this.logins[i] = logins.get(i % logins.size());
            resting.add(new ArrayDeque<>());
            index.put(sessions[i], i);
            settings.set(sessions[i], new Dictionary());
        }
        initiator = new SocketInitiator(this, new MemoryStoreFactory(), settings, new SLF4JLogFactory(settings),
            new DefaultMessageFactory());
        pacer = new Thread(this::pace, "bench-fix-pacer");
        pacer.setDaemon(true);
    }

    /**
     * The SenderCompID of a session, as the gateway must be configured with it.
     */
    static String compId(final int session)
    {
        return "BENCH" + session;
    }

    /**
     * Log every session on, within a deadline, then start the pacer.
     */
    void start(final long timeoutMs) throws ConfigError, InterruptedException
    {
        initiator.start();
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (loggedOn.get() < sessions.length)
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw new IllegalStateException("only " + loggedOn.get() + " of " + sessions.length + " FIX " +
                    "sessions logged on within " + timeoutMs + " ms");
            }
            Thread.sleep(20);
        }
        pacer.start();
    }

    Snapshot snapshot()
    {
        return new Snapshot(loggedOn.get(), sent.get(), answered.get(), rejects.get(), logouts.get(),
            roundTrips.getIntervalHistogram());
    }

    /**
     * Stop sending and wait, bounded, until every request sent is answered.
     *
     * @return whether they all were.
     */
    boolean stopOrdering(final long timeoutMs) throws InterruptedException
    {
        ordering = false;
        pacer.join(timeoutMs);
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (answered.get() < sent.get())
        {
            if (System.nanoTime() - deadline > 0)
            {
                return false;
            }
            Thread.sleep(20);
        }
        return true;
    }

    @Override
    public void close()
    {
        ordering = false;
        closing = true;
        initiator.stop(true);
    }

    private void pace()
    {
        final long intervalNs = Math.max(1, TimeUnit.SECONDS.toNanos(1) / rate);
        long intendedNs = System.nanoTime();
        long count = 0;
        while (ordering)
        {
            intendedNs += intervalNs;
            long waitNs;
            while ((waitNs = intendedNs - System.nanoTime()) > 0)
            {
                LockSupport.parkNanos(Math.min(waitNs, 1_000_000));
            }
            final int session = (int)(count % sessions.length);
            send(session, count, intendedNs);
            count++;
        }
    }

    private void send(final int session, final long count, final long intendedNs)
    {
        final long order = nextOrder[session]++;
        final String clOrdId = "b" + session + "-" + order;
        final Instrument instrument = instruments.get((int)(count / sessions.length % instruments.size()));
        final Message message;
        if (resting.get(session).size() >= MAX_RESTING)
        {
            final String oldest = resting.get(session).pollFirst();
            final boolean buy = oldest.endsWith("B");
            final OrderCancelRequest cancel = new OrderCancelRequest(new OrigClOrdID(oldest.substring(0,
                oldest.indexOf('/'))), new ClOrdID(clOrdId), new Side(buy ? Side.BUY : Side.SELL),
                new TransactTime(LocalDateTime.now()));
            cancel.setString(55, oldest.substring(oldest.indexOf('/') + 1, oldest.length() - 1));
            message = cancel;
        }
        else
        {
            final boolean buy = 0 == order % 2;
            final boolean crossing = 9 == order % 10;
            final long ticks = crossing ? -2 : 1 + order % 5;
            final long price = instrument.referencePrice() + (buy ? -ticks : ticks) * instrument.tickSize();
            final NewOrderSingle newOrder = new NewOrderSingle(new ClOrdID(clOrdId), new Side(buy ? Side.BUY :
                Side.SELL), new TransactTime(LocalDateTime.now()), new OrdType(OrdType.LIMIT));
            newOrder.setString(1, Long.toString(logins[session].account()));
            newOrder.setString(55, instrument.symbol());
            newOrder.setString(44, BigDecimal.valueOf(price, instrument.priceScale()).toPlainString());
            newOrder.setString(38, Long.toString(instrument.lotSize() * (1 + order % 3)));
            newOrder.set(new TimeInForce(crossing ? TimeInForce.IMMEDIATE_OR_CANCEL : TimeInForce.GOOD_TILL_CANCEL));
            message = newOrder;
            if (!crossing)
            {
                // The symbol and side ride along for the cancel: "ClOrdID/SYMBOL" then B or S.
                resting.get(session).addLast(clOrdId + "/" + instrument.symbol() + (buy ? "B" : "S"));
            }
        }
        sentOrders.set(session * CAPACITY + (int)(order % CAPACITY), order);
        sentNs.set(session * CAPACITY + (int)(order % CAPACITY), intendedNs);
        if (Session.lookupSession(sessions[session]).send(message))
        {
            sent.incrementAndGet();
        }
        else
        {
            sentNs.set(session * CAPACITY + (int)(order % CAPACITY), 0);
        }
    }

    private void answer(final SessionID sessionId, final String clOrdId)
    {
        final Integer session = index.get(sessionId);
        final int dash = null == clOrdId ? -1 : clOrdId.indexOf('-');
        if (null == session || dash < 0)
        {
            return;
        }
        final long order = Long.parseLong(clOrdId.substring(dash + 1));
        if (sentOrders.get(session * CAPACITY + (int)(order % CAPACITY)) != order)
        {
            // A later report (a fill) of an order whose slot a newer one took.
            return;
        }
        final long intendedNs = sentNs.getAndSet(session * CAPACITY + (int)(order % CAPACITY), 0);
        if (0 != intendedNs)
        {
            roundTrips.recordValue(Math.max(0, System.nanoTime() - intendedNs));
            answered.incrementAndGet();
        }
    }

    @Override
    public void onCreate(final SessionID sessionId)
    {
    }

    @Override
    public void onLogon(final SessionID sessionId)
    {
        loggedOn.incrementAndGet();
    }

    @Override
    public void onLogout(final SessionID sessionId)
    {
        loggedOn.decrementAndGet();
        if (!closing)
        {
            logouts.incrementAndGet();
        }
    }

    @Override
    public void toAdmin(final Message message, final SessionID sessionId)
    {
        if ("A".equals(field(message.getHeader(), 35)))
        {
            final Login login = logins[index.get(sessionId)];
            message.setString(553, login.user());
            message.setString(554, login.password());
        }
    }

    @Override
    public void fromAdmin(final Message message, final SessionID sessionId)
    {
        if ("3".equals(field(message.getHeader(), 35)))
        {
            reject(message);
        }
    }

    @Override
    public void toApp(final Message message, final SessionID sessionId)
    {
    }

    @Override
    public void fromApp(final Message message, final SessionID sessionId)
    {
        final String type = field(message.getHeader(), 35);
        if ("8".equals(type))
        {
            if ("8".equals(field(message, 150)))
            {
                reject(message);
            }
            answer(sessionId, field(message, 11));
        }
        else if ("9".equals(type))
        {
            answer(sessionId, field(message, 11));
        }
        else if ("j".equals(type))
        {
            reject(message);
            answer(sessionId, field(message, 379));
        }
    }

    private void reject(final Message message)
    {
        rejects.incrementAndGet();
        final String text = field(message, 58);
        rejectReasons.computeIfAbsent(null == text ? "(no Text)" : text, (key) -> new AtomicLong()).incrementAndGet();
    }

    /**
     * The reasons (Text (58)) of the rejects so far, with their counts.
     */
    Map<String, Long> rejectReasons()
    {
        final Map<String, Long> reasons = new java.util.TreeMap<>();
        rejectReasons.forEach((text, count) -> reasons.put(text, count.get()));
        return reasons;
    }

    /**
     * QuickFIX/J logs through SLF4J; the bench's output is its figures, not QuickFIX/J's debug log.
     */
    static void quietLogging()
    {
        final org.slf4j.Logger root = org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        if (root instanceof ch.qos.logback.classic.Logger)
        {
            ((ch.qos.logback.classic.Logger)root).setLevel(ch.qos.logback.classic.Level.WARN);
        }
    }

    private static String field(final quickfix.FieldMap fields, final int tag)
    {
        try
        {
            return fields.isSetField(tag) ? fields.getString(tag) : null;
        }
        catch (final FieldNotFound ex)
        {
            return null;
        }
    }
}
