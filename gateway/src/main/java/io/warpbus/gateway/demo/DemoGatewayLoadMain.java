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
package io.warpbus.gateway.demo;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.warpbus.gateway.client.GatewayLoad;
import org.HdrHistogram.Histogram;

/**
 * The demo's second load: a few WebSocket sessions that trade through the gateway (some hundreds of orders a
 * second), while the demo's first load trades on the bus directly.
 * <pre>
 * DemoGatewayLoadMain --url WS_URL --api-key ID --secret-file FILE --account N --instruments SYM,...
 *                     --reference SYM=PRICE,... [--sessions N] [--rate ORDERS_PER_S] [--seed N]
 * </pre>
 * Prints {@code READY gwload}, a {@code STATS gwload} line every second (requests sent and answered, rejects, fills,
 * market data received, the client-measured round trip of the last second and of the whole run) and, when the demo
 * says stop, stops ordering, waits for every answer, logs out and prints {@code STOPPED gwload settled=true|false}.
 */
public final class DemoGatewayLoadMain
{
    private DemoGatewayLoadMain()
    {
    }

    /**
     * Run the load.
     *
     * @param args options.
     * @throws Exception if the load cannot start.
     */
    public static void main(final String[] args) throws Exception
    {
        final GatewayLoad.Settings settings;
        try
        {
            settings = settings(args);
        }
        catch (final IllegalArgumentException | IOException ex)
        {
            System.err.println("gwload: " + ex.getMessage());
            System.exit(2);
            return;
        }
        final CountDownLatch stop = Supervised.stopSignal(System.in);
        final GatewayLoad load;
        try
        {
            load = new GatewayLoad(settings);
        }
        catch (final IllegalStateException ex)
        {
            System.err.println("gwload: " + ex.getMessage());
            System.exit(1);
            return;
        }
        Supervised.say("READY gwload pid=" + ProcessHandle.current().pid() + " sessions=" + settings.sessions() +
            " rate=" +
            settings.ordersPerSecond());
        while (!stop.await(1, TimeUnit.SECONDS))
        {
            Supervised.say(stats(load));
        }
        final boolean settled = load.stopOrdering(10_000);
        Supervised.say(stats(load));
        load.close();
        Supervised.say("STOPPED gwload settled=" + settled);
        System.exit(0);
    }

    static GatewayLoad.Settings settings(final String[] args) throws IOException
    {
        final Map<String, String> options = new HashMap<>();
        for (int i = 0; i < args.length; i += 2)
        {
            if (!args[i].startsWith("--") || i + 1 >= args.length)
            {
                throw new IllegalArgumentException("expected --OPTION VALUE, not '" + args[i] + "'");
            }
            options.put(args[i].substring(2), args[i + 1]);
        }
        final byte[] secret = Base64.getDecoder().decode(Files.readString(Path.of(required(options, "secret-file")))
            .trim());
        final Map<String, String> references = new LinkedHashMap<>();
        for (final String reference : required(options, "reference").split(","))
        {
            final String[] parts = reference.split("=", 2);
            if (2 != parts.length)
            {
                throw new IllegalArgumentException("--reference takes SYMBOL=PRICE,..., not '" + reference + "'");
            }
            references.put(parts[0], parts[1]);
        }
        final int sessions = Integer.parseInt(options.getOrDefault("sessions", "4"));
        return new GatewayLoad.Settings(URI.create(required(options, "url")), List.of(new GatewayLoad.Login(null,
            null, required(options, "api-key"), secret, Long.parseLong(required(options, "account")))), sessions,
            sessions, Long.parseLong(options.getOrDefault("rate", "200")),
            new ArrayList<>(List.of(required(options, "instruments").split(","))), 1, references, 5, 10_000,
            Long.parseLong(options.getOrDefault("seed", "7")));
    }

    private static String required(final Map<String, String> options, final String name)
    {
        final String value = options.get(name);
        if (null == value)
        {
            throw new IllegalArgumentException("option --" + name + " is required");
        }
        return value;
    }

    private static String stats(final GatewayLoad load)
    {
        final GatewayLoad.Snapshot snapshot = load.snapshot();
        final Histogram total = load.totalRoundTrips();
        final Histogram recent = snapshot.roundTrips();
        return "STATS gwload sessions=" + snapshot.sessionsLoggedOn() + " sent=" + snapshot.requestsSent() +
            " answered=" + snapshot.requestsAnswered() + " rejects=" + snapshot.rejects() + " fills=" +
            snapshot.fills() + " md=" + snapshot.marketDataMessages() + " conflated_books=" +
            snapshot.conflatedBooks() + " errors=" + snapshot.errors() + " closes=" + snapshot.unexpectedCloses() +
            " rtt_p50=" + percentile(recent, 50) + " rtt_p99=" + percentile(recent, 99) +
            " rtt_total_p50=" + percentile(total, 50) + " rtt_total_p99=" + percentile(total, 99) +
            " rtt_total_p999=" + percentile(total, 99.9) + " rtt_total_max=" + total.getMaxValue();
    }

    private static long percentile(final Histogram histogram, final double percentile)
    {
        return 0 == histogram.getTotalCount() ? 0 : histogram.getValueAtPercentile(percentile);
    }
}
