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

import org.agrona.MutableDirectBuffer;

import static io.warpbus.iwarp.mpa.MpaFrameFlyweight.ENHANCED_PEER_TO_PEER;
import static io.warpbus.iwarp.mpa.MpaFrameFlyweight.ENHANCED_RTR_READ;
import static io.warpbus.iwarp.mpa.MpaFrameFlyweight.ENHANCED_RTR_SEND;
import static io.warpbus.iwarp.mpa.MpaFrameFlyweight.ENHANCED_RTR_WRITE;
import static io.warpbus.iwarp.mpa.MpaFrameFlyweight.FLAG_CRC;
import static io.warpbus.iwarp.mpa.MpaFrameFlyweight.FLAG_MARKERS;
import static io.warpbus.iwarp.mpa.MpaFrameFlyweight.FLAG_REJECT;
import static io.warpbus.iwarp.mpa.MpaFrameFlyweight.IRD_ORD_MASK;
import static io.warpbus.iwarp.mpa.MpaFrameFlyweight.IRD_ORD_NO_NEGOTIATION;

/**
 * The decisions of the MPA startup phase (RFC 5044 section 7.1.2, RFC 6581 section 9): what goes in the Request,
 * whether and how a responder answers it, and what the initiator concludes from the Reply. Pure functions over
 * frames, so the whole negotiation is testable without sockets.
 */
public final class MpaNegotiation
{
    private MpaNegotiation()
    {
    }

    /**
     * Encode this side's Request.
     *
     * @param buffer          to write into.
     * @param offset          where the frame starts.
     * @param settings        this side's proposal.
     * @param applicationData private data for the responder's application.
     * @return frame length.
     */
    public static int encodeRequest(
        final MutableDirectBuffer buffer, final int offset, final MpaSettings settings, final byte[] applicationData)
    {
        final boolean enhanced = settings.revision() >= 2;
        final int rtr = settings.rtrTypes();
        final int irdWord = ENHANCED_PEER_TO_PEER | ((rtr & RtrType.SEND.bit()) != 0 ? ENHANCED_RTR_SEND : 0) |
            settings.ird();
        final int ordWord = ((rtr & RtrType.WRITE.bit()) != 0 ? ENHANCED_RTR_WRITE : 0) |
            ((rtr & RtrType.READ.bit()) != 0 ? ENHANCED_RTR_READ : 0) | settings.ord();
        return MpaFrameFlyweight.encode(
            buffer,
            offset,
            MpaFrameFlyweight.Kind.REQUEST,
            settings.crcPolicy().requestFlag() ? FLAG_CRC : 0,
            settings.revision(),
            enhanced,
            irdWord,
            ordWord,
            applicationData);
    }

    /**
     * Why a well-formed Request cannot be accepted whatever the application says, or null when it can.
     *
     * @param request  a Request that passed {@link MpaFrameFlyweight#validate(MpaFrameFlyweight.Kind)}.
     * @return a reason to reject with, or null.
     */
    public static String refusal(final MpaFrameFlyweight request)
    {
        final int revision = request.revision();
        if (revision != 1 && revision != 2)
        {
            return "MPA revision " + revision + " is not supported: this peer speaks revisions 1 and 2";
        }
        if (request.hasFlag(FLAG_MARKERS))
        {
            return "MPA markers are not supported: this peer never sends them, and asks for none";
        }
        return null;
    }

    /**
     * Settle the connection as responder.
     *
     * @param request  the initiator's Request, valid and not refused.
     * @param settings this side's settings, possibly with the application's IRD and ORD.
     * @return the negotiated parameters; encode the Reply with {@link #encodeReply}.
     */
    public static NegotiatedParameters negotiateAsResponder(
        final MpaFrameFlyweight request, final MpaSettings settings)
    {
        final boolean initiatorCrc = request.hasFlag(FLAG_CRC);
        final boolean crc = settings.crcPolicy().replyFlag(initiatorCrc);
        final boolean enhanced = request.isEnhanced() && settings.revision() >= 2;
        if (!enhanced)
        {
            return new NegotiatedParameters(
                false, 1, false, crc, false, null, settings.ird(), settings.ord(),
                IRD_ORD_NO_NEGOTIATION, IRD_ORD_NO_NEGOTIATION, request.applicationData());
        }

        final int peerIrdWord = request.enhancedIrdWord();
        final int peerOrdWord = request.enhancedOrdWord();
        final int peerIrd = peerIrdWord & IRD_ORD_MASK;
        final int peerOrd = peerOrdWord & IRD_ORD_MASK;
        final boolean peerToPeer = (peerIrdWord & ENHANCED_PEER_TO_PEER) != 0;

        RtrType rtr = null;
        if (peerToPeer)
        {
            final int offered = offeredRtrTypes(peerIrdWord, peerOrdWord);
            final int common = offered & settings.rtrTypes();
            // RFC 6581 section 9.2: with nothing in common the responder still names one type it supports.
            rtr = RtrType.preferred(0 != common ? common : settings.rtrTypes());
        }

        // RFC 6581 section 9.1: our IRD should cover the initiator's ORD (growing up to maxIrd), our ORD must not
        // exceed the initiator's IRD; 0x3FFF leaves the local value alone.
        int ird = settings.ird();
        if (IRD_ORD_NO_NEGOTIATION != peerOrd)
        {
            ird = Math.max(ird, Math.min(peerOrd, settings.maxIrd()));
        }
        if (RtrType.READ == rtr && 0 == ird)
        {
            ird = 1;
        }
        int ord = settings.ord();
        if (IRD_ORD_NO_NEGOTIATION != peerIrd)
        {
            ord = Math.min(ord, peerIrd);
        }
        return new NegotiatedParameters(
            false, 2, true, crc, peerToPeer, rtr, ird, ord, peerIrd, peerOrd, request.applicationData());
    }

    /**
     * Encode an accepting Reply. In the peer-to-peer model it names one ready-to-receive type, the one this side
     * expects as the initiator's first FPDU (RFC 6581 section 9): chosen from the types the Request offered, never
     * a type the initiator did not offer, unless none of them is one this side accepts (then the initiator ends the
     * connection with a Terminate, "no matching RTR option").
     *
     * @param buffer          to write into.
     * @param offset          where the frame starts.
     * @param negotiated      from {@link #negotiateAsResponder}.
     * @param applicationData private data for the initiator's application.
     * @return frame length.
     */
    public static int encodeReply(
        final MutableDirectBuffer buffer,
        final int offset,
        final NegotiatedParameters negotiated,
        final byte[] applicationData)
    {
        int irdWord = 0;
        int ordWord = 0;
        if (negotiated.enhanced())
        {
            final int advertised = negotiated.peerToPeer() ? negotiated.rtrType().bit() : 0;
            irdWord = (negotiated.peerToPeer() ? ENHANCED_PEER_TO_PEER : 0) |
                ((advertised & RtrType.SEND.bit()) != 0 ? ENHANCED_RTR_SEND : 0) |
                (IRD_ORD_NO_NEGOTIATION == negotiated.peerOrd() ? IRD_ORD_NO_NEGOTIATION : negotiated.ird());
            ordWord = ((advertised & RtrType.WRITE.bit()) != 0 ? ENHANCED_RTR_WRITE : 0) |
                ((advertised & RtrType.READ.bit()) != 0 ? ENHANCED_RTR_READ : 0) |
                (IRD_ORD_NO_NEGOTIATION == negotiated.peerIrd() ? IRD_ORD_NO_NEGOTIATION : negotiated.ord());
        }
        return MpaFrameFlyweight.encode(
            buffer,
            offset,
            MpaFrameFlyweight.Kind.REPLY,
            negotiated.crc() ? FLAG_CRC : 0,
            negotiated.revision(),
            negotiated.enhanced(),
            irdWord,
            ordWord,
            applicationData);
    }

    /**
     * Encode a rejecting Reply (R=1).
     *
     * @param buffer          to write into.
     * @param offset          where the frame starts.
     * @param request         the Request being rejected, to answer in its revision.
     * @param applicationData private data for the initiator, typically the reason.
     * @return frame length.
     */
    public static int encodeReject(
        final MutableDirectBuffer buffer,
        final int offset,
        final MpaFrameFlyweight request,
        final byte[] applicationData)
    {
        final int revision = request.revision() >= 2 ? 2 : 1;
        final boolean enhanced = request.isEnhanced();
        final byte[] data = applicationData.length > maxApplicationData(enhanced) ?
            Arrays.copyOf(applicationData, maxApplicationData(enhanced)) : applicationData;
        return MpaFrameFlyweight.encode(
            buffer, offset, MpaFrameFlyweight.Kind.REPLY, FLAG_REJECT, revision, enhanced, 0, 0, data);
    }

    /**
     * Settle the connection as initiator from an accepting Reply.
     *
     * @param reply    the responder's Reply, valid and with R=0.
     * @param settings this side's settings.
     * @return the negotiated parameters.
     * @throws MpaException when the responder demands markers, more IRD than this side can give, or only RTR types
     *                      this side cannot send.
     */
    public static NegotiatedParameters negotiateAsInitiator(final MpaFrameFlyweight reply, final MpaSettings settings)
    {
        if (reply.hasFlag(FLAG_MARKERS))
        {
            throw new MpaException(MpaException.LOCAL_CATASTROPHIC,
                "the responder demands MPA markers, which this peer does not send");
        }
        final boolean crc = settings.crcPolicy().requestFlag() || reply.hasFlag(FLAG_CRC);
        final boolean requestedEnhanced = settings.revision() >= 2;
        final boolean enhanced = requestedEnhanced && reply.isEnhanced();
        if (!enhanced)
        {
            return new NegotiatedParameters(
                true, Math.min(reply.revision(), settings.revision()), false, crc, false, null,
                settings.ird(), settings.ord(), IRD_ORD_NO_NEGOTIATION, IRD_ORD_NO_NEGOTIATION,
                reply.applicationData());
        }

        final int peerIrdWord = reply.enhancedIrdWord();
        final int peerOrdWord = reply.enhancedOrdWord();
        final int peerIrd = peerIrdWord & IRD_ORD_MASK;
        final int peerOrd = peerOrdWord & IRD_ORD_MASK;
        final boolean peerToPeer = (peerIrdWord & ENHANCED_PEER_TO_PEER) != 0;

        int ird = settings.ird();
        if (IRD_ORD_NO_NEGOTIATION != peerOrd && peerOrd > ird)
        {
            if (peerOrd > settings.maxIrd())
            {
                throw new MpaException(MpaException.INSUFFICIENT_IRD, "the responder wants " + peerOrd +
                    " outstanding RDMA Reads (its ORD) but this peer allows at most " + settings.maxIrd());
            }
            ird = peerOrd;
        }
        int ord = settings.ord();
        if (IRD_ORD_NO_NEGOTIATION != peerIrd)
        {
            ord = Math.min(ord, peerIrd);
        }

        RtrType rtr = null;
        if (peerToPeer)
        {
            int usable = offeredRtrTypes(peerIrdWord, peerOrdWord) & settings.rtrTypes();
            if (0 == ord)
            {
                usable &= ~RtrType.READ.bit();
            }
            rtr = RtrType.preferred(usable);
            if (null == rtr)
            {
                throw new MpaException(MpaException.NO_MATCHING_RTR,
                    "no ready-to-receive type in common: the responder accepts " +
                    describe(offeredRtrTypes(peerIrdWord, peerOrdWord)) + ", this peer sends " +
                    describe(settings.rtrTypes()) + (0 == ord ? " (and no RDMA Read is allowed)" : ""));
            }
        }
        return new NegotiatedParameters(
            true, 2, true, crc, peerToPeer, rtr, ird, ord, peerIrd, peerOrd, reply.applicationData());
    }

    /**
     * Longest application private data a frame can carry.
     *
     * @param enhanced whether the frame carries the 4 bytes of enhanced data.
     * @return 512 or 508.
     */
    public static int maxApplicationData(final boolean enhanced)
    {
        return MpaFrameFlyweight.MAX_PRIVATE_DATA_LENGTH - (enhanced ? MpaFrameFlyweight.ENHANCED_DATA_LENGTH : 0);
    }

    static int offeredRtrTypes(final int irdWord, final int ordWord)
    {
        return ((irdWord & ENHANCED_RTR_SEND) != 0 ? RtrType.SEND.bit() : 0) |
            ((ordWord & ENHANCED_RTR_WRITE) != 0 ? RtrType.WRITE.bit() : 0) |
            ((ordWord & ENHANCED_RTR_READ) != 0 ? RtrType.READ.bit() : 0);
    }

    private static String describe(final int mask)
    {
        final StringBuilder sb = new StringBuilder();
        for (final RtrType type : RtrType.values())
        {
            if ((mask & type.bit()) != 0)
            {
                sb.append(sb.length() > 0 ? "," : "").append(type.name().toLowerCase());
            }
        }
        return sb.length() == 0 ? "none" : sb.toString();
    }
}
