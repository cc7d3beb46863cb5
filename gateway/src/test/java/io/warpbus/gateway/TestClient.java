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

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.warpbus.testing.Await;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A real WebSocket client of the gateway for tests (the JDK's), holding every message received in order. Every
 * message it sends with {@link #send} and every message it receives is validated against the protocol's JSON Schema
 * ({@code gateway-protocol.schema.json}); a violation fails the test at its next wait. {@link #sendRaw} sends
 * anything, for tests of bad input.
 */
final class TestClient implements AutoCloseable
{
    static final long TIMEOUT_MS = 20_000;
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Schema SCHEMA = loadSchema();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final List<JsonNode> received = new CopyOnWriteArrayList<>();
    private final List<String> violations = new CopyOnWriteArrayList<>();
    private final StringBuilder partial = new StringBuilder();
    private final WebSocket socket;
    private volatile int closeCode = -1;
    private volatile String closeReason;
    private volatile boolean reading = true;

    TestClient(final int port)
    {
        socket = HTTP.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10))
            .buildAsync(URI.create("ws://127.0.0.1:" + port + "/ws"), new Listener()).join();
    }

    static Schema schema()
    {
        return SCHEMA;
    }

    /**
     * Send a message the protocol allows, checked against the schema first.
     *
     * @param json the message.
     */
    void send(final String json)
    {
        final List<Error> errors = SCHEMA.validate(json, InputFormat.JSON);
        if (!errors.isEmpty())
        {
            throw new AssertionError("the test sends a message the schema refuses: " + json + " " + errors);
        }
        sendRaw(json);
    }

    /**
     * Send anything.
     *
     * @param text the frame's text.
     */
    void sendRaw(final String text)
    {
        socket.sendText(text, true).join();
    }

    /**
     * Send a text split into several frames.
     *
     * @param parts the frames.
     */
    void sendParts(final String... parts)
    {
        for (int i = 0; i < parts.length; i++)
        {
            socket.sendText(parts[i], i == parts.length - 1).join();
        }
    }

    /**
     * Stop reading: the socket's buffers fill and the gateway sees a slow consumer.
     */
    void pause()
    {
        reading = false;
    }

    /**
     * Read again.
     */
    void resume()
    {
        reading = true;
        socket.request(1);
    }

    /**
     * Wait for the first message from position {@code from} on that matches.
     *
     * @param from      index in {@link #received()} to look from.
     * @param condition what to wait for.
     * @param what      for the failure message.
     * @return the message.
     */
    JsonNode await(final int from, final Predicate<JsonNode> condition, final String what)
    {
        final JsonNode[] found = new JsonNode[1];
        Await.until(() -> what + " (received by then: " + tail() + ")", TIMEOUT_MS, () ->
        {
            checkSchema();
            sleep();
        }, () ->
        {
            for (int i = from; i < received.size(); i++)
            {
                if (condition.test(received.get(i)))
                {
                    found[0] = received.get(i);
                    return true;
                }
            }
            return false;
        });
        return found[0];
    }

    JsonNode await(final Predicate<JsonNode> condition, final String what)
    {
        return await(0, condition, what);
    }

    JsonNode awaitType(final String type)
    {
        return await((m) -> type.equals(m.path("type").asString()), "a '" + type + "' message");
    }

    JsonNode awaitType(final int from, final String type)
    {
        return await(from, (m) -> type.equals(m.path("type").asString()), "a '" + type + "' message");
    }

    /**
     * Log on with a password and wait for the answer.
     *
     * @return the logon or logonRejected message.
     */
    JsonNode logon(final String user, final String password)
    {
        final int from = received.size();
        send("{\"type\":\"logon\",\"username\":\"" + user + "\",\"password\":\"" + password + "\"}");
        return await(from, (m) -> m.path("type").asString().startsWith("logon"), "the logon answer");
    }

    /**
     * Log on with an API key, signing the logon as clients must, and wait for the answer.
     *
     * @return the logon or logonRejected message.
     */
    JsonNode logonWithKey(final String keyId, final byte[] secret, final long timestampMs, final String nonce)
    {
        final String signature = java.util.HexFormat.of().formatHex(
            io.warpbus.gateway.security.Authenticator.sign(secret, keyId, timestampMs, nonce));
        final int from = received.size();
        send("{\"type\":\"logon\",\"apiKey\":\"" + keyId + "\",\"timestamp\":" + timestampMs + ",\"nonce\":\"" +
            nonce + "\",\"signature\":\"" + signature + "\"}");
        return await(from, (m) -> m.path("type").asString().startsWith("logon"), "the logon answer");
    }

    /**
     * Send a message and wait for the next message of a type after it.
     *
     * @return that message.
     */
    JsonNode request(final String json, final String answerType)
    {
        final int from = received.size();
        send(json);
        return awaitType(from, answerType);
    }

    /**
     * Wait for the gateway to close the socket.
     *
     * @return the close code.
     */
    int awaitClose()
    {
        Await.until("the gateway to close the connection (received: " + tail() + ")", TIMEOUT_MS,
            TestClient::sleep, () -> closeCode >= 0);
        return closeCode;
    }

    boolean isClosed()
    {
        return closeCode >= 0;
    }

    String closeReason()
    {
        return closeReason;
    }

    List<JsonNode> received()
    {
        return received;
    }

    int size()
    {
        return received.size();
    }

    /**
     * Messages of a type.
     *
     * @param type the type.
     * @return them, in order.
     */
    List<JsonNode> ofType(final String type)
    {
        final List<JsonNode> messages = new ArrayList<>();
        for (final JsonNode message : received)
        {
            if (type.equals(message.path("type").asString()))
            {
                messages.add(message);
            }
        }
        return messages;
    }

    void checkSchema()
    {
        if (!violations.isEmpty())
        {
            throw new AssertionError("the gateway sent messages the schema refuses: " + violations);
        }
    }

    @Override
    public void close()
    {
        if (!isClosed())
        {
            socket.abort();
        }
    }

    private String tail()
    {
        // A snapshot: a view of the live list would fail when a message arrives while it is printed.
        final Object[] messages = received.toArray();
        return Arrays.toString(Arrays.copyOfRange(messages, Math.max(0, messages.length - 5), messages.length));
    }

    private static void sleep()
    {
        try
        {
            TimeUnit.MILLISECONDS.sleep(2);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    private static Schema loadSchema()
    {
        try (InputStream schema = TestClient.class.getResourceAsStream("/gateway-protocol.schema.json"))
        {
            return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(schema);
        }
        catch (final java.io.IOException ex)
        {
            throw new java.io.UncheckedIOException(ex);
        }
    }

    private final class Listener implements WebSocket.Listener
    {
        @Override
        public CompletionStage<?> onText(final WebSocket webSocket, final CharSequence data, final boolean last)
        {
            partial.append(data);
            if (last)
            {
                final String text = partial.toString();
                partial.setLength(0);
                try
                {
                    final List<Error> errors = SCHEMA.validate(text, InputFormat.JSON);
                    if (!errors.isEmpty())
                    {
                        violations.add(text + " " + errors);
                    }
                    received.add(JSON.readTree(text));
                }
                catch (final RuntimeException ex)
                {
                    violations.add(text + " could not be checked: " + ex);
                }
            }
            if (reading)
            {
                webSocket.request(1);
            }
            return null;
        }

        @Override
        public CompletionStage<?> onClose(final WebSocket webSocket, final int statusCode, final String reason)
        {
            closeReason = reason;
            closeCode = statusCode;
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public void onError(final WebSocket webSocket, final Throwable error)
        {
            closeReason = String.valueOf(error);
            closeCode = 1006;
        }
    }
}
