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
package io.warpbus.examples;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import io.warpbus.iwarp.Access;
import io.warpbus.iwarp.CompletionQueue;
import io.warpbus.iwarp.ConnectionEvent;
import io.warpbus.iwarp.ConnectionEventType;
import io.warpbus.iwarp.ConnectionParameters;
import io.warpbus.iwarp.MemoryRegion;
import io.warpbus.iwarp.ProtectionDomain;
import io.warpbus.iwarp.QueuePair;
import io.warpbus.iwarp.QueuePairAttributes;
import io.warpbus.iwarp.QueuePairState;
import io.warpbus.iwarp.Rnic;
import io.warpbus.iwarp.RnicContext;
import io.warpbus.iwarp.ThreadingMode;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The verbs example of docs/iwarp-engine.md, compiled and run: a server exposes a region for RDMA Write, a client
 * writes into it. Both engines run in INVOKER mode on this one thread.
 */
@Timeout(30)
class VerbsExampleTest
{
    @Test
    void shouldRunTheReadmeExample()
    {
        // tag::verbs[]
        try (Rnic server = Rnic.launch(new RnicContext().threadingMode(ThreadingMode.INVOKER));
            Rnic client = Rnic.launch(new RnicContext().threadingMode(ThreadingMode.INVOKER)))
        {
            // Server: a region peers may write, and a queue pair to accept the connection on.
            final ProtectionDomain serverPd = server.allocateProtectionDomain();
            final MemoryRegion ring = serverPd.registerMemory(
                new UnsafeBuffer(ByteBuffer.allocateDirect(4096)), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            final QueuePair serverQp = serverPd.createQueuePair(
                new QueuePairAttributes().completionQueue(server.createCompletionQueue(64)));
            final InetSocketAddress address = server.connectionManager()
                .listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16, null).localAddress();

            // Client: connect; the server's STag and address would normally travel in the private data.
            final ProtectionDomain clientPd = client.allocateProtectionDomain();
            final CompletionQueue clientCq = client.createCompletionQueue(64);
            final QueuePair clientQp = clientPd.createQueuePair(new QueuePairAttributes().completionQueue(clientCq));
            client.connectionManager().connect(clientQp, address, new ConnectionParameters(), null);

            final List<ConnectionEvent> events = new ArrayList<>();
            while (QueuePairState.RTS != clientQp.state())
            {
                server.doWork();
                client.doWork();
                server.connectionManager().poll(events::add, 10);
                for (final ConnectionEvent event : events)
                {
                    if (ConnectionEventType.CONNECT_REQUEST == event.type())
                    {
                        event.request().accept(serverQp, new ConnectionParameters());
                    }
                }
                events.clear();
            }

            // RDMA Write 8 bytes into the server's region at offset 128, and wait for the completion.
            final MemoryRegion source = clientPd.registerMemory(new UnsafeBuffer(ByteBuffer.allocateDirect(64)), 0);
            source.buffer().putLong(0, 42L);
            clientQp.postWrite(1L, source, 0, 8, ring.stag(), ring.taggedOffset(128), QueuePair.SIGNALED);
            int completions = 0;
            while (0 == completions)
            {
                client.doWork();
                server.doWork();
                completions = clientCq.poll((wc) -> System.out.println("completed: " + wc), 1);
            }
            while (42L != ring.buffer().getLongVolatile(128))
            {
                server.doWork();
            }
            // end::verbs[]
            assertEquals(42L, ring.buffer().getLong(128));
        }
    }
}
