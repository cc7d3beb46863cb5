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

import java.lang.management.ManagementFactory;

/**
 * Bytes allocated by the calling thread, for the steady-state allocation tests. The counter's native method is
 * linked when this class loads: linking it allocates (a map iterator in the JDK's native-library lookup), and
 * would otherwise be charged to whichever measurement first reads the counter.
 */
public final class ThreadAllocation
{
    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();

    static
    {
        if (!THREADS.isThreadAllocatedMemorySupported() || !THREADS.isThreadAllocatedMemoryEnabled())
        {
            throw new IllegalStateException("this JVM does not measure per-thread allocation");
        }
        THREADS.getCurrentThreadAllocatedBytes();
        THREADS.getCurrentThreadAllocatedBytes();
    }

    private ThreadAllocation()
    {
    }

    /**
     * Bytes the calling thread has allocated so far.
     *
     * @return the running total.
     */
    public static long current()
    {
        return THREADS.getCurrentThreadAllocatedBytes();
    }
}
