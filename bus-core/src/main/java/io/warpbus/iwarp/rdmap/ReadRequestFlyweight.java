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
package io.warpbus.iwarp.rdmap;

import java.nio.ByteOrder;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The RDMA Read Request header (RFC 5040 section 4.4), after the untagged DDP header.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                    Data Sink STag                             |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                 Data Sink Tagged Offset (64)                  |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                  RDMA Read Message Size                       |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                    Data Source STag                           |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                Data Source Tagged Offset (64)                 |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * The Read Response is an RDMA-Write-like tagged message to (sink STag, sink TO).
 */
public final class ReadRequestFlyweight
{
    /** Length of the header. */
    public static final int LENGTH = 28;
    private static final int SINK_STAG_OFFSET = 0;
    private static final int SINK_TO_OFFSET = 4;
    private static final int SIZE_OFFSET = 12;
    private static final int SOURCE_STAG_OFFSET = 16;
    private static final int SOURCE_TO_OFFSET = 20;

    private DirectBuffer buffer;
    private int offset;

    /**
     * Wrap a header.
     *
     * @param buffer holding it.
     * @param offset of its first byte.
     * @return this for a fluent API.
     */
    public ReadRequestFlyweight wrap(final DirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    /**
     * Data sink STag.
     *
     * @return the STag.
     */
    public int sinkStag()
    {
        return buffer.getInt(offset + SINK_STAG_OFFSET, ByteOrder.BIG_ENDIAN);
    }

    /**
     * Data sink tagged offset.
     *
     * @return the TO.
     */
    public long sinkTaggedOffset()
    {
        return buffer.getLong(offset + SINK_TO_OFFSET, ByteOrder.BIG_ENDIAN);
    }

    /**
     * RDMA Read message size, an unsigned 32-bit value.
     *
     * @return the size as a non-negative long.
     */
    public long size()
    {
        return buffer.getInt(offset + SIZE_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL;
    }

    /**
     * Data source STag.
     *
     * @return the STag.
     */
    public int sourceStag()
    {
        return buffer.getInt(offset + SOURCE_STAG_OFFSET, ByteOrder.BIG_ENDIAN);
    }

    /**
     * Data source tagged offset.
     *
     * @return the TO.
     */
    public long sourceTaggedOffset()
    {
        return buffer.getLong(offset + SOURCE_TO_OFFSET, ByteOrder.BIG_ENDIAN);
    }

    /**
     * Write a header.
     *
     * @param buffer    to write into.
     * @param offset    of the first byte.
     * @param sinkStag  data sink STag.
     * @param sinkTo    data sink tagged offset.
     * @param size      bytes to read.
     * @param srcStag   data source STag.
     * @param srcTo     data source tagged offset.
     * @return the header length.
     */
    public static int put(
        final MutableDirectBuffer buffer,
        final int offset,
        final int sinkStag,
        final long sinkTo,
        final int size,
        final int srcStag,
        final long srcTo)
    {
        buffer.putInt(offset + SINK_STAG_OFFSET, sinkStag, ByteOrder.BIG_ENDIAN);
        buffer.putLong(offset + SINK_TO_OFFSET, sinkTo, ByteOrder.BIG_ENDIAN);
        buffer.putInt(offset + SIZE_OFFSET, size, ByteOrder.BIG_ENDIAN);
        buffer.putInt(offset + SOURCE_STAG_OFFSET, srcStag, ByteOrder.BIG_ENDIAN);
        buffer.putLong(offset + SOURCE_TO_OFFSET, srcTo, ByteOrder.BIG_ENDIAN);
        return LENGTH;
    }
}
