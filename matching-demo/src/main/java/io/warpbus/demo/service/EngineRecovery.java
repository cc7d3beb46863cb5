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

import java.nio.file.Path;
import java.util.Map;

import io.warpbus.matching.Instrument;
import io.warpbus.matching.RiskLimits;
import io.warpbus.matching.engine.MatchingEngine;
import org.agrona.CloseHelper;
import org.agrona.ExpandableDirectByteBuffer;

/**
 * The engine service's event sourcing: the {@link CommandJournal} every inbound message is appended to before it is
 * processed, the checkpoints ({@link CheckpointStore}) written every interval, and the start-up that rebuilds the
 * state from them (the newest whole checkpoint, then the journal after it, replayed with the output muted).
 * <p>
 * A start refuses to go on under rules the journal was not written with: a checkpoint of other instruments or risk
 * limits, a checkpoint or journal record of a route that is not configured any more. Without a journal directory it
 * only defines the configured instruments and accounts.
 */
final class EngineRecovery implements AutoCloseable
{
    private final EngineContext context;
    private final CommandJournal journal;
    private final CheckpointStore checkpoints;
    private final CheckpointWriter writer;
    private long recoveredCheckpointSequence = -1;
    private long replayedMessages;

    EngineRecovery(final EngineContext context)
    {
        this.context = context;
        final Path directory = context.journalDirectory();
        this.journal = null == directory ? null : new CommandJournal(directory);
        CheckpointStore checkpoints = null;
        CheckpointWriter writer = null;
        try
        {
            checkpoints = null == journal ? null : new CheckpointStore(directory.resolve("engine-snapshots"));
            writer = null == checkpoints ? null :
                new CheckpointWriter(checkpoints::writeFile, context.counters()::onError);
        }
        catch (final RuntimeException | Error ex)
        {
            CloseHelper.quietClose(journal);
            throw ex;
        }
        this.checkpoints = checkpoints;
        this.writer = writer;
    }

    /**
     * The journal, or null when not journaling.
     *
     * @return the journal.
     */
    CommandJournal journal()
    {
        return journal;
    }

    /**
     * Bring the engine to the state of the journal: restore the newest checkpoint (or define the configured
     * instruments and accounts), then replay every journal record after it through the handler, muted.
     *
     * @param engine      the fresh engine.
     * @param output      its output, whose routes receive exec ids and held reports.
     * @param instruments the instrument table, whose market-data sequences are restored.
     * @param handler     decodes and applies the journaled messages.
     * @throws IllegalStateException naming the file and what does not fit, when the state cannot be rebuilt.
     */
    void recover(
        final MatchingEngine engine,
        final EngineOutput output,
        final InstrumentTable instruments,
        final OrderEntryHandler handler)
    {
        final CheckpointStore.Loaded loaded = null == checkpoints ? null : checkpoints.loadLatest();
        if (null != loaded)
        {
            restore(loaded, engine, output, instruments);
        }
        else
        {
            define(engine);
        }
        if (null == journal)
        {
            return;
        }
        output.replaying(true);
        try
        {
            replayedMessages = journal.replay(recoveredCheckpointSequence,
                (sequence, sessionId, flags, publishedNs, receivedNs, buffer, offset, length) ->
                {
                    output.route(routeIndex(output, flags, "journal record " + sequence));
                    handler.onMessage(buffer, offset, length, sessionId, sequence, receivedNs);
                });
        }
        finally
        {
            output.replaying(false);
        }
    }

    /**
     * Write a checkpoint of the state now, unless one exists for the last journaled message.
     *
     * @return true if a checkpoint was written.
     */
    boolean takeCheckpoint(final MatchingEngine engine, final EngineOutput output, final InstrumentTable instruments)
    {
        if (null == journal)
        {
            return false;
        }
        if (!writer.awaitIdle())
        {
            throw new IllegalStateException("the checkpoint writer's thread still holds a checkpoint (or stopped); " +
                "not writing another under " + checkpoints.directory());
        }
        return checkpoints.write(engine, journal.lastSequence(), output, instruments);
    }

    /**
     * Hand a checkpoint of the state now to the writer's thread, unless one exists for the last journaled message.
     *
     * @return false while the previous one is still being written.
     */
    boolean offerCheckpoint(final MatchingEngine engine, final EngineOutput output, final InstrumentTable instruments)
    {
        if (null == journal)
        {
            return true;
        }
        final ExpandableDirectByteBuffer buffer = writer.claim();
        if (null == buffer)
        {
            return false;
        }
        final long sequence = journal.lastSequence();
        if (sequence != checkpoints.lastWrittenSequence())
        {
            writer.commit(checkpoints.encode(buffer, engine, sequence, output, instruments), sequence);
        }
        return true;
    }

    long recoveredCheckpointSequence()
    {
        return recoveredCheckpointSequence;
    }

    long replayedMessages()
    {
        return replayedMessages;
    }

    long journalSequence()
    {
        return null == journal ? -1 : journal.lastSequence();
    }

    @Override
    public void close()
    {
        CloseHelper.quietCloseAll(writer, journal);
    }

    private void define(final MatchingEngine engine)
    {
        for (final Instrument instrument : context.instruments())
        {
            engine.addInstrument(instrument);
        }
        for (final Map.Entry<Integer, RiskLimits> account : context.accounts().entrySet())
        {
            engine.addAccount(account.getKey(), account.getValue());
        }
    }

    private void restore(
        final CheckpointStore.Loaded loaded,
        final MatchingEngine engine,
        final EngineOutput output,
        final InstrumentTable instruments)
    {
        engine.restoreState(checkpoints.buffer(), loaded.engineOffset);
        checkRestoredConfiguration(loaded.file, engine);
        for (int i = 0; i < loaded.origins.length; i++)
        {
            final ReportRoute route = output.routes()[routeIndex(output, loaded.origins[i],
                "checkpoint " + loaded.file)];
            route.lastExecId(loaded.lastExecIds[i]);
            route.restoreHistory(checkpoints.buffer(), loaded.reportsOffsets[i], loaded.reportCounts[i]);
        }
        for (int i = 0; i < loaded.marketDataSequences.length; i++)
        {
            instruments.sequence(i, loaded.marketDataSequences[i]);
        }
        recoveredCheckpointSequence = loaded.journalSequence;
    }

    private static int routeIndex(final EngineOutput output, final int origin, final String what)
    {
        final int index = output.routeIndex(origin);
        if (index < 0)
        {
            throw new IllegalStateException(what + " belongs to origin " + origin + ", which has no route in " +
                "this configuration: start with the routes its journal was written under, or with an empty journal " +
                "directory");
        }
        return index;
    }

    /**
     * The state on disk was built with the instruments and accounts it carries; going on under others (a tick or lot
     * size, a risk limit changed in the configuration) would apply the journal under rules it was not written with.
     */
    private void checkRestoredConfiguration(final Path file, final MatchingEngine engine)
    {
        final Instrument[] configured = context.instruments();
        if (engine.instrumentCount() != configured.length)
        {
            throw configurationChanged(file, engine.instrumentCount() + " instruments", configured.length +
                " instruments");
        }
        for (int i = 0; i < configured.length; i++)
        {
            if (!engine.instrumentAt(i).equals(configured[i]))
            {
                throw configurationChanged(file, engine.instrumentAt(i).toString(), configured[i].toString());
            }
        }
        final Map<Integer, RiskLimits> accounts = context.accounts();
        if (engine.accountCount() != accounts.size())
        {
            throw configurationChanged(file, engine.accountCount() + " accounts", accounts.size() + " accounts");
        }
        for (final Map.Entry<Integer, RiskLimits> account : accounts.entrySet())
        {
            final RiskLimits restored = engine.riskLimits(account.getKey());
            if (!account.getValue().equals(restored))
            {
                throw configurationChanged(file, "account " + account.getKey() + " " +
                    (null == restored ? "absent" : restored.toString()), "account " + account.getKey() + " " +
                    account.getValue());
            }
        }
    }

    private static IllegalStateException configurationChanged(
        final Path file, final String checkpoint, final String configured)
    {
        return new IllegalStateException("checkpoint " + file + " holds " + checkpoint +
            " where the configuration has " + configured + ": start with the configuration its journal was " +
            "written under, or with an empty journal directory");
    }
}
