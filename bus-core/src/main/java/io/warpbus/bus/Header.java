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
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The header of the fragment being delivered: a view valid only during the handler call.
 */
public final class Header
{
    private final Image image;
    private UnsafeBuffer buffer;
    private long position;

    Header(final Image image, final UnsafeBuffer buffer)
    {
        this.image = image;
        this.buffer = buffer;
    }

    /**
     * The image's frames moved to another buffer. Kept apart from {@link #wrap}, which runs for every fragment
     * and so stores one number.
     */
    void buffer(final UnsafeBuffer buffer)
    {
        this.buffer = buffer;
    }

    void wrap(final long position)
    {
        this.position = position;
    }

    private int offset()
    {
        return image.offset(position);
    }

    /**
     * Stream id.
     *
     * @return the id.
     */
    public int streamId()
    {
        return buffer.getInt(offset() + FrameDescriptor.STREAM_ID_OFFSET, java.nio.ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * The publisher's session.
     *
     * @return the session id.
     */
    public int sessionId()
    {
        return buffer.getInt(offset() + FrameDescriptor.SESSION_ID_OFFSET, java.nio.ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * The stream sequence of this frame.
     *
     * @return the sequence.
     */
    public long sequence()
    {
        return FrameDescriptor.sequence(buffer, offset());
    }

    /**
     * When the publisher accepted the message.
     *
     * @return epoch nanoseconds.
     */
    public long timestampNs()
    {
        return buffer.getLong(offset() + FrameDescriptor.TIMESTAMP_OFFSET, java.nio.ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * Fragment flags: {@link FrameDescriptor#FLAG_BEGIN}, {@link FrameDescriptor#FLAG_END}.
     *
     * @return the flags.
     */
    public int flags()
    {
        return FrameDescriptor.flags(buffer, offset());
    }

    /**
     * The stream position of this frame's start.
     *
     * @return the position.
     */
    public long position()
    {
        return position;
    }

    /**
     * The image the fragment came from.
     *
     * @return the image.
     */
    public Image image()
    {
        return image;
    }
}
