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

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import java.util.zip.CRC32C;

import io.warpbus.iwarp.mpa.Fpdu;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A connection's outbound bytes: a ring of assembled headers and small FPDUs, plus large payloads that stay in
 * their registered region until TCP takes them, all written in order by one gathering write.
 * <pre>
 *   segments:  [ring: FPDUs 1..n] [ring: header] [region: payload] [ring: pad + CRC] [ring: FPDUs ...]
 *   ring:      |....free....|<- pending ring bytes ->|....free....|   wraps to the front when the end is reached
 * </pre>
 * Pending bytes are never moved: when an FPDU does not fit at the end of the ring, assembly continues at the front
 * and the write gathers both parts. A payload of at least {@link #GATHER_THRESHOLD} bytes from a region backed by a
 * {@link ByteBuffer} is not copied at all: the CRC is computed over it where it lies, and the socket reads it from
 * there. Owned by the engine's thread.
 * <p>
 * <b>A deferred CRC.</b> One gathered FPDU at a time may have its CRC computed after its header and payload are
 * written ({@link #commitGathered(int, int, MemoryRegion, int, int, boolean)}): the write stops before its trailer,
 * the CRC pass over the payload runs while the peer reads what was sent, and the trailer goes with the next write
 * (the message's next FPDU). That takes the sender's CRC pass off a large message's round trip. The payload's
 * bytes must not change until the Write completes, as for any posted work request.
 */
final class TransmitRing
{
    /** Payloads this long or longer are written from their region instead of being copied into the ring. */
    static final int GATHER_THRESHOLD = 2048;
    private static final int SEGMENT_CAPACITY = 256;
    private static final int SEGMENT_MASK = SEGMENT_CAPACITY - 1;
    static final int IOV_MAX = 64;
    /** Fills the unused tail of the gather list: the JDK skips empty buffers. */
    private static final ByteBuffer EMPTY = ByteBuffer.allocateDirect(0);
    /**
     * The first write (the MPA exchange) always gathers: the JDK links its gathering-write native method and sizes
     * this thread's iovec cache on first use, allocating, and that must not happen later in steady state.
     */
    private boolean gatherReady;

    final ByteBuffer bytes;
    final UnsafeBuffer buffer;
    long assembledTotal;
    long writtenTotal;
    boolean crcEnabled;

    private final CRC32C crc;
    private final int capacity;
    private final int[] segmentOffset = new int[SEGMENT_CAPACITY];
    private final int[] segmentLength = new int[SEGMENT_CAPACITY];
    private final MemoryRegion[] segmentRegion = new MemoryRegion[SEGMENT_CAPACITY];
    private final ByteBuffer[] ringViews = new ByteBuffer[IOV_MAX];
    private final ByteBuffer[] iov = new ByteBuffer[IOV_MAX];
    private int segmentHead;
    private int segmentCount;
    private long segmentsAppended;
    private long segmentsConsumed;
    private final CRC32C deferredCrc = new CRC32C();
    private boolean crcDeferred;
    private boolean stoppedAtDeferredCrc;
    private long deferredTrailerSegment;
    private MemoryRegion deferredRegion;
    private int deferredIndex;
    private int deferredLength;
    private int deferredPadOffset;
    private int deferredPadLength;
    private int ringStart;
    private int ringEnd;
    private int ringPending;
    private long pending;

    TransmitRing(final int capacity, final CRC32C crc)
    {
        this.capacity = capacity;
        this.crc = crc;
        bytes = ByteBuffer.allocateDirect(capacity);
        buffer = new UnsafeBuffer(bytes);
        for (int i = 0; i < IOV_MAX; i++)
        {
            ringViews[i] = bytes.duplicate();
        }
    }

    /**
     * Bytes assembled and not yet written.
     *
     * @return the count.
     */
    long pending()
    {
        return pending;
    }

    /**
     * Reserve contiguous room in the ring.
     *
     * @param length  bytes needed.
     * @param reserve bytes to keep free after them (room for a Terminate).
     * @return offset to write at, or -1 when there is no room until the socket drains.
     */
    int claim(final int length, final int reserve)
    {
        if (segmentCount > SEGMENT_CAPACITY - 4)
        {
            return -1;
        }
        final int needed = length + reserve;
        if (0 == ringPending)
        {
            ringStart = 0;
            ringEnd = 0;
        }
        if (ringEnd >= ringStart)
        {
            if (capacity - ringEnd >= needed)
            {
                return ringEnd;
            }
            if (ringStart > needed)
            {
                ringEnd = 0;
                return 0;
            }
            return -1;
        }
        return ringStart - ringEnd > needed ? ringEnd : -1;
    }

    /**
     * Append raw bytes written at a claimed offset (an MPA frame).
     *
     * @param offset as returned by {@link #claim(int, int)}.
     * @param length bytes written.
     */
    void commitRaw(final int offset, final int length)
    {
        appendRing(offset, length);
        assembledTotal += length;
    }

    /**
     * Frame the ULPDU written at {@code offset + 2}: length, pad and CRC, and append the FPDU.
     *
     * @param offset      as returned by {@link #claim(int, int)}.
     * @param ulpduLength length of the ULPDU.
     */
    void commitFpdu(final int offset, final int ulpduLength)
    {
        final int crcOffset = Fpdu.frame(buffer, offset, ulpduLength);
        Fpdu.putCrc(buffer, crcOffset, crcEnabled ? Fpdu.crc32c(crc, bytes, offset, crcOffset - offset) : 0);
        final int length = crcOffset + Fpdu.CRC_LENGTH - offset;
        appendRing(offset, length);
        assembledTotal += length;
    }

    /**
     * Can a payload be sent from its region without copying?
     *
     * @param region the payload's region.
     * @param length payload bytes.
     * @return true when long enough and the region has a {@link ByteBuffer} to gather from.
     */
    static boolean gatherable(final MemoryRegion region, final int length)
    {
        return length >= GATHER_THRESHOLD && null != region.byteView();
    }

    /**
     * Complete an FPDU whose DDP/RDMAP header was written at {@code offset + 2} and whose payload stays in its
     * region: append the header, the payload in place, and the pad and CRC after the header in the ring. The claim
     * must have been for {@code 2 + headerLength + 7} bytes.
     *
     * @param offset       as returned by {@link #claim(int, int)}.
     * @param headerLength DDP (and RDMAP) header bytes.
     * @param region       the payload's region, {@link #gatherable(MemoryRegion, int)}.
     * @param index        first payload byte in the region.
     * @param length       payload bytes.
     * @param deferCrc     compute the CRC after the header and payload are written, when no other FPDU's is
     *                     deferred: for an FPDU that the message's next one follows at once.
     */
    void commitGathered(
        final int offset,
        final int headerLength,
        final MemoryRegion region,
        final int index,
        final int length,
        final boolean deferCrc)
    {
        final int ulpduLength = headerLength + length;
        buffer.putShort(offset, (short)ulpduLength, ByteOrder.BIG_ENDIAN);
        final int headerEnd = offset + Fpdu.LENGTH_FIELD_LENGTH + headerLength;
        final int pad = Fpdu.padLength(ulpduLength);
        for (int i = 0; i < pad; i++)
        {
            buffer.putByte(headerEnd + i, (byte)0);
        }
        appendRing(offset, headerEnd - offset);
        appendSegment(index, length, region);
        // The trailer always starts a segment of its own: the one before it is the payload's.
        final long trailerSegment = segmentsAppended;
        appendRing(headerEnd, pad + Fpdu.CRC_LENGTH);
        assembledTotal += Fpdu.fpduLength(ulpduLength);

        int value = 0;
        if (crcEnabled)
        {
            final CRC32C crc = deferCrc && !crcDeferred ? deferredCrc : this.crc;
            crc.reset();
            bytes.limit(headerEnd).position(offset);
            crc.update(bytes);
            bytes.clear();
            if (crc == deferredCrc)
            {
                crcDeferred = true;
                deferredTrailerSegment = trailerSegment;
                deferredRegion = region;
                deferredIndex = index;
                deferredLength = length;
                deferredPadOffset = headerEnd;
                deferredPadLength = pad;
                return;
            }
            value = finishCrc(crc, region, index, length, headerEnd, pad);
        }
        Fpdu.putCrc(buffer, headerEnd + pad, value);
    }

    private int finishCrc(
        final CRC32C crc, final MemoryRegion region, final int index, final int length, final int padOffset,
        final int pad)
    {
        final ByteBuffer view = region.gatherView(0);
        view.limit(index + length).position(index);
        crc.update(view);
        if (pad > 0)
        {
            bytes.limit(padOffset + pad).position(padOffset);
            crc.update(bytes);
            bytes.clear();
        }
        return (int)crc.getValue();
    }

    private void completeDeferredCrc()
    {
        final int value = finishCrc(deferredCrc, deferredRegion, deferredIndex, deferredLength, deferredPadOffset,
            deferredPadLength);
        Fpdu.putCrc(buffer, deferredPadOffset + deferredPadLength, value);
        crcDeferred = false;
        deferredRegion = null;
    }

    /**
     * Did the last {@link #write(SocketChannel)} stop before a trailer whose CRC it then computed, so that what
     * follows can be written now?
     *
     * @return true when it did.
     */
    boolean stoppedAtDeferredCrc()
    {
        return stoppedAtDeferredCrc;
    }

    /**
     * Does a pending segment read from this region?
     *
     * @param region a region being deregistered.
     * @return true when its bytes are still to be written.
     */
    boolean references(final MemoryRegion region)
    {
        for (int i = 0; i < segmentCount; i++)
        {
            if (segmentRegion[(segmentHead + i) & SEGMENT_MASK] == region)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Write as much as the socket takes.
     *
     * @param channel the connection's socket.
     * @return bytes written, possibly 0.
     * @throws IOException when the socket fails.
     */
    long write(final SocketChannel channel) throws IOException
    {
        stoppedAtDeferredCrc = false;
        if (0 == segmentCount)
        {
            return 0;
        }
        if (crcDeferred && deferredTrailerSegment == segmentsConsumed)
        {
            completeDeferredCrc();
        }
        final int segments = crcDeferred ? (int)(deferredTrailerSegment - segmentsConsumed) : segmentCount;
        final long written;
        if (1 == segments && null == segmentRegion[segmentHead] && gatherReady)
        {
            final int offset = segmentOffset[segmentHead];
            bytes.limit(offset + segmentLength[segmentHead]).position(offset);
            written = channel.write(bytes);
            bytes.clear();
        }
        else
        {
            final int count = Math.min(segments, IOV_MAX);
            for (int i = 0; i < count; i++)
            {
                final int slot = (segmentHead + i) & SEGMENT_MASK;
                final ByteBuffer view = null == segmentRegion[slot] ? ringViews[i] : segmentRegion[slot].gatherView(i);
                final int offset = segmentOffset[slot];
                view.limit(offset + segmentLength[slot]).position(offset);
                iov[i] = view;
            }
            // Always pass the whole list: the JDK caches one native iovec array per thread and replaces it,
            // allocating, whenever a write gathers more buffers than any before it on that thread.
            for (int i = count; i < IOV_MAX && EMPTY != iov[i]; i++)
            {
                iov[i] = EMPTY;
            }
            written = channel.write(iov, 0, IOV_MAX);
            gatherReady = true;
        }
        if (written > 0)
        {
            consume(written);
        }
        if (crcDeferred)
        {
            // The peer is reading what was just written while this pass runs.
            completeDeferredCrc();
            stoppedAtDeferredCrc = true;
        }
        return written;
    }

    private void consume(final long written)
    {
        writtenTotal += written;
        pending -= written;
        long remaining = written;
        while (remaining > 0)
        {
            final int slot = segmentHead;
            final int length = segmentLength[slot];
            final boolean ring = null == segmentRegion[slot];
            if (remaining >= length)
            {
                remaining -= length;
                if (ring)
                {
                    ringPending -= length;
                }
                segmentRegion[slot] = null;
                segmentHead = (segmentHead + 1) & SEGMENT_MASK;
                segmentCount--;
                segmentsConsumed++;
            }
            else
            {
                segmentOffset[slot] += (int)remaining;
                segmentLength[slot] = length - (int)remaining;
                if (ring)
                {
                    ringPending -= (int)remaining;
                }
                remaining = 0;
            }
        }
        for (int i = 0; i < segmentCount; i++)
        {
            final int slot = (segmentHead + i) & SEGMENT_MASK;
            if (null == segmentRegion[slot])
            {
                ringStart = segmentOffset[slot];
                break;
            }
        }
    }

    private void appendRing(final int offset, final int length)
    {
        if (length <= 0)
        {
            return;
        }
        if (segmentCount > 0)
        {
            final int last = (segmentHead + segmentCount - 1) & SEGMENT_MASK;
            if (null == segmentRegion[last] && segmentOffset[last] + segmentLength[last] == offset)
            {
                segmentLength[last] += length;
                pending += length;
                finishRingAppend(offset, length);
                return;
            }
        }
        appendSegment(offset, length, null);
        finishRingAppend(offset, length);
    }

    private void finishRingAppend(final int offset, final int length)
    {
        if (0 == ringPending)
        {
            ringStart = offset;
        }
        ringPending += length;
        ringEnd = offset + length;
    }

    private void appendSegment(final int offset, final int length, final MemoryRegion region)
    {
        final int slot = (segmentHead + segmentCount) & SEGMENT_MASK;
        segmentOffset[slot] = offset;
        segmentLength[slot] = length;
        segmentRegion[slot] = region;
        segmentCount++;
        segmentsAppended++;
        pending += length;
    }
}
