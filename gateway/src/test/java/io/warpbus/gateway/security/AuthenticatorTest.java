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

import java.nio.file.Path;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;

import io.warpbus.gateway.session.GatewayCounters;
import org.agrona.CloseHelper;
import org.agrona.concurrent.CachedEpochClock;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
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
 * What the logon throttle counts and forgives, per name: every failure counts under the name the logon gave (the
 * user name or the API key id), a logon the session core refuses counts the same, and only a logon the core
 * accepted forgives, and only what was counted under its own name. Each attempt comes from another address, so that
 * the address's own count never decides.
 */
@Timeout(60)
class AuthenticatorTest
{
    private static final int MAX_FAILURES = 3;

    @TempDir
    Path dir;
    private final CachedEpochClock clock = AuthenticatorFixtures.clock();
    private final CachedNanoClock nanoClock = new CachedNanoClock();
    private GatewayCounters counters;
    private Authenticator authenticator;
    private int nextAddress;
    private int nextNonce;

    @BeforeEach
    void setUp()
    {
        final Path file = writeCredentials(dir, "{\"users\":[" +
            "{\"name\":\"alice\",\"password\":\"" + bcrypt("alice-pw") + "\",\"accounts\":[101]}," +
            "{\"name\":\"bob\",\"password\":\"" + bcrypt("bob-pw") + "\",\"accounts\":[201]," +
            "\"apiKeys\":[" + bobApiKey() + "]}]}");
        counters = new GatewayCounters(dir.resolve("counters"));
        authenticator = AuthenticatorFixtures.authenticator(credentials(file), MAX_FAILURES, counters, clock,
            nanoClock);
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.quietClose(counters);
    }

    @Test
    void shouldForgiveTheFailuresOfAnApiKeyWhenALogonWithItIsAccepted()
    {
        assertEquals("bad signature", key("0".repeat(64)).failure());
        assertEquals("bad signature", key("0".repeat(64)).failure());
        final Authenticator.Outcome good = key(null);
        assertTrue(good.succeeded(), good.failure());
        authenticator.onAccepted(BOB_KEY);

        assertEquals("bad signature", key("0".repeat(64)).failure(), "the key's count started again");
        assertEquals("bad signature", key("0".repeat(64)).failure());
        assertTrue(key(null).succeeded(), "two failures since the accepted logon: not throttled");
        assertEquals("bad signature", key("0".repeat(64)).failure());
        assertThrottled(key(null));
    }

    @Test
    void shouldCountALogonTheCoreRefusedAndForgiveNothingBeforeTheCoreAccepts()
    {
        assertEquals("unknown user or wrong password", password("alice", "guess-1").failure());
        assertEquals("unknown user or wrong password", password("alice", "guess-2").failure());
        final String address = address();
        final Authenticator.Outcome good = authenticator.password("alice", "alice-pw", address);
        assertTrue(good.succeeded(), good.failure());
        authenticator.onRefused(address, "alice");

        assertThrottled(password("alice", "alice-pw"));
    }

    @Test
    void shouldNotForgiveWrongPasswordsForALogonWithTheUsersApiKey()
    {
        assertEquals("unknown user or wrong password", password("bob", "guess-1").failure());
        assertEquals("unknown user or wrong password", password("bob", "guess-2").failure());
        assertTrue(key(null).succeeded());
        authenticator.onAccepted(BOB_KEY);
        assertEquals("unknown user or wrong password", password("bob", "guess-3").failure());

        assertThrottled(password("bob", "bob-pw"));
        assertTrue(key(null).succeeded(), "the key has its own count");
        authenticator.onAccepted(BOB_KEY);
    }

    @Test
    void shouldForgiveWrongPasswordsWhenAPasswordLogonIsAccepted()
    {
        assertEquals("unknown user or wrong password", password("alice", "guess-1").failure());
        assertEquals("unknown user or wrong password", password("alice", "guess-2").failure());
        assertTrue(password("alice", "alice-pw").succeeded());
        authenticator.onAccepted("alice");
        assertEquals("unknown user or wrong password", password("alice", "guess-3").failure());
        assertEquals("unknown user or wrong password", password("alice", "guess-4").failure());
        assertTrue(password("alice", "alice-pw").succeeded());
    }

    private Authenticator.Outcome password(final String user, final String password)
    {
        return authenticator.password(user, password, address());
    }

    /**
     * The lockout's window is timed on the monotonic clock: a step of the wall clock (NTP) neither lifts it nor
     * stretches it, and it ends when the window has passed.
     */
    @Test
    void shouldTimeTheLockoutWhateverTheWallClockDoes()
    {
        for (int i = 0; i < MAX_FAILURES; i++)
        {
            assertEquals("unknown user or wrong password", password("alice", "guess-" + i).failure());
        }
        assertThrottled(password("alice", "alice-pw"));

        clock.advance(TimeUnit.HOURS.toMillis(1));
        assertThrottled(password("alice", "alice-pw"));
        clock.advance(-TimeUnit.HOURS.toMillis(2));
        final Authenticator.Outcome back = password("alice", "alice-pw");
        assertThrottled(back);
        assertEquals("throttled: too many failed logons, retry in " +
            TimeUnit.MILLISECONDS.toSeconds(AuthenticatorFixtures.THROTTLE_WINDOW_MS) + " s", back.failure(),
            "the wait is the window's, not the window's and the step's");

        nanoClock.advance(TimeUnit.MILLISECONDS.toNanos(AuthenticatorFixtures.THROTTLE_WINDOW_MS + 1));
        final Authenticator.Outcome after = password("alice", "alice-pw");
        assertTrue(after.succeeded(), String.valueOf(after));
    }

    /**
     * An API-key logon with a fresh nonce: signed right when signature is null.
     */
    private Authenticator.Outcome key(final String signature)
    {
        final String nonce = "nonce-" + String.format("%016d", ++nextNonce);
        final long timestampMs = clock.time();
        final String signed = null != signature ? signature :
            HexFormat.of().formatHex(Authenticator.sign(BOB_SECRET, BOB_KEY, timestampMs, nonce));
        return authenticator.apiKey(BOB_KEY, timestampMs, nonce, signed, address());
    }

    private String address()
    {
        return "192.0.2." + ++nextAddress;
    }

    private static void assertThrottled(final Authenticator.Outcome outcome)
    {
        assertTrue(null != outcome.failure() && outcome.failure().startsWith("throttled: too many failed logons"),
            String.valueOf(outcome));
    }
}
