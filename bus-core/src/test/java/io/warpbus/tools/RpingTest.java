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
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.warpbus.iwarp.RawPeer;
import io.warpbus.iwarp.ddp.DdpHeaderFlyweight;
import io.warpbus.iwarp.rdmap.RdmapOpcode;
import io.warpbus.iwarp.rdmap.ReadRequestFlyweight;
import io.warpbus.testing.FreePorts;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class RpingTest
{
    @Test
    void shouldFillThePingBufferLikeRdmaCoreRping()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
        Rping.fillPattern(buffer, 64, 0, 'A');
        assertEquals("rdma-ping-0: ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqr", Rping.cString(buffer, 64));
        Rping.fillPattern(buffer, 64, 1, 'B');
        assertEquals("rdma-ping-1: BCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrs", Rping.cString(buffer, 64));
        assertEquals(0, buffer.getByte(63));
    }

    @Test
    void shouldPingPongWithValidationBetweenClientAndServer() throws Exception
    {
        final int port = FreePorts.loopback();
        final ByteArrayOutputStream serverOut = new ByteArrayOutputStream();
        final ByteArrayOutputStream serverErr = new ByteArrayOutputStream();
        final CompletableFuture<Integer> server = CompletableFuture.supplyAsync(() -> Rping.run(
            new String[] { "-s", "-a", "127.0.0.1", "-p", String.valueOf(port), "-v", "-S", "1000" },
            new PrintStream(serverOut, true), new PrintStream(serverErr, true)));

        final ByteArrayOutputStream clientOut = new ByteArrayOutputStream();
        final ByteArrayOutputStream clientErr = new ByteArrayOutputStream();
        int clientExit = -1;
        for (int attempt = 0; attempt < 50 && 0 != clientExit; attempt++)
        {
            clientOut.reset();
            clientErr.reset();
            clientExit = Rping.run(
                new String[] { "-c", "-a", "127.0.0.1", "-p", String.valueOf(port), "-C", "20", "-S", "1000", "-v",
                    "-V" }, new PrintStream(clientOut, true), new PrintStream(clientErr, true));
            if (0 != clientExit)
            {
                Thread.sleep(100);
            }
        }
        assertEquals(0, clientExit, clientErr.toString(StandardCharsets.US_ASCII));
        assertEquals(0, server.get(30, TimeUnit.SECONDS), serverErr.toString(StandardCharsets.US_ASCII));

        final String[] pings = clientOut.toString(StandardCharsets.US_ASCII).split("\n");
        assertEquals(20, pings.length);
        assertTrue(pings[0].startsWith("ping data: rdma-ping-0: ABCDEFG"), pings[0]);
        assertTrue(pings[19].startsWith("ping data: rdma-ping-19: TUVWXYZ"), pings[19]);
        assertEquals("ping data: ".length() + 999, pings[5].length(), "the ping data is the size minus its NUL");
        assertTrue(serverOut.toString(StandardCharsets.US_ASCII).contains("server ping data: rdma-ping-19: "));
    }

    @Test
    void shouldFailWithDataTooLargeForTheServer() throws Exception
    {
        final int port = FreePorts.loopback();
        final ByteArrayOutputStream serverErr = new ByteArrayOutputStream();
        final CompletableFuture<Integer> server = CompletableFuture.supplyAsync(() -> Rping.run(
            new String[] { "-s", "-a", "127.0.0.1", "-p", String.valueOf(port) },
            new PrintStream(new ByteArrayOutputStream()), new PrintStream(serverErr, true)));
        int clientExit = 0;
        for (int attempt = 0; attempt < 50 && server.getNow(null) == null; attempt++)
        {
            clientExit = Rping.run(new String[] { "-c", "-a", "127.0.0.1", "-p", String.valueOf(port), "-C", "1",
                "-S", "100" }, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(new ByteArrayOutputStream()));
            Thread.sleep(50);
        }
        assertEquals(Rping.EXIT_FAILED, clientExit);
        assertEquals(Rping.EXIT_FAILED, server.get(30, TimeUnit.SECONDS));
        assertTrue(serverErr.toString(StandardCharsets.US_ASCII).contains("does not fit this server's 64-byte"),
            serverErr.toString(StandardCharsets.US_ASCII));
    }

    @Test
    void shouldRejectBadOptionsWithUsageExitCode()
    {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(Rping.EXIT_USAGE, Rping.run(new String[] { "-c", "-a", "127.0.0.1", "-S", "1" },
            new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true)));
        assertTrue(err.toString(StandardCharsets.US_ASCII).contains("Invalid size 1 (valid range is 23 to 65535)"));

        err.reset();
        assertEquals(Rping.EXIT_USAGE, Rping.run(new String[] { "-v" }, new PrintStream(new ByteArrayOutputStream()),
            new PrintStream(err, true)));
        assertTrue(err.toString(StandardCharsets.US_ASCII).contains("exactly one of -s (server) or -c (client)"));

        err.reset();
        assertEquals(Rping.EXIT_USAGE, Rping.run(new String[] { "-c", "-a", "h", "-p", "x" },
            new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true)));
        assertTrue(err.toString(StandardCharsets.US_ASCII).contains("-p needs a number, not 'x'"));
    }

    @Test
    void shouldFailClearlyWhenNoServerListens() throws IOException
    {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(Rping.EXIT_FAILED, Rping.run(new String[] { "-c", "-a", "127.0.0.1", "-p",
            String.valueOf(FreePorts.loopback()), "-C", "1" }, new PrintStream(new ByteArrayOutputStream()),
            new PrintStream(err, true)));
        assertTrue(err.toString(StandardCharsets.US_ASCII).contains("Connection refused"),
            err.toString(StandardCharsets.US_ASCII));
    }

    @Test
    void shouldPassEveryRunAgainstItselfWithValidation() throws Exception
    {
        // The reproduction: 20 validated pings of 512 bytes failed about half the runs before the tool was
        // driven by its completions.
        for (int run = 0; run < 5; run++)
        {
            final int port = FreePorts.loopback();
            final ByteArrayOutputStream serverErr = new ByteArrayOutputStream();
            final CompletableFuture<Integer> server = CompletableFuture.supplyAsync(() -> Rping.run(
                new String[] { "-s", "-a", "127.0.0.1", "-p", String.valueOf(port), "-S", "512" },
                new PrintStream(new ByteArrayOutputStream()), new PrintStream(serverErr, true)));
            final ByteArrayOutputStream clientErr = new ByteArrayOutputStream();
            final int clientExit = runClientUntilServerListens(port, clientErr,
                "-C", "20", "-S", "512", "-V");
            assertEquals(0, clientExit, "run " + run + ": " + clientErr.toString(StandardCharsets.US_ASCII));
            assertEquals(0, server.get(30, TimeUnit.SECONDS),
                "run " + run + ": " + serverErr.toString(StandardCharsets.US_ASCII));
        }
    }

    /**
     * A client that sends its sink info ahead of the Read Response, in one TCP write: the server's RECV completion
     * is queued before its RDMA_READ completion, every time. A tool that waits for one opcode and drops the others
     * loses the sink info and times out.
     */
    @Test
    void shouldServeAClientWhoseNextMessageArrivesBeforeTheReadCompletes() throws Exception
    {
        final int port = FreePorts.loopback();
        final ByteArrayOutputStream serverOut = new ByteArrayOutputStream();
        final ByteArrayOutputStream serverErr = new ByteArrayOutputStream();
        final CompletableFuture<Integer> server = CompletableFuture.supplyAsync(() -> Rping.run(
            new String[] { "-s", "-a", "127.0.0.1", "-p", String.valueOf(port), "-S", "64", "-v" },
            new PrintStream(serverOut, true), new PrintStream(serverErr, true)));
        final int startStag = 0x12345600;
        final long startTo = 0x7f0000001000L;
        final int sinkStag = 0x65432100;
        final long sinkTo = 0x7f0000002000L;
        final UnsafeBuffer ping = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
        try (RawPeer peer = connect(port))
        {
            peer.sendRequest(1, 1, new byte[0]);
            peer.readReply();
            peer.sendWriteRtr();
            for (int i = 0; i < 3; i++)
            {
                Rping.fillPattern(ping, 64, i, 'A' + i);
                final byte[] data = new byte[64];
                ping.getBytes(0, data);
                peer.sendSend(info(startTo, startStag, 64));

                final UnsafeBuffer request = new UnsafeBuffer(peer.readFpdu());
                final DdpHeaderFlyweight ddp = new DdpHeaderFlyweight().wrap(request, 0);
                assertEquals(RdmapOpcode.READ_REQUEST, RdmapOpcode.opcode(ddp.rsvdUlp()), "a Read Request");
                final ReadRequestFlyweight read = new ReadRequestFlyweight().wrap(request,
                    DdpHeaderFlyweight.UNTAGGED_HEADER_LENGTH);
                assertEquals(startStag, read.sourceStag());
                assertEquals(startTo, read.sourceTaggedOffset());
                assertEquals(64, read.size());

                final byte[] sinkInfo = peer.sendFpdu(info(sinkTo, sinkStag, 64));
                final byte[] response = peer.taggedFpdu(DdpHeaderFlyweight.VERSION,
                    RdmapOpcode.control(RdmapOpcode.READ_RESPONSE), read.sinkStag(), read.sinkTaggedOffset(), data,
                    true);
                final byte[] both = new byte[sinkInfo.length + response.length];
                System.arraycopy(sinkInfo, 0, both, 0, sinkInfo.length);
                System.arraycopy(response, 0, both, sinkInfo.length, response.length);
                peer.sendRaw(both);

                assertGoAhead(peer.readFpdu());
                final UnsafeBuffer write = new UnsafeBuffer(peer.readFpdu());
                final DdpHeaderFlyweight writeHeader = new DdpHeaderFlyweight().wrap(write, 0);
                assertTrue(writeHeader.isTagged(), "the RDMA Write of the ping data");
                assertEquals(sinkStag, writeHeader.stag());
                assertEquals(sinkTo, writeHeader.taggedOffset());
                final byte[] echoed = new byte[write.capacity() - DdpHeaderFlyweight.TAGGED_HEADER_LENGTH];
                write.getBytes(DdpHeaderFlyweight.TAGGED_HEADER_LENGTH, echoed);
                assertArrayEquals(data, echoed);
                assertGoAhead(peer.readFpdu());
            }
        }
        assertEquals(0, server.get(20, TimeUnit.SECONDS), serverErr.toString(StandardCharsets.US_ASCII));
        final String printed = serverOut.toString(StandardCharsets.US_ASCII);
        assertTrue(printed.contains("server ping data: rdma-ping-2: "), printed);
    }

    @Test
    void shouldFailTheServerWhenItsClientRefusesTheReplyBeforeAnyPing() throws Exception
    {
        final int port = FreePorts.loopback();
        final ByteArrayOutputStream serverErr = new ByteArrayOutputStream();
        final CompletableFuture<Integer> server = CompletableFuture.supplyAsync(() -> Rping.run(
            new String[] { "-s", "-a", "127.0.0.1", "-p", String.valueOf(port), "--mpa-revision", "1" },
            new PrintStream(new ByteArrayOutputStream()), new PrintStream(serverErr, true)));
        try (RawPeer peer = connect(port))
        {
            // A revision 2 initiator, as Linux siw is, that refuses the revision 1 reply by closing.
            peer.sendRequest(1, 1, new byte[0]);
            assertEquals(1, peer.readReply()[17], "a revision 1 reply");
        }
        assertEquals(Rping.EXIT_FAILED, server.get(20, TimeUnit.SECONDS));
        final String err = serverErr.toString(StandardCharsets.US_ASCII);
        assertTrue(err.contains("rping server failed: the client left before its first ping: "), err);
        assertTrue(err.contains("closed the connection before its first FPDU"), err);
    }

    @Test
    void shouldRejectAnUnknownCrcPolicy()
    {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(Rping.EXIT_USAGE, Rping.run(new String[] { "-s", "--crc", "sometimes" },
            new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true)));
        assertTrue(err.toString(StandardCharsets.US_ASCII).contains("--crc needs required, preferred or off"));
    }

    private static void assertGoAhead(final byte[] ulpdu)
    {
        final UnsafeBuffer view = new UnsafeBuffer(ulpdu);
        final DdpHeaderFlyweight ddp = new DdpHeaderFlyweight().wrap(view, 0);
        assertEquals(RdmapOpcode.SEND, RdmapOpcode.opcode(ddp.rsvdUlp()), "a go-ahead Send");
        assertEquals(DdpHeaderFlyweight.UNTAGGED_HEADER_LENGTH + 16, ulpdu.length, "of 16 bytes");
    }

    private static byte[] info(final long address, final int stag, final int length)
    {
        final UnsafeBuffer info = new UnsafeBuffer(new byte[16]);
        info.putLong(0, address, ByteOrder.BIG_ENDIAN);
        info.putInt(8, stag, ByteOrder.BIG_ENDIAN);
        info.putInt(12, length, ByteOrder.BIG_ENDIAN);
        return info.byteArray();
    }

    private static RawPeer connect(final int port) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true)
        {
            try
            {
                return new RawPeer(new InetSocketAddress("127.0.0.1", port));
            }
            catch (final IOException ex)
            {
                if (System.nanoTime() - deadline > 0)
                {
                    throw ex;
                }
                Thread.sleep(20);
            }
        }
    }

    private static int runClientUntilServerListens(
        final int port, final ByteArrayOutputStream clientErr, final String... options) throws InterruptedException
    {
        final String[] args = new String[options.length + 5];
        args[0] = "-c";
        args[1] = "-a";
        args[2] = "127.0.0.1";
        args[3] = "-p";
        args[4] = String.valueOf(port);
        System.arraycopy(options, 0, args, 5, options.length);
        int exit = -1;
        for (int attempt = 0; attempt < 50; attempt++)
        {
            clientErr.reset();
            exit = Rping.run(args, new PrintStream(new ByteArrayOutputStream()), new PrintStream(clientErr, true));
            if (0 == exit || !clientErr.toString(StandardCharsets.US_ASCII).contains("Connection refused"))
            {
                return exit;
            }
            Thread.sleep(50);
        }
        return exit;
    }
}
