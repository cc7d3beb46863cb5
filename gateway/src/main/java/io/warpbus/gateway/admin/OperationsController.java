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

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.warpbus.bus.ChannelUri;
import io.warpbus.gateway.config.GatewayProperties;
import io.warpbus.gateway.session.SessionCore;
import io.warpbus.gateway.session.SessionInfo;
import org.agrona.concurrent.SystemNanoClock;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * {@code GET /api/admin/operations} (admin role, as all of {@code /api/admin}): everything the web page's operations
 * view shows, in one answer. The last five minutes of one-second samples ({@link OperationsSampler}); the engine link's
 * state; the matching engine's own counters, read from its HTTP side when its address is configured; the gateway's
 * counters; its bus's system counters and iWARP engine counters; its publications with their subscribers' positions
 * and lag; its subscriptions with their channel's slow-consumer policy, position and gaps; and its sessions with
 * their age, message rates and queue depth. Counters are read from the meter registry, which the gateway's binders
 * fill from the counters files: the same values Prometheus scrapes.
 */
@RestController
@RequestMapping("/api/admin")
class OperationsController
{
    private final OperationsSampler sampler;
    private final MeterRegistry registry;
    private final SessionCore core;
    private final GatewayProperties properties;
    private final SessionRates sessionRates = new SessionRates(SystemNanoClock.INSTANCE);

    OperationsController(final OperationsSampler sampler, final MeterRegistry registry, final SessionCore core,
        final GatewayProperties properties)
    {
        this.sampler = sampler;
        this.registry = registry;
        this.core = core;
        this.properties = properties;
    }

    @GetMapping("/operations")
    Map<String, Object> operations()
    {
        final long nowMs = System.currentTimeMillis();
        final Map<String, Object> result = new LinkedHashMap<>();
        result.put("timeMs", nowMs);
        result.put("gatewayName", properties.name());
        result.put("series", sampler.series());
        result.put("samplerError", sampler.lastError());
        final Map<String, Object> engine = new LinkedHashMap<>();
        engine.put("engine connected", core.isEngineConnected());
        engine.put("engine caught up", core.isEngineCaughtUp());
        engine.put("market data connected", core.isMarketDataConnected());
        result.put("engine", engine);
        final Map<String, Object> matchingEngine = new LinkedHashMap<>();
        matchingEngine.put("source", sampler.engineSource());
        matchingEngine.put("error", sampler.engineError());
        final Map<String, Long> engineCounters = new LinkedHashMap<>();
        sampler.engineCounters().forEach((name, value) -> engineCounters.put(name, Math.round(value)));
        matchingEngine.put("counters", engineCounters);
        result.put("matchingEngine", matchingEngine);
        result.put("gateway", counters("warpbus.gateway."));
        result.put("bus", counters("warpbus.bus."));
        result.put("rnic", counters("warpbus.rnic."));
        result.put("publications", publications());
        result.put("subscriptions", subscriptions());
        result.put("sessions", sessions(nowMs));
        return result;
    }

    /**
     * Counters and gauges whose name starts with a prefix, by the rest of the name and their own tags.
     */
    private Map<String, Object> counters(final String prefix)
    {
        final Map<String, Object> values = new TreeMap<>();
        for (final Meter meter : registry.getMeters())
        {
            final String name = meter.getId().getName();
            if (name.startsWith(prefix) && (meter instanceof FunctionCounter || meter instanceof Gauge ||
                meter instanceof io.micrometer.core.instrument.Counter))
            {
                final StringBuilder key = new StringBuilder(name.substring(prefix.length()));
                for (final Tag tag : meter.getId().getTags())
                {
                    if (!"application".equals(tag.getKey()) && !"gateway".equals(tag.getKey()) &&
                        !"bus".equals(tag.getKey()))
                    {
                        key.append(' ').append(tag.getKey()).append('=').append(tag.getValue());
                    }
                }
                values.put(key.toString(), (long)OperationsSampler.value(meter));
            }
        }
        return values;
    }

    private List<Map<String, Object>> publications()
    {
        final Map<String, Map<String, Object>> byPublication = new TreeMap<>();
        for (final Meter meter : registry.find("warpbus.publication.position").meters())
        {
            final Map<String, Object> row = new LinkedHashMap<>();
            row.put("stream", tag(meter, "stream"));
            row.put("session", tag(meter, "session"));
            row.put("endpoint", tag(meter, "endpoint"));
            row.put("position", (long)OperationsSampler.value(meter));
            row.put("limit", (long)valueOf("warpbus.publication.limit", meter));
            row.put("backPressure", (long)valueOf("warpbus.publication.back.pressure", meter));
            byPublication.put(tag(meter, "stream") + "/" + tag(meter, "session"), row);
        }
        final List<Map<String, Object>> rows = new ArrayList<>();
        final Map<String, Boolean> withSubscriber = new HashMap<>();
        for (final Meter meter : registry.find("warpbus.subscriber.position").meters())
        {
            final String key = tag(meter, "stream") + "/" + tag(meter, "session");
            final Map<String, Object> publication = byPublication.get(key);
            final Map<String, Object> row = new LinkedHashMap<>(null == publication ? Map.of("stream",
                tag(meter, "stream"), "session", tag(meter, "session"), "endpoint", "") : publication);
            final String remote = tag(meter, "remote");
            row.put("subscriber", tag(meter, "subscriber") + (remote.isEmpty() ? "" : " @ " + remote));
            row.put("subscriberPosition", (long)OperationsSampler.value(meter));
            row.put("lag", (long)valueOf("warpbus.subscriber.lag", meter));
            rows.add(row);
            withSubscriber.put(key, true);
        }
        for (final Map.Entry<String, Map<String, Object>> entry : byPublication.entrySet())
        {
            if (!withSubscriber.containsKey(entry.getKey()))
            {
                rows.add(entry.getValue());
            }
        }
        return rows;
    }

    private List<Map<String, Object>> subscriptions()
    {
        final GatewayProperties.Channels channels = properties.channels();
        final List<Map<String, Object>> rows = new ArrayList<>();
        subscription(rows, "execution reports", channels.executionReports());
        subscription(rows, "market data", channels.marketData());
        subscription(rows, "snapshots", channels.snapshots());
        if (null != channels.dropCopy() && !channels.dropCopy().isBlank())
        {
            subscription(rows, "drop copy", channels.dropCopy());
        }
        return rows;
    }

    private void subscription(final List<Map<String, Object>> rows, final String channel, final String uri)
    {
        final Map<String, Object> row = new LinkedHashMap<>();
        row.put("channel", channel);
        row.put("uri", uri);
        final ChannelUri parsed = ChannelUri.parse(uri);
        final String stream = String.valueOf(parsed.streamId());
        row.put("stream", parsed.streamId());
        row.put("policy", parsed.policy().name().toLowerCase());
        Long position = null;
        for (final Meter meter : registry.find("warpbus.image.position").tag("stream", stream).meters())
        {
            position = Math.max(null == position ? 0 : position, (long)OperationsSampler.value(meter));
        }
        row.put("position", position);
        long gaps = 0;
        for (final Meter meter : registry.find("warpbus.subscription.gaps").tag("stream", stream).meters())
        {
            gaps += (long)OperationsSampler.value(meter);
        }
        row.put("gaps", gaps);
        long messages = 0;
        for (final Meter meter : registry.find("warpbus.stream.messages.received").tag("stream", stream).meters())
        {
            messages += (long)OperationsSampler.value(meter);
        }
        row.put("messages", messages);
        rows.add(row);
    }

    private synchronized List<Map<String, Object>> sessions(final long nowMs)
    {
        final List<SessionInfo> sessions;
        try
        {
            sessions = core.sessions().get(AdminController.TIMEOUT_MS, TimeUnit.MILLISECONDS);
        }
        catch (final TimeoutException | ExecutionException ex)
        {
            throw new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE, "the session core did not list its " +
                "sessions within " + AdminController.TIMEOUT_MS + " ms: " + ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE, "interrupted");
        }
        final Map<String, double[]> rates = sessionRates.update(sessions);
        final List<Map<String, Object>> rows = new ArrayList<>();
        for (final SessionInfo session : sessions)
        {
            final Map<String, Object> row = new LinkedHashMap<>();
            row.put("token", session.token());
            row.put("user", session.user());
            row.put("name", session.name());
            row.put("address", session.address());
            row.put("state", session.state());
            row.put("ageMs", nowMs - session.createdEpochMs());
            row.put("lastSeq", session.lastSeq());
            row.put("messagesIn", session.messagesIn());
            row.put("messagesOut", session.messagesOut());
            final double[] rate = rates.get(session.token());
            row.put("messagesInPerS", rate[0]);
            row.put("messagesOutPerS", rate[1]);
            row.put("openOrders", session.openOrders());
            row.put("subscriptions", session.subscriptions());
            row.put("conflatedUpdates", session.conflatedUpdates());
            row.put("queueBytes", session.queueBytes());
            row.put("queueCapacity", session.queueCapacity());
            rows.add(row);
        }
        return rows;
    }

    private double valueOf(final String name, final Meter like)
    {
        final Meter meter = registry.find(name).tags(like.getId().getTags()).meter();
        return null == meter ? 0 : OperationsSampler.value(meter);
    }

    private static String tag(final Meter meter, final String key)
    {
        final String value = meter.getId().getTag(key);
        return null == value ? "" : value;
    }
}
