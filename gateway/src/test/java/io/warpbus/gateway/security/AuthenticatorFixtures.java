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
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.Map;

import io.warpbus.gateway.session.GatewayCounters;
import org.agrona.concurrent.CachedEpochClock;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.security.crypto.password.DelegatingPasswordEncoder;

/**
 * Credentials files and an {@link Authenticator} over one, for the tests that drive an authenticator themselves:
 * bcrypt at strength 4 (fast), a throttle window of a minute, 30 s of allowed clock skew and a clock that starts at
 * {@link #START_MS}.
 */
public final class AuthenticatorFixtures
{
    /** Where the tests' clock starts: 2026-01-02T00:00:00Z. */
    public static final long START_MS = 1_767_312_000_000L;
    /** Bob's API key id. */
    public static final String BOB_KEY = "AK-BOB-0001";
    /** Bob's API key secret. */
    public static final byte[] BOB_SECRET = "bob secret, at least 32 bytes long".getBytes(StandardCharsets.US_ASCII);
    /** How long the logon throttle counts a failure. */
    public static final long THROTTLE_WINDOW_MS = 60_000;
    /** How far a signed logon's timestamp may be from the clock. */
    public static final long SKEW_MS = 30_000;

    private static final BCryptPasswordEncoder BCRYPT = new BCryptPasswordEncoder(4);

    private AuthenticatorFixtures()
    {
    }

    /**
     * A password as a credentials file holds it: {@code {bcrypt}} and the hash.
     */
    public static String bcrypt(final String password)
    {
        return "{bcrypt}" + BCRYPT.encode(password);
    }

    /**
     * Bob's API key as an element of a user's {@code apiKeys} array.
     */
    public static String bobApiKey()
    {
        return "{\"id\":\"" + BOB_KEY + "\",\"secret\":\"" + Base64.getEncoder().encodeToString(BOB_SECRET) + "\"}";
    }

    /**
     * Write {@code credentials.json} in a directory (made if missing), mode 600 as the gateway requires.
     *
     * @return the file.
     */
    public static Path writeCredentials(final Path dir, final String json)
    {
        final Path file = dir.resolve("credentials.json");
        try
        {
            Files.createDirectories(dir);
            Files.writeString(file, json);
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return file;
    }

    /**
     * Load a credentials file, checking its permissions, with 10 orders a second and a burst of 10 by default.
     */
    public static CredentialStore credentials(final Path file)
    {
        return CredentialStore.load(file, true, 10, 10);
    }

    /**
     * A clock at {@link #START_MS}.
     */
    public static CachedEpochClock clock()
    {
        final CachedEpochClock clock = new CachedEpochClock();
        clock.update(START_MS);
        return clock;
    }

    /**
     * An authenticator over the credentials that checks bcrypt hashes and throttles a name or address after
     * {@code maxFailures} failures in {@link #THROTTLE_WINDOW_MS}.
     */
    public static Authenticator authenticator(
        final CredentialStore credentials,
        final int maxFailures,
        final GatewayCounters counters,
        final EpochClock clock)
    {
        return authenticator(credentials, maxFailures, counters, clock, SystemNanoClock.INSTANCE);
    }

    /**
     * As {@link #authenticator(CredentialStore, int, GatewayCounters, EpochClock)}, with the monotonic clock that
     * times the throttle's windows.
     */
    public static Authenticator authenticator(
        final CredentialStore credentials,
        final int maxFailures,
        final GatewayCounters counters,
        final EpochClock clock,
        final NanoClock nanoClock)
    {
        return new Authenticator(credentials, new DelegatingPasswordEncoder("bcrypt", Map.of("bcrypt", BCRYPT)),
            new LogonThrottle(maxFailures, THROTTLE_WINDOW_MS), counters, clock, nanoClock, SKEW_MS);
    }
}
