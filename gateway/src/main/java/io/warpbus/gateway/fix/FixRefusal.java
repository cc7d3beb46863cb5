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
package io.warpbus.gateway.fix;

/**
 * A well-formed FIX message the adapter will not hand to the session core, answered with a BusinessMessageReject (j)
 * whose Text (58) is the message of this exception.
 */
final class FixRefusal extends Exception
{
    private static final long serialVersionUID = 1L;

    /** BusinessRejectReason (380) values used. */
    static final int OTHER = 0;
    static final int UNSUPPORTED_MESSAGE_TYPE = 3;
    static final int APPLICATION_NOT_AVAILABLE = 4;
    static final int CONDITIONALLY_REQUIRED_FIELD_MISSING = 5;

    private final int reason;

    /**
     * A refusal.
     *
     * @param reason the BusinessRejectReason.
     * @param text   what was wrong, naming the tag.
     */
    FixRefusal(final int reason, final String text)
    {
        super(text, null, false, false);
        this.reason = reason;
    }

    /**
     * The BusinessRejectReason (380).
     *
     * @return the code.
     */
    int reason()
    {
        return reason;
    }
}
