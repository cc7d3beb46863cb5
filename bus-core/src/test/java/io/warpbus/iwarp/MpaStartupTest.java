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

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

import io.warpbus.iwarp.mpa.CrcPolicy;
import io.warpbus.iwarp.mpa.MpaException;
import io.warpbus.iwarp.mpa.MpaFrameFlyweight;
import io.warpbus.iwarp.mpa.MpaNegotiation;
import io.warpbus.iwarp.mpa.MpaSettings;
import io.warpbus.iwarp.mpa.NegotiatedParameters;
import io.warpbus.iwarp.mpa.RtrType;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The MPA start-up frames of one side, against peer frames built by hand and without a socket: what each side
 * writes lands in a transmit ring, which is where the other side reads it from.
 */
class MpaStartupTest
{
    private static final MpaSettings DEFAULTS = new MpaSettings(CrcPolicy.PREFERRED, 2, 4, 4, 16, RtrType.ALL);
    private static final byte[] HELLO = "hello".getBytes(StandardCharsets.US_ASCII);

    private final UnsafeBuffer peer = new UnsafeBuffer(new byte[MpaFrameFlyweight.MAX_FRAME_LENGTH]);
    private final TransmitRing out = new TransmitRing(4096, new CRC32C());
    private final MpaFrameFlyweight sent = new MpaFrameFlyweight();

    @Test
    void shouldWaitForTheWholeRequestBeforeJudgingIt()
    {
        final int length = MpaNegotiation.encodeRequest(peer, 0, DEFAULTS, HELLO);
        final MpaStartup responder = new MpaStartup(DEFAULTS, null);

        assertEquals(MpaStartup.INCOMPLETE, responder.peerFrameLength(peer, 0,
            MpaFrameFlyweight.HEADER_LENGTH - 1, MpaFrameFlyweight.Kind.REQUEST));
        assertEquals(MpaStartup.INCOMPLETE, responder.peerFrameLength(peer, 0, length - 1,
            MpaFrameFlyweight.Kind.REQUEST));
        assertEquals(length, responder.peerFrameLength(peer, 0, length, MpaFrameFlyweight.Kind.REQUEST));
        assertNull(responder.problem());
    }

    @Test
    void shouldCallAReplyWhereARequestBelongsInvalid()
    {
        final int length = MpaFrameFlyweight.encode(peer, 0, MpaFrameFlyweight.Kind.REPLY, 0, 1, false, 0, 0, HELLO);
        final MpaStartup responder = new MpaStartup(DEFAULTS, null);

        assertEquals(MpaStartup.INVALID, responder.peerFrameLength(peer, 0, length, MpaFrameFlyweight.Kind.REQUEST));
        assertTrue(responder.problem().contains("MPA request expected"), responder.problem());
    }

    @Test
    void shouldKeepTheRequestWhileTheApplicationDecidesThenReplyToIt()
    {
        final int irdWord = MpaFrameFlyweight.ENHANCED_PEER_TO_PEER | MpaFrameFlyweight.ENHANCED_RTR_SEND | 7;
        final int ordWord = 3;
        final int length = MpaFrameFlyweight.encode(peer, 0, MpaFrameFlyweight.Kind.REQUEST,
            MpaFrameFlyweight.FLAG_CRC, 2, true, irdWord, ordWord, HELLO);
        final MpaStartup responder = new MpaStartup(DEFAULTS, null);
        assertEquals(length, responder.peerFrameLength(peer, 0, length, MpaFrameFlyweight.Kind.REQUEST));
        assertNull(responder.refusal());

        responder.keepRequest(peer, 0, length);
        peer.setMemory(0, length, (byte)0);

        assertArrayEquals(HELLO, responder.peerApplicationData());
        assertEquals(2, responder.peerRevision());
        assertTrue(responder.peerEnhanced());
        assertEquals(7, responder.peerIrd());
        assertEquals(3, responder.peerOrd());
        assertNull(responder.negotiated());

        final byte[] accept = "ok".getBytes(StandardCharsets.US_ASCII);
        final NegotiatedParameters result = responder.negotiateAsResponder(new ConnectionParameters().ird(2));
        assertNull(MpaStartup.replyProblem(result, accept));
        responder.writeReply(out, result, accept);

        assertSame(result, responder.negotiated());
        assertTrue(result.crc());
        assertTrue(result.peerToPeer());
        assertEquals(RtrType.SEND, result.rtrType());
        assertEquals(3, result.ird(), "the IRD grows to the initiator's ORD");
        sent.wrap(out.buffer, 0);
        assertEquals(out.pending(), sent.frameLength());
        assertNull(sent.validate(MpaFrameFlyweight.Kind.REPLY));
        assertFalse(sent.hasFlag(MpaFrameFlyweight.FLAG_REJECT));
        assertArrayEquals(accept, sent.applicationData());
    }

    @Test
    void shouldRejectTheKeptRequestInItsRevision()
    {
        final int length = MpaFrameFlyweight.encode(peer, 0, MpaFrameFlyweight.Kind.REQUEST, 0, 1, false, 0, 0, HELLO);
        final MpaStartup responder = new MpaStartup(DEFAULTS, null);
        responder.peerFrameLength(peer, 0, length, MpaFrameFlyweight.Kind.REQUEST);
        responder.keepRequest(peer, 0, length);
        peer.setMemory(0, length, (byte)0);

        responder.writeReject(out, "busy".getBytes(StandardCharsets.US_ASCII));

        sent.wrap(out.buffer, 0);
        assertNull(sent.validate(MpaFrameFlyweight.Kind.REPLY));
        assertTrue(sent.hasFlag(MpaFrameFlyweight.FLAG_REJECT));
        assertEquals(1, sent.revision());
        assertFalse(sent.isEnhanced());
        assertArrayEquals("busy".getBytes(StandardCharsets.US_ASCII), sent.applicationData());
        assertNull(responder.negotiated());
    }

    @Test
    void shouldRefuseARequestForMarkersAndRejectTheFrameJustChecked()
    {
        final int length = MpaFrameFlyweight.encode(peer, 0, MpaFrameFlyweight.Kind.REQUEST,
            MpaFrameFlyweight.FLAG_MARKERS, 2, true, 0, 0, HELLO);
        final MpaStartup responder = new MpaStartup(DEFAULTS, null);
        responder.peerFrameLength(peer, 0, length, MpaFrameFlyweight.Kind.REQUEST);

        final String refusal = responder.refusal();
        assertNotNull(refusal);
        assertTrue(refusal.contains("markers"), refusal);
        responder.writeReject(out, refusal.getBytes(StandardCharsets.US_ASCII));

        sent.wrap(out.buffer, 0);
        assertTrue(sent.hasFlag(MpaFrameFlyweight.FLAG_REJECT));
        assertEquals(2, sent.revision());
        assertTrue(sent.isEnhanced(), "answered in the request's own form");
    }

    @Test
    void shouldNotAcceptWithMorePrivateDataThanTheReplyCarries()
    {
        final int length = MpaNegotiation.encodeRequest(peer, 0, DEFAULTS, HELLO);
        final MpaStartup responder = new MpaStartup(DEFAULTS, null);
        responder.peerFrameLength(peer, 0, length, MpaFrameFlyweight.Kind.REQUEST);
        responder.keepRequest(peer, 0, length);

        final NegotiatedParameters result = responder.negotiateAsResponder(new ConnectionParameters());

        assertEquals("accept private data of 509 bytes is longer than the 508 the reply can carry",
            MpaStartup.replyProblem(result, new byte[509]));
        assertNull(MpaStartup.replyProblem(result, new byte[508]));
    }

    @Test
    void shouldNotSendARequestWithMorePrivateDataThanItCarries()
    {
        final MpaStartup initiator = new MpaStartup(DEFAULTS, new ConnectionParameters().privateData(new byte[600]));

        assertEquals("private data of 600 bytes is longer than the 508 an MPA revision 2 request can carry",
            initiator.requestProblem());
        assertNull(new MpaStartup(DEFAULTS, new ConnectionParameters().privateData(HELLO)).requestProblem());
    }

    @Test
    void shouldSettleBothSidesThroughTheirFrames()
    {
        final MpaStartup initiator = new MpaStartup(DEFAULTS, new ConnectionParameters().privateData(HELLO).ord(2));
        initiator.writeRequest(out);
        final int requestLength = (int)out.pending();

        final MpaStartup responder = new MpaStartup(DEFAULTS, null);
        assertEquals(requestLength,
            responder.peerFrameLength(out.buffer, 0, requestLength, MpaFrameFlyweight.Kind.REQUEST));
        responder.keepRequest(out.buffer, 0, requestLength);
        assertArrayEquals(HELLO, responder.peerApplicationData());
        assertEquals(2, responder.peerOrd());
        final TransmitRing responderOut = new TransmitRing(4096, new CRC32C());
        final NegotiatedParameters accepted = responder.negotiateAsResponder(new ConnectionParameters());
        responder.writeReply(responderOut, accepted, new byte[0]);

        final int replyLength = (int)responderOut.pending();
        assertEquals(replyLength,
            initiator.peerFrameLength(responderOut.buffer, 0, replyLength, MpaFrameFlyweight.Kind.REPLY));
        assertFalse(initiator.peerRejected());
        final NegotiatedParameters settled = initiator.negotiateAsInitiator();

        assertSame(settled, initiator.negotiated());
        assertTrue(settled.initiator());
        assertEquals(accepted.crc(), settled.crc());
        assertEquals(accepted.rtrType(), settled.rtrType());
        assertEquals(2, settled.ord(), "the initiator keeps its ORD, within the responder's IRD");
        assertEquals(accepted.ird(), settled.peerIrd());
    }

    @Test
    void shouldSeeARejectingReply()
    {
        final int length = MpaFrameFlyweight.encode(peer, 0, MpaFrameFlyweight.Kind.REPLY,
            MpaFrameFlyweight.FLAG_REJECT, 2, false, 0, 0, HELLO);
        final MpaStartup initiator = new MpaStartup(DEFAULTS, new ConnectionParameters());

        assertEquals(length, initiator.peerFrameLength(peer, 0, length, MpaFrameFlyweight.Kind.REPLY));

        assertTrue(initiator.peerRejected());
        assertArrayEquals(HELLO, initiator.peerApplicationData());
        assertNull(initiator.negotiated());
    }

    @Test
    void shouldFailANegotiationWhenTheResponderWantsMoreReadsThanAllowed()
    {
        final int length = MpaFrameFlyweight.encode(peer, 0, MpaFrameFlyweight.Kind.REPLY, 0, 2, true,
            MpaFrameFlyweight.ENHANCED_PEER_TO_PEER | MpaFrameFlyweight.ENHANCED_RTR_SEND | 4, 100, new byte[0]);
        final MpaStartup initiator = new MpaStartup(DEFAULTS, new ConnectionParameters());
        initiator.peerFrameLength(peer, 0, length, MpaFrameFlyweight.Kind.REPLY);

        final MpaException ex = assertThrows(MpaException.class, initiator::negotiateAsInitiator);

        assertEquals(MpaException.INSUFFICIENT_IRD, ex.mpaErrorCode());
        assertFalse(initiator.peerWantsMarkers());
        assertTrue(initiator.crcAfterFailedNegotiation(), "this side prefers CRCs, so it asked for them");
        assertNull(initiator.negotiated());
    }
}
