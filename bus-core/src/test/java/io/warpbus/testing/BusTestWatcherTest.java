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

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import io.warpbus.bus.Bus;
import io.warpbus.bus.BusContext;
import io.warpbus.bus.status.CountersFile;
import io.warpbus.iwarp.ThreadingMode;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.testkit.engine.EngineTestKit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

@Timeout(60)
class BusTestWatcherTest
{
    private static final String PEER_ERROR = "the peer's engine broke";

    /** Set only while this class runs the fake tests: on their own (say in an IDE) they are skipped. */
    private static volatile boolean runningFakes;

    @TempDir
    Path dir;

    @Test
    void shouldPrintTheCountersAndDistinctErrorsOfTheBusesOfAFailedTest()
    {
        final String printed = runFake(FailingBusTest.class, 1);

        assertTrue(printed.contains("==== shouldFailWithTwoBuses() in " + FailingBusTest.class.getName() +
            " failed: 2 bus counters file(s)"), printed);
        assertTrue(printed.contains("---- bus " + FailingBusTest.dir.resolve("fake-bus").toAbsolutePath()), printed);
        assertTrue(printed.contains("---- bus " + FailingBusTest.dir.resolve("peer").toAbsolutePath()), printed);
        assertTrue(printed.contains("  Bytes sent=0\n"), "the real bus's system counters: " + printed);
        assertTrue(printed.contains("  orders rejected=7\n"), "the peer's counter: " + printed);
        assertTrue(printed.contains("distinct errors: 0\n"), "the real bus recorded no error: " + printed);
        assertTrue(printed.contains("distinct errors: 1\n  2 observations from "), printed);
        assertTrue(printed.contains("java.lang.IllegalStateException: " + PEER_ERROR), printed);
        assertTrue(printed.contains("at " + FailingBusTest.class.getName()), "its stack trace: " + printed);
    }

    @Test
    void shouldPrintNothingWhenTheTestPasses()
    {
        assertEquals("", runFake(PassingBusTest.class, 0));
    }

    @Test
    void shouldSaySoWhenThereIsNoBusToReport()
    {
        final String report = BusTestWatcher.report("a test", List.of(dir, dir.resolve("missing")));

        assertTrue(report.startsWith("==== a test failed: 0 bus counters file(s) under ["), report);
    }

    private static String runFake(final Class<?> testClass, final long failures)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final PrintStream stdout = System.out;
        runningFakes = true;
        try
        {
            System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
            EngineTestKit.engine("junit-jupiter").selectors(DiscoverySelectors.selectClass(testClass)).execute()
                .testEvents().assertStatistics((stats) -> stats.started(1).succeeded(1 - failures).failed(failures));
        }
        finally
        {
            System.setOut(stdout);
            runningFakes = false;
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /**
     * Fails with a real bus and a second counters file with a counter and an error.
     */
    @ExtendWith(BusTestWatcher.class)
    static final class FailingBusTest
    {
        @TempDir
        static Path dir;
        private Bus bus;
        private CountersFile peer;

        @AfterEach
        void close()
        {
            CloseHelper.closeAll(bus, peer);
        }

        @Test
        void shouldFailWithTwoBuses()
        {
            assumeTrue(runningFakes, "run by BusTestWatcherTest");
            bus = Bus.launch(new BusContext().directory(dir).name("fake-bus").threadingMode(ThreadingMode.INVOKER)
                .termLength(64 * 1024).window(1024 * 1024).ringCapacity(256 * 1024));
            peer = CountersFile.create(dir.resolve("peer"));
            peer.countersManager().newCounter("orders rejected").setRelease(7);
            final IllegalStateException error = new IllegalStateException(PEER_ERROR);
            peer.errorLog().record(error);
            peer.errorLog().record(error);
            fail("on purpose");
        }
    }

    /**
     * Passes with a real bus.
     */
    @ExtendWith(BusTestWatcher.class)
    static final class PassingBusTest
    {
        @TempDir
        Path dir;

        @Test
        void shouldPass()
        {
            assumeTrue(runningFakes, "run by BusTestWatcherTest");
            try (Bus bus = Bus.launch(new BusContext().directory(dir).name("fake-bus")
                .threadingMode(ThreadingMode.INVOKER).termLength(64 * 1024).window(1024 * 1024)
                .ringCapacity(256 * 1024)))
            {
                assertEquals(0, bus.errorCount());
            }
        }
    }
}
