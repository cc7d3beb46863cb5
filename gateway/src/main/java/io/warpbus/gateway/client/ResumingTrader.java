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
package io.warpbus.gateway.client;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.warpbus.gateway.client.GatewayClient.ClientOptions;
import io.warpbus.gateway.client.NioWebSockets.NioWebSocket;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A trading client that rides out a gateway's death: a few WebSocket sessions of one user trade one instrument at a
 * fixed rate (resting orders near a reference price, some crossing IOC orders, cancels of the oldest), and when a
 * connection drops each session reconnects with back-off and logs on with {@code resume} from the next sequence
 * number it has not seen. It checks everything it receives: with {@link SequenceTracker} every outbound sequence
 * number exactly once and in order, with {@link OrderReportChecker} every request answered once and every fill once.
 * {@code ./warpbus trader} ({@link ResumingTraderMain}) runs it; the testbed kills its gateway under it.
 * <p>
 * While a session has no connection, the orders due on it are not sent: they are counted ({@code not_sent_down}), as
 * an order refused by the client. Requests in flight when the connection died are waited for (the resumed session
 * gets their answers from the gateway's journal, or the engine's, or a 505 reject for an order the engine never got);
 * those never answered are <em>in doubt</em> (see {@link OrderReportChecker}) and never sent again.
 * <p>
 * One lock guards all state: the selector threads' messages, the pacer's orders and the reconnects take it in turn.
 * At some hundred orders a second that costs nothing, and no check can see a half-done update.
 */
public final class ResumingTrader implements AutoCloseable
{
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int CONNECT_TIMEOUT_MS = 2_000;
    private static final long MAX_BACKOFF_MS = 1_000;
    private static final long FIRST_BACKOFF_MS = 50;

    private final Settings settings;
    private final PrintStream out;
    private final NioWebSockets sockets;
    private final TraderSession[] sessions;
    private final OrderReportChecker checker = new OrderReportChecker();
    private final ScheduledExecutorService reconnects = Executors.newSingleThreadScheduledExecutor((task) ->
    {
        final Thread thread = new Thread(task, "trader-reconnect");
        thread.setDaemon(true);
        return thread;
    });
    private final List<String> failures = new ArrayList<>();
    private final Object lock = new Object();
    private long notSentWhileDown;
    private long disconnects;
    private long resumes;
    private long lastResumeMs;
    private long tick;
    private long lot;
    private int scale;
    private long referencePrice;
    private volatile boolean running = true;
    private volatile boolean stopping;
    private Thread pacer;

    /**
     * What to run.
     *
     * @param url                the gateway's WebSocket URL.
     * @param logon              who logs on: {@link GatewayClient}'s options (user and password, or API key).
     * @param accounts           session i trades account {@code accounts.get(i % size)}.
     * @param instrument         the symbol traded.
     * @param referencePrice     the price orders are placed near (decimal text).
     * @param sessions           how many sessions.
     * @param ordersPerSecond    requests per second across the sessions (new orders and cancels).
     * @param maxOpenOrders      resting orders a session keeps before it cancels its oldest.
     * @param reconnectTimeoutMs how long a session tries to get back before it gives up.
     * @param seed               of the order flow.
     */
    @SuppressWarnings("checkstyle:parameternumber")
    record Settings(URI url, ClientOptions logon, List<Long> accounts, String instrument, String referencePrice,
        int sessions, long ordersPerSecond, int maxOpenOrders, long reconnectTimeoutMs, long seed)
    {
    }

    /**
     * Connect and log on every session, learn the instrument from the gateway and start trading.
     *
     * @param settings what to run.
     * @param out      where its lines go: resumes and problems.
     * @throws IllegalStateException when a session cannot log on or the gateway does not trade the instrument.
     */
    ResumingTrader(final Settings settings, final PrintStream out)
    {
        this.settings = settings;
        this.out = out;
        try
        {
            this.sockets = new NioWebSockets(1, "trader-io");
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot open the trader's selector", ex);
        }
        sessions = new TraderSession[settings.sessions()];
        try
        {
            for (int i = 0; i < sessions.length; i++)
            {
                sessions[i] = new TraderSession(i, settings.accounts().get(i % settings.accounts().size()));
                sessions[i].connectFirst();
            }
            loadInstrument();
        }
        catch (final RuntimeException ex)
        {
            close();
            throw ex;
        }
        pacer = new Thread(this::pace, "trader-pacer");
        pacer.setDaemon(true);
        pacer.start();
    }

    /**
     * One line of figures so far.
     *
     * @return {@code key=value} pairs.
     */
    String stats()
    {
        synchronized (lock)
        {
            int loggedOn = 0;
            for (final TraderSession session : sessions)
            {
                loggedOn += session.loggedOn ? 1 : 0;
            }
            final int[] live = liveConnections();
            return "sessions=" + sessions.length + " logged_on=" + loggedOn + " " + counts() + " pending=" +
                checker.pending(live, false) + " in_doubt_pending=" + checker.pending(live, true);
        }
    }

    private String counts()
    {
        final OrderReportChecker.Verdict verdict = checker.verdict(liveConnections());
        return "sent=" + verdict.requestsSent() + " answered=" + verdict.answered() + " reports=" + verdict.reports() +
            " fills=" + verdict.fills() + " not_sent_down=" + notSentWhileDown + " disconnects=" + disconnects +
            " resumes=" + resumes;
    }

    /**
     * Stop trading; wait for the answers; cancel every resting order and wait for those answers; log out.
     *
     * @param settleMs how long to wait for answers, each time.
     * @return the verdict line: {@code key=value} pairs, ending with {@code lost=L duplicated=D}.
     * @throws InterruptedException if interrupted.
     */
    String finish(final long settleMs) throws InterruptedException
    {
        running = false;
        if (null != pacer)
        {
            pacer.join(5_000);
        }
        // Answers to requests on live connections, and a while for those in doubt (a restarted gateway answers
        // orders it journaled once it has caught up with the engine).
        awaitQuiet(settleMs, true);
        synchronized (lock)
        {
            for (final TraderSession session : sessions)
            {
                session.cancelAll();
            }
        }
        awaitQuiet(settleMs, false);
        stopping = true;
        synchronized (lock)
        {
            for (final TraderSession session : sessions)
            {
                session.send("{\"type\":\"logout\"}");
            }
        }
        final long deadline = Elapsed.ms() + 2_000;
        for (final TraderSession session : sessions)
        {
            while (session.isOpen() && Elapsed.ms() < deadline)
            {
                Thread.sleep(5);
            }
        }
        return verdictLine();
    }

    private void awaitQuiet(final long settleMs, final boolean waitForDoubt) throws InterruptedException
    {
        final long deadline = Elapsed.ms() + settleMs;
        while (Elapsed.ms() < deadline)
        {
            synchronized (lock)
            {
                final int[] live = liveConnections();
                final boolean doubtSettled = !waitForDoubt || 0 == checker.pending(live, true) ||
                    Elapsed.ms() - lastResumeMs > settleMs / 2;
                if (0 == checker.pending(live, false) && doubtSettled && allLoggedOnOrFailed())
                {
                    return;
                }
                for (final TraderSession session : sessions)
                {
                    session.heartbeatIfDue();
                }
            }
            Thread.sleep(20);
        }
    }

    private boolean allLoggedOnOrFailed()
    {
        for (final TraderSession session : sessions)
        {
            if (!session.loggedOn && !session.failed)
            {
                return false;
            }
        }
        return true;
    }

    /**
     * The verdict: every count of {@link OrderReportChecker.Verdict} and {@link SequenceTracker}, then
     * {@code lost=L duplicated=D}.
     *
     * @return the line.
     */
    String verdictLine()
    {
        synchronized (lock)
        {
            final OrderReportChecker.Verdict verdict = checker.verdict(liveConnections());
            long seqReceived = 0;
            long resent = 0;
            long gapFilled = 0;
            long seqMissing = 0;
            long seqDuplicates = 0;
            for (final TraderSession session : sessions)
            {
                seqReceived += session.sequence.received();
                resent += session.sequence.resent();
                gapFilled += session.sequence.gapFilled();
                seqMissing += session.sequence.missing();
                seqDuplicates += session.sequence.duplicates();
            }
            final long lost = seqMissing + verdict.lost() + failures.size();
            final long duplicated = seqDuplicates + verdict.duplicated();
            return "sent=" + verdict.requestsSent() + " answered=" + verdict.answered() + " reports=" +
                verdict.reports() + " fills=" + verdict.fills() + " rejects=" + verdict.rejects() + " rejects_505=" +
                verdict.unavailableRejects() + " seq_received=" + seqReceived + " resent=" + resent + " gap_filled=" +
                gapFilled + " seq_missing=" + seqMissing + " seq_duplicates=" + seqDuplicates + " unanswered=" +
                verdict.unanswered() + " in_doubt=" + verdict.inDoubt() + " ioc_unfinished=" + verdict.unfinished() +
                " fill_gaps=" + verdict.fillGaps() + " exec_id_gaps=" + verdict.execIdGaps() + " max_exec_id=" +
                verdict.maxExecId() + " duplicate_exec_ids=" + verdict.duplicateExecIds() + " duplicate_fills=" +
                verdict.duplicateFills() + " unexpected_answers=" + verdict.unexpectedAnswers() +
                " reports_after_end=" + verdict.reportsAfterEnd() + " unknown_orders=" + verdict.unknownOrders() +
                " not_sent_down=" + notSentWhileDown + " disconnects=" + disconnects + " resumes=" + resumes +
                " failures=" + failures.size() + " lost=" + lost + " duplicated=" + duplicated;
        }
    }

    /**
     * The orders behind the counts: per kind (unanswered, in doubt, ...), the first ten client order ids.
     *
     * @return kind=ids, or an empty map's text.
     */
    String examples()
    {
        synchronized (lock)
        {
            return checker.verdict(liveConnections()).examples().toString();
        }
    }

    /**
     * What went wrong: failed sessions, then the checks' problems.
     *
     * @return the lines.
     */
    List<String> problems()
    {
        synchronized (lock)
        {
            final List<String> all = new ArrayList<>(failures);
            all.addAll(checker.problems());
            return all;
        }
    }

    @Override
    public void close()
    {
        running = false;
        stopping = true;
        reconnects.shutdownNow();
        sockets.close();
    }

    private int[] liveConnections()
    {
        final int[] live = new int[sessions.length];
        for (int i = 0; i < sessions.length; i++)
        {
            final TraderSession session = sessions[i];
            live[i] = null == session || session.connectionDied ? -1 : session.connection;
        }
        return live;
    }

    /**
     * Ask for the instruments until the gateway knows the one traded (a gateway learns them from the engine's
     * market data, so just after a start it may know none yet), for at most the reconnect timeout.
     */
    private void loadInstrument()
    {
        final long deadline = Elapsed.ms() + settings.reconnectTimeoutMs();
        while (true)
        {
            final JsonNode reply = sessions[0].request("{\"type\":\"instruments\"}");
            for (final JsonNode instrument : reply.path("instruments"))
            {
                if (settings.instrument().equals(instrument.path("symbol").asString()))
                {
                    synchronized (lock)
                    {
                        scale = instrument.path("priceScale").asInt();
                        tick = GatewayLoad.units(instrument.path("tickSize").asString(), scale);
                        lot = instrument.path("lotSize").asLong();
                        referencePrice = GatewayLoad.units(settings.referencePrice(), scale) / tick * tick;
                    }
                    return;
                }
            }
            if (Elapsed.ms() > deadline)
            {
                throw new IllegalStateException("the gateway does not trade " + settings.instrument() + " after " +
                    settings.reconnectTimeoutMs() + " ms; its instruments: " + reply.path("instruments"));
            }
            sleep(250);
        }
    }

    private void pace()
    {
        final long startNs = System.nanoTime();
        final long rate = settings.ordersPerSecond();
        long sent = 0;
        int next = 0;
        while (running)
        {
            final long due = (System.nanoTime() - startNs) * rate / 1_000_000_000L;
            // A stall is not made up in a burst beyond a tenth of a second's worth.
            if (due - sent > rate / 10 + 1)
            {
                sent = due - rate / 10 - 1;
            }
            synchronized (lock)
            {
                while (sent < due && running)
                {
                    sessions[next].trade();
                    next = (next + 1) % sessions.length;
                    sent++;
                }
                for (final TraderSession session : sessions)
                {
                    session.heartbeatIfDue();
                }
            }
            if (!sleep(1))
            {
                return;
            }
        }
    }

    private static boolean sleep(final long ms)
    {
        try
        {
            Thread.sleep(ms);
            return true;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void say(final String line)
    {
        out.println(line);
        out.flush();
    }

    /**
     * One session: its connection, its sequence numbers and its orders, oldest first.
     */
    private final class TraderSession implements NioWebSockets.Listener
    {
        private final int index;
        private final long account;
        private final SplittableRandom random;
        private final SequenceTracker sequence = new SequenceTracker();
        private final Set<String> orders = new LinkedHashSet<>();
        private NioWebSocket socket;
        private String token;
        private int connection = -1;
        private boolean loggedOn;
        private boolean connectionDied;
        private boolean failed;
        private long heartbeatMs = 5_000;
        private long lastSentMs;
        private long downSinceMs;
        private long orderNumber;
        private JsonNode reply;

        TraderSession(final int index, final long account)
        {
            this.index = index;
            this.account = account;
            this.random = new SplittableRandom(settings.seed() * 1_000_003L + index);
        }

        /**
         * The first logon: connect (the gateway may still be starting: tried until the reconnect timeout) and wait
         * for the reply.
         */
        void connectFirst()
        {
            downSinceMs = Elapsed.ms();
            final long deadline = downSinceMs + settings.reconnectTimeoutMs();
            long backoffMs = FIRST_BACKOFF_MS;
            while (!tryConnect())
            {
                if (Elapsed.ms() > deadline)
                {
                    throw new IllegalStateException("session " + index + " could not connect to " + settings.url() +
                        " within " + settings.reconnectTimeoutMs() + " ms");
                }
                sleep(backoffMs);
                backoffMs = Math.min(MAX_BACKOFF_MS, backoffMs * 2);
            }
            while (true)
            {
                synchronized (lock)
                {
                    if (loggedOn)
                    {
                        return;
                    }
                    if (failed)
                    {
                        throw new IllegalStateException("session " + index + ": " + failures.get(failures.size() - 1));
                    }
                }
                if (Elapsed.ms() > deadline)
                {
                    throw new IllegalStateException("session " + index + ": no logon reply within " +
                        settings.reconnectTimeoutMs() + " ms");
                }
                sleep(5);
            }
        }

        /**
         * Connect and send a logon, a resuming one when the session has a token.
         *
         * @return false when the connection could not be made.
         */
        private boolean tryConnect()
        {
            final String logon;
            try
            {
                logon = GatewayClient.logonMessage(settings.logon());
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException("session " + index + ": cannot read the credentials", ex);
            }
            final NioWebSocket opened;
            try
            {
                opened = sockets.connect(settings.url(), this, CONNECT_TIMEOUT_MS);
            }
            catch (final IOException ex)
            {
                return false;
            }
            synchronized (lock)
            {
                if (opened.isClosed())
                {
                    // Closed before it was this session's: its close was not this session's to handle.
                    return false;
                }
                socket = opened;
                connection++;
                return send(null == token ? logon : logon.substring(0, logon.length() - 1) +
                    ",\"resume\":{\"token\":\"" + token + "\",\"fromSeq\":" + sequence.resumeFrom() + "}}");
            }
        }

        private void reconnect(final long backoffMs)
        {
            if (stopping)
            {
                return;
            }
            if (tryConnect())
            {
                return;
            }
            synchronized (lock)
            {
                if (Elapsed.ms() - downSinceMs > settings.reconnectTimeoutMs())
                {
                    fail("could not reconnect to " + settings.url() + " within " + settings.reconnectTimeoutMs() +
                        " ms");
                    return;
                }
            }
            reconnects.schedule(() -> reconnect(Math.min(MAX_BACKOFF_MS, backoffMs * 2)), backoffMs,
                TimeUnit.MILLISECONDS);
        }

        private void fail(final String why)
        {
            failed = true;
            failures.add("session " + index + ": " + why);
            say("trader: session " + index + " FAILED: " + why);
        }

        JsonNode request(final String text)
        {
            synchronized (lock)
            {
                reply = null;
                send(text);
            }
            final long deadline = Elapsed.ms() + 10_000;
            while (Elapsed.ms() < deadline)
            {
                synchronized (lock)
                {
                    if (null != reply)
                    {
                        return reply;
                    }
                }
                sleep(5);
            }
            throw new IllegalStateException("session " + index + ": no answer to " + text + " within 10 s");
        }

        boolean isOpen()
        {
            final NioWebSocket webSocket = socket;
            return null != webSocket && !webSocket.isClosed();
        }

        /**
         * Send a message; a connection found closed tells {@link #onClosed} on this thread, inside this call.
         *
         * @return false when nothing was sent.
         */
        boolean send(final String text)
        {
            if (null != socket && socket.send(text))
            {
                lastSentMs = Elapsed.ms();
                return true;
            }
            return false;
        }

        void heartbeatIfDue()
        {
            if (loggedOn && Elapsed.ms() - lastSentMs > heartbeatMs / 2)
            {
                send("{\"type\":\"heartbeat\"}");
            }
        }

        /**
         * The pacer's turn: a cancel of the oldest resting order when there are enough, else a new order: three in
         * ten IOC orders one or two ticks through the reference price, the rest resting one to five ticks away.
         */
        void trade()
        {
            if (!loggedOn || 0 == tick)
            {
                notSentWhileDown++;
                return;
            }
            orders.removeIf((id) -> !checker.isOpen(id));
            int cancellable = 0;
            for (final String id : orders)
            {
                cancellable += checker.isCancellable(id) ? 1 : 0;
            }
            if (cancellable >= settings.maxOpenOrders())
            {
                final String oldest = checker.oldestCancellable(orders);
                // Sent, then recorded: the lock is held, so its answer cannot come in between.
                if (send("{\"type\":\"cancelOrder\",\"clOrdId\":\"" + oldest + "\"}"))
                {
                    checker.onCancelSent(oldest, connection);
                }
                else
                {
                    notSentWhileDown++;
                }
                return;
            }
            final boolean buy = random.nextBoolean();
            final boolean cross = random.nextInt(10) < 3;
            final long offsetTicks = cross ? -1 - random.nextInt(2) : 1 + random.nextInt(5);
            final long price = referencePrice + (buy ? -offsetTicks : offsetTicks) * tick;
            final long quantity = lot * (1 + random.nextInt(5));
            final String id = "T" + index + "-" + (++orderNumber);
            if (send("{\"type\":\"newOrder\",\"clOrdId\":\"" + id + "\",\"account\":" + account +
                ",\"instrument\":" + GatewayClient.quote(settings.instrument()) + ",\"side\":\"" +
                (buy ? "buy" : "sell") + "\",\"quantity\":" + quantity + ",\"price\":\"" +
                GatewayLoad.decimal(price, scale) + "\"" + (cross ? ",\"timeInForce\":\"ioc\"" : "") + "}"))
            {
                orders.add(id);
                checker.onNewOrderSent(id, quantity, cross, index, connection);
            }
            else
            {
                notSentWhileDown++;
            }
        }

        void cancelAll()
        {
            if (!loggedOn)
            {
                return;
            }
            for (final String id : orders)
            {
                if (checker.isCancellable(id) && send("{\"type\":\"cancelOrder\",\"clOrdId\":\"" + id + "\"}"))
                {
                    checker.onCancelSent(id, connection);
                }
            }
        }

        @Override
        public void onMessage(final NioWebSocket webSocket, final byte[] buffer, final int offset, final int length)
        {
            final JsonNode message = JSON.readTree(new String(buffer, offset, length, StandardCharsets.UTF_8));
            synchronized (lock)
            {
                if (webSocket != socket)
                {
                    return;
                }
                onMessage(message);
            }
        }

        private void onMessage(final JsonNode message)
        {
            final String type = message.path("type").asString();
            final long seq = message.path("seq").asLong();
            switch (type)
            {
                case "logon" -> onLogon(message, seq);
                case "logonRejected" -> fail("logon refused: " + message.path("reason").asString());
                case "gapFill" -> check(sequence.onGapFill(seq, message.path("newSeq").asLong()));
                default ->
                {
                    if (seq <= 0)
                    {
                        say("trader: session " + index + ": unnumbered " + message);
                        return;
                    }
                    final boolean fresh = seq >= sequence.resumeFrom();
                    check(sequence.onMessage(seq));
                    if (fresh)
                    {
                        onNumbered(type, message);
                    }
                }
            }
        }

        private void onLogon(final JsonNode message, final long seq)
        {
            final boolean resumed = message.path("resumed").asBoolean();
            final long from = sequence.resumeFrom();
            check(sequence.onLogon(seq, resumed));
            token = message.path("session").asString();
            heartbeatMs = message.path("heartbeatMs").asLong(5_000);
            loggedOn = true;
            connectionDied = false;
            if (resumed)
            {
                resumes++;
                lastResumeMs = Elapsed.ms();
                say("RESUMED trader session=" + index + " from=" + from + " logon_seq=" + seq + " resend=" +
                    message.path("resend").path("from").asLong() + ".." + message.path("resend").path("to").asLong() +
                    " down_ms=" + (lastResumeMs - downSinceMs));
            }
        }

        private void onNumbered(final String type, final JsonNode message)
        {
            switch (type)
            {
                case "executionReport" -> check(checker.onReport(message.path("clOrdId").asString(),
                    message.path("execType").asString(), message.path("execId").asLong(),
                    message.path("reason").asInt(), message.path("lastQuantity").asLong(),
                    message.path("cumQuantity").asLong()));
                case "testRequest" -> send("{\"type\":\"heartbeat\",\"testId\":" +
                    GatewayClient.quote(message.path("testId").asString()) + "}");
                case "instruments" -> reply = message;
                case "error" -> say("trader: session " + index + ": " + message);
                case "logout" ->
                {
                    if (!stopping)
                    {
                        say("trader: session " + index + " logged out by the gateway: " +
                            message.path("reason").asString());
                    }
                }
                default ->
                {
                    // heartbeats, market data: numbered, nothing else to check
                }
            }
        }

        private void check(final String problem)
        {
            if (null != problem)
            {
                say("trader: session " + index + ": " + problem);
            }
        }

        @Override
        public void onClosed(final NioWebSocket webSocket, final String why)
        {
            synchronized (lock)
            {
                if (webSocket != socket)
                {
                    return;
                }
                socket = null;
                final boolean wasLoggedOn = loggedOn;
                loggedOn = false;
                if (stopping || failed)
                {
                    return;
                }
                connectionDied = true;
                disconnects++;
                if (wasLoggedOn || 0 == downSinceMs)
                {
                    downSinceMs = Elapsed.ms();
                }
                say("trader: session " + index + " disconnected (" + why + "); reconnecting");
            }
            reconnects.schedule(() -> reconnect(FIRST_BACKOFF_MS), FIRST_BACKOFF_MS, TimeUnit.MILLISECONDS);
        }
    }
}
