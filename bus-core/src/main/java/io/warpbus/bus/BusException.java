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

/**
 * A fault of the bus: recorded in its error log and counted. Expected outcomes (back pressure, not connected) are
 * return values, not exceptions.
 */
public final class BusException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * Create an exception.
     *
     * @param message what happened, naming the channel or peer.
     */
    public BusException(final String message)
    {
        super(message);
    }

    /**
     * Create an exception with a cause.
     *
     * @param message what happened.
     * @param cause   the underlying error.
     */
    public BusException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
