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

import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicReferenceArray;

import org.agrona.collections.IntArrayQueue;

/**
 * The engine's table of registered regions, indexed by the upper bits of the STag.
 * <p>
 * <pre>
 *   STag:  | index (12 bits) |        key (20 bits, random)        |
 * </pre>
 * Index 0 is never handed out, so STag 0 (used by zero-length ready-to-receive writes) never names a region.
 * Registration is rare and synchronised; the engine's lookup is a single volatile read with no lock.
 */
final class StagTable
{
    static final int INDEX_BITS = 12;
    static final int KEY_BITS = 32 - INDEX_BITS;
    static final int KEY_MASK = (1 << KEY_BITS) - 1;
    static final int CAPACITY = 1 << INDEX_BITS;

    private final AtomicReferenceArray<MemoryRegion> regions = new AtomicReferenceArray<>(CAPACITY);
    private final IntArrayQueue freeIndices = new IntArrayQueue(CAPACITY, -1);
    private final SecureRandom random = new SecureRandom();

    StagTable()
    {
        for (int i = 1; i < CAPACITY; i++)
        {
            freeIndices.addInt(i);
        }
    }

    synchronized int allocateStag()
    {
        if (freeIndices.isEmpty())
        {
            throw new IllegalStateException("memory region table is full: " + (CAPACITY - 1) + " regions registered");
        }
        final int index = freeIndices.pollInt();
        return (index << KEY_BITS) | (random.nextInt() & KEY_MASK);
    }

    synchronized void publish(final MemoryRegion region)
    {
        regions.set(indexOf(region.stag()), region);
    }

    synchronized void remove(final MemoryRegion region)
    {
        final int index = indexOf(region.stag());
        if (regions.get(index) == region)
        {
            regions.set(index, null);
            freeIndices.addInt(index);
        }
    }

    /**
     * Find the region an STag names.
     *
     * @param stag from the wire.
     * @return the region, or null when no region has exactly this STag (wrong key, free slot, index 0).
     */
    MemoryRegion lookup(final int stag)
    {
        final MemoryRegion region = regions.get(indexOf(stag));
        return null != region && region.stag() == stag ? region : null;
    }

    static int indexOf(final int stag)
    {
        return stag >>> KEY_BITS;
    }
}
