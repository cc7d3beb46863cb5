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
package io.warpbus.demo;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Ties a child process's life to its parent's: a daemon thread reads standard input, which the parent holds open as
 * a pipe, and calls {@code onStop} at the line {@code stop} or at end of input, which is what a child sees when its
 * parent dies for any reason, {@code kill -9} included. No orphan outlives the demo.
 */
public final class ParentWatch
{
    private ParentWatch()
    {
    }

    /**
     * Start watching.
     *
     * @param input  usually {@code System.in}.
     * @param onStop called once, on the watching thread, when the parent says stop or goes away.
     * @return the watching thread, started.
     */
    public static Thread start(final InputStream input, final Runnable onStop)
    {
        final Thread thread = new Thread(() ->
        {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(input, StandardCharsets.UTF_8)))
            {
                String line;
                while (null != (line = reader.readLine()))
                {
                    if ("stop".equals(line.trim()))
                    {
                        break;
                    }
                }
            }
            catch (final IOException ignore)
            {
                // A broken pipe means the parent is gone: stop as at end of input.
            }
            onStop.run();
        }, "parent-watch");
        thread.setDaemon(true);
        thread.start();

        return thread;
    }
}
