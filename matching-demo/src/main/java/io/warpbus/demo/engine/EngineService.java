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
package io.warpbus.demo.engine;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.warpbus.bus.Bus;
import io.warpbus.bus.ExclusivePublication;
import io.warpbus.bus.FragmentAssembler;
import io.warpbus.bus.Subscription;
import io.warpbus.demo.AppCounters;
import io.warpbus.marketdata.sbe.HeartbeatEncoder;
import io.warpbus.matching.Instrument;
import io.warpbus.matching.RiskLimits;
import io.warpbus.matching.engine.MatchingEngine;
import io.warpbus.orderentry.sbe.EngineHeartbeatEncoder;
import io.warpbus.orderentry.sbe.MessageHeaderEncoder;
import org.HdrHistogram.Recorder;
import org.agrona.BitUtil;
import org.agrona.CloseHelper;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.OffsetEpochNanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * The matching engine on the bus: one duty cycle that drives the bus (in {@code INVOKER} mode), polls the
 * order-entry streams, runs each command through the {@link MatchingEngine} and publishes what it caused, then, at
 * their deadlines, the market-data snapshot cycle and the heartbeats. Single-threaded and allocation free in steady
 * state: everything is preallocated, the clocks are read once per message or cycle.
 * <pre>
 *   order entry (stream 1001, one subscription per client channel, policy block)
 *        |  NewOrder / CancelOrder / ReplaceOrder (SBE schema 2)
 *        v
 *   OrderEntryHandler --decode, lots to units--&gt; MatchingEngine --events--&gt; EngineOutput
 *        |                                                                   |        \
 *        | MessageReject                                 ExecutionReport     |         \ Trade, BookUpdate
 *        v                                                                   v          v
 *   execution reports (1002) &lt;----------------------------------------------+    market data (1003)
 *                                          MarketDataSnapshots, every second --&gt; snapshots (1004)
 * </pre>
 * Output streams retry through back pressure inside the cycle ({@link OutboundStream}); while they wait the engine
 * takes no new command, so a slow subscriber slows the order flow instead of losing anything.
 * <p>
 * <b>Event sourcing.</b> With a {@link Context#journalDirectory(Path) journal directory}, every inbound order-entry
 * message is appended to the {@link CommandJournal} before it is processed, and every
 * {@link Context#recoverySnapshotIntervalNs(long) interval} (and on close) the state is written as a
 * {@link RecoverySnapshots recovery snapshot}. On construction the service restores the newest snapshot, if any, and
 * replays the journal after it without publishing anything, reaching the state (books, accounts, order ids, exec
 * ids, market-data sequences) of the process that wrote the journal, whatever way that process ended.
 */
public final class EngineService implements Agent
{
    private static final int FRAGMENT_LIMIT = 64;
    private static final int RESEND_BATCH = 128;

    private final Context context;
    private final Bus bus;
    private final boolean invoker;
    private final MatchingEngine engine;
    private final InstrumentTable instruments;
    private final EngineCounters counters;
    private final Recorder serviceTime;
    private final Subscription[] orderEntry;
    private final FragmentAssembler assembler;
    private final OrderEntryHandler handler;
    private final EngineOutput output;
    private final MarketDataSnapshots snapshots;
    private final OutboundStream executionReports;
    private final OutboundStream marketData;
    private final OutboundStream snapshotStream;
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final UnsafeBuffer heartbeatBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
    private final HeartbeatEncoder marketDataHeartbeat = new HeartbeatEncoder();
    private final io.warpbus.marketdata.sbe.MessageHeaderEncoder marketDataHeader =
        new io.warpbus.marketdata.sbe.MessageHeaderEncoder();
    private final EngineHeartbeatEncoder engineHeartbeat = new EngineHeartbeatEncoder();
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final EpochNanoClock epochClock;
    private final NanoClock nanoClock;
    private final CommandJournal journal;
    private final RecoverySnapshots recoverySnapshots;
    private long recoveredSnapshotSequence = -1;
    private long replayedMessages;
    private long nextRecoverySnapshotNs;
    private long nextSnapshotNs;
    private long nextHeartbeatNs;
    private int reportSubscribers;

    /**
     * Build the service: the engine with its instruments and accounts, the subscriptions and publications.
     *
     * @param context configuration.
     */
    public EngineService(final Context context)
    {
        this.context = context;
        this.bus = context.bus;
        this.invoker = io.warpbus.iwarp.ThreadingMode.INVOKER == bus.context().threadingMode();
        this.epochClock = context.epochClock;
        this.nanoClock = context.nanoClock;
        this.counters = new EngineCounters(context.counters);
        this.serviceTime = new Recorder(OrderEntryHandler.maxLatencyNs(), 3);
        this.instruments = new InstrumentTable(context.instruments);

        final OutboundStream.Driver driver = invoker ? bus::doWork : () -> 0;
        executionReports = stream(context.executionReportChannel, driver, counters.reportStream);
        marketData = stream(context.marketDataChannel, driver, counters.marketDataStream);
        snapshotStream = stream(context.snapshotChannel, driver, counters.snapshotStream);

        output = new EngineOutput(instruments, executionReports, marketData, counters.executionReports,
            counters.trades, counters.rejects, counters.resentReports, context.reportHistory);
        engine = new MatchingEngine(new MatchingEngine.Context()
            .listener(output)
            .bookCapacity(context.bookCapacity)
            .accountOrderCapacity(context.accountOrderCapacity));
        journal = null == context.journalDirectory ? null : new CommandJournal(context.journalDirectory);
        if (null != journal)
        {
            closeables.add(journal);
        }
        recoverySnapshots = null == journal ? null :
            new RecoverySnapshots(context.journalDirectory.resolve("engine-snapshots"));
        snapshots = new MarketDataSnapshots(engine, instruments, snapshotStream);
        handler = new OrderEntryHandler(engine, output, instruments, executionReports, counters, serviceTime,
            epochClock, nanoClock, context.counters::onError, journal);
        assembler = new FragmentAssembler(handler);
        try
        {
            recover();
        }
        catch (final RuntimeException ex)
        {
            onCloseWithoutSnapshot();
            throw ex;
        }

        orderEntry = new Subscription[context.orderEntryChannels.size()];
        for (int i = 0; i < orderEntry.length; i++)
        {
            orderEntry[i] = bus.addSubscription(context.orderEntryChannels.get(i));
            closeables.add(orderEntry[i]);
        }
        final long nowNs = nanoClock.nanoTime();
        nextSnapshotNs = nowNs + context.snapshotIntervalNs;
        nextHeartbeatNs = nowNs + context.heartbeatIntervalNs;
        nextRecoverySnapshotNs = nowNs + context.recoverySnapshotIntervalNs;
    }

    @Override
    public int doWork()
    {
        int work = invoker ? bus.doWork() : 0;
        final Subscription[] orderEntry = this.orderEntry;
        for (final Subscription subscription : orderEntry)
        {
            work += subscription.poll(assembler, FRAGMENT_LIMIT);
        }
        work += greetReportSubscribers() + output.continueResend(RESEND_BATCH);

        final long nowNs = nanoClock.nanoTime();
        if (nowNs - nextSnapshotNs >= 0)
        {
            nextSnapshotNs = nowNs + context.snapshotIntervalNs;
            if (snapshots.publish(epochClock.nanoTime()))
            {
                counters.snapshotCycles.incrementRelease();
            }
            work++;
        }
        if (nowNs - nextHeartbeatNs >= 0)
        {
            nextHeartbeatNs = nowNs + context.heartbeatIntervalNs;
            heartbeats(epochClock.nanoTime());
            context.counters.heartbeat(System.currentTimeMillis());
            work++;
        }
        if (null != journal && nowNs - nextRecoverySnapshotNs >= 0)
        {
            nextRecoverySnapshotNs = nowNs + context.recoverySnapshotIntervalNs;
            if (takeRecoverySnapshot())
            {
                work++;
            }
        }

        return work;
    }

    @Override
    public String roleName()
    {
        return "matching-engine";
    }

    @Override
    public void onClose()
    {
        if (null != journal)
        {
            takeRecoverySnapshot();
        }
        onCloseWithoutSnapshot();
    }

    private void onCloseWithoutSnapshot()
    {
        executionReports.stopRetrying();
        marketData.stopRetrying();
        snapshotStream.stopRetrying();
        for (int i = closeables.size() - 1; i >= 0; i--)
        {
            CloseHelper.quietClose(closeables.get(i));
        }
    }

    /**
     * Stop retrying through back pressure, from any thread, so that a duty cycle held by a subscriber that will
     * never catch up returns and the service can close.
     */
    public void stopRetrying()
    {
        executionReports.stopRetrying();
        marketData.stopRetrying();
        snapshotStream.stopRetrying();
    }

    /**
     * Write a recovery snapshot of the state now, unless one exists for the last journaled message; on the
     * service's thread (the duty cycle does it every {@link Context#recoverySnapshotIntervalNs(long)}). A failure is
     * recorded in the error log and leaves the older snapshots in place.
     *
     * @return true if a snapshot was written.
     */
    public boolean takeRecoverySnapshot()
    {
        if (null == journal)
        {
            return false;
        }
        try
        {
            return recoverySnapshots.write(engine, journal.lastSequence(), output, instruments);
        }
        catch (final RuntimeException ex)
        {
            context.counters.onError(ex);
            return false;
        }
    }

    /**
     * Sequence of the last journaled order-entry message.
     *
     * @return the sequence, -1 when the journal is empty or there is no journal.
     */
    public long journalSequence()
    {
        return null == journal ? -1 : journal.lastSequence();
    }

    /**
     * Journal sequence of the recovery snapshot restored at start-up.
     *
     * @return the sequence, -1 when none was restored (an empty or absent journal, or a replay from the start).
     */
    public long recoveredSnapshotSequence()
    {
        return recoveredSnapshotSequence;
    }

    /**
     * Journaled messages replayed at start-up, after the restored snapshot.
     *
     * @return the count.
     */
    public long replayedMessages()
    {
        return replayedMessages;
    }

    /**
     * The matching engine, for inspection on the service's thread.
     *
     * @return the engine.
     */
    public MatchingEngine engine()
    {
        return engine;
    }

    /**
     * The counters.
     *
     * @return the counters, readable from any thread.
     */
    public EngineCounters counters()
    {
        return counters;
    }

    /**
     * Service time of each command, decode to last message published, in nanoseconds.
     *
     * @return the recorder; take interval histograms from any one thread.
     */
    public Recorder serviceTime()
    {
        return serviceTime;
    }

    /**
     * Id of the last execution report sent.
     *
     * @return the exec id, 0 before the first.
     */
    public long lastExecId()
    {
        return output.lastExecId();
    }

    /**
     * Copy the execution reports held for resend requests, oldest first and ending at {@link #lastExecId()}, each
     * as published (header and {@code ExecutionReport} block): to check what a restart rebuilt.
     *
     * @param buffer to copy into; it must hold them.
     * @param offset where.
     * @return bytes copied.
     */
    public int copyHeldReports(final MutableDirectBuffer buffer, final int offset)
    {
        return output.copyHistory(buffer, offset);
    }

    /**
     * Are the engine's subscribers connected: the execution-report stream (market data may have none)?
     *
     * @return true if execution reports would be delivered.
     */
    public boolean isExecutionReportStreamConnected()
    {
        return executionReports.isConnected();
    }

    /**
     * Is every order-entry subscription connected to its publisher?
     *
     * @return true if so.
     */
    public boolean isOrderEntryConnected()
    {
        for (final Subscription subscription : orderEntry)
        {
            if (!subscription.isConnected())
            {
                return false;
            }
        }
        return true;
    }

    private void define()
    {
        for (final Instrument instrument : context.instruments)
        {
            engine.addInstrument(instrument);
        }
        for (final Map.Entry<Integer, RiskLimits> account : context.accounts.entrySet())
        {
            engine.addAccount(account.getKey(), account.getValue());
        }
    }

    private void restore(final RecoverySnapshots.Loaded loaded)
    {
        engine.restore(recoverySnapshots.buffer(), loaded.engineOffset);
        checkRestoredConfiguration(loaded.file);
        output.lastExecId(loaded.lastExecId);
        output.restoreHistory(recoverySnapshots.buffer(), loaded.reportsOffset, loaded.reportCount);
        for (int i = 0; i < loaded.marketDataSequences.length; i++)
        {
            instruments.sequence(i, loaded.marketDataSequences[i]);
        }
        recoveredSnapshotSequence = loaded.journalSequence;
    }

    /**
     * The state on disk was built with the instruments and accounts it carries; going on under others (a tick or lot
     * size, a risk limit changed in the configuration) would apply the journal under rules it was not written with.
     */
    private void checkRestoredConfiguration(final Path file)
    {
        final Instrument[] configured = context.instruments;
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
        if (engine.accountCount() != context.accounts.size())
        {
            throw configurationChanged(file, engine.accountCount() + " accounts", context.accounts.size() +
                " accounts");
        }
        for (final Map.Entry<Integer, RiskLimits> account : context.accounts.entrySet())
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
        final Path file, final String snapshot, final String configured)
    {
        return new IllegalStateException("recovery snapshot " + file + " holds " + snapshot +
            " where the configuration has " + configured + ": start with the configuration its journal was " +
            "written under, or with an empty journal directory");
    }

    private void recover()
    {
        final RecoverySnapshots.Loaded loaded = null == recoverySnapshots ? null :
            recoverySnapshots.loadLatest();
        if (null != loaded)
        {
            restore(loaded);
        }
        else
        {
            define();
        }
        if (null == journal)
        {
            return;
        }
        output.replaying(true);
        try
        {
            replayedMessages = journal.replay(recoveredSnapshotSequence,
                (sequence, sessionId, flags, publishedNs, receivedNs, buffer, offset, length) ->
                handler.onMessage(buffer, offset, length, sessionId, sequence, receivedNs));
        }
        finally
        {
            output.replaying(false);
        }
    }

    private void heartbeats(final long epochNs)
    {
        if (marketData.isConnected())
        {
            marketDataHeartbeat.wrapAndApplyHeader(heartbeatBuffer, 0, marketDataHeader).timestamp(epochNs);
            marketData.publish(heartbeatBuffer, 0,
                io.warpbus.marketdata.sbe.MessageHeaderEncoder.ENCODED_LENGTH + marketDataHeartbeat.encodedLength());
        }
        if (executionReports.isConnected())
        {
            reportHeartbeat(epochNs);
        }
    }

    /**
     * A subscriber learns that it is connected before this side's publication counts it, so a report published in
     * between would go to nobody. A heartbeat as soon as the publication gains a subscriber tells clients when
     * reports will reach them; the load client sends nothing before it.
     */
    private int greetReportSubscribers()
    {
        final int subscribers = executionReports.publication().subscriberCount();
        if (subscribers == reportSubscribers)
        {
            return 0;
        }
        final boolean joined = subscribers > reportSubscribers;
        reportSubscribers = subscribers;
        if (joined)
        {
            reportHeartbeat(epochClock.nanoTime());
        }

        return 1;
    }

    private void reportHeartbeat(final long epochNs)
    {
        engineHeartbeat.wrapAndApplyHeader(heartbeatBuffer, 0, header)
            .lastExecId(output.lastExecId())
            .transactTime(epochNs);
        executionReports.publish(heartbeatBuffer, 0,
            MessageHeaderEncoder.ENCODED_LENGTH + engineHeartbeat.encodedLength());
    }

    private OutboundStream stream(final String channel, final OutboundStream.Driver driver,
        final AtomicCounter[] streamCounters)
    {
        final ExclusivePublication publication = bus.addExclusivePublication(channel);
        closeables.add(publication);
        return new OutboundStream(publication, driver, context.retryIdle, streamCounters[0], streamCounters[1],
            streamCounters[2], streamCounters[3], streamCounters[4]);
    }

    /**
     * Configuration of an {@link EngineService}.
     */
    public static final class Context
    {
        private Bus bus;
        private AppCounters counters;
        private final List<String> orderEntryChannels = new ArrayList<>();
        private String executionReportChannel;
        private String marketDataChannel;
        private String snapshotChannel;
        private Instrument[] instruments = new Instrument[0];
        private final Map<Integer, RiskLimits> accounts = new LinkedHashMap<>();
        private int bookCapacity = 64 * 1024;
        private int accountOrderCapacity = 16 * 1024;
        private int reportHistory = 64 * 1024;
        private long snapshotIntervalNs = TimeUnit.SECONDS.toNanos(1);
        private long heartbeatIntervalNs = TimeUnit.SECONDS.toNanos(1);
        private Path journalDirectory;
        private long recoverySnapshotIntervalNs = TimeUnit.SECONDS.toNanos(10);
        private IdleStrategy retryIdle = new BackoffIdleStrategy(
            10, 20, TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.MICROSECONDS.toNanos(100));
        private EpochNanoClock epochClock = new OffsetEpochNanoClock();
        private NanoClock nanoClock = SystemNanoClock.INSTANCE;

        /**
         * The bus to publish and subscribe on; the service drives it in {@code INVOKER} mode.
         *
         * @param bus the bus.
         * @return this.
         */
        public Context bus(final Bus bus)
        {
            this.bus = bus;
            return this;
        }

        /**
         * Where the service's counters and error log live.
         *
         * @param counters the counters file.
         * @return this.
         */
        public Context counters(final AppCounters counters)
        {
            this.counters = counters;
            return this;
        }

        /**
         * Add an order-entry channel (one per client or gateway publication).
         *
         * @param channel channel URI.
         * @return this.
         */
        public Context orderEntryChannel(final String channel)
        {
            orderEntryChannels.add(channel);
            return this;
        }

        /**
         * Channel the execution reports are published on.
         *
         * @param channel channel URI.
         * @return this.
         */
        public Context executionReportChannel(final String channel)
        {
            this.executionReportChannel = channel;
            return this;
        }

        /**
         * Channel incremental market data is published on.
         *
         * @param channel channel URI.
         * @return this.
         */
        public Context marketDataChannel(final String channel)
        {
            this.marketDataChannel = channel;
            return this;
        }

        /**
         * Channel market-data snapshots are published on.
         *
         * @param channel channel URI.
         * @return this.
         */
        public Context snapshotChannel(final String channel)
        {
            this.snapshotChannel = channel;
            return this;
        }

        /**
         * Instruments to trade.
         *
         * @param instruments definitions.
         * @return this.
         */
        public Context instruments(final Instrument... instruments)
        {
            this.instruments = instruments.clone();
            return this;
        }

        /**
         * Add an account.
         *
         * @param accountId id.
         * @param limits    its risk limits.
         * @return this.
         */
        public Context account(final int accountId, final RiskLimits limits)
        {
            accounts.put(accountId, limits);
            return this;
        }

        /**
         * Resting orders per instrument, preallocated.
         *
         * @param bookCapacity orders.
         * @return this.
         */
        public Context bookCapacity(final int bookCapacity)
        {
            this.bookCapacity = bookCapacity;
            return this;
        }

        /**
         * Initial live-order capacity of each account.
         *
         * @param accountOrderCapacity orders.
         * @return this.
         */
        public Context accountOrderCapacity(final int accountOrderCapacity)
        {
            this.accountOrderCapacity = accountOrderCapacity;
            return this;
        }

        /**
         * Execution reports held for clients' resend requests: the most recent ones, a power of two from 1 to
         * 2<sup>24</sup> (128 bytes each).
         *
         * @param reportHistory reports.
         * @return this.
         * @throws IllegalArgumentException naming the value when it is not such a power of two.
         */
        public Context reportHistory(final int reportHistory)
        {
            if (reportHistory < 1 || reportHistory > 1 << 24 || !BitUtil.isPowerOfTwo(reportHistory))
            {
                throw new IllegalArgumentException("report history " + reportHistory +
                    ": must be a power of two from 1 to 16777216");
            }
            this.reportHistory = reportHistory;
            return this;
        }

        /**
         * Interval of market-data snapshot cycles.
         *
         * @param snapshotIntervalNs nanoseconds.
         * @return this.
         */
        public Context snapshotIntervalNs(final long snapshotIntervalNs)
        {
            this.snapshotIntervalNs = snapshotIntervalNs;
            return this;
        }

        /**
         * Interval of heartbeats on the output streams.
         *
         * @param heartbeatIntervalNs nanoseconds.
         * @return this.
         */
        public Context heartbeatIntervalNs(final long heartbeatIntervalNs)
        {
            this.heartbeatIntervalNs = heartbeatIntervalNs;
            return this;
        }

        /**
         * Journal every inbound order-entry message in this directory before processing it, write recovery
         * snapshots under it, and recover from them on start; null (the default) for none.
         *
         * @param journalDirectory the directory, created if missing.
         * @return this.
         */
        public Context journalDirectory(final Path journalDirectory)
        {
            this.journalDirectory = journalDirectory;
            return this;
        }

        /**
         * Interval of recovery snapshots, when journaling; one is also written on close.
         *
         * @param recoverySnapshotIntervalNs nanoseconds.
         * @return this.
         */
        public Context recoverySnapshotIntervalNs(final long recoverySnapshotIntervalNs)
        {
            this.recoverySnapshotIntervalNs = recoverySnapshotIntervalNs;
            return this;
        }

        /**
         * Idle strategy between retries of a back-pressured offer.
         *
         * @param retryIdle strategy.
         * @return this.
         */
        public Context retryIdle(final IdleStrategy retryIdle)
        {
            this.retryIdle = retryIdle;
            return this;
        }

        /**
         * Clock for transact times.
         *
         * @param epochClock epoch nanoseconds.
         * @return this.
         */
        public Context epochClock(final EpochNanoClock epochClock)
        {
            this.epochClock = epochClock;
            return this;
        }

        /**
         * Clock for intervals and service times.
         *
         * @param nanoClock monotonic nanoseconds.
         * @return this.
         */
        public Context nanoClock(final NanoClock nanoClock)
        {
            this.nanoClock = nanoClock;
            return this;
        }
    }
}
