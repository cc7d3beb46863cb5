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

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

import io.warpbus.gateway.client.GatewayClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./warpbus client} against a real gateway and engine: a password logon that places, lists and cancels an
 * order and logs out; a signed API-key logon; commands from standard input, where a bad line is reported and the
 * session goes on; a refused logon and bad options give their exit codes.
 */
@SpringBootTest(classes = GatewayApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@Timeout(90)
class GatewayClientTest extends GatewayTestBase
{
    @DynamicPropertySource
    static void properties(final DynamicPropertyRegistry registry)
    {
        gatewayProperties(registry);
    }

    @Test
    void shouldPlaceListAndCancelAnOrderAndLogOut() throws IOException
    {
        final Run run = client(null, "--user", "alice", "--password-file", secret("alice-pw").toString(),
            "--account", "101", "--command", "buy ACME 10 @ 99.50 id cli-t1; orders; cancel cli-t1; logout",
            "--wait", "10000");
        assertEquals(0, run.exit, run.toString());
        assertTrue(run.out.contains("logged on as alice"), run.toString());
        assertTrue(run.out.contains("new cli-t1: buy 10 ACME @ 99.50, filled 0, leaves 10, new"), run.toString());
        assertTrue(run.out.contains("\"clOrdId\":\"cli-t1\""), "the open orders list it: " + run);
        assertTrue(run.out.contains("cancelled cli-t1: buy 10 ACME @ 99.50, filled 0, leaves 0, cancelled"),
            run.toString());
        assertTrue(run.out.contains("logged out"), run.toString());
    }

    @Test
    void shouldLogOnWithASignedApiKey() throws IOException
    {
        final Run run = client(null, "--api-key", GatewayFixtures.BOB_KEY, "--secret-file",
            secret(Base64.getEncoder().encodeToString(GatewayFixtures.BOB_SECRET)).toString(), "--json",
            "--command", "instruments; logout", "--wait", "10000");
        assertEquals(0, run.exit, run.toString());
        assertTrue(run.out.contains("\"type\":\"logon\"") && run.out.contains("\"user\":\"bob\""), run.toString());
        assertTrue(run.out.contains("\"symbol\":\"ACME\"") && run.out.contains("\"symbol\":\"BETA\""),
            run.toString());
    }

    @Test
    void shouldReadCommandsFromStandardInputAndReportABadLineWithoutEndingTheSession() throws IOException
    {
        final Run run = client("buy ACME ten @ 100\nsell ACME 10 @ 120.00 id cli-t2\ncancel cli-t2\nlogout\n",
            "--user", "alice", "--password-file", secret("alice-pw").toString(), "--account", "102");
        assertEquals(0, run.exit, run.toString());
        assertTrue(run.err.contains("'ten' is not a whole number"), run.toString());
        assertTrue(run.out.contains("new cli-t2: sell 10 ACME @ 120.00"), run.toString());
        assertTrue(run.out.contains("cancelled cli-t2"), run.toString());
    }

    @Test
    void shouldExitWithOneWhenTheLogonIsRefusedAndTwoForBadOptions() throws IOException
    {
        final Run refused = client(null, "--user", "alice", "--password-file", secret("not-the-password")
            .toString(), "--command", "orders");
        assertEquals(1, refused.exit, refused.toString());
        assertTrue(refused.out.contains("logon refused: unknown user or wrong password"), refused.toString());
        assertTrue(refused.err.contains("logon refused"), refused.toString());

        final Run badOption = client(null, "--user", "alice", "--colour", "blue");
        assertEquals(2, badOption.exit, badOption.toString());
        assertTrue(badOption.err.contains("unknown option '--colour'"), badOption.toString());
        final Run noValue = client(null, "--account");
        assertEquals(2, noValue.exit);
        assertTrue(noValue.err.contains("option --account needs a value"), noValue.toString());
    }

    private Run client(final String stdin, final String... options)
    {
        final String[] args = new String[options.length + 2];
        args[0] = "--url";
        args[1] = "ws://127.0.0.1:" + wsPort() + "/ws";
        System.arraycopy(options, 0, args, 2, options.length);
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int exit = GatewayClient.run(args,
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
            new ByteArrayInputStream((null == stdin ? "" : stdin).getBytes(StandardCharsets.UTF_8)));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static Path secret(final String value) throws IOException
    {
        final Path file = Files.createTempFile(dir, "secret", ".txt");
        Files.writeString(file, value + "\n");
        return file;
    }

    private record Run(int exit, String out, String err)
    {
    }
}
