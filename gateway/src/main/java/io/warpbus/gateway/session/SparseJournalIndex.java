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
package io.warpbus.gateway.session;

/**
 * Where a session's journaled events are, sparsely: a fixed number of checkpoints (a session sequence number and
 * its record's journal position), first every event, and when full every other one is dropped and the stride
 * doubles. A resend seeks to the last checkpoint at or before the sequence it starts from and reads on from there.
 * Memory per session is fixed and recording allocates nothing, however long the session lives.
 */
final class SparseJournalIndex
{
    private final long[] seqs;
    private final long[] positions;
    private int size;
    private long stride = 1;
    private long recorded;

    /**
     * An index.
     *
     * @param capacity checkpoints kept, even.
     */
    SparseJournalIndex(final int capacity)
    {
        seqs = new long[capacity];
        positions = new long[capacity];
    }

    /**
     * Note a journaled event.
     *
     * @param seq      its session sequence number.
     * @param position its journal sequence.
     */
    void record(final long seq, final long position)
    {
        if (0 == recorded++ % stride)
        {
            if (size == seqs.length)
            {
                compact();
            }
            seqs[size] = seq;
            positions[size] = position;
            size++;
        }
    }

    /**
     * The journal position to read from to find every event from a sequence number on.
     *
     * @param seq the first sequence number wanted.
     * @return the position of the last checkpoint at or before it (the first checkpoint when the sequence is before
     * it), or -1 when nothing was recorded.
     */
    long floorPosition(final long seq)
    {
        if (0 == size)
        {
            return -1;
        }
        int low = 0;
        int high = size - 1;
        int found = 0;
        while (low <= high)
        {
            final int mid = (low + high) >>> 1;
            if (seqs[mid] <= seq)
            {
                found = mid;
                low = mid + 1;
            }
            else
            {
                high = mid - 1;
            }
        }
        return positions[found];
    }

    /**
     * The sequence number of the last event recorded.
     *
     * @return it, or 0 when none.
     */
    long events()
    {
        return recorded;
    }

    void clear()
    {
        size = 0;
        stride = 1;
        recorded = 0;
    }

    private void compact()
    {
        // Keep the even checkpoints: the first stays, so every sequence has a floor.
        for (int i = 0; i < size / 2; i++)
        {
            seqs[i] = seqs[2 * i];
            positions[i] = positions[2 * i];
        }
        size /= 2;
        stride *= 2;
    }
}
