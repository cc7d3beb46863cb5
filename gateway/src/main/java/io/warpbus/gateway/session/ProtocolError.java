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

/**
 * Why a client message was refused before it became a command, or why a command could not be honoured. The code
 * goes to the client in an {@code error} message with a text naming what was wrong; codes are stable.
 * <p>
 * No code stands for overload or rate limits, as no {@code error} message reports them: an order over a rate limit
 * is rejected with reason 502, too many failed logons get the logon refused, and a full inbound queue refuses a
 * logon or closes a logged-on connection with WebSocket close code 1013 (try again later). Numbers 12 and 13 were
 * once {@code rateLimited} and {@code busy}, never sent; they are not to be reused.
 */
public enum ProtocolError
{
    /** Not JSON, or not a JSON object. */
    MALFORMED(1, "malformed"),
    /** A type the gateway does not know. */
    UNKNOWN_TYPE(2, "unknownType"),
    /** A required field is absent. */
    MISSING_FIELD(3, "missingField"),
    /** A field the message type does not have. */
    UNKNOWN_FIELD(4, "unknownField"),
    /** A field of the wrong JSON type. */
    WRONG_TYPE(5, "wrongType"),
    /** A field of the right type whose value is out of range or badly formed. */
    INVALID_VALUE(6, "invalidValue"),
    /** The message is longer than the gateway accepts. */
    TOO_LARGE(7, "tooLarge"),
    /** Anything but a logon before the session is logged on. */
    NOT_LOGGED_ON(8, "notLoggedOn"),
    /** A second logon on a logged-on connection. */
    ALREADY_LOGGED_ON(9, "alreadyLoggedOn"),
    /** The instrument is unknown or not entitled. */
    UNKNOWN_INSTRUMENT(10, "unknownInstrument"),
    /** A subscription that exists already, or an unsubscribe of none. */
    SUBSCRIPTION_STATE(11, "subscriptionState");

    private static final ProtocolError[] BY_CODE = new ProtocolError[16];

    static
    {
        for (final ProtocolError error : values())
        {
            BY_CODE[error.code] = error;
        }
    }

    private final int code;
    private final String label;

    ProtocolError(final int code, final String label)
    {
        this.code = code;
        this.label = label;
    }

    /**
     * Stable numeric code.
     *
     * @return the code.
     */
    public int code()
    {
        return code;
    }

    /**
     * The name clients see.
     *
     * @return the label, e.g. {@code missingField}.
     */
    public String label()
    {
        return label;
    }

    /**
     * Look up by code.
     *
     * @param code as returned by {@link #code()}.
     * @return the error, or null if unknown.
     */
    public static ProtocolError get(final int code)
    {
        return code > 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
