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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.warpbus.bus.Bus;
import io.warpbus.bus.BusContext;
import io.warpbus.iwarp.ThreadingMode;
import io.warpbus.matching.Instrument;
import io.warpbus.matching.load.LoadProfile;

/**
 * What the demo's processes share: a bus in {@code INVOKER} mode, driven by the process's one duty-cycle thread so
 * that each process has a single thread that may spin; the instruments and accounts every process derives from the
 * same options; and the life cycle of a child (run until the parent says stop or goes away).
 */
public final class DemoProcess
{
    /**
     * Exit code of a healthy run.
     */
    public static final int EXIT_OK = 0;

    /**
     * Exit code of a failed run.
     */
    public static final int EXIT_FAILED = 1;

    /**
     * Exit code for bad options.
     */
    public static final int EXIT_USAGE = 2;

    /**
     * System property set on the processes the demo starts.
     */
    public static final String CHILD_PROP_NAME = "warpbus.demo.child";

    private DemoProcess()
    {
    }

    /**
     * Launch a bus whose duty cycle the caller's agent runs.
     *
     * @param directory base directory of the bus (counters, IPC rings).
     * @param name      the bus's name, its sub-directory.
     * @return the bus.
     */
    public static Bus launchBus(final Path directory, final String name)
    {
        return Bus.launch(new BusContext().directory(directory).name(name).threadingMode(ThreadingMode.INVOKER));
    }

    /**
     * The demo's instruments: those of {@link LoadProfile#tradingDay(int, long)}.
     *
     * @param count how many.
     * @return definitions, ids 1 to count.
     */
    public static Instrument[] instruments(final int count)
    {
        return LoadProfile.tradingDay(count, 1).instruments();
    }

    /**
     * The demo's load profile.
     *
     * @param instruments how many instruments.
     * @param seed        of the stream.
     * @param rate        commands per second the timestamps are spaced at.
     * @return the profile.
     */
    public static LoadProfile profile(final int instruments, final long seed, final long rate)
    {
        return LoadProfile.tradingDay(instruments, seed).commandsPerSecond(rate);
    }

    /**
     * Watch the parent and return a latch that opens when it says stop or goes away (see
     * {@link #stopOnShutdown} for the JVM's shutdown).
     *
     * @return the latch.
     */
    public static CountDownLatch stopSignal()
    {
        final CountDownLatch stop = new CountDownLatch(1);
        ParentWatch.start(System.in, stop::countDown);
        return stop;
    }

    /**
     * Make the JVM's shutdown (SIGTERM from a container runtime or {@code kill}, SIGINT from a terminal) an orderly
     * stop: a shutdown hook opens {@code stop} and waits, at most {@code graceMs}, for {@code stopped}, which the
     * process opens once it has closed everything (the engine writes its last checkpoint then), before the JVM
     * halts. Without it the JVM halts with the main thread still inside its work.
     *
     * @param stop    the latch the process's main thread waits on.
     * @param stopped opened by the process when it has stopped; it must be opened on every path once this is called.
     * @param graceMs most time the JVM's shutdown waits for it.
     */
    public static void stopOnShutdown(final CountDownLatch stop, final CountDownLatch stopped, final long graceMs)
    {
        Runtime.getRuntime().addShutdownHook(new Thread(() ->
        {
            stop.countDown();
            try
            {
                stopped.await(graceMs, TimeUnit.MILLISECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }, "warpbus-shutdown"));
    }

    /**
     * Run a task every interval until the latch opens.
     *
     * @param stop       the latch.
     * @param intervalMs interval.
     * @param task       what to run.
     * @throws InterruptedException if interrupted.
     */
    public static void everyInterval(final CountDownLatch stop, final long intervalMs, final Runnable task)
        throws InterruptedException
    {
        while (!stop.await(intervalMs, TimeUnit.MILLISECONDS))
        {
            task.run();
        }
    }
}
