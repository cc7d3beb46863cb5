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
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import io.warpbus.testing.Await;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.CompositeAgent;
import org.agrona.concurrent.status.AtomicCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class ThreadingModeTest
{
    @Test
    void shouldMoveDataBetweenADedicatedEngineAndASharedOne()
    {
        final Rnic dedicated = Rnic.launch(new RnicContext().name("dedicated")
            .threadingMode(ThreadingMode.DEDICATED).idleStrategy("backoff"));
        final Rnic shared = Rnic.launch(new RnicContext().name("shared").threadingMode(ThreadingMode.SHARED));
        final AtomicCounter sideWork = null;
        final AgentRunner runner = new AgentRunner(new BackoffIdleStrategy(), Throwable::printStackTrace, sideWork,
            new CompositeAgent(shared.sharedAgent()));
        AgentRunner.startOnThread(runner);
        try
        {
            final ProtectionDomain serverPd = shared.allocateProtectionDomain();
            final CompletionQueue serverCq = shared.createCompletionQueue(64);
            final QueuePair serverQp = serverPd.createQueuePair(new QueuePairAttributes().completionQueue(serverCq));
            final MemoryRegion sink = serverPd.registerMemory(EnginePair.directBuffer(1024),
                Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            final InetSocketAddress address =
                shared.connectionManager().listen(EnginePair.loopback(0), 4, null).localAddress();

            final ProtectionDomain clientPd = dedicated.allocateProtectionDomain();
            final CompletionQueue clientCq = dedicated.createCompletionQueue(64);
            final QueuePair clientQp = clientPd.createQueuePair(new QueuePairAttributes().completionQueue(clientCq));
            dedicated.connectionManager().connect(clientQp, address, new ConnectionParameters(), null);

            final List<ConnectionEvent> serverEvents = new ArrayList<>();
            await(() ->
            {
                shared.connectionManager().poll(serverEvents::add, 8);
                return !serverEvents.isEmpty();
            }, "a connection event at the shared engine");
            assertEquals(ConnectionEventType.CONNECT_REQUEST, serverEvents.get(0).type());
            serverEvents.get(0).request().accept(serverQp, new ConnectionParameters());
            await(() -> QueuePairState.RTS == clientQp.state(), "the client queue pair to reach RTS");

            final MemoryRegion source = clientPd.registerMemory(EnginePair.directBuffer(1024), 0);
            for (int i = 0; i < 1000; i++)
            {
                source.buffer().putInt(0, i);
                final int round = i;
                await(() -> QueuePair.POSTED == clientQp.postWrite(
                    i2l(round), source, 0, 4, sink.stag(), sink.address(), QueuePair.SIGNALED), "write " + round +
                    " to be posted");
                final CompletionStatus[] status = new CompletionStatus[1];
                await(() -> clientCq.poll((wc) -> status[0] = wc.status(), 1) == 1, "write " + round + "'s completion");
                assertEquals(CompletionStatus.SUCCESS, status[0]);
                await(() -> sink.buffer().getIntVolatile(0) == round, "write " + round + " to land in the sink");
            }
            assertTrue(dedicated.counters().fpdusSent() >= 1000);
        }
        finally
        {
            dedicated.close();
            runner.close();
            shared.close();
        }
    }

    @Test
    void shouldRefuseAgentOutsideSharedMode()
    {
        try (Rnic rnic = Rnic.launch(new RnicContext().threadingMode(ThreadingMode.INVOKER)))
        {
            final IllegalStateException ex = assertThrows(IllegalStateException.class, rnic::sharedAgent);
            assertTrue(ex.getMessage().contains("INVOKER"), ex.getMessage());
        }
    }

    @Test
    void shouldRejectBadConfigurationNamingTheSetting()
    {
        final IllegalArgumentException io = assertThrows(IllegalArgumentException.class,
            () -> new RnicContext().ioBufferLength(1024).conclude());
        assertTrue(io.getMessage().contains(RnicConfiguration.IO_BUFFER_PROP_NAME), io.getMessage());

        final IllegalArgumentException revision = assertThrows(IllegalArgumentException.class,
            () -> new RnicContext().mpaRevision(3).conclude());
        assertTrue(revision.getMessage().contains("MPA revision must be 1 or 2"), revision.getMessage());

        final IllegalArgumentException idle = assertThrows(IllegalArgumentException.class,
            () -> new RnicContext().idleStrategy("busy"));
        assertTrue(idle.getMessage().contains("'busy'"), idle.getMessage());

        final IllegalArgumentException fpdu = assertThrows(IllegalArgumentException.class,
            () -> new RnicContext().maxFpduLength(100).conclude());
        assertTrue(fpdu.getMessage().contains(RnicConfiguration.MAX_FPDU_PROP_NAME), fpdu.getMessage());

        System.setProperty(RnicConfiguration.DIRECT_PLACEMENT_PROP_NAME, "yes");
        try
        {
            final IllegalArgumentException direct = assertThrows(IllegalArgumentException.class, RnicContext::new);
            assertTrue(direct.getMessage().contains(RnicConfiguration.DIRECT_PLACEMENT_PROP_NAME + " must be true or " +
                "false: yes"), direct.getMessage());
        }
        finally
        {
            System.clearProperty(RnicConfiguration.DIRECT_PLACEMENT_PROP_NAME);
        }
    }

    @Test
    void shouldCapFpdusOnlyWithoutDirectPlacementUnlessTold()
    {
        assertEquals(0, new RnicContext().maxFpduLength(), "with direct placement the path MTU alone sizes FPDUs");
        assertEquals(RnicConfiguration.MAX_FPDU_DEFAULT, new RnicContext().directPlacement(false).maxFpduLength());
        assertEquals(4096, new RnicContext().maxFpduLength(4096).maxFpduLength());
        assertEquals(4096, new RnicContext().directPlacement(false).maxFpduLength(4096).maxFpduLength());
    }

    private static long i2l(final int value)
    {
        return value;
    }

    private static void await(final BooleanSupplier condition, final String what)
    {
        Await.until(what, 10_000, Thread::onSpinWait, condition);
    }
}
