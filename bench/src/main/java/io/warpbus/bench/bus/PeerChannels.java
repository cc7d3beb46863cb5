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

/**
 * The channels of the point-to-point systems without a bus ({@link RdmaEndpoint}, {@link TcpEndpoint}):
 * {@code SCHEME:endpoint=HOST:PORT}, where the publication listens and the subscription connects, and
 * {@code SCHEME:reverse=HOST:PORT}, back over the connection made for {@code HOST:PORT}.
 */
final class PeerChannels
{
    /** The engine's: {@code rdma:}. */
    static final PeerChannels RDMA = new PeerChannels("rdma");
    /** Plain TCP's: {@code tcp:}. */
    static final PeerChannels TCP = new PeerChannels("tcp");

    private final String forward;
    private final String reverse;

    private PeerChannels(final String scheme)
    {
        forward = scheme + ":endpoint=";
        reverse = scheme + ":reverse=";
    }

    /**
     * The address of {@code SCHEME:endpoint=HOST:PORT} or {@code SCHEME:reverse=HOST:PORT}.
     *
     * @param channel the channel.
     * @return its address.
     */
    InetSocketAddress address(final String channel)
    {
        final String prefix = isReverse(channel) ? reverse : forward;
        final int colon = channel.lastIndexOf(':');
        if (!channel.startsWith(prefix) || colon < prefix.length())
        {
            throw new IllegalArgumentException("not a " + forward + "HOST:PORT or " + reverse + "HOST:PORT channel: '" +
                channel + "'");
        }
        return new InetSocketAddress(channel.substring(prefix.length(), colon),
            Integer.parseInt(channel.substring(colon + 1)));
    }

    /**
     * The forward channel to an address.
     *
     * @param address where the publication listens.
     * @return {@code SCHEME:endpoint=HOST:PORT}.
     */
    String forwardOf(final InetSocketAddress address)
    {
        return forward + address.getHostString() + ":" + address.getPort();
    }

    /**
     * The channel back over the connection that {@code channel} makes.
     *
     * @param channel a {@code SCHEME:endpoint=HOST:PORT} channel.
     * @return {@code SCHEME:reverse=HOST:PORT}.
     */
    String reverseOf(final String channel)
    {
        if (isReverse(channel))
        {
            throw new IllegalArgumentException("already a reverse channel: '" + channel + "'");
        }
        address(channel);
        return reverse + channel.substring(forward.length());
    }

    /**
     * The channel's direction over its connection.
     *
     * @param channel the channel.
     * @return true for {@code SCHEME:reverse=HOST:PORT}, back over the connection made for {@code HOST:PORT}.
     */
    boolean isReverse(final String channel)
    {
        return channel.startsWith(reverse);
    }
}
