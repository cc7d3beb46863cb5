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
package io.warpbus.journal;

/**
 * A fault of the journal: a missing, read-only or damaged directory or file, an unknown stream, a sequence out of
 * order or out of range. The message names the stream, the file or the setting at fault.
 */
public class JournalException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * A fault.
     *
     * @param message what went wrong, naming the stream, file or setting.
     */
    public JournalException(final String message)
    {
        super(message);
    }

    /**
     * A fault with its cause.
     *
     * @param message what went wrong, naming the stream, file or setting.
     * @param cause   the underlying exception.
     */
    public JournalException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
