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

import java.nio.file.Path;

/**
 * Reads a FIX adapter's session state file for tests in other packages, through {@link FixSessionState} itself, so
 * that the file's layout is written down in one place.
 */
public final class FixSessionStateFiles
{
    private FixSessionStateFiles()
    {
    }

    /**
     * The core sequence number of the last event the adapter handed to QuickFIX/J, as its state file says now.
     *
     * @param file the session's state file, which the adapter has created.
     * @return 0 when none.
     */
    public static long lastDelivered(final Path file)
    {
        try (FixSessionState state = new FixSessionState(file))
        {
            return state.lastDelivered();
        }
    }
}
