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
package io.warpbus.gateway.demo;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;

/**
 * The gateway's side of the demo's process protocol (see matching-demo's {@code DemoChild}): the demo reads
 * {@code READY ...}, {@code STATS NAME key=value ...} and {@code STOPPED ...} lines from standard output, and holds
 * standard input open as the child's life line: the line {@code stop}, or the end of input when the demo dies for
 * any reason, stops the child. Other processes held by a parent's pipe (the testbed's trader) use the same watch.
 */
public final class Supervised
{
    private Supervised()
    {
    }

    /**
     * A latch that opens when the parent says stop or goes away (the end of input).
     *
     * @param input usually {@code System.in}.
     * @return the latch.
     */
    public static CountDownLatch stopSignal(final InputStream input)
    {
        final CountDownLatch stop = new CountDownLatch(1);
        final Thread thread = new Thread(() ->
        {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(input, StandardCharsets.UTF_8)))
            {
                String line;
                do
                {
                    line = reader.readLine();
                }
                while (null != line && !"stop".equals(line.trim()));
            }
            catch (final IOException ignore)
            {
                // A broken pipe: the parent is gone, which means stop.
            }
            stop.countDown();
        }, "parent-watch");
        thread.setDaemon(true);
        thread.start();
        return stop;
    }

    /**
     * Print one line for the demo and flush it.
     *
     * @param line the line.
     */
    static void say(final String line)
    {
        System.out.println(line);
        System.out.flush();
    }
}
