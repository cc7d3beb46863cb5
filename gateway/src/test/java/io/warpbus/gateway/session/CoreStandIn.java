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

import org.agrona.concurrent.ringbuffer.RingBuffer;

/**
 * For tests of the protocol adapters without a session core: the {@link CommandProxy} the core would give them,
 * over a ring the test reads itself, what the core does to a connection once it has taken its {@code CLOSED}, and
 * the instruments the core learns from the engine.
 */
public final class CoreStandIn
{
    private CoreStandIn()
    {
    }

    /**
     * A proxy writing to a ring.
     *
     * @param ring the ring the commands go to.
     * @return the proxy.
     */
    public static CommandProxy commands(final RingBuffer ring)
    {
        return new CommandProxy(ring);
    }

    /**
     * Retire a connection, as the core does when it takes the connection's {@code CLOSED}.
     *
     * @param connection the connection.
     */
    public static void retire(final Connection connection)
    {
        connection.retire();
    }

    /**
     * Define or redefine an instrument, as the core does when the engine's market data defines it.
     *
     * @return the instrument as registered.
     */
    public static InstrumentInfo define(final InstrumentRegistry registry, final int id, final String symbol,
        final long tickSize, final long lotSize, final int priceScale)
    {
        return registry.define(id, symbol, tickSize, lotSize, priceScale);
    }
}
