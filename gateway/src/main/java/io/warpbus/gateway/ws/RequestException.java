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

import io.warpbus.gateway.session.ProtocolError;

/**
 * A client message the WebSocket adapter refuses, with the error code and a text naming what was wrong.
 */
final class RequestException extends Exception
{
    private final ProtocolError error;
    private final String requestId;

    RequestException(final ProtocolError error, final String message, final String requestId)
    {
        super(message, null, false, false);
        this.error = error;
        this.requestId = requestId;
    }

    ProtocolError error()
    {
        return error;
    }

    String requestId()
    {
        return requestId;
    }
}
