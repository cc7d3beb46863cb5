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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for the tests' listeners, chosen below Linux's ephemeral range (32768 and up). A test learns a port, closes
 * the probe and starts something that listens on it later (another process, a restarted gateway); a port from the
 * ephemeral range can be taken meanwhile by any outgoing connection's local end (GatewayRestartTest and
 * DemoCommandTest once failed so in CI: "Address already in use"). Below that range only listeners take ports.
 * <p>
 * A port is handed out once per JVM (until half the range has been): a test that asks for several ports and listens
 * on them one at a time would otherwise be given, now and then, the same free port twice, and its second listener
 * would fail. RouteTest once failed in CI unable to listen on one of the four ports it had been given; two of the
 * four being the same port is the likely cause.
 */
public final class FreePorts
{
    /** First port handed out. */
    public static final int FIRST = 20_000;
    /** One past the last: where Linux's default ephemeral range starts. */
    public static final int END = 32_768;
    private static final int ATTEMPTS = 200;
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    private FreePorts()
    {
    }

    /**
     * A port nothing listens on now, on loopback, and not handed out before by this JVM.
     *
     * @return the port, from {@link #FIRST} to {@link #END} (exclusive).
     * @throws IllegalStateException when {@value #ATTEMPTS} random ports were all taken.
     */
    public static int loopback()
    {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++)
        {
            final int port = ThreadLocalRandom.current().nextInt(FIRST, END);
            if (HANDED_OUT.size() >= (END - FIRST) / 2)
            {
                HANDED_OUT.clear();
            }
            if (!HANDED_OUT.add(port))
            {
                continue;
            }
            try (ServerSocket socket = new ServerSocket())
            {
                socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                return port;
            }
            catch (final IOException inUse)
            {
                // taken: try another
            }
        }
        throw new IllegalStateException("no free port in " + FIRST + "-" + (END - 1) + " after " + ATTEMPTS +
            " attempts");
    }
}
