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
package io.warpbus.demo;

import java.io.IOException;
import java.nio.file.Path;

import io.warpbus.bus.Bus;
import io.warpbus.bus.BusContext;
import io.warpbus.demo.service.EngineContext;
import io.warpbus.iwarp.ThreadingMode;
import io.warpbus.matching.load.LoadProfile;
import io.warpbus.testing.FreePorts;

/**
 * Channels on free loopback ports, small {@code INVOKER} buses and engine contexts on those channels for the demo's
 * in-process tests.
 */
final class DemoRig
{
    final String orders;
    final String reports;
    final String marketData;
    final String snapshots;

    DemoRig() throws IOException
    {
        final int orderPort = FreePorts.loopback();
        final int enginePort = FreePorts.loopback();
        orders = "warp:iwarp?endpoint=127.0.0.1:" + orderPort + "|stream=1001";
        reports = "warp:iwarp?endpoint=127.0.0.1:" + enginePort + "|stream=1002";
        marketData = "warp:iwarp?endpoint=127.0.0.1:" + enginePort + "|stream=1003";
        snapshots = "warp:iwarp?endpoint=127.0.0.1:" + enginePort + "|stream=1004";
    }

    /**
     * An engine context on these four channels, with no instruments or accounts yet.
     */
    EngineContext engineContext(final Bus bus, final AppCounters counters)
    {
        return new EngineContext()
            .bus(bus)
            .counters(counters)
            .orderEntryChannel(orders)
            .executionReportChannel(reports)
            .marketDataChannel(marketData)
            .snapshotChannel(snapshots);
    }

    /**
     * An engine context on these four channels with the profile's instruments and every account of the profile
     * under its risk limits.
     */
    EngineContext engineContext(final Bus bus, final AppCounters counters, final LoadProfile profile)
    {
        final EngineContext context = engineContext(bus, counters).instruments(profile.instruments());
        for (final int accountId : profile.accountIds())
        {
            context.account(accountId, profile.riskLimits());
        }
        return context;
    }

    static Bus bus(final Path dir, final String name)
    {
        return Bus.launch(new BusContext().directory(dir).name(name).threadingMode(ThreadingMode.INVOKER)
            .termLength(1024 * 1024).window(16 * 1024 * 1024).ringCapacity(4 * 1024 * 1024));
    }
}
