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
package io.warpbus.gateway;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.concurrent.ThreadLocalRandom;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A WebSocket client on a plain socket with a receive buffer as small as the test wants, that reads only when told
 * to: a client that stops reading fills its socket at once, so the gateway sees a slow consumer after a few
 * kilobytes instead of the megabytes a tuned client socket holds. Text frames only, masked as RFC 6455 requires.
 */
final class RawWebSocket implements AutoCloseable
{
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private int closeCode = -1;
    private String closeReason = "";

    RawWebSocket(final int port, final int receiveBuffer)
    {
        try
        {
            socket = new Socket();
            socket.setReceiveBufferSize(receiveBuffer);
            socket.setSoTimeout((int)TestClient.TIMEOUT_MS);
            socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
            in = new DataInputStream(socket.getInputStream());
            out = socket.getOutputStream();
            final byte[] nonce = new byte[16];
            ThreadLocalRandom.current().nextBytes(nonce);
            out.write(("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\n" +
                "Connection: Upgrade\r\nSec-WebSocket-Key: " + Base64.getEncoder().encodeToString(nonce) +
                "\r\nSec-WebSocket-Version: 13\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            final String status = readLine();
            if (!status.contains(" 101 "))
            {
                throw new IllegalStateException("the gateway refused the upgrade: " + status);
            }
            while (!readLine().isEmpty())
            {
                continue;
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Send one text frame.
     *
     * @param text the message.
     */
    void send(final String text)
    {
        frame(0x1, text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Send a ping.
     *
     * @param payload its application data (at most 125 bytes).
     */
    void ping(final byte[] payload)
    {
        frame(0x9, payload);
    }

    /**
     * Read until a pong, skipping messages.
     *
     * @return its application data, or null once the gateway has closed the connection.
     */
    byte[] readPong()
    {
        try
        {
            while (true)
            {
                final int first = in.readUnsignedByte();
                final byte[] payload = readPayload();
                if (0xA == (first & 0x0F))
                {
                    return payload;
                }
                if (0x8 == (first & 0x0F))
                {
                    return null;
                }
            }
        }
        catch (final IOException ex)
        {
            closeCode = 1006;
            closeReason = ex.toString();
            return null;
        }
    }

    private byte[] readPayload() throws IOException
    {
        final long length = WebSocketFrames.payloadLength(in, in.readUnsignedByte());
        final byte[] payload = new byte[(int)length];
        in.readFully(payload);
        return payload;
    }

    private void frame(final int opcode, final byte[] payload)
    {
        sendFrame(0x80 | opcode, payload, true);
    }

    /**
     * Send a frame as given, breaking the protocol if the test wants to.
     *
     * @param first   the first byte: FIN, reserved bits and opcode.
     * @param payload the payload (less than 64 KiB).
     * @param masked  false to send it unmasked, which a client must not.
     */
    void sendFrame(final int first, final byte[] payload, final boolean masked)
    {
        final byte[] mask = new byte[4];
        ThreadLocalRandom.current().nextBytes(mask);
        final int maskBit = masked ? 0x80 : 0;
        try
        {
            out.write(first);
            if (payload.length < 126)
            {
                out.write(maskBit | payload.length);
            }
            else
            {
                out.write(maskBit | 126);
                out.write(payload.length >>> 8);
                out.write(payload.length & 0xFF);
            }
            if (masked)
            {
                out.write(mask);
            }
            for (int i = 0; i < payload.length; i++)
            {
                out.write(masked ? payload[i] ^ mask[i & 3] : payload[i]);
            }
            out.flush();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Read the next text message, or note the close.
     *
     * @return the message, or null once the gateway has closed the connection.
     */
    JsonNode read()
    {
        try
        {
            while (true)
            {
                final int first = in.readUnsignedByte();
                final byte[] payload = readPayload();
                final int opcode = first & 0x0F;
                if (0x8 == opcode)
                {
                    closeCode = payload.length >= 2 ? ((payload[0] & 0xFF) << 8) | (payload[1] & 0xFF) : 1005;
                    closeReason = payload.length > 2 ?
                        new String(payload, 2, payload.length - 2, StandardCharsets.UTF_8) : "";
                    return null;
                }
                if (0x1 == opcode)
                {
                    return JSON.readTree(new String(payload, StandardCharsets.UTF_8));
                }
            }
        }
        catch (final IOException ex)
        {
            closeCode = 1006;
            closeReason = ex.toString();
            return null;
        }
    }

    /**
     * Read until a message matches.
     *
     * @param type the type wanted.
     * @return the message, or null when the connection closed first.
     */
    JsonNode readUntil(final java.util.function.Predicate<JsonNode> condition)
    {
        JsonNode message;
        while (null != (message = read()))
        {
            if (condition.test(message))
            {
                return message;
            }
        }
        return null;
    }

    /**
     * Has the gateway closed the TCP connection? Reads past anything still sent.
     *
     * @return true at the end of the stream, false if the read timed out first.
     */
    boolean awaitEndOfStream()
    {
        try
        {
            while (in.read() >= 0)
            {
                continue;
            }
            return true;
        }
        catch (final IOException ex)
        {
            return ex.getMessage() != null && ex.getMessage().contains("reset");
        }
    }

    /**
     * Send a raw request on a new connection and read the answer until the gateway closes it.
     *
     * @param port    where to.
     * @param request the bytes to send.
     * @return all the gateway sent.
     */
    static String exchange(final int port, final String request)
    {
        try (Socket socket = new Socket())
        {
            socket.setSoTimeout((int)TestClient.TIMEOUT_MS);
            socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    int closeCode()
    {
        return closeCode;
    }

    String closeReason()
    {
        return closeReason;
    }

    private String readLine() throws IOException
    {
        final StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0 && '\n' != c)
        {
            if ('\r' != c)
            {
                line.append((char)c);
            }
        }
        return line.toString();
    }

    @Override
    public void close()
    {
        try
        {
            socket.close();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
