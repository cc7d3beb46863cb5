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

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The header a publisher writes, read back byte by byte as the class comment lays it out (little-endian), and the
 * words it must leave alone: the commit word and the sequence, which others write.
 */
class FrameDescriptorTest
{
    @ParameterizedTest
    @CsvSource({
        "1, 192, 7, 42, 1234567890123",
        "1, 128, -1, -2, -1",
        "2, 0, 2147483647, -2147483648, 0",
        "1, 64, -1000, 1000, 9223372036854775807" })
    void shouldWriteEveryFieldInItsPlaceAndNothingElse(
        final int type, final int flags, final int streamId, final int sessionId, final long timestamp)
    {
        final ByteBuffer bytes = ByteBuffer.allocateDirect(128).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < bytes.capacity(); i++)
        {
            bytes.put(i, (byte)0xA5);
        }
        final int offset = 40;

        FrameDescriptor.putHeader(new UnsafeBuffer(bytes), offset, type, flags, streamId, sessionId, timestamp);

        assertEquals(type, bytes.getShort(offset + 4) & 0xFFFF, "type");
        assertEquals(flags, bytes.get(offset + 6) & 0xFF, "flags");
        assertEquals(FrameDescriptor.VERSION, bytes.get(offset + 7), "version");
        assertEquals(streamId, bytes.getInt(offset + 8), "stream id");
        assertEquals(sessionId, bytes.getInt(offset + 12), "session id");
        assertEquals(timestamp, bytes.getLong(offset + 24), "timestamp");
        for (final int untouched : new int[] { offset - 1, offset, offset + 3, offset + 16, offset + 23, offset + 32 })
        {
            assertEquals((byte)0xA5, bytes.get(untouched), "byte " + (untouched - offset) + " of the frame");
        }
    }
}
