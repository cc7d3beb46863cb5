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
package io.warpbus.gateway.client;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.warpbus.gateway.WebSocketFrames;
import io.warpbus.gateway.client.NioWebSockets.NioWebSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The load's WebSocket client against a server written here from RFC 6455, on real loopback sockets: the server
 * checks the upgrade and the client's masking, and sends frames split at arbitrary points.
 */
@Timeout(60)
class NioWebSocketsTest
{
    private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

    private final BlockingQueue<String> received = new LinkedBlockingQueue<>();
    private final CompletableFuture<String> closedWhy = new CompletableFuture<>();
    private final NioWebSockets.Listener listener = new NioWebSockets.Listener()
    {
        @Override
        public void onMessage(final NioWebSocket socket, final byte[] buffer, final int offset, final int length)
        {
            received.add(new String(buffer, offset, length, StandardCharsets.UTF_8));
        }

        @Override
        public void onClosed(final NioWebSocket socket, final String why)
        {
            closedWhy.complete(why);
        }
    };
    private ServerSocket server;
    private NioWebSockets sockets;

    @BeforeEach
    void setUp() throws IOException
    {
        server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
        server.setSoTimeout(10_000);
        sockets = new NioWebSockets(1, "test-ws");
    }

    @AfterEach
    void tearDown() throws IOException
    {
        sockets.close();
        server.close();
    }

    @Test
    void shouldDeliverWholeMessagesHoweverTheFramesAreSplitAcrossReads() throws Exception
    {
        final Random random = new Random(42);
        final List<String> sent = new ArrayList<>();
        final ByteArrayOutputStream wire = new ByteArrayOutputStream();
        for (int i = 0; i < 300; i++)
        {
            final String text = randomText(random, i % 50 == 0 ? 70_000 : random.nextInt(400));
            sent.add(text);
            final byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            if (random.nextInt(4) == 0 && bytes.length > 2)
            {
                // Fragmented, with a ping between the fragments (RFC 6455 section 5.4 allows control frames there).
                final int cut = 1 + random.nextInt(bytes.length - 1);
                writeFrame(wire, false, 0x1, bytes, 0, cut);
                writeFrame(wire, true, 0x9, new byte[] { 7, 8 }, 0, 2);
                writeFrame(wire, true, 0x0, bytes, cut, bytes.length - cut);
            }
            else
            {
                writeFrame(wire, true, 0x1, bytes, 0, bytes.length);
            }
        }
        final byte[] all = wire.toByteArray();

        try (Socket peer = accept(sockets, listener))
        {
            final OutputStream out = peer.getOutputStream();
            for (int at = 0; at < all.length; )
            {
                final int chunk = Math.min(all.length - at, 1 + random.nextInt(random.nextBoolean() ? 7 : 5000));
                out.write(all, at, chunk);
                out.flush();
                at += chunk;
            }
            for (final String expected : sent)
            {
                assertEquals(expected, received.poll(10, TimeUnit.SECONDS));
            }
            final DataInputStream in = new DataInputStream(peer.getInputStream());
            final Frame pong = readFrame(in);
            assertEquals(0xA, pong.opcode);
            assertArrayEquals(new byte[] { 7, 8 }, pong.payload);
        }
    }

    @Test
    void shouldSendMaskedTextFramesOfEveryLengthEncodingEvenWhenTheSocketIsFull() throws Exception
    {
        final Random random = new Random(7);
        final NioWebSocket[] client = new NioWebSocket[1];
        try (Socket peer = accept(sockets, listener, client))
        {
            final List<String> sent = new ArrayList<>();
            // Nobody reads on the server side yet: the megabytes below fill both socket buffers, and the rest
            // waits in the client for the selector.
            for (final int length : new int[] { 0, 125, 126, 65_535, 65_536, 1_000_000, 3_000_000, 5 })
            {
                final String text = randomText(random, length);
                sent.add(text);
                assertTrue(client[0].send(text));
            }
            final DataInputStream in = new DataInputStream(peer.getInputStream());
            for (final String expected : sent)
            {
                final Frame frame = readFrame(in);
                assertTrue(frame.masked, "a client's frames are masked");
                assertEquals(0x1, frame.opcode);
                assertEquals(expected, new String(frame.payload, StandardCharsets.UTF_8));
            }
        }
    }

    @Test
    void shouldAnswerAndReportTheServersClose() throws Exception
    {
        try (Socket peer = accept(sockets, listener))
        {
            final byte[] reason = "slow consumer".getBytes(StandardCharsets.UTF_8);
            final byte[] payload = new byte[2 + reason.length];
            payload[0] = (byte)(4008 >> 8);
            payload[1] = (byte)(4008 & 0xFF);
            System.arraycopy(reason, 0, payload, 2, reason.length);
            final ByteArrayOutputStream wire = new ByteArrayOutputStream();
            writeFrame(wire, true, 0x8, payload, 0, payload.length);
            peer.getOutputStream().write(wire.toByteArray());

            assertEquals("4008 slow consumer", closedWhy.get(10, TimeUnit.SECONDS));
            final Frame answer = readFrame(new DataInputStream(peer.getInputStream()));
            assertEquals(0x8, answer.opcode);
            assertArrayEquals(new byte[] { payload[0], payload[1] }, answer.payload);
        }
    }

    @Test
    void shouldCloseWithTheReasonOnAMaskedServerFrame() throws Exception
    {
        try (Socket peer = accept(sockets, listener))
        {
            peer.getOutputStream().write(new byte[] { (byte)0x81, (byte)0x81, 1, 2, 3, 4, 5 });
            final String why = closedWhy.get(10, TimeUnit.SECONDS);
            assertTrue(why.startsWith("1002") && why.contains("masked"), why);
        }
    }

    @Test
    void shouldCloseWithTheReasonOnAContinuationWithNothingToContinue() throws Exception
    {
        try (Socket peer = accept(sockets, listener))
        {
            peer.getOutputStream().write(new byte[] { (byte)0x80, 1, 'x' });
            final String why = closedWhy.get(10, TimeUnit.SECONDS);
            assertTrue(why.contains("continuation with no message"), why);
        }
    }

    @Test
    void shouldEndOnlyTheConnectionWhoseListenerFailed() throws Exception
    {
        final CompletableFuture<String> failedWhy = new CompletableFuture<>();
        final NioWebSockets.Listener throwing = new NioWebSockets.Listener()
        {
            @Override
            public void onMessage(final NioWebSocket socket, final byte[] buffer, final int offset,
                final int length)
            {
                throw new IllegalStateException("listener fault");
            }

            @Override
            public void onClosed(final NioWebSocket socket, final String why)
            {
                failedWhy.complete(why);
            }
        };
        // One selector thread serves both: the fault must not stop it.
        try (Socket bad = accept(sockets, throwing); Socket good = accept(sockets, listener))
        {
            final ByteArrayOutputStream wire = new ByteArrayOutputStream();
            final byte[] text = "hello".getBytes(StandardCharsets.UTF_8);
            writeFrame(wire, true, 0x1, text, 0, text.length);
            bad.getOutputStream().write(wire.toByteArray());
            final String why = failedWhy.get(10, TimeUnit.SECONDS);
            assertTrue(why.startsWith("1011") && why.contains("listener fault"), why);

            good.getOutputStream().write(wire.toByteArray());
            assertEquals("hello", received.poll(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void shouldReportAConnectionDroppedWithoutACloseFrame() throws Exception
    {
        final Socket peer = accept(sockets, listener);
        peer.close();
        assertTrue(closedWhy.get(10, TimeUnit.SECONDS).startsWith("1006"));
    }

    @Test
    void shouldNeverThrowOrHangOnRandomBytesFromTheServer() throws Exception
    {
        final Random random = new Random(11);
        for (int run = 0; run < 40; run++)
        {
            final CompletableFuture<String> closed = new CompletableFuture<>();
            final NioWebSockets.Listener quiet = new NioWebSockets.Listener()
            {
                @Override
                public void onMessage(final NioWebSocket socket, final byte[] buffer, final int offset,
                    final int length)
                {
                    // anything may arrive
                }

                @Override
                public void onClosed(final NioWebSocket socket, final String why)
                {
                    closed.complete(why);
                }
            };
            final byte[] junk = new byte[random.nextInt(3000)];
            random.nextBytes(junk);
            try (Socket peer = accept(sockets, quiet))
            {
                peer.getOutputStream().write(junk);
                peer.shutdownOutput();
                // Whatever the bytes were, the end of the stream ends the connection with a reason.
                assertNotNull(closed.get(10, TimeUnit.SECONDS));
            }
        }
    }

    @Test
    void shouldRefuseAnUpgradeTheServerDeclinesOrAnswersWrongly() throws Exception
    {
        final URI uri = URI.create("ws://127.0.0.1:" + server.getLocalPort() + "/ws");
        final CompletableFuture<Void> serverSide = CompletableFuture.runAsync(() ->
        {
            try (Socket refused = server.accept())
            {
                readHead(new DataInputStream(refused.getInputStream()));
                refused.getOutputStream().write("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
                Thread.sleep(500);
            }
            catch (final Exception ex)
            {
                throw new IllegalStateException(ex);
            }
            try (Socket wrongKey = server.accept())
            {
                readHead(new DataInputStream(wrongKey.getInputStream()));
                wrongKey.getOutputStream().write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n" +
                    "Connection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
                Thread.sleep(500);
            }
            catch (final Exception ex)
            {
                throw new IllegalStateException(ex);
            }
        });
        final IOException refused = assertThrows(IOException.class, () -> sockets.connect(uri, listener, 5_000));
        assertTrue(refused.getMessage().contains("403 Forbidden"), refused.getMessage());
        final IOException wrong = assertThrows(IOException.class, () -> sockets.connect(uri, listener, 5_000));
        assertTrue(wrong.getMessage().contains("wrong Sec-WebSocket-Accept"), wrong.getMessage());
        serverSide.get(10, TimeUnit.SECONDS);
    }

    private Socket accept(final NioWebSockets sockets, final NioWebSockets.Listener listener) throws Exception
    {
        return accept(sockets, listener, new NioWebSocket[1]);
    }

    /**
     * Connect a client and accept it here, answering its upgrade as RFC 6455 section 4.2.2 says.
     */
    private Socket accept(final NioWebSockets sockets, final NioWebSockets.Listener listener,
        final NioWebSocket[] client) throws Exception
    {
        final CompletableFuture<NioWebSocket> connected = CompletableFuture.supplyAsync(() ->
        {
            try
            {
                return sockets.connect(URI.create("ws://127.0.0.1:" + server.getLocalPort() + "/ws"), listener,
                    5_000);
            }
            catch (final IOException ex)
            {
                throw new IllegalStateException(ex);
            }
        });
        final Socket peer = server.accept();
        peer.setSoTimeout(10_000);
        final String head = readHead(new DataInputStream(peer.getInputStream()));
        assertTrue(head.startsWith("GET /ws HTTP/1.1\r\n"), head);
        String key = null;
        for (final String line : head.split("\r\n"))
        {
            if (line.startsWith("Sec-WebSocket-Key: "))
            {
                key = line.substring("Sec-WebSocket-Key: ".length());
            }
        }
        assertNotNull(key, head);
        assertEquals(16, Base64.getDecoder().decode(key).length);
        final String accept = Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-1")
            .digest((key + GUID).getBytes(StandardCharsets.US_ASCII)));
        peer.getOutputStream().write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n" +
            "Connection: Upgrade\r\nsec-websocket-accept: " + accept + "\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
        client[0] = connected.get(10, TimeUnit.SECONDS);
        return peer;
    }

    private static String readHead(final DataInputStream in) throws IOException
    {
        final StringBuilder head = new StringBuilder();
        while (head.length() < 4 || !head.substring(head.length() - 4).equals("\r\n\r\n"))
        {
            head.append((char)in.readUnsignedByte());
        }
        return head.toString();
    }

    private static String randomText(final Random random, final int length)
    {
        final StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++)
        {
            final int pick = random.nextInt(20);
            text.append(0 == pick ? 'é' : 1 == pick ? '"' : (char)('a' + random.nextInt(26)));
        }
        return text.toString();
    }

    private static void writeFrame(final ByteArrayOutputStream out, final boolean fin, final int opcode,
        final byte[] payload, final int offset, final int length)
    {
        out.write((fin ? 0x80 : 0) | opcode);
        if (length < 126)
        {
            out.write(length);
        }
        else if (length < 65_536)
        {
            out.write(126);
            out.write(length >>> 8);
            out.write(length & 0xFF);
        }
        else
        {
            out.write(127);
            for (int shift = 56; shift >= 0; shift -= 8)
            {
                out.write((int)((long)length >>> shift) & 0xFF);
            }
        }
        out.write(payload, offset, length);
    }

    private record Frame(int opcode, boolean masked, byte[] payload)
    {
    }

    private static Frame readFrame(final DataInputStream in) throws IOException
    {
        final int first = in.readUnsignedByte();
        final int second = in.readUnsignedByte();
        final long length = WebSocketFrames.payloadLength(in, second);
        final boolean masked = 0 != (second & 0x80);
        final byte[] mask = new byte[4];
        if (masked)
        {
            in.readFully(mask);
        }
        final byte[] payload = new byte[(int)length];
        in.readFully(payload);
        for (int i = 0; masked && i < payload.length; i++)
        {
            payload[i] ^= mask[i & 3];
        }
        return new Frame(first & 0x0F, masked, payload);
    }
}
