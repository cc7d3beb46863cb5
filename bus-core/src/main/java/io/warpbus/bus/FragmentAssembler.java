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
import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.collections.Int2ObjectHashMap;

/**
 * Puts fragmented messages back together before handing them to a delegate handler; unfragmented messages pass
 * straight through without a copy. Keeps one buffer per publisher session; a gap or a new message start inside a
 * message discards the partial message.
 */
public final class FragmentAssembler implements FragmentHandler
{
    private final FragmentHandler delegate;
    private final int initialCapacity;
    private final Int2ObjectHashMap<Builder> builders = new Int2ObjectHashMap<>();

    /**
     * Wrap a handler.
     *
     * @param delegate receives whole messages.
     */
    public FragmentAssembler(final FragmentHandler delegate)
    {
        this(delegate, 4096);
    }

    /**
     * Wrap a handler.
     *
     * @param delegate        receives whole messages.
     * @param initialCapacity initial reassembly buffer size per session.
     */
    public FragmentAssembler(final FragmentHandler delegate, final int initialCapacity)
    {
        this.delegate = delegate;
        this.initialCapacity = initialCapacity;
    }

    @Override
    public void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        final int flags = header.flags();
        if (FrameDescriptor.FLAGS_UNFRAGMENTED == (flags & FrameDescriptor.FLAGS_UNFRAGMENTED))
        {
            delegate.onFragment(buffer, offset, length, header);
            return;
        }
        Builder builder = builders.get(header.sessionId());
        if (null == builder)
        {
            builder = new Builder(initialCapacity);
            builders.put(header.sessionId(), builder);
        }
        if ((flags & FrameDescriptor.FLAG_BEGIN) != 0)
        {
            builder.reset(header.sequence());
            builder.append(buffer, offset, length);
        }
        else if (builder.length > 0 && header.sequence() == builder.nextSequence)
        {
            builder.append(buffer, offset, length);
            if ((flags & FrameDescriptor.FLAG_END) != 0)
            {
                delegate.onFragment(builder.buffer, 0, builder.length, header);
                builder.reset(0);
            }
        }
        else
        {
            // A middle or last fragment whose start was missed (a gap): drop it.
            builder.reset(0);
        }
    }

    private static final class Builder
    {
        private final ExpandableDirectByteBuffer buffer;
        private int length;
        private long nextSequence;

        Builder(final int capacity)
        {
            buffer = new ExpandableDirectByteBuffer(capacity);
        }

        void reset(final long sequence)
        {
            length = 0;
            nextSequence = sequence;
        }

        void append(final DirectBuffer source, final int offset, final int count)
        {
            buffer.putBytes(length, source, offset, count);
            length += count;
            nextSequence++;
        }
    }
}
