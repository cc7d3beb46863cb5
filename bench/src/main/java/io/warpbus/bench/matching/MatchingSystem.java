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
package io.warpbus.bench.matching;

import io.warpbus.matching.CommandHandler;
import org.HdrHistogram.Histogram;

/**
 * A matching engine under test, fed from a producer thread through its own intake (our engine: an Agrona ring
 * buffer to its thread; exchange-core: its API and Disruptor pipeline), and observed where it finishes a command.
 * One instance serves one run: {@link #start()}, commands through {@link #producer()}, {@link #awaitProcessed(long)},
 * {@link #close()}.
 */
interface MatchingSystem extends AutoCloseable
{
    /**
     * Name in the report.
     *
     * @return e.g. {@code exchange-core}.
     */
    String name();

    /**
     * Start the engine's threads and define the instruments and accounts.
     *
     * @throws Exception on failure.
     */
    void start() throws Exception;

    /**
     * The producer side: each call submits one command. The timestamp argument is the command's planned submission
     * time on {@link System#nanoTime()}, from which its latency is measured when the engine finishes it.
     *
     * @return the handler, for one producer thread.
     */
    CommandHandler producer();

    /**
     * Wait until the engine has finished this many commands.
     *
     * @param count commands submitted so far.
     * @return {@link System#nanoTime()} when the last finished (approximately).
     * @throws InterruptedException if interrupted.
     */
    long awaitProcessed(long count) throws InterruptedException;

    /**
     * Latencies of the commands finished since the last reset, in nanoseconds; read after
     * {@link #awaitProcessed(long)}.
     *
     * @return the histogram.
     */
    Histogram latencies();

    /**
     * Forget the latencies recorded so far; call when nothing is in flight.
     */
    void resetLatencies();

    @Override
    void close();
}
