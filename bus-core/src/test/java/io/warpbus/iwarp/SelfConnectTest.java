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

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A connect to a loopback port nobody listens on can be given that same port as its own, and TCP's simultaneous
 * open then connects the socket to itself; the engine treats that as a refusal and frees the port at once.
 */
class SelfConnectTest
{
    @Test
    @Timeout(30)
    void shouldTellASocketConnectedToItselfAndFreeItsPortWhenClosed() throws Exception
    {
        final InetSocketAddress address;
        try (ServerSocketChannel probe = ServerSocketChannel.open())
        {
            probe.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            address = (InetSocketAddress)probe.getLocalAddress();
        }
        final SocketChannel itself = SocketChannel.open();
        itself.bind(address);
        itself.connect(address);
        assertEquals(itself.getLocalAddress(), itself.getRemoteAddress(), "the socket is connected to itself");

        assertTrue(Connection.connectedToItself(itself));
        itself.close();
        // Closed with a reset: no TIME_WAIT, so a publisher can listen on the port straight away.
        try (ServerSocketChannel listener = ServerSocketChannel.open())
        {
            listener.bind(address);
            assertEquals(address, listener.getLocalAddress());
        }
    }

    @Test
    @Timeout(30)
    void shouldNotMistakeAnOrdinaryConnectionForOne() throws Exception
    {
        try (ServerSocketChannel listener = ServerSocketChannel.open())
        {
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try (SocketChannel client = SocketChannel.open(listener.getLocalAddress());
                SocketChannel accepted = listener.accept())
            {
                assertFalse(Connection.connectedToItself(client));
                assertFalse(Connection.connectedToItself(accepted));
            }
        }
    }
}
