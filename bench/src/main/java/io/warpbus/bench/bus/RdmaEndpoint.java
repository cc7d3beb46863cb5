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
package io.warpbus.bench.bus;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.warpbus.iwarp.Access;
import io.warpbus.iwarp.CompletionQueue;
import io.warpbus.iwarp.ConnectionEvent;
import io.warpbus.iwarp.ConnectionEventHandler;
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
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The bus's own engine with nothing on top, as the systems {@code warpbus-rdma} and {@code warpbus-rdma-duplex} of
 * the bus suite's ping-pong: each message is one unsignaled RDMA Write straight into the peer's registered slot, the
 * same engine settings as {@code warpbus bench rdma} (INVOKER mode, MPA CRC32C required), driven by the benchmark
 * thread like the bus. Its round trip is the floor the bus stands on, so the bus's own cost is a ratio in the same
 * run.
 * <p>
 * A channel is {@code rdma:endpoint=HOST:PORT}: the publication listens there and the subscription connects,
 * sending its slot's STag and address in the MPA private data, and retries while the publication is not listening
 * yet. The publication's accept sends back a slot of its own, so the connection can also carry messages the other
 * way: {@code rdma:reverse=HOST:PORT} is that direction, a publication writing back over the connection of this
 * endpoint's subscription to {@code HOST:PORT}, and a subscription reading what comes back to its publication there.
 * {@code warpbus-rdma} pongs on a connection of its own, as the bus does (one connection per subscription);
 * {@code warpbus-rdma-duplex} pongs back over the ping's connection, as {@code bench rdma} does.
 * <p>
 * A slot holds one message, its payload ending where an 8-byte trailer {@code count << 32 | length} begins;
 * the Write carries payload and trailer together, so the subscription sees a message when the trailer changes
 * (the engine places a segment's bytes in order). One slot is enough for ping-pong, where a message is written only
 * after the peer answered the one before; there is no flow control, so these systems run no throughput case.
 */
final class RdmaEndpoint extends PeerEndpoint<RdmaEndpoint.Publication, RdmaEndpoint.Subscription>
{
    /** Longest message. */
    static final int MAX_MESSAGE = 4096;
    private static final int SLOT_LENGTH = MAX_MESSAGE + 8;
    private static final int TRAILER_OFFSET = MAX_MESSAGE;
    private static final long RETRY_NS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final int SLOT_DESCRIPTION_LENGTH = 12;

    private final Rnic rnic;
    private final ProtectionDomain pd;
    private final CompletionQueue cq;
    private final List<ConnectionEvent> events = new ArrayList<>();
    private int queuePairsCreated;
    /** One handler for every poll: a method reference made per duty cycle would allocate on the measured path. */
    private final ConnectionEventHandler addEvent = events::add;

    /** A publication or subscription, which gets its connection's events. */
    private interface Link
    {
        void onEvent(ConnectionEvent event, long nowNs);
    }

    /** Writes into the peer's slot: over the connection it accepted, or back over a subscription's (reverse). */
    final class Publication extends PublicationEnd implements Link
    {
        final Listener listener;
        final MemoryRegion source;
        /** Where the peer writes back over this publication's connection; null for a reverse publication. */
        final MemoryRegion returnSlot;
        QueuePair qp;
        int remoteStag;
        long remoteAddress;
        long count;
        boolean connected;
        ConnectionEvent lost;
        /** For a reverse publication, once connected: the subscription whose connection it writes back over. */
        Subscription forward;

        Publication(final InetSocketAddress address, final boolean reverse)
        {
            super(address, reverse);
            listener = reverse ? null : rnic.connectionManager().listen(address, 1, this);
            source = pd.registerMemory(new UnsafeBuffer(ByteBuffer.allocateDirect(SLOT_LENGTH)), 0);
            returnSlot = reverse ? null : newSlot();
        }

        boolean isConnected()
        {
            if (!reverse)
            {
                return connected;
            }
            final Subscription forward = subscriptionTo(address);
            return null != forward && forward.connected;
        }

        @Override
        public void onEvent(final ConnectionEvent event, final long nowNs)
        {
            if (ConnectionEventType.CONNECT_REQUEST == event.type() && null == qp)
            {
                final UnsafeBuffer peer = new UnsafeBuffer(event.privateData());
                remoteStag = peer.getInt(0, ByteOrder.BIG_ENDIAN);
                remoteAddress = peer.getLong(4, ByteOrder.BIG_ENDIAN);
                qp = newQueuePair();
                event.request().accept(qp, new ConnectionParameters().privateData(describe(returnSlot)));
            }
            else if (ConnectionEventType.ESTABLISHED == event.type())
            {
                connected = true;
            }
            else if (ConnectionEventType.DISCONNECTED == event.type())
            {
                // Expected when a case closes its channels; an offer after it says what happened.
                lost = event;
            }
            else
            {
                throw failed(event);
            }
        }

        boolean offer(final DirectBuffer buffer, final int offset, final int length)
        {
            if (reverse && null == qp && !takeReturnPath())
            {
                return false;
            }
            final ConnectionEvent lostWith = null == forward ? lost : forward.lost;
            if (null != lostWith)
            {
                throw failed(lostWith);
            }
            if (!connected)
            {
                return false;
            }
            final int start = TRAILER_OFFSET - length;
            final UnsafeBuffer slot = source.buffer();
            slot.putBytes(start, buffer, offset, length);
            slot.putLong(TRAILER_OFFSET, (count + 1) << 32 | length);
            if (QueuePair.POSTED != qp.postWrite(0, source, start, length + 8, remoteStag, remoteAddress + start, 0))
            {
                return false;
            }
            count++;
            return true;
        }

        /** A reverse publication writes into the slot the forward subscription's peer accepted with. */
        private boolean takeReturnPath()
        {
            final Subscription subscription = subscriptionTo(address);
            if (null == subscription || !subscription.connected)
            {
                return false;
            }
            forward = subscription;
            qp = subscription.qp;
            remoteStag = subscription.returnStag;
            remoteAddress = subscription.returnAddress;
            connected = true;
            return true;
        }

        @Override
        void close()
        {
            // A reverse publication's connection is its subscription's, closed with it.
            CloseHelper.quietCloseAll(reverse ? null : qp, listener, source, returnSlot);
        }
    }

    /** Reads its slot: written over the connection it made, or, reverse, back over a publication's connection. */
    final class Subscription extends SubscriptionEnd<Publication> implements Link
    {
        final MemoryRegion slot;
        QueuePair qp;
        int returnStag;
        long returnAddress;
        ConnectionEvent lost;
        long seen;
        long retryAtNs;
        boolean connected;

        Subscription(final InetSocketAddress publisher, final Publication returnOf)
        {
            super(publisher, returnOf);
            if (null != returnOf)
            {
                slot = returnOf.returnSlot;
            }
            else
            {
                slot = newSlot();
                connect();
            }
        }

        boolean isConnected()
        {
            return null == returnOf ? connected : returnOf.connected;
        }

        void connect()
        {
            qp = newQueuePair();
            rnic.connectionManager().connect(qp, publisher, new ConnectionParameters().privateData(describe(slot)),
                this);
        }

        @Override
        public void onEvent(final ConnectionEvent event, final long nowNs)
        {
            if (ConnectionEventType.ESTABLISHED == event.type())
            {
                final byte[] reply = event.privateData();
                if (reply.length >= SLOT_DESCRIPTION_LENGTH)
                {
                    final UnsafeBuffer peer = new UnsafeBuffer(reply);
                    returnStag = peer.getInt(0, ByteOrder.BIG_ENDIAN);
                    returnAddress = peer.getLong(4, ByteOrder.BIG_ENDIAN);
                }
                connected = true;
            }
            else if (!connected)
            {
                // Refused or failed before the publication listened: try again shortly.
                CloseHelper.quietClose(qp);
                qp = null;
                retryAtNs = nowNs + RETRY_NS;
            }
            else if (ConnectionEventType.DISCONNECTED == event.type())
            {
                // Expected when a case closes its channels; nothing arrives after it, and an offer back says so.
                lost = event;
            }
            else
            {
                throw failed(event);
            }
        }

        int poll(final Endpoint.MessageHandler handler)
        {
            final UnsafeBuffer buffer = slot.buffer();
            final long trailer = buffer.getLongVolatile(TRAILER_OFFSET);
            if (trailer >>> 32 == seen)
            {
                return 0;
            }
            seen = trailer >>> 32;
            final int length = (int)trailer;
            handler.onMessage(buffer, TRAILER_OFFSET - length, length);
            return 1;
        }

        @Override
        void close()
        {
            // A reverse subscription's slot belongs to its publication.
            CloseHelper.quietCloseAll(qp, null == returnOf ? slot : null);
        }
    }

    RdmaEndpoint()
    {
        super(PeerChannels.RDMA, "warpbus-rdma");
        rnic = Rnic.launch(new RnicContext().name("bench-rdma").threadingMode(ThreadingMode.INVOKER)
            .crcPolicy(CrcPolicy.REQUIRED).ioBufferLength(2 << 20).socketBufferLength(4 << 20));
        pd = rnic.allocateProtectionDomain();
        cq = rnic.createCompletionQueue(64);
    }

    private MemoryRegion newSlot()
    {
        return pd.registerMemory(new UnsafeBuffer(ByteBuffer.allocateDirect(SLOT_LENGTH)),
            Access.LOCAL_WRITE | Access.REMOTE_WRITE);
    }

    private static byte[] describe(final MemoryRegion slot)
    {
        final byte[] description = new byte[SLOT_DESCRIPTION_LENGTH];
        final UnsafeBuffer view = new UnsafeBuffer(description);
        view.putInt(0, slot.stag(), ByteOrder.BIG_ENDIAN);
        view.putLong(4, slot.address(), ByteOrder.BIG_ENDIAN);
        return description;
    }

    private QueuePair newQueuePair()
    {
        queuePairsCreated++;
        return pd.createQueuePair(new QueuePairAttributes().completionQueue(cq).sendQueueDepth(64));
    }

    @Override
    Publication newPublication(final InetSocketAddress address, final boolean reverse)
    {
        return new Publication(address, reverse);
    }

    @Override
    Subscription newSubscription(final InetSocketAddress publisher, final Publication returnOf)
    {
        return new Subscription(publisher, returnOf);
    }

    @Override
    public boolean isConnected()
    {
        for (final Publication publication : publications)
        {
            if (!publication.isConnected())
            {
                return false;
            }
        }
        for (final Subscription subscription : subscriptions)
        {
            if (!subscription.isConnected())
            {
                return false;
            }
        }
        return true;
    }

    @Override
    public int doWork()
    {
        final int work = rnic.doWork();
        if (rnic.connectionManager().poll(addEvent, 8) > 0)
        {
            onEvents();
        }
        if (!subscriptions.isEmpty())
        {
            retryDue();
        }
        return work;
    }

    private void onEvents()
    {
        final long nowNs = System.nanoTime();
        for (final ConnectionEvent event : events)
        {
            final Link link = (Link)event.userContext();
            if (publications.contains(link) || subscriptions.contains(link))
            {
                link.onEvent(event, nowNs);
            }
        }
        events.clear();
    }

    private static IllegalStateException failed(final ConnectionEvent event)
    {
        return new IllegalStateException("warpbus-rdma: " + event + (null == event.reason() ? "" :
            " (" + event.reason() + ")"));
    }

    private void retryDue()
    {
        for (final Subscription subscription : subscriptions)
        {
            if (null == subscription.returnOf && null == subscription.qp &&
                System.nanoTime() - subscription.retryAtNs >= 0)
            {
                subscription.connect();
            }
        }
    }

    /**
     * How many queue pairs this endpoint has created: one per connection end, and one per retried connect.
     *
     * @return the count.
     */
    int queuePairsCreated()
    {
        return queuePairsCreated;
    }

    @Override
    public boolean offer(final int publication, final DirectBuffer buffer, final int offset, final int length)
    {
        return publications.get(publication).offer(buffer, offset, length);
    }

    @Override
    public int poll(final int subscription, final MessageHandler handler, final int limit)
    {
        return subscriptions.get(subscription).poll(handler);
    }

    @Override
    public void close()
    {
        closeChannels();
        rnic.close();
    }
}
