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
package io.warpbus.demo;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.warpbus.gateway.FixTestClient;
import io.warpbus.gateway.client.GatewayClient;
import io.warpbus.testing.Await;
import io.warpbus.testing.BusTestWatcher;
import io.warpbus.testing.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import quickfix.Message;
import quickfix.field.ClOrdID;
import quickfix.field.OrdType;
import quickfix.field.Side;
import quickfix.field.TimeInForce;
import quickfix.field.TransactTime;
import quickfix.fix44.NewOrderSingle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The demo command itself, as a user runs it: a JVM running {@link DemoMain}, which starts the engine, the load
 * client, the market-data subscriber, the gateway and the gateway's load as JVMs of their own. A person logs on to
 * the gateway with the credentials the demo printed, using {@code ./warpbus client}, and trades, then logs on to the
 * gateway's FIX port the demo printed with a real QuickFIX/J initiator and trades again; the run ends with a
 * summary that includes the gateway, a healthy verdict and exit code 0, leaving no process behind; a demo killed
 * with {@code kill -9} takes its children with it. Over shared memory the demo chooses its threads' idle strategies
 * (and, as root on two cores, the real-time order path); elsewhere they back off. Loopback only. The test lives
 * in the gateway module because only there does the class path hold both the demo and the gateway.
 */
@ExtendWith(BusTestWatcher.class)
class DemoCommandTest
{
    private static final Pattern PIDS = Pattern.compile("\\s*processes\\s+engine pid (\\d+), client pid (\\d+), " +
        "md pid (\\d+), gateway pid (\\d+), gwload pid (\\d+)");
    private static final Pattern DEMO_USER = Pattern.compile("demo user\\s+demo / (\\S+) ");
    private static final Pattern GATEWAY = Pattern.compile("gateway\\s+(ws://\\S+)");
    private static final Pattern PAGE = Pattern.compile("gateway page\\s+(http://\\S+)");
    private static final Pattern FIX = Pattern.compile("gateway FIX\\s+127\\.0\\.0\\.1:(\\d+)\\s+\\(FIX 4\\.4 order " +
        "entry, SenderCompID (\\S+), TargetCompID (\\S+), log on as the demo user; docs/fix\\.md\\)");

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = { "ipc", "iwarp" })
    @Timeout(150)
    void shouldRunForItsDurationAndLetAPersonTradeThroughTheGateway(final String transport) throws Exception
    {
        final Path output = dir.resolve("demo.out");
        // Shared memory is the demo's choice on two cores, and there its threads run as the demo chooses them: as root
        // (as in CI) the engine and the load client go real-time halfway through the 30 s warm-up. Their 50 us parks
        // leave this JVM, cold, less of the two cores than backing off to 1 ms did: the person's and the FIX trades
        // have taken 40 s here, so the run is 60 s. Over iWARP every thread backs off and none is raised.
        final boolean ipc = "ipc".equals(transport);
        final Process demo = ipc ?
            start(output, "--duration", "60", "--interval", "2", "--transport", transport) :
            start(output, "--duration", "25", "--interval", "2", "--transport", transport, "--idle", "backoff",
            "--client-idle", "backoff");
        final String banner = awaitOutput(demo, output, (text) -> PIDS.matcher(text).find());
        assertTrue(banner.contains("transport        " + transport + " ("), banner);
        assertTrue(banner.contains("gateway admin    http://127.0.0.1:"), banner);
        final Matcher page = PAGE.matcher(banner);
        assertTrue(page.find(), banner);
        final HttpResponse<String> pageResponse = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
            URI.create(page.group(1))).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, pageResponse.statusCode(), page.group(1));
        assertTrue(pageResponse.body().contains("<title>WarpBus gateway</title>"), pageResponse.body());
        assertTrue(banner.contains("gateway metrics  http://127.0.0.1:"), banner);
        final Matcher user = DEMO_USER.matcher(banner);
        final Matcher gateway = GATEWAY.matcher(banner);
        assertTrue(user.find() && gateway.find(), banner);
        assertTrue(banner.contains("./warpbus client --url " + gateway.group(1) + " --user demo"), banner);
        assertFalse(Files.readString(dir.resolve("data/logs/gateway-user.out")).contains(user.group(1)),
            "no secret in the logs");

        final Path passwordFile = dir.resolve("password");
        Files.writeString(passwordFile, user.group(1));
        final String symbol = banner.replaceAll("(?s).*--subscribe (\\S+).*", "$1");
        final ByteArrayOutputStream clientOut = new ByteArrayOutputStream();
        final ByteArrayOutputStream clientErr = new ByteArrayOutputStream();
        final int clientExit = GatewayClient.run(new String[] { "--url", gateway.group(1), "--user", "demo",
            "--password-file", passwordFile.toString(), "--account", "9001", "--subscribe", symbol,
            "--command", "buy " + symbol + " 1; orders; logout", "--wait", "10000" },
            new PrintStream(clientOut, true, StandardCharsets.UTF_8),
            new PrintStream(clientErr, true, StandardCharsets.UTF_8), InputStream.nullInputStream());
        final String person = clientOut.toString(StandardCharsets.UTF_8);
        assertEquals(0, clientExit, person + clientErr);
        assertTrue(person.contains("logged on as demo"), person);
        assertTrue(person.contains("book " + symbol + " (subscribed)"), "a book snapshot: " + person);
        assertTrue(Pattern.compile("(new|filled|partiallyFilled|cancelled) cli-").matcher(person).find(),
            "the market order was answered: " + person);
        tradeOverFix(banner, user.group(1), symbol);

        if (!demo.waitFor(100, TimeUnit.SECONDS))
        {
            demo.destroyForcibly();
            fail("the demo did not end within its duration and 100 s:\n" + read(output));
        }
        final String text = read(output);
        assertEquals(0, demo.exitValue(), text + logs());
        assertTrue(text.contains("engine page      http://127.0.0.1:"), text);
        assertTrue(text.contains("engine metrics   http://127.0.0.1:"), text);
        assertTrue(text.contains("data directory   " + dir.resolve("data")), text);
        assertTrue(Pattern.compile("\\[\\s+\\d+s\\] orders/s\\s+[\\d,]+\\s+trades/s").matcher(text).find(),
            "live stats lines:\n" + text);
        assertTrue(Pattern.compile("gateway sessions [1-9]\\d*  orders [1-9]").matcher(text).find(),
            "live gateway stats:\n" + text);
        assertTrue(text.contains("summary ("), text);
        assertTrue(Pattern.compile("trades\\s+[1-9][\\d,]* \\(").matcher(text).find(), "trades in the summary:\n" +
            text);
        assertTrue(text.contains(" 0 gaps"), text);
        assertTrue(Pattern.compile("gateway\\s+\\d+ sessions held at the end, [1-9][\\d,]* logons \\(0 failed\\), " +
            "[1-9][\\d,]* orders to the engine").matcher(text).find(), "the gateway in the summary:\n" + text);
        assertTrue(Pattern.compile("gateway order round trip p50/p99/p99.9 [1-9][\\d.]*/").matcher(text).find(),
            "the gateway's round trip in the summary:\n" + text);
        assertTrue(Pattern.compile("gateway load\\s+[1-9][\\d,]* requests sent over WebSocket").matcher(text)
            .find(), text);
        assertTrue(text.contains("RESULT: HEALTHY"), text + logs());
        assertTrue(Files.exists(dir.resolve("data").resolve("logs").resolve("engine.out")), "engine log");
        assertRealtimeAsTheBannerSaid(text);
        for (final long pid : pids(text))
        {
            assertTrue(ProcessHandle.of(pid).map((p) -> !p.isAlive()).orElse(true), "process " + pid + " left");
        }
    }

    /**
     * Where the demo chose the real-time order path (two cores, as root in CI) the engine and the load client said
     * they raised their duty-cycle threads halfway through the warm-up; where it did not, neither did.
     */
    private void assertRealtimeAsTheBannerSaid(final String text) throws IOException
    {
        final boolean realtime = text.contains("and permitted: the engine and the load client run at SCHED_FIFO 1");
        for (final String child : List.of("engine", "client"))
        {
            final String log = Files.readString(dir.resolve("data/logs/" + child + ".out"));
            if (realtime)
            {
                // Halfway through the ipc case's 30 s warm-up.
                assertTrue(Pattern.compile("REALTIME " + child + " tid=\\d+ policy=SCHED_FIFO priority=1 after_s=15")
                    .matcher(log).find(), "real-time in the banner:\n" + text + log);
            }
            else
            {
                assertFalse(log.contains("REALTIME"), "not real-time in the banner:\n" + text + log);
            }
        }
    }

    /**
     * Log on to the FIX port the banner printed, as the demo user, and place a market order: the gateway answers it
     * with an execution report that is not a reject.
     */
    private void tradeOverFix(final String banner, final String password, final String symbol)
    {
        final Matcher fix = FIX.matcher(banner);
        assertTrue(fix.find(), "the FIX port in the banner:\n" + banner);
        try (FixTestClient client = new FixTestClient(Integer.parseInt(fix.group(1)), fix.group(2), fix.group(3),
            dir.resolve("fix"), "demo", password).start().awaitLogon())
        {
            final NewOrderSingle order = new NewOrderSingle(new ClOrdID("demo-fix-1"), new Side(Side.BUY),
                new TransactTime(LocalDateTime.now()), new OrdType(OrdType.MARKET));
            order.setString(1, "9001");
            order.setString(55, symbol);
            order.setString(38, "1");
            order.set(new TimeInForce(TimeInForce.IMMEDIATE_OR_CANCEL));
            client.send(order);
            final Message report = client.await((message) -> FixTestClient.type("8").test(message) &&
                "demo-fix-1".equals(FixTestClient.field(message, 11)), "an execution report of the FIX order");
            assertNotEquals("8", FixTestClient.field(report, 150), "not rejected: " + report);
        }
    }

    @Test
    @Timeout(150)
    void shouldTakeItsProcessesWithItWhenKilled() throws Exception
    {
        final Path output = dir.resolve("demo.out");
        final Process demo = start(output, "--idle", "backoff", "--client-idle", "backoff");
        final List<Long> pids = pids(awaitOutput(demo, output, (text) -> !pids(text).isEmpty()));
        for (final long pid : pids)
        {
            assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "process " + pid + " runs");
        }

        demo.destroyForcibly();
        demo.waitFor(10, TimeUnit.SECONDS);
        // Each child sees its input end and stops in order (the engine writes a checkpoint, the gateway closes its
        // sessions); on a loaded 2-core machine that has taken over 20 s.
        final long gone = System.nanoTime() + TimeUnit.SECONDS.toNanos(45);
        for (final long pid : pids)
        {
            while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
            {
                if (System.nanoTime() - gone > 0)
                {
                    final String lingering = describe(pid);
                    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
                    fail("process " + pid + " outlived the demo by 45 s: " + lingering + logs());
                }
                Thread.sleep(50);
            }
        }
    }

    /**
     * Wait until the demo's output shows it started its processes; if it does not, it is killed.
     */
    private static String awaitOutput(final Process demo, final Path output, final Predicate<String> started)
    {
        final String[] text = { "" };
        final BooleanSupplier startedOrExited = () ->
        {
            final boolean exited = !demo.isAlive();
            text[0] = read(output);
            return started.test(text[0]) || exited;
        };
        try
        {
            Await.until(() -> "the demo to start its processes:\n" + text[0], 90_000, () -> Await.sleep(100),
                startedOrExited);
        }
        finally
        {
            if (!started.test(text[0]))
            {
                demo.destroyForcibly();
            }
        }
        if (!started.test(text[0]))
        {
            fail("the demo exited before it started its processes:\n" + text[0]);
        }
        return text[0];
    }

    private Process start(final Path output, final String... extra) throws IOException
    {
        return ChildJvm.of(DemoMain.class).jvmFlags("-Xmx256m")
            .args("--dir", dir.resolve("data").toString(), "--rate", "5000", "--instruments", "3",
                "--md-idle", "backoff")
            .args(extra).processBuilder().redirectErrorStream(true).redirectOutput(output.toFile()).start();
    }

    private static List<Long> pids(final String text)
    {
        final List<Long> pids = new ArrayList<>();
        for (final String line : text.split("\n"))
        {
            final Matcher matcher = PIDS.matcher(line);
            if (matcher.matches())
            {
                for (int i = 1; i <= matcher.groupCount(); i++)
                {
                    pids.add(Long.parseLong(matcher.group(i)));
                }
            }
        }
        return pids;
    }

    /**
     * Which child a process is and where its threads are, to explain one that does not stop.
     */
    private String describe(final long pid) throws IOException, InterruptedException
    {
        final String command = ProcessHandle.of(pid).flatMap((handle) -> handle.info().commandLine()).orElse("?");
        final Path dump = dir.resolve("threads-" + pid + ".txt");
        final Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
            Long.toString(pid), "Thread.print").redirectErrorStream(true).redirectOutput(dump.toFile()).start();
        if (!jcmd.waitFor(20, TimeUnit.SECONDS))
        {
            jcmd.destroyForcibly();
        }
        return command.substring(Math.max(0, command.length() - 300)) + "\n--- threads ---\n" +
            read(dump);
    }

    /**
     * What the children wrote to their error logs, to explain an unhealthy run.
     */
    private String logs() throws IOException
    {
        final StringBuilder logs = new StringBuilder();
        for (final String child : List.of("engine", "client", "md", "gateway", "gwload"))
        {
            logs.append("\n--- ").append(child).append(".err ---\n")
                .append(read(dir.resolve("data").resolve("logs").resolve(child + ".err")));
            logs.append("\n--- ").append(child).append(".out (end) ---\n")
                .append(tail(read(dir.resolve("data").resolve("logs").resolve(child + ".out"))));
        }
        return logs.toString();
    }

    private static String tail(final String text)
    {
        return text.substring(Math.max(0, text.length() - 3000));
    }

    private static String read(final Path file)
    {
        try
        {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
