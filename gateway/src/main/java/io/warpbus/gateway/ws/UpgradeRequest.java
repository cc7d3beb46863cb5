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
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

import org.springframework.web.cors.CorsConfiguration;

/**
 * The opening handshake of a WebSocket connection as a server checks it (RFC 6455 section 4.2.1): a GET of the
 * endpoint's path over HTTP/1.1 asking to upgrade to websocket, version 13, with a key of 16 random bytes, from an
 * allowed origin. {@link #check} gives the response to write: 101 with the key's accept value, or the HTTP error
 * that names what was wrong.
 */
final class UpgradeRequest
{
    /** The most a handshake request may have before its blank line. */
    static final int MAX_HEAD_BYTES = 8192;
    private static final String ACCEPT_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    private static final int KEY_BYTES = 16;

    private final String path;
    private final CorsConfiguration origins = new CorsConfiguration();

    private boolean accepted;

    /**
     * The checks of one endpoint.
     *
     * @param path           the endpoint's path, e.g. {@code /ws}.
     * @param allowedOrigins origin patterns a browser may connect from, as the web server's endpoint has them;
     *                       empty for any.
     */
    UpgradeRequest(final String path, final List<String> allowedOrigins)
    {
        this.path = path;
        origins.setAllowedOriginPatterns(allowedOrigins.isEmpty() ? List.of("*") : allowedOrigins);
    }

    /**
     * Where the request's head ends.
     *
     * @param in    bytes received so far, between 0 and the position.
     * @return the offset just past the blank line, or -1 if it has not arrived.
     */
    static int headEnd(final ByteBuffer in)
    {
        for (int i = 3, end = in.position(); i < end; i++)
        {
            if ('\n' == in.get(i) && '\r' == in.get(i - 1) && '\n' == in.get(i - 2) && '\r' == in.get(i - 3))
            {
                return i + 1;
            }
        }
        return -1;
    }

    /**
     * Was the last request {@link #check checked} a valid upgrade?
     *
     * @return true if the response was 101.
     */
    boolean isAccepted()
    {
        return accepted;
    }

    /**
     * Check a request's head and give the response.
     *
     * @param head the request line and headers, up to and including the blank line.
     * @return the whole HTTP response to write.
     */
    String check(final String head)
    {
        accepted = false;
        final String[] lines = head.split("\r\n");
        final String[] requestLine = lines[0].split(" ");
        if (3 != requestLine.length || !requestLine[2].startsWith("HTTP/1."))
        {
            return error(400, "Bad Request", "not an HTTP/1.1 request line: " + printable(lines[0]));
        }
        if (!"GET".equals(requestLine[0]))
        {
            return error(405, "Method Not Allowed", "a WebSocket handshake is a GET, not " +
                printable(requestLine[0]));
        }
        final int query = requestLine[1].indexOf('?');
        final String target = query < 0 ? requestLine[1] : requestLine[1].substring(0, query);
        if (!path.equals(target))
        {
            return error(404, "Not Found", "no WebSocket endpoint at " + printable(target) + ": use " + path);
        }
        String upgrade = null;
        String connection = null;
        String version = null;
        String key = null;
        String origin = null;
        for (int i = 1; i < lines.length; i++)
        {
            final int colon = lines[i].indexOf(':');
            if (colon <= 0)
            {
                continue;
            }
            final String name = lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT);
            final String value = lines[i].substring(colon + 1).trim();
            switch (name)
            {
                case "upgrade" -> upgrade = value;
                case "connection" -> connection = value;
                case "sec-websocket-version" -> version = value;
                case "sec-websocket-key" -> key = value;
                case "origin" -> origin = value;
                default ->
                {
                }
            }
        }
        if (null == upgrade || !hasToken(upgrade, "websocket") || null == connection ||
            !hasToken(connection, "upgrade"))
        {
            return error(400, "Bad Request", "not a WebSocket upgrade: it needs 'Upgrade: websocket' and " +
                "'Connection: Upgrade'");
        }
        if (!"13".equals(version))
        {
            return "HTTP/1.1 426 Upgrade Required\r\nSec-WebSocket-Version: 13\r\n" +
                body("WebSocket version " + (null == version ? "missing" : printable(version)) + ": only 13 is " +
                "supported");
        }
        if (null == key || !isKey(key))
        {
            return error(400, "Bad Request", "Sec-WebSocket-Key must be 16 bytes in base64");
        }
        if (null != origin && !isAllowed(origin))
        {
            return error(403, "Forbidden", "origin " + printable(origin) + " is not allowed");
        }
        accepted = true;
        return "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
            "Sec-WebSocket-Accept: " + acceptValue(key) + "\r\n\r\n";
    }

    /**
     * The response to a request whose head grew past {@link #MAX_HEAD_BYTES}.
     *
     * @return the HTTP response.
     */
    static String tooLarge()
    {
        return error(431, "Request Header Fields Too Large", "a handshake request of more than " + MAX_HEAD_BYTES +
            " bytes");
    }

    /**
     * The value a server answers a key with (section 4.2.2): base64 of the SHA-1 of the key and the protocol's GUID.
     *
     * @param key the client's Sec-WebSocket-Key.
     * @return the Sec-WebSocket-Accept value.
     */
    static String acceptValue(final String key)
    {
        try
        {
            final byte[] digest = MessageDigest.getInstance("SHA-1")
                .digest((key + ACCEPT_GUID).getBytes(StandardCharsets.US_ASCII));
            return Base64.getEncoder().encodeToString(digest);
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException("every Java runtime has SHA-1", ex);
        }
    }

    private boolean isAllowed(final String origin)
    {
        return null != origins.checkOrigin(origin);
    }

    private static boolean isKey(final String key)
    {
        try
        {
            return KEY_BYTES == Base64.getDecoder().decode(key).length;
        }
        catch (final IllegalArgumentException ex)
        {
            return false;
        }
    }

    private static boolean hasToken(final String value, final String token)
    {
        for (final String part : value.split(","))
        {
            if (token.equalsIgnoreCase(part.trim()))
            {
                return true;
            }
        }
        return false;
    }

    private static String error(final int status, final String phrase, final String why)
    {
        return "HTTP/1.1 " + status + " " + phrase + "\r\n" + body(why);
    }

    private static String body(final String text)
    {
        final int length = text.getBytes(StandardCharsets.UTF_8).length + 1;
        return "Content-Type: text/plain; charset=utf-8\r\nContent-Length: " + length +
            "\r\nConnection: close\r\n\r\n" + text + "\n";
    }

    private static String printable(final String text)
    {
        final String cut = text.length() > 64 ? text.substring(0, 64) + "..." : text;
        return "'" + cut.replaceAll("[^\\x20-\\x7E]", "?") + "'";
    }
}
