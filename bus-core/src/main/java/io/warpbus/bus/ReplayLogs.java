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
import java.util.ArrayList;

import org.agrona.BitUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Zeroed memory for replays' logs, kept between replays. A replay's publication is made on the bus's thread when
 * its request arrives, and fresh direct memory costs its page faults there: 22-24 ms for an 8 MiB log on the 2-core
 * VM, a stall of every stream on the bus. A log comes back once its publication's fan-out has closed (every link
 * drained, so no Write reads from it, and its one writer, the replay, closed it), is zeroed (0.14-0.22 ms for 8 MiB
 * already in) and serves the next replay of the same size. Used on the bus's thread only.
 */
final class ReplayLogs
{
    /** Memory kept at most: the logs of four concurrent replays to subscribers with the default 4 MiB ring. */
    static final long MAX_KEPT_BYTES = 32L * 1024 * 1024;

    private final ArrayList<ByteBuffer> kept = new ArrayList<>();
    private long keptBytes;

    /**
     * The term and window of a replay's log for a subscriber's ring: the largest term the ring can take, up to the
     * one that carries the largest frame payload (64 KiB), and a window that serves that ring.
     *
     * @param ring the subscriber's ring.
     * @return the term length.
     */
    static int termFor(final int ring)
    {
        return Math.min(ring, 512 * 1024);
    }

    /**
     * The window of a replay's log, see {@link #termFor(int)}.
     *
     * @param ring the subscriber's ring.
     * @return the window length.
     */
    static int windowFor(final int ring)
    {
        final int term = termFor(ring);
        return Math.max(4 * term, BitUtil.findNextPositivePowerOfTwo(ring + 2 * term));
    }

    /**
     * Zeroed memory for a log.
     *
     * @param windowLength the log's length.
     * @return a kept log of that length, or new memory.
     */
    ByteBuffer take(final int windowLength)
    {
        for (int i = kept.size() - 1; i >= 0; i--)
        {
            if (kept.get(i).capacity() == windowLength)
            {
                keptBytes -= windowLength;
                return kept.remove(i);
            }
        }
        return ByteBuffer.allocateDirect(windowLength);
    }

    /**
     * Keep a log no publication uses any more, zeroed, while that stays within {@link #MAX_KEPT_BYTES}.
     *
     * @param log the log's memory.
     */
    void give(final ByteBuffer log)
    {
        if (keptBytes + log.capacity() <= MAX_KEPT_BYTES)
        {
            new UnsafeBuffer(log).setMemory(0, log.capacity(), (byte)0);
            kept.add(log);
            keptBytes += log.capacity();
        }
    }

    /**
     * Have one log of a length ready, so that the first replay of that size does not wait for fresh memory either.
     *
     * @param windowLength the log's length.
     */
    void prepare(final int windowLength)
    {
        for (final ByteBuffer log : kept)
        {
            if (log.capacity() == windowLength)
            {
                return;
            }
        }
        if (keptBytes + windowLength <= MAX_KEPT_BYTES)
        {
            kept.add(ByteBuffer.allocateDirect(windowLength));
            keptBytes += windowLength;
        }
    }

    /**
     * Logs kept now.
     *
     * @return the count.
     */
    int keptCount()
    {
        return kept.size();
    }
}
