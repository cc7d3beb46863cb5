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
package io.warpbus.bus.protocol;

import java.nio.ByteOrder;

import org.agrona.BitUtil;
import org.agrona.UnsafeApi;
import org.agrona.concurrent.AtomicBuffer;

/**
 * A data frame in a publication's log and in every subscriber's ring.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                  Frame Length (commit word)                   |  0
 *  +-------------------------------+---------------+---------------+
 *  |             Type              |     Flags     |    Version    |  4
 *  +-------------------------------+---------------+---------------+
 *  |                           Stream Id                           |  8
 *  +---------------------------------------------------------------+
 *  |                          Session Id                           | 12
 *  +---------------------------------------------------------------+
 *  |                       Sequence (64 bits)                      | 16
 *  +---------------------------------------------------------------+
 *  |                  Timestamp, epoch ns (64 bits)                | 24
 *  +---------------------------------------------------------------+
 *  |                            Payload                          ...  32
 * </pre>
 * All fields little-endian. Frames start 8-byte aligned and never cross a term boundary: a frame that does not
 * fit in the rest of a term is preceded by a padding frame that fills it (as little as 8 bytes: length and
 * type). The frame length, written last with an
 * ordered store, commits the frame in the publisher's log; a subscriber reads only frames below the commit
 * position of its ring (see {@link RingDescriptor}), so it never sees a torn frame.
 */
public final class FrameDescriptor
{
    /** Length of the header. */
    public static final int HEADER_LENGTH = 32;
    /** Shortest frame: a padding frame at the end of a term carries only its length and type. */
    public static final int MIN_FRAME_LENGTH = 8;
    /** Frames start on this alignment. */
    public static final int FRAME_ALIGNMENT = 8;
    /** Frame format version. */
    public static final int VERSION = 1;

    /** A frame carrying a message or a fragment of one. */
    public static final int TYPE_DATA = 1;
    /** A frame filling the rest of a term; carries no message. */
    public static final int TYPE_PAD = 2;

    /** Flag: first fragment of a message. */
    public static final int FLAG_BEGIN = 0x80;
    /** Flag: last fragment of a message. */
    public static final int FLAG_END = 0x40;
    /** Flags of an unfragmented message. */
    public static final int FLAGS_UNFRAGMENTED = FLAG_BEGIN | FLAG_END;

    /** Offset of the frame length. */
    public static final int LENGTH_OFFSET = 0;
    /** Offset of the type. */
    public static final int TYPE_OFFSET = 4;
    /** Offset of the flags. */
    public static final int FLAGS_OFFSET = 6;
    /** Offset of the version. */
    public static final int VERSION_OFFSET = 7;
    /** Offset of the stream id. */
    public static final int STREAM_ID_OFFSET = 8;
    /** Offset of the session id. */
    public static final int SESSION_ID_OFFSET = 12;
    /** Offset of the sequence. */
    public static final int SEQUENCE_OFFSET = 16;
    /** Offset of the timestamp. */
    public static final int TIMESTAMP_OFFSET = 24;

    private FrameDescriptor()
    {
    }

    /**
     * Aligned length of a frame with this payload.
     *
     * @param payloadLength payload bytes.
     * @return header plus payload rounded up to {@link #FRAME_ALIGNMENT}.
     */
    public static int alignedLength(final int payloadLength)
    {
        return BitUtil.align(HEADER_LENGTH + payloadLength, FRAME_ALIGNMENT);
    }

    /**
     * A frame's length as read, header included, rounded up to the frame alignment in long arithmetic, so that no
     * value read from a corrupt frame overflows: a negative length stays negative.
     *
     * @param frameLength the length field as read.
     * @return the aligned length.
     */
    public static long alignedFrameLength(final int frameLength)
    {
        return ((long)frameLength + FRAME_ALIGNMENT - 1) & -FRAME_ALIGNMENT;
    }

    /**
     * Read the commit word with acquire semantics.
     *
     * @param buffer holding the frame.
     * @param offset of the frame.
     * @return the frame length, 0 while not committed.
     */
    public static int frameLengthVolatile(final AtomicBuffer buffer, final int offset)
    {
        final int length = buffer.getIntVolatile(offset + LENGTH_OFFSET);
        return ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? length : Integer.reverseBytes(length);
    }

    /**
     * Commit a frame with an ordered store of its length, after everything else of it has been written.
     *
     * @param buffer holding the frame.
     * @param offset of the frame.
     * @param length the frame length (header and payload, unaligned).
     */
    public static void commit(final AtomicBuffer buffer, final int offset, final int length)
    {
        final int value = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? length : Integer.reverseBytes(length);
        buffer.putIntOrdered(offset + LENGTH_OFFSET, value);
    }

    /**
     * Write every header field except the frame length and the sequence.
     *
     * @param buffer    to write into.
     * @param offset    of the frame.
     * @param type      {@link #TYPE_DATA} or {@link #TYPE_PAD}.
     * @param flags     fragment flags.
     * @param streamId  stream id.
     * @param sessionId session id.
     * @param timestamp epoch nanoseconds.
     */
    public static void putHeader(
        final AtomicBuffer buffer,
        final int offset,
        final int type,
        final int flags,
        final int streamId,
        final int sessionId,
        final long timestamp)
    {
        // Three stores, not six: type, flags and version are one little-endian int, stream and session one long.
        buffer.putInt(offset + TYPE_OFFSET, (type & 0xFFFF) | (flags & 0xFF) << 16 | VERSION << 24,
            ByteOrder.LITTLE_ENDIAN);
        buffer.putLong(offset + STREAM_ID_OFFSET, (streamId & 0xFFFF_FFFFL) | (long)sessionId << 32,
            ByteOrder.LITTLE_ENDIAN);
        buffer.putLong(offset + TIMESTAMP_OFFSET, timestamp, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * The frame type.
     *
     * @param buffer holding the frame.
     * @param offset of the frame.
     * @return the type.
     */
    public static int type(final AtomicBuffer buffer, final int offset)
    {
        return buffer.getShort(offset + TYPE_OFFSET, ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
    }

    /**
     * The fragment flags.
     *
     * @param buffer holding the frame.
     * @param offset of the frame.
     * @return the flags.
     */
    public static int flags(final AtomicBuffer buffer, final int offset)
    {
        return buffer.getByte(offset + FLAGS_OFFSET) & 0xFF;
    }

    /**
     * The sequence.
     *
     * @param buffer holding the frame.
     * @param offset of the frame.
     * @return the sequence.
     */
    public static long sequence(final AtomicBuffer buffer, final int offset)
    {
        return buffer.getLong(offset + SEQUENCE_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * Stamp the sequence (done by the publisher's conductor, in log order).
     *
     * @param buffer   holding the frame.
     * @param offset   of the frame.
     * @param sequence the sequence.
     */
    public static void sequence(final AtomicBuffer buffer, final int offset, final long sequence)
    {
        buffer.putLong(offset + SEQUENCE_OFFSET, sequence, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * The plain (not volatile) frame length.
     *
     * @param buffer holding the frame.
     * @param offset of the frame.
     * @return the length.
     */
    public static int frameLength(final AtomicBuffer buffer, final int offset)
    {
        return buffer.getInt(offset + LENGTH_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * The frame's first eight bytes (length, type, flags, version) in one plain read with no bounds check, for a
     * reader that needs both the length and the type of every frame and knows the frame starts inside its buffer
     * on a frame boundary; take them apart with {@link #lengthOf} and {@link #typeOf}. Every frame, padding
     * included, has these eight bytes.
     *
     * @param array   the buffer's {@code byteArray()} (null off heap).
     * @param address the buffer's {@code addressOffset()} plus the frame's offset.
     * @return the word.
     */
    public static long firstWord(final byte[] array, final long address)
    {
        return littleEndian(UnsafeApi.getLong(array, address + LENGTH_OFFSET));
    }

    /**
     * The stream sequence of a data frame, read with no bounds check, for a reader that knows the frame's header
     * lies inside its buffer.
     *
     * @param array   the buffer's {@code byteArray()} (null off heap).
     * @param address the buffer's {@code addressOffset()} plus the frame's offset.
     * @return the sequence.
     */
    public static long sequence(final byte[] array, final long address)
    {
        return littleEndian(UnsafeApi.getLong(array, address + SEQUENCE_OFFSET));
    }

    private static long littleEndian(final long word)
    {
        return ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? word : Long.reverseBytes(word);
    }

    /**
     * The frame length in a {@link #firstWord}.
     *
     * @param firstWord the word.
     * @return the length.
     */
    public static int lengthOf(final long firstWord)
    {
        return (int)firstWord;
    }

    /**
     * The frame type in a {@link #firstWord}.
     *
     * @param firstWord the word.
     * @return the type.
     */
    public static int typeOf(final long firstWord)
    {
        return (int)(firstWord >>> (TYPE_OFFSET * Byte.SIZE)) & 0xFFFF;
    }
}
