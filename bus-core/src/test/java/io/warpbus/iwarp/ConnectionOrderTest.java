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

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Arrays;

import io.warpbus.iwarp.ddp.DdpHeaderFlyweight;
import io.warpbus.iwarp.rdmap.RdmapOpcode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The order an engine serves its connections in within one duty cycle.
 */
class ConnectionOrderTest
{
    private static final int LENGTH = 64;
    private static final byte BEFORE = 'A';
    private static final byte PLACED = 'B';

    /**
     * One region, read by a Write posted on the first connection and written by a Write arriving on the second.
     * The engine walks its connections from the last accepted; without the connections that have work posted going
     * first, the second connection's socket would be read (and the peer's Write placed) before the posted Write
     * left, and the posted Write would carry the placed bytes.
     */
    @Test
    @Timeout(60)
    void shouldSendWhatIsPostedBeforeReadingAnotherConnectionsSocket() throws IOException
    {
        try (EnginePair pair = new EnginePair())
        {
            final InetSocketAddress address = pair.listen();
            final MemoryRegion region = pair.serverPd.registerMemory(EnginePair.directBuffer(LENGTH),
                Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            region.buffer().setMemory(0, LENGTH, BEFORE);
            final QueuePair second = pair.serverPd.createQueuePair(
                new QueuePairAttributes().completionQueue(pair.serverCq));
            try (RawPeer reader = new RawPeer(address); RawPeer writer = new RawPeer(address))
            {
                establish(pair, reader, pair.serverQp);
                establish(pair, writer, second);

                final byte[] placed = new byte[LENGTH];
                Arrays.fill(placed, PLACED);
                writer.sendTagged(RdmapOpcode.WRITE, region.stag(), region.address(), placed, true);
                assertEquals(QueuePair.POSTED, pair.serverQp.postWrite(7, region, 0, LENGTH, 0x1234, 0, 0));
                pair.server.doWork();

                assertEquals(PLACED, region.buffer().getByte(LENGTH - 1),
                    "the writer's Write was placed in the same duty cycle");
                final byte[] ulpdu = reader.readFpdu();
                final byte[] sent = Arrays.copyOfRange(ulpdu, DdpHeaderFlyweight.TAGGED_HEADER_LENGTH, ulpdu.length);
                final byte[] before = new byte[LENGTH];
                Arrays.fill(before, BEFORE);
                assertArrayEquals(before, sent, "the posted Write left before the other socket was read");
            }
        }
    }

    private static void establish(final EnginePair pair, final RawPeer peer, final QueuePair qp) throws IOException
    {
        peer.sendRequest(16, 1, new byte[0]);
        pair.awaitServerEvent(ConnectionEventType.CONNECT_REQUEST).request().accept(qp, new ConnectionParameters());
        for (int i = 0; i < 100; i++)
        {
            pair.server.doWork();
        }
        assertEquals(0, peer.readReply()[16] & 0x20, "the connection was rejected");
        peer.sendWriteRtr();
        pair.awaitServerEvent(ConnectionEventType.ESTABLISHED);
        assertEquals(QueuePairState.RTS, qp.state());
    }
}
