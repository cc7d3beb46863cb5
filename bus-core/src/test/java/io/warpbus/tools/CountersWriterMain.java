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
package io.warpbus.tools;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import io.warpbus.bus.status.CountersFile;
import io.warpbus.bus.status.RecordingErrorHandler;
import io.warpbus.bus.status.StreamCounters;
import io.warpbus.bus.status.SystemCounterDescriptor;
import io.warpbus.bus.status.SystemCounters;
import org.agrona.concurrent.status.CountersManager;

/**
 * Child process for {@link StatToolTest}: creates a counters file in the directory given as its argument, sets
 * known values, records an error twice, prints {@link #READY} and heartbeats until it is killed, its standard input
 * is closed (the parent test died) or two minutes pass.
 */
final class CountersWriterMain
{
    static final String READY = "READY";
    static final long BYTES_SENT = 123_456_789L;
    static final long MESSAGES_SENT = 4242;
    static final long PUBLISHER_POSITION = 8192;
    static final long SUBSCRIBER_LAG = 512;
    static final String ERROR_MESSAGE = "boom from the child process";
    private static final long MAX_LIFETIME_NS = TimeUnit.MINUTES.toNanos(2);

    private CountersWriterMain()
    {
    }

    public static void main(final String[] args) throws InterruptedException
    {
        final Thread stdinWatcher = new Thread(CountersWriterMain::awaitEndOfInput, "stdin-watcher");
        stdinWatcher.setDaemon(true);
        stdinWatcher.start();

        final CountersFile countersFile = CountersFile.create(Path.of(args[0]), 64, 64 * 1024);
        final CountersManager manager = countersFile.countersManager();
        final SystemCounters systemCounters = new SystemCounters(manager);
        systemCounters.get(SystemCounterDescriptor.BYTES_SENT).set(BYTES_SENT);
        systemCounters.get(SystemCounterDescriptor.MESSAGES_SENT).set(MESSAGES_SENT);
        StreamCounters.publisherPosition(manager, 7, 1001, 42, "10.0.0.5:40456").set(PUBLISHER_POSITION);
        StreamCounters.subscriberLag(manager, 7, 1001, 42, 3, "risk-engine@10.0.0.9:51000").set(SUBSCRIBER_LAG);

        final RecordingErrorHandler errorHandler = new RecordingErrorHandler(
            countersFile.errorLog(), systemCounters.get(SystemCounterDescriptor.ERRORS));
        final IllegalStateException error = new IllegalStateException(ERROR_MESSAGE);
        errorHandler.onError(error);
        errorHandler.onError(error);

        countersFile.heartbeat(System.currentTimeMillis());
        System.out.println(READY + " " + ProcessHandle.current().pid());
        System.out.flush();

        final long deadlineNs = System.nanoTime() + MAX_LIFETIME_NS;
        while (stdinWatcher.isAlive() && System.nanoTime() - deadlineNs < 0)
        {
            countersFile.heartbeat(System.currentTimeMillis());
            Thread.sleep(50);
        }
        countersFile.close();
    }

    private static void awaitEndOfInput()
    {
        try
        {
            while (System.in.read() >= 0)
            {
                // discard
            }
        }
        catch (final IOException ignore)
        {
            // the parent is gone either way
        }
    }
}
