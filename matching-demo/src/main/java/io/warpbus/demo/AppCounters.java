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

import java.nio.file.Path;

import io.warpbus.bus.status.CountersFile;
import io.warpbus.bus.status.RecordingErrorHandler;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * A demo process's own counters and distinct error log, in a {@link CountersFile} of their own, so that
 * {@code warpbus stat --dir DIR} reads them from outside like the bus's, and metrics only read them.
 */
public final class AppCounters implements AutoCloseable
{
    /**
     * Type id of the demo's application counters.
     */
    public static final int APP_COUNTER_TYPE_ID = 300;

    private final CountersFile file;
    private final AtomicCounter errors;
    private final RecordingErrorHandler errorHandler;

    /**
     * Create the file, replacing a stale one.
     *
     * @param directory where {@code counters.dat} goes.
     */
    public AppCounters(final Path directory)
    {
        file = CountersFile.create(directory);
        errors = newCounter("errors");
        errorHandler = new RecordingErrorHandler(file.errorLog(), errors);
    }

    /**
     * Allocate a counter.
     *
     * @param label what it counts.
     * @return the counter, 0.
     */
    public AtomicCounter newCounter(final String label)
    {
        return file.countersManager().newCounter(label, APP_COUNTER_TYPE_ID);
    }

    /**
     * Count an error and record it in the distinct error log.
     *
     * @param error what went wrong.
     */
    public void onError(final Throwable error)
    {
        errorHandler.onError(error);
    }

    /**
     * Errors recorded.
     *
     * @return the count.
     */
    public long errorCount()
    {
        return errors.get();
    }

    /**
     * Tell readers the owner is alive.
     *
     * @param nowMs epoch milliseconds.
     */
    public void heartbeat(final long nowMs)
    {
        file.heartbeat(nowMs);
    }

    /**
     * The file.
     *
     * @return its path.
     */
    public Path path()
    {
        return file.file();
    }

    /**
     * Mark the file closed by its owner; it stays readable.
     */
    @Override
    public void close()
    {
        file.markClosed();
    }
}
