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
package io.warpbus.bus;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileLock;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.warpbus.bus.protocol.RingDescriptor;
import io.warpbus.bus.protocol.SubscribeHandshake;
import org.agrona.CloseHelper;
import org.agrona.ErrorHandler;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The publisher's side of the IPC rendezvous in its stream's {@link IpcDirectory}: it holds the stream's publisher
 * lock, rescans the directory for new subscriber rings whenever the generation counter moves, reads each ring's
 * request from its metadata and either hands it to the publication or refuses it with a reason written into the
 * ring. When a subscriber is retired it forgets the ring, and deletes it when the subscriber's process has exited.
 * Conductor thread only.
 */
final class IpcRendezvous
{
    /** The publication's side of a join: the rendezvous finds rings, the publication decides and serves them. */
    interface Admission
    {
        /**
         * Why the publication refuses this subscriber.
         *
         * @param request what the ring asks for.
         * @return the reason, or null to accept.
         */
        String refusal(SubscribeHandshake.Request request);

        /**
         * Start serving an accepted ring.
         *
         * @param file     the ring file.
         * @param mapped   its mapping, now owned by the publication.
         * @param capacity its frame capacity.
         * @param request  what it asks for.
         * @param nowNs    now.
         * @param nowMs    now, epoch milliseconds.
         */
        void admit(
            Path file, MappedByteBuffer mapped, int capacity, SubscribeHandshake.Request request, long nowNs,
            long nowMs);
    }

    private final Path streamDirectory;
    private final int streamId;
    private final String publicationName;
    private final long scanIntervalNs;
    private final long livenessMs;
    private final ErrorHandler errorHandler;
    private final Admission admission;
    private final FileLock lock;
    private final UnsafeBuffer generation;
    private final Set<Path> knownRings = new HashSet<>();
    private long lastGeneration = -1;
    private long nextScanNs;

    /**
     * Map a stream's generation counter for the publisher that holds the stream's lock.
     *
     * @param ipcDirectory      the bus's IPC directory.
     * @param streamId          the stream.
     * @param publicationName   how errors name the publication.
     * @param scanIntervalNs    at most how often to look at the generation counter.
     * @param livenessTimeoutNs how old a ring's heartbeat must be for an exited subscriber's ring to be deleted.
     * @param errorHandler      where refusals and I/O errors are reported.
     * @param admission         the publication.
     * @param lock              the stream's publisher lock ({@link IpcDirectory#lockPublisher}), released by
     *                          {@link #release}.
     */
    IpcRendezvous(
        final Path ipcDirectory,
        final int streamId,
        final String publicationName,
        final long scanIntervalNs,
        final long livenessTimeoutNs,
        final ErrorHandler errorHandler,
        final Admission admission,
        final FileLock lock)
    {
        this.streamDirectory = IpcDirectory.streamDirectory(ipcDirectory, streamId);
        this.streamId = streamId;
        this.publicationName = publicationName;
        this.scanIntervalNs = scanIntervalNs;
        this.livenessMs = TimeUnit.NANOSECONDS.toMillis(livenessTimeoutNs);
        this.errorHandler = errorHandler;
        this.admission = admission;
        this.lock = lock;
        this.generation = IpcDirectory.mapGeneration(streamDirectory);
    }

    /**
     * When the scan interval has passed and the generation counter has moved, look for rings not seen before.
     *
     * @param nowNs now.
     * @param nowMs now, epoch milliseconds.
     * @return rings admitted.
     */
    int poll(final long nowNs, final long nowMs)
    {
        if (nowNs - nextScanNs < 0)
        {
            return 0;
        }
        nextScanNs = nowNs + scanIntervalNs;
        final long current = generation.getLongVolatile(0);
        if (current == lastGeneration)
        {
            return 0;
        }
        lastGeneration = current;
        int attached = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(streamDirectory,
            IpcDirectory.RING_PREFIX + "*" + IpcDirectory.RING_SUFFIX))
        {
            for (final Path file : files)
            {
                if (!knownRings.contains(file) && attach(file, nowNs, nowMs))
                {
                    attached++;
                }
            }
        }
        catch (final IOException ex)
        {
            errorHandler.onError(new BusException("cannot list IPC rings in " + streamDirectory + ": " +
                ex.getMessage(), ex));
        }
        return attached;
    }

    private boolean attach(final Path file, final long nowNs, final long nowMs)
    {
        final MappedByteBuffer mapped;
        try
        {
            mapped = IpcDirectory.mapRing(file);
        }
        catch (final RuntimeException ex)
        {
            return false;
        }
        final UnsafeBuffer ring = new UnsafeBuffer(mapped);
        if (ring.capacity() <= RingDescriptor.TRAILER_LENGTH)
        {
            IoUtil.unmap(mapped);
            return false;
        }
        final int capacity = ring.capacity() - RingDescriptor.TRAILER_LENGTH;
        if (RingDescriptor.SUBSCRIBER_READY != ring.getIntVolatile(capacity +
            RingDescriptor.SUBSCRIBER_STATUS_OFFSET) ||
            RingDescriptor.PUBLISHER_NONE != ring.getIntVolatile(capacity + RingDescriptor.PUBLISHER_STATUS_OFFSET))
        {
            IoUtil.unmap(mapped);
            return false;
        }
        final String name = file.getFileName().toString();
        final SubscribeHandshake.Request request = new SubscribeHandshake.Request(
            ring.getInt(capacity + RingDescriptor.STREAM_ID_OFFSET), 0, 0,
            ring.getInt(capacity + RingDescriptor.CAPACITY_OFFSET),
            ring.getInt(capacity + RingDescriptor.POLICY_OFFSET),
            ring.getLong(capacity + RingDescriptor.RESUME_SEQUENCE_OFFSET),
            ring.getInt(capacity + RingDescriptor.PUBLISHER_SESSION_OFFSET),
            ring.getLong(capacity + RingDescriptor.DROP_LAG_OFFSET),
            ring.getLong(capacity + RingDescriptor.DROP_AFTER_OFFSET), name, 0, -1, -1,
            RingDescriptor.replayEndpoint(ring, capacity));
        String refusal = request.ringCapacity() != capacity ?
            "ring file holds " + capacity + " bytes of frames but declares " + request.ringCapacity() : null;
        if (null == refusal && request.streamId() != streamId)
        {
            refusal = "ring declares stream " + request.streamId() + " in the directory of stream " + streamId;
        }
        if (null == refusal)
        {
            refusal = admission.refusal(request);
        }
        knownRings.add(file);
        if (null != refusal)
        {
            IpcSubscriberLink.reject(ring, capacity, refusal);
            errorHandler.onError(new BusException("publication " + publicationName + " refused IPC subscriber " +
                name + ": " + refusal));
            IoUtil.unmap(mapped);
            return false;
        }
        // Only a conflating subscriber's frames are written into its ring; the others read the log.
        IpcDirectory.preTouch(mapped, SlowConsumerPolicy.CONFLATE.ordinal() == request.policy() ? 0 : capacity);
        admission.admit(file, mapped, capacity, request, nowNs, nowMs);
        return true;
    }

    /**
     * A subscriber served from this ring was retired: forget the ring, so that the subscriber may offer it again,
     * and delete it when the subscriber's process has exited (nobody else would).
     *
     * @param file the ring file.
     */
    void onRetired(final Path file)
    {
        knownRings.remove(file);
        if (IpcDirectory.isOrphan(file, System.currentTimeMillis(), livenessMs))
        {
            try
            {
                Files.deleteIfExists(file);
            }
            catch (final IOException ex)
            {
                errorHandler.onError(new BusException("cannot delete the ring of exited subscriber " + file + ": " +
                    ex.getMessage(), ex));
            }
        }
    }

    /**
     * How long a subscriber may stay silent.
     *
     * @return the liveness timeout in ms.
     */
    long livenessMs()
    {
        return livenessMs;
    }

    /**
     * Give up the stream's publisher lock, so that another publisher may take the stream.
     */
    void release()
    {
        CloseHelper.quietClose(lock.channel());
    }
}
