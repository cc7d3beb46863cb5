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

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Throttles logons after repeated failures: once {@code maxFailures} logons from one address, or for one user, have
 * failed within {@code windowMs}, further attempts from that address or for that user are refused, without their
 * credentials being checked, until the window has passed. A success clears the count of the name it used (user name
 * or key id). Times are monotonic milliseconds (never the wall clock, which can step). Any thread.
 */
public final class LogonThrottle
{
    private static final int MAX_TRACKED = 100_000;

    private final int maxFailures;
    private final long windowMs;
    private final ConcurrentHashMap<String, Window> failures = new ConcurrentHashMap<>();

    /**
     * A throttle.
     *
     * @param maxFailures failures allowed per window.
     * @param windowMs    the window.
     */
    public LogonThrottle(final int maxFailures, final long windowMs)
    {
        if (maxFailures < 1 || windowMs < 1)
        {
            throw new IllegalArgumentException("logon throttle needs at least one failure and a window: " +
                maxFailures + " in " + windowMs + " ms");
        }
        this.maxFailures = maxFailures;
        this.windowMs = windowMs;
    }

    /**
     * Is a logon from this address or for this user throttled now?
     *
     * @param address the client's address.
     * @param user    the user or key id it names, or null.
     * @param nowMs   the time now.
     * @return milliseconds until it may try again, or 0 when not throttled.
     */
    public long retryAfterMs(final String address, final String user, final long nowMs)
    {
        return Math.max(retryAfter("a:" + address, nowMs), null == user ? 0 : retryAfter("u:" + user, nowMs));
    }

    /**
     * Count a failed logon.
     *
     * @param address the client's address.
     * @param user    the user or key id it named, or null.
     * @param nowMs   the time now.
     */
    public void onFailure(final String address, final String user, final long nowMs)
    {
        if (failures.size() > MAX_TRACKED)
        {
            failures.entrySet().removeIf((entry) -> nowMs - entry.getValue().startMs > windowMs);
        }
        count("a:" + address, nowMs);
        if (null != user)
        {
            count("u:" + user, nowMs);
        }
    }

    /**
     * A logon succeeded: the failures counted under the name it used are forgiven (the address's are not).
     *
     * @param user the user name or key id, as given to {@link #onFailure}.
     */
    public void onSuccess(final String user)
    {
        failures.remove("u:" + user);
    }

    /**
     * The window.
     *
     * @return seconds, for messages.
     */
    public long windowSeconds()
    {
        return TimeUnit.MILLISECONDS.toSeconds(windowMs);
    }

    private void count(final String key, final long nowMs)
    {
        failures.compute(key, (k, window) ->
        {
            if (null == window || nowMs - window.startMs > windowMs)
            {
                return new Window(nowMs, 1);
            }
            return new Window(window.startMs, window.count + 1);
        });
    }

    private long retryAfter(final String key, final long nowMs)
    {
        final Window window = failures.get(key);
        if (null == window || window.count < maxFailures)
        {
            return 0;
        }
        final long left = window.startMs + windowMs - nowMs;
        return Math.max(0, left);
    }

    private record Window(long startMs, int count)
    {
    }
}
