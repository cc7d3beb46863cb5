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
package io.warpbus.bench.bus;

import java.util.EnumMap;
import java.util.Map;

import org.agrona.CloseHelper;

/**
 * The systems without a bus, one endpoint each in a process: {@code warpbus-rdma} and {@code warpbus-rdma-duplex}
 * on an engine each (an engine reads every connection it has on every duty cycle, so each system is measured with
 * only its own), {@code tcp-nio} and {@code tcp-nio-duplex} on plain sockets.
 */
final class PeerEndpoints implements AutoCloseable
{
    private final Map<BusSystem, Endpoint> endpoints = new EnumMap<>(BusSystem.class);
    private final Endpoint[] all;

    PeerEndpoints()
    {
        for (final BusSystem system : BusSystem.values())
        {
            if (system.isPeer())
            {
                endpoints.put(system, newEndpoint(system));
            }
        }
        all = endpoints.values().toArray(new Endpoint[0]);
    }

    /**
     * A new endpoint for a system without a bus.
     *
     * @param system one of them.
     * @return its endpoint, unconnected.
     */
    static Endpoint newEndpoint(final BusSystem system)
    {
        return PeerChannels.TCP == system.peerChannels() ? new TcpEndpoint() : new RdmaEndpoint();
    }

    /**
     * The endpoint of a system without a bus.
     *
     * @param system one of them.
     * @return its endpoint.
     */
    Endpoint of(final BusSystem system)
    {
        final Endpoint endpoint = endpoints.get(system);
        if (null == endpoint)
        {
            throw new IllegalArgumentException(system.label() + " is not a system without a bus");
        }
        return endpoint;
    }

    /**
     * A duty cycle of each, for connection events while the benchmark thread waits.
     */
    void doWork()
    {
        for (final Endpoint endpoint : all)
        {
            endpoint.doWork();
        }
    }

    @Override
    public void close()
    {
        CloseHelper.quietCloseAll(all);
    }
}
