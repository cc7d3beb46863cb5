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
package io.warpbus.iwarp;

import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;

import io.warpbus.iwarp.mpa.Fpdu;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MULPDU from the interface MTU, as RFC 5044 section 4.5 sizes it, and the configured cap.
 */
class PathMtuTest
{
    @Test
    void shouldLeaveRoomForTheIpAndTcpHeadersAndTheTimestampOption()
    {
        assertEquals(1448, PathMtu.emss(1500, false));
        assertEquals(1428, PathMtu.emss(1500, true));
        assertEquals(8948, PathMtu.emss(9000, false));
    }

    @Test
    void shouldFitTheFpduInOneSegment()
    {
        assertEquals(1448 - Fpdu.LENGTH_FIELD_LENGTH - Fpdu.CRC_LENGTH, PathMtu.maxUlpdu(1448, 0));
        assertEquals(Fpdu.mulpdu(PathMtu.DEFAULT_EMSS), PathMtu.maxUlpdu(PathMtu.DEFAULT_EMSS, 0));
    }

    @Test
    void shouldCapTheFpduAtTheConfiguredLength()
    {
        final int ulpdu = PathMtu.maxUlpdu(1448, 1024);

        assertEquals(1018, ulpdu);
        assertTrue(Fpdu.fpduLength(ulpdu) <= 1024, "an FPDU of the largest ULPDU fits the cap");
        assertEquals(1442, PathMtu.maxUlpdu(1448, 9000), "a cap above the MTU's changes nothing");
    }

    @Test
    void shouldReadTheMtuOfTheInterfaceTheSocketIsBoundTo() throws Exception
    {
        final List<Throwable> errors = new ArrayList<>();
        try (ServerSocketChannel server = ServerSocketChannel.open()
            .bind(new InetSocketAddress(EnginePair.loopback(0).getAddress(), 0));
            SocketChannel client = SocketChannel.open(server.getLocalAddress());
            SocketChannel accepted = server.accept())
        {
            final InetSocketAddress local = (InetSocketAddress)client.getLocalAddress();
            final int mtu = NetworkInterface.getByInetAddress(local.getAddress()).getMTU();

            final int ulpdu = PathMtu.maxUlpdu(client, 0, errors::add);

            assertEquals(PathMtu.maxUlpdu(PathMtu.emss(mtu, false), 0), ulpdu, "MTU " + mtu);
            assertTrue(errors.isEmpty(), errors.toString());
            assertTrue(accepted.isConnected());
        }
    }

    @Test
    void shouldAssumeTheDefaultMssWhenTheMtuCannotBeRead() throws Exception
    {
        final List<Throwable> errors = new ArrayList<>();
        final SocketChannel unconnected = SocketChannel.open();
        unconnected.close();

        final int ulpdu = PathMtu.maxUlpdu(unconnected, 0, errors::add);

        assertEquals(Fpdu.mulpdu(PathMtu.DEFAULT_EMSS), ulpdu);
        assertEquals(1, errors.size());
        assertTrue(errors.get(0).getMessage().startsWith("cannot read the path MTU, assuming an MSS of 1460"),
            errors.get(0).getMessage());
    }
}
