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
package io.warpbus.bus.status;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Edits a counters file's header in place, for tests outside this package that need a file in a state no running
 * owner would leave it in (such as the {@code stat} tool's tests).
 */
public final class CountersFilePatch
{
    private CountersFilePatch()
    {
    }

    /**
     * Overwrite the owner's process id.
     *
     * @param file a counters file.
     * @param pid  the process id to record.
     * @throws IOException when the file cannot be written.
     */
    public static void ownerPid(final Path file, final long pid) throws IOException
    {
        CountersFileTest.patchLong(file, CountersFile.PID_OFFSET, pid);
    }
}
