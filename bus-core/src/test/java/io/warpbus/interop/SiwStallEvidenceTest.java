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
package io.warpbus.interop;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Only evidence that the guest, not this engine, stalled lets a siw case run again: a capture that proves siw left
 * our Read Request or our advert unanswered, or a guest socket that never delivered the end of its connection.
 * Anything else fails the case.
 */
class SiwStallEvidenceTest
{
    private static final int OUR_SERVER = 40001;
    private static final int SIW_SERVER = 40002;
    private static final int EPHEMERAL = 50003;
    private static final String READING_TIMEOUT =
        "rping server failed: timed out after 30 s waiting in state READING, 46 pings done";
    private static final String SINK_TIMEOUT =
        "rping client failed: timed out after 30 s waiting in state AWAIT_WRITE_GO, 56 pings done";
    private static final String FIRST_ADVERT_TIMEOUT =
        "rping client failed: timed out after 30 s waiting in state AWAIT_READ_GO, 0 pings done";
    private static final String NEVER_GOT_ADVERT = "server DISCONNECT EVENT...\nwait for RDMA_READ_ADV state 10\n";
    private static final String MISSED = "siw0: CEP[0x00000000bd264758] siw_cm_llp_data_ready: cep state: 7, socket " +
        "state 1";
    private static final String SOURCE_TIMEOUT =
        "rping client failed: timed out after 30 s waiting in state AWAIT_READ_GO, 56 pings done";

    @Test
    void shouldRecogniseAReadRequestSiwNeverAnswered()
    {
        final String stall =
            SiwRpingInteropTest.unansweredRead(READING_TIMEOUT, server(47, 46, List.of(), 0), OUR_SERVER);

        assertTrue(null != stall && stall.startsWith("siw never answered our Read Request after 46 pings"), stall);
    }

    @Test
    void shouldNotExcuseAReadResponseOnTheWire()
    {
        // siw answered; the engine did not complete the Read: that is ours.
        assertNull(SiwRpingInteropTest.unansweredRead(READING_TIMEOUT, server(47, 47, List.of(), 0), OUR_SERVER));
    }

    @Test
    void shouldNotExcuseAReadRequestThatNeverLeft()
    {
        assertNull(SiwRpingInteropTest.unansweredRead(READING_TIMEOUT, server(46, 46, List.of(), 0), OUR_SERVER));
    }

    @Test
    void shouldNotExcuseAnUncleanCapture()
    {
        assertNull(SiwRpingInteropTest.unansweredRead(
            READING_TIMEOUT, server(47, 46, List.of("malformed frame"), 0), OUR_SERVER));
        assertNull(SiwRpingInteropTest.unansweredRead(READING_TIMEOUT, server(47, 46, List.of(), 1), OUR_SERVER));
    }

    @Test
    void shouldNotExcuseAStallInAnotherState()
    {
        assertNull(SiwRpingInteropTest.unansweredRead(
            "rping server failed: timed out after 30 s waiting in state AWAIT_SINK, 46 pings done",
            server(47, 46, List.of(), 0), OUR_SERVER));
        assertNull(SiwRpingInteropTest.unansweredRead("rping server failed: the connection ended in state READING",
            server(47, 46, List.of(), 0), OUR_SERVER));
    }

    @Test
    void shouldNotExcuseAReadRequestWhenSiwSentAnythingAfterIt()
    {
        // A segment of the Response reached us (without its Last flag): siw was not silent.
        final WireCapture.Decoded wire = decoded(Map.of("read-request", 47, "read-response", 46), List.of(), 0,
            EPHEMERAL, OUR_SERVER);

        assertNull(SiwRpingInteropTest.unansweredRead(READING_TIMEOUT, wire, OUR_SERVER));
    }

    @Test
    void shouldRecogniseAnAdvertSiwNeverAnswered()
    {
        // As in CI: 56 pings of 64 KiB, then our 57th sink advert, and nothing from siw for 30 s.
        final String sink = SiwRpingInteropTest.unansweredAdvert(SINK_TIMEOUT, client(57, 57, 57, 227), SIW_SERVER);
        final String source = SiwRpingInteropTest.unansweredAdvert(SOURCE_TIMEOUT, client(56, 56, 57, 225), SIW_SERVER);

        assertTrue(null != sink && sink.startsWith("siw never answered our sink advert after 56 pings"), sink);
        assertTrue(null != source && source.startsWith("siw never answered our source advert after 56 pings"), source);
    }

    @Test
    void shouldNotExcuseAnAdvertThatSiwAnsweredOrThatNeverLeft()
    {
        // siw's Write and its go-ahead arrived: the engine did not hand them on.
        assertNull(SiwRpingInteropTest.unansweredAdvert(SINK_TIMEOUT, client(57, 57, 58, 228), SIW_SERVER));
        // Our sink advert is not on the wire.
        assertNull(SiwRpingInteropTest.unansweredAdvert(SINK_TIMEOUT, client(57, 57, 57, 226), SIW_SERVER));
        // siw's Read Request went unanswered by us.
        assertNull(SiwRpingInteropTest.unansweredAdvert(SINK_TIMEOUT, client(57, 56, 57, 227), SIW_SERVER));
    }

    @Test
    void shouldNotExcuseAnAdvertWhenSiwSentAnythingAfterItOrTheCaptureIsUnclean()
    {
        final Map<String, Integer> messages = Map.of("read-request", 57, "read-response", 57, "write", 57, "send", 227);

        assertNull(SiwRpingInteropTest.unansweredAdvert(SINK_TIMEOUT,
            decoded(messages, List.of(), 0, SIW_SERVER, EPHEMERAL), SIW_SERVER));
        assertNull(SiwRpingInteropTest.unansweredAdvert(SINK_TIMEOUT,
            decoded(messages, List.of("malformed frame"), 0, EPHEMERAL, SIW_SERVER), SIW_SERVER));
        assertNull(SiwRpingInteropTest.unansweredAdvert(SINK_TIMEOUT,
            decoded(messages, List.of(), 1, EPHEMERAL, SIW_SERVER), SIW_SERVER));
        final Map<String, Integer> terminated = new HashMap<>(messages);
        terminated.put("terminate", 1);
        assertNull(SiwRpingInteropTest.unansweredAdvert(SINK_TIMEOUT,
            decoded(terminated, List.of(), 0, EPHEMERAL, SIW_SERVER), SIW_SERVER));
    }

    @Test
    void shouldNotExcuseASilenceBeforeTheFirstPingOrOnAnotherFailure()
    {
        // Before the first ping, only siw's own log can say its accept missed our FPDU.
        assertNull(SiwRpingInteropTest.unansweredAdvert(
            "rping client failed: timed out after 30 s waiting in state AWAIT_READ_GO, 0 pings done",
            client(0, 0, 1, 1), SIW_SERVER));
        assertNull(SiwRpingInteropTest.unansweredAdvert(
            "rping client failed: the connection ended in state AWAIT_WRITE_GO after 56 pings",
            client(57, 57, 57, 227), SIW_SERVER));
    }

    @Test
    void shouldRecogniseAFirstAdvertSiwsAcceptMissed()
    {
        // As in CI: siw's rping server, woken by our close, saw the disconnect before our advert.
        final String stall = SiwRpingInteropTest.lostFirstAdvert(FIRST_ADVERT_TIMEOUT, NEVER_GOT_ADVERT, MISSED,
            client(0, 0, 1, 1), SIW_SERVER);
        assertTrue(null != stall && stall.startsWith("siw's accept missed our first FPDU and its rping server never"),
            stall);

        // The form seen before: it got our advert as we left and failed on its Read.
        assertNotNull(SiwRpingInteropTest.lostFirstAdvert(FIRST_ADVERT_TIMEOUT,
            "wait for RDMA_READ_COMPLETE state 10", null, client(0, 0, 1, 1), SIW_SERVER));
    }

    @Test
    void shouldNotExcuseAnUnreadFirstAdvertWithoutSiwsLogOfTheMissOrOnAnyOtherCapture()
    {
        assertNull(SiwRpingInteropTest.lostFirstAdvert(FIRST_ADVERT_TIMEOUT, NEVER_GOT_ADVERT, null,
            client(0, 0, 1, 1), SIW_SERVER));
        // Our advert never left, siw answered or sent anything after it, or siw terminated: not siw's race.
        assertNull(SiwRpingInteropTest.lostFirstAdvert(FIRST_ADVERT_TIMEOUT, NEVER_GOT_ADVERT, MISSED,
            client(0, 0, 1, 0), SIW_SERVER));
        assertNull(SiwRpingInteropTest.lostFirstAdvert(FIRST_ADVERT_TIMEOUT, NEVER_GOT_ADVERT, MISSED,
            client(1, 0, 1, 1), SIW_SERVER));
        assertNull(SiwRpingInteropTest.lostFirstAdvert(FIRST_ADVERT_TIMEOUT, NEVER_GOT_ADVERT, MISSED,
            decoded(Map.of("write", 1, "send", 1), List.of(), 0, SIW_SERVER, EPHEMERAL), SIW_SERVER));
        assertNull(SiwRpingInteropTest.lostFirstAdvert(FIRST_ADVERT_TIMEOUT, NEVER_GOT_ADVERT, MISSED,
            decoded(Map.of("write", 1, "send", 1, "terminate", 1), List.of(), 0, EPHEMERAL, SIW_SERVER), SIW_SERVER));
        assertNull(SiwRpingInteropTest.lostFirstAdvert(FIRST_ADVERT_TIMEOUT, NEVER_GOT_ADVERT, MISSED,
            decoded(Map.of("write", 1, "send", 1), List.of("malformed frame"), 0, EPHEMERAL, SIW_SERVER), SIW_SERVER));
        // After a ping, or on another failure, the first advert was not what siw missed.
        assertNull(SiwRpingInteropTest.lostFirstAdvert(
            "rping client failed: timed out after 30 s waiting in state AWAIT_READ_GO, 1 pings done",
            NEVER_GOT_ADVERT, MISSED, client(1, 1, 2, 5), SIW_SERVER));
        assertNull(SiwRpingInteropTest.lostFirstAdvert(FIRST_ADVERT_TIMEOUT, "rping exited: connection refused",
            MISSED, client(0, 0, 1, 1), SIW_SERVER));
    }

    @Test
    void shouldRecogniseTheEndOfAConnectionStuckInTheGuest()
    {
        // ss -tanoi as the guest answered in CI, when our client timed out waiting for a killed siw peer's FIN.
        final String sockets = """
            State   Recv-Q Send-Q Local Address:Port Peer Address:Port Process
            CLOSING 1      11169      10.0.2.15:7105     10.0.2.2:45600 timer:(on,20sec,7)
            \t cubic rto:26112 backoff:7 rtt:1.31/0.242 unacked:9 lost:9 snd_wnd:65535
            """;

        assertTrue(SiwRdmaCmInteropTest.finQueuedInGuest(sockets));
    }

    @Test
    void shouldNotExcuseASocketThatHasNotSentItsFinOrHasNothingQueued()
    {
        assertFalse(SiwRdmaCmInteropTest.finQueuedInGuest(
            "State Recv-Q Send-Q Local Address:Port Peer Address:Port\nESTAB 0 11169 10.0.2.15:7105 10.0.2.2:45600"));
        assertFalse(SiwRdmaCmInteropTest.finQueuedInGuest(
            "State Recv-Q Send-Q Local Address:Port Peer Address:Port\nCLOSING 1 0 10.0.2.15:7105 10.0.2.2:45600"));
        assertFalse(SiwRdmaCmInteropTest.finQueuedInGuest("State Recv-Q Send-Q Local Address:Port Peer Address:Port"));
        assertFalse(SiwRdmaCmInteropTest.finQueuedInGuest("(no answer from the guest: timed out)"));
    }

    /** A run of siw's client against our server, whose last FPDU was ours. */
    private static WireCapture.Decoded server(
        final int readRequests, final int readResponses, final List<String> problems, final int badCrc)
    {
        return decoded(Map.of("read-request", readRequests, "read-response", readResponses), problems, badCrc,
            OUR_SERVER, EPHEMERAL);
    }

    /** A clean run of our client against siw's server, whose last FPDU was ours. */
    private static WireCapture.Decoded client(
        final int readRequests, final int readResponses, final int writes, final int sends)
    {
        return decoded(Map.of("read-request", readRequests, "read-response", readResponses, "write", writes,
            "send", sends), List.of(), 0, EPHEMERAL, SIW_SERVER);
    }

    private static WireCapture.Decoded decoded(final Map<String, Integer> messages, final List<String> problems,
        final int badCrc, final int lastFrom, final int lastTo)
    {
        return new WireCapture.Decoded(Path.of("siw-default-client-65535.pcap"), false, 2, 5000, 0, badCrc, messages,
            lastFrom, lastTo, problems);
    }
}
