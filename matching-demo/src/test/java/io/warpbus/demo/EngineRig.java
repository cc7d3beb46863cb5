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
import io.warpbus.demo.service.EngineContext;
import io.warpbus.matching.load.LoadProfile;
import org.agrona.CloseHelper;

/**
 * What an in-process test of the engine service stands on: a {@link DemoRig}'s channels, the engine's bus
 * ({@code engine}), the client's bus ({@code client}) and the engine's app counters ({@code engine-app}), all in the
 * test's directory and closed together.
 */
final class EngineRig implements AutoCloseable
{
    final DemoRig channels;
    final Bus engineBus;
    final Bus clientBus;
    final AppCounters counters;

    /**
     * On {@link DemoRig#bus(Path, String) small INVOKER buses} for both sides.
     */
    EngineRig(final Path dir) throws IOException
    {
        this(dir, DemoRig.bus(dir, "engine"));
    }

    /**
     * On an engine bus of the test's own, which the rig then owns and closes.
     */
    EngineRig(final Path dir, final Bus engineBus) throws IOException
    {
        this.engineBus = engineBus;
        Bus clientBus = null;
        try
        {
            channels = new DemoRig();
            clientBus = DemoRig.bus(dir, "client");
            counters = new AppCounters(dir.resolve("engine-app"));
        }
        catch (final IOException | RuntimeException ex)
        {
            CloseHelper.quietCloseAll(clientBus, engineBus);
            throw ex;
        }
        this.clientBus = clientBus;
    }

    /**
     * An engine context on the engine bus and the rig's channels and counters, with no instruments or accounts yet.
     */
    EngineContext context()
    {
        return channels.engineContext(engineBus, counters);
    }

    /**
     * An engine context on the engine bus and the rig's channels and counters, with the profile's instruments and
     * accounts.
     */
    EngineContext context(final LoadProfile profile)
    {
        return channels.engineContext(engineBus, counters, profile);
    }

    @Override
    public void close()
    {
        CloseHelper.quietCloseAll(engineBus, clientBus, counters);
    }
}
