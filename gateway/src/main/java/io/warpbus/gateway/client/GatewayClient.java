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

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.warpbus.gateway.security.Authenticator;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code ./warpbus client}: a small command-line client of the gateway's WebSocket protocol, for people and scripts.
 * It logs on (password or API key), keeps the session alive, subscribes, places, amends and cancels orders and
 * lists them, and prints every message it receives as one line.
 * <pre>
 * ./warpbus client --url ws://HOST:PORT/ws --user NAME [--password-env VAR | --password-file FILE]
 *                  [--api-key ID --secret-file FILE] [--subscribe SYMBOL,...] [--account N] [--json]
 *                  [--command "buy ACME 10 @ 100.25; orders" --wait MS]
 * </pre>
 * Without {@code --command} it reads commands from standard input, one per line:
 * {@code buy|sell SYMBOL QUANTITY [@ PRICE] [ioc|fok] [post-only] [account N] [id ID]}, {@code cancel ID},
 * {@code amend ID PRICE QUANTITY}, {@code orders}, {@code instruments}, {@code subscribe SYMBOL},
 * {@code unsubscribe SYMBOL}, {@code logout}. The password is never taken from the command line, where other users
 * could read it: from the environment variable {@code --password-env} names (default {@code WARPBUS_PASSWORD}), a file,
 * or the console. Exit code 0 after a clean logout or the end of the commands, 1 when the logon is refused or the
 * connection is lost, 2 for bad options.
 */
public final class GatewayClient implements WebSocket.Listener
{
    static final int EXIT_OK = 0;
    static final int EXIT_FAILED = 1;
    static final int EXIT_USAGE = 2;
    private static final int NORMAL_CLOSE = 1000;
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Set<String> ORDER_REQUESTS = Set.of("newOrder", "cancelOrder", "replaceOrder");
    private static final long ANSWER_WAIT_MS = 5_000;

    private final PrintStream out;
    private final boolean json;
    private final long defaultAccount;
    private final StringBuilder partial = new StringBuilder();
    private final CountDownLatch loggedOn = new CountDownLatch(1);
    private final CountDownLatch closed = new CountDownLatch(1);
    private final AtomicLong lastSeq = new AtomicLong();
    private final AtomicInteger nextOrder = new AtomicInteger();
    private final Map<String, Integer> awaiting = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor((task) ->
    {
        final Thread thread = new Thread(task, "warpbus-client-heartbeat");
        thread.setDaemon(true);
        return thread;
    });
    private volatile WebSocket socket;
    private volatile boolean refused;
    private volatile boolean loggedOut;
    private volatile long heartbeatMs;

    GatewayClient(final PrintStream out, final boolean json, final long defaultAccount)
    {
        this.out = out;
        this.json = json;
        this.defaultAccount = defaultAccount;
    }

    /**
     * Run the client.
     *
     * @param args options.
     */
    public static void main(final String[] args)
    {
        System.exit(run(args, System.out, System.err, System.in));
    }

    /**
     * Run the client with the given streams.
     *
     * @param args options.
     * @param out  where received messages go.
     * @param err  where errors go.
     * @param in   commands, when no {@code --command} is given.
     * @return the exit code.
     */
    @SuppressWarnings("checkstyle:MethodLength")
    public static int run(final String[] args, final PrintStream out, final PrintStream err, final InputStream in)
    {
        final ClientOptions options;
        try
        {
            options = ClientOptions.parse(args);
        }
        catch (final IllegalArgumentException ex)
        {
            err.println("client: " + ex.getMessage());
            err.println(ClientOptions.USAGE);
            return EXIT_USAGE;
        }
        final String logon;
        try
        {
            logon = logonMessage(options);
        }
        catch (final IllegalArgumentException | IOException ex)
        {
            err.println("client: " + ex.getMessage());
            return EXIT_USAGE;
        }
        final GatewayClient client = new GatewayClient(out, options.json(), options.account());
        try
        {
            client.connectedTo(HttpClient.newHttpClient().newWebSocketBuilder()
                .connectTimeout(Duration.ofSeconds(10)).buildAsync(URI.create(options.url()), client)
                .get(15, TimeUnit.SECONDS));
        }
        catch (final Exception ex)
        {
            err.println("client: cannot connect to " + options.url() + ": " + ex.getMessage());
            return EXIT_FAILED;
        }
        client.send(logon);
        try
        {
            if (!client.loggedOn.await(15, TimeUnit.SECONDS) || client.refused)
            {
                err.println("client: logon " + (client.refused ? "refused" : "not answered within 15 s"));
                return EXIT_FAILED;
            }
            for (final String symbol : options.subscriptions())
            {
                client.send("{\"type\":\"subscribe\",\"instrument\":\"" + symbol + "\"}");
            }
            if (null != options.commands())
            {
                for (final String command : options.commands().split(";"))
                {
                    client.command(command.trim(), err);
                }
                client.awaitAnswers();
                client.closed.await(options.waitMs(), TimeUnit.MILLISECONDS);
            }
            else
            {
                final BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
                String line;
                while (client.closed.getCount() > 0 && null != (line = reader.readLine()))
                {
                    client.command(line.trim(), err);
                }
                client.awaitAnswers();
                client.closed.await(2, TimeUnit.SECONDS);
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        catch (final IOException ex)
        {
            err.println("client: " + ex.getMessage());
        }
        final boolean lost = client.closed.getCount() == 0 && !client.loggedOut;
        client.timer.shutdownNow();
        client.socket.abort();
        return lost ? EXIT_FAILED : EXIT_OK;
    }

    static String logonMessage(final ClientOptions options) throws IOException
    {
        if (null != options.apiKey())
        {
            if (null == options.secretFile())
            {
                throw new IllegalArgumentException("--api-key needs --secret-file (the base64 secret)");
            }
            final byte[] secret = Base64.getDecoder().decode(Files.readString(options.secretFile()).trim());
            final long timestamp = System.currentTimeMillis();
            final byte[] nonceBytes = new byte[16];
            new SecureRandom().nextBytes(nonceBytes);
            final String nonce = HexFormat.of().formatHex(nonceBytes);
            final String signature = HexFormat.of().formatHex(Authenticator.sign(secret, options.apiKey(),
                timestamp, nonce));
            return "{\"type\":\"logon\",\"apiKey\":\"" + options.apiKey() + "\",\"timestamp\":" + timestamp +
                ",\"nonce\":\"" + nonce + "\",\"signature\":\"" + signature + "\",\"heartbeatMs\":" +
                options.heartbeatMs() + "}";
        }
        if (null == options.user())
        {
            throw new IllegalArgumentException("--user or --api-key is required");
        }
        final String password = password(options);
        return "{\"type\":\"logon\",\"username\":" + quote(options.user()) + ",\"password\":" + quote(password) +
            ",\"heartbeatMs\":" + options.heartbeatMs() + "}";
    }

    private static String password(final ClientOptions options) throws IOException
    {
        if (null != options.passwordFile())
        {
            return Files.readString(options.passwordFile()).trim();
        }
        final String fromEnvironment = System.getenv(options.passwordEnv());
        if (null != fromEnvironment)
        {
            return fromEnvironment;
        }
        if (null != System.console())
        {
            final char[] typed = System.console().readPassword("password for %s: ", options.user());
            if (null != typed)
            {
                return new String(typed);
            }
        }
        throw new IllegalArgumentException("no password: set " + options.passwordEnv() + " or give --password-file");
    }

    /**
     * Turn one command line into a request and send it.
     */
    void command(final String line, final PrintStream err)
    {
        if (line.isEmpty() || line.startsWith("#"))
        {
            return;
        }
        try
        {
            final String request = ClientCommands.toJson(line, defaultAccount, nextOrder);
            final JsonNode parsed = JSON.readTree(request);
            final String type = parsed.path("type").asString();
            if ("logout".equals(type))
            {
                awaitAnswers();
            }
            if (ORDER_REQUESTS.contains(type))
            {
                awaiting.merge(parsed.path("clOrdId").asString(), 1, Integer::sum);
            }
            send(request);
        }
        catch (final IllegalArgumentException ex)
        {
            err.println("client: " + ex.getMessage());
        }
    }

    /**
     * Wait, for at most {@link #ANSWER_WAIT_MS}, until every order request sent has its first execution report, so
     * a script's logout does not overtake the answers to the orders before it.
     */
    void awaitAnswers()
    {
        final long deadline = Elapsed.ms() + ANSWER_WAIT_MS;
        while (!awaiting.isEmpty() && closed.getCount() > 0 && Elapsed.ms() < deadline)
        {
            try
            {
                Thread.sleep(5);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    void connectedTo(final WebSocket socket)
    {
        this.socket = socket;
    }

    /**
     * Send one message and wait until it is written. Three threads send: the commands', the heartbeat timer's and the
     * listener's (answering a test request); a WebSocket takes one send at a time and fails a second while the first
     * is pending ("Send pending"), so they take turns.
     */
    synchronized void send(final String text)
    {
        socket.sendText(text, true).join();
    }

    @Override
    public void onOpen(final WebSocket webSocket)
    {
        webSocket.request(1);
    }

    @Override
    public CompletionStage<?> onText(final WebSocket webSocket, final CharSequence data, final boolean last)
    {
        partial.append(data);
        if (last)
        {
            final String text = partial.toString();
            partial.setLength(0);
            onMessage(text);
        }
        webSocket.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onClose(final WebSocket webSocket, final int statusCode, final String reason)
    {
        out.println("closed " + statusCode + (reason.isEmpty() ? "" : " " + reason));
        if (NORMAL_CLOSE == statusCode && "logout".equals(reason))
        {
            // The close says it too: the logout message itself is dropped when the session's queue has no room
            // (a client behind on its market data), the close that follows it is not.
            loggedOut = true;
        }
        closed.countDown();
        loggedOn.countDown();
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public void onError(final WebSocket webSocket, final Throwable error)
    {
        out.println("connection lost: " + error.getMessage());
        closed.countDown();
        loggedOn.countDown();
    }

    private void onMessage(final String text)
    {
        final JsonNode message = JSON.readTree(text);
        final String type = message.path("type").asString();
        lastSeq.set(Math.max(lastSeq.get(), message.path("seq").asLong()));
        out.println(json ? text : ClientCommands.describe(message));
        switch (type)
        {
            case "executionReport":
                awaiting.computeIfPresent(message.path("clOrdId").asString(), (id, count) -> count > 1 ? count - 1 :
                    null);
                break;
            case "logon":
                heartbeatMs = message.path("heartbeatMs").asLong(5_000);
                timer.scheduleAtFixedRate(() -> send("{\"type\":\"heartbeat\"}"), heartbeatMs, heartbeatMs,
                    TimeUnit.MILLISECONDS);
                loggedOn.countDown();
                break;
            case "logonRejected":
                refused = true;
                loggedOn.countDown();
                break;
            case "testRequest":
                send("{\"type\":\"heartbeat\",\"testId\":" + quote(message.path("testId").asString()) + "}");
                break;
            case "logout":
                loggedOut = true;
                break;
            default:
                break;
        }
    }

    static String quote(final String text)
    {
        final StringBuilder builder = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            if ('"' == c || '\\' == c)
            {
                builder.append('\\');
            }
            if (c < 0x20)
            {
                builder.append(String.format(Locale.ROOT, "\\u%04x", (int)c));
                continue;
            }
            builder.append(c);
        }
        return builder.append('"').toString();
    }

    /**
     * The client's options.
     *
     * @param url           the gateway's WebSocket URL.
     * @param user          user name for a password logon.
     * @param passwordEnv   environment variable holding the password.
     * @param passwordFile  file holding the password.
     * @param apiKey        API key id for a signed logon.
     * @param secretFile    file holding the key's base64 secret.
     * @param subscriptions symbols to subscribe to after logon.
     * @param account       the account orders go to unless a command names one.
     * @param heartbeatMs   heartbeat interval to ask for.
     * @param json          print raw JSON instead of one readable line per message.
     * @param commands      commands to run, separated by ';', instead of standard input.
     * @param waitMs        how long to wait after the commands.
     */
    record ClientOptions(String url, String user, String passwordEnv, Path passwordFile, String apiKey,
        Path secretFile, List<String> subscriptions, long account, long heartbeatMs, boolean json, String commands,
        long waitMs)
    {
        static final String USAGE = "usage: ./warpbus client --url ws://HOST:PORT/ws --user NAME " +
            "[--password-env VAR | --password-file FILE] [--api-key ID --secret-file FILE] [--subscribe SYMBOL,...] " +
            "[--account N] [--heartbeat-ms MS] [--json] [--command \"buy ACME 10 @ 100.25; orders\" --wait MS]";

        static ClientOptions parse(final String[] args)
        {
            String url = null;
            String user = null;
            String passwordEnv = "WARPBUS_PASSWORD";
            Path passwordFile = null;
            String apiKey = null;
            Path secretFile = null;
            final List<String> subscriptions = new ArrayList<>();
            long account = -1;
            long heartbeatMs = 5_000;
            boolean json = false;
            String commands = null;
            long waitMs = 2_000;
            for (int i = 0; i < args.length; i++)
            {
                final String arg = args[i];
                if ("--json".equals(arg))
                {
                    json = true;
                    continue;
                }
                if (i + 1 >= args.length)
                {
                    throw new IllegalArgumentException("option " + arg + " needs a value");
                }
                final String value = args[++i];
                switch (arg)
                {
                    case "--url" -> url = value;
                    case "--user" -> user = value;
                    case "--password-env" -> passwordEnv = value;
                    case "--password-file" -> passwordFile = Path.of(value);
                    case "--api-key" -> apiKey = value;
                    case "--secret-file" -> secretFile = Path.of(value);
                    case "--subscribe" -> subscriptions.addAll(List.of(value.split(",")));
                    case "--account" -> account = number(arg, value);
                    case "--heartbeat-ms" -> heartbeatMs = number(arg, value);
                    case "--command" -> commands = value;
                    case "--wait" -> waitMs = number(arg, value);
                    default -> throw new IllegalArgumentException("unknown option '" + arg + "'");
                }
            }
            if (null == url)
            {
                throw new IllegalArgumentException("--url is required");
            }
            return new ClientOptions(url, user, passwordEnv, passwordFile, apiKey, secretFile, List.copyOf(
                subscriptions), account, heartbeatMs, json, commands, waitMs);
        }

        private static long number(final String option, final String value)
        {
            try
            {
                return Long.parseLong(value);
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException(option + " must be a number, not '" + value + "'");
            }
        }
    }
}
