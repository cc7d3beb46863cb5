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

import java.io.Console;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import quickfix.Application;
import quickfix.ConfigError;
import quickfix.DefaultMessageFactory;
import quickfix.Dictionary;
import quickfix.FieldNotFound;
import quickfix.FileStoreFactory;
import quickfix.Message;
import quickfix.SLF4JLogFactory;
import quickfix.Session;
import quickfix.SessionID;
import quickfix.SessionSettings;
import quickfix.SocketInitiator;
import quickfix.field.ClOrdID;
import quickfix.field.MsgType;
import quickfix.field.OrdType;
import quickfix.field.OrigClOrdID;
import quickfix.field.Side;
import quickfix.field.TimeInForce;
import quickfix.field.TransactTime;
import quickfix.fix44.NewOrderSingle;
import quickfix.fix44.OrderCancelRequest;

/**
 * {@code ./warpbus fix-client}: a small FIX 4.4 initiator (QuickFIX/J) for people. It logs on to the gateway's FIX
 * acceptor with a user name and password, places and cancels orders in the order of its options, prints every
 * execution report, cancel reject and reject it receives, lists the orders it placed in this run, and logs out.
 * <pre>
 * WARPBUS_PASSWORD=... ./warpbus fix-client --port PORT --sender COMPID --user NAME --account N
 *     [--host HOST] [--target COMPID] [--password-file FILE | --password-env VAR] [--store DIR] [--reset]
 *     [--buy SYMBOL QTY[@PRICE]] [--sell SYMBOL QTY[@PRICE]] [--cancel CLORDID|all] [--list] [--wait MS]
 * </pre>
 * A quantity without a price is a market order (immediate or cancel), with one a limit order good till cancelled.
 * The password is never taken from the command line, where other users of the host could read it: from the file,
 * the environment variable (default {@code WARPBUS_PASSWORD}), or typed at the console. QuickFIX/J's file store
 * keeps the session's sequence numbers in {@code --store} (default {@code ~/.warpbus/fix-client}), as the gateway
 * keeps its own across logons; {@code --reset} asks for both to start again at 1 (ResetSeqNumFlag (141)).
 * Exit code 0 when every request was accepted, 1 when a logon or a request was refused or not answered, 2 for bad
 * options.
 */
public final class FixClient implements Application
{
    static final int EXIT_OK = 0;
    static final int EXIT_FAILED = 1;
    static final int EXIT_USAGE = 2;
    private static final long ANSWER_WAIT_MS = 5_000;
    private static final String USAGE = "usage: warpbus fix-client --port PORT --sender COMPID --user NAME " +
        "--account N [--host HOST] [--target COMPID] [--password-file FILE | --password-env VAR] [--store DIR] " +
        "[--reset] [--buy SYMBOL QTY[@PRICE]] [--sell SYMBOL QTY[@PRICE]] [--cancel CLORDID|all] [--list] " +
        "[--wait MS] [--logon-timeout MS]";
    private static final Pattern QUANTITY_PRICE = Pattern.compile("([1-9]\\d{0,17})(?:@(\\d{1,12}(?:\\.\\d{1,9})?))?");
    private static final Pattern COMP_ID = Pattern.compile("[A-Za-z0-9._-]{1,32}");

    private final PrintStream out;
    private final PrintStream err;
    private final ClientOptions options;
    private final String password;
    private final SessionID sessionId;
    private final String idPrefix = "fc" + Long.toString(System.currentTimeMillis(), 36);
    private final Map<String, Order> orders = new LinkedHashMap<>();
    private final Map<String, String> cancels = new LinkedHashMap<>();
    private int nextId;
    private String pending;
    private boolean pendingAnswered;
    private boolean pendingRefused;
    private boolean loggedOn;
    private boolean leaving;
    private String logoutText;

    private FixClient(final PrintStream out, final PrintStream err, final ClientOptions options, final String password)
    {
        this.out = out;
        this.err = err;
        this.options = options;
        this.password = password;
        this.sessionId = new SessionID("FIX.4.4", options.sender, options.target);
    }

    /**
     * Run the client.
     *
     * @param args options.
     */
    public static void main(final String[] args)
    {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * Run the client with the given streams.
     *
     * @param args options.
     * @param out  where the reports and the order list go.
     * @param err  where errors go.
     * @return the exit code.
     */
    public static int run(final String[] args, final PrintStream out, final PrintStream err)
    {
        final ClientOptions options;
        final String password;
        try
        {
            options = ClientOptions.parse(args);
            password = password(options);
        }
        catch (final IllegalArgumentException | IOException ex)
        {
            err.println("fix-client: " + ex.getMessage());
            err.println(USAGE);
            return EXIT_USAGE;
        }
        quietLogging();
        final FixClient client = new FixClient(out, err, options, password);
        final SocketInitiator initiator;
        try
        {
            initiator = client.initiator();
            initiator.start();
        }
        catch (final ConfigError | IOException ex)
        {
            err.println("fix-client: cannot start the FIX initiator: " + ex.getMessage());
            return EXIT_FAILED;
        }
        try
        {
            return client.session();
        }
        finally
        {
            initiator.stop(true);
        }
    }

    private int session()
    {
        final String where = options.host + ":" + options.port;
        if (!await(options.logonTimeoutMs, () -> loggedOn || null != logoutText))
        {
            err.println("fix-client: no logon within " + options.logonTimeoutMs + " ms at " + where +
                " (is the gateway's FIX acceptor there, and " + options.sender + " -> " + options.target +
                " a session it knows?)");
            return EXIT_FAILED;
        }
        if (!isLoggedOn())
        {
            err.println("fix-client: logon refused by " + where + ": " + logoutText);
            return EXIT_FAILED;
        }
        out.println("logged on as " + options.user + " (" + options.sender + " -> " + options.target + " at " +
            where + ")");
        boolean ok = true;
        for (final Action action : options.actions)
        {
            ok &= perform(action);
        }
        if (options.waitMs > 0)
        {
            await(options.waitMs, () -> !loggedOn);
        }
        if (options.list)
        {
            printOrders();
        }
        final Session session = Session.lookupSession(sessionId);
        if (null != session && isLoggedOn())
        {
            synchronized (this)
            {
                leaving = true;
            }
            session.logout("fix-client done");
            await(ANSWER_WAIT_MS, () -> !isLoggedOn());
        }
        synchronized (this)
        {
            if (null != logoutText && !leaving)
            {
                err.println("fix-client: logged out by the gateway: " + logoutText);
            }
        }
        out.println("logged out");
        return ok ? EXIT_OK : EXIT_FAILED;
    }

    private boolean perform(final Action action)
    {
        if (!isLoggedOn())
        {
            err.println("fix-client: not logged on any more, " + action + " not sent");
            return false;
        }
        if ("cancel".equals(action.kind))
        {
            final List<Order> targets = new ArrayList<>();
            synchronized (this)
            {
                for (final Order order : orders.values())
                {
                    if (("all".equals(action.clOrdId) || order.clOrdId.equals(action.clOrdId)) && order.isLive())
                    {
                        targets.add(order);
                    }
                }
                if (targets.isEmpty() && !"all".equals(action.clOrdId))
                {
                    err.println("fix-client: cancel " + action.clOrdId + ": no live order of this run has that " +
                        "ClOrdID (fix-client cancels the orders it placed; --list shows them)");
                    return false;
                }
            }
            boolean ok = true;
            for (final Order order : targets)
            {
                ok &= cancel(order);
            }
            return ok;
        }
        final String clOrdId = nextClOrdId();
        final NewOrderSingle message = new NewOrderSingle(new ClOrdID(clOrdId), new Side(action.side),
            new TransactTime(LocalDateTime.now()), new OrdType(null == action.price ? OrdType.MARKET : OrdType.LIMIT));
        message.setString(1, Long.toString(options.account));
        message.setString(55, action.symbol);
        message.setString(38, Long.toString(action.quantity));
        if (null == action.price)
        {
            message.set(new TimeInForce(TimeInForce.IMMEDIATE_OR_CANCEL));
        }
        else
        {
            message.setString(44, action.price);
            message.set(new TimeInForce(TimeInForce.GOOD_TILL_CANCEL));
        }
        synchronized (this)
        {
            orders.put(clOrdId, new Order(clOrdId, action.symbol, action.side, action.quantity, action.price));
        }
        return sendAndAwait(clOrdId, message, action.toString());
    }

    private boolean cancel(final Order order)
    {
        final String clOrdId = nextClOrdId();
        final OrderCancelRequest message = new OrderCancelRequest(new OrigClOrdID(order.clOrdId),
            new ClOrdID(clOrdId), new Side(order.side), new TransactTime(LocalDateTime.now()));
        message.setString(1, Long.toString(options.account));
        message.setString(55, order.symbol);
        message.setString(38, Long.toString(order.quantity));
        synchronized (this)
        {
            cancels.put(clOrdId, order.clOrdId);
        }
        return sendAndAwait(clOrdId, message, "cancel " + order.clOrdId);
    }

    private boolean sendAndAwait(final String clOrdId, final Message message, final String what)
    {
        synchronized (this)
        {
            pending = clOrdId;
            pendingAnswered = false;
            pendingRefused = false;
        }
        final Session session = Session.lookupSession(sessionId);
        if (null == session || !session.send(message))
        {
            err.println("fix-client: " + what + " not sent: the session is not logged on");
            return false;
        }
        out.println("sent " + what + " as " + clOrdId);
        final boolean answered = await(ANSWER_WAIT_MS, () -> pendingAnswered || !loggedOn);
        synchronized (this)
        {
            pending = null;
            if (!answered || !pendingAnswered)
            {
                err.println("fix-client: " + what + " (" + clOrdId + ") not answered within " + ANSWER_WAIT_MS +
                    " ms");
                return false;
            }
            return !pendingRefused;
        }
    }

    private synchronized String nextClOrdId()
    {
        return idPrefix + "-" + ++nextId;
    }

    private synchronized boolean isLoggedOn()
    {
        return loggedOn;
    }

    /**
     * Wait, bounded by a deadline, until a condition read under this object's lock holds.
     */
    private boolean await(final long timeoutMs, final BooleanSupplier condition)
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        synchronized (this)
        {
            while (!condition.getAsBoolean())
            {
                final long leftMs = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (leftMs <= 0)
                {
                    return false;
                }
                try
                {
                    wait(leftMs);
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return true;
        }
    }

    private synchronized void printOrders()
    {
        out.println("orders placed in this run: " + orders.size());
        for (final Order order : orders.values())
        {
            out.println("  " + order);
        }
    }

    private SocketInitiator initiator() throws ConfigError, IOException
    {
        final Path store = options.store.resolve(options.sender + "-" + options.target);
        Files.createDirectories(store);
        final SessionSettings settings = new SessionSettings();
        settings.setString("ConnectionType", "initiator");
        settings.setString("NonStopSession", "Y");
        settings.setString("FileStorePath", store.toString());
        settings.setString("UseDataDictionary", "Y");
        settings.setString("DataDictionary", "FIX44.xml");
        settings.setString("ValidateUserDefinedFields", "N");
        settings.setString("ReconnectInterval", "30");
        settings.setString("HeartBtInt", "30");
        settings.setString("ResetOnLogon", options.reset ? "Y" : "N");
        settings.setString("SocketConnectHost", options.host);
        settings.setString("SocketConnectPort", Integer.toString(options.port));
        settings.set(sessionId, new Dictionary());
        // QuickFIX/J's default log factory prints every message and session event on standard output, between the
        // client's own lines; through SLF4J (quieted to WARN) only its warnings and errors show.
        return new SocketInitiator(this, new FileStoreFactory(settings), settings, new SLF4JLogFactory(settings),
            new DefaultMessageFactory());
    }

    /**
     * QuickFIX/J logs through SLF4J; the client's output is the messages it prints, not QuickFIX/J's debug log.
     */
    private static void quietLogging()
    {
        final org.slf4j.Logger root = org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        if (root instanceof ch.qos.logback.classic.Logger)
        {
            ((ch.qos.logback.classic.Logger)root).setLevel(ch.qos.logback.classic.Level.WARN);
        }
    }

    private static String password(final ClientOptions options) throws IOException
    {
        if (null != options.passwordFile)
        {
            final String fromFile = Files.readString(options.passwordFile).trim();
            if (fromFile.isEmpty())
            {
                throw new IllegalArgumentException("the password file " + options.passwordFile + " is empty");
            }
            return fromFile;
        }
        final String fromEnvironment = System.getenv(options.passwordEnv);
        if (null != fromEnvironment && !fromEnvironment.isEmpty())
        {
            return fromEnvironment;
        }
        final Console console = System.console();
        if (null != console)
        {
            final char[] typed = console.readPassword("password for %s: ", options.user);
            if (null != typed && typed.length > 0)
            {
                return new String(typed);
            }
        }
        throw new IllegalArgumentException("no password: set " + options.passwordEnv + " or give --password-file");
    }

    @Override
    public void onCreate(final SessionID sessionId)
    {
    }

    @Override
    public synchronized void onLogon(final SessionID sessionId)
    {
        loggedOn = true;
        notifyAll();
    }

    @Override
    public synchronized void onLogout(final SessionID sessionId)
    {
        loggedOn = false;
        notifyAll();
    }

    @Override
    public void toAdmin(final Message message, final SessionID sessionId)
    {
        if (MsgType.LOGON.equals(msgType(message)))
        {
            message.setString(553, options.user);
            message.setString(554, password);
        }
    }

    @Override
    public synchronized void fromAdmin(final Message message, final SessionID sessionId)
    {
        final String type = msgType(message);
        if (MsgType.LOGOUT.equals(type))
        {
            // Before the logon, a refusal: the client stops instead of letting QuickFIX/J try again.
            logoutText = null == field(message, 58) ? "(no reason given)" : field(message, 58);
        }
        else if (MsgType.REJECT.equals(type))
        {
            out.println("reject (3) of message " + field(message, 45) + ": " + field(message, 58) +
                (null == field(message, 371) ? "" : " (tag " + field(message, 371) + ")"));
            answerPending(true);
        }
        notifyAll();
    }

    @Override
    public void toApp(final Message message, final SessionID sessionId)
    {
    }

    @Override
    public synchronized void fromApp(final Message message, final SessionID sessionId)
    {
        final String type = msgType(message);
        final String clOrdId = field(message, 11);
        if (MsgType.EXECUTION_REPORT.equals(type))
        {
            executionReport(message, clOrdId);
        }
        else if (MsgType.ORDER_CANCEL_REJECT.equals(type))
        {
            out.println("cancel reject (9) " + clOrdId + " of " + field(message, 41) + ": " + field(message, 58));
            if (null != clOrdId && clOrdId.equals(pending))
            {
                answerPending(true);
            }
        }
        else if (MsgType.BUSINESS_MESSAGE_REJECT.equals(type))
        {
            out.println("business reject (j) " + field(message, 379) + ": " + field(message, 58));
            final Order order = orders.get(field(message, 379));
            if (null != order)
            {
                order.status = '8';
            }
            answerPending(true);
        }
        else
        {
            out.println("message " + type + ": " + message.toString().replace('\u0001', '|'));
        }
        notifyAll();
    }

    private void executionReport(final Message message, final String clOrdId)
    {
        final String orig = field(message, 41);
        Order order = orders.get(clOrdId);
        if (null == order && null != cancels.get(clOrdId))
        {
            order = orders.get(cancels.get(clOrdId));
        }
        if (null == order && null != orig)
        {
            order = orders.get(orig);
        }
        final String status = field(message, 39);
        final char execType = null == field(message, 150) ? '?' : field(message, 150).charAt(0);
        if (null != order)
        {
            order.status = null == status ? '?' : status.charAt(0);
            order.orderId = field(message, 37);
            order.cumQty = field(message, 14);
            order.leavesQty = field(message, 151);
            order.avgPx = field(message, 6);
        }
        final StringBuilder line = new StringBuilder("report ").append(execTypeName(execType)).append(' ')
            .append(clOrdId);
        if (null != orig)
        {
            line.append(" (of ").append(orig).append(')');
        }
        line.append(' ').append(field(message, 55)).append(' ').append("1".equals(field(message, 54)) ? "buy" :
            "sell").append(" status=").append(null == status ? "?" : statusName(status.charAt(0)))
            .append(" cum=").append(field(message, 14)).append(" leaves=").append(field(message, 151))
            .append(" avgPx=").append(field(message, 6));
        if ('F' == execType)
        {
            line.append(" last=").append(field(message, 32)).append('@').append(field(message, 31));
        }
        if (null != field(message, 58))
        {
            line.append(" text=").append(field(message, 58));
        }
        out.println(line);
        if (null != clOrdId && clOrdId.equals(pending))
        {
            answerPending('8' == execType);
        }
    }

    private void answerPending(final boolean refused)
    {
        if (null != pending && !pendingAnswered)
        {
            pendingAnswered = true;
            pendingRefused = refused;
        }
    }

    static String execTypeName(final char execType)
    {
        return switch (execType)
        {
            case '0' -> "new";
            case '4' -> "cancelled";
            case '5' -> "replaced";
            case '6' -> "pendingCancel";
            case '8' -> "rejected";
            case 'C' -> "expired";
            case 'D' -> "restated";
            case 'E' -> "pendingReplace";
            case 'F' -> "trade";
            case 'I' -> "status";
            default -> "execType " + execType;
        };
    }

    static String statusName(final char ordStatus)
    {
        return switch (ordStatus)
        {
            case '0' -> "new";
            case '1' -> "partiallyFilled";
            case '2' -> "filled";
            case '4' -> "cancelled";
            case '5' -> "replaced";
            case '6' -> "pendingCancel";
            case '8' -> "rejected";
            case 'A' -> "pendingNew";
            case 'C' -> "expired";
            case 'E' -> "pendingReplace";
            default -> "ordStatus " + ordStatus;
        };
    }

    private static String msgType(final Message message)
    {
        try
        {
            return message.getHeader().getString(35);
        }
        catch (final FieldNotFound ex)
        {
            return "?";
        }
    }

    private static String field(final Message message, final int tag)
    {
        try
        {
            return message.isSetField(tag) ? message.getString(tag) : null;
        }
        catch (final FieldNotFound ex)
        {
            return null;
        }
    }

    /**
     * An order this run placed, as its last execution report left it.
     */
    private static final class Order
    {
        private final String clOrdId;
        private final String symbol;
        private final char side;
        private final long quantity;
        private final String price;
        private char status = 'A';
        private String orderId;
        private String cumQty = "0";
        private String leavesQty;
        private String avgPx;

        Order(final String clOrdId, final String symbol, final char side, final long quantity, final String price)
        {
            this.clOrdId = clOrdId;
            this.symbol = symbol;
            this.side = side;
            this.quantity = quantity;
            this.price = price;
        }

        boolean isLive()
        {
            return '0' == status || '1' == status || 'A' == status || '5' == status || 'E' == status;
        }

        @Override
        public String toString()
        {
            return clOrdId + " " + symbol + " " + (Side.BUY == side ? "buy" : "sell") + " " + quantity +
                (null == price ? " market" : "@" + price) + " status=" + statusName(status) + " cum=" + cumQty +
                " leaves=" + leavesQty + " avgPx=" + avgPx + " orderId=" + orderId;
        }
    }

    /**
     * One request, in the order the options gave it.
     */
    private record Action(String kind, String symbol, char side, long quantity, String price, String clOrdId)
    {
        @Override
        public String toString()
        {
            return "cancel".equals(kind) ? "cancel " + clOrdId : kind + " " + symbol + " " + quantity +
                (null == price ? " market" : "@" + price);
        }
    }

    /**
     * The parsed command line.
     */
    private static final class ClientOptions
    {
        private String host = "127.0.0.1";
        private int port;
        private String sender;
        private String target = "WARPBUS";
        private String user;
        private long account;
        private Path passwordFile;
        private String passwordEnv = "WARPBUS_PASSWORD";
        private Path store = Path.of(System.getProperty("user.home"), ".warpbus", "fix-client");
        private boolean reset;
        private boolean list;
        private long waitMs = 1_000;
        private long logonTimeoutMs = 10_000;
        private final List<Action> actions = new ArrayList<>();

        static ClientOptions parse(final String[] args)
        {
            final ClientOptions options = new ClientOptions();
            for (int i = 0; i < args.length; i++)
            {
                final String name = args[i];
                switch (name)
                {
                    case "--reset" -> options.reset = true;
                    case "--list" -> options.list = true;
                    case "--buy", "--sell" ->
                    {
                        final String symbol = value(args, i++, name);
                        options.actions.add(order(name, symbol, value(args, i++, name)));
                    }
                    default -> i = options.option(name, value(args, i, name), i + 1);
                }
            }
            if (0 == options.port)
            {
                throw new IllegalArgumentException("--port is required: the gateway's FIX port");
            }
            if (null == options.sender)
            {
                throw new IllegalArgumentException("--sender is required: your SenderCompID (49), a session the " +
                    "gateway is configured with");
            }
            if (null == options.user)
            {
                throw new IllegalArgumentException("--user is required: the gateway user to log on as");
            }
            if (0 == options.account && !options.actions.isEmpty())
            {
                throw new IllegalArgumentException("--account is required to place or cancel orders: the account " +
                    "(1) the orders are for");
            }
            return options;
        }

        private int option(final String name, final String value, final int next)
        {
            switch (name)
            {
                case "--host" -> host = value;
                case "--port" -> port = (int)number(name, value, 1, 65535);
                case "--sender" -> sender = compId(name, value);
                case "--target" -> target = compId(name, value);
                case "--user" -> user = value;
                case "--account" -> account = number(name, value, 1, Long.MAX_VALUE);
                case "--password-file" -> passwordFile = Path.of(value);
                case "--password-env" -> passwordEnv = value;
                case "--store" -> store = Path.of(value);
                case "--wait" -> waitMs = number(name, value, 0, 3_600_000);
                case "--logon-timeout" -> logonTimeoutMs = number(name, value, 1, 3_600_000);
                case "--cancel" -> actions.add(new Action("cancel", null, Side.BUY, 0, null, value));
                case "--password" -> throw new IllegalArgumentException("the password is never taken from the " +
                    "command line, where other users could read it: use WARPBUS_PASSWORD or --password-file");
                default -> throw new IllegalArgumentException("unknown option " + name);
            }
            return next;
        }

        private static Action order(final String name, final String symbol, final String quantityPrice)
        {
            final Matcher matcher = QUANTITY_PRICE.matcher(quantityPrice);
            if (!matcher.matches())
            {
                throw new IllegalArgumentException(name + " " + symbol + " " + quantityPrice + ": expected QTY or " +
                    "QTY@PRICE, e.g. 10@99.50 (a whole quantity above 0, a decimal price)");
            }
            return new Action(name.substring(2), symbol.toUpperCase(Locale.ROOT), "--buy".equals(name) ? Side.BUY :
                Side.SELL, Long.parseLong(matcher.group(1)), matcher.group(2), null);
        }

        private static String value(final String[] args, final int index, final String name)
        {
            if (index + 1 >= args.length || args[index + 1].startsWith("--"))
            {
                if (!name.startsWith("--"))
                {
                    throw new IllegalArgumentException("unexpected argument " + name);
                }
                throw new IllegalArgumentException(name + " needs a value");
            }
            return args[index + 1];
        }

        private static String compId(final String name, final String value)
        {
            if (!COMP_ID.matcher(value).matches())
            {
                throw new IllegalArgumentException(name + " " + value + ": a CompID is 1 to 32 of A-Z a-z 0-9 . _ -");
            }
            return value;
        }

        private static long number(final String name, final String value, final long min, final long max)
        {
            try
            {
                final long number = Long.parseLong(value);
                if (number < min || number > max)
                {
                    throw new IllegalArgumentException(name + " " + value + " is out of range " + min + " to " + max);
                }
                return number;
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException(name + " " + value + " is not a whole number");
            }
        }
    }
}
