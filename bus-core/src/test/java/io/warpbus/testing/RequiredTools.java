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

import java.io.File;
import java.util.ArrayList;
import java.util.List;

import org.opentest4j.TestAbortedException;

/**
 * External programs a test needs (tshark, prometheus, chromium...). Where one is missing the test is skipped with
 * the reason, so a developer's laptop says clearly what it did not run; with {@value #REQUIRE_ENV}=1 in the
 * environment, as {@code .ci/run} sets, it fails instead: a skipped test proves nothing in CI.
 */
public final class RequiredTools
{
    /** Set to 1 where every test must run (CI). */
    public static final String REQUIRE_ENV = "WARPBUS_CI";

    private RequiredTools()
    {
    }

    /**
     * Skip, or fail in CI, unless every program is on the PATH.
     *
     * @param why     what the test needs them for.
     * @param program the programs.
     */
    public static void require(final String why, final String... program)
    {
        final List<String> missing = new ArrayList<>();
        for (final String name : program)
        {
            if (null == find(name))
            {
                missing.add(name);
            }
        }
        if (!missing.isEmpty())
        {
            final String reason = why + " needs " + String.join(", ", missing) + " on the PATH (.ci/run installs " +
                "it)";
            if ("1".equals(System.getenv(REQUIRE_ENV)))
            {
                throw new IllegalStateException(REQUIRE_ENV + "=1 but " + reason);
            }
            throw new TestAbortedException(reason);
        }
    }

    /**
     * Where a program is.
     *
     * @param name the program.
     * @return its path, or null when it is not on the PATH.
     */
    public static String find(final String name)
    {
        final String path = System.getenv("PATH");
        if (null == path)
        {
            return null;
        }
        for (final String dir : path.split(File.pathSeparator))
        {
            final File file = new File(dir, name);
            if (file.isFile() && file.canExecute())
            {
                return file.getAbsolutePath();
            }
        }
        return null;
    }
}
