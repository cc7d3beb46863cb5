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
package io.warpbus.iwarp.mpa;

import java.util.Arrays;

/**
 * What the MPA exchange settled for a connection.
 *
 * @param initiator       this side sent the Request.
 * @param revision        MPA revision in use.
 * @param enhanced        RFC 6581 enhanced connection data was exchanged.
 * @param crc             FPDUs carry a checked CRC32C.
 * @param peerToPeer      the peer-to-peer model, with an RTR as the initiator's first FPDU.
 * @param rtrType         the RTR the initiator sends, or null.
 * @param ird             inbound RDMA Reads this side accepts at once.
 * @param ord             outbound RDMA Reads this side issues at once.
 * @param peerIrd         the IRD the peer declared (0x3FFF: not negotiated).
 * @param peerOrd         the ORD the peer declared (0x3FFF: not negotiated).
 * @param peerPrivateData the application part of the peer's private data.
 */
public record NegotiatedParameters(
    boolean initiator,
    int revision,
    boolean enhanced,
    boolean crc,
    boolean peerToPeer,
    RtrType rtrType,
    int ird,
    int ord,
    int peerIrd,
    int peerOrd,
    byte[] peerPrivateData)
{
    @Override
    public boolean equals(final Object o)
    {
        return o instanceof NegotiatedParameters that && initiator == that.initiator && revision == that.revision &&
            enhanced == that.enhanced && crc == that.crc && peerToPeer == that.peerToPeer &&
            rtrType == that.rtrType && ird == that.ird && ord == that.ord && peerIrd == that.peerIrd &&
            peerOrd == that.peerOrd && Arrays.equals(peerPrivateData, that.peerPrivateData);
    }

    @Override
    public int hashCode()
    {
        return 31 * Boolean.hashCode(crc) + 17 * ird + ord + Arrays.hashCode(peerPrivateData);
    }

    @Override
    public String toString()
    {
        return "NegotiatedParameters{" + (initiator ? "initiator" : "responder") + ", rev=" + revision +
            ", enhanced=" + enhanced + ", crc=" + crc + ", peerToPeer=" + peerToPeer + ", rtr=" + rtrType +
            ", ird=" + ird + ", ord=" + ord + ", peerIrd=" + peerIrd + ", peerOrd=" + peerOrd +
            ", privateData=" + peerPrivateData.length + " bytes}";
    }
}
