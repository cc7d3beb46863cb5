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
import java.util.ArrayList;
import java.util.List;

/**
 * What the point-to-point systems without a bus share ({@link RdmaEndpoint}, {@link TcpEndpoint}): one peer per
 * publication, channels as {@link PeerChannels} has them, and a reverse subscription that reads what comes back
 * over one of this endpoint's publications.
 *
 * @param <P> the system's publication.
 * @param <S> the system's subscription.
 */
abstract class PeerEndpoint<P extends PeerEndpoint.PublicationEnd, S extends PeerEndpoint.SubscriptionEnd<P>>
    implements Endpoint
{
    final List<P> publications = new ArrayList<>();
    final List<S> subscriptions = new ArrayList<>();
    private final PeerChannels channels;
    private final String system;

    /** A publication: where it listens, or, reverse, whose subscription's connection it writes back over. */
    abstract static class PublicationEnd
    {
        final InetSocketAddress address;
        final boolean reverse;

        PublicationEnd(final InetSocketAddress address, final boolean reverse)
        {
            this.address = address;
            this.reverse = reverse;
        }

        abstract void close();
    }

    /**
     * A subscription: the publisher it connects to, or, reverse, the publication whose connection brings it.
     *
     * @param <P> the system's publication.
     */
    abstract static class SubscriptionEnd<P>
    {
        final InetSocketAddress publisher;
        /** For a reverse subscription, the publication whose connection brings the messages; else null. */
        final P returnOf;

        SubscriptionEnd(final InetSocketAddress publisher, final P returnOf)
        {
            this.publisher = publisher;
            this.returnOf = returnOf;
        }

        abstract void close();
    }

    PeerEndpoint(final PeerChannels channels, final String system)
    {
        this.channels = channels;
        this.system = system;
    }

    abstract P newPublication(InetSocketAddress address, boolean reverse);

    abstract S newSubscription(InetSocketAddress publisher, P returnOf);

    @Override
    public void addPublication(final String channel, final int streamId, final int subscribers)
    {
        if (subscribers > 1)
        {
            throw new IllegalArgumentException(system + " writes to one peer: " + subscribers +
                " subscribers asked for on " + channel);
        }
        publications.add(newPublication(channels.address(channel), channels.isReverse(channel)));
    }

    @Override
    public void addSubscription(final String channel, final int streamId)
    {
        final InetSocketAddress address = channels.address(channel);
        P returnOf = null;
        if (channels.isReverse(channel))
        {
            for (final P publication : publications)
            {
                if (!publication.reverse && publication.address.equals(address))
                {
                    returnOf = publication;
                }
            }
            if (null == returnOf)
            {
                throw new IllegalArgumentException("'" + channel + "' reads what comes back over a publication " +
                    "on " + channels.forwardOf(address) + ", which this endpoint does not have: add that " +
                    "publication first");
            }
        }
        subscriptions.add(newSubscription(address, returnOf));
    }

    /**
     * The forward subscription to {@code publisher}, whose connection a reverse publication writes back over.
     *
     * @param publisher where the subscription connects.
     * @return it, or null when there is none.
     */
    S subscriptionTo(final InetSocketAddress publisher)
    {
        for (final S subscription : subscriptions)
        {
            if (null == subscription.returnOf && subscription.publisher.equals(publisher))
            {
                return subscription;
            }
        }
        return null;
    }

    @Override
    public void closeChannels()
    {
        publications.forEach(PublicationEnd::close);
        subscriptions.forEach(SubscriptionEnd::close);
        publications.clear();
        subscriptions.clear();
    }
}
