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
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

import io.warpbus.bus.protocol.RingDescriptor;
import io.warpbus.iwarp.MemoryRegion;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A publication's log: a window of the stream, reused term by term.
 * <pre>
 *   position p lives at offset p &amp; (window - 1); frames never cross a multiple of the term length
 *
 *   |.. retained (resumable) ..|..... published .....|.. claimed ..|..clean..|
 *   ^ cleanPosition - window   ^                      ^ published   ^ tail    ^ cleanPosition (= writers' ceiling)
 * </pre>
 * Writers (one for an exclusive publication, any number for a concurrent one) claim at the tail, write the frame
 * and commit it. The conductor alone advances {@code published} over committed frames (stamping sequences), frees
 * the term ahead of the writers (zeroing it for concurrent writers, whose claimed frames are found by a length no
 * longer zero; one writer's frames are all committed below its tail), and sets {@code limit}, the writers'
 * ceiling: the slowest blocking subscriber's room, and never past the clean region.
 * <p>
 * An IPC publication's log is a memory-mapped file in the stream's IPC directory, so that block and drop
 * subscribers on the host read frames where the writer put them (see {@link IpcSubscriberLink}); after the window,
 * the file holds the log's commit position for them ({@link RingDescriptor#LOG_TRAILER_LENGTH}).
 */
final class LogBuffer
{
    final int termLength;
    final int termMask;
    final int windowLength;
    final long windowMask;
    final ByteBuffer byteBuffer;
    final UnsafeBuffer buffer;
    /** Next position to claim; written by publishers. */
    final AtomicLong tail = new AtomicLong();
    /** Writers' ceiling; written by the conductor. */
    final AtomicLong limit = new AtomicLong();
    /** Committed and sequenced frames end here; written by the conductor. */
    final AtomicLong published = new AtomicLong();
    /** The limit is held by log cleaning rather than by a subscriber: writers get ADMIN_ACTION. */
    volatile boolean limitedByCleaning;
    /** At least one subscriber is attached. */
    volatile boolean connected;
    /** Subscribers attached. */
    volatile int subscriberCount;
    /** Durable subscribers lost and expected back, whose places in the log are kept. */
    volatile int absentDurableCount;
    /** Durable subscribers whose places were released because they did not return in time. */
    volatile long durableExpiries;
    /** Log position every attached subscriber has consumed (or been sent, when conflating). */
    volatile long slowestPosition;
    /** Freed for the writers up to here, and zeroed for concurrent ones (conductor only). */
    long cleanPosition;
    MemoryRegion region;
    /** The file an IPC log is mapped from, or null for a log in process memory. */
    final Path file;
    /** An IPC log's metadata after its window (the log's commit position), or null. */
    private final UnsafeBuffer trailer;
    private long storedCommit;

    LogBuffer(final int termLength, final int windowLength)
    {
        this(termLength, windowLength, ByteBuffer.allocateDirect(windowLength));
    }

    /**
     * A log in memory the caller provides, which must be {@code windowLength} zeroes.
     *
     * @param termLength   frames never cross a multiple of this.
     * @param windowLength the memory's length.
     * @param zeroes       the memory.
     */
    LogBuffer(final int termLength, final int windowLength, final ByteBuffer zeroes)
    {
        this(termLength, windowLength, zeroes, null);
    }

    private LogBuffer(final int termLength, final int windowLength, final ByteBuffer byteBuffer, final Path file)
    {
        this.termLength = termLength;
        this.termMask = termLength - 1;
        this.windowLength = windowLength;
        this.windowMask = windowLength - 1;
        this.byteBuffer = byteBuffer;
        this.buffer = new UnsafeBuffer(byteBuffer, 0, windowLength);
        this.cleanPosition = 2L * termLength;
        this.file = file;
        this.trailer = null == file ? null :
            new UnsafeBuffer(byteBuffer, windowLength, RingDescriptor.LOG_TRAILER_LENGTH);
    }

    /**
     * A log in a new file of zeroes ({@link IpcDirectory#createZeroed}), the window and its trailer, for subscribers
     * on this host to map, with every page brought in for the writer.
     *
     * @param termLength   frames never cross a multiple of this.
     * @param windowLength the frames' part of the file.
     * @param file         where; it must not exist.
     * @return the log.
     * @throws IOException when the file cannot be created or filled (it is then deleted).
     */
    static LogBuffer mapped(final int termLength, final int windowLength, final Path file) throws IOException
    {
        return new LogBuffer(termLength, windowLength, IpcDirectory.preTouch(IpcDirectory.createZeroed(file,
            windowLength + RingDescriptor.LOG_TRAILER_LENGTH)), file);
    }

    /**
     * Store the log's commit position for the subscribers that read an IPC log in place and follow it, after
     * whatever bounds this cycle stored into their rings (see {@link RingDescriptor}); a log in process memory
     * has no such reader.
     *
     * @param position the published position, as every following subscriber was sent it this cycle.
     */
    void storeCommit(final long position)
    {
        if (null != trailer && position != storedCommit)
        {
            trailer.putLongOrdered(RingDescriptor.LOG_COMMIT_OFFSET, position);
            storedCommit = position;
        }
    }

    /**
     * Delete a mapped log's file. The mapping itself stays until the log is collected: a writer racing the close
     * of its publication must never touch unmapped memory, and subscribers still draining it hold their own.
     *
     * @throws IOException when the file cannot be deleted.
     */
    void deleteFile() throws IOException
    {
        if (null != file)
        {
            Files.deleteIfExists(file);
        }
    }

    int offset(final long position)
    {
        return (int)(position & windowMask);
    }

    /**
     * The oldest position still held (term aligned, so a frame boundary).
     *
     * @return the position.
     */
    long oldestRetained()
    {
        return Math.max(0, cleanPosition - windowLength);
    }
}
