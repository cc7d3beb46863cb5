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
package io.warpbus.demo.service;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.agrona.ErrorHandler;
import org.agrona.ExpandableDirectByteBuffer;

/**
 * Writes the engine's periodic checkpoints on a thread of its own. The engine's thread {@link #claim claims} the
 * writer's buffer, encodes the state into it and {@link #commit commits} it; the file, its force to disk and the
 * rename run here. Forcing a file took 5-11 ms on the demo's virtual disk, a stall of every order behind it when
 * the engine's thread did it (docs/performance.md). One checkpoint is in flight at a time: while it is, the
 * engine's thread keeps its checkpoint due and claims again on a later duty cycle. A failed write is reported to the
 * error handler and leaves the older checkpoints; the same state is encoded again at the next interval.
 */
final class CheckpointWriter implements AutoCloseable
{
    private static final int IDLE = 0;
    private static final int PENDING = 1;
    private static final long IDLE_PARK_NS = TimeUnit.SECONDS.toNanos(1);
    private static final long CLOSE_TIMEOUT_MS = TimeUnit.SECONDS.toMillis(60);

    /**
     * Where a committed checkpoint goes: {@link CheckpointStore#writeFile}.
     */
    @FunctionalInterface
    interface FileSink
    {
        /**
         * Write it.
         *
         * @param buffer          holds it from index 0.
         * @param length          its length.
         * @param journalSequence the journal record it follows.
         */
        void write(ExpandableDirectByteBuffer buffer, int length, long journalSequence);
    }

    private final FileSink sink;
    private final ErrorHandler errorHandler;
    private final ExpandableDirectByteBuffer buffer = new ExpandableDirectByteBuffer(64 * 1024);
    /** Published by the engine's thread with a release store after {@link #length} and {@link #sequence}. */
    private final AtomicInteger state = new AtomicInteger(IDLE);
    private final Thread thread;
    private volatile boolean running = true;
    private int length;
    private long sequence;

    CheckpointWriter(final FileSink sink, final ErrorHandler errorHandler)
    {
        this.sink = sink;
        this.errorHandler = errorHandler;
        this.thread = new Thread(this::run, "engine-checkpoint");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * The buffer to encode the next checkpoint into, from the engine's thread.
     *
     * @return the buffer, or null while the previous checkpoint is still being written (claim again later).
     */
    ExpandableDirectByteBuffer claim()
    {
        return IDLE == state.get() ? buffer : null;
    }

    /**
     * Hand the checkpoint encoded into the {@link #claim claimed} buffer to the writer's thread.
     *
     * @param length          its length.
     * @param journalSequence the journal record it follows.
     */
    void commit(final int length, final long journalSequence)
    {
        this.length = length;
        this.sequence = journalSequence;
        state.set(PENDING);
        LockSupport.unpark(thread);
    }

    /**
     * Wait until no checkpoint is being written, so that the caller may use the store itself: from the engine's
     * thread, or once it has stopped.
     *
     * @return false when one is still pending after {@value #CLOSE_TIMEOUT_MS} ms or the writer stopped.
     */
    boolean awaitIdle()
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSE_TIMEOUT_MS);
        while (PENDING == state.get())
        {
            if (!thread.isAlive() || System.nanoTime() - deadlineNs > 0)
            {
                return false;
            }
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
        }
        return true;
    }

    /**
     * Is a checkpoint being written now?
     *
     * @return true while one is in flight.
     */
    boolean isWriting()
    {
        return PENDING == state.get();
    }

    private void run()
    {
        while (running || PENDING == state.get())
        {
            if (PENDING == state.get())
            {
                try
                {
                    sink.write(buffer, length, sequence);
                }
                catch (final Throwable ex)
                {
                    report(ex);
                }
                finally
                {
                    state.set(IDLE);
                }
            }
            else
            {
                LockSupport.parkNanos(this, IDLE_PARK_NS);
            }
        }
    }

    private void report(final Throwable failure)
    {
        try
        {
            errorHandler.onError(failure);
        }
        catch (final RuntimeException ex)
        {
            // The error log failed too: the thread must live on for the next checkpoint.
            failure.addSuppressed(ex);
        }
    }

    /**
     * Finish the checkpoint in flight, if any, and stop the thread.
     */
    @Override
    public void close()
    {
        running = false;
        LockSupport.unpark(thread);
        try
        {
            thread.join(CLOSE_TIMEOUT_MS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
