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

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

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
 * and commit it. The conductor alone advances {@code published} over committed frames (stamping sequences), zeroes
 * the term ahead of the writers, and sets {@code limit}, the writers' ceiling: the slowest blocking subscriber's
 * room, and never past the clean region.
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
    /** Zeroed up to here (conductor only). */
    long cleanPosition;
    MemoryRegion region;

    LogBuffer(final int termLength, final int windowLength)
    {
        this.termLength = termLength;
        this.termMask = termLength - 1;
        this.windowLength = windowLength;
        this.windowMask = windowLength - 1;
        this.byteBuffer = ByteBuffer.allocateDirect(windowLength);
        this.buffer = new UnsafeBuffer(byteBuffer);
        this.cleanPosition = 2L * termLength;
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
