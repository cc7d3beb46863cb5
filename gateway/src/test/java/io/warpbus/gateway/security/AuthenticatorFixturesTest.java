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

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HexFormat;

import io.warpbus.gateway.session.GatewayCounters;
import org.agrona.CloseHelper;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static io.warpbus.gateway.security.AuthenticatorFixtures.BOB_KEY;
import static io.warpbus.gateway.security.AuthenticatorFixtures.BOB_SECRET;
import static io.warpbus.gateway.security.AuthenticatorFixtures.bcrypt;
import static io.warpbus.gateway.security.AuthenticatorFixtures.bobApiKey;
import static io.warpbus.gateway.security.AuthenticatorFixtures.credentials;
import static io.warpbus.gateway.security.AuthenticatorFixtures.writeCredentials;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fixture the authenticator's and the WebSocket adapter's tests build on: a file the gateway would accept, and an
 * authenticator over it that checks the hashes and the key it was given and throttles after the failures it was told.
 */
@Timeout(60)
class AuthenticatorFixturesTest
{
    @TempDir
    Path dir;
    private GatewayCounters counters;

    @AfterEach
    void tearDown()
    {
        CloseHelper.quietClose(counters);
    }

    @Test
    void shouldWriteTheCredentialsFileReadableByItsOwnerOnly() throws Exception
    {
        final Path file = writeCredentials(dir.resolve("conf"), "{\"users\":[]}");

        assertEquals(dir.resolve("conf").resolve("credentials.json"), file);
        assertEquals("{\"users\":[]}", Files.readString(file));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    }

    @Test
    void shouldCheckTheStoredPasswordAndKeyAndThrottleAfterTheFailuresGiven()
    {
        final Path file = writeCredentials(dir, "{\"users\":[{\"name\":\"dave\",\"password\":\"" + bcrypt("dave-pw") +
            "\",\"accounts\":[501],\"apiKeys\":[" + bobApiKey() + "]}]}");
        counters = new GatewayCounters(dir.resolve("counters"));
        final CachedEpochClock clock = AuthenticatorFixtures.clock();
        final Authenticator authenticator = AuthenticatorFixtures.authenticator(credentials(file), 2, counters, clock);

        assertEquals(AuthenticatorFixtures.START_MS, clock.time());
        assertTrue(authenticator.password("dave", "dave-pw", "192.0.2.1").succeeded(), "the stored password");
        final String nonce = "nonce-0000000000000001";
        final String signature = HexFormat.of().formatHex(Authenticator.sign(BOB_SECRET, BOB_KEY, clock.time(), nonce));
        assertTrue(authenticator.apiKey(BOB_KEY, clock.time(), nonce, signature, "192.0.2.2").succeeded(),
            "the key's secret");

        assertEquals("unknown user or wrong password", authenticator.password("dave", "guess-1", "192.0.2.3")
            .failure());
        assertEquals("unknown user or wrong password", authenticator.password("dave", "guess-2", "192.0.2.4")
            .failure());
        final String failure = authenticator.password("dave", "dave-pw", "192.0.2.5").failure();
        assertTrue(null != failure && failure.startsWith("throttled"), "throttled after two failures: " + failure);
    }
}
