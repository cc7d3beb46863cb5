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
package io.warpbus.gateway.admin;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads the matching engine's figures from its HTTP side ({@code stats.json} of the engine's {@code MetricsServer}):
 * its counters and the match latency (service time: decode, match, publish) percentiles of its last interval. The
 * engine's counters file may be on another host; its HTTP address is configured
 * ({@link OperationsProperties#engineUrl()}). Called on the operations sampler's thread, never on the session core's.
 */
final class EngineStatsReader
{
    /** At most this many bytes of answer are read: the engine's stats are well under 1 KiB. */
    static final int MAX_ANSWER_BYTES = 64 * 1024;

    private final URI statsUri;
    private final Duration timeout;
    private final HttpClient client;
    private final JsonMapper mapper = JsonMapper.builder().build();

    /**
     * A reader of one engine.
     *
     * @param engineUrl the engine's HTTP address; {@code stats.json} is read relative to it.
     * @param timeout   for connecting and for the whole answer.
     */
    EngineStatsReader(final URI engineUrl, final Duration timeout)
    {
        final String text = engineUrl.toString();
        this.statsUri = URI.create(text.endsWith("/") ? text : text + "/").resolve("stats.json");
        this.timeout = timeout;
        this.client = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER)
            .build();
    }

    /**
     * Where the figures are read from.
     *
     * @return the {@code stats.json} address.
     */
    URI statsUri()
    {
        return statsUri;
    }

    /**
     * Reads the engine's figures once.
     *
     * @return every numeric field of the engine's stats, by its name, in the engine's order.
     * @throws IOException with what went wrong and the address: not reachable, not answering in time, an HTTP
     *                     status other than 200, an answer too long or not a JSON object of numbers.
     */
    Map<String, Double> read() throws IOException
    {
        final HttpRequest request = HttpRequest.newBuilder(statsUri).timeout(timeout).GET()
            .header("Accept", "application/json").build();
        final HttpResponse<byte[]> response;
        try
        {
            response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted reading " + statsUri, ex);
        }
        catch (final IOException ex)
        {
            throw new IOException("the engine at " + statsUri + " did not answer: " + ex, ex);
        }
        if (200 != response.statusCode())
        {
            throw new IOException("the engine at " + statsUri + " answered HTTP " + response.statusCode());
        }
        final byte[] body = response.body();
        if (body.length > MAX_ANSWER_BYTES)
        {
            throw new IOException("the engine's answer at " + statsUri + " is " + body.length + " bytes, more than " +
                MAX_ANSWER_BYTES);
        }
        return parse(body);
    }

    private Map<String, Double> parse(final byte[] body) throws IOException
    {
        final JsonNode root;
        try
        {
            root = mapper.readTree(body);
        }
        catch (final JacksonException ex)
        {
            throw new IOException("the engine's answer at " + statsUri + " is not JSON: " + ex.getOriginalMessage());
        }
        if (null == root || !root.isObject())
        {
            throw new IOException("the engine's answer at " + statsUri + " is not a JSON object");
        }
        final Map<String, Double> values = new LinkedHashMap<>();
        for (final Map.Entry<String, JsonNode> field : root.properties())
        {
            if (field.getValue().isNumber())
            {
                values.put(field.getKey(), field.getValue().asDouble());
            }
        }
        if (values.isEmpty())
        {
            throw new IOException("the engine's answer at " + statsUri + " has no numbers");
        }
        return values;
    }
}
