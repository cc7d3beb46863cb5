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

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

import io.warpbus.bus.Bus;
import io.warpbus.bus.BusConfiguration;
import io.warpbus.bus.BusContext;
import io.warpbus.bus.ExclusivePublication;
import io.warpbus.iwarp.ThreadingMode;
import io.warpbus.journal.Journal;
import io.warpbus.journal.JournalContext;
import io.warpbus.journal.StreamRecorder;
import io.warpbus.testing.FreePorts;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code warpbus sub --from 0} against a publisher whose retained log no longer holds the start: the tool finds the
 * recorder through the publisher, replays the history, merges into the live stream, and prints the count and the
 * checksum of every message from sequence 0, with no gap and no duplicate.
 */
@Timeout(120)
class SubFromTest
{
    private static final int STREAM = 1001;

    @TempDir
    Path dir;

    @Test
    void shouldPrintTheWholeStreamFromSequenceZero() throws Exception
    {
        // The tool runs in this JVM: its bus goes in the test's directory, not the default one.
        final String defaultDirectory = System.getProperty(BusConfiguration.DIR_PROP_NAME);
        System.setProperty(BusConfiguration.DIR_PROP_NAME, dir.resolve("buses").toString());
        try
        {
            printWholeStream();
        }
        finally
        {
            if (null == defaultDirectory)
            {
                System.clearProperty(BusConfiguration.DIR_PROP_NAME);
            }
            else
            {
                System.setProperty(BusConfiguration.DIR_PROP_NAME, defaultDirectory);
            }
        }
        try (Stream<Path> buses = Files.list(dir.resolve("buses")))
        {
            assertTrue(buses.anyMatch((bus) -> bus.getFileName().toString().startsWith("sub-")),
                "the tool's bus is in the test's directory");
        }
    }

    private void printWholeStream() throws Exception
    {
        final int historic = 30_000;
        final int total = 40_000;
        final String channel = "warp:iwarp?endpoint=127.0.0.1:" + FreePorts.loopback() + "|stream=" + STREAM +
            "|ring=256k";
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final AtomicInteger exit = new AtomicInteger(-1);
        try (Bus bus = Bus.launch(new BusContext().directory(dir.resolve("bus")).name("pub")
            .threadingMode(ThreadingMode.INVOKER).termLength(64 * 1024).window(1024 * 1024).ringCapacity(256 * 1024));
            Journal journal = Journal.open(new JournalContext().directory(dir.resolve("journal")));
            StreamRecorder recorder = new StreamRecorder(bus, journal, channel, "127.0.0.1:" + FreePorts.loopback(),
                Throwable::printStackTrace))
        {
            final ExclusivePublication publication = bus.addExclusivePublication(channel);
            final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(24));
            final CRC32C sent = new CRC32C();
            final byte[] bytes = new byte[24];
            int published = 0;
            Thread sub = null;
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (published < total || sub.isAlive())
            {
                if (System.nanoTime() - deadline > 0)
                {
                    fail("sub did not finish: " + out + err);
                }
                if (published == historic && null == sub)
                {
                    // The history is far beyond the publisher's 1 MiB retained log by now.
                    sub = new Thread(() -> exit.set(SubTool.run(new String[] { "--channel", channel, "--from", "0",
                        "--count", String.valueOf(total), "--timeout", "60" }, new PrintStream(out, true),
                        new PrintStream(err, true), new AtomicBoolean(true))), "sub-tool");
                    sub.start();
                }
                message.putLong(0, published);
                message.putLong(16, ~published);
                if (published < total && (published < historic || sub.isAlive()) &&
                    publication.offer(message, 0, 24) > 0)
                {
                    message.getBytes(0, bytes);
                    sent.update(bytes, 0, 24);
                    published++;
                }
                bus.doWork();
                recorder.doWork();
            }
            assertEquals(0, exit.get(), "exit code; stderr: " + err);
            final String line = out.toString(StandardCharsets.US_ASCII).trim();
            assertEquals("received " + total + " messages, gaps 0, duplicates 0, checksum " +
                PubTool.hex(sent.getValue()), line);
            assertTrue(recorder.replayService().replays() >= 1, "the history came from the recorder");
        }
    }
}
