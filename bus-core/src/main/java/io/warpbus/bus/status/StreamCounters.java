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
package io.warpbus.bus.status;

import java.util.Objects;

import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;

/**
 * Factory for the counters of one publication, subscriber or subscription, each with a type id from
 * {@link CounterTypeIds}, a label naming the entity and its endpoint, and a key a tool can decode.
 * <p>
 * Labels look like {@code pub-pos: stream=1001 session=42 endpoint=10.0.0.5:40456}. Key layout (native byte order,
 * within Agrona's 112-byte key area):
 * <pre>
 *   offset 0   registration id (int64) of the publication or subscription
 *   offset 8   stream id (int32)
 *   offset 12  session id (int32), 0 for the per-stream counters (msgs-in/out, bytes-in/out)
 *   offset 16  subscriber id (int64), sub-pos and sub-lag only, 0 otherwise
 * </pre>
 * The registration id is also the counter's registration id, so
 * {@link CountersReader#findByTypeIdAndRegistrationId(int, long)} finds it; for {@code sub-pos} and {@code sub-lag}
 * the subscriber id is also the counter's reference id.
 * <p>
 * Allocation is not thread-safe (Agrona's rule): allocate from one thread at a time, e.g. the bus's conductor. Close
 * a counter ({@link AtomicCounter#close()}) when its entity goes away so its slot can be reused.
 */
public final class StreamCounters
{
    /** Label prefix of publisher position counters. */
    public static final String PUBLISHER_POSITION_NAME = "pub-pos";
    /** Label prefix of publisher limit counters. */
    public static final String PUBLISHER_LIMIT_NAME = "pub-lmt";
    /** Label prefix of per-subscriber position counters. */
    public static final String SUBSCRIBER_POSITION_NAME = "sub-pos";
    /** Label prefix of per-subscriber lag counters. */
    public static final String SUBSCRIBER_LAG_NAME = "sub-lag";
    /** Label prefix of subscription image position counters. */
    public static final String IMAGE_POSITION_NAME = "img-pos";
    /** Label prefix of per-stream messages received counters. */
    public static final String MESSAGES_IN_NAME = "msgs-in";
    /** Label prefix of per-stream messages sent counters. */
    public static final String MESSAGES_OUT_NAME = "msgs-out";
    /** Label prefix of per-stream bytes received counters. */
    public static final String BYTES_IN_NAME = "bytes-in";
    /** Label prefix of per-stream bytes sent counters. */
    public static final String BYTES_OUT_NAME = "bytes-out";

    /** Key offset of the registration id (int64). */
    public static final int REGISTRATION_ID_KEY_OFFSET = 0;
    /** Key offset of the stream id (int32). */
    public static final int STREAM_ID_KEY_OFFSET = 8;
    /** Key offset of the session id (int32). */
    public static final int SESSION_ID_KEY_OFFSET = 12;
    /** Key offset of the subscriber id (int64). */
    public static final int SUBSCRIBER_ID_KEY_OFFSET = 16;

    private StreamCounters()
    {
    }

    /**
     * {@code pub-pos}: a publication's position.
     *
     * @param countersManager to allocate from.
     * @param registrationId  of the publication.
     * @param streamId        of the publication.
     * @param sessionId       of the publication.
     * @param endpoint        where the publication is reachable, e.g. {@code 10.0.0.5:40456}.
     * @return the new counter.
     */
    public static AtomicCounter publisherPosition(
        final CountersManager countersManager,
        final long registrationId,
        final int streamId,
        final int sessionId,
        final String endpoint)
    {
        return allocate(countersManager, CounterTypeIds.PUBLISHER_POSITION, PUBLISHER_POSITION_NAME, registrationId,
            streamId, sessionId, 0, sessionLabel(streamId, sessionId) + " endpoint=" + text(endpoint, "endpoint"));
    }

    /**
     * {@code pub-lmt}: how far a publication may advance before it is back-pressured.
     *
     * @param countersManager to allocate from.
     * @param registrationId  of the publication.
     * @param streamId        of the publication.
     * @param sessionId       of the publication.
     * @param endpoint        where the publication is reachable, e.g. {@code 10.0.0.5:40456}.
     * @return the new counter.
     */
    public static AtomicCounter publisherLimit(
        final CountersManager countersManager,
        final long registrationId,
        final int streamId,
        final int sessionId,
        final String endpoint)
    {
        return allocate(countersManager, CounterTypeIds.PUBLISHER_LIMIT, PUBLISHER_LIMIT_NAME, registrationId,
            streamId, sessionId, 0, sessionLabel(streamId, sessionId) + " endpoint=" + text(endpoint, "endpoint"));
    }

    /**
     * {@code sub-pos}: one subscriber's position as seen by the publisher.
     *
     * @param countersManager to allocate from.
     * @param registrationId  of the publication.
     * @param streamId        of the publication.
     * @param sessionId       of the publication.
     * @param subscriberId    identifies the subscriber within the publication.
     * @param subscriberName  names the subscriber for people, e.g. its remote address {@code 10.0.0.9:51000} or
     *                        an application name.
     * @return the new counter.
     */
    public static AtomicCounter subscriberPosition(
        final CountersManager countersManager,
        final long registrationId,
        final int streamId,
        final int sessionId,
        final long subscriberId,
        final String subscriberName)
    {
        return allocate(countersManager, CounterTypeIds.SUBSCRIBER_POSITION, SUBSCRIBER_POSITION_NAME,
            registrationId, streamId, sessionId, subscriberId,
            subscriberLabel(streamId, sessionId, subscriberId, subscriberName));
    }

    /**
     * {@code sub-lag}: how many bytes one subscriber is behind the publisher.
     *
     * @param countersManager to allocate from.
     * @param registrationId  of the publication.
     * @param streamId        of the publication.
     * @param sessionId       of the publication.
     * @param subscriberId    identifies the subscriber within the publication.
     * @param subscriberName  names the subscriber for people, e.g. its remote address {@code 10.0.0.9:51000} or
     *                        an application name.
     * @return the new counter.
     */
    public static AtomicCounter subscriberLag(
        final CountersManager countersManager,
        final long registrationId,
        final int streamId,
        final int sessionId,
        final long subscriberId,
        final String subscriberName)
    {
        return allocate(countersManager, CounterTypeIds.SUBSCRIBER_LAG, SUBSCRIBER_LAG_NAME,
            registrationId, streamId, sessionId, subscriberId,
            subscriberLabel(streamId, sessionId, subscriberId, subscriberName));
    }

    /**
     * {@code img-pos}: a subscription's position in the image of one publisher session.
     *
     * @param countersManager to allocate from.
     * @param registrationId  of the subscription.
     * @param streamId        of the image.
     * @param sessionId       of the image (the publisher's session).
     * @param source          where the image comes from, e.g. the publisher's address {@code 10.0.0.5:40456}.
     * @return the new counter.
     */
    public static AtomicCounter imagePosition(
        final CountersManager countersManager,
        final long registrationId,
        final int streamId,
        final int sessionId,
        final String source)
    {
        return allocate(countersManager, CounterTypeIds.IMAGE_POSITION, IMAGE_POSITION_NAME, registrationId,
            streamId, sessionId, 0, sessionLabel(streamId, sessionId) + " source=" + text(source, "source"));
    }

    /**
     * {@code msgs-in}: messages received on a stream.
     *
     * @param countersManager to allocate from.
     * @param registrationId  of the subscription.
     * @param streamId        of the stream.
     * @param endpoint        the subscription's endpoint, e.g. {@code 10.0.0.5:40456}.
     * @return the new counter.
     */
    public static AtomicCounter messagesIn(
        final CountersManager countersManager, final long registrationId, final int streamId, final String endpoint)
    {
        return streamCounter(
            countersManager, CounterTypeIds.STREAM_MESSAGES_IN, MESSAGES_IN_NAME, registrationId, streamId, endpoint);
    }

    /**
     * {@code msgs-out}: messages sent on a stream.
     *
     * @param countersManager to allocate from.
     * @param registrationId  of the publication.
     * @param streamId        of the stream.
     * @param endpoint        the publication's endpoint, e.g. {@code 10.0.0.5:40456}.
     * @return the new counter.
     */
    public static AtomicCounter messagesOut(
        final CountersManager countersManager, final long registrationId, final int streamId, final String endpoint)
    {
        return streamCounter(
            countersManager, CounterTypeIds.STREAM_MESSAGES_OUT, MESSAGES_OUT_NAME, registrationId, streamId, endpoint);
    }

    /**
     * {@code bytes-in}: payload bytes received on a stream.
     *
     * @param countersManager to allocate from.
     * @param registrationId  of the subscription.
     * @param streamId        of the stream.
     * @param endpoint        the subscription's endpoint, e.g. {@code 10.0.0.5:40456}.
     * @return the new counter.
     */
    public static AtomicCounter bytesIn(
        final CountersManager countersManager, final long registrationId, final int streamId, final String endpoint)
    {
        return streamCounter(
            countersManager, CounterTypeIds.STREAM_BYTES_IN, BYTES_IN_NAME, registrationId, streamId, endpoint);
    }

    /**
     * {@code bytes-out}: payload bytes sent on a stream.
     *
     * @param countersManager to allocate from.
     * @param registrationId  of the publication.
     * @param streamId        of the stream.
     * @param endpoint        the publication's endpoint, e.g. {@code 10.0.0.5:40456}.
     * @return the new counter.
     */
    public static AtomicCounter bytesOut(
        final CountersManager countersManager, final long registrationId, final int streamId, final String endpoint)
    {
        return streamCounter(
            countersManager, CounterTypeIds.STREAM_BYTES_OUT, BYTES_OUT_NAME, registrationId, streamId, endpoint);
    }

    private static AtomicCounter streamCounter(
        final CountersManager countersManager,
        final int typeId,
        final String name,
        final long registrationId,
        final int streamId,
        final String endpoint)
    {
        return allocate(countersManager, typeId, name, registrationId, streamId, 0, 0,
            "stream=" + streamId + " endpoint=" + text(endpoint, "endpoint"));
    }

    private static String sessionLabel(final int streamId, final int sessionId)
    {
        return "stream=" + streamId + " session=" + sessionId;
    }

    private static String subscriberLabel(
        final int streamId, final int sessionId, final long subscriberId, final String subscriberName)
    {
        return sessionLabel(streamId, sessionId) + " subscriber=" + subscriberId + " name=" +
            text(subscriberName, "subscriberName");
    }

    private static String text(final String value, final String what)
    {
        return Objects.requireNonNull(value, what);
    }

    private static AtomicCounter allocate(
        final CountersManager countersManager,
        final int typeId,
        final String name,
        final long registrationId,
        final int streamId,
        final int sessionId,
        final long subscriberId,
        final String details)
    {
        final String label = name + ": " + details;
        final AtomicCounter counter = countersManager.newCounter(
            label.length() > CountersReader.MAX_LABEL_LENGTH ? label.substring(0, CountersReader.MAX_LABEL_LENGTH) :
                label,
            typeId,
            (keyBuffer) ->
            {
                keyBuffer.putLong(REGISTRATION_ID_KEY_OFFSET, registrationId);
                keyBuffer.putInt(STREAM_ID_KEY_OFFSET, streamId);
                keyBuffer.putInt(SESSION_ID_KEY_OFFSET, sessionId);
                keyBuffer.putLong(SUBSCRIBER_ID_KEY_OFFSET, subscriberId);
            });
        countersManager.setCounterRegistrationId(counter.id(), registrationId);
        if (0 != subscriberId)
        {
            countersManager.setCounterReferenceId(counter.id(), subscriberId);
        }
        return counter;
    }
}
