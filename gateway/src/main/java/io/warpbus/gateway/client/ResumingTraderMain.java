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
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.warpbus.gateway.client.GatewayClient.ClientOptions;
import io.warpbus.gateway.demo.Supervised;

/**
 * {@code ./warpbus trader}: runs a {@link ResumingTrader} until its standard input ends (or the line {@code stop})
 * or for {@code --duration} seconds, then settles and prints its verdict.
 * <pre>
 * ./warpbus trader --url ws://HOST:PORT/ws (--user NAME [--password-env VAR | --password-file FILE]
 *                  | --api-key ID --secret-file FILE) --accounts N[,N...] --instrument SYMBOL --reference PRICE
 *                  [--sessions 2] [--rate 100] [--max-open 4] [--duration SECONDS] [--reconnect-timeout SECONDS]
 *                  [--settle-ms 10000] [--heartbeat-ms 5000] [--seed 7]
 * </pre>
 * Prints {@code READY trader ...}, a {@code STATS trader ...} line every second, {@code RESUMED trader ...} for each
 * session that resumed after its connection dropped, every problem a check finds ({@code trader: ...}), then
 * {@code RESULT trader ... lost=L duplicated=D} and {@code STOPPED trader ok=true|false}. Exit code 0 when nothing
 * was lost or duplicated and no session failed, 1 otherwise, 2 for bad options.
 */
public final class ResumingTraderMain
{
    static final String USAGE = "usage: ./warpbus trader --url ws://HOST:PORT/ws (--user NAME [--password-env VAR | " +
        "--password-file FILE] | --api-key ID --secret-file FILE) --accounts N[,N...] --instrument SYMBOL " +
        "--reference PRICE [--sessions N] [--rate ORDERS_PER_S] [--max-open N] [--duration SECONDS] " +
        "[--reconnect-timeout SECONDS] [--settle-ms MS] [--heartbeat-ms MS] [--seed N]";

    private ResumingTraderMain()
    {
    }

    /**
     * Run the trader.
     *
     * @param args options.
     * @throws InterruptedException if interrupted.
     */
    public static void main(final String[] args) throws InterruptedException
    {
        System.exit(run(args, System.out, System.err, System.in));
    }

    /**
     * Run the trader with the given streams.
     *
     * @param args options.
     * @param out  where its lines go.
     * @param err  where errors go.
     * @param in   its life line, when there is no {@code --duration}.
     * @return the exit code.
     * @throws InterruptedException if interrupted.
     */
    public static int run(final String[] args, final PrintStream out, final PrintStream err, final InputStream in)
        throws InterruptedException
    {
        final Options options;
        try
        {
            options = Options.parse(args);
            GatewayClient.logonMessage(options.settings().logon());
        }
        catch (final IllegalArgumentException | IOException ex)
        {
            err.println("trader: " + (ex instanceof IOException ? "cannot read the credentials: " : "") +
                ex.getMessage());
            err.println(USAGE);
            return GatewayClient.EXIT_USAGE;
        }
        final CountDownLatch stop = options.durationS() > 0 ? new CountDownLatch(1) : Supervised.stopSignal(in);
        final ResumingTrader trader;
        try
        {
            trader = new ResumingTrader(options.settings(), out);
        }
        catch (final IllegalStateException | UncheckedIOException ex)
        {
            err.println("trader: " + ex.getMessage());
            return GatewayClient.EXIT_FAILED;
        }
        try (trader)
        {
            out.println("READY trader pid=" + ProcessHandle.current().pid() + " sessions=" +
                options.settings().sessions() + " rate=" + options.settings().ordersPerSecond());
            out.flush();
            final long endMs = options.durationS() > 0 ? Elapsed.ms() + options.durationS() * 1000 :
                Long.MAX_VALUE;
            while (!stop.await(1, TimeUnit.SECONDS) && Elapsed.ms() < endMs)
            {
                out.println("STATS trader " + trader.stats());
                out.flush();
            }
            final String verdict = trader.finish(options.settleMs());
            for (final String problem : trader.problems())
            {
                out.println("trader: problem: " + problem);
            }
            out.println("trader: orders: " + trader.examples());
            out.println("RESULT trader " + verdict);
            final boolean ok = verdict.endsWith(" lost=0 duplicated=0");
            out.println("STOPPED trader ok=" + ok);
            out.flush();
            return ok ? GatewayClient.EXIT_OK : GatewayClient.EXIT_FAILED;
        }
    }

    /**
     * The parsed options.
     *
     * @param settings  the trader's settings.
     * @param durationS how long to trade, 0 for until the input ends.
     * @param settleMs  how long to wait for answers at the end.
     */
    record Options(ResumingTrader.Settings settings, long durationS, long settleMs)
    {
        @SuppressWarnings("checkstyle:MethodLength")
        static Options parse(final String[] args)
        {
            String url = null;
            String user = null;
            String passwordEnv = "WARPBUS_PASSWORD";
            Path passwordFile = null;
            String apiKey = null;
            Path secretFile = null;
            final List<Long> accounts = new ArrayList<>();
            String instrument = null;
            String reference = null;
            long sessions = 2;
            long rate = 100;
            long maxOpen = 4;
            long durationS = 0;
            long reconnectTimeoutS = 60;
            long settleMs = 10_000;
            long heartbeatMs = 5_000;
            long seed = 7;
            for (int i = 0; i < args.length; i += 2)
            {
                final String arg = args[i];
                if (i + 1 >= args.length)
                {
                    throw new IllegalArgumentException("option " + arg + " needs a value");
                }
                final String value = args[i + 1];
                switch (arg)
                {
                    case "--url" -> url = value;
                    case "--user" -> user = value;
                    case "--password-env" -> passwordEnv = value;
                    case "--password-file" -> passwordFile = Path.of(value);
                    case "--api-key" -> apiKey = value;
                    case "--secret-file" -> secretFile = Path.of(value);
                    case "--accounts" ->
                    {
                        for (final String account : value.split(","))
                        {
                            accounts.add(number(arg, account, 0, Integer.MAX_VALUE));
                        }
                    }
                    case "--instrument" -> instrument = value;
                    case "--reference" -> reference = decimal(arg, value);
                    case "--sessions" -> sessions = number(arg, value, 1, 64);
                    case "--rate" -> rate = number(arg, value, 1, 100_000);
                    case "--max-open" -> maxOpen = number(arg, value, 1, 1000);
                    case "--duration" -> durationS = number(arg, value, 1, 86_400);
                    case "--reconnect-timeout" -> reconnectTimeoutS = number(arg, value, 1, 86_400);
                    case "--settle-ms" -> settleMs = number(arg, value, 0, 600_000);
                    case "--heartbeat-ms" -> heartbeatMs = number(arg, value, 1_000, 60_000);
                    case "--seed" -> seed = number(arg, value, Long.MIN_VALUE, Long.MAX_VALUE);
                    default -> throw new IllegalArgumentException("unknown option '" + arg + "'");
                }
            }
            if (null == url || !url.startsWith("ws://"))
            {
                throw new IllegalArgumentException("--url ws://HOST:PORT/ws is required" +
                    (null == url ? "" : ", not '" + url + "'"));
            }
            if (accounts.isEmpty() || null == instrument || null == reference)
            {
                throw new IllegalArgumentException("--accounts, --instrument and --reference are required");
            }
            final ClientOptions logon = new ClientOptions(url, user, passwordEnv, passwordFile, apiKey, secretFile,
                List.of(), accounts.get(0), heartbeatMs, false, null, 0);
            return new Options(new ResumingTrader.Settings(URI.create(url), logon, List.copyOf(accounts), instrument,
                reference, (int)sessions, rate, (int)maxOpen, reconnectTimeoutS * 1000, seed), durationS, settleMs);
        }

        private static long number(final String option, final String value, final long min, final long max)
        {
            final long parsed;
            try
            {
                parsed = Long.parseLong(value.trim());
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException(option + " must be a number, not '" + value + "'");
            }
            if (parsed < min || parsed > max)
            {
                throw new IllegalArgumentException(option + " must be from " + min + " to " + max + ", not " + parsed);
            }
            return parsed;
        }

        private static String decimal(final String option, final String value)
        {
            if (!value.matches("[0-9]{1,12}(\\.[0-9]{1,8})?"))
            {
                throw new IllegalArgumentException(option + " must be a price like 100.00, not '" + value + "'");
            }
            return value;
        }
    }
}
