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
package io.warpbus.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

class FreePortsTest
{
    @Test
    void shouldGiveAPortBelowTheEphemeralRangeThatCanBeListenedOn() throws IOException
    {
        for (int i = 0; i < 20; i++)
        {
            final int port = FreePorts.loopback();
            assertTrue(port >= FreePorts.FIRST && port < FreePorts.END, "port " + port);
            try (ServerSocket socket = new ServerSocket())
            {
                socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                assertTrue(socket.isBound(), "listening on " + port);
            }
        }
    }

    @Test
    void shouldNeverHandOutTheSamePortTwice()
    {
        // 2,000 random draws from 12,768 ports repeat one about 150 times, so this fails without the bookkeeping.
        final Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 2_000; i++)
        {
            final int port = FreePorts.loopback();
            assertTrue(seen.add(port), "port " + port + " handed out twice, at call " + i);
        }
    }
}
