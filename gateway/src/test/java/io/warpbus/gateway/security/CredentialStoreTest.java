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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The credentials file holds bcrypt hashes and nothing else: a plain-text {@code {noop}} password, another
 * encoder's hash, a malformed bcrypt hash or a bare password is refused at load with an error naming the user and
 * what is wrong, never a character of the value; real bcrypt hashes of each version load and check.
 */
@Timeout(60)
class CredentialStoreTest
{
    private static final String SECRET = "Tr0ub4dor-and-3";

    @TempDir
    Path dir;

    @Test
    void shouldLoadBcryptHashesOfEveryVersionAndCheckThem() throws IOException
    {
        final PasswordEncoder encoder = PasswordEncoderFactories.createDelegatingPasswordEncoder();
        for (final BCryptPasswordEncoder.BCryptVersion version : BCryptPasswordEncoder.BCryptVersion.values())
        {
            final String hash = "{bcrypt}" + new BCryptPasswordEncoder(version, 4).encode(SECRET);
            final CredentialStore store = CredentialStore.load(write("dave", hash), true, 1, 1);
            assertEquals(hash, store.passwordHash("dave"), version.toString());
            assertTrue(encoder.matches(SECRET, store.passwordHash("dave")), version.toString());
        }
    }

    @Test
    void shouldRefuseAPasswordThatIsNotABcryptHashWithoutShowingIt() throws IOException
    {
        final String bcrypt = new BCryptPasswordEncoder(4).encode(SECRET);
        final List<List<String>> cases = List.of(
            List.of("{noop}" + SECRET, "plain text ({noop})"),
            List.of(SECRET, "never the password itself"),
            List.of("{" + SECRET + "}", "never the password itself"),
            List.of("{bcrypt}" + SECRET, "is not a well-formed bcrypt hash"),
            List.of("{bcrypt}" + bcrypt.substring(0, bcrypt.length() - 1), "is not a well-formed bcrypt hash"),
            List.of("{bcrypt}" + bcrypt.replace("$04$", "$03$"), "is not a well-formed bcrypt hash"),
            List.of("{bcrypt}" + bcrypt + "x", "is not a well-formed bcrypt hash"),
            List.of(bcrypt, "never the password itself"),
            List.of("{sha256}" + SECRET, "hashed with {sha256}: the gateway accepts only bcrypt"),
            List.of("{argon2}$argon2id$v=19$m=16384,t=2,p=1$" + SECRET, "hashed with {argon2}"),
            List.of("{pbkdf2}" + SECRET, "hashed with {pbkdf2}"));
        for (final List<String> refused : cases)
        {
            final Path file = write("mallory", refused.get(0));
            final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> CredentialStore.load(file, true, 1, 1), refused.get(0));
            final String message = error.getMessage();
            assertTrue(message.startsWith("credentials file " + file + ": user mallory: password "), message);
            assertTrue(message.contains(refused.get(1)), refused.get(0) + " -> " + message);
            assertFalse(message.contains(SECRET), "the secret is never shown: " + message);
            assertFalse(message.contains(bcrypt.substring(29)), "nor any hash: " + message);
        }
    }

    @Test
    void shouldStillAdmitAUserWithAnApiKeyAndNoPassword() throws IOException
    {
        final Path file = dir.resolve("keys-only.json");
        Files.writeString(file, "{\"users\":[{\"name\":\"bot\",\"accounts\":[1],\"apiKeys\":[{\"id\":\"AK-BOT-0001\"," +
            "\"secret\":\"MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=\"}]}]}");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        final CredentialStore store = CredentialStore.load(file, true, 1, 1);
        assertNull(store.passwordHash("bot"));
        assertEquals(0, store.apiKey("AK-BOT-0001").userIndex());
    }

    private Path write(final String user, final String password) throws IOException
    {
        final Path file = dir.resolve(user + ".json");
        Files.writeString(file, "{\"users\":[{\"name\":\"" + user + "\",\"password\":\"" + password +
            "\",\"accounts\":[1]}]}");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }
}
