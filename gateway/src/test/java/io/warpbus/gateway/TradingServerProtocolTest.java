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

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The gateway's own trading server speaks RFC 6455 as a server must, played against it byte by byte: the opening
 * handshake and its errors, fragmented messages with control frames between their fragments, oversize messages,
 * frames a client must not send, and both ways a connection closes. (The JSON protocol on top is the other tests'.)
 */
@SpringBootTest(classes = GatewayApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@Timeout(120)
class TradingServerProtocolTest extends GatewayTestBase
{
    private static final byte[] LOGON = "{\"type\":\"logon\",\"username\":\"bob\",\"password\":\"bob-pw\"}"
        .getBytes(StandardCharsets.UTF_8);

    @DynamicPropertySource
    static void properties(final DynamicPropertyRegistry registry)
    {
        gatewayProperties(registry);
        registry.add("warpbus.gateway.logon.max-failures", () -> "1000");
    }

    @Test
    void shouldAnswerABadHandshakeWithAnHttpErrorThatSaysWhy()
    {
        final String response = RawWebSocket.exchange(wsPort(), "GET /other HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
            "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n" +
            "Sec-WebSocket-Version: 13\r\n\r\n");

        assertTrue(response.startsWith("HTTP/1.1 404 Not Found\r\n"), response);
        assertTrue(response.endsWith("no WebSocket endpoint at '/other': use /ws\n"), response);
    }

    @Test
    void shouldRefuseAHandshakeLongerThanTheLimit()
    {
        final String response = RawWebSocket.exchange(wsPort(), "GET /ws HTTP/1.1\r\nX-Padding: " +
            "x".repeat(9000) + "\r\n\r\n");

        assertTrue(response.startsWith("HTTP/1.1 431 "), response);
    }

    @Test
    void shouldCloseAConnectionThatNeverFinishesItsHandshake() throws IOException
    {
        try (Socket socket = new Socket())
        {
            socket.setSoTimeout((int)TestClient.TIMEOUT_MS);
            socket.connect(new InetSocketAddress("127.0.0.1", wsPort()), 10_000);
            socket.getOutputStream().write("GET /ws HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
            final InputStream in = socket.getInputStream();

            assertEquals(-1, in.read(), "closed by the gateway, before the test's read timeout");
        }
    }

    @Test
    void shouldAssembleAFragmentedLogonAndAnswerAPingBetweenItsFragments()
    {
        try (RawWebSocket client = new RawWebSocket(wsPort(), 64 * 1024))
        {
            client.sendFrame(0x01, Arrays.copyOfRange(LOGON, 0, 10), true);
            client.sendFrame(0x89, new byte[] { 4, 2 }, true);
            client.sendFrame(0x00, Arrays.copyOfRange(LOGON, 10, 30), true);
            client.sendFrame(0x80, Arrays.copyOfRange(LOGON, 30, LOGON.length), true);

            assertArrayEquals(new byte[] { 4, 2 }, client.readPong());
            assertEquals("logon", client.read().path("type").asString());
        }
    }

    @Test
    void shouldRefuseAnOversizeMessageWholeOrInFragmentsAndKeepTheConnection()
    {
        try (RawWebSocket client = new RawWebSocket(wsPort(), 64 * 1024))
        {
            client.sendFrame(0x81, new byte[5000], true);
            final JsonNode whole = client.read();
            assertEquals("tooLarge", whole.path("code").asString(), whole.toString());
            assertEquals("message of 5000 bytes: the limit is 4096", whole.path("text").asString());

            client.sendFrame(0x01, new byte[3000], true);
            client.sendFrame(0x80, new byte[3000], true);
            final JsonNode fragmented = client.read();
            assertEquals("message of 6000 bytes: the limit is 4096", fragmented.path("text").asString());

            client.send(new String(LOGON, StandardCharsets.UTF_8));
            assertEquals("logon", client.read().path("type").asString(), "the connection still works");
        }
    }

    @Test
    void shouldEndAConnectionThatSendsAnUnmaskedFrame()
    {
        try (RawWebSocket client = new RawWebSocket(wsPort(), 64 * 1024))
        {
            client.sendFrame(0x81, LOGON, false);

            assertNull(client.read());
            assertEquals(1002, client.closeCode());
            assertTrue(client.closeReason().contains("unmasked"), client.closeReason());
            assertTrue(client.awaitEndOfStream());
        }
    }

    @Test
    void shouldEndAConnectionThatSendsTextThatIsNotUtf8()
    {
        try (RawWebSocket client = new RawWebSocket(wsPort(), 64 * 1024))
        {
            client.sendFrame(0x81, new byte[] { '"', (byte)0xC3, 0x28, '"' }, true);

            assertNull(client.read());
            assertEquals(1007, client.closeCode());
            assertTrue(client.awaitEndOfStream());
        }
    }

    @Test
    void shouldEchoAClientsCloseAndEndTheConnection()
    {
        try (RawWebSocket client = new RawWebSocket(wsPort(), 64 * 1024))
        {
            client.send(new String(LOGON, StandardCharsets.UTF_8));
            assertEquals("logon", client.read().path("type").asString());

            client.sendFrame(0x88, new byte[] { 0x03, (byte)0xE9, 'b', 'y', 'e' }, true);

            assertNull(client.readUntil((message) -> false));
            assertEquals(1001, client.closeCode(), "the client's code, echoed");
            assertTrue(client.awaitEndOfStream());
        }
    }

    @Test
    void shouldCloseAfterLogoutEvenIfTheClientNeverAnswersTheCloseFrame()
    {
        try (RawWebSocket client = new RawWebSocket(wsPort(), 64 * 1024))
        {
            client.send(new String(LOGON, StandardCharsets.UTF_8));
            assertEquals("logon", client.read().path("type").asString());

            client.send("{\"type\":\"logout\"}");

            assertEquals("logout", client.readUntil((message) -> "logout".equals(message.path("type").asString()))
                .path("reason").asString());
            assertNull(client.readUntil((message) -> false));
            assertEquals(1000, client.closeCode());
            assertTrue(client.awaitEndOfStream(), "closed at the close timeout");
        }
    }
}
