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
package io.warpbus.bench.rdma;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.warpbus.iwarp.Access;
import io.warpbus.iwarp.CompletionQueue;
import io.warpbus.iwarp.ConnectionEvent;
import io.warpbus.iwarp.ConnectionEventType;
import io.warpbus.iwarp.ConnectionParameters;
import io.warpbus.iwarp.Listener;
import io.warpbus.iwarp.MemoryRegion;
import io.warpbus.iwarp.ProtectionDomain;
import io.warpbus.iwarp.QueuePair;
import io.warpbus.iwarp.QueuePairAttributes;
import io.warpbus.iwarp.Rnic;
import io.warpbus.iwarp.RnicContext;
import io.warpbus.iwarp.ThreadingMode;
import io.warpbus.iwarp.mpa.CrcPolicy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One side of the iWARP benchmark: an engine in INVOKER mode driven by the benchmark's single busy thread, one
 * queue pair, and a region the peer writes into. The regions' STags and addresses travel in the MPA private data.
 * <pre>
 *   region: [ ping-pong / stream area (DATA_LENGTH) | done slot (8) | ack slot (8) ]
 * </pre>
 */
final class IwarpEndpoint implements AutoCloseable
{
    static final int DATA_LENGTH = 8 << 20;
    static final int DONE_OFFSET = DATA_LENGTH;
    static final int ACK_OFFSET = DATA_LENGTH + 64;
    private static final int REGION_LENGTH = DATA_LENGTH + 128;
    private static final long FLUSH_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(1);

    final Rnic rnic;
    final MemoryRegion local;
    final MemoryRegion source;
    final QueuePair qp;
    final CompletionQueue cq;
    int remoteStag;
    long remoteAddress;
    private final List<ConnectionEvent> events = new ArrayList<>();
    private Listener listener;

    private IwarpEndpoint(final boolean directPlacement)
    {
        rnic = Rnic.launch(new RnicContext().name("bench").threadingMode(ThreadingMode.INVOKER)
            .crcPolicy(CrcPolicy.REQUIRED).ioBufferLength(2 << 20).socketBufferLength(4 << 20)
            .directPlacement(directPlacement));
        final ProtectionDomain pd = rnic.allocateProtectionDomain();
        local = pd.registerMemory(new UnsafeBuffer(ByteBuffer.allocateDirect(REGION_LENGTH)),
            Access.LOCAL_WRITE | Access.REMOTE_WRITE);
        source = pd.registerMemory(new UnsafeBuffer(ByteBuffer.allocateDirect(REGION_LENGTH)), 0);
        cq = rnic.createCompletionQueue(4096);
        qp = pd.createQueuePair(new QueuePairAttributes().completionQueue(cq).sendQueueDepth(4096));
    }

    /**
     * The responder side: an endpoint with a listener, before any connection.
     *
     * @param directPlacement false to place every payload through the connection's receive buffer.
     */
    static IwarpEndpoint listen(final InetSocketAddress bind, final boolean directPlacement)
    {
        final IwarpEndpoint endpoint = new IwarpEndpoint(directPlacement);
        endpoint.listener = endpoint.rnic.connectionManager().listen(bind, 1, null);
        return endpoint;
    }

    int port()
    {
        return listener.localAddress().getPort();
    }

    /** Accept the one connection the benchmark makes. */
    void acceptOne()
    {
        final ConnectionEvent request = awaitEvent(ConnectionEventType.CONNECT_REQUEST);
        readPeer(request.privateData());
        request.request().accept(qp, new ConnectionParameters().privateData(describe()));
        awaitEvent(ConnectionEventType.ESTABLISHED);
    }

    /**
     * The initiator: connect to the responder.
     *
     * @param directPlacement false to place every payload through the connection's receive buffer.
     */
    static IwarpEndpoint connect(final InetSocketAddress address, final boolean directPlacement)
    {
        final IwarpEndpoint endpoint = new IwarpEndpoint(directPlacement);
        endpoint.rnic.connectionManager().connect(endpoint.qp, address,
            new ConnectionParameters().privateData(endpoint.describe()), null);
        final ConnectionEvent established = endpoint.awaitEvent(ConnectionEventType.ESTABLISHED);
        endpoint.readPeer(established.privateData());
        return endpoint;
    }

    /**
     * Write {@code length} bytes whose last 8 bytes are {@code sequence} into the peer's region at offset 0.
     */
    void writeSequenced(final int length, final long sequence)
    {
        source.buffer().putLong(length - 8, sequence);
        post(length, 0, 0);
    }

    /** Spin (running the engine) until our region holds {@code sequence} in the last 8 bytes of a message. */
    void awaitSequenced(final int length, final long sequence)
    {
        final UnsafeBuffer buffer = local.buffer();
        while (buffer.getLongVolatile(length - 8) != sequence)
        {
            rnic.doWork();
        }
    }

    /** Post an unsignaled Write of {@code length} bytes of the source into the peer's region and send it now. */
    void post(final int length, final int sourceOffset, final int remoteOffset)
    {
        enqueue(length, sourceOffset, remoteOffset);
        rnic.doWork();
    }

    /**
     * Queue an unsignaled Write; the engine runs only when the send queue is full, so queued writes leave in
     * batches of FPDUs per socket write.
     */
    void enqueue(final int length, final int sourceOffset, final int remoteOffset)
    {
        while (QueuePair.POSTED != qp.postWrite(0, source, sourceOffset, length, remoteStag,
            remoteAddress + remoteOffset, 0))
        {
            rnic.doWork();
        }
    }

    void signal(final int remoteOffset, final long value)
    {
        source.buffer().putLong(DONE_OFFSET, value);
        post(8, DONE_OFFSET, remoteOffset);
    }

    /**
     * Run the engine until it has nothing left to do, before this side stops running it: a streaming connection's
     * Write is held back to be coalesced with the next ones (a hold counts as work), so the last pong of a large
     * ping-pong would otherwise never leave.
     *
     * @throws IllegalStateException when the engine is still busy after a second.
     */
    void flush()
    {
        final long deadlineNs = System.nanoTime() + FLUSH_TIMEOUT_NS;
        while (rnic.doWork() > 0)
        {
            if (System.nanoTime() - deadlineNs > 0)
            {
                throw new IllegalStateException("the engine still had work after " + FLUSH_TIMEOUT_NS + " ns");
            }
        }
    }

    void awaitSlot(final int offset, final long value)
    {
        final UnsafeBuffer buffer = local.buffer();
        while (buffer.getLongVolatile(offset) != value)
        {
            rnic.doWork();
        }
    }

    private byte[] describe()
    {
        final byte[] data = new byte[12];
        final UnsafeBuffer view = new UnsafeBuffer(data);
        view.putInt(0, local.stag(), ByteOrder.BIG_ENDIAN);
        view.putLong(4, local.address(), ByteOrder.BIG_ENDIAN);
        return data;
    }

    private void readPeer(final byte[] privateData)
    {
        final UnsafeBuffer view = new UnsafeBuffer(privateData);
        remoteStag = view.getInt(0, ByteOrder.BIG_ENDIAN);
        remoteAddress = view.getLong(4, ByteOrder.BIG_ENDIAN);
    }

    private ConnectionEvent awaitEvent(final ConnectionEventType type)
    {
        final long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() - deadline < 0)
        {
            rnic.doWork();
            rnic.connectionManager().poll(events::add, 8);
            for (final ConnectionEvent event : events)
            {
                if (event.type() == type)
                {
                    events.remove(event);
                    return event;
                }
                if (ConnectionEventType.CONNECT_REQUEST != event.type() &&
                    ConnectionEventType.ESTABLISHED != event.type())
                {
                    throw new IllegalStateException("connection failed: " + event);
                }
            }
        }
        throw new IllegalStateException("timed out waiting for " + type);
    }

    @Override
    public void close()
    {
        rnic.close();
    }
}
