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
package io.warpbus.tools;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.warpbus.iwarp.CompletionOpcode;
import io.warpbus.iwarp.CompletionStatus;
import io.warpbus.iwarp.QueuePair;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static io.warpbus.iwarp.CompletionOpcode.RDMA_READ;
import static io.warpbus.iwarp.CompletionOpcode.RDMA_WRITE;
import static io.warpbus.iwarp.CompletionOpcode.RECV;
import static io.warpbus.iwarp.CompletionOpcode.SEND;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rping exchange fed its completions in the orders a fast peer produces, deterministically: the peer's
 * answer (a RECV) is delivered before this side's own SEND or RDMA completion it answers.
 */
class RpingSessionTest
{
    private static final int SIZE = 64;
    private static final long RDMA_ADDRESS = 0x7000L;
    private static final int RDMA_STAG = 0x2200;
    private static final long START_ADDRESS = 0x9000L;
    private static final int START_STAG = 0x3300;

    private final UnsafeBuffer recv = buffer(RpingSession.INFO_LENGTH);
    private final UnsafeBuffer send = buffer(RpingSession.INFO_LENGTH);
    private final UnsafeBuffer rdma = buffer(SIZE);
    private final UnsafeBuffer start = buffer(SIZE);
    private final List<String> posted = new ArrayList<>();
    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

    @Test
    void shouldCompleteEveryPingWhenEachGoAheadArrivesBeforeTheClientsOwnSendCompletes()
    {
        final RpingSession client = session(true, 3);
        client.postFirstRecv();
        client.onEstablished();
        assertEquals(List.of("recv", "send start " + START_STAG + " " + SIZE), drain());

        for (int ping = 0; ping < 3; ping++)
        {
            // The server's first go ahead arrives before the client polled the completion of its start info.
            deliverInfo(client, 0, 0, 0);
            assertEquals(List.of("recv"), drain(), "nothing is sent while the own SEND is in flight");
            client.onCompletion(RpingSession.WR_SEND, SEND, CompletionStatus.SUCCESS, 0);
            assertEquals(List.of("send sink " + RDMA_STAG + " " + SIZE), drain());

            // The server writes the data back, and its second go ahead again beats the SEND completion.
            rdma.putBytes(0, start, 0, SIZE);
            deliverInfo(client, 0, 0, 0);
            assertEquals(List.of("recv"), drain());
            client.onCompletion(RpingSession.WR_SEND, SEND, CompletionStatus.SUCCESS, 0);
            assertEquals(ping + 1, client.pings());
            assertEquals(ping < 2 ? List.of("send start " + START_STAG + " " + SIZE) : List.of(), drain());
        }
        assertTrue(client.succeeded(), String.valueOf(client.failure()));
        final String[] lines = printed.toString(StandardCharsets.US_ASCII).split("\n");
        assertEquals(3, lines.length);
        assertTrue(lines[2].startsWith("ping data: rdma-ping-2: CDEFG"), lines[2]);
    }

    @Test
    void shouldHoldTheSinkInfoThatArrivesWhileTheServersReadIsInFlight()
    {
        final RpingSession server = session(false, 0);
        server.postFirstRecv();
        drain();

        deliverInfo(server, START_ADDRESS, START_STAG, SIZE);
        assertEquals(List.of("recv", "read " + SIZE + " " + START_STAG + " " + START_ADDRESS), drain());

        deliverInfo(server, RDMA_ADDRESS, RDMA_STAG, SIZE);
        assertEquals(List.of("recv"), drain(), "the sink info waits for the Read");
        Rping.fillPattern(rdma, SIZE, 0, 'A');
        server.onCompletion(RpingSession.WR_READ, RDMA_READ, CompletionStatus.SUCCESS, SIZE);
        assertEquals(List.of("send go", "write " + SIZE + " " + RDMA_STAG + " " + RDMA_ADDRESS), drain(),
            "go ahead, then at once the Write the held sink info asked for");

        server.onCompletion(RpingSession.WR_WRITE, RDMA_WRITE, CompletionStatus.SUCCESS, 0);
        assertEquals(List.of(), drain(), "the second go ahead waits for the first to complete");
        server.onCompletion(RpingSession.WR_SEND, SEND, CompletionStatus.SUCCESS, 0);
        assertEquals(List.of("send go"), drain());

        // The client's next start info beats the completion of the second go ahead.
        deliverInfo(server, START_ADDRESS, START_STAG, SIZE);
        assertEquals(List.of("recv", "read " + SIZE + " " + START_STAG + " " + START_ADDRESS), drain());
        server.onCompletion(RpingSession.WR_SEND, SEND, CompletionStatus.SUCCESS, 0);
        assertEquals(1, server.pings());
        assertFalse(server.finished());
    }

    @Test
    void shouldEndTheServerCleanlyWhenTheClientLeavesBetweenPings()
    {
        final RpingSession server = servedOnePing();

        server.onConnectionEnded("disconnected: closed by the peer");

        assertTrue(server.succeeded());
        assertNull(server.failure());
    }

    @Test
    void shouldEndTheServerCleanlyWhenTheClientLeavesBeforeTheLastGoAheadCompletionIsPolled()
    {
        final RpingSession server = session(false, 0);
        server.postFirstRecv();
        deliverInfo(server, START_ADDRESS, START_STAG, SIZE);
        Rping.fillPattern(rdma, SIZE, 0, 'A');
        server.onCompletion(RpingSession.WR_READ, RDMA_READ, CompletionStatus.SUCCESS, SIZE);
        server.onCompletion(RpingSession.WR_SEND, SEND, CompletionStatus.SUCCESS, 0);
        deliverInfo(server, RDMA_ADDRESS, RDMA_STAG, SIZE);
        server.onCompletion(RpingSession.WR_WRITE, RDMA_WRITE, CompletionStatus.SUCCESS, 0);

        // The client got the second go ahead and disconnected before this side polled that SEND's completion.
        server.onConnectionEnded("disconnected: closed by the peer");

        assertTrue(server.succeeded(), String.valueOf(server.failure()));
        assertEquals(1, server.pings());
    }

    @Test
    void shouldFailTheServerWhenTheClientLeavesBeforeItsFirstPing()
    {
        final RpingSession server = session(false, 0);
        server.postFirstRecv();

        server.onConnectionEnded("CONNECT_ERROR: the peer closed the connection before its first FPDU");

        assertFalse(server.succeeded());
        assertEquals("the client left before its first ping: CONNECT_ERROR: the peer closed the connection " +
            "before its first FPDU", server.failure());
    }

    @Test
    void shouldFailTheServerWhenTheClientLeavesInTheMiddleOfAPing()
    {
        final RpingSession server = session(false, 0);
        server.postFirstRecv();
        deliverInfo(server, START_ADDRESS, START_STAG, SIZE);

        server.onCompletion(RpingSession.WR_READ, RDMA_READ, CompletionStatus.WORK_REQUEST_FLUSHED, 0);

        assertEquals("the connection ended in state READING after 0 pings: the connection ended (work request " +
            "flushed)", server.failure());
    }

    @Test
    void shouldFailOnASecondMessageBeforeTheFirstIsConsumed()
    {
        final RpingSession client = session(true, 1);
        client.postFirstRecv();
        client.onEstablished();
        deliverInfo(client, 0, 0, 0);

        deliverInfo(client, 0, 0, 0);

        assertEquals("the peer sent a message before this side consumed its last one (state AWAIT_READ_GO)",
            client.failure());
    }

    @Test
    void shouldFailOnACompletionNothingWasPostedFor()
    {
        final RpingSession client = session(true, 1);
        client.postFirstRecv();

        client.onCompletion(RpingSession.WR_WRITE, RDMA_WRITE, CompletionStatus.SUCCESS, 0);

        assertEquals("unexpected RDMA_WRITE completion in state AWAIT_READ_GO", client.failure());
    }

    @Test
    void shouldFailOnAReceiveOfTheWrongSize()
    {
        final RpingSession server = session(false, 0);
        server.postFirstRecv();

        server.onCompletion(RpingSession.WR_RECV, RECV, CompletionStatus.SUCCESS, 12);

        assertEquals("Received bogus data, size 12", server.failure());
    }

    @Test
    void shouldReportAFailedCompletionWithItsStatus()
    {
        final RpingSession server = session(false, 0);
        server.postFirstRecv();
        deliverInfo(server, START_ADDRESS, START_STAG, SIZE);

        server.onCompletion(RpingSession.WR_READ, RDMA_READ, CompletionStatus.REMOTE_ACCESS_ERROR, 0);

        assertEquals("cq completion failed status REMOTE_ACCESS_ERROR (RDMA_READ)", server.failure());
    }

    private RpingSession servedOnePing()
    {
        final RpingSession server = session(false, 0);
        server.postFirstRecv();
        deliverInfo(server, START_ADDRESS, START_STAG, SIZE);
        Rping.fillPattern(rdma, SIZE, 0, 'A');
        server.onCompletion(RpingSession.WR_READ, RDMA_READ, CompletionStatus.SUCCESS, SIZE);
        server.onCompletion(RpingSession.WR_SEND, SEND, CompletionStatus.SUCCESS, 0);
        deliverInfo(server, RDMA_ADDRESS, RDMA_STAG, SIZE);
        server.onCompletion(RpingSession.WR_WRITE, RDMA_WRITE, CompletionStatus.SUCCESS, 0);
        server.onCompletion(RpingSession.WR_SEND, SEND, CompletionStatus.SUCCESS, 0);
        assertEquals(1, server.pings());
        drain();
        return server;
    }

    private void deliverInfo(final RpingSession session, final long address, final int stag, final int length)
    {
        recv.putLong(0, address, ByteOrder.BIG_ENDIAN);
        recv.putInt(8, stag, ByteOrder.BIG_ENDIAN);
        recv.putInt(12, length, ByteOrder.BIG_ENDIAN);
        session.onCompletion(RpingSession.WR_RECV, CompletionOpcode.RECV, CompletionStatus.SUCCESS,
            RpingSession.INFO_LENGTH);
    }

    private List<String> drain()
    {
        final List<String> copy = new ArrayList<>(posted);
        posted.clear();
        return copy;
    }

    private RpingSession session(final boolean client, final int count)
    {
        final Rping.Options options = new Rping.Options();
        options.client = client;
        options.server = !client;
        options.size = SIZE;
        options.count = count;
        options.validate = true;
        options.verbose = client;
        return new RpingSession(options, new PrintStream(printed, true), recv, send,
            new RpingSession.Region(rdma, RDMA_ADDRESS, RDMA_STAG),
            new RpingSession.Region(start, START_ADDRESS, START_STAG),
            new RpingSession.Verbs()
            {
                @Override
                public int postRecv()
                {
                    posted.add("recv");
                    return QueuePair.POSTED;
                }

                @Override
                public int postSend()
                {
                    final long address = send.getLong(0, ByteOrder.BIG_ENDIAN);
                    final int stag = send.getInt(8, ByteOrder.BIG_ENDIAN);
                    final int length = send.getInt(12, ByteOrder.BIG_ENDIAN);
                    posted.add(START_ADDRESS == address ? "send start " + stag + " " + length :
                        RDMA_ADDRESS == address ? "send sink " + stag + " " + length : "send go");
                    return QueuePair.POSTED;
                }

                @Override
                public int postRead(final int length, final int remoteStag, final long remoteAddress)
                {
                    posted.add("read " + length + " " + remoteStag + " " + remoteAddress);
                    return QueuePair.POSTED;
                }

                @Override
                public int postWrite(final int length, final int remoteStag, final long remoteAddress)
                {
                    posted.add("write " + length + " " + remoteStag + " " + remoteAddress);
                    return QueuePair.POSTED;
                }
            });
    }

    private static UnsafeBuffer buffer(final int length)
    {
        return new UnsafeBuffer(ByteBuffer.allocateDirect(length));
    }
}
