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
package io.warpbus.gateway.session;

/**
 * A token bucket: up to {@code burst} requests at once, refilled at {@code ratePerSecond}. Allocation free; owned
 * by one thread.
 */
final class TokenBucket
{
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private long ratePerSecond;
    private long burst;
    private long tokensNanos;
    private long lastNs;

    /**
     * Set the limits and fill the bucket.
     *
     * @param ratePerSecond refill rate, above 0.
     * @param burst         capacity, at least 1.
     * @param nowNs         the time now.
     */
    void reset(final long ratePerSecond, final long burst, final long nowNs)
    {
        this.ratePerSecond = ratePerSecond;
        this.burst = burst;
        this.tokensNanos = burst * NANOS_PER_SECOND;
        this.lastNs = nowNs;
    }

    /**
     * Take a token if there is one.
     *
     * @param nowNs the time now.
     * @return true if a token was taken; false if the rate is exceeded.
     */
    boolean tryAcquire(final long nowNs)
    {
        final long elapsedNs = nowNs - lastNs;
        lastNs = nowNs;
        final long capacity = burst * NANOS_PER_SECOND;
        if (elapsedNs > 0)
        {
            // Tokens are counted in token-nanoseconds: elapsed * rate refills without a division.
            final long refill = elapsedNs >= capacity / ratePerSecond ? capacity : elapsedNs * ratePerSecond;
            tokensNanos = Math.min(capacity, tokensNanos + refill);
        }
        if (tokensNanos >= NANOS_PER_SECOND)
        {
            tokensNanos -= NANOS_PER_SECOND;
            return true;
        }
        return false;
    }
}
