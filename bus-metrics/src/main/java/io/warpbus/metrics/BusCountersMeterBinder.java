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
package io.warpbus.metrics;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.warpbus.bus.status.CounterTypeIds;
import io.warpbus.bus.status.SystemCounterDescriptor;
import io.warpbus.iwarp.RnicCounters;
import org.agrona.concurrent.status.CountersReader;

/**
 * Exposes every counter of a bus-core counters file (the bus's system counters, the per-stream publication,
 * subscriber and image counters, the iWARP engine's counters) as Micrometer meters with stable names and tags, so
 * that every WarpBus process (gateway, matching engine, recorder) exports the same series. It only reads the file:
 * the counters stay the source of truth.
 * <p>
 * Names (Prometheus adds {@code _total} to counters):
 * <ul>
 *     <li>system counters: {@code warpbus.bus.<id in lower case, dots for underscores>}, e.g.
 *     {@code warpbus.bus.slow.consumer.drops}; {@code warpbus.bus.duty.cycle.max.ns} is a gauge;</li>
 *     <li>streams: {@code warpbus.publication.position}, {@code .limit}, {@code .back.pressure};
 *     {@code warpbus.subscriber.position}, {@code warpbus.subscriber.lag} (bytes behind);
 *     {@code warpbus.image.position}; {@code warpbus.stream.messages.received}, {@code .sent},
 *     {@code warpbus.stream.bytes.received}, {@code .sent}; {@code warpbus.subscription.gaps}; tagged
 *     {@code stream}, and {@code session}, {@code subscriber} (its name), {@code remote} (a remote subscriber's
 *     address and port) and {@code endpoint} where the counter has them;</li>
 *     <li>the engine: {@code warpbus.rnic.<what>}, e.g. {@code warpbus.rnic.crc.errors}, tagged {@code rnic}.</li>
 * </ul>
 * Counters come and go with publications and subscribers: {@link #refresh()} (every second with
 * {@link #refreshEvery}) adds meters for new counters and removes those whose counter was freed.
 */
public final class BusCountersMeterBinder implements MeterBinder, AutoCloseable
{
    private final CountersReader reader;
    private final Tags commonTags;
    private final Map<Integer, Bound> bound = new HashMap<>();
    private MeterRegistry registry;
    private ScheduledExecutorService refresher;

    private record Bound(long registrationId, int typeId, String label, Meter meter)
    {
    }

    /**
     * A binder over a counters file.
     *
     * @param reader     the file's counters.
     * @param commonTags added to every meter (e.g. the bus's name).
     */
    public BusCountersMeterBinder(final CountersReader reader, final Iterable<Tag> commonTags)
    {
        this.reader = reader;
        this.commonTags = Tags.of(commonTags);
    }

    @Override
    public synchronized void bindTo(final MeterRegistry registry)
    {
        this.registry = registry;
        refresh();
    }

    /**
     * Refresh the meters in the background.
     *
     * @param periodMs how often.
     * @return this.
     */
    public synchronized BusCountersMeterBinder refreshEvery(final long periodMs)
    {
        if (null == refresher)
        {
            refresher = Executors.newSingleThreadScheduledExecutor((task) ->
            {
                final Thread thread = new Thread(task, "warpbus-counters-meters");
                thread.setDaemon(true);
                return thread;
            });
            refresher.scheduleWithFixedDelay(this::refresh, periodMs, periodMs, TimeUnit.MILLISECONDS);
        }
        return this;
    }

    /**
     * Add meters for new counters and remove those of freed ones.
     */
    public synchronized void refresh()
    {
        if (null == registry)
        {
            return;
        }
        final Map<Integer, Bound> seen = new HashMap<>();
        reader.forEach((counterId, typeId, keyBuffer, label) ->
        {
            final long registrationId = reader.getCounterRegistrationId(counterId);
            final Bound existing = bound.get(counterId);
            if (null != existing && existing.typeId == typeId && existing.registrationId == registrationId &&
                existing.label.equals(label))
            {
                seen.put(counterId, existing);
                return;
            }
            if (null != existing)
            {
                registry.remove(existing.meter);
            }
            final Meter meter = register(counterId, typeId, keyBuffer.getInt(0), label);
            if (null != meter)
            {
                seen.put(counterId, new Bound(registrationId, typeId, label, meter));
            }
        });
        for (final Map.Entry<Integer, Bound> entry : bound.entrySet())
        {
            if (!seen.containsKey(entry.getKey()))
            {
                registry.remove(entry.getValue().meter);
            }
        }
        bound.clear();
        bound.putAll(seen);
    }

    /**
     * The meters bound now.
     *
     * @return their count.
     */
    public synchronized int meterCount()
    {
        return bound.size();
    }

    @Override
    public synchronized void close()
    {
        if (null != refresher)
        {
            refresher.shutdownNow();
        }
        if (null != registry)
        {
            for (final Bound b : bound.values())
            {
                registry.remove(b.meter);
            }
        }
        bound.clear();
    }

    private Meter register(final int counterId, final int typeId, final int key, final String label)
    {
        switch (typeId)
        {
            case CounterTypeIds.SYSTEM_COUNTER:
            {
                final SystemCounterDescriptor descriptor = SystemCounterDescriptor.find(key);
                if (null == descriptor)
                {
                    return null;
                }
                final String name = "warpbus.bus." + dotted(descriptor.name());
                return SystemCounterDescriptor.DUTY_CYCLE_MAX_NS == descriptor ?
                    gauge(counterId, name, descriptor.label(), commonTags) :
                    counter(counterId, name, descriptor.label(), commonTags);
            }
            case CounterTypeIds.PUBLISHER_POSITION:
                return gauge(counterId, "warpbus.publication.position", "bytes published", streamTags(label));
            case CounterTypeIds.PUBLISHER_LIMIT:
                return gauge(counterId, "warpbus.publication.limit", "position the publication may reach",
                    streamTags(label));
            case CounterTypeIds.SUBSCRIBER_POSITION:
                return gauge(counterId, "warpbus.subscriber.position", "subscriber's consumed position",
                    streamTags(label));
            case CounterTypeIds.SUBSCRIBER_LAG:
                return gauge(counterId, "warpbus.subscriber.lag", "bytes the subscriber is behind", streamTags(label));
            case CounterTypeIds.IMAGE_POSITION:
                return gauge(counterId, "warpbus.image.position", "subscription image position", streamTags(label));
            case CounterTypeIds.STREAM_MESSAGES_IN:
                return counter(counterId, "warpbus.stream.messages.received", "messages received",
                    streamTags(label));
            case CounterTypeIds.STREAM_MESSAGES_OUT:
                return counter(counterId, "warpbus.stream.messages.sent", "messages sent", streamTags(label));
            case CounterTypeIds.STREAM_BYTES_IN:
                return counter(counterId, "warpbus.stream.bytes.received", "payload bytes received",
                    streamTags(label));
            case CounterTypeIds.STREAM_BYTES_OUT:
                return counter(counterId, "warpbus.stream.bytes.sent", "payload bytes sent", streamTags(label));
            case CounterTypeIds.BACK_PRESSURE:
                return counter(counterId, "warpbus.publication.back.pressure", "offers refused at the limit",
                    streamTags(label));
            case CounterTypeIds.GAPS:
                return counter(counterId, "warpbus.subscription.gaps", "gaps seen", streamTags(label));
            case RnicCounters.TYPE_ID:
            {
                final int colon = label.indexOf(": ");
                if (colon < 0)
                {
                    return null;
                }
                return counter(counterId, "warpbus.rnic." + dotted(label.substring(colon + 2)),
                    label.substring(colon + 2), commonTags.and("rnic", label.substring(0, colon)));
            }
            default:
                return null;
        }
    }

    private Meter gauge(final int counterId, final String name, final String description, final Tags tags)
    {
        return Gauge.builder(name, reader, (r) -> r.getCounterValue(counterId))
            .description(description)
            .tags(tags)
            .register(registry);
    }

    private Meter counter(final int counterId, final String name, final String description, final Tags tags)
    {
        return FunctionCounter.builder(name, reader, (r) -> r.getCounterValue(counterId))
            .description(description)
            .tags(tags)
            .register(registry);
    }

    /**
     * Tags of a stream counter from its label ({@code sub-lag: stream=1001 session=42 subscriber=7 name=gw-1}).
     */
    private Tags streamTags(final String label)
    {
        final List<Tag> tags = new ArrayList<>();
        final int colon = label.indexOf(": ");
        for (final String part : label.substring(colon < 0 ? 0 : colon + 2).split(" "))
        {
            final int equals = part.indexOf('=');
            if (equals <= 0)
            {
                continue;
            }
            final String key = part.substring(0, equals);
            final String value = part.substring(equals + 1);
            switch (key)
            {
                case "stream":
                case "session":
                case "endpoint":
                    tags.add(Tag.of(key, value));
                    break;
                case "name":
                    // A subscriber over iWARP is named "name@/address:port" by the publisher; IPC ones just "name".
                    final int at = value.lastIndexOf('@');
                    tags.add(Tag.of("subscriber", at < 0 ? value : value.substring(0, at)));
                    if (at >= 0)
                    {
                        tags.add(Tag.of("remote", value.substring(value.charAt(at + 1) == '/' ? at + 2 : at + 1)));
                    }
                    break;
                default:
                    break;
            }
        }
        return commonTags.and(tags);
    }

    static String dotted(final String text)
    {
        final StringBuilder builder = new StringBuilder(text.length());
        boolean dot = false;
        for (int i = 0; i < text.length(); i++)
        {
            final char c = Character.toLowerCase(text.charAt(i));
            if (Character.isLetterOrDigit(c))
            {
                if (dot && builder.length() > 0)
                {
                    builder.append('.');
                }
                builder.append(c);
                dot = false;
            }
            else
            {
                dot = true;
            }
        }
        return builder.toString();
    }
}
