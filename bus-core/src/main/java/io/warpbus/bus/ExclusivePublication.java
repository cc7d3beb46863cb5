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
 * A publication for one thread: claiming space is a plain increment, the cheapest path.
 */
public final class ExclusivePublication extends Publication
{
    private long tailPosition;

    ExclusivePublication(
        final Bus bus,
        final ChannelUri channel,
        final int sessionId,
        final LogBuffer log,
        final AtomicCounter backPressureEvents,
        final long registrationId)
    {
        super(bus, channel, sessionId, log, backPressureEvents, registrationId);
        this.tailPosition = log.tail.get();
    }

    @Override
    public long offer(final DirectBuffer buffer, final int offset, final int length)
    {
        checkLength(length);
        final long position = tailPosition;
        final int required = requiredLength(length);
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
        if (padding > 0)
        {
            writePadding(position, padding);
        }
        final long next = writeMessage(position + padding, buffer, offset, length);
        tailPosition = next;
        log.tail.lazySet(next);
        eagerSend();
        return next;
    }

    @Override
    public long tryClaim(final int length, final BufferClaim claim)
    {
        if (length < 0 || length > maxPayloadLength)
        {
            throw new IllegalArgumentException("claim of " + length + " bytes: must be in [0, " + maxPayloadLength +
                "] on " + channel);
        }
        final long position = tailPosition;
        final int required = requiredLength(length);
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
        if (padding > 0)
        {
            writePadding(position, padding);
        }
        prepareClaim(position + padding, length, claim);
        tailPosition = end;
        log.tail.lazySet(end);
        return end;
    }
}
