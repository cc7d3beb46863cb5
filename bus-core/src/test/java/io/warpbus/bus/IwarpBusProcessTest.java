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
package io.warpbus.bus;

import io.warpbus.testing.FreePorts;
import org.junit.jupiter.api.BeforeEach;

/**
 * The multi-process contract over iWARP on loopback: the publisher listens on a port free when the test started,
 * subscribers connect to it (and keep retrying while it is down). The port is from {@link FreePorts}, below the
 * ephemeral range, so that no connection's local end can take it while the publisher is down.
 */
class IwarpBusProcessTest extends BusProcessTestBase
{
    private int port;

    @BeforeEach
    void pickPort()
    {
        port = FreePorts.loopback();
    }

    @Override
    String channel(final int streamId)
    {
        return "warp:iwarp?endpoint=127.0.0.1:" + port + "|stream=" + streamId;
    }
}
