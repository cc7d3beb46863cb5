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

import java.util.ArrayList;
import java.util.List;

import io.warpbus.bus.Bus;
import io.warpbus.bus.ExclusivePublication;
import io.warpbus.bus.FragmentAssembler;
import io.warpbus.bus.Subscription;
import io.warpbus.iwarp.ThreadingMode;
import io.warpbus.matching.engine.MatchingEngine;
import org.HdrHistogram.Recorder;
import org.agrona.CloseHelper;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * The matching engine on the bus: one duty cycle that drives the bus (in {@code INVOKER} mode), polls the
 * order-entry streams, runs each command through the {@link MatchingEngine} and publishes what it caused, then, at
 * their deadlines, the market-data snapshot cycle, the {@link Heartbeats} and the checkpoints. Single-threaded and
 * allocation free in steady state: everything is preallocated, the clocks are read once per message or cycle.
 * <pre>
 *   order entry (stream 1001: the default route's clients; one stream per gateway route)
 *        |  NewOrder / CancelOrder / ReplaceOrder / ResendRequest (SBE schema 2)
 *        v
 *   OrderEntryHandler --decode, lots to units--&gt; MatchingEngine --events--&gt; EngineOutput
 *        |                                                                   |        \
 *        | MessageReject                 ExecutionReport, by origin route    |         \ Trade, BookUpdate
 *        v                                                                   v          v
 *   the route's report stream (1002, a gateway's own) &lt;-------------------+    market data (1003)
 *   drop copy (every report, optional)     MarketDataSnapshots, every second --&gt; snapshots (1004)
 * </pre>
 * Output streams retry through back pressure inside the cycle ({@link OutboundStream}); while they wait the engine
 * takes no new command, so a slow subscriber slows the order flow instead of losing anything.
 * <p>
 * <b>Routes.</b> Reports go back on the report stream of the order's origin ({@link EngineContext}); each route
 * counts its own exec ids, holds its recent reports, answers resend requests from its own order-entry stream and
 * greets a new subscriber with a heartbeat.
 * <p>
 * This class wires the parts and runs the duty cycle; each job lives in its own class (see the package).
 * <p>
 * <b>Event sourcing.</b> With a {@link EngineContext#journalDirectory(java.nio.file.Path) journal directory}, every
 * inbound order-entry message is journaled before it is processed, with checkpoints every
 * {@link EngineContext#checkpointIntervalNs(long) interval} and on close ({@link EngineRecovery}). On
 * construction the service restores the newest checkpoint, if any, and replays the journal after it without
 * publishing anything, reaching the state (books, accounts, order ids, exec ids, market-data sequences) of the
 * process that wrote the journal, whatever way that process ended.
 */
public final class EngineService implements Agent
{
    private static final int FRAGMENT_LIMIT = 64;
    private static final int RESEND_BATCH = 128;

    private final EngineContext context;
    private final Bus bus;
    private final boolean invoker;
    private final MatchingEngine engine;
    private final InstrumentTable instruments;
    private final EngineCounters counters;
    private final Recorder serviceTime;
    private final EngineRecovery recovery;
    private final OrderEntryHandler handler;
    private final EngineOutput output;
    private final ReportRoute[] routes;
    private final MarketDataSnapshots snapshots;
    private final Heartbeats heartbeats;
    private final List<OutboundStream> streams = new ArrayList<>();
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final Subscription[] orderEntry;
    private final FragmentAssembler[] assemblers;
    private final int[] orderEntryRoute;
    private final EpochNanoClock epochClock;
    private final NanoClock nanoClock;
    private long nextCheckpointNs;
    private long nextSnapshotNs;

    /**
     * Build the service: the engine with its instruments and accounts, the subscriptions and publications, and the
     * state recovered from the journal when there is one.
     *
     * @param context configuration, {@link EngineContext#conclude() concluded} here.
     * @throws IllegalStateException when the configuration is incomplete or the journal cannot be recovered; nothing
     *                               is left open.
     */
    public EngineService(final EngineContext context)
    {
        this.context = context.conclude();
        this.bus = context.bus();
        this.invoker = ThreadingMode.INVOKER == bus.context().threadingMode();
        this.epochClock = context.epochClock();
        this.nanoClock = context.nanoClock();
        this.counters = new EngineCounters(context.counters());
        this.serviceTime = new Recorder(OrderEntryHandler.maxLatencyNs(), 3);
        this.instruments = new InstrumentTable(context.instruments());

        final List<EngineContext.Route> gatewayRoutes = context.routes();
        routes = new ReportRoute[1 + gatewayRoutes.size()];
        final int subscriptions = context.orderEntryChannels().size() + gatewayRoutes.size();
        orderEntry = new Subscription[subscriptions];
        assemblers = new FragmentAssembler[subscriptions];
        orderEntryRoute = new int[subscriptions];
        try
        {
            routes[0] = new ReportRoute(0, stream(context.executionReportChannel(), counters.reportStream(0)),
                counters.resentReports, context.reportHistory());
            for (int i = 0; i < gatewayRoutes.size(); i++)
            {
                final int origin = gatewayRoutes.get(i).origin();
                routes[i + 1] = new ReportRoute(origin,
                    stream(gatewayRoutes.get(i).reportChannel(), counters.reportStream(origin)),
                    counters.resentReports, context.reportHistory());
            }
            final OutboundStream marketData = stream(context.marketDataChannel(), counters.marketDataStream);
            final OutboundStream snapshotStream = stream(context.snapshotChannel(), counters.snapshotStream);
            final OutboundStream dropCopy = null == context.dropCopyChannel() ? null :
                stream(context.dropCopyChannel(), counters.dropCopyStream());

            heartbeats = new Heartbeats(marketData, routes, dropCopy, context.counters(), epochClock,
                context.heartbeatIntervalNs());
            output = new EngineOutput(instruments, routes, dropCopy, marketData, counters.executionReports,
                counters.trades, counters.rejects);
            engine = new MatchingEngine(new MatchingEngine.Context()
                .listener(output)
                .bookCapacity(context.bookCapacity())
                .accountOrderCapacity(context.accountOrderCapacity()));
            recovery = new EngineRecovery(context);
            closeables.add(recovery);
            snapshots = new MarketDataSnapshots(engine, instruments, snapshotStream);
            handler = new OrderEntryHandler(engine, output, instruments, counters, serviceTime, epochClock,
                nanoClock, context.counters()::onError, recovery.journal());
            recovery.recover(engine, output, instruments, handler);
            output.route(0);

            int next = 0;
            for (final String channel : context.orderEntryChannels())
            {
                subscribe(next++, channel, 0);
            }
            for (int i = 0; i < gatewayRoutes.size(); i++)
            {
                subscribe(next++, gatewayRoutes.get(i).orderEntryChannel(), i + 1);
            }
        }
        catch (final RuntimeException ex)
        {
            closeAll();
            throw ex;
        }
        final long nowNs = nanoClock.nanoTime();
        nextSnapshotNs = nowNs + context.snapshotIntervalNs();
        heartbeats.schedule(nowNs);
        nextCheckpointNs = nowNs + context.checkpointIntervalNs();
    }

    @Override
    public int doWork()
    {
        int work = invoker ? bus.doWork() : 0;
        final Subscription[] orderEntry = this.orderEntry;
        for (int i = 0; i < orderEntry.length; i++)
        {
            output.route(orderEntryRoute[i]);
            work += orderEntry[i].poll(assemblers[i], FRAGMENT_LIMIT);
        }
        work += heartbeats.greetSubscribers();
        work += output.continueResend(RESEND_BATCH);

        final long nowNs = nanoClock.nanoTime();
        if (nowNs - nextSnapshotNs >= 0)
        {
            nextSnapshotNs = nowNs + context.snapshotIntervalNs();
            if (snapshots.publish(epochClock.nanoTime()))
            {
                counters.snapshotCycles.incrementRelease();
            }
            work++;
        }
        work += heartbeats.onDeadline(nowNs);
        if (null != recovery.journal() && nowNs - nextCheckpointNs >= 0 && offerCheckpoint())
        {
            nextCheckpointNs = nowNs + context.checkpointIntervalNs();
            work++;
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
        takeCheckpoint();
        closeAll();
    }

    /**
     * Stop retrying through back pressure, from any thread, so that a duty cycle held by a subscriber that will
     * never catch up returns and the service can close.
     */
    public void stopRetrying()
    {
        for (final OutboundStream stream : streams)
        {
            stream.stopRetrying();
        }
    }

    private boolean offerCheckpoint()
    {
        try
        {
            return recovery.offerCheckpoint(engine, output, instruments);
        }
        catch (final RuntimeException ex)
        {
            context.counters().onError(ex);
            return true;
        }
    }

    /**
     * Write a checkpoint of the state now, unless one exists for the last journaled message, on the calling
     * thread (the duty cycle's, or any once the duty cycle has stopped), after the periodic one in flight (if
     * any). The duty cycle encodes one every
     * {@link EngineContext#checkpointIntervalNs(long)} and leaves the file to the checkpoint writer's thread. A
     * failure is recorded in the error log and leaves the older checkpoints in place.
     *
     * @return true if a checkpoint was written; false also when not journaling.
     */
    public boolean takeCheckpoint()
    {
        try
        {
            return recovery.takeCheckpoint(engine, output, instruments);
        }
        catch (final RuntimeException ex)
        {
            context.counters().onError(ex);
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
        return recovery.journalSequence();
    }

    /**
     * Journal sequence of the checkpoint restored at start-up.
     *
     * @return the sequence, -1 when none was restored (an empty or absent journal, or a replay from the start).
     */
    public long recoveredCheckpointSequence()
    {
        return recovery.recoveredCheckpointSequence();
    }

    /**
     * Journaled messages replayed at start-up, after the restored checkpoint.
     *
     * @return the count.
     */
    public long replayedMessages()
    {
        return recovery.replayedMessages();
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
     * Id of the last execution report sent on the default route (origin 0).
     *
     * @return the exec id, 0 before the first.
     */
    public long lastExecId()
    {
        return routes[0].lastExecId();
    }

    /**
     * Id of the last execution report sent on a route.
     *
     * @param origin of the route.
     * @return the exec id, 0 before the first.
     * @throws IllegalArgumentException when the origin has no route.
     */
    public long lastExecId(final int origin)
    {
        final int index = output.routeIndex(origin);
        if (index < 0)
        {
            throw new IllegalArgumentException("no route with origin " + origin);
        }
        return routes[index].lastExecId();
    }

    /**
     * Copy the execution reports of the default route held for resend requests, oldest first and ending at
     * {@link #lastExecId()}, each as published (header and {@code ExecutionReport} block): to check what a restart
     * rebuilt.
     *
     * @param buffer to copy into; it must hold them.
     * @param offset where.
     * @return bytes copied.
     */
    public int copyHeldReports(final MutableDirectBuffer buffer, final int offset)
    {
        return routes[0].copyHistory(buffer, offset);
    }

    /**
     * Are the engine's subscribers connected: the default route's execution-report stream (market data may have
     * none)?
     *
     * @return true if execution reports would be delivered.
     */
    public boolean isExecutionReportStreamConnected()
    {
        return routes[0].stream().isConnected();
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

    private void subscribe(final int index, final String channel, final int route)
    {
        orderEntry[index] = bus.addSubscription(channel);
        closeables.add(orderEntry[index]);
        assemblers[index] = new FragmentAssembler(handler);
        orderEntryRoute[index] = route;
    }

    private OutboundStream stream(final String channel, final AtomicCounter[] streamCounters)
    {
        final ExclusivePublication publication = bus.addExclusivePublication(channel);
        closeables.add(publication);
        final OutboundStream.Driver driver = invoker ? bus::doWork : () -> 0;
        final OutboundStream stream = new OutboundStream(publication, driver, context.retryIdle(),
            streamCounters[0], streamCounters[1], streamCounters[2], streamCounters[3], streamCounters[4]);
        streams.add(stream);
        return stream;
    }

    private void closeAll()
    {
        stopRetrying();
        for (int i = closeables.size() - 1; i >= 0; i--)
        {
            CloseHelper.quietClose(closeables.get(i));
        }
    }
}
