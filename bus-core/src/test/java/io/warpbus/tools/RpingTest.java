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
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

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
        final int port = freePort();
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
        final int port = freePort();
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
            String.valueOf(freePort()), "-C", "1" }, new PrintStream(new ByteArrayOutputStream()),
            new PrintStream(err, true)));
        assertTrue(err.toString(StandardCharsets.US_ASCII).contains("Connection refused"),
            err.toString(StandardCharsets.US_ASCII));
    }

    private static int freePort() throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0))
        {
            return socket.getLocalPort();
        }
    }
}
