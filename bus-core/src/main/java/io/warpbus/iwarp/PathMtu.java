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
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.nio.channels.SocketChannel;

import io.warpbus.iwarp.mpa.Fpdu;
import org.agrona.ErrorHandler;

/**
 * The largest ULPDU a connection puts in one FPDU: derived from the MTU of the interface its socket is bound to, so
 * an FPDU fits one TCP segment (RFC 5044 section 4.5), and capped by configuration.
 */
final class PathMtu
{
    /** The MSS assumed when the interface's MTU cannot be read. */
    static final int DEFAULT_EMSS = 1460;

    private PathMtu()
    {
    }

    /**
     * MULPDU for a connected socket.
     *
     * @param channel       the connected socket.
     * @param maxFpduLength configured cap on the FPDU length, 0 for none.
     * @param errorHandler  told when the MTU cannot be read.
     * @return the largest ULPDU to send in one FPDU.
     */
    static int maxUlpdu(final SocketChannel channel, final int maxFpduLength, final ErrorHandler errorHandler)
    {
        int emss = DEFAULT_EMSS;
        try
        {
            final InetSocketAddress local = (InetSocketAddress)channel.getLocalAddress();
            final NetworkInterface nif = NetworkInterface.getByInetAddress(local.getAddress());
            final int mtu = null != nif ? nif.getMTU() : -1;
            if (mtu > 0)
            {
                emss = emss(mtu, local.getAddress() instanceof Inet6Address);
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            errorHandler.onError(new IwarpException("cannot read the path MTU, assuming an MSS of 1460: " + ex, ex));
        }
        return maxUlpdu(emss, maxFpduLength);
    }

    /**
     * Effective MSS for an MTU.
     *
     * @param mtu  the interface's MTU.
     * @param ipv6 whether the connection is IPv6.
     * @return the MTU less the IP header, the TCP header and the 12 bytes of the TCP timestamp option.
     */
    static int emss(final int mtu, final boolean ipv6)
    {
        return mtu - (ipv6 ? 40 : 20) - 20 - 12;
    }

    /**
     * MULPDU for an effective MSS, capped.
     *
     * @param emss          effective MSS.
     * @param maxFpduLength configured cap on the FPDU length, 0 for none.
     * @return the largest ULPDU to send in one FPDU.
     */
    static int maxUlpdu(final int emss, final int maxFpduLength)
    {
        int ulpdu = Fpdu.mulpdu(emss);
        if (0 != maxFpduLength)
        {
            ulpdu = Math.min(ulpdu, ((maxFpduLength - Fpdu.CRC_LENGTH) & ~3) - Fpdu.LENGTH_FIELD_LENGTH);
        }
        return ulpdu;
    }
}
