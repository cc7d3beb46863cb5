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
package io.warpbus.gateway.fix;

import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * The FIX adapter's own meters, tagged {@code protocol=fix}: FIX messages in and out (session-level included),
 * FIX logons and refused FIX logons, BusinessMessageRejects, and sessions logged on. What the session core counts
 * (logons by outcome, rejects, rate limits, round trips) is counted there for every protocol alike, FIX included.
 */
public final class FixMetrics implements MeterBinder
{
    private final AtomicLong inbound = new AtomicLong();
    private final AtomicLong outbound = new AtomicLong();
    private final AtomicLong logons = new AtomicLong();
    private final AtomicLong logonFailures = new AtomicLong();
    private final AtomicLong businessRejects = new AtomicLong();
    private final AtomicLong sessionRejects = new AtomicLong();
    private final AtomicLong loggedOn = new AtomicLong();

    @Override
    public void bindTo(final MeterRegistry registry)
    {
        FunctionCounter.builder("warpbus.gateway.fix.messages", inbound, AtomicLong::get).tag("protocol", "fix")
            .tag("direction", "in").description("FIX messages received").register(registry);
        FunctionCounter.builder("warpbus.gateway.fix.messages", outbound, AtomicLong::get).tag("protocol", "fix")
            .tag("direction", "out").description("FIX messages sent").register(registry);
        FunctionCounter.builder("warpbus.gateway.fix.logons", logons, AtomicLong::get).tag("protocol", "fix")
            .description("FIX logons accepted").register(registry);
        FunctionCounter.builder("warpbus.gateway.fix.logon.failures", logonFailures, AtomicLong::get)
            .tag("protocol", "fix").description("FIX logons refused with a Logout").register(registry);
        FunctionCounter.builder("warpbus.gateway.fix.rejects", businessRejects, AtomicLong::get)
            .tag("protocol", "fix").tag("kind", "business")
            .description("BusinessMessageRejects (j) sent").register(registry);
        FunctionCounter.builder("warpbus.gateway.fix.rejects", sessionRejects, AtomicLong::get)
            .tag("protocol", "fix").tag("kind", "session")
            .description("session-level Rejects (3) sent").register(registry);
        Gauge.builder("warpbus.gateway.fix.sessions", loggedOn, AtomicLong::get).tag("protocol", "fix")
            .description("FIX sessions logged on").register(registry);
    }

    void onInbound()
    {
        inbound.incrementAndGet();
    }

    void onOutbound()
    {
        outbound.incrementAndGet();
    }

    void onLogon()
    {
        logons.incrementAndGet();
        loggedOn.incrementAndGet();
    }

    void onLoggedOut()
    {
        loggedOn.decrementAndGet();
    }

    void onLogonFailure()
    {
        logonFailures.incrementAndGet();
    }

    void onBusinessReject()
    {
        businessRejects.incrementAndGet();
    }

    void onSessionReject()
    {
        sessionRejects.incrementAndGet();
    }

    /**
     * FIX logons accepted.
     *
     * @return the count.
     */
    public long logons()
    {
        return logons.get();
    }

    /**
     * FIX logons refused.
     *
     * @return the count.
     */
    public long logonFailures()
    {
        return logonFailures.get();
    }

    /**
     * BusinessMessageRejects sent.
     *
     * @return the count.
     */
    public long businessRejects()
    {
        return businessRejects.get();
    }

    /**
     * Session-level Rejects sent.
     *
     * @return the count.
     */
    public long sessionRejects()
    {
        return sessionRejects.get();
    }
}
