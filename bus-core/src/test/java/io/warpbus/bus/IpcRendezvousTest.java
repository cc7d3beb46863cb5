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

import java.nio.MappedByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.warpbus.bus.protocol.RingDescriptor;
import io.warpbus.bus.protocol.SubscribeHandshake;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class IpcRendezvousTest
{
    private static final int STREAM_ID = 1001;
    private static final int CAPACITY = 64 * 1024;
    private static final long SCAN_INTERVAL_NS = 1_000;
    private static final long LIVENESS_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(5);
    /** Above any pid_max, so never a running process. */
    private static final long EXITED_PID = Integer.MAX_VALUE - 1L;

    @TempDir
    Path dir;
    private final List<Throwable> errors = new ArrayList<>();
    private final List<SubscribeHandshake.Request> admitted = new ArrayList<>();
    private final List<MappedByteBuffer> mappings = new ArrayList<>();
    private String refusal;
    private IpcRendezvous rendezvous;
    private UnsafeBuffer generation;

    @AfterEach
    void tearDown()
    {
        if (null != rendezvous)
        {
            rendezvous.release();
        }
        mappings.forEach(IoUtil::unmap);
    }

    @Test
    void shouldLetOnlyOnePublisherHoldAStreamUntilItReleasesIt()
    {
        start();

        final BusException ex = assertThrows(BusException.class, this::newRendezvous);
        assertEquals("IPC stream 1001 already has a publisher in this process", ex.getMessage());

        rendezvous.release();
        rendezvous = newRendezvous();
    }

    @Test
    void shouldAdmitAReadyRingOnceWhenTheGenerationMoves()
    {
        start();
        final Path file = offerRing(ProcessHandle.current().pid(), STREAM_ID);

        assertEquals(1, rendezvous.poll(0, 0));
        assertEquals(1, admitted.size());
        assertEquals(file.getFileName().toString(), admitted.get(0).name());
        assertEquals(CAPACITY, admitted.get(0).ringCapacity());

        assertEquals(0, rendezvous.poll(SCAN_INTERVAL_NS - 1, 0), "not before the scan interval");
        offerRing(ProcessHandle.current().pid(), STREAM_ID);
        IpcDirectory.bumpGeneration(generation);
        assertEquals(1, rendezvous.poll(SCAN_INTERVAL_NS, 0), "only the new ring");
        assertEquals(2, admitted.size());
        assertTrue(errors.isEmpty(), errors::toString);
    }

    @Test
    void shouldNotRescanWhileTheGenerationStandsStill()
    {
        start();
        offerRing(ProcessHandle.current().pid(), STREAM_ID);
        assertEquals(1, rendezvous.poll(0, 0));

        final Path file = ring(ProcessHandle.current().pid());
        markReady(newRing(file), STREAM_ID);

        assertEquals(0, rendezvous.poll(SCAN_INTERVAL_NS, 0));
        assertEquals(1, admitted.size());
    }

    @Test
    void shouldRefuseARingOfAnotherStreamWithTheReasonInTheRing()
    {
        start();
        final Path file = offerRing(ProcessHandle.current().pid(), 999);

        assertEquals(0, rendezvous.poll(0, 0));

        assertTrue(admitted.isEmpty());
        final UnsafeBuffer ring = mapRing(file);
        assertEquals(RingDescriptor.PUBLISHER_REJECTED,
            ring.getIntVolatile(CAPACITY + RingDescriptor.PUBLISHER_STATUS_OFFSET));
        assertEquals("ring declares stream 999 in the directory of stream 1001",
            RingDescriptor.reason(ring, CAPACITY + RingDescriptor.REASON_OFFSET));
        assertEquals(1, errors.size());
        assertEquals("publication pub-1 refused IPC subscriber " + file.getFileName() +
            ": ring declares stream 999 in the directory of stream 1001", errors.get(0).getMessage());
    }

    @Test
    void shouldWriteThePublicationsRefusalIntoTheRing()
    {
        start();
        refusal = "publication on stream 1001 is closing";
        final Path file = offerRing(ProcessHandle.current().pid(), STREAM_ID);

        assertEquals(0, rendezvous.poll(0, 0));

        final UnsafeBuffer ring = mapRing(file);
        assertEquals(RingDescriptor.PUBLISHER_REJECTED,
            ring.getIntVolatile(CAPACITY + RingDescriptor.PUBLISHER_STATUS_OFFSET));
        assertEquals(refusal, RingDescriptor.reason(ring, CAPACITY + RingDescriptor.REASON_OFFSET));
    }

    @Test
    void shouldOfferARetiredRingAgainOnTheNextScan()
    {
        start();
        final Path file = offerRing(ProcessHandle.current().pid(), STREAM_ID);
        assertEquals(1, rendezvous.poll(0, 0));

        rendezvous.onRetired(file);
        IpcDirectory.bumpGeneration(generation);

        assertTrue(Files.exists(file), "its subscriber is alive");
        assertEquals(1, rendezvous.poll(SCAN_INTERVAL_NS, 0));
        assertEquals(2, admitted.size());
    }

    @Test
    void shouldDeleteTheRingOfAnExitedSubscriberWhenItIsRetired()
    {
        start();
        final Path file = offerRing(EXITED_PID, STREAM_ID);
        heartbeat(file, 0);
        assertEquals(1, rendezvous.poll(0, 0));

        rendezvous.onRetired(file);

        assertFalse(Files.exists(file));
        assertTrue(errors.isEmpty(), errors::toString);
    }

    @Test
    void shouldKeepTheRingOfAnExitedPidWhileItsHeartbeatIsFresh()
    {
        start();
        // Another PID namespace (a container sharing /dev/shm): its pid means nothing here, its heartbeat does.
        final Path file = offerRing(EXITED_PID, STREAM_ID);
        heartbeat(file, System.currentTimeMillis());
        assertEquals(1, rendezvous.poll(0, 0));

        rendezvous.onRetired(file);

        assertTrue(Files.exists(file));
    }

    private void start()
    {
        rendezvous = newRendezvous();
        generation = IpcDirectory.mapGeneration(IpcDirectory.streamDirectory(dir, STREAM_ID));
    }

    private IpcRendezvous newRendezvous()
    {
        return new IpcRendezvous(dir, STREAM_ID, "pub-1", SCAN_INTERVAL_NS, LIVENESS_TIMEOUT_NS, errors::add,
            new IpcRendezvous.Admission()
            {
                @Override
                public String refusal(final SubscribeHandshake.Request request)
                {
                    return refusal;
                }

                @Override
                public void admit(
                    final Path file,
                    final MappedByteBuffer mapped,
                    final int capacity,
                    final SubscribeHandshake.Request request,
                    final long nowNs,
                    final long nowMs)
                {
                    mappings.add(mapped);
                    admitted.add(request);
                }
            }, IpcDirectory.lockPublisher(IpcDirectory.streamDirectory(dir, STREAM_ID), STREAM_ID));
    }

    private Path ring(final long pid)
    {
        return IpcDirectory.streamDirectory(dir, STREAM_ID).resolve(IpcDirectory.RING_PREFIX + pid + "-" +
            admitted.size() + "-" + System.nanoTime() + IpcDirectory.RING_SUFFIX);
    }

    /** Create a ring as a subscription does: metadata, ready, then a bump of the generation. */
    private Path offerRing(final long pid, final int streamId)
    {
        final Path file = ring(pid);
        markReady(newRing(file), streamId);
        IpcDirectory.bumpGeneration(generation);
        return file;
    }

    private UnsafeBuffer newRing(final Path file)
    {
        final MappedByteBuffer mapped = IpcDirectory.createRing(file, CAPACITY, false);
        mappings.add(mapped);
        return new UnsafeBuffer(mapped);
    }

    private UnsafeBuffer mapRing(final Path file)
    {
        final MappedByteBuffer mapped = IpcDirectory.mapRing(file);
        mappings.add(mapped);
        return new UnsafeBuffer(mapped);
    }

    private static void markReady(final UnsafeBuffer ring, final int streamId)
    {
        ring.putInt(CAPACITY + RingDescriptor.STREAM_ID_OFFSET, streamId);
        ring.putInt(CAPACITY + RingDescriptor.CAPACITY_OFFSET, CAPACITY);
        ring.putInt(CAPACITY + RingDescriptor.POLICY_OFFSET, SlowConsumerPolicy.BLOCK.ordinal());
        ring.putLong(CAPACITY + RingDescriptor.RESUME_SEQUENCE_OFFSET, -1);
        ring.putLongOrdered(CAPACITY + RingDescriptor.SUBSCRIBER_HEARTBEAT_OFFSET, System.currentTimeMillis());
        ring.putIntOrdered(CAPACITY + RingDescriptor.SUBSCRIBER_STATUS_OFFSET, RingDescriptor.SUBSCRIBER_READY);
    }

    private void heartbeat(final Path file, final long epochMs)
    {
        mapRing(file).putLongOrdered(CAPACITY + RingDescriptor.SUBSCRIBER_HEARTBEAT_OFFSET, epochMs);
    }
}
