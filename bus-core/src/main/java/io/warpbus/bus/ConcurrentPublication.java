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

import org.agrona.DirectBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * A publication many threads may offer to: each message claims its space (padding included) with one
 * compare-and-set of the tail, then writes and commits its frames without further coordination. The bus sends
 * frames in log order once every frame before them is committed.
 */
public final class ConcurrentPublication extends Publication
{
    ConcurrentPublication(
        final Bus bus,
        final ChannelUri channel,
        final int sessionId,
        final LogBuffer log,
        final AtomicCounter backPressureEvents,
        final long registrationId)
    {
        super(bus, channel, sessionId, log, backPressureEvents, registrationId);
    }

    @Override
    public long offer(final DirectBuffer buffer, final int offset, final int length)
    {
        checkLength(length);
        final int required = requiredLength(length);
        while (true)
        {
            final long position = log.tail.get();
            final int padding = padding(position, required);
            final long end = position + padding + required;
            if (closed)
            {
                return CLOSED;
            }
            if (end > log.limit.get())
            {
                return backPressured(end);
            }
            if (log.tail.compareAndSet(position, end))
            {
                if (padding > 0)
                {
                    writePadding(position, padding);
                }
                writeMessage(position + padding, buffer, offset, length);
                eagerSend();
                return end;
            }
        }
    }

    @Override
    public long tryClaim(final int length, final BufferClaim claim)
    {
        if (length < 0 || length > maxPayloadLength)
        {
            throw new IllegalArgumentException("claim of " + length + " bytes: must be in [0, " + maxPayloadLength +
                "] on " + channel);
        }
        final int required = requiredLength(length);
        while (true)
        {
            final long position = log.tail.get();
            final int padding = padding(position, required);
            final long end = position + padding + required;
            if (closed)
            {
                return CLOSED;
            }
            if (end > log.limit.get())
            {
                return backPressured(end);
            }
            if (log.tail.compareAndSet(position, end))
            {
                if (padding > 0)
                {
                    writePadding(position, padding);
                }
                prepareClaim(position + padding, length, claim);
                return end;
            }
        }
    }
}
