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

/**
 * A connection's two RDMA Read queues.
 * <ul>
 *     <li>Inbound (IRQ, bounded by the negotiated IRD): Read Requests from the peer, answered in arrival order.</li>
 *     <li>Outbound (ORQ, bounded by the negotiated ORD): this side's Read Requests waiting for their responses,
 *     which must arrive in request order.</li>
 * </ul>
 * Both are rings of primitive arrays sized once, when the MPA exchange settles IRD and ORD.
 */
final class ReadQueues
{
    /** ORQ position of a zero-length Read sent as the ready-to-receive message: it completes nothing. */
    static final long RTR_POSITION = -1;

    final int irdCapacity;
    final MemoryRegion[] irqRegion;
    final int[] irqIndex;
    final int[] irqLength;
    final int[] irqSinkStag;
    final long[] irqSinkTaggedOffset;
    int irqHead;
    int irqCount;

    final int ordCapacity;
    final long[] orqPosition;
    final MemoryRegion[] orqRegion;
    final int[] orqIndex;
    final int[] orqLength;
    final int[] orqSinkStag;
    final long[] orqSinkTaggedOffset;
    int orqHead;
    int orqCount;
    int orqReceived;

    ReadQueues(final int ird, final int ord)
    {
        irdCapacity = ird;
        irqRegion = new MemoryRegion[Math.max(1, ird)];
        irqIndex = new int[Math.max(1, ird)];
        irqLength = new int[Math.max(1, ird)];
        irqSinkStag = new int[Math.max(1, ird)];
        irqSinkTaggedOffset = new long[Math.max(1, ird)];

        ordCapacity = ord;
        orqPosition = new long[Math.max(1, ord)];
        orqRegion = new MemoryRegion[Math.max(1, ord)];
        orqIndex = new int[Math.max(1, ord)];
        orqLength = new int[Math.max(1, ord)];
        orqSinkStag = new int[Math.max(1, ord)];
        orqSinkTaggedOffset = new long[Math.max(1, ord)];
    }

    boolean irqFull()
    {
        return irqCount >= irdCapacity;
    }

    void addInbound(
        final MemoryRegion region, final int index, final int length, final int sinkStag, final long sinkTo)
    {
        final int slot = (irqHead + irqCount) % irqRegion.length;
        irqRegion[slot] = region;
        irqIndex[slot] = index;
        irqLength[slot] = length;
        irqSinkStag[slot] = sinkStag;
        irqSinkTaggedOffset[slot] = sinkTo;
        irqCount++;
    }

    void removeInbound()
    {
        irqRegion[irqHead] = null;
        irqHead = (irqHead + 1) % irqRegion.length;
        irqCount--;
    }

    boolean orqFull()
    {
        return orqCount >= ordCapacity;
    }

    void addOutbound(
        final long position,
        final MemoryRegion region,
        final int index,
        final int length,
        final int sinkStag,
        final long sinkTo)
    {
        final int slot = (orqHead + orqCount) % orqPosition.length;
        orqPosition[slot] = position;
        orqRegion[slot] = region;
        orqIndex[slot] = index;
        orqLength[slot] = length;
        orqSinkStag[slot] = sinkStag;
        orqSinkTaggedOffset[slot] = sinkTo;
        if (0 == orqCount)
        {
            orqReceived = 0;
        }
        orqCount++;
    }

    void removeOutbound()
    {
        orqRegion[orqHead] = null;
        orqHead = (orqHead + 1) % orqPosition.length;
        orqCount--;
        orqReceived = 0;
    }
}
