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
package io.warpbus.gateway;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.warpbus.gateway.client.ResumingTraderMain;
import io.warpbus.testing.Await;
import io.warpbus.testing.BusTestWatcher;
import io.warpbus.testing.FreePorts;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./warpbus trader} ({@link ResumingTraderMain}) trading through a gateway that is killed with {@code kill -9}
 * and started again on its journal while orders flow: both sessions reconnect and resume, and the trader's checks
 * (every sequence number once and in order, every request answered once, every fill once, no exec id missing) find
 * nothing lost and nothing twice. Bad options are refused with what was wrong.
 */
@Timeout(240)
@ExtendWith(BusTestWatcher.class)
class ResumingTraderTest
{
    private static final Pattern RESULT = Pattern.compile("^RESULT trader (.* lost=(\\d+) duplicated=(\\d+))$",
        Pattern.MULTILINE);

    @TempDir
    Path dir;
    private EngineFixture engine;
    private GatewayProcess gateway;

    @AfterEach
    void close()
    {
        CloseHelper.quietCloseAll(gateway, engine);
    }

    @Test
    void shouldLoseAndRepeatNothingWhenTheGatewayIsKilledWhileOrdersFlow() throws Exception
    {
        engine = new EngineFixture(dir, 1, false);
        final Path credentials = GatewayFixtures.writeCredentials(dir);
        final int port = FreePorts.loopback();
        gateway = GatewayProcess.start("gateway", dir, credentials, engine, 1, port);
        final Path password = Files.writeString(dir.resolve("alice.pw"), "alice-pw");

        final PipedOutputStream lifeLine = new PipedOutputStream();
        final InputStream in = new PipedInputStream(lifeLine);
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        final CompletableFuture<Integer> exit = new CompletableFuture<>();
        final Thread trader = new Thread(() ->
        {
            try
            {
                exit.complete(ResumingTraderMain.run(new String[] {
                    "--url", "ws://127.0.0.1:" + port + "/ws", "--user", "alice", "--password-file",
                    password.toString(), "--accounts", GatewayFixtures.ALICE_ACCOUNT + "," +
                    GatewayFixtures.ALICE_SECOND_ACCOUNT, "--instrument", "ACME", "--reference", "100.00",
                    "--sessions", "2", "--rate", "60", "--settle-ms", "8000" }, out, out, in));
            }
            catch (final Throwable ex)
            {
                exit.completeExceptionally(ex);
            }
        }, "trader-under-test");
        trader.setDaemon(true);
        trader.start();
        try
        {
            Await.until(() -> "the trader to trade: " + text(bytes), 60_000, () -> answered(text(bytes)) >= 60);

            gateway.kill();
            Thread.sleep(1_000);
            gateway = GatewayProcess.start("gateway", dir, credentials, engine, 1, port);
            Await.until(() -> "both sessions to resume: " + text(bytes) + gateway.dump(), 60_000,
                () -> count(text(bytes), "RESUMED trader ") >= 2);
            final long answeredAfterResume = answered(text(bytes));
            Await.until(() -> "the trader to trade on: " + text(bytes), 60_000,
                () -> answered(text(bytes)) >= answeredAfterResume + 60);
        }
        finally
        {
            lifeLine.close();
        }
        final int code = exit.get(60, TimeUnit.SECONDS);
        final String output = text(bytes);
        final Matcher result = RESULT.matcher(output);
        assertTrue(result.find(), "no RESULT line:\n" + output);
        assertEquals("0", result.group(2), "lost: " + result.group(1) + "\n" + output);
        assertEquals("0", result.group(3), "duplicated: " + result.group(1) + "\n" + output);
        assertEquals(0, code, output);
        assertTrue(field(result.group(1), "resumes") >= 2, result.group(1));
        assertTrue(field(result.group(1), "disconnects") >= 2, result.group(1));
        assertTrue(field(result.group(1), "sent") >= 120, result.group(1));
        assertTrue(field(result.group(1), "fills") > 0, "crossing orders traded: " + result.group(1));
        assertTrue(field(result.group(1), "gap_filled") > 0, "the restarted gateway numbered on from its mark, past " +
            "what the sessions saw: " + result.group(1));
        assertTrue(output.contains("STOPPED trader ok=true"), output);
    }

    @Test
    void shouldRefuseBadOptionsNamingWhatIsWrong()
    {
        assertUsage("--url ws://127.0.0.1:1/ws --user alice --accounts 101 --instrument ACME",
            "--accounts, --instrument and --reference are required");
        assertUsage("--url http://127.0.0.1:1/ws --user alice --accounts 101 --instrument ACME --reference 1",
            "--url ws://HOST:PORT/ws is required, not 'http://127.0.0.1:1/ws'");
        assertUsage("--url ws://127.0.0.1:1/ws --user alice --accounts 101 --instrument ACME --reference 1 --rate x",
            "--rate must be a number, not 'x'");
        assertUsage("--url ws://127.0.0.1:1/ws --user alice --accounts 101 --instrument ACME --reference 1x",
            "--reference must be a price like 100.00, not '1x'");
        assertUsage("--url ws://127.0.0.1:1/ws --user alice --accounts 101 --instrument ACME --reference 1 --colour 3",
            "unknown option '--colour'");
        assertUsage("--url ws://127.0.0.1:1/ws --user alice --accounts 101 --instrument ACME --reference 1 " +
            "--password-file " + dir.resolve("missing.pw"), "missing.pw");
    }

    private static void assertUsage(final String args, final String expected)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        final int code;
        try
        {
            code = ResumingTraderMain.run(args.split(" "), err, err, InputStream.nullInputStream());
        }
        catch (final InterruptedException ex)
        {
            throw new AssertionError(ex);
        }
        assertEquals(2, code, text(bytes));
        assertTrue(text(bytes).contains(expected), "expected '" + expected + "' in:\n" + text(bytes));
    }

    private static String text(final ByteArrayOutputStream bytes)
    {
        synchronized (bytes)
        {
            return bytes.toString(StandardCharsets.UTF_8);
        }
    }

    private static long answered(final String output)
    {
        final Matcher matcher = Pattern.compile("^STATS trader .* answered=(\\d+) ", Pattern.MULTILINE)
            .matcher(output);
        long last = 0;
        while (matcher.find())
        {
            last = Long.parseLong(matcher.group(1));
        }
        return last;
    }

    private static int count(final String output, final String part)
    {
        int count = 0;
        for (int at = output.indexOf(part); at >= 0; at = output.indexOf(part, at + 1))
        {
            count++;
        }
        return count;
    }

    private static long field(final String line, final String name)
    {
        final Matcher matcher = Pattern.compile("(^| )" + name + "=(\\d+)").matcher(line);
        assertTrue(matcher.find(), name + " in " + line);
        return Long.parseLong(matcher.group(2));
    }
}
