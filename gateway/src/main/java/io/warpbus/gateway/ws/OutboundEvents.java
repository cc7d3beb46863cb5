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
package io.warpbus.gateway.ws;

import io.warpbus.gateway.security.Authenticator;
import io.warpbus.gateway.session.EventDescriptor;
import io.warpbus.gateway.session.EventText;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.MessageHandler;

/**
 * What a sender does with each event the session core queued for a socket: encode it as JSON and send it, or carry
 * out a close. The core's answer to a logon passes through here on its way to the client, so this is where the
 * {@link Authenticator} hears it, off the core's thread: a refusal counts toward the logon throttle and an
 * acceptance forgives the failures of the name the logon used. A refusal still queued when its connection is
 * retired (the client did not wait for it) counts all the same. One per sending thread.
 */
final class OutboundEvents
{
    private final JsonEventEncoder encoder;
    private final Authenticator authenticator;
    private final MessageHandler sending = this::onEvent;
    private final MessageHandler unsent = this::onUnsent;
    private ClientSocket socket;

    OutboundEvents(final JsonEventEncoder encoder, final Authenticator authenticator)
    {
        this.encoder = encoder;
        this.authenticator = authenticator;
    }

    /**
     * The handler that sends a socket's events; set the socket first.
     *
     * @param socket whose queue is read next.
     * @return the handler.
     */
    MessageHandler sending(final ClientSocket socket)
    {
        this.socket = socket;
        return sending;
    }

    /**
     * The handler for the events of a retired socket, which only hears logon answers.
     *
     * @param socket whose queue is read next.
     * @return the handler.
     */
    MessageHandler unsent(final ClientSocket socket)
    {
        this.socket = socket;
        return unsent;
    }

    private void onEvent(final int type, final DirectBuffer buffer, final int offset, final int length)
    {
        onLogonAnswer(type);
        if (EventDescriptor.CLOSE == type)
        {
            socket.close(buffer.getInt(offset + EventDescriptor.CODE_OFFSET),
                EventText.get(buffer, offset + EventDescriptor.REASON_TEXT_OFFSET));
            return;
        }
        final String json = encoder.encode(type, buffer, offset, length);
        if (null != json)
        {
            socket.send(json);
        }
    }

    private void onUnsent(final int type, final DirectBuffer buffer, final int offset, final int length)
    {
        onLogonAnswer(type);
    }

    private void onLogonAnswer(final int type)
    {
        if (EventDescriptor.LOGON_REJECTED == type)
        {
            authenticator.onRefused(socket.host(), socket.logonName());
        }
        else if (EventDescriptor.LOGON_ACCEPTED == type)
        {
            authenticator.onAccepted(socket.logonName());
        }
    }
}
