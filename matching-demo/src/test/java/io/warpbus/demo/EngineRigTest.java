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

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.warpbus.bus.Bus;
import io.warpbus.demo.service.EngineContext;
import io.warpbus.matching.RiskLimits;
import io.warpbus.matching.load.LoadProfile;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The demo tests' fixture: the engine context it builds stands on its own bus, counters and channels, and it closes
 * what it opened, also when it could not open everything.
 */
@Timeout(60)
class EngineRigTest
{
    @TempDir
    Path dir;

    @Test
    void shouldBuildAnEngineContextOnTheRigsBusCountersAndChannels() throws Exception
    {
        try (EngineRig rig = new EngineRig(dir))
        {
            final EngineContext context = rig.context();

            assertSame(rig.engineBus, context.bus());
            assertSame(rig.counters, context.counters());
            assertEquals(List.of(rig.channels.orders), context.orderEntryChannels());
            assertEquals(rig.channels.reports, context.executionReportChannel());
            assertEquals(rig.channels.marketData, context.marketDataChannel());
            assertEquals(rig.channels.snapshots, context.snapshotChannel());
            assertEquals(0, context.instruments().length);
            assertTrue(context.accounts().isEmpty());
            assertNotSame(rig.engineBus, rig.clientBus, "a bus for each side");
        }
    }

    @Test
    void shouldAddTheProfilesInstrumentsAndEveryAccountUnderItsLimits() throws Exception
    {
        try (EngineRig rig = new EngineRig(dir))
        {
            final LoadProfile profile = LoadProfile.tradingDay(3, 5);
            final EngineContext context = rig.context(profile);

            assertArrayEquals(profile.instruments(), context.instruments());
            final Map<Integer, RiskLimits> accounts = context.accounts();
            assertArrayEquals(profile.accountIds(), accounts.keySet().stream().mapToInt(Integer::intValue).toArray());
            for (final RiskLimits limits : accounts.values())
            {
                assertEquals(profile.riskLimits(), limits);
            }
            assertEquals(List.of(rig.channels.orders), context.orderEntryChannels());
        }
    }

    @Test
    void shouldCloseBothBuses() throws Exception
    {
        final EngineRig rig = new EngineRig(dir);
        rig.close();

        assertTrue(rig.engineBus.rnic().isClosed(), "engine bus");
        assertTrue(rig.clientBus.rnic().isClosed(), "client bus");
    }

    @Test
    void shouldCloseTheEngineBusItWasGivenWhenItCannotStart() throws Exception
    {
        Files.writeString(dir.resolve("engine-app"), "a file where the counters' directory should be");
        final Bus engineBus = DemoRig.bus(dir, "engine");
        try
        {
            assertThrows(Exception.class, () -> new EngineRig(dir, engineBus));
            assertTrue(engineBus.rnic().isClosed());
        }
        finally
        {
            CloseHelper.quietClose(engineBus);
        }
    }
}
