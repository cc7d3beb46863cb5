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
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Only evidence that the guest, not this engine, stalled lets a siw case run again: a capture that proves siw left
 * our Read Request unanswered, or a guest socket that never delivered the end of its connection. Anything else fails
 * the case.
 */
class SiwStallEvidenceTest
{
    private static final String READING_TIMEOUT =
        "rping server failed: timed out after 30 s waiting in state READING, 46 pings done";

    @Test
    void shouldRecogniseAReadRequestSiwNeverAnswered()
    {
        final String stall = SiwRpingInteropTest.unansweredRead(READING_TIMEOUT, wire(47, 46, List.of(), 0));

        assertTrue(null != stall && stall.startsWith("siw never answered our Read Request after 46 pings"), stall);
    }

    @Test
    void shouldNotExcuseAReadResponseOnTheWire()
    {
        // siw answered; the engine did not complete the Read: that is ours.
        assertNull(SiwRpingInteropTest.unansweredRead(READING_TIMEOUT, wire(47, 47, List.of(), 0)));
    }

    @Test
    void shouldNotExcuseAReadRequestThatNeverLeft()
    {
        assertNull(SiwRpingInteropTest.unansweredRead(READING_TIMEOUT, wire(46, 46, List.of(), 0)));
    }

    @Test
    void shouldNotExcuseAnUncleanCapture()
    {
        assertNull(SiwRpingInteropTest.unansweredRead(READING_TIMEOUT, wire(47, 46, List.of("malformed frame"), 0)));
        assertNull(SiwRpingInteropTest.unansweredRead(READING_TIMEOUT, wire(47, 46, List.of(), 1)));
    }

    @Test
    void shouldNotExcuseAStallInAnotherState()
    {
        assertNull(SiwRpingInteropTest.unansweredRead(
            "rping server failed: timed out after 30 s waiting in state AWAIT_SINK, 46 pings done",
            wire(47, 46, List.of(), 0)));
        assertNull(SiwRpingInteropTest.unansweredRead("rping server failed: the connection ended in state READING",
            wire(47, 46, List.of(), 0)));
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

    private static WireCapture.Decoded wire(
        final int readRequests, final int readResponses, final List<String> problems, final int badCrc)
    {
        return new WireCapture.Decoded(Path.of("siw-default-client-65535.pcap"), false, 2, 5000, 0, badCrc,
            Map.of("read-request", readRequests, "read-response", readResponses), problems);
    }
}
