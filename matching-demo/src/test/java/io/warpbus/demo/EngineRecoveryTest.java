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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.warpbus.bus.Bus;
import io.warpbus.demo.client.LoadClient;
import io.warpbus.demo.service.EngineContext;
import io.warpbus.demo.service.EngineService;
import io.warpbus.matching.Instrument;
import io.warpbus.matching.RiskLimits;
import io.warpbus.matching.load.LoadProfile;
import io.warpbus.testing.Await;
import org.agrona.CloseHelper;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Deterministic recovery in one process: a seeded order stream through the engine service over the bus with its
 * journal on, then fresh services built on what it left: the final checkpoint; a copy of the journal taken before
 * the service closed, holding a checkpoint from half way and the journal after it; and that copy without checkpoints,
 * replayed from the first message. All must reach the state hash, last order id and last exec id of the service that
 * ran.
 */
@Timeout(120)
class EngineRecoveryTest
{
    private static final int INSTRUMENTS = 3;
    private static final long COMMANDS = 30_000;
    private static final long SEED = 23;

    @TempDir
    Path dir;
    private EngineRig rig;

    @AfterEach
    void close()
    {
        CloseHelper.quietClose(rig);
    }

    @Test
    void shouldRecoverTheSameStateFromCheckpointAndJournalOrFromTheJournalAlone() throws Exception
    {
        final Path journal = dir.resolve("journal");
        rig = new EngineRig(dir);
        final LoadProfile profile = LoadProfile.tradingDay(INSTRUMENTS, SEED).commandsPerSecond(200_000);
        final EngineService engine = new EngineService(context(rig.engineBus, rig.channels, profile, journal));
        assertEquals(-1, engine.journalSequence(), "a new journal is empty");
        final LoadClient client = new LoadClient(
            rig.clientBus, rig.channels.orders, rig.channels.reports, profile, COMMANDS, SystemNanoClock.INSTANCE);

        boolean checkpointTaken = false;
        while (!client.isDone() || client.acked() < client.sent())
        {
            Await.checkInterrupted();
            engine.doWork();
            client.doWork();
            if (!checkpointTaken && client.acked() > COMMANDS / 2)
            {
                checkpointTaken = engine.takeCheckpoint();
            }
        }
        assertTrue(checkpointTaken, "a checkpoint half way");
        final long hash = engine.engine().stateHash();
        final long lastOrderId = engine.engine().lastOrderId();
        final long lastExecId = engine.lastExecId();
        final long journalSequence = engine.journalSequence();
        final byte[] heldReports = heldReports(engine);
        assertEquals(client.sent() - 1, journalSequence, "every message journaled (sequences from 0)");
        assertTrue(lastOrderId > COMMANDS / 4, "orders accepted: " + lastOrderId);

        final Path crashImage = dir.resolve("crash-image");
        copy(journal, crashImage);
        engine.onClose();
        final Path journalOnly = dir.resolve("journal-only");
        copy(crashImage, journalOnly);
        deleteTree(journalOnly.resolve("engine-snapshots"));

        final Recovered fromFinal = recover(profile, journal, "final");
        assertEquals(journalSequence, fromFinal.checkpointSequence, "the final checkpoint covers the whole journal");
        assertEquals(0, fromFinal.replayed);
        final Recovered fromHalf = recover(profile, crashImage, "half");
        assertTrue(fromHalf.checkpointSequence > 0 && fromHalf.checkpointSequence < journalSequence,
            "checkpoint from half way: " + fromHalf.checkpointSequence);
        assertEquals(journalSequence - fromHalf.checkpointSequence, fromHalf.replayed, "the tail replayed");
        final Recovered fromStart = recover(profile, journalOnly, "start");
        assertEquals(-1, fromStart.checkpointSequence);
        assertEquals(journalSequence + 1, fromStart.replayed, "the whole journal replayed");

        for (final Recovered recovered : List.of(fromFinal, fromHalf, fromStart))
        {
            assertEquals(Long.toHexString(hash), Long.toHexString(recovered.hash), recovered.name + ": state hash");
            assertEquals(lastOrderId, recovered.lastOrderId, recovered.name + ": last order id");
            assertEquals(lastExecId, recovered.lastExecId, recovered.name + ": last exec id");
            assertEquals(journalSequence, recovered.journalSequence, recovered.name + ": journal resumes at its end");
            assertArrayEquals(heldReports, recovered.heldReports, recovered.name + ": reports held for resend");
        }
        assertNotEquals(hash, emptyHash(profile), "the stream changed the state");
    }

    @Test
    void shouldRefuseToRecoverUnderInstrumentsOrRiskLimitsOtherThanTheCheckpoints() throws Exception
    {
        final Path journal = dir.resolve("journal");
        rig = new EngineRig(dir);
        final LoadProfile profile = LoadProfile.tradingDay(INSTRUMENTS, SEED);
        final Bus engineBus = rig.engineBus;
        new EngineService(context(engineBus, new DemoRig(), profile, journal)).onClose();

        final Instrument[] instruments = profile.instruments();
        final Instrument first = instruments[0];
        final Instrument retick = new Instrument(first.id(), first.symbol(), first.tickSize() * 2, first.lotSize(),
            first.priceScale(), first.priceBandBps(), first.referencePrice());
        final Instrument[] changed = instruments.clone();
        changed[0] = retick;
        final EngineContext changedInstrument = context(engineBus, new DemoRig(), profile, journal)
            .instruments(changed);
        final IllegalStateException tick = assertThrows(IllegalStateException.class,
            () -> new EngineService(changedInstrument));
        assertTrue(tick.getMessage().contains(retick.toString()) && tick.getMessage().contains(first.toString()),
            tick.getMessage());

        final int account = profile.accountIds()[0];
        final RiskLimits raised = new RiskLimits(profile.riskLimits().maxOrderQuantity() + 1,
            profile.riskLimits().maxNotional(), profile.riskLimits().positionLimit());
        final EngineContext changedLimits = context(engineBus, new DemoRig(), profile, journal)
            .account(account, raised);
        final IllegalStateException limits = assertThrows(IllegalStateException.class,
            () -> new EngineService(changedLimits));
        assertTrue(limits.getMessage().contains("account " + account + " " + raised), limits.getMessage());

        final EngineService same = new EngineService(context(engineBus, new DemoRig(), profile, journal));
        assertEquals(first, same.engine().instrumentAt(0), "restored under the configuration it was taken with");
        same.onClose();
    }

    /**
     * A fresh service on its own bus and ports (nothing connects to it), recovered from a journal directory.
     */
    private Recovered recover(final LoadProfile profile, final Path journal, final String name) throws IOException
    {
        try (Bus bus = DemoRig.bus(dir, "recover-" + name))
        {
            final EngineService service = new EngineService(context(bus, new DemoRig(), profile, journal));
            try
            {
                return new Recovered(name, service.recoveredCheckpointSequence(), service.replayedMessages(),
                    service.journalSequence(), service.engine().stateHash(), service.engine().lastOrderId(),
                    service.lastExecId(), heldReports(service));
            }
            finally
            {
                service.onClose();
            }
        }
    }

    private static byte[] heldReports(final EngineService service)
    {
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer();
        final int length = service.copyHeldReports(buffer, 0);
        final byte[] bytes = new byte[length];
        buffer.getBytes(0, bytes);
        return bytes;
    }

    private long emptyHash(final LoadProfile profile) throws IOException
    {
        try (Bus bus = DemoRig.bus(dir, "empty"))
        {
            final EngineService service = new EngineService(context(bus, new DemoRig(), profile, null));
            service.onClose();
            return service.engine().stateHash();
        }
    }

    /**
     * On the rig's counters, whichever bus and channels the service stands on.
     */
    private EngineContext context(
        final Bus bus, final DemoRig channels, final LoadProfile profile, final Path journal)
    {
        return channels.engineContext(bus, rig.counters, profile)
            .journalDirectory(journal)
            .checkpointIntervalNs(TimeUnit.HOURS.toNanos(1));
    }

    static void copy(final Path from, final Path to) throws IOException
    {
        try (Stream<Path> paths = Files.walk(from))
        {
            for (final Path path : (Iterable<Path>)paths::iterator)
            {
                final Path target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path))
                {
                    Files.createDirectories(target);
                }
                else if (!path.getFileName().toString().endsWith(".lock"))
                {
                    Files.copy(path, target);
                }
            }
        }
    }

    private static void deleteTree(final Path root) throws IOException
    {
        try (Stream<Path> paths = Files.walk(root))
        {
            for (final Path path : (Iterable<Path>)paths.sorted((a, b) -> b.compareTo(a))::iterator)
            {
                Files.delete(path);
            }
        }
    }

    private static final class Recovered
    {
        final String name;
        final long checkpointSequence;
        final long replayed;
        final long journalSequence;
        final long hash;
        final long lastOrderId;
        final long lastExecId;
        final byte[] heldReports;

        @SuppressWarnings("checkstyle:parameternumber")
        Recovered(final String name, final long checkpointSequence, final long replayed, final long journalSequence,
            final long hash, final long lastOrderId, final long lastExecId, final byte[] heldReports)
        {
            this.heldReports = heldReports;
            this.name = name;
            this.checkpointSequence = checkpointSequence;
            this.replayed = replayed;
            this.journalSequence = journalSequence;
            this.hash = hash;
            this.lastOrderId = lastOrderId;
            this.lastExecId = lastExecId;
        }
    }
}
