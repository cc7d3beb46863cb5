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

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import static io.warpbus.testing.WireTestSupport.bytes;
import static io.warpbus.testing.WireTestSupport.directBuffer;
import static io.warpbus.testing.WireTestSupport.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MpaNegotiationTest
{
    private static final String REQUEST_KEY = "4d 50 41 20 49 44 20 52 65 71 20 46 72 61 6d 65";
    private static final String REPLY_KEY = "4d 50 41 20 49 44 20 52 65 70 20 46 72 61 6d 65";
    private static final int NONE = MpaFrameFlyweight.IRD_ORD_NO_NEGOTIATION;
    private static final int WRITE = RtrType.WRITE.bit();
    private static final int READ = RtrType.READ.bit();
    private static final int SEND = RtrType.SEND.bit();
    private static final byte[] NO_DATA = new byte[0];

    private final UnsafeBuffer requestBuffer = directBuffer(1024);
    private final UnsafeBuffer replyBuffer = directBuffer(1024);
    private final MpaFrameFlyweight request = new MpaFrameFlyweight();
    private final MpaFrameFlyweight reply = new MpaFrameFlyweight();

    @ParameterizedTest
    @EnumSource(value = CrcPolicy.class, names = { "REQUIRED", "PREFERRED" })
    void shouldEncodeEnhancedRequestAsWorkedOutInNotes(final CrcPolicy policy)
    {
        final int length = MpaNegotiation.encodeRequest(
            requestBuffer, 0, settings(policy, 2, 16, 16, 16, READ), NO_DATA);

        assertEquals(24, length);
        assertArrayEquals(hex(REQUEST_KEY + "50 02 00 04 80 10 40 10"), bytes(requestBuffer, 0, 24));
    }

    @Test
    void shouldOfferEveryRtrTypeInRequest()
    {
        MpaNegotiation.encodeRequest(requestBuffer, 0, settings(CrcPolicy.REQUIRED, 2, 1, 2, 1, RtrType.ALL), NO_DATA);

        assertArrayEquals(hex("50 02 00 04 c0 01 c0 02"), bytes(requestBuffer, 16, 8));
    }

    @Test
    void shouldEncodeLargestIrdAndNoCrcInRequest()
    {
        MpaNegotiation.encodeRequest(requestBuffer, 0, settings(CrcPolicy.OFF, 2, 0x3FFE, 0, 0x3FFE, SEND), NO_DATA);

        assertArrayEquals(hex("10 02 00 04 ff fe 00 00"), bytes(requestBuffer, 16, 8));
    }

    @Test
    void shouldEncodeRevisionOneRequestWithPrivateDataAndNoEnhancedData()
    {
        final int length = MpaNegotiation.encodeRequest(
            requestBuffer, 0, settings(CrcPolicy.PREFERRED, 1, 4, 4, 4, RtrType.ALL), hex("68 69"));

        assertEquals(22, length);
        assertArrayEquals(hex(REQUEST_KEY + "40 01 00 02 68 69"), bytes(requestBuffer, 0, 22));
    }

    @Test
    void shouldPlaceApplicationDataAfterEnhancedDataInRequest()
    {
        final int length = MpaNegotiation.encodeRequest(
            requestBuffer, 0, settings(CrcPolicy.PREFERRED, 2, 4, 4, 4, WRITE), hex("68 69"));

        assertEquals(26, length);
        assertArrayEquals(hex("50 02 00 06 80 04 80 04 68 69"), bytes(requestBuffer, 16, 10));
    }

    @ParameterizedTest(name = "rev {0}: initiator {1}, responder {2} -> Request C={3}, Reply C={4}, CRC {5}")
    @CsvSource({
        "1, REQUIRED, REQUIRED, true, true, true",
        "1, REQUIRED, PREFERRED, true, true, true",
        "1, REQUIRED, OFF, true, true, true",
        "1, PREFERRED, REQUIRED, true, true, true",
        "1, PREFERRED, PREFERRED, true, true, true",
        "1, PREFERRED, OFF, true, true, true",
        "1, OFF, REQUIRED, false, true, true",
        "1, OFF, PREFERRED, false, false, false",
        "1, OFF, OFF, false, false, false",
        "2, REQUIRED, REQUIRED, true, true, true",
        "2, REQUIRED, PREFERRED, true, true, true",
        "2, REQUIRED, OFF, true, true, true",
        "2, PREFERRED, REQUIRED, true, true, true",
        "2, PREFERRED, PREFERRED, true, true, true",
        "2, PREFERRED, OFF, true, true, true",
        "2, OFF, REQUIRED, false, true, true",
        "2, OFF, PREFERRED, false, false, false",
        "2, OFF, OFF, false, false, false" })
    void shouldUseCrcWhenEitherFrameAsksForIt(
        final int revision,
        final CrcPolicy initiatorPolicy,
        final CrcPolicy responderPolicy,
        final boolean requestC,
        final boolean replyC,
        final boolean crc)
    {
        final MpaSettings initiator = settings(initiatorPolicy, revision, 4, 4, 4, RtrType.ALL);
        final MpaSettings responder = settings(responderPolicy, revision, 4, 4, 4, RtrType.ALL);

        final NegotiatedParameters responderResult = respond(initiator, responder);
        final NegotiatedParameters initiatorResult = MpaNegotiation.negotiateAsInitiator(reply, initiator);

        assertEquals(requestC, (requestBuffer.getByte(16) & 0x40) != 0, "C flag of the Request");
        assertEquals(replyC, (replyBuffer.getByte(16) & 0x40) != 0, "C flag of the Reply");
        assertEquals(crc, responderResult.crc(), "responder");
        assertEquals(crc, initiatorResult.crc(), "initiator");
    }

    @Test
    void shouldSettleFullRevisionTwoExchangeOnBothSides()
    {
        final MpaSettings initiator = settings(CrcPolicy.PREFERRED, 2, 4, 8, 4, RtrType.ALL);
        final MpaSettings responder = settings(CrcPolicy.PREFERRED, 2, 2, 16, 32, RtrType.ALL);

        final NegotiatedParameters responderResult = respond(initiator, responder);
        final NegotiatedParameters initiatorResult = MpaNegotiation.negotiateAsInitiator(reply, initiator);

        // Responder IRD grows to the initiator's ORD 8, its ORD drops to the initiator's IRD 4.
        assertEquals(
            new NegotiatedParameters(false, 2, true, true, true, RtrType.WRITE, 8, 4, 4, 8, NO_DATA),
            responderResult);
        // The chosen type only: A=1, B=0, IRD 8 | C=1 (Write), D=0, ORD 4.
        assertArrayEquals(hex(REPLY_KEY + "50 02 00 04 80 08 80 04"), bytes(replyBuffer, 0, 24));
        assertEquals(
            new NegotiatedParameters(true, 2, true, true, true, RtrType.WRITE, 4, 8, 8, 4, NO_DATA),
            initiatorResult);
    }

    @Test
    void shouldPassPrivateDataToEachSide()
    {
        final MpaSettings settings = settings(CrcPolicy.PREFERRED, 2, 4, 4, 4, RtrType.ALL);
        MpaNegotiation.encodeRequest(requestBuffer, 0, settings, hex("01 02 03"));
        final NegotiatedParameters responderResult =
            MpaNegotiation.negotiateAsResponder(request.wrap(requestBuffer, 0), settings);
        MpaNegotiation.encodeReply(replyBuffer, 0, responderResult, hex("0a 0b"));

        final NegotiatedParameters initiatorResult =
            MpaNegotiation.negotiateAsInitiator(reply.wrap(replyBuffer, 0), settings);

        assertArrayEquals(hex("01 02 03"), responderResult.peerPrivateData(), "responder sees request data");
        assertArrayEquals(hex("0a 0b"), initiatorResult.peerPrivateData(), "initiator sees reply data");
    }

    @Test
    void shouldAnswerRevisionOneRequestWithUnenhancedRevisionOneReply()
    {
        final MpaSettings initiator = settings(CrcPolicy.PREFERRED, 1, 4, 4, 4, RtrType.ALL);
        final MpaSettings responder = settings(CrcPolicy.PREFERRED, 2, 3, 5, 8, RtrType.ALL);

        final NegotiatedParameters result = respond(initiator, responder);

        assertEquals(new NegotiatedParameters(false, 1, false, true, false, null, 3, 5, NONE, NONE, NO_DATA), result);
        assertArrayEquals(hex(REPLY_KEY + "40 01 00 00"), bytes(replyBuffer, 0, 20));
    }

    @Test
    void shouldSettleRevisionOneAsInitiatorWithOwnIrdAndOrd()
    {
        final MpaSettings initiator = settings(CrcPolicy.OFF, 1, 6, 7, 9, RtrType.ALL);
        respond(initiator, settings(CrcPolicy.OFF, 1, 4, 4, 4, RtrType.ALL));

        final NegotiatedParameters result = MpaNegotiation.negotiateAsInitiator(reply, initiator);

        assertEquals(new NegotiatedParameters(true, 1, false, false, false, null, 6, 7, NONE, NONE, NO_DATA), result);
    }

    @Test
    void shouldFallBackToRevisionOneWhenResponderOnlySpeaksRevisionOne()
    {
        final MpaSettings initiator = settings(CrcPolicy.PREFERRED, 2, 6, 7, 9, RtrType.ALL);

        final NegotiatedParameters responderResult =
            respond(initiator, settings(CrcPolicy.PREFERRED, 1, 4, 4, 4, RtrType.ALL));
        final NegotiatedParameters initiatorResult = MpaNegotiation.negotiateAsInitiator(reply, initiator);

        assertFalse(responderResult.enhanced(), "responder enhanced");
        assertArrayEquals(hex(REPLY_KEY + "40 01 00 00"), bytes(replyBuffer, 0, 20));
        assertEquals(new NegotiatedParameters(true, 1, false, true, false, null, 6, 7, NONE, NONE, NO_DATA),
            initiatorResult);
    }

    @Test
    void shouldAnswerRevisionTwoRequestWithoutEnhancedFlagUnenhanced()
    {
        requestBuffer.putBytes(0, hex(REQUEST_KEY + "40 02 00 00"));

        final NegotiatedParameters result = MpaNegotiation.negotiateAsResponder(
            request.wrap(requestBuffer, 0), settings(CrcPolicy.PREFERRED, 2, 4, 4, 4, RtrType.ALL));

        assertEquals(new NegotiatedParameters(false, 1, false, true, false, null, 4, 4, NONE, NONE, NO_DATA), result);
    }

    @Test
    void shouldCapResponderIrdAtMaxIrd()
    {
        final MpaSettings initiator = settings(CrcPolicy.PREFERRED, 2, 4, 100, 4, WRITE);

        final NegotiatedParameters result = respond(initiator, settings(CrcPolicy.PREFERRED, 2, 2, 4, 10, WRITE));

        assertEquals(10, result.ird());
        assertArrayEquals(hex("80 0a"), bytes(replyBuffer, 20, 2));
    }

    @Test
    void shouldLowerInitiatorOrdToCappedResponderIrd()
    {
        final MpaSettings initiator = settings(CrcPolicy.PREFERRED, 2, 4, 100, 4, WRITE);
        respond(initiator, settings(CrcPolicy.PREFERRED, 2, 2, 4, 10, WRITE));

        assertEquals(10, MpaNegotiation.negotiateAsInitiator(reply, initiator).ord());
    }

    @Test
    void shouldNotShrinkResponderIrdBelowItsOwnSetting()
    {
        final MpaSettings initiator = settings(CrcPolicy.PREFERRED, 2, 4, 1, 4, WRITE);

        assertEquals(8, respond(initiator, settings(CrcPolicy.PREFERRED, 2, 8, 4, 8, WRITE)).ird());
    }

    @Test
    void shouldLimitResponderOrdToInitiatorIrd()
    {
        final MpaSettings initiator = settings(CrcPolicy.PREFERRED, 2, 3, 1, 3, WRITE);

        final NegotiatedParameters result = respond(initiator, settings(CrcPolicy.PREFERRED, 2, 1, 16, 1, WRITE));

        assertEquals(3, result.ord());
        assertArrayEquals(hex("80 03"), bytes(replyBuffer, 22, 2));
    }

    @Test
    void shouldKeepResponderIrdAndAnswerNoNegotiationWhenRequestOrdIsAllOnes()
    {
        requestBuffer.putBytes(0, hex(REQUEST_KEY + "50 02 00 04 80 04 bf ff"));
        final NegotiatedParameters result = MpaNegotiation.negotiateAsResponder(
            request.wrap(requestBuffer, 0), settings(CrcPolicy.PREFERRED, 2, 2, 8, 64, WRITE));

        MpaNegotiation.encodeReply(replyBuffer, 0, result, NO_DATA);

        assertEquals(new NegotiatedParameters(false, 2, true, true, true, RtrType.WRITE, 2, 4, 4, NONE, NO_DATA),
            result);
        assertArrayEquals(hex("bf ff 80 04"), bytes(replyBuffer, 20, 4));
    }

    @Test
    void shouldKeepResponderOrdAndAnswerNoNegotiationWhenRequestIrdIsAllOnes()
    {
        requestBuffer.putBytes(0, hex(REQUEST_KEY + "50 02 00 04 bf ff 80 02"));
        final NegotiatedParameters result = MpaNegotiation.negotiateAsResponder(
            request.wrap(requestBuffer, 0), settings(CrcPolicy.PREFERRED, 2, 1, 8, 4, WRITE));

        MpaNegotiation.encodeReply(replyBuffer, 0, result, NO_DATA);

        assertEquals(new NegotiatedParameters(false, 2, true, true, true, RtrType.WRITE, 2, 8, NONE, 2, NO_DATA),
            result);
        assertArrayEquals(hex("80 02 bf ff"), bytes(replyBuffer, 20, 4));
    }

    @Test
    void shouldKeepInitiatorOrdWhenReplyIrdIsAllOnes()
    {
        replyBuffer.putBytes(0, hex(REPLY_KEY + "50 02 00 04 bf ff 80 02"));

        final NegotiatedParameters result = MpaNegotiation.negotiateAsInitiator(
            reply.wrap(replyBuffer, 0), settings(CrcPolicy.PREFERRED, 2, 2, 9, 2, WRITE));

        assertEquals(new NegotiatedParameters(true, 2, true, true, true, RtrType.WRITE, 2, 9, NONE, 2, NO_DATA),
            result);
    }

    @Test
    void shouldKeepInitiatorIrdWhenReplyOrdIsAllOnesWhateverItsMaxIrd()
    {
        replyBuffer.putBytes(0, hex(REPLY_KEY + "50 02 00 04 80 05 bf ff"));

        final NegotiatedParameters result = MpaNegotiation.negotiateAsInitiator(
            reply.wrap(replyBuffer, 0), settings(CrcPolicy.PREFERRED, 2, 1, 9, 1, WRITE));

        assertEquals(new NegotiatedParameters(true, 2, true, true, true, RtrType.WRITE, 1, 5, 5, NONE, NO_DATA),
            result);
    }

    @ParameterizedTest(name = "maxIrd {0}")
    @ValueSource(ints = { 12, 16 })
    void shouldGrowInitiatorIrdToResponderOrdUpToMaxIrd(final int maxIrd)
    {
        replyBuffer.putBytes(0, hex(REPLY_KEY + "50 02 00 04 80 10 80 0c"));

        final NegotiatedParameters result = MpaNegotiation.negotiateAsInitiator(
            reply.wrap(replyBuffer, 0), settings(CrcPolicy.PREFERRED, 2, 4, 4, maxIrd, WRITE));

        assertEquals(12, result.ird());
    }

    @Test
    void shouldFailInitiatorWithInsufficientIrdWhenResponderOrdExceedsMaxIrd()
    {
        replyBuffer.putBytes(0, hex(REPLY_KEY + "50 02 00 04 80 10 80 11"));
        final MpaSettings settings = settings(CrcPolicy.PREFERRED, 2, 4, 4, 16, WRITE);

        final MpaException ex = assertThrows(MpaException.class,
            () -> MpaNegotiation.negotiateAsInitiator(reply.wrap(replyBuffer, 0), settings));

        assertEquals(MpaException.INSUFFICIENT_IRD, ex.mpaErrorCode());
        assertEquals(0x06, ex.mpaErrorCode());
        assertEquals("the responder wants 17 outstanding RDMA Reads (its ORD) but this peer allows at most 16",
            ex.getMessage());
    }

    @Test
    void shouldLimitInitiatorOrdToResponderIrd()
    {
        replyBuffer.putBytes(0, hex(REPLY_KEY + "50 02 00 04 80 03 80 00"));

        final NegotiatedParameters result = MpaNegotiation.negotiateAsInitiator(
            reply.wrap(replyBuffer, 0), settings(CrcPolicy.PREFERRED, 2, 4, 8, 4, WRITE));

        assertEquals(3, result.ord());
    }

    @Test
    void shouldChooseMostPreferredRtrTypeBothSidesSupportAsResponder()
    {
        final MpaSettings initiator = settings(CrcPolicy.PREFERRED, 2, 4, 4, 4, SEND | READ);

        final NegotiatedParameters result = respond(initiator, settings(CrcPolicy.PREFERRED, 2, 4, 4, 4, WRITE | SEND));

        assertEquals(RtrType.SEND, result.rtrType());
    }

    @Test
    void shouldNameOnlyTheChosenRtrTypeInReply()
    {
        final MpaSettings initiator = settings(CrcPolicy.PREFERRED, 2, 4, 4, 4, READ);

        final NegotiatedParameters result = respond(initiator, settings(CrcPolicy.PREFERRED, 2, 4, 4, 4, WRITE | READ));

        assertEquals(RtrType.READ, result.rtrType());
        // A=1, B=0, IRD 4 | C=0, D=1, ORD 4: not Write, which the initiator did not offer.
        assertArrayEquals(hex("80 04 40 04"), bytes(replyBuffer, 20, 4));
    }

    @Test
    void shouldNotAdvertiseSendToAnInitiatorOfferingWriteAndReadAsLinuxSiwDoes()
    {
        // siw with peer_to_peer set: rev 2, CRC off, A=1, IRD 1 | C=1, D=1 (rtr_type = Read | Write), ORD 1.
        requestBuffer.putBytes(0, hex(REQUEST_KEY + "10 02 00 04 80 01 c0 01"));
        final NegotiatedParameters result = MpaNegotiation.negotiateAsResponder(
            request.wrap(requestBuffer, 0), settings(CrcPolicy.PREFERRED, 2, 1, 1, 1, RtrType.ALL));

        MpaNegotiation.encodeReply(replyBuffer, 0, result, NO_DATA);

        assertEquals(RtrType.WRITE, result.rtrType());
        // A=1, B=0 (no Send), IRD 1 | C=1, D=0, ORD 1.
        assertArrayEquals(hex(REPLY_KEY + "10 02 00 04 80 01 80 01"), bytes(replyBuffer, 0, 24));
        reply.wrap(replyBuffer, 0);
        assertEquals(RtrType.WRITE.bit(), MpaNegotiation.offeredRtrTypes(reply.enhancedIrdWord(),
            reply.enhancedOrdWord()), "exactly one type, and one the initiator offered");
    }

    @Test
    void shouldNameSupportedRtrTypeWhenNothingOfferedIsCommon()
    {
        final MpaSettings initiator = settings(CrcPolicy.PREFERRED, 2, 4, 4, 4, WRITE);

        final NegotiatedParameters result = respond(initiator, settings(CrcPolicy.PREFERRED, 2, 4, 4, 4, SEND));

        assertEquals(RtrType.SEND, result.rtrType());
        assertArrayEquals(hex("c0 04 00 04"), bytes(replyBuffer, 20, 4));
    }

    @Test
    void shouldFailInitiatorWithNoMatchingRtrWhenResponderAcceptsNoneItSends()
    {
        final MpaSettings initiator = settings(CrcPolicy.PREFERRED, 2, 4, 4, 4, WRITE);
        respond(initiator, settings(CrcPolicy.PREFERRED, 2, 4, 4, 4, SEND));

        final MpaException ex = assertThrows(MpaException.class,
            () -> MpaNegotiation.negotiateAsInitiator(reply, initiator));

        assertEquals(MpaException.NO_MATCHING_RTR, ex.mpaErrorCode());
        assertEquals(0x07, ex.mpaErrorCode());
        assertEquals("no ready-to-receive type in common: the responder accepts send, this peer sends write",
            ex.getMessage());
    }

    @Test
    void shouldChooseMostPreferredAdvertisedRtrTypeAsInitiator()
    {
        replyBuffer.putBytes(0, hex(REPLY_KEY + "50 02 00 04 c0 04 c0 04"));

        final NegotiatedParameters result = MpaNegotiation.negotiateAsInitiator(
            reply.wrap(replyBuffer, 0), settings(CrcPolicy.PREFERRED, 2, 4, 4, 4, READ | SEND));

        assertEquals(RtrType.READ, result.rtrType());
    }

    @Test
    void shouldNotChooseReadRtrWhenResponderIrdLeavesNoOrd()
    {
        // Responder IRD 0, advertising Send (B) and Read (D).
        replyBuffer.putBytes(0, hex(REPLY_KEY + "50 02 00 04 c0 00 40 00"));

        final NegotiatedParameters result = MpaNegotiation.negotiateAsInitiator(
            reply.wrap(replyBuffer, 0), settings(CrcPolicy.PREFERRED, 2, 4, 4, 4, READ | SEND));

        assertEquals(0, result.ord());
        assertEquals(RtrType.SEND, result.rtrType());
    }

    @Test
    void shouldFailWithNoMatchingRtrWhenOnlyReadIsCommonAndOrdIsZero()
    {
        replyBuffer.putBytes(0, hex(REPLY_KEY + "50 02 00 04 80 00 40 00"));
        final MpaSettings settings = settings(CrcPolicy.PREFERRED, 2, 4, 0, 4, READ);

        final MpaException ex = assertThrows(MpaException.class,
            () -> MpaNegotiation.negotiateAsInitiator(reply.wrap(replyBuffer, 0), settings));

        assertEquals(MpaException.NO_MATCHING_RTR, ex.mpaErrorCode());
        assertEquals("no ready-to-receive type in common: the responder accepts read, this peer sends read " +
            "(and no RDMA Read is allowed)", ex.getMessage());
    }

    @Test
    void shouldRaiseResponderIrdToOneForReadRtr()
    {
        final MpaSettings initiator = settings(CrcPolicy.PREFERRED, 2, 0, 0, 0, READ);

        final NegotiatedParameters result = respond(initiator, settings(CrcPolicy.PREFERRED, 2, 0, 0, 0, READ));

        assertEquals(RtrType.READ, result.rtrType());
        assertEquals(1, result.ird());
        assertArrayEquals(hex("80 01 40 00"), bytes(replyBuffer, 20, 4));
    }

    @Test
    void shouldSettleClientServerModelAsResponderWithoutRtr()
    {
        requestBuffer.putBytes(0, hex(REQUEST_KEY + "50 02 00 04 00 04 00 04"));
        final NegotiatedParameters result = MpaNegotiation.negotiateAsResponder(
            request.wrap(requestBuffer, 0), settings(CrcPolicy.PREFERRED, 2, 4, 4, 4, RtrType.ALL));

        MpaNegotiation.encodeReply(replyBuffer, 0, result, NO_DATA);

        assertEquals(new NegotiatedParameters(false, 2, true, true, false, null, 4, 4, 4, 4, NO_DATA), result);
        assertArrayEquals(hex("50 02 00 04 00 04 00 04"), bytes(replyBuffer, 16, 8));
    }

    @Test
    void shouldSettleClientServerModelAsInitiatorWithoutRtr()
    {
        replyBuffer.putBytes(0, hex(REPLY_KEY + "50 02 00 04 00 04 00 04"));

        final NegotiatedParameters result = MpaNegotiation.negotiateAsInitiator(
            reply.wrap(replyBuffer, 0), settings(CrcPolicy.PREFERRED, 2, 4, 4, 4, RtrType.ALL));

        assertEquals(new NegotiatedParameters(true, 2, true, true, false, null, 4, 4, 4, 4, NO_DATA), result);
    }

    @Test
    void shouldFailInitiatorWhenResponderDemandsMarkers()
    {
        replyBuffer.putBytes(0, hex(REPLY_KEY + "c0 01 00 00"));
        final MpaSettings settings = settings(CrcPolicy.PREFERRED, 1, 4, 4, 4, RtrType.ALL);

        final MpaException ex = assertThrows(MpaException.class,
            () -> MpaNegotiation.negotiateAsInitiator(reply.wrap(replyBuffer, 0), settings));

        assertEquals(MpaException.LOCAL_CATASTROPHIC, ex.mpaErrorCode());
        assertEquals("the responder demands MPA markers, which this peer does not send", ex.getMessage());
    }

    @ParameterizedTest(name = "revision {0}")
    @ValueSource(ints = { 1, 2 })
    void shouldNotRefuseRequestOfSupportedRevisionWithoutMarkers(final int revision)
    {
        requestBuffer.putBytes(0, hex(REQUEST_KEY + "40 0" + revision + " 00 00"));

        assertNull(MpaNegotiation.refusal(request.wrap(requestBuffer, 0)));
    }

    @Test
    void shouldRefuseRequestForMarkers()
    {
        requestBuffer.putBytes(0, hex(REQUEST_KEY + "c0 01 00 00"));

        assertEquals("MPA markers are not supported: this peer never sends them, and asks for none",
            MpaNegotiation.refusal(request.wrap(requestBuffer, 0)));
    }

    @ParameterizedTest(name = "revision {0}")
    @ValueSource(ints = { 0, 3, 4, 255 })
    void shouldRefuseRequestOfUnsupportedRevision(final int revision)
    {
        requestBuffer.putBytes(0, hex(REQUEST_KEY + "40 00 00 00"));
        requestBuffer.putByte(17, (byte)revision);

        assertEquals("MPA revision " + revision + " is not supported: this peer speaks revisions 1 and 2",
            MpaNegotiation.refusal(request.wrap(requestBuffer, 0)));
    }

    @Test
    void shouldRejectEnhancedRequestWithPrivateDataTruncatedToFiveHundredEight()
    {
        requestBuffer.putBytes(0, hex(REQUEST_KEY + "50 02 00 04 80 04 80 04"));
        final byte[] reason = pattern(600);

        final int length = MpaNegotiation.encodeReject(replyBuffer, 0, request.wrap(requestBuffer, 0), reason);

        assertEquals(532, length);
        assertArrayEquals(hex(REPLY_KEY + "30 02 02 00 00 00 00 00"), bytes(replyBuffer, 0, 24));
        assertArrayEquals(pattern(508), bytes(replyBuffer, 24, 508));
    }

    @Test
    void shouldRejectRevisionOneRequestWithPrivateDataTruncatedToFiveHundredTwelve()
    {
        requestBuffer.putBytes(0, hex(REQUEST_KEY + "40 01 00 00"));

        final int length = MpaNegotiation.encodeReject(replyBuffer, 0, request.wrap(requestBuffer, 0), pattern(600));

        assertEquals(532, length);
        assertArrayEquals(hex(REPLY_KEY + "20 01 02 00"), bytes(replyBuffer, 0, 20));
        assertArrayEquals(pattern(512), bytes(replyBuffer, 20, 512));
    }

    @Test
    void shouldRejectWithShortPrivateDataUnchanged()
    {
        requestBuffer.putBytes(0, hex(REQUEST_KEY + "40 01 00 00"));

        final int length = MpaNegotiation.encodeReject(replyBuffer, 0, request.wrap(requestBuffer, 0), hex("6e 6f"));

        assertEquals(22, length);
        assertArrayEquals(hex(REPLY_KEY + "20 01 00 02 6e 6f"), bytes(replyBuffer, 0, 22));
    }

    @Test
    void shouldRejectRevisionZeroRequestInRevisionOne()
    {
        // RFC 5044 appendix C: answer an RDMAC peer with our own revision.
        requestBuffer.putBytes(0, hex(REQUEST_KEY + "c0 00 00 00"));

        MpaNegotiation.encodeReject(replyBuffer, 0, request.wrap(requestBuffer, 0), NO_DATA);

        assertArrayEquals(hex("20 01 00 00"), bytes(replyBuffer, 16, 4));
    }

    @Test
    void shouldRejectLaterRevisionRequestInRevisionTwo()
    {
        requestBuffer.putBytes(0, hex(REQUEST_KEY + "50 03 00 04 80 04 80 04"));

        final int length = MpaNegotiation.encodeReject(replyBuffer, 0, request.wrap(requestBuffer, 0), NO_DATA);

        assertEquals(24, length);
        assertArrayEquals(hex("30 02 00 04 00 00 00 00"), bytes(replyBuffer, 16, 8));
    }

    @Test
    void shouldRejectRevisionTwoRequestWithoutEnhancedFlagUnenhanced()
    {
        requestBuffer.putBytes(0, hex(REQUEST_KEY + "40 02 00 00"));

        final int length = MpaNegotiation.encodeReject(replyBuffer, 0, request.wrap(requestBuffer, 0), NO_DATA);

        assertEquals(20, length);
        assertArrayEquals(hex("20 02 00 00"), bytes(replyBuffer, 16, 4));
    }

    @Test
    void shouldProduceRejectThatValidatesAsReplyWithRejectFlag()
    {
        requestBuffer.putBytes(0, hex(REQUEST_KEY + "50 02 00 04 80 04 80 04"));
        MpaNegotiation.encodeReject(replyBuffer, 0, request.wrap(requestBuffer, 0), pattern(600));

        reply.wrap(replyBuffer, 0);

        assertNull(reply.validate(MpaFrameFlyweight.Kind.REPLY));
        assertTrue(reply.hasFlag(MpaFrameFlyweight.FLAG_REJECT));
        assertArrayEquals(pattern(508), reply.applicationData());
    }

    @Test
    void shouldLeaveFiveHundredEightBytesForApplicationWithEnhancedData()
    {
        assertEquals(508, MpaNegotiation.maxApplicationData(true));
        assertEquals(512, MpaNegotiation.maxApplicationData(false));
    }

    /**
     * Encode the initiator's Request, settle as responder, encode the Reply advertising the responder's types, and
     * leave the request and reply flyweights wrapped.
     */
    private NegotiatedParameters respond(final MpaSettings initiator, final MpaSettings responder)
    {
        MpaNegotiation.encodeRequest(requestBuffer, 0, initiator, NO_DATA);
        final NegotiatedParameters result =
            MpaNegotiation.negotiateAsResponder(request.wrap(requestBuffer, 0), responder);
        MpaNegotiation.encodeReply(replyBuffer, 0, result, NO_DATA);
        reply.wrap(replyBuffer, 0);
        return result;
    }

    private static MpaSettings settings(
        final CrcPolicy policy, final int revision, final int ird, final int ord, final int maxIrd, final int rtr)
    {
        return new MpaSettings(policy, revision, ird, ord, maxIrd, rtr);
    }

    private static byte[] pattern(final int length)
    {
        final byte[] data = new byte[length];
        for (int i = 0; i < length; i++)
        {
            data[i] = (byte)(i * 7 + 1);
        }
        return data;
    }
}
