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

import io.warpbus.iwarp.mpa.MpaException;
import io.warpbus.iwarp.mpa.MpaFrameFlyweight;
import io.warpbus.iwarp.mpa.MpaNegotiation;
import io.warpbus.iwarp.mpa.MpaSettings;
import io.warpbus.iwarp.mpa.NegotiatedParameters;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One connection's MPA start-up frames (RFC 5044 section 7.1, RFC 6581): writes this side's Request, Reply or
 * reject into the transmit ring, checks the peer's frame as it arrives in the receive buffer, keeps a responder's
 * Request while the application decides, and settles the negotiated parameters.
 * <p>
 * It decides nothing about the connection's state or events: the {@link Connection} does that with what this
 * class reports. Runs on the engine's thread; {@link #negotiated()} may be read from any thread.
 */
final class MpaStartup
{
    /** {@link #peerFrameLength}: the frame has not all arrived. */
    static final int INCOMPLETE = 0;
    /** {@link #peerFrameLength}: the frame is malformed; {@link #problem()} says how. */
    static final int INVALID = -1;

    private final MpaSettings defaults;
    private final ConnectionParameters parameters;
    private final MpaFrameFlyweight frame = new MpaFrameFlyweight();
    private UnsafeBuffer requestFrame;
    private volatile NegotiatedParameters negotiated;
    private String problem;

    /**
     * Start-up of one connection.
     *
     * @param defaults   the engine's MPA settings.
     * @param parameters the initiator's connection parameters, null for a responder.
     */
    MpaStartup(final MpaSettings defaults, final ConnectionParameters parameters)
    {
        this.defaults = defaults;
        this.parameters = parameters;
    }

    /**
     * What the MPA exchange settled.
     *
     * @return the parameters, or null before the exchange completed.
     */
    NegotiatedParameters negotiated()
    {
        return negotiated;
    }

    /**
     * Why the last peer frame was invalid.
     *
     * @return the reason.
     */
    String problem()
    {
        return problem;
    }

    // ---------------------------------------------------------------------------------------------------------
    // Initiator

    /**
     * Why the initiator's Request cannot be sent.
     *
     * @return the reason, or null when it can.
     */
    String requestProblem()
    {
        final MpaSettings settings = settings(parameters);
        final int maxData = MpaNegotiation.maxApplicationData(settings.revision() >= 2);
        final byte[] data = parameters.privateData();
        if (data.length > maxData)
        {
            return "private data of " + data.length + " bytes is longer than the " + maxData +
                " an MPA revision " + settings.revision() + " request can carry";
        }
        return null;
    }

    /**
     * Queue the initiator's Request.
     *
     * @param out the transmit ring, with room for an MPA frame.
     */
    void writeRequest(final TransmitRing out)
    {
        final int offset = out.claim(MpaFrameFlyweight.MAX_FRAME_LENGTH, 0);
        out.commitRaw(offset, MpaNegotiation.encodeRequest(out.buffer, offset, settings(parameters),
            parameters.privateData()));
    }

    /**
     * Did the responder's Reply, checked by {@link #peerFrameLength}, reject the connection?
     *
     * @return true when it has the R flag.
     */
    boolean peerRejected()
    {
        return frame.hasFlag(MpaFrameFlyweight.FLAG_REJECT);
    }

    /**
     * Does the peer's frame ask for markers?
     *
     * @return true when it has the M flag.
     */
    boolean peerWantsMarkers()
    {
        return frame.hasFlag(MpaFrameFlyweight.FLAG_MARKERS);
    }

    /**
     * Settle the connection from the responder's accepting Reply.
     *
     * @return the negotiated parameters, also kept for {@link #negotiated()}.
     * @throws MpaException when the Reply asks for what this side cannot give.
     */
    NegotiatedParameters negotiateAsInitiator()
    {
        final NegotiatedParameters result = MpaNegotiation.negotiateAsInitiator(frame, settings(parameters));
        negotiated = result;
        return result;
    }

    /**
     * Whether FPDUs carry CRCs when the initiator could not settle the Reply and sends a Terminate.
     *
     * @return true when either side asked for CRCs.
     */
    boolean crcAfterFailedNegotiation()
    {
        return settings(parameters).crcPolicy().requestFlag() || frame.hasFlag(MpaFrameFlyweight.FLAG_CRC);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Peer frames

    /**
     * Check the peer's frame at the start of the receive buffer.
     *
     * @param buffer    the receive buffer.
     * @param offset    where the frame starts.
     * @param available bytes of it read so far.
     * @param expected  a Request (responder) or a Reply (initiator).
     * @return the frame length once all of it has arrived and its header is valid, {@link #INCOMPLETE}, or
     * {@link #INVALID}.
     */
    int peerFrameLength(
        final DirectBuffer buffer, final int offset, final int available, final MpaFrameFlyweight.Kind expected)
    {
        if (available < MpaFrameFlyweight.HEADER_LENGTH)
        {
            return INCOMPLETE;
        }
        frame.wrap(buffer, offset);
        problem = frame.validate(expected);
        if (null != problem)
        {
            return INVALID;
        }
        final int frameLength = frame.frameLength();
        return available < frameLength ? INCOMPLETE : frameLength;
    }

    /**
     * Application private data of the peer's frame.
     *
     * @return a copy.
     */
    byte[] peerApplicationData()
    {
        return frame.applicationData();
    }

    // ---------------------------------------------------------------------------------------------------------
    // Responder

    /**
     * Why the initiator's Request cannot be accepted whatever the application says.
     *
     * @return the reason to reject with, or null.
     */
    String refusal()
    {
        return MpaNegotiation.refusal(frame);
    }

    /**
     * Keep a copy of the Request for the application's decision: the receive buffer moves on.
     *
     * @param buffer      the receive buffer.
     * @param offset      where the Request starts.
     * @param frameLength its length.
     */
    void keepRequest(final DirectBuffer buffer, final int offset, final int frameLength)
    {
        final byte[] copy = new byte[frameLength];
        buffer.getBytes(offset, copy);
        requestFrame = new UnsafeBuffer(copy);
        frame.wrap(requestFrame, 0);
    }

    int peerRevision()
    {
        return frame.revision();
    }

    boolean peerEnhanced()
    {
        return frame.isEnhanced();
    }

    /**
     * The IRD the Request offers.
     *
     * @return the IRD, or {@link MpaFrameFlyweight#IRD_ORD_NO_NEGOTIATION} when it is not enhanced.
     */
    int peerIrd()
    {
        return frame.isEnhanced() ? frame.enhancedIrdWord() & MpaFrameFlyweight.IRD_ORD_MASK :
            MpaFrameFlyweight.IRD_ORD_NO_NEGOTIATION;
    }

    /**
     * The ORD the Request asks for.
     *
     * @return the ORD, or {@link MpaFrameFlyweight#IRD_ORD_NO_NEGOTIATION} when it is not enhanced.
     */
    int peerOrd()
    {
        return frame.isEnhanced() ? frame.enhancedOrdWord() & MpaFrameFlyweight.IRD_ORD_MASK :
            MpaFrameFlyweight.IRD_ORD_NO_NEGOTIATION;
    }

    /**
     * Settle the connection as responder, with the application's parameters.
     *
     * @param accept the application's IRD, ORD and private data.
     * @return the negotiated parameters; send them with {@link #writeReply}.
     */
    NegotiatedParameters negotiateAsResponder(final ConnectionParameters accept)
    {
        frame.wrap(requestFrame, 0);
        return MpaNegotiation.negotiateAsResponder(frame, settings(accept));
    }

    /**
     * Why the Reply cannot carry the application's private data.
     *
     * @param result from {@link #negotiateAsResponder}.
     * @param data   the application's private data.
     * @return the reason, or null when it fits.
     */
    static String replyProblem(final NegotiatedParameters result, final byte[] data)
    {
        final int maxData = MpaNegotiation.maxApplicationData(result.enhanced());
        if (data.length > maxData)
        {
            return "accept private data of " + data.length + " bytes is longer than the " + maxData +
                " the reply can carry";
        }
        return null;
    }

    /**
     * Queue the accepting Reply and keep what it settles.
     *
     * @param out    the transmit ring, with room for an MPA frame.
     * @param result from {@link #negotiateAsResponder}.
     * @param data   the application's private data, fitting the Reply.
     */
    void writeReply(final TransmitRing out, final NegotiatedParameters result, final byte[] data)
    {
        negotiated = result;
        final int offset = out.claim(MpaFrameFlyweight.MAX_FRAME_LENGTH, 0);
        out.commitRaw(offset, MpaNegotiation.encodeReply(out.buffer, offset, result, data));
    }

    /**
     * Queue a rejecting Reply to the Request: the one kept, else the one just checked.
     *
     * @param out         the transmit ring, with room for an MPA frame.
     * @param privateData for the initiator, typically the reason.
     */
    void writeReject(final TransmitRing out, final byte[] privateData)
    {
        final MpaFrameFlyweight request = null != requestFrame ? frame.wrap(requestFrame, 0) : frame;
        final int offset = out.claim(MpaFrameFlyweight.MAX_FRAME_LENGTH, 0);
        out.commitRaw(offset, MpaNegotiation.encodeReject(out.buffer, offset, request, privateData));
    }

    private MpaSettings settings(final ConnectionParameters overrides)
    {
        return new MpaSettings(
            defaults.crcPolicy(),
            defaults.revision(),
            overrides.ird() >= 0 ? overrides.ird() : defaults.ird(),
            overrides.ord() >= 0 ? overrides.ord() : defaults.ord(),
            Math.max(defaults.maxIrd(), overrides.ird()),
            defaults.rtrTypes());
    }
}
