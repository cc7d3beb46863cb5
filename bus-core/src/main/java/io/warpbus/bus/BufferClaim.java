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
package io.warpbus.bus;

import io.warpbus.bus.protocol.FrameDescriptor;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Space claimed in a publication's log by {@link Publication#tryClaim}: write the message in place, then
 * {@link #commit()} it, or {@link #abort()} to turn the space into padding. Until then subscribers see nothing of it.
 */
public final class BufferClaim
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(0, 0);
    private int frameOffset;
    private int frameLength;
    private Publication publication;

    void wrap(final Publication publication, final UnsafeBuffer log, final int frameOffset, final int frameLength)
    {
        this.publication = publication;
        buffer.wrap(log, 0, log.capacity());
        this.frameOffset = frameOffset;
        this.frameLength = frameLength;
    }

    /**
     * The buffer to write the message into, at {@link #offset()}.
     *
     * @return the log buffer.
     */
    public MutableDirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * Where the message starts in {@link #buffer()}.
     *
     * @return the offset.
     */
    public int offset()
    {
        return frameOffset + FrameDescriptor.HEADER_LENGTH;
    }

    /**
     * Bytes claimed for the message.
     *
     * @return the length.
     */
    public int length()
    {
        return frameLength - FrameDescriptor.HEADER_LENGTH;
    }

    /**
     * Make the message visible to subscribers.
     */
    public void commit()
    {
        FrameDescriptor.commit(buffer, frameOffset, frameLength);
        publication.eagerSend();
    }

    /**
     * Give the space up: it becomes padding that subscribers skip.
     */
    public void abort()
    {
        buffer.putShort(frameOffset + FrameDescriptor.TYPE_OFFSET, (short)FrameDescriptor.TYPE_PAD,
            java.nio.ByteOrder.LITTLE_ENDIAN);
        FrameDescriptor.commit(buffer, frameOffset, frameLength);
    }
}
