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
package io.warpbus.gateway;

import java.io.DataInputStream;
import java.io.IOException;

/**
 * Reading WebSocket frames in tests that play one side of the protocol by hand (RFC 6455 section 5.2).
 */
public final class WebSocketFrames
{
    private WebSocketFrames()
    {
    }

    /**
     * The payload length that follows a frame's second byte: 7 bits, or 126 and 16 bits, or 127 and 64 bits.
     *
     * @param in     positioned just after the second byte.
     * @param second the second byte (MASK bit and 7-bit length).
     * @return the payload length.
     * @throws IOException if the stream ends.
     */
    public static long payloadLength(final DataInputStream in, final int second) throws IOException
    {
        final long length = second & 0x7F;
        if (126 == length)
        {
            return in.readUnsignedShort();
        }
        return 127 == length ? in.readLong() : length;
    }
}
