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
import java.nio.channels.ReadableByteChannel;
import java.util.zip.CRC32C;

import io.warpbus.iwarp.ddp.DdpHeaderFlyweight;
import io.warpbus.iwarp.mpa.Fpdu;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A connection's inbound bytes: reads the socket into a receive buffer of fixed size and finds the whole FPDUs
 * in it (MPA frames during the start-up), checking each one's CRC.
 * <pre>
 *   buffer: |..consumed..|&lt;- start: FPDU | FPDU | partial FPDU -&gt;| end ....free....|
 * </pre>
 * Bytes are processed where they were read. When the free space behind {@code end} can no longer hold a maximum
 * FPDU, the unprocessed bytes are moved to the front before the next read; nothing read from the wire changes the
 * buffer's size. A connection that has been quiet for a while reads its socket only every few duty cycles.
 * <p>
 * <b>Direct placement.</b> When a read ends inside a large tagged segment whose header has arrived, the rest of
 * its payload is read from the socket straight into the region it targets ({@link #placeDirectly}), the CRC
 * computed over it there, so those bytes are copied once (by the kernel) instead of twice. Reads never stop at a
 * header on purpose to leave a payload in the socket: the extra system call per FPDU cost more than the copy it
 * saved (docs/performance.md, "Direct placement"). The
 * FPDU's CRC is checked once its trailer has arrived ({@link #completeDirect()}); a mismatch ends the connection
 * like any other, with the bad payload left in the region, as RFC 5040 section 5.5 allows (a tagged buffer's
 * contents are indeterminate until a later message is delivered) and as Linux siw does. Owned by the engine's
 * thread.
 */
final class FpduReader
{
    /** {@link #nextUlpduLength()}: the FPDU at the start of the buffer has not all arrived. */
    static final int INCOMPLETE = -1;
    /** {@link #read(ReadableByteChannel)}: the peer closed its side of the connection. */
    static final int END_OF_STREAM = -1;
    /** Empty reads in a row after which a quiet connection's socket is read only every {@link #QUIET_READ_EVERY}. */
    static final int QUIET_AFTER_EMPTY_READS = 128;
    static final int QUIET_READ_EVERY = 8;
    /** Payload bytes still in the socket for which a read straight into the region is worth its system call. */
    static final int DIRECT_PLACEMENT_MIN = 4096;
    /** {@link #completeDirect()}: the payload or the trailer of the directly placed FPDU is still arriving. */
    static final int DIRECT_PENDING = 0;
    /** {@link #completeDirect()}: the directly placed FPDU is complete and its CRC matches (or CRCs are off). */
    static final int DIRECT_PLACED = 1;
    /** {@link #completeDirect()}: the directly placed FPDU is complete and its CRC does not match. */
    static final int DIRECT_CRC_MISMATCH = 2;

    private static final int HEADER_LENGTH = Fpdu.LENGTH_FIELD_LENGTH + DdpHeaderFlyweight.TAGGED_HEADER_LENGTH;

    private final ByteBuffer bytes;
    private final UnsafeBuffer buffer;
    private final CRC32C crc32c = new CRC32C();
    private final boolean directPlacement;
    private int start;
    private int end;
    private boolean crcEnabled;
    private boolean inputEnded;
    private int emptyReads;
    private int quietCycles;
    private int computedCrc;
    private int receivedCrc;
    private MemoryRegion directRegion;
    private int directPosition;
    private int directEnd;
    private int trailerLength;

    /**
     * A receive buffer.
     *
     * @param capacity        its size.
     * @param directPlacement whether payloads may be placed straight from the socket.
     */
    FpduReader(final int capacity, final boolean directPlacement)
    {
        this.directPlacement = directPlacement;
        bytes = ByteBuffer.allocateDirect(capacity);
        buffer = new UnsafeBuffer(bytes);
    }

    /**
     * The receive buffer: FPDUs are placed from it, and a Terminate copies the offending headers from it.
     *
     * @return the buffer.
     */
    UnsafeBuffer buffer()
    {
        return buffer;
    }

    /**
     * Offset of the first byte not yet processed.
     *
     * @return the offset.
     */
    int start()
    {
        return start;
    }

    /**
     * Bytes read and not yet processed.
     *
     * @return the count.
     */
    int buffered()
    {
        return end - start;
    }

    /**
     * Mark bytes at the start as processed.
     *
     * @param length bytes processed: a whole FPDU or MPA frame.
     */
    void consume(final int length)
    {
        start += length;
    }

    /**
     * Check the CRC of FPDUs from now on, as negotiated.
     *
     * @param enabled true when the MPA exchange agreed on CRC32C.
     */
    void crcEnabled(final boolean enabled)
    {
        crcEnabled = enabled;
    }

    /**
     * Will the peer send nothing more?
     *
     * @return true once the socket reported its end or the input was ended.
     */
    boolean inputEnded()
    {
        return inputEnded;
    }

    /**
     * Read nothing more: the socket can no longer be read.
     */
    void endInput()
    {
        inputEnded = true;
    }

    /**
     * Read the socket, but a connection that has been quiet for a while (the publisher's side of a bus link, which
     * only gets occasional credits) only every few duty cycles: an empty read is a system call that finds
     * nothing, and on a busy sender it was a sixth of the time. The first byte back makes it eager again.
     *
     * @param channel the socket.
     * @return as {@link #read(ReadableByteChannel)}, 0 when this cycle does not read.
     * @throws IOException when the read fails.
     */
    int readQuietly(final ReadableByteChannel channel) throws IOException
    {
        if (emptyReads >= QUIET_AFTER_EMPTY_READS && 0 != (++quietCycles & (QUIET_READ_EVERY - 1)))
        {
            return 0;
        }
        final int read = read(channel);
        emptyReads = 0 == read && start == end && 0 == trailerLength ?
            Math.min(emptyReads + 1, QUIET_AFTER_EMPTY_READS) : 0;
        return read;
    }

    /**
     * Read what the socket holds, behind the bytes not yet processed.
     *
     * @param channel the socket.
     * @return bytes read, 0 when none (or when a whole FPDU waits to be processed first), or
     * {@link #END_OF_STREAM}.
     * @throws IOException when the read fails.
     */
    int read(final ReadableByteChannel channel) throws IOException
    {
        if (inputEnded)
        {
            return 0;
        }
        if (directPosition < directEnd)
        {
            // An invalidated region gets nothing more; the connection then ends (Connection.receiveFpdus).
            return directRegion.isValid() ? readDirect(channel) : 0;
        }
        if (start == end)
        {
            start = 0;
            end = 0;
        }
        else if (buffer.capacity() - end < Fpdu.MAX_RECEIVE_FPDU)
        {
            final int remaining = end - start;
            if (remaining >= Fpdu.MAX_RECEIVE_FPDU)
            {
                // At least one whole FPDU is waiting: process it before reading more. Moving all of it to the front
                // now would copy up to the whole buffer on every cycle while this side catches up.
                return 0;
            }
            buffer.putBytes(0, buffer, start, remaining);
            start = 0;
            end = remaining;
        }
        bytes.limit(buffer.capacity()).position(end);
        final int read = channel.read(bytes);
        if (read < 0)
        {
            inputEnded = true;
            return END_OF_STREAM;
        }
        end += read;
        return read;
    }

    private int readDirect(final ReadableByteChannel channel) throws IOException
    {
        final ByteBuffer view = directRegion.placementView();
        final int position = directPosition;
        view.limit(directEnd).position(position);
        final int read = channel.read(view);
        if (read < 0)
        {
            inputEnded = true;
            return END_OF_STREAM;
        }
        if (read > 0 && crcEnabled)
        {
            view.limit(position + read).position(position);
            crc32c.update(view);
        }
        directPosition = position + read;
        return read;
    }

    /**
     * Is an FPDU at {@link #start()} worth placing straight from the socket: its length field and tagged DDP header
     * have arrived, and at least {@link #DIRECT_PLACEMENT_MIN} bytes of its payload have not? Or all of a payload of
     * that size has arrived and only its trailer is missing (as when the sender deferred the CRC past the write that
     * sent the payload): placing it then copies it and computes its CRC while the trailer comes, not after.
     *
     * @return its ULPDU length, or {@link #INCOMPLETE} when it is not.
     */
    int directCandidate()
    {
        final int available = end - start;
        if (!directPlacement || available < HEADER_LENGTH)
        {
            return INCOMPLETE;
        }
        final int ulpduLength = Fpdu.ulpduLength(buffer, start);
        final int payloadToCome = ulpduLength - DdpHeaderFlyweight.TAGGED_HEADER_LENGTH - (available - HEADER_LENGTH);
        final boolean awaitingTrailer = 0 == payloadToCome &&
            ulpduLength - DdpHeaderFlyweight.TAGGED_HEADER_LENGTH >= DIRECT_PLACEMENT_MIN;
        return payloadToCome >= DIRECT_PLACEMENT_MIN || awaitingTrailer ? ulpduLength : INCOMPLETE;
    }

    /**
     * Place the tagged segment at {@link #start()} straight from the socket: the payload bytes already buffered are
     * copied to the region now, the rest will be read into it, and its CRC is checked by {@link #completeDirect()}.
     * The caller has validated the segment's header and the range against the region.
     *
     * @param region      the region the segment targets, with a {@link MemoryRegion#placementView()}.
     * @param index       where in the region its payload starts.
     * @param ulpduLength the segment's ULPDU length, from {@link #directCandidate()}.
     */
    void placeDirectly(final MemoryRegion region, final int index, final int ulpduLength)
    {
        if (crcEnabled)
        {
            crc32c.reset();
            bytes.limit(end).position(start);
            crc32c.update(bytes);
        }
        final int arrived = end - start - HEADER_LENGTH;
        region.buffer().putBytes(index, buffer, start + HEADER_LENGTH, arrived);
        directRegion = region;
        directPosition = index + arrived;
        directEnd = index + ulpduLength - DdpHeaderFlyweight.TAGGED_HEADER_LENGTH;
        trailerLength = Fpdu.fpduLength(ulpduLength) - Fpdu.LENGTH_FIELD_LENGTH - ulpduLength;
        start = end;
    }

    /**
     * Is an FPDU being placed straight from the socket?
     *
     * @return true from {@link #placeDirectly} until {@link #completeDirect()} reports it complete.
     */
    boolean placingDirectly()
    {
        return 0 != trailerLength;
    }

    /**
     * Finish the FPDU being placed straight from the socket once all its payload and its trailer (pad and CRC) have
     * arrived.
     *
     * @return {@link #DIRECT_PENDING}, {@link #DIRECT_PLACED} or {@link #DIRECT_CRC_MISMATCH} (then
     * {@link #computedCrc()} and {@link #receivedCrc()} say how).
     */
    int completeDirect()
    {
        if (directPosition < directEnd || end - start < trailerLength)
        {
            return DIRECT_PENDING;
        }
        final int padLength = trailerLength - Fpdu.CRC_LENGTH;
        boolean matches = true;
        if (crcEnabled)
        {
            // RFC 5044 section 4.4: the CRC covers the length field, the ULPDU and the pad.
            bytes.limit(start + padLength).position(start);
            crc32c.update(bytes);
            computedCrc = (int)crc32c.getValue();
            receivedCrc = Fpdu.getCrc(buffer, start + padLength);
            matches = computedCrc == receivedCrc;
        }
        start += trailerLength;
        endDirect();
        return matches ? DIRECT_PLACED : DIRECT_CRC_MISMATCH;
    }

    /**
     * The region of the FPDU being placed straight from the socket.
     *
     * @return the region, or null when none is.
     */
    MemoryRegion directRegion()
    {
        return directRegion;
    }

    /**
     * Stop placing into a region that is being deregistered or was invalidated, and read nothing more: the
     * connection must end, since the rest of the FPDU is in the socket.
     *
     * @param region the region.
     * @return true when an FPDU was being placed into it.
     */
    boolean stopPlacingInto(final MemoryRegion region)
    {
        if (null == region || region != directRegion)
        {
            return false;
        }
        endDirect();
        inputEnded = true;
        return true;
    }

    private void endDirect()
    {
        directRegion = null;
        directPosition = 0;
        directEnd = 0;
        trailerLength = 0;
    }

    /**
     * The ULPDU length of the FPDU at {@link #start()}, when all of it has arrived.
     *
     * @return the length, or {@link #INCOMPLETE}.
     */
    int nextUlpduLength()
    {
        final int available = end - start;
        if (available < Fpdu.LENGTH_FIELD_LENGTH)
        {
            return INCOMPLETE;
        }
        final int ulpduLength = Fpdu.ulpduLength(buffer, start);
        return available < Fpdu.fpduLength(ulpduLength) ? INCOMPLETE : ulpduLength;
    }

    /**
     * Check the CRC of the whole FPDU at {@link #start()}, when CRCs were negotiated.
     *
     * @param fpduLength its length.
     * @return true when CRCs are off or it matches; else {@link #computedCrc()} and {@link #receivedCrc()} say how
     * it did not.
     */
    boolean crcMatches(final int fpduLength)
    {
        if (!crcEnabled)
        {
            return true;
        }
        final int crcOffset = start + fpduLength - Fpdu.CRC_LENGTH;
        computedCrc = Fpdu.crc32c(crc32c, bytes, start, crcOffset - start);
        receivedCrc = Fpdu.getCrc(buffer, crcOffset);
        return computedCrc == receivedCrc;
    }

    int computedCrc()
    {
        return computedCrc;
    }

    int receivedCrc()
    {
        return receivedCrc;
    }

    /**
     * Did the input end part-way through an FPDU?
     *
     * @return true when the peer closed the connection with bytes of an incomplete FPDU in the buffer.
     */
    boolean endedInsideFpdu()
    {
        final int available = end - start;
        if (inputEnded && placingDirectly())
        {
            return true;
        }
        if (!inputEnded || 0 == available)
        {
            return false;
        }
        final int ulpduLength = available >= Fpdu.LENGTH_FIELD_LENGTH ? Fpdu.ulpduLength(buffer, start) : 0xFFFF;
        return available < Fpdu.fpduLength(ulpduLength);
    }
}
