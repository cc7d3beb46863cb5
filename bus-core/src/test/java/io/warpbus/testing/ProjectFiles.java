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
package io.warpbus.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Files of the checkout a test runs in (the README, docs/, config/, the launcher), found from the module directory
 * Surefire runs the test in.
 */
public final class ProjectFiles
{
    private ProjectFiles()
    {
    }

    /**
     * The checkout's top directory: the nearest directory at or above the working directory that holds the
     * launcher and config/jvm.args.
     *
     * @return its real path.
     */
    public static Path root()
    {
        Path dir = Path.of("").toAbsolutePath();
        while (null != dir)
        {
            if (Files.isRegularFile(dir.resolve("warpbus")) && Files.isRegularFile(dir.resolve("config/jvm.args")))
            {
                try
                {
                    return dir.toRealPath();
                }
                catch (final IOException ex)
                {
                    throw new UncheckedIOException(ex);
                }
            }
            dir = dir.getParent();
        }
        throw new IllegalStateException("no WarpBus checkout at or above " + Path.of("").toAbsolutePath());
    }
}
