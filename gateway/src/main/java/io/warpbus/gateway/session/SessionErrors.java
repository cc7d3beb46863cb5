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
package io.warpbus.gateway.session;

import java.nio.ByteBuffer;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The {@code ERROR} events of the session core: a {@link ProtocolError} code, the request id of the command it
 * answers, and a text naming what was wrong, written without allocating.
 */
final class SessionErrors
{
    private final Outbox outbox;
    private final GatewayCounters counters;
    private final UnsafeBuffer event = new UnsafeBuffer(ByteBuffer.allocateDirect(EventDescriptor.ERROR_LENGTH));
    private final StringBuilder text = new StringBuilder(EventDescriptor.TEXT_WIDTH);
    private final StringBuilder symbol = new StringBuilder(CommandDescriptor.SYMBOL_WIDTH);

    SessionErrors(final Outbox outbox, final GatewayCounters counters)
    {
        this.outbox = outbox;
        this.counters = counters;
    }

    /**
     * Send an error answering a command.
     *
     * @param session the session.
     * @param error   the code.
     * @param command the command it answers (for its request id), or null.
     * @param offset  where the command starts.
     * @param text    what was wrong.
     * @param detail  appended to the text, or null.
     * @param nowNs   the time now.
     */
    void send(final Session session, final ProtocolError error, final DirectBuffer command, final int offset,
        final CharSequence text, final CharSequence detail, final long nowNs)
    {
        final StringBuilder builder = this.text;
        builder.setLength(0);
        builder.append(text);
        if (null != detail)
        {
            builder.append(detail);
        }
        event.putInt(EventDescriptor.CODE_OFFSET, error.code());
        if (null == command)
        {
            event.putByte(EventDescriptor.ERROR_REQUEST_ID_OFFSET, (byte)0);
        }
        else
        {
            event.putBytes(EventDescriptor.ERROR_REQUEST_ID_OFFSET, command,
                offset + CommandDescriptor.REQUEST_ID_OFFSET, 1 + EventDescriptor.REQUEST_ID_WIDTH);
        }
        EventText.put(event, EventDescriptor.ERROR_TEXT_OFFSET, builder);
        counters.increment(GatewayCounterDescriptor.PROTOCOL_ERRORS);
        outbox.send(session, EventDescriptor.ERROR, event, 0, EventDescriptor.ERROR_LENGTH, nowNs);
    }

    /**
     * Send the error for a subscribe or unsubscribe of an instrument the session may not see or that is unknown,
     * naming the symbol it asked for.
     */
    void unknownInstrument(final Session session, final DirectBuffer command, final int offset, final long nowNs)
    {
        CommandDescriptor.getAscii(command, offset + CommandDescriptor.SUBSCRIBE_SYMBOL_OFFSET,
            CommandDescriptor.SYMBOL_WIDTH, symbol);
        send(session, ProtocolError.UNKNOWN_INSTRUMENT, command, offset, "unknown or not entitled instrument: ",
            symbol, nowNs);
    }
}
