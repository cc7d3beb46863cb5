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
package io.warpbus.gateway.security;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.warpbus.gateway.session.User;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./warpbus gateway-user} writes credentials files the gateway loads: users with bcrypt hashes of the
 * password they were given, API keys whose printed secret is the one stored, removals; the file is mode 0600; a
 * refused command leaves the file as it was and says why.
 */
@Timeout(60)
class CredentialsToolTest
{
    private static final Pattern SECRET = Pattern.compile("secret (\\S+)");

    @TempDir
    Path dir;

    @Test
    void shouldAddUsersTheGatewayAuthenticates() throws IOException
    {
        final Path file = dir.resolve("conf/credentials.json");
        assertEquals("", run(0, Map.of("WARPBUS_PASSWORD", "correct horse"), "", "--file", file.toString(), "add",
            "dave", "--accounts", "501,502", "--market-data", "ACME", "--orders-per-second", "20").err);
        assertEquals(0, run(0, Map.of(), "battery staple\n", "--file", file.toString(), "add", "erin", "--accounts",
            "601", "--roles", "admin,trader").exit);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));

        final CredentialStore store = CredentialStore.load(file, true, 50, 100);
        final User dave = store.directory().get("dave");
        assertArrayEquals(new long[] { 501, 502 }, dave.accounts());
        assertTrue(dave.mayView("ACME"));
        assertFalse(dave.mayView("BETA"));
        assertEquals(20, dave.ordersPerSecond());
        assertTrue(store.directory().get("erin").roles().contains("admin"));
        assertEquals(0, run(0, Map.of("WARPBUS_PASSWORD", "operators only"), "", "--file", file.toString(), "add",
            "olga", "--roles", "admin,viewer").exit, "an operator who does not trade needs no account");
        final User olga = CredentialStore.load(file, true, 50, 100).directory().get("olga");
        assertEquals(0, olga.accounts().length);
        assertEquals(Set.of("admin", "viewer"), olga.roles());
        final var encoder = PasswordEncoderFactories.createDelegatingPasswordEncoder();
        assertTrue(store.passwordHash("dave").startsWith("{bcrypt}"), "bcrypt, not the password");
        assertTrue(encoder.matches("correct horse", store.passwordHash("dave")));
        assertTrue(encoder.matches("battery staple", store.passwordHash("erin")), "the password from stdin");
        assertFalse(Files.readString(file).contains("correct horse"));

        run(0, Map.of("WARPBUS_PASSWORD", "a new password"), "", "--file", file.toString(), "password", "dave");
        assertTrue(encoder.matches("a new password", CredentialStore.load(file, true, 50, 100).passwordHash("dave")));
    }

    @Test
    void shouldAddAndRemoveApiKeysWhoseSecretIsPrintedOnce() throws IOException
    {
        final Path file = dir.resolve("credentials.json");
        assertError(1, "user bot: neither a password nor an API key (nothing written)", Map.of(), "--file",
            file.toString(), "add", "bot", "--accounts", "700", "--no-password");
        assertFalse(Files.exists(file), "a refused first user creates no file");
        final Run added = run(0, Map.of(), "", "--file", file.toString(), "add", "bot", "--accounts", "700",
            "--no-password", "--api-key", "--key-id", "AK-BOT-0001");
        final Matcher secret = SECRET.matcher(added.out);
        assertTrue(secret.find(), added.out);
        final CredentialStore store = CredentialStore.load(file, true, 50, 100);
        assertArrayEquals(Base64.getDecoder().decode(secret.group(1)), store.apiKey("AK-BOT-0001").secret());
        assertEquals(32, store.apiKey("AK-BOT-0001").secret().length);
        assertNull(store.passwordHash("bot"), "no password: API keys only");

        final Run generated = run(0, Map.of(), "", "--file", file.toString(), "add-key", "bot");
        assertTrue(generated.out.matches("(?s)api key AK-BOT-[0-9A-F]{8}\n.*"), generated.out);
        final Run listed = run(0, Map.of(), "", "--file", file.toString(), "list");
        assertTrue(listed.out.contains("bot accounts [700]") && listed.out.contains("AK-BOT-0001"), listed.out);
        assertFalse(listed.out.contains(secret.group(1)), "list never shows a secret");

        run(0, Map.of(), "", "--file", file.toString(), "remove-key", "bot", "AK-BOT-0001");
        assertNull(CredentialStore.load(file, true, 50, 100).apiKey("AK-BOT-0001"));
        assertError(1, "neither a password nor an API key", Map.of(), "--file", file.toString(), "remove-key",
            "bot", generated.out.substring(8, 8 + 15));
        run(0, Map.of(), "", "--file", file.toString(), "remove", "bot");
        assertNull(CredentialStore.load(file, true, 50, 100).directory().get("bot"));
    }

    @Test
    void shouldRefuseBadCommandsAndLeaveTheFileAsItWas() throws IOException
    {
        final Path file = dir.resolve("credentials.json");
        run(0, Map.of("WARPBUS_PASSWORD", "long enough"), "", "--file", file.toString(), "add", "dave",
            "--accounts", "501");
        final String before = Files.readString(file);

        assertError(1, "user 'dave' already exists", Map.of("WARPBUS_PASSWORD", "long enough"), "--file",
            file.toString(), "add", "dave", "--accounts", "502");
        assertError(1, "at least 8 characters", Map.of("WARPBUS_PASSWORD", "short"), "--file", file.toString(),
            "add", "erin", "--accounts", "502");
        assertError(1, "no password for 'erin'", Map.of(), "--file", file.toString(), "add", "erin", "--accounts",
            "502");
        assertError(1, "--accounts: 'x' is not a whole number", Map.of("WARPBUS_PASSWORD", "long enough"), "--file",
            file.toString(), "add", "erin", "--accounts", "x");
        assertError(1, "unknown role 'superuser'", Map.of("WARPBUS_PASSWORD", "long enough"), "--file",
            file.toString(), "add", "erin", "--accounts", "502", "--roles", "superuser");
        assertError(1, "no user 'nobody'", Map.of(), "--file", file.toString(), "remove", "nobody");
        assertError(1, "has no API key AK-NONE-0001", Map.of(), "--file", file.toString(), "remove-key", "dave",
            "AK-NONE-0001");
        assertError(2, "add needs --accounts (comma-separated account numbers) for a user with the trader role",
            Map.of(), "--file", file.toString(), "add", "erin");
        assertError(2, "add needs --accounts", Map.of(), "--file", file.toString(), "add", "erin", "--roles",
            "admin,trader");
        assertError(2, "user name 'bad name!' must be", Map.of(), "--file", file.toString(), "remove", "bad name!");
        assertError(2, "list has no option --accounts", Map.of(), "--file", file.toString(), "list", "--accounts",
            "1");
        assertError(2, "a command is required", Map.of(), "--file", file.toString(), "rename", "dave");
        assertError(2, "--file is required", Map.of(), "list");
        assertEquals(before, Files.readString(file), "nothing refused changed the file");
        try (var files = Files.list(dir))
        {
            assertEquals(1, files.count(), "no temporary file left behind");
        }

        final Path broken = dir.resolve("broken.json");
        Files.writeString(broken, "{\"users\": [");
        assertError(1, "is not valid JSON", Map.of(), "--file", broken.toString(), "list");
    }

    private void assertError(final int exit, final String message, final Map<String, String> environment,
        final String... args)
    {
        final Run run = run(exit, environment, "", args);
        assertTrue(run.err.contains(message), String.join(" ", args) + ": " + run.err);
    }

    private static Run run(final int expectedExit, final Map<String, String> environment, final String stdin,
        final String... args)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final CredentialsTool tool = new CredentialsTool(new PrintStream(out, true, StandardCharsets.UTF_8),
            new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), environment::get);
        final int exit = tool.run(args, new PrintStream(err, true, StandardCharsets.UTF_8));
        final Run run = new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        assertEquals(expectedExit, exit, String.join(" ", args) + ": " + run);
        return run;
    }

    private record Run(int exit, String out, String err)
    {
    }
}
