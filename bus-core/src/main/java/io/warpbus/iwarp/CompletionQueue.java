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
package io.warpbus.iwarp;

import java.util.concurrent.atomic.AtomicLong;

import org.agrona.BitUtil;

/**
 * Work completions raised by the engine, polled by the application without blocking.
 * <p>
 * A single-producer single-consumer ring: the engine's thread is the only producer, one application thread the
 * only consumer. Entries are written field by field into preallocated arrays and published by an ordered store of
 * the tail, so neither side allocates. When the ring is full the engine stops producing completions for it (it
 * holds the inbound data or send queue progress back) until the application polls; nothing is lost.
 */
public final class CompletionQueue
{
    final long[] wrIds;
    final CompletionOpcode[] opcodes;
    final CompletionStatus[] statuses;
    final int[] byteLengths;
    final int[] qpNumbers;
    final int[] flags;
    final int[] invalidatedStags;

    private final int mask;
    private final int capacity;
    private final AtomicLong head = new AtomicLong();
    private final AtomicLong tail = new AtomicLong();
    private final WorkCompletion view = new WorkCompletion(this);
    private long cachedHead;

    CompletionQueue(final int capacity)
    {
        if (capacity < 1 || capacity > 1 << 24)
        {
            throw new IllegalArgumentException("completion queue capacity must be in [1, 2^24]: " + capacity);
        }
        this.capacity = BitUtil.findNextPositivePowerOfTwo(capacity);
        this.mask = this.capacity - 1;
        wrIds = new long[this.capacity];
        opcodes = new CompletionOpcode[this.capacity];
        statuses = new CompletionStatus[this.capacity];
        byteLengths = new int[this.capacity];
        qpNumbers = new int[this.capacity];
        flags = new int[this.capacity];
        invalidatedStags = new int[this.capacity];
    }

    /**
     * Number of entries the queue holds (the requested capacity rounded up to a power of two).
     *
     * @return the capacity.
     */
    public int capacity()
    {
        return capacity;
    }

    /**
     * Deliver up to {@code limit} completions, oldest first.
     *
     * @param handler receives each completion.
     * @param limit   maximum number to deliver.
     * @return the number delivered.
     */
    public int poll(final CompletionHandler handler, final int limit)
    {
        final long head = this.head.get();
        final long available = tail.get() - head;
        final int count = (int)Math.min(available, limit);
        long position = head;
        try
        {
            for (int i = 0; i < count; i++)
            {
                handler.onCompletion(view.index((int)position & mask));
                position++;
            }
        }
        finally
        {
            this.head.lazySet(position);
        }
        return (int)(position - head);
    }

    /**
     * Number of completions waiting to be polled.
     *
     * @return the count.
     */
    public int size()
    {
        return (int)(tail.get() - head.get());
    }

    /**
     * Engine side: is there room for {@code count} more entries?
     */
    boolean hasCapacity(final int count)
    {
        final long tail = this.tail.getPlain();
        if (tail + count - cachedHead <= capacity)
        {
            return true;
        }
        cachedHead = head.get();
        return tail + count - cachedHead <= capacity;
    }

    /**
     * Engine side: append one entry; the caller has checked {@link #hasCapacity(int)}.
     */
    void add(
        final long wrId,
        final CompletionOpcode opcode,
        final CompletionStatus status,
        final int byteLength,
        final int qpNumber,
        final int flags,
        final int invalidatedStag)
    {
        final long tail = this.tail.getPlain();
        final int index = (int)tail & mask;
        wrIds[index] = wrId;
        opcodes[index] = opcode;
        statuses[index] = status;
        byteLengths[index] = byteLength;
        qpNumbers[index] = qpNumber;
        this.flags[index] = flags;
        invalidatedStags[index] = invalidatedStag;
        this.tail.lazySet(tail + 1);
    }
}
