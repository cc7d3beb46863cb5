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
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.warpbus.gateway.fix.FixAcceptor;
import io.warpbus.gateway.fix.FixClient;
import io.warpbus.testing.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import quickfix.Message;
import quickfix.field.Side;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code ./warpbus fix-client} ({@link FixClient}) as a person runs it: a JVM of its own, with the password in the
 * environment, against the gateway's FIX acceptor and a real matching engine over the bus. It places an order that
 * rests, cancels it, lists it and logs out; a second run on the same store logs on again where the sequence numbers
 * left off; its order fills against one of a QuickFIX/J session in the test's JVM, and both get their reports; a wrong
 * password is refused with the gateway's reason; bad options are named.
 */
@SpringBootTest(classes = GatewayApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@Timeout(120)
class FixClientTest extends GatewayTestBase
{
    private static final Pattern NEW = Pattern.compile("report new (fc\\w+-1) ACME buy status=new cum=0 leaves=10");

    @Autowired
    FixAcceptor acceptor;

    @DynamicPropertySource
    static void properties(final DynamicPropertyRegistry registry)
    {
        gatewayProperties(registry);
        FixOrderEntryTest.fixSessions(registry);
    }

    @Test
    void shouldPlaceCancelAndListAnOrderThenLogOnAgainFromItsStore() throws Exception
    {
        final Path store = dir.resolve("fix-client-store");
        final Result first = run("alice-pw", "--sender", "CAROL", "--user", "alice", "--account",
            String.valueOf(GatewayFixtures.ALICE_ACCOUNT), "--store", store.toString(), "--buy", "ACME", "10@99.00",
            "--cancel", "all", "--list", "--wait", "200");
        assertEquals(0, first.exit, first.toString());
        assertTrue(first.out.contains("logged on as alice (CAROL -> WARPBUS at 127.0.0.1:" + acceptor.port() + ")"),
            first.toString());
        final Matcher accepted = NEW.matcher(first.out);
        assertTrue(accepted.find(), "the order rests: " + first);
        final String clOrdId = accepted.group(1);
        assertTrue(Pattern.compile("report cancelled fc\\w+-2 \\(of " + clOrdId + "\\) ACME buy status=cancelled " +
            "cum=0 leaves=0").matcher(first.out).find(), "the cancel's report: " + first);
        assertTrue(first.out.contains("orders placed in this run: 1\n  " + clOrdId + " ACME buy 10@99.00 " +
            "status=cancelled cum=0 leaves=0"), "the list: " + first);
        assertTrue(first.out.contains("logged out"), first.toString());
        // Its own lines only: no FIX message as QuickFIX/J's screen log prints it.
        assertFalse(first.out.contains("8=FIX.4.4"), first.toString());

        final Result second = run("alice-pw", "--sender", "CAROL", "--user", "alice", "--store", store.toString(),
            "--list", "--wait", "0");
        assertEquals(0, second.exit, "a second logon continues the sequence numbers from the store: " + second);
        assertTrue(second.out.contains("orders placed in this run: 0"), second.toString());
    }

    @Test
    void shouldFillAgainstAnOrderOfAnotherSessionWithBothSidesReported() throws Exception
    {
        try (FixTestClient alice = new FixTestClient(acceptor.port(), "ALICE", "WARPBUS", dir.resolve("fix-in-test"),
            "alice", "alice-pw").start().awaitLogon())
        {
            alice.send(FixOrderEntryTest.order("fill-sell-1", GatewayFixtures.ALICE_ACCOUNT, Side.SELL, "101.50",
                "30"));
            alice.await(FixTestClient.report("fill-sell-1", '0'), "alice's offer rests");

            final Result bob = run("bob-pw", "--sender", "BOB", "--user", "bob", "--account",
                String.valueOf(GatewayFixtures.BOB_ACCOUNT), "--store", dir.resolve("fix-client-bob").toString(),
                "--buy", "ACME", "20@101.50", "--list", "--wait", "500");
            assertEquals(0, bob.exit, bob.toString());
            assertTrue(Pattern.compile("report trade fc\\w+-1 ACME buy status=filled cum=20 leaves=0 " +
                "avgPx=101.5\\d* last=20@101.5").matcher(bob.out).find(), "the buyer's fill: " + bob);
            final Message fill = alice.await(FixTestClient.report("fill-sell-1", 'F'), "the seller's fill");
            assertEquals("20", FixTestClient.field(fill, 32), fill.toString());
            assertEquals("1", FixTestClient.field(fill, 39), "partially filled: " + fill);
            assertEquals("10", FixTestClient.field(fill, 151), fill.toString());
        }
    }

    @Test
    void shouldBeRefusedWithTheGatewaysReasonOnAWrongPassword() throws Exception
    {
        final Result result = run("not-the-password", "--sender", "DROP", "--user", "bob", "--store",
            dir.resolve("fix-client-bad").toString(), "--logon-timeout", "20000");
        assertEquals(1, result.exit, result.toString());
        assertTrue(result.err.contains("fix-client: logon refused by 127.0.0.1:" + acceptor.port() +
            ": unknown user or wrong password"), result.toString());
        assertFalse(result.out.contains("logged on"), result.toString());
    }

    @Test
    void shouldNameBadOptions()
    {
        assertUsage("--port is required", "--sender", "CAROL", "--user", "alice");
        assertUsage("the password is never taken from the command line", "--port", "1", "--sender", "CAROL",
            "--user", "alice", "--password", "secret");
        assertUsage("--buy ACME ten: expected QTY or QTY@PRICE", "--port", "1", "--sender", "CAROL", "--user",
            "alice", "--account", "101", "--buy", "ACME", "ten");
        assertUsage("--sender A B: a CompID is 1 to 32", "--port", "1", "--sender", "A B", "--user", "alice");
        assertUsage("--port 70000 is out of range", "--port", "70000");
    }

    private static void assertUsage(final String message, final String... args)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int exit = FixClient.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        final String errors = err.toString(StandardCharsets.UTF_8);
        assertEquals(2, exit, errors);
        assertTrue(errors.contains("fix-client: " + message), errors);
        assertTrue(errors.contains("usage: warpbus fix-client"), errors);
    }

    private Result run(final String password, final String... args) throws Exception
    {
        final Path out = Files.createTempFile(dir, "fix-client", ".out");
        final Path err = Files.createTempFile(dir, "fix-client", ".err");
        final ProcessBuilder builder = ChildJvm.of(FixClient.class).jvmFlags("-Xmx128m")
            .args(List.of("--port", String.valueOf(acceptor.port()))).args(args).processBuilder()
            .redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().put("WARPBUS_PASSWORD", password);
        final Process process = builder.start();
        if (!process.waitFor(60, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            fail("fix-client did not end within 60 s:\n" + Files.readString(out) + Files.readString(err));
        }
        return new Result(process.exitValue(), Files.readString(out), Files.readString(err));
    }

    private record Result(int exit, String out, String err)
    {
        @Override
        public String toString()
        {
            return "exit " + exit + "\n--- out ---\n" + out + "--- err ---\n" + err;
        }
    }
}
