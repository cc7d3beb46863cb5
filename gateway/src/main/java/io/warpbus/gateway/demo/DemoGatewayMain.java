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
package io.warpbus.gateway.demo;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import io.warpbus.gateway.GatewayApplication;
import io.warpbus.gateway.metrics.GatewayMetrics;
import io.warpbus.gateway.session.GatewayCounterDescriptor;
import io.warpbus.gateway.session.GatewayCounters;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The gateway as a process of {@code ./warpbus demo}: the gateway application with the demo's arguments (Spring
 * properties), which prints {@code READY gateway ws=... http=...} once it serves, a {@code STATS gateway} line every
 * second (sessions, logons, orders, reports, market data, conflation, the order round trip inside the gateway over
 * the last minute) and {@code STOPPED gateway} after a clean shutdown when the demo says stop.
 */
public final class DemoGatewayMain
{
    private DemoGatewayMain()
    {
    }

    /**
     * Run the gateway for the demo.
     *
     * @param args Spring Boot arguments ({@code --server.port=...}, {@code --warpbus.gateway...}).
     * @throws InterruptedException if interrupted.
     */
    public static void main(final String[] args) throws InterruptedException
    {
        final CountDownLatch stop = Supervised.stopSignal(System.in);
        final ConfigurableApplicationContext context = SpringApplication.run(GatewayApplication.class, args);
        final String host = context.getEnvironment().getProperty("server.address", "127.0.0.1");
        final int port = ((WebServerApplicationContext)context).getWebServer().getPort();
        final GatewayCounters counters = context.getBean(GatewayCounters.class);
        final GatewayMetrics metrics = context.getBean(GatewayMetrics.class);
        Supervised.say("READY gateway pid=" + ProcessHandle.current().pid() + " ws=ws://" + host + ":" + port +
            "/ws http=http://" + host + ":" + port + "/ metrics=http://" + host + ":" + port +
            "/actuator/prometheus counters=" + counters.file());
        while (!stop.await(1, TimeUnit.SECONDS))
        {
            Supervised.say(stats(counters, metrics));
        }
        Supervised.say(stats(counters, metrics));
        final int exit = SpringApplication.exit(context);
        Supervised.say("STOPPED gateway exit=" + exit);
        System.exit(exit);
    }

    static String stats(final GatewayCounters counters, final GatewayMetrics metrics)
    {
        long logonFailures = 0;
        for (final GatewayCounterDescriptor descriptor : GatewayCounterDescriptor.values())
        {
            if (descriptor.meterName().equals("warpbus.gateway.logon.failures"))
            {
                logonFailures += counters.value(descriptor);
            }
        }
        final StringBuilder line = new StringBuilder(256).append("STATS gateway")
            .append(" sessions=").append(counters.value(GatewayCounterDescriptor.SESSIONS_HELD))
            .append(" connected=").append(counters.value(GatewayCounterDescriptor.SESSIONS_CONNECTED))
            .append(" logons=").append(counters.value(GatewayCounterDescriptor.LOGONS))
            .append(" logon_failures=").append(logonFailures)
            .append(" orders=").append(counters.value(GatewayCounterDescriptor.ORDERS_SENT))
            .append(" reports=").append(counters.value(GatewayCounterDescriptor.REPORTS_OUT))
            .append(" gateway_rejects=").append(counters.value(GatewayCounterDescriptor.GATEWAY_REJECTS))
            .append(" engine_rejects=").append(counters.value(GatewayCounterDescriptor.ENGINE_REJECTS))
            .append(" md_out=").append(counters.value(GatewayCounterDescriptor.MARKET_DATA_OUT))
            .append(" conflated=").append(counters.value(GatewayCounterDescriptor.CONFLATED_UPDATES))
            .append(" lost_orders=").append(counters.value(GatewayCounterDescriptor.LOST_ORDERS))
            .append(" errors=").append(counters.value(GatewayCounterDescriptor.ERRORS));
        final Timer all = metrics.roundTrip();
        final Timer recent = metrics.recentRoundTrip();
        if (null != all && null != recent)
        {
            line.append(" rtt_count=").append(all.count());
            for (final ValueAtPercentile percentile : recent.takeSnapshot().percentileValues())
            {
                final String name = 0.5 == percentile.percentile() ? "rtt_p50_ns" :
                    0.99 == percentile.percentile() ? "rtt_p99_ns" : 0.999 == percentile.percentile() ?
                    "rtt_p999_ns" : null;
                if (null != name)
                {
                    line.append(' ').append(name).append('=').append((long)percentile.value(TimeUnit.NANOSECONDS));
                }
            }
            line.append(" rtt_max_ns=").append((long)all.max(TimeUnit.NANOSECONDS));
        }
        return line.toString();
    }
}
