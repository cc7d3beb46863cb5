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
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

import io.warpbus.testing.Await;
import org.agrona.concurrent.UnsafeBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Two engines in INVOKER mode driven by the test's own thread, connected over loopback: a client queue pair and a
 * server queue pair with one completion queue each.
 */
final class EnginePair implements AutoCloseable
{
    static final Duration TIMEOUT = Duration.ofSeconds(10);

    final Rnic server;
    final Rnic client;
    final List<Throwable> serverErrors = new CopyOnWriteArrayList<>();
    final List<Throwable> clientErrors = new CopyOnWriteArrayList<>();
    final List<ConnectionEvent> serverEvents = new ArrayList<>();
    final List<ConnectionEvent> clientEvents = new ArrayList<>();
    ProtectionDomain serverPd;
    ProtectionDomain clientPd;
    CompletionQueue serverCq;
    CompletionQueue clientCq;
    QueuePair serverQp;
    QueuePair clientQp;
    Listener listener;

    EnginePair(final RnicContext serverContext, final RnicContext clientContext)
    {
        server = Rnic.launch(serverContext.name("server").threadingMode(ThreadingMode.INVOKER)
            .errorHandler(serverErrors::add));
        client = Rnic.launch(clientContext.name("client").threadingMode(ThreadingMode.INVOKER)
            .errorHandler(clientErrors::add));
        serverPd = server.allocateProtectionDomain();
        clientPd = client.allocateProtectionDomain();
        serverCq = server.createCompletionQueue(1024);
        clientCq = client.createCompletionQueue(1024);
        serverQp = serverPd.createQueuePair(new QueuePairAttributes().completionQueue(serverCq));
        clientQp = clientPd.createQueuePair(new QueuePairAttributes().completionQueue(clientCq));
    }

    EnginePair()
    {
        this(new RnicContext(), new RnicContext());
    }

    static InetSocketAddress loopback(final int port)
    {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    }

    InetSocketAddress listen()
    {
        listener = server.connectionManager().listen(loopback(0), 16, "server");
        return listener.localAddress();
    }

    /**
     * Listen, connect, accept and wait until both sides are established.
     */
    void connect(final ConnectionParameters clientParameters, final ConnectionParameters serverParameters)
    {
        final InetSocketAddress address = listen();
        client.connectionManager().connect(clientQp, address, clientParameters, "client");
        final ConnectionEvent request = awaitServerEvent(ConnectionEventType.CONNECT_REQUEST);
        request.request().accept(serverQp, serverParameters);
        awaitClientEvent(ConnectionEventType.ESTABLISHED);
        awaitServerEvent(ConnectionEventType.ESTABLISHED);
        assertEquals(QueuePairState.RTS, clientQp.state());
        assertEquals(QueuePairState.RTS, serverQp.state());
    }

    void connect()
    {
        connect(new ConnectionParameters(), new ConnectionParameters());
    }

    ConnectionEvent awaitServerEvent(final ConnectionEventType type)
    {
        return awaitEvent(serverEvents, type);
    }

    ConnectionEvent awaitClientEvent(final ConnectionEventType type)
    {
        return awaitEvent(clientEvents, type);
    }

    private ConnectionEvent awaitEvent(final List<ConnectionEvent> events, final ConnectionEventType type)
    {
        final ConnectionEvent[] found = new ConnectionEvent[1];
        pumpUntil(() ->
        {
            for (final ConnectionEvent event : events)
            {
                if (event.type() == type)
                {
                    found[0] = event;
                    events.remove(event);
                    return true;
                }
            }
            return false;
        }, "event " + type + " (seen so far: " + events + ")");
        return found[0];
    }

    /**
     * Drive both engines and drain their connection events until the condition holds.
     */
    void pumpUntil(final BooleanSupplier condition, final String what)
    {
        Await.until(() -> what + "; server errors " + serverErrors + ", client errors " + clientErrors,
            TIMEOUT.toMillis(), this::pump, condition);
    }

    int pump()
    {
        int work = server.doWork() + client.doWork();
        work += server.connectionManager().poll(serverEvents::add, 16);
        work += client.connectionManager().poll(clientEvents::add, 16);
        if (0 == work)
        {
            Thread.onSpinWait();
        }
        return work;
    }

    void pumpFor(final Duration duration)
    {
        final long deadline = System.nanoTime() + duration.toNanos();
        while (System.nanoTime() - deadline < 0)
        {
            pump();
        }
    }

    static UnsafeBuffer directBuffer(final int length)
    {
        return new UnsafeBuffer(ByteBuffer.allocateDirect(length));
    }

    /**
     * Poll one completion from a queue, pumping the engines until it arrives.
     */
    WorkCompletionCopy awaitCompletion(final CompletionQueue queue)
    {
        final WorkCompletionCopy copy = new WorkCompletionCopy();
        pumpUntil(() -> queue.poll(copy::copy, 1) == 1, "a completion");
        return copy;
    }

    @Override
    public void close()
    {
        client.close();
        server.close();
    }

    /** A copy of a work completion that outlives the poll. */
    static final class WorkCompletionCopy
    {
        long wrId;
        CompletionOpcode opcode;
        CompletionStatus status;
        int byteLength;
        int flags;
        int invalidatedStag;

        void copy(final WorkCompletion completion)
        {
            wrId = completion.workRequestId();
            opcode = completion.opcode();
            status = completion.status();
            byteLength = completion.byteLength();
            flags = completion.flags();
            invalidatedStag = completion.invalidatedStag();
        }

        @Override
        public String toString()
        {
            return "WC{wrId=" + wrId + ", " + opcode + ", " + status + ", " + byteLength + " bytes}";
        }
    }
}
