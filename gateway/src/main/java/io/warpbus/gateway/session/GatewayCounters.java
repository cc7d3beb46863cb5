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
package io.warpbus.gateway.session;

import java.nio.file.Path;

import io.warpbus.bus.status.CountersFile;
import io.warpbus.bus.status.RecordingErrorHandler;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;

/**
 * The gateway's counters and distinct error log, in a counters file of their own
 * ({@code <dir>/counters.dat}, read by {@code warpbus stat --dir <dir>}). Written by the session core and the
 * adapters (atomic increments), read by metrics.
 */
public final class GatewayCounters implements AutoCloseable
{
    private final CountersFile file;
    private final AtomicCounter[] counters = new AtomicCounter[GatewayCounterDescriptor.values().length];
    private final RecordingErrorHandler errorHandler;

    /**
     * Create the file, replacing a stale one, and allocate every counter.
     *
     * @param directory where {@code counters.dat} goes.
     */
    public GatewayCounters(final Path directory)
    {
        file = CountersFile.create(directory);
        final CountersManager manager = file.countersManager();
        for (final GatewayCounterDescriptor descriptor : GatewayCounterDescriptor.values())
        {
            counters[descriptor.ordinal()] = manager.newCounter("gateway: " + descriptor.label(),
                GatewayCounterDescriptor.TYPE_ID, (key) -> key.putInt(0, descriptor.id()));
        }
        errorHandler = new RecordingErrorHandler(file.errorLog(), get(GatewayCounterDescriptor.ERRORS));
    }

    /**
     * The counters file, for {@code ./warpbus stat}.
     *
     * @return its path.
     */
    public Path file()
    {
        return file.file();
    }

    /**
     * A counter.
     *
     * @param descriptor which.
     * @return the counter.
     */
    public AtomicCounter get(final GatewayCounterDescriptor descriptor)
    {
        return counters[descriptor.ordinal()];
    }

    /**
     * Count one, from any thread.
     *
     * @param descriptor which.
     */
    public void increment(final GatewayCounterDescriptor descriptor)
    {
        counters[descriptor.ordinal()].incrementRelease();
    }

    /**
     * A counter's value.
     *
     * @param descriptor which.
     * @return its value.
     */
    public long value(final GatewayCounterDescriptor descriptor)
    {
        return counters[descriptor.ordinal()].get();
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
     * Tell readers the owner is alive.
     *
     * @param nowMs epoch milliseconds.
     */
    public void heartbeat(final long nowMs)
    {
        file.heartbeat(nowMs);
    }

    /**
     * A reader of the file, for metrics.
     *
     * @return the reader.
     */
    public CountersReader reader()
    {
        return file.countersReader();
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
