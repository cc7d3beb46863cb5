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
package io.warpbus.gateway.ws;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The opening handshake as RFC 6455 section 4.2 has a server check it: the answer to a valid request, and an HTTP
 * error naming what is wrong with each kind of invalid one.
 */
class UpgradeRequestTest
{
    private static final String VALID = "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n" +
        "Connection: keep-alive, Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n" +
        "Sec-WebSocket-Version: 13\r\n\r\n";

    private final UpgradeRequest any = new UpgradeRequest("/ws", List.of());

    @Test
    void shouldAnswerTheRfcsSampleKeyWithItsAcceptValue()
    {
        // RFC 6455 1.3: the key "dGhlIHNhbXBsZSBub25jZQ==" is answered with "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=".
        final String response = any.check(VALID);

        assertTrue(any.isAccepted());
        assertTrue(response.startsWith("HTTP/1.1 101 Switching Protocols\r\n"), response);
        assertTrue(response.contains("\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"), response);
        assertTrue(response.endsWith("\r\n\r\n"));
    }

    @Test
    void shouldNameWhatIsWrongWithABadRequest()
    {
        assertRefused(VALID.replace("GET ", "POST "), "405", "a WebSocket handshake is a GET");
        assertRefused(VALID.replace("/ws ", "/other "), "404", "no WebSocket endpoint at '/other'");
        assertRefused(VALID.replace("Upgrade: websocket\r\n", ""), "400", "not a WebSocket upgrade");
        assertRefused(VALID.replace("keep-alive, Upgrade", "keep-alive"), "400", "not a WebSocket upgrade");
        assertRefused(VALID.replace("Version: 13", "Version: 8"), "426", "WebSocket version '8'");
        assertRefused(VALID.replace("dGhlIHNhbXBsZSBub25jZQ==", "c2hvcnQ="), "400", "16 bytes in base64");
        assertRefused("GARBAGE\r\n\r\n", "400", "not an HTTP/1.1 request line");
        assertTrue(any.check(VALID.replace("Version: 13", "Version: 8")).contains("Sec-WebSocket-Version: 13"),
            "426 names the version it supports");
    }

    @Test
    void shouldAdmitOnlyAllowedOriginsAndClientsThatSendNone()
    {
        final UpgradeRequest strict = new UpgradeRequest("/ws", List.of("https://*.example.com"));

        strict.check(VALID);
        assertTrue(strict.isAccepted(), "a client that is not a browser sends no origin");
        strict.check(VALID.replace("\r\n\r\n", "\r\nOrigin: https://trade.example.com\r\n\r\n"));
        assertTrue(strict.isAccepted());
        final String refused = strict.check(VALID.replace("\r\n\r\n", "\r\nOrigin: https://evil.test\r\n\r\n"));
        assertFalse(strict.isAccepted());
        assertTrue(refused.startsWith("HTTP/1.1 403 "), refused);
        assertTrue(refused.contains("origin 'https://evil.test' is not allowed"), refused);
    }

    @Test
    void shouldFindTheEndOfAHeadOnlyOnceItHasArrived()
    {
        final byte[] bytes = VALID.getBytes(StandardCharsets.US_ASCII);
        for (int received = 0; received < bytes.length; received++)
        {
            assertEquals(-1, UpgradeRequest.headEnd(ByteBuffer.allocate(bytes.length).put(bytes, 0, received)));
        }
        assertEquals(bytes.length, UpgradeRequest.headEnd(ByteBuffer.allocate(bytes.length + 8).put(bytes)
            .put(new byte[] { (byte)0x81, 0 })));
    }

    private void assertRefused(final String request, final String status, final String reason)
    {
        final String response = any.check(request);
        assertFalse(any.isAccepted(), request);
        assertTrue(response.startsWith("HTTP/1.1 " + status + " "), response);
        assertTrue(response.contains(reason), response);
        assertTrue(response.contains("\r\nConnection: close\r\n"), response);
    }
}
