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
package io.warpbus.iwarp.mpa;

/**
 * The MPA exchange failed. Carries the MPA error code (RFC 5044 section 8, RFC 6581 section 8) that a Terminate
 * would report, and a message naming what was wrong.
 */
public final class MpaException extends RuntimeException
{
    /** Invalid MPA request or response frame. */
    public static final int INVALID_FRAME = 0x04;
    /** Local catastrophic error. */
    public static final int LOCAL_CATASTROPHIC = 0x05;
    /** Insufficient IRD resources. */
    public static final int INSUFFICIENT_IRD = 0x06;
    /** No matching RTR option. */
    public static final int NO_MATCHING_RTR = 0x07;

    private static final long serialVersionUID = 1L;

    private final int mpaErrorCode;

    /**
     * Create an exception.
     *
     * @param mpaErrorCode one of the codes above.
     * @param message      what was wrong.
     */
    public MpaException(final int mpaErrorCode, final String message)
    {
        super(message);
        this.mpaErrorCode = mpaErrorCode;
    }

    /**
     * The MPA error code.
     *
     * @return the code.
     */
    public int mpaErrorCode()
    {
        return mpaErrorCode;
    }
}
