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

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import io.warpbus.gateway.session.GatewayCounterDescriptor;
import io.warpbus.gateway.session.GatewayCounters;
import io.warpbus.gateway.session.User;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;
import org.springframework.security.crypto.password.PasswordEncoder;

/**
 * Checks logons, on the adapter's thread, before anything reaches the session core. Two kinds of credentials:
 * <ul>
 *     <li><b>User name and password</b>, checked against the stored hash with Spring Security's password encoder
 *     (bcrypt). An unknown user costs the same hash check as a known one, so timing does not tell them apart.</li>
 *     <li><b>API key</b>: the key id, a timestamp (epoch milliseconds), a nonce and
 *     {@code signature = hex(HMAC-SHA256(secret, "warpbus-logon\n" + keyId + "\n" + timestamp + "\n" + nonce))}.
 *     The timestamp must be within the allowed skew of the gateway's clock and the nonce never seen with that key
 *     within twice that window, so a captured logon cannot be replayed.</li>
 * </ul>
 * Every failure gives a reason, is counted by kind, and feeds the {@link LogonThrottle} under the client's address
 * and the name the logon was checked under (the user name, or the key id); a throttled address or name is refused
 * before its credentials are looked at.
 * <p>
 * Credentials that pass are not the end of a logon: the session core may still refuse it (a blocked user, a resume
 * it cannot honour, no room for another session). The adapter reports the core's answer, {@link #onRefused} counting
 * like a failure and {@link #onAccepted} forgiving the failures counted under that name, so that a name whose logons
 * the core keeps refusing is throttled too. Any thread.
 */
public final class Authenticator
{
    static final String SIGNATURE_PREFIX = "warpbus-logon\n";
    private static final int MIN_NONCE = 16;
    private static final int MAX_NONCE = 64;

    private final CredentialStore credentials;
    private final PasswordEncoder encoder;
    private final LogonThrottle throttle;
    private final GatewayCounters counters;
    private final EpochClock clock;
    private final NanoClock nanoClock;
    private final long skewMs;
    private final String dummyHash;
    private final ConcurrentHashMap<String, Long> nonces = new ConcurrentHashMap<>();
    private final AtomicLong noncesSincePurge = new AtomicLong();

    /**
     * The result of a logon check: the user, or why not.
     *
     * @param user    the authenticated user, or null.
     * @param failure why the logon was refused, or null.
     */
    public record Outcome(User user, String failure)
    {
        /**
         * Did the logon succeed?
         *
         * @return true if so.
         */
        public boolean succeeded()
        {
            return null != user;
        }
    }

    /**
     * An authenticator.
     *
     * @param credentials the stored credentials.
     * @param encoder     password encoder (delegating, so hashes carry their encoder id).
     * @param throttle    failure throttle.
     * @param counters    where failures are counted.
     * @param clock       epoch milliseconds, for API-key logons' timestamps (the client signs its wall clock).
     * @param nanoClock   a monotonic clock, for the throttle's windows: a step of the wall clock (NTP) must neither
     *                    lift a lockout early nor stretch it by the step.
     * @param skewMs      how far an API-key logon's timestamp may be from the gateway's clock.
     */
    public Authenticator(final CredentialStore credentials, final PasswordEncoder encoder,
        final LogonThrottle throttle, final GatewayCounters counters, final EpochClock clock,
        final NanoClock nanoClock, final long skewMs)
    {
        this.credentials = credentials;
        this.encoder = encoder;
        this.throttle = throttle;
        this.counters = counters;
        this.clock = clock;
        this.nanoClock = nanoClock;
        this.skewMs = skewMs;
        this.dummyHash = encoder.encode("no such user: the same work as a real check");
    }

    /**
     * Check a user name and password.
     *
     * @param userName the user name.
     * @param password the password.
     * @param address  the client's address, for throttling.
     * @return the outcome: a success forgives no failure until the core accepts the logon ({@link #onAccepted}).
     */
    public Outcome password(final String userName, final String password, final String address)
    {
        final Outcome throttled = throttled(address, userName);
        if (null != throttled)
        {
            return throttled;
        }
        final User user = credentials.directory().get(userName);
        final String hash = null == user ? null : credentials.passwordHash(userName);
        final boolean matches = encoder.matches(password, null == hash ? dummyHash : hash);
        if (null == user || null == hash)
        {
            return fail(address, userName, GatewayCounterDescriptor.LOGON_FAILED_UNKNOWN_USER,
                "unknown user or wrong password");
        }
        if (!matches)
        {
            return fail(address, userName, GatewayCounterDescriptor.LOGON_FAILED_BAD_PASSWORD,
                "unknown user or wrong password");
        }
        return new Outcome(user, null);
    }

    /**
     * Check an API-key logon.
     *
     * @param keyId       the key id.
     * @param timestampMs the client's epoch milliseconds when it signed.
     * @param nonce       16 to 64 characters, never reused.
     * @param signature   hex HMAC-SHA256 of the signed text.
     * @param address     the client's address, for throttling.
     * @return the outcome: a success forgives no failure until the core accepts the logon ({@link #onAccepted}).
     */
    public Outcome apiKey(final String keyId, final long timestampMs, final String nonce, final String signature,
        final String address)
    {
        final Outcome throttled = throttled(address, keyId);
        if (null != throttled)
        {
            return throttled;
        }
        final CredentialStore.ApiKey key = credentials.apiKey(keyId);
        if (null == key)
        {
            return fail(address, keyId, GatewayCounterDescriptor.LOGON_FAILED_UNKNOWN_KEY, "unknown API key");
        }
        final long nowMs = clock.time();
        if (Math.abs(nowMs - timestampMs) > skewMs)
        {
            return fail(address, keyId, GatewayCounterDescriptor.LOGON_FAILED_STALE_TIMESTAMP, "timestamp " +
                timestampMs + " is more than " + skewMs + " ms from the gateway's clock " + nowMs);
        }
        final int nonceLength = nonce.codePointCount(0, nonce.length());
        if (nonceLength < MIN_NONCE || nonceLength > MAX_NONCE)
        {
            return fail(address, keyId, GatewayCounterDescriptor.LOGON_FAILED_BAD_SIGNATURE, "nonce must be " +
                MIN_NONCE + " to " + MAX_NONCE + " characters");
        }
        final byte[] expected = sign(key.secret(), keyId, timestampMs, nonce);
        final byte[] given;
        try
        {
            given = HexFormat.of().parseHex(signature);
        }
        catch (final IllegalArgumentException ex)
        {
            return fail(address, keyId, GatewayCounterDescriptor.LOGON_FAILED_BAD_SIGNATURE,
                "signature must be hex");
        }
        if (!MessageDigest.isEqual(expected, given))
        {
            return fail(address, keyId, GatewayCounterDescriptor.LOGON_FAILED_BAD_SIGNATURE, "bad signature");
        }
        if (null != nonces.putIfAbsent(keyId + '\n' + nonce, nowMs + 2 * skewMs))
        {
            return fail(address, keyId, GatewayCounterDescriptor.LOGON_FAILED_REPLAYED_NONCE,
                "nonce already used: a logon cannot be replayed");
        }
        purgeNonces(nowMs);
        return new Outcome(credentials.directory().get(key.userIndex()), null);
    }

    /**
     * A logon whose credentials passed was refused by the session core (a blocked user, a refused resume, no room
     * for another session): it counts toward the throttle like a failure.
     *
     * @param address the client's address.
     * @param name    the user name or key id the logon was checked under, or null.
     */
    public void onRefused(final String address, final String name)
    {
        throttle.onFailure(address, name, monotonicMs());
    }

    /**
     * A logon was accepted by the session core: the failures counted under the name it was checked under are
     * forgiven (those of the address are not, nor those of the user's other names: a good API key does not forgive
     * wrong passwords).
     *
     * @param name the user name or key id the logon was checked under, or null.
     */
    public void onAccepted(final String name)
    {
        if (null != name)
        {
            throttle.onSuccess(name);
        }
    }

    /**
     * The signature of an API-key logon, as clients must compute it.
     *
     * @param secret      the key's secret.
     * @param keyId       the key id.
     * @param timestampMs the timestamp.
     * @param nonce       the nonce.
     * @return the HMAC-SHA256.
     */
    public static byte[] sign(final byte[] secret, final String keyId, final long timestampMs, final String nonce)
    {
        try
        {
            final Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return mac.doFinal((SIGNATURE_PREFIX + keyId + "\n" + timestampMs + "\n" + nonce)
                .getBytes(StandardCharsets.UTF_8));
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException("HmacSHA256 is not available", ex);
        }
    }

    private Outcome throttled(final String address, final String user)
    {
        final long retryAfterMs = throttle.retryAfterMs(address, user, monotonicMs());
        if (retryAfterMs > 0)
        {
            counters.increment(GatewayCounterDescriptor.LOGONS_THROTTLED);
            return new Outcome(null, "throttled: too many failed logons, retry in " +
                Math.max(1, retryAfterMs / 1000) + " s");
        }
        return null;
    }

    private Outcome fail(final String address, final String user, final GatewayCounterDescriptor counter,
        final String reason)
    {
        counters.increment(counter);
        throttle.onFailure(address, user, monotonicMs());
        return new Outcome(null, reason);
    }

    private long monotonicMs()
    {
        return TimeUnit.NANOSECONDS.toMillis(nanoClock.nanoTime());
    }

    private void purgeNonces(final long nowMs)
    {
        if (noncesSincePurge.incrementAndGet() % 1024 == 0)
        {
            nonces.entrySet().removeIf((entry) -> entry.getValue() < nowMs);
        }
    }
}
