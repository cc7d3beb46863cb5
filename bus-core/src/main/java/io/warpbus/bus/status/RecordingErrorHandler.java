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

import java.io.PrintStream;
import java.util.Objects;

import org.agrona.ErrorHandler;
import org.agrona.concurrent.errors.DistinctErrorLog;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * An {@link ErrorHandler} that records each error in a {@link DistinctErrorLog} (usually
 * {@link CountersFile#errorLog()}, readable with {@code stat --errors}) and counts it in a counter (usually
 * {@link SystemCounterDescriptor#ERRORS}). When the log is full the error is printed to a fallback stream instead,
 * so it is never lost silently. Safe to call from any thread.
 */
public final class RecordingErrorHandler implements ErrorHandler
{
    private final DistinctErrorLog errorLog;
    private final AtomicCounter errorCounter;
    private final PrintStream fallback;

    /**
     * Record into a log and count in a counter, printing to {@link System#err} when the log is full.
     *
     * @param errorLog     to record into.
     * @param errorCounter incremented for every error, recorded or not.
     */
    public RecordingErrorHandler(final DistinctErrorLog errorLog, final AtomicCounter errorCounter)
    {
        this(errorLog, errorCounter, System.err);
    }

    /**
     * Record into a log and count in a counter.
     *
     * @param errorLog     to record into.
     * @param errorCounter incremented for every error, recorded or not.
     * @param fallback     where errors go when the log is full.
     */
    public RecordingErrorHandler(
        final DistinctErrorLog errorLog, final AtomicCounter errorCounter, final PrintStream fallback)
    {
        this.errorLog = Objects.requireNonNull(errorLog, "errorLog");
        this.errorCounter = Objects.requireNonNull(errorCounter, "errorCounter");
        this.fallback = Objects.requireNonNull(fallback, "fallback");
    }

    /**
     * Count the error and record it.
     *
     * @param throwable the error.
     */
    @Override
    public void onError(final Throwable throwable)
    {
        errorCounter.increment();
        if (!errorLog.record(throwable))
        {
            synchronized (fallback)
            {
                fallback.println("error log full, error not recorded in the counters file:");
                throwable.printStackTrace(fallback);
            }
        }
    }
}
