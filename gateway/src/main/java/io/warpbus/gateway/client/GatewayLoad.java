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
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.warpbus.gateway.client.NioWebSockets.NioWebSocket;
import io.warpbus.gateway.security.Authenticator;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Many WebSocket sessions on one gateway, as trading apps would hold them: every session logs on (password or
 * signed API key), subscribes to market data and answers the gateway's test requests; the first
 * {@code orderingSessions} also trade at a combined rate, keeping a few resting orders each near the last trade and
 * now and then crossing the spread, and measure each request's round trip from the moment the client sends it to its
 * first execution report. Used by the demo's gateway load and by {@code ./warpbus bench gateway}.
 * <p>
 * The sessions are {@link NioWebSockets} connections read by two selector threads. Messages are recognised by their
 * leading {@code "type"}, market data without decoding it to text, and the few fields the load needs are read with
 * string searches, so that the clients' own parsing does not hide how fast the gateway is.
 */
public final class GatewayLoad implements AutoCloseable
{
    private static final int MAX_CONNECTS_IN_FLIGHT = 64;
    private static final long CONNECT_TIMEOUT_MS = 60_000;
    private static final int SOCKET_TIMEOUT_MS = 10_000;
    private static final byte[] BOOK_UPDATE = typePrefix("bookUpdate");
    private static final byte[] BOOK = typePrefix("book");
    private static final byte[] TRADE = typePrefix("trade");
    private static final byte[] CONFLATED = "\"reason\":\"conflated\"".getBytes(StandardCharsets.US_ASCII);
    private static final Set<String> TERMINAL = Set.of("filled", "cancelled", "rejected", "expired");

    private final Settings settings;
    private final NioWebSockets sockets;
    private final List<LoadSession> sessions = new ArrayList<>();
    private final Map<String, Instrument> instruments = new ConcurrentHashMap<>();
    private final Recorder roundTrips = new Recorder(TimeUnit.SECONDS.toNanos(60), 3);
    private final Histogram totalRoundTrips = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
    private final AtomicLong marketDataMessages = new AtomicLong();
    private final AtomicLong conflatedBooks = new AtomicLong();
    private final AtomicLong requestsSent = new AtomicLong();
    private final AtomicLong requestsAnswered = new AtomicLong();
    private final AtomicLong rejects = new AtomicLong();
    private final AtomicLong fills = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicLong unexpectedCloses = new AtomicLong();
    private final AtomicInteger loggedOn = new AtomicInteger();
    private final Map<String, Integer> closeReasons = new ConcurrentHashMap<>();
    private volatile boolean running = true;
    private Thread pacer;

    /**
     * Who a session logs on as.
     *
     * @param user     user name for a password logon, or null.
     * @param password its password.
     * @param apiKey   API key id for a signed logon, or null.
     * @param secret   the key's secret.
     * @param account  the account its orders go to.
     */
    public record Login(String user, String password, String apiKey, byte[] secret, long account)
    {
        @Override
        public String toString()
        {
            return "Login[" + (null == apiKey ? user : apiKey) + ", account " + account + "]";
        }
    }

    /**
     * What to run.
     *
     * @param url              the gateway's WebSocket URL.
     * @param logins           session i logs on as {@code logins.get(i % size)}.
     * @param sessions         sessions to hold.
     * @param orderingSessions how many of them trade.
     * @param ordersPerSecond  requests per second across the ordering sessions (new orders and cancels).
     * @param subscriptions    instruments each session subscribes to: session i takes
     *                         {@code subscriptionsPerSession} of these, starting at {@code i % size}.
     * @param subscriptionsPerSession instruments per session.
     * @param referencePrices  where each instrument's prices start (decimal text), until trades move them.
     * @param maxOpenOrders    resting orders an ordering session keeps before it cancels its oldest.
     * @param heartbeatMs      heartbeat interval asked for at logon.
     * @param seed             of the order flow.
     */
    @SuppressWarnings("checkstyle:parameternumber")
    public record Settings(URI url, List<Login> logins, int sessions, int orderingSessions, long ordersPerSecond,
        List<String> subscriptions, int subscriptionsPerSession, Map<String, String> referencePrices,
        int maxOpenOrders, long heartbeatMs, long seed)
    {
    }

    /**
     * What the load saw since the last call (round trips) or since the start (the rest).
     *
     * @param sessionsLoggedOn   sessions logged on now.
     * @param requestsSent       order requests sent.
     * @param requestsAnswered   of those, answered.
     * @param rejects            answers that were rejects.
     * @param fills              fills received.
     * @param marketDataMessages books, updates and trades received.
     * @param conflatedBooks     books received because the gateway conflated a session's updates.
     * @param errors             error messages received.
     * @param unexpectedCloses   sessions the gateway closed or lost.
     * @param closeReasons       why, with counts.
     * @param roundTrips         request round trips in nanoseconds, since the last snapshot.
     */
    public record Snapshot(int sessionsLoggedOn, long requestsSent, long requestsAnswered, long rejects, long fills,
        long marketDataMessages, long conflatedBooks, long errors, long unexpectedCloses,
        Map<String, Integer> closeReasons, Histogram roundTrips)
    {
    }

    private record Instrument(String symbol, long tick, long lot, int scale, AtomicLong last)
    {
    }

    /**
     * Connect and log on every session (at most {@value #MAX_CONNECTS_IN_FLIGHT} logons in flight), subscribe them,
     * and start trading.
     *
     * @param settings what to run.
     * @throws IllegalStateException naming the first session that could not log on.
     */
    public GatewayLoad(final Settings settings)
    {
        if (settings.logins().isEmpty() || settings.orderingSessions() > settings.sessions())
        {
            throw new IllegalArgumentException("need at least one login and no more ordering sessions than sessions");
        }
        this.settings = settings;
        try
        {
            this.sockets = new NioWebSockets(2, "gateway-load-io");
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot open the load's selectors", ex);
        }
        try
        {
            connectAll();
            loadInstruments();
            for (final LoadSession session : sessions)
            {
                session.subscribe();
            }
        }
        catch (final RuntimeException ex)
        {
            close();
            throw ex;
        }
        pacer = new Thread(this::pace, "gateway-load-pacer");
        pacer.setDaemon(true);
        pacer.start();
    }

    /**
     * What the load saw; round trips since the previous snapshot.
     *
     * @return the figures.
     */
    public Snapshot snapshot()
    {
        final Histogram interval = roundTrips.getIntervalHistogram();
        synchronized (totalRoundTrips)
        {
            totalRoundTrips.add(interval);
        }
        return new Snapshot(loggedOn.get(), requestsSent.get(), requestsAnswered.get(), rejects.get(), fills.get(),
            marketDataMessages.get(), conflatedBooks.get(), errors.get(), unexpectedCloses.get(),
            Map.copyOf(closeReasons), interval);
    }

    /**
     * Every round trip since the start, up to the last {@link #snapshot()}.
     *
     * @return a copy.
     */
    public Histogram totalRoundTrips()
    {
        synchronized (totalRoundTrips)
        {
            return totalRoundTrips.copy();
        }
    }

    /**
     * Stop sending orders and wait, at most {@code timeoutMs}, until every request sent has its answer.
     *
     * @param timeoutMs how long to wait.
     * @return true when every request was answered.
     * @throws InterruptedException if interrupted.
     */
    public boolean stopOrdering(final long timeoutMs) throws InterruptedException
    {
        running = false;
        if (null != pacer)
        {
            pacer.join(5_000);
        }
        final long deadline = Elapsed.ms() + timeoutMs;
        while (requestsAnswered.get() < requestsSent.get() && Elapsed.ms() < deadline)
        {
            Thread.sleep(10);
        }
        return requestsAnswered.get() >= requestsSent.get();
    }

    @Override
    public void close()
    {
        running = false;
        for (final LoadSession session : sessions)
        {
            session.logout();
        }
        // The gateway ends a logged-out session by closing its socket: give them all a moment to go cleanly.
        final long deadline = Elapsed.ms() + 2_000;
        for (final LoadSession session : sessions)
        {
            while (session.isOpen() && Elapsed.ms() < deadline)
            {
                try
                {
                    Thread.sleep(5);
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        sockets.close();
    }

    private void connectAll()
    {
        final Semaphore inFlight = new Semaphore(MAX_CONNECTS_IN_FLIGHT);
        final List<CompletableFuture<LoadSession>> pending = new ArrayList<>();
        for (int i = 0; i < settings.sessions(); i++)
        {
            inFlight.acquireUninterruptibly();
            final LoadSession session = new LoadSession(i, settings.logins().get(i % settings.logins().size()),
                i < settings.orderingSessions());
            sessions.add(session);
            pending.add(session.connect().whenComplete((ignored, error) -> inFlight.release()));
            if (pending.get(pending.size() - 1).isCompletedExceptionally())
            {
                break;
            }
        }
        for (final CompletableFuture<LoadSession> future : pending)
        {
            try
            {
                future.get(CONNECT_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            }
            catch (final Exception ex)
            {
                throw new IllegalStateException("a load session did not log on: " + ex.getMessage(), ex);
            }
        }
    }

    /**
     * Ask for the instruments until the gateway knows every one the load trades (a gateway learns them from the
     * engine's market data, so just after a start it may know none yet), for at most {@value #CONNECT_TIMEOUT_MS} ms.
     */
    private void loadInstruments()
    {
        final LoadSession first = sessions.get(0);
        final long deadline = Elapsed.ms() + CONNECT_TIMEOUT_MS;
        String reply = "";
        while (true)
        {
            first.instrumentsReply = new CompletableFuture<>();
            first.send("{\"type\":\"instruments\"}");
            try
            {
                reply = first.instrumentsReply.get(10, TimeUnit.SECONDS);
            }
            catch (final Exception ex)
            {
                throw new IllegalStateException("no answer to the instruments request: " + ex.getMessage(), ex);
            }
            parseInstruments(reply);
            if (instruments.keySet().containsAll(settings.subscriptions()))
            {
                return;
            }
            if (Elapsed.ms() > deadline)
            {
                throw new IllegalStateException("instruments " + settings.subscriptions() + " are not all traded " +
                    "on the gateway (or have no reference price) after " + CONNECT_TIMEOUT_MS + " ms; instruments: " +
                    reply);
            }
            try
            {
                Thread.sleep(250);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the gateway's instruments");
            }
        }
    }

    private void parseInstruments(final String reply)
    {
        int from = 0;
        while ((from = reply.indexOf("{\"symbol\":", from)) >= 0)
        {
            final String symbol = field(reply, from, "symbol");
            final int scale = (int)number(reply, from, "priceScale");
            final long tick = units(field(reply, from, "tickSize"), scale);
            final long lot = number(reply, from, "lotSize");
            final String reference = settings.referencePrices().get(symbol);
            if (null != reference && !instruments.containsKey(symbol))
            {
                instruments.put(symbol, new Instrument(symbol, tick, lot, scale, new AtomicLong(
                    units(reference, scale) / tick * tick)));
            }
            from++;
        }
    }

    private void pace()
    {
        final int ordering = settings.orderingSessions();
        if (0 == ordering || settings.ordersPerSecond() <= 0)
        {
            return;
        }
        final long startNs = System.nanoTime();
        long sent = 0;
        int next = 0;
        while (running)
        {
            final long due = (System.nanoTime() - startNs) * settings.ordersPerSecond() / 1_000_000_000L;
            // A stall (a GC, the machine busy) is not made up in a burst beyond one tenth of a second's worth.
            if (due - sent > settings.ordersPerSecond() / 10 + 1)
            {
                sent = due - settings.ordersPerSecond() / 10 - 1;
            }
            while (sent < due && running)
            {
                sessions.get(next).trade();
                next = (next + 1) % ordering;
                sent++;
            }
            try
            {
                Thread.sleep(1);
            }
            catch (final InterruptedException ex)
            {
                return;
            }
        }
    }

    static String field(final String text, final int from, final String name)
    {
        final String key = "\"" + name + "\":\"";
        final int start = text.indexOf(key, from);
        if (start < 0)
        {
            return null;
        }
        final int valueStart = start + key.length();
        return text.substring(valueStart, text.indexOf('"', valueStart));
    }

    static long number(final String text, final int from, final String name)
    {
        final String key = "\"" + name + "\":";
        final int start = text.indexOf(key, from);
        if (start < 0)
        {
            return 0;
        }
        int end = start + key.length();
        while (end < text.length() && (Character.isDigit(text.charAt(end)) || '-' == text.charAt(end)))
        {
            end++;
        }
        return Long.parseLong(text.substring(start + key.length(), end));
    }

    static long units(final String decimal, final int scale)
    {
        return new BigDecimal(decimal).movePointRight(scale).longValueExact();
    }

    static String decimal(final long units, final int scale)
    {
        return BigDecimal.valueOf(units, scale).toPlainString();
    }

    private static byte[] typePrefix(final String type)
    {
        return ("{\"type\":\"" + type + "\"").getBytes(StandardCharsets.US_ASCII);
    }

    private static boolean startsWith(final byte[] buffer, final int offset, final int length, final byte[] prefix)
    {
        if (length < prefix.length)
        {
            return false;
        }
        for (int i = 0; i < prefix.length; i++)
        {
            if (buffer[offset + i] != prefix[i])
            {
                return false;
            }
        }
        return true;
    }

    private static boolean contains(final byte[] buffer, final int offset, final int length, final byte[] part)
    {
        final int last = offset + length - part.length;
        for (int i = offset; i <= last; i++)
        {
            if (buffer[i] == part[0] && startsWith(buffer, i, part.length, part))
            {
                return true;
            }
        }
        return false;
    }

    private static String type(final String message)
    {
        // Every message the gateway sends starts {"type":"NAME",
        if (!message.startsWith("{\"type\":\""))
        {
            return "";
        }
        return message.substring(9, message.indexOf('"', 9));
    }

    /**
     * One session: its socket, its open orders and its requests awaiting an answer.
     */
    private final class LoadSession implements NioWebSockets.Listener
    {
        private final int index;
        private final Login login;
        private final boolean ordering;
        private final SplittableRandom random;
        private final CompletableFuture<LoadSession> loggedOnFuture = new CompletableFuture<>();
        private final Map<String, Long> awaiting = new ConcurrentHashMap<>();
        private final Set<String> open = new LinkedHashSet<>();
        private final AtomicLong orderNumber = new AtomicLong();
        private volatile NioWebSocket socket;
        private volatile boolean isLoggedOn;
        private volatile boolean loggingOut;
        private volatile CompletableFuture<String> instrumentsReply;
        private long lastHeartbeatMs = Elapsed.ms();

        LoadSession(final int index, final Login login, final boolean ordering)
        {
            this.index = index;
            this.login = login;
            this.ordering = ordering;
            this.random = new SplittableRandom(settings.seed() * 1_000_003L + index);
        }

        CompletableFuture<LoadSession> connect()
        {
            try
            {
                socket = sockets.connect(settings.url(), this, SOCKET_TIMEOUT_MS);
                send(logonMessage());
            }
            catch (final IOException | RuntimeException ex)
            {
                loggedOnFuture.completeExceptionally(new IllegalStateException("session " + index + " could not " +
                    "connect to " + settings.url() + ": " + ex.getMessage(), ex));
            }
            return loggedOnFuture;
        }

        boolean isOpen()
        {
            final NioWebSocket webSocket = socket;
            return null != webSocket && !webSocket.isClosed();
        }

        private String logonMessage()
        {
            if (null != login.apiKey())
            {
                final long timestamp = System.currentTimeMillis();
                final byte[] nonceBytes = new byte[12];
                new SecureRandom().nextBytes(nonceBytes);
                final String nonce = HexFormat.of().formatHex(nonceBytes);
                return "{\"type\":\"logon\",\"apiKey\":\"" + login.apiKey() + "\",\"timestamp\":" + timestamp +
                    ",\"nonce\":\"" + nonce + "\",\"signature\":\"" + HexFormat.of().formatHex(
                    Authenticator.sign(login.secret(), login.apiKey(), timestamp, nonce)) + "\",\"heartbeatMs\":" +
                    settings.heartbeatMs() + "}";
            }
            return "{\"type\":\"logon\",\"username\":" + GatewayClient.quote(login.user()) + ",\"password\":" +
                GatewayClient.quote(login.password()) + ",\"heartbeatMs\":" + settings.heartbeatMs() + "}";
        }

        void subscribe()
        {
            final List<String> symbols = settings.subscriptions();
            for (int i = 0; i < Math.min(settings.subscriptionsPerSession(), symbols.size()); i++)
            {
                send("{\"type\":\"subscribe\",\"instrument\":\"" + symbols.get((index + i) % symbols.size()) +
                    "\"}");
            }
        }

        /**
         * The pacer's turn: one request, a cancel of the oldest resting order when there are enough, else a new
         * order; and a heartbeat when one is due.
         */
        void trade()
        {
            if (!isLoggedOn)
            {
                return;
            }
            final String cancel;
            synchronized (open)
            {
                cancel = open.size() >= settings.maxOpenOrders() ? open.iterator().next() : null;
                if (null != cancel)
                {
                    open.remove(cancel);
                }
            }
            final long now = System.nanoTime();
            if (null != cancel)
            {
                awaiting.put(cancel, now);
                requestsSent.incrementAndGet();
                send("{\"type\":\"cancelOrder\",\"clOrdId\":\"" + cancel + "\"}");
                return;
            }
            final List<String> symbols = settings.subscriptions();
            final Instrument instrument = instruments.get(symbols.get((index + random.nextInt(Math.max(1,
                settings.subscriptionsPerSession()))) % symbols.size()));
            final boolean buy = random.nextBoolean();
            final boolean cross = random.nextInt(10) < 3;
            final long offsetTicks = cross ? -1 - random.nextInt(2) : 1 + random.nextInt(5);
            final long price = Math.max(instrument.tick(), instrument.last().get() +
                (buy ? -offsetTicks : offsetTicks) * instrument.tick());
            final String id = "L" + index + "-" + orderNumber.incrementAndGet();
            awaiting.put(id, now);
            requestsSent.incrementAndGet();
            send("{\"type\":\"newOrder\",\"clOrdId\":\"" + id + "\",\"account\":" + login.account() +
                ",\"instrument\":\"" + instrument.symbol() + "\",\"side\":\"" + (buy ? "buy" : "sell") +
                "\",\"quantity\":" + instrument.lot() * (1 + random.nextInt(5)) + ",\"price\":\"" +
                decimal(price, instrument.scale()) + "\"" + (cross ? ",\"timeInForce\":\"ioc\"" : "") + "}");
        }

        void send(final String text)
        {
            final NioWebSocket webSocket = socket;
            if (null != webSocket)
            {
                lastHeartbeatMs = Elapsed.ms();
                webSocket.send(text);
            }
        }

        void logout()
        {
            loggingOut = true;
            if (isLoggedOn)
            {
                send("{\"type\":\"logout\"}");
            }
        }

        @Override
        public void onMessage(final NioWebSocket webSocket, final byte[] buffer, final int offset, final int length)
        {
            // Market data, by far the most of what arrives, is counted from its bytes; a trade's price matters only
            // to the sessions that place orders near it.
            if (startsWith(buffer, offset, length, BOOK_UPDATE))
            {
                marketDataMessages.incrementAndGet();
            }
            else if (startsWith(buffer, offset, length, BOOK))
            {
                marketDataMessages.incrementAndGet();
                if (contains(buffer, offset, length, CONFLATED))
                {
                    conflatedBooks.incrementAndGet();
                }
            }
            else if (startsWith(buffer, offset, length, TRADE))
            {
                marketDataMessages.incrementAndGet();
                if (ordering)
                {
                    final String message = new String(buffer, offset, length, StandardCharsets.UTF_8);
                    final Instrument instrument = instruments.get(field(message, 0, "instrument"));
                    if (null != instrument)
                    {
                        instrument.last().set(units(field(message, 0, "price"), instrument.scale()));
                    }
                }
            }
            else
            {
                onMessage(new String(buffer, offset, length, StandardCharsets.UTF_8));
            }
            if (isLoggedOn && Elapsed.ms() - lastHeartbeatMs > settings.heartbeatMs() / 2)
            {
                send("{\"type\":\"heartbeat\"}");
            }
        }

        private void onMessage(final String message)
        {
            final String type = type(message);
            switch (type)
            {
                case "executionReport" -> onReport(message);
                case "testRequest" -> send("{\"type\":\"heartbeat\",\"testId\":\"" + field(message, 0, "testId") +
                    "\"}");
                case "logon" ->
                {
                    isLoggedOn = true;
                    loggedOn.incrementAndGet();
                    loggedOnFuture.complete(this);
                }
                case "logonRejected" -> loggedOnFuture.completeExceptionally(new IllegalStateException(
                    "session " + index + " (" + login + "): logon refused: " + field(message, 0, "reason")));
                case "instruments" ->
                {
                    final CompletableFuture<String> reply = instrumentsReply;
                    if (null != reply)
                    {
                        reply.complete(message);
                    }
                }
                case "error" -> errors.incrementAndGet();
                default ->
                {
                    // heartbeat, subscribed, gapFill, logout: nothing to do
                }
            }
        }

        private void onReport(final String message)
        {
            final String id = field(message, 0, "clOrdId");
            final String execType = field(message, 0, "execType");
            final Long sentNs = awaiting.remove(id);
            if (null != sentNs)
            {
                roundTrips.recordValue(Math.min(System.nanoTime() - sentNs, TimeUnit.SECONDS.toNanos(60)));
                requestsAnswered.incrementAndGet();
                if (execType.endsWith("ejected"))
                {
                    rejects.incrementAndGet();
                }
            }
            if ("filled".equals(execType) || "partiallyFilled".equals(execType))
            {
                fills.incrementAndGet();
            }
            final String status = field(message, 0, "orderStatus");
            synchronized (open)
            {
                if (TERMINAL.contains(status))
                {
                    open.remove(id);
                }
                else if ("new".equals(execType) && message.contains("\"timeInForce\":\"gtc\""))
                {
                    open.add(id);
                }
            }
        }

        @Override
        public void onClosed(final NioWebSocket webSocket, final String why)
        {
            if (isLoggedOn)
            {
                isLoggedOn = false;
                loggedOn.decrementAndGet();
            }
            if (!loggingOut)
            {
                unexpectedCloses.incrementAndGet();
                closeReasons.merge(why, 1, Integer::sum);
                System.err.println("gateway load: session " + index + " (" + login + ") closed: " + why);
                loggedOnFuture.completeExceptionally(new IllegalStateException("session " + index + " closed: " +
                    why));
            }
            // Requests this session will never see answered are not waited for.
            requestsAnswered.addAndGet(awaiting.size());
            awaiting.clear();
        }
    }
}
