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
package io.warpbus.demo.client;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

import io.warpbus.bus.Bus;
import io.warpbus.bus.ExclusivePublication;
import io.warpbus.bus.FragmentAssembler;
import io.warpbus.bus.FragmentHandler;
import io.warpbus.bus.Header;
import io.warpbus.bus.Publication;
import io.warpbus.bus.Subscription;
import io.warpbus.iwarp.ThreadingMode;
import io.warpbus.matching.ExecType;
import io.warpbus.matching.load.LoadGenerator;
import io.warpbus.matching.load.LoadProfile;
import io.warpbus.orderentry.RejectReason;
import io.warpbus.orderentry.sbe.EngineHeartbeatDecoder;
import io.warpbus.orderentry.sbe.ExecutionReportDecoder;
import io.warpbus.orderentry.sbe.MessageHeaderDecoder;
import io.warpbus.orderentry.sbe.MessageHeaderEncoder;
import io.warpbus.orderentry.sbe.MessageRejectDecoder;
import io.warpbus.orderentry.sbe.ResendRequestEncoder;
import org.HdrHistogram.Recorder;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The load generator on the bus: publishes the commands of a {@link LoadGenerator} on its order-entry stream at a
 * planned rate, and reads the engine's execution reports to feed fills back to the generator, to check that the
 * engine's {@code execId}s arrive without a gap, and to measure order-to-report latency: from the moment a command
 * is encoded to the arrival of the report that answers it (the one {@code NEW}, {@code REJECTED},
 * {@code CANCELLED} on request, {@code CANCEL_REJECTED}, {@code REPLACED} or {@code REPLACE_REJECTED} each command
 * gets), on the client's own clock, which the report echoes.
 * <p>
 * It waits until the engine has subscribed to its commands and has sent a heartbeat on the report stream since this
 * client subscribed (the engine sends one as soon as its publication counts a new subscriber; before that a report
 * would reach nobody), places the profile's prefill quotes as fast as the bus takes them, then paces commands at the
 * profile's rate. A command refused by back pressure waits in the outbox and is counted; reports are read meanwhile,
 * so the engine is never blocked by the client. One duty-cycle thread; counters are readable from any thread.
 * <p>
 * Reports missing from the stream (an {@code execId} beyond the next expected, or a heartbeat's {@code lastExecId}
 * beyond it, as after an engine restart) are asked for again with a {@code ResendRequest}; the resent ones are taken
 * in order, a report seen twice is ignored, and what the engine no longer holds is counted as missing. One range is
 * repaired at a time; a second gap meanwhile is counted as missing.
 */
public final class LoadClient implements Agent
{
    private static final long MAX_LATENCY_NS = 60_000_000_000L;
    private static final int FRAGMENT_LIMIT = 256;
    private static final int BURST_LIMIT = 64;
    private static final long RESEND_TIMEOUT_NS = 5_000_000_000L;
    private static final int RESEND_ATTEMPTS = 3;

    private final Bus bus;
    private final boolean invoker;
    private final ExclusivePublication orders;
    private final Subscription reports;
    private final LoadGenerator generator;
    private final OrderSender sender;
    private final NanoClock clock;
    private final long intervalNs;
    private final long maxCommands;
    private final Recorder latency = new Recorder(MAX_LATENCY_NS, 3);
    private final FragmentHandler assembler;
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final ExecutionReportDecoder report = new ExecutionReportDecoder();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong acked = new AtomicLong();
    private final AtomicLong reportCount = new AtomicLong();
    private final AtomicLong fills = new AtomicLong();
    private final AtomicLong rejects = new AtomicLong();
    private final java.util.concurrent.atomic.AtomicLongArray rejectsByReason =
        new java.util.concurrent.atomic.AtomicLongArray(500);
    private final AtomicLong unexpectedRejects = new AtomicLong();
    private final AtomicLong messageRejects = new AtomicLong();
    private final AtomicLong execIdGaps = new AtomicLong();
    private final AtomicLong backPressureEvents = new AtomicLong();
    private final AtomicLong notConnected = new AtomicLong();
    private final AtomicLong duplicateReports = new AtomicLong();
    private final AtomicLong resendRequests = new AtomicLong();
    private final AtomicLong resentReports = new AtomicLong();
    private final UnsafeBuffer resendBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
    private final ResendRequestEncoder resendEncoder = new ResendRequestEncoder();
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final EngineHeartbeatDecoder heartbeat = new EngineHeartbeatDecoder();
    private volatile boolean sending = true;
    private volatile boolean exhausted;
    private boolean started;
    private boolean engineHeard;
    private long startNs;
    private long paced;
    private long nextExecId;
    private long resendNext;
    private long resendTo;
    private long resendSentNs;
    private int resendAttempts;
    private boolean resendToSend;

    /**
     * Make a client on a bus.
     *
     * @param bus                   the bus; driven by this agent in {@code INVOKER} mode.
     * @param orderEntryChannel     where to publish commands (the engine subscribes to it).
     * @param executionReportChannel where the engine publishes its reports.
     * @param profile               what to generate; its rate paces the commands.
     * @param maxCommands           commands to send after the prefill, or {@code Long.MAX_VALUE}.
     * @param clock                 stamps messages and measures latency.
     */
    public LoadClient(
        final Bus bus,
        final String orderEntryChannel,
        final String executionReportChannel,
        final LoadProfile profile,
        final long maxCommands,
        final NanoClock clock)
    {
        this.bus = bus;
        this.invoker = ThreadingMode.INVOKER == bus.context().threadingMode();
        this.clock = clock;
        this.generator = new LoadGenerator(profile);
        this.intervalNs = Math.max(1, 1_000_000_000L / profile.commandsPerSecond());
        this.maxCommands = maxCommands;
        this.sender = new OrderSender(clock, Math.max(1024,
            profile.instrumentCount() * profile.prefillQuotesPerInstrument() + BURST_LIMIT));
        this.assembler = new FragmentAssembler(this::onReport);
        this.orders = bus.addExclusivePublication(orderEntryChannel);
        this.reports = bus.addSubscription(executionReportChannel);
    }

    @Override
    public int doWork()
    {
        int work = invoker ? bus.doWork() : 0;
        work += reports.poll(assembler, FRAGMENT_LIMIT);
        if (!started)
        {
            if (!orders.isConnected() || !engineHeard)
            {
                return work;
            }
            started = true;
            generator.prefill(sender);
            startNs = clock.nanoTime();
        }
        work += drainOutbox() + repair();
        if (sending && 0 == sender.queued())
        {
            final long nowNs = clock.nanoTime();
            int burst = 0;
            while (paced < maxCommands && nowNs - (startNs + paced * intervalNs) >= 0 && burst < BURST_LIMIT)
            {
                generator.next(sender);
                paced++;
                burst++;
            }
            if (paced >= maxCommands)
            {
                exhausted = true;
            }
            if (burst > 0)
            {
                work += burst + drainOutbox();
            }
        }

        return work;
    }

    @Override
    public String roleName()
    {
        return "load-client";
    }

    @Override
    public void onClose()
    {
        CloseHelper.quietCloseAll(orders, reports);
    }

    /**
     * Stop generating commands, from any thread; what is queued still goes out and reports are still read.
     */
    public void stopSending()
    {
        sending = false;
    }

    /**
     * Has everything sent been answered and nothing is left to send?
     *
     * @return true when settled.
     */
    public boolean isSettled()
    {
        return started && acked.get() >= sent.get() && !hasQueued();
    }

    /**
     * Has the client sent every command it was asked for and had them all answered?
     *
     * @return true when a bounded run is over.
     */
    public boolean isDone()
    {
        return exhausted && isSettled();
    }

    /**
     * Has the client connected and placed its prefill?
     *
     * @return true once started.
     */
    public boolean isStarted()
    {
        return started;
    }

    /**
     * Order-to-report latency, nanoseconds.
     *
     * @return the recorder; take interval histograms from one thread.
     */
    public Recorder latency()
    {
        return latency;
    }

    /**
     * Commands published.
     *
     * @return the count.
     */
    public long sent()
    {
        return sent.get();
    }

    /**
     * Commands answered.
     *
     * @return the count.
     */
    public long acked()
    {
        return acked.get();
    }

    /**
     * Execution reports received.
     *
     * @return the count.
     */
    public long reports()
    {
        return reportCount.get();
    }

    /**
     * Fill reports received.
     *
     * @return the count.
     */
    public long fills()
    {
        return fills.get();
    }

    /**
     * Rejections received, of any command.
     *
     * @return the count.
     */
    public long rejects()
    {
        return rejects.get();
    }

    /**
     * Rejections other than the expected ones: unknown orders (a maker cancelling a quote that just traded),
     * post-only quotes that would cross, and replaces below what has already traded.
     *
     * @return the count.
     */
    public long unexpectedRejects()
    {
        return unexpectedRejects.get();
    }

    /**
     * Rejections received with one reason code.
     *
     * @param reason a {@link RejectReason} code.
     * @return the count.
     */
    public long rejects(final int reason)
    {
        return reason >= 0 && reason < rejectsByReason.length() ? rejectsByReason.get(reason) : 0;
    }

    /**
     * MessageRejects received: messages the engine could not decode.
     *
     * @return the count.
     */
    public long messageRejects()
    {
        return messageRejects.get();
    }

    /**
     * Execution reports missed for good: skipped by the stream and not recovered by a resend request.
     *
     * @return the count of execIds missing.
     */
    public long execIdGaps()
    {
        return execIdGaps.get();
    }

    /**
     * Execution reports received twice (resent after all) and ignored.
     *
     * @return the count.
     */
    public long duplicateReports()
    {
        return duplicateReports.get();
    }

    /**
     * Resend requests sent.
     *
     * @return the count.
     */
    public long resendRequests()
    {
        return resendRequests.get();
    }

    /**
     * Missing execution reports that came back on a resend request.
     *
     * @return the count.
     */
    public long resentReports()
    {
        return resentReports.get();
    }

    /**
     * The highest execId taken so far. Read it on the duty-cycle thread.
     *
     * @return the execId, 0 before the first.
     */
    public long highestExecId()
    {
        return 0 == nextExecId ? 0 : nextExecId - 1;
    }

    /**
     * Is a missing range still being asked for? Read it on the duty-cycle thread.
     *
     * @return true while a resend is outstanding.
     */
    public boolean isRepairing()
    {
        return 0 != resendNext;
    }

    /**
     * Offers refused with back pressure.
     *
     * @return the count.
     */
    public long backPressureEvents()
    {
        return backPressureEvents.get();
    }

    /**
     * Offers refused because the engine was not subscribed.
     *
     * @return the count.
     */
    public long notConnected()
    {
        return notConnected.get();
    }

    private boolean hasQueued()
    {
        return sender.queued() > 0;
    }

    private int drainOutbox()
    {
        int published = 0;
        while (sender.queued() > 0)
        {
            final long result = orders.offer(sender.buffer(), sender.peekOffset(), sender.peekLength());
            if (result < 0)
            {
                if (Publication.BACK_PRESSURED == result)
                {
                    backPressureEvents.lazySet(backPressureEvents.get() + 1);
                }
                else if (Publication.NOT_CONNECTED == result)
                {
                    notConnected.lazySet(notConnected.get() + 1);
                }
                break;
            }
            sender.pop();
            sent.lazySet(sent.get() + 1);
            published++;
        }

        return published;
    }

    /**
     * Send the pending resend request, and ask again (or give up and count the rest as missing) when the answer
     * does not come.
     */
    private int repair()
    {
        if (0 == resendNext)
        {
            return 0;
        }
        if (!resendToSend)
        {
            if (clock.nanoTime() - resendSentNs < RESEND_TIMEOUT_NS)
            {
                return 0;
            }
            if (resendAttempts >= RESEND_ATTEMPTS)
            {
                lost(resendTo - resendNext + 1);
                resendNext = 0;
                return 1;
            }
            resendToSend = true;
        }
        resendEncoder.wrapAndApplyHeader(resendBuffer, 0, headerEncoder)
            .fromExecId(resendNext)
            .toExecId(resendTo)
            .sendingTime(clock.nanoTime());
        if (orders.offer(resendBuffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + resendEncoder.encodedLength()) < 0)
        {
            return 0;
        }
        resendToSend = false;
        resendSentNs = clock.nanoTime();
        resendAttempts++;
        resendRequests.lazySet(resendRequests.get() + 1);

        return 1;
    }

    private void missing(final long fromExecId, final long toExecId)
    {
        if (0 != resendNext)
        {
            lost(toExecId - fromExecId + 1);
            return;
        }
        resendNext = fromExecId;
        resendTo = toExecId;
        resendAttempts = 0;
        resendToSend = true;
    }

    private void lost(final long reports)
    {
        execIdGaps.lazySet(execIdGaps.get() + reports);
    }

    /**
     * Should a report be taken: the next one, one past a gap (which is asked for again), or the next resent one?
     */
    private boolean admit(final long execId)
    {
        if (0 == nextExecId || execId == nextExecId)
        {
            nextExecId = execId + 1;
            return true;
        }
        if (execId > nextExecId)
        {
            missing(nextExecId, execId - 1);
            nextExecId = execId + 1;
            return true;
        }
        if (0 != resendNext && execId >= resendNext && execId <= resendTo)
        {
            // Resent, in order; any skipped were no longer held by the engine.
            lost(execId - resendNext);
            resentReports.lazySet(resentReports.get() + 1);
            resendNext = execId == resendTo ? 0 : execId + 1;
            return true;
        }
        duplicateReports.lazySet(duplicateReports.get() + 1);
        return false;
    }

    private void onEngineHeartbeat(final long lastExecId)
    {
        engineHeard = true;
        if (0 == nextExecId)
        {
            nextExecId = lastExecId + 1;
        }
        else if (lastExecId >= nextExecId)
        {
            // Reports before a heartbeat come before it on the stream: these never will.
            missing(nextExecId, lastExecId);
            nextExecId = lastExecId + 1;
        }
    }

    private void onReport(final DirectBuffer buffer, final int offset, final int length, final Header frameHeader)
    {
        if (length < MessageHeaderDecoder.ENCODED_LENGTH)
        {
            return;
        }
        header.wrap(buffer, offset);
        if (MessageHeaderDecoder.SCHEMA_ID != header.schemaId())
        {
            return;
        }
        switch (header.templateId())
        {
            case ExecutionReportDecoder.TEMPLATE_ID:
                report.wrapAndApplyHeader(buffer, offset, header);
                onExecutionReport(report);
                break;
            case MessageRejectDecoder.TEMPLATE_ID:
                messageRejects.lazySet(messageRejects.get() + 1);
                break;
            case EngineHeartbeatDecoder.TEMPLATE_ID:
                onEngineHeartbeat(heartbeat.wrapAndApplyHeader(buffer, offset, header).lastExecId());
                break;
            default:
                break;
        }
    }

    private void onExecutionReport(final ExecutionReportDecoder report)
    {
        final long nowNs = clock.nanoTime();
        if (!admit(report.execId()))
        {
            return;
        }
        reportCount.lazySet(reportCount.get() + 1);

        final ExecType execType = ExecType.get(report.execTypeRaw());
        final int reason = report.reason();
        final long clientOrderId = report.clientOrderId();
        if (null == execType)
        {
            return;
        }
        switch (execType)
        {
            case NEW:
            case REPLACED:
                answered(report, nowNs);
                break;
            case PARTIALLY_FILLED:
                fills.lazySet(fills.get() + 1);
                break;
            case FILLED:
                fills.lazySet(fills.get() + 1);
                generator.onOrderDone(clientOrderId);
                break;
            case CANCELLED:
                if (RejectReason.NONE.code() == reason)
                {
                    answered(report, nowNs);
                }
                generator.onOrderDone(clientOrderId);
                break;
            case REJECTED:
            case CANCEL_REJECTED:
            case REPLACE_REJECTED:
                answered(report, nowNs);
                rejects.lazySet(rejects.get() + 1);
                if (reason >= 0 && reason < rejectsByReason.length())
                {
                    rejectsByReason.lazySet(reason, rejectsByReason.get(reason) + 1);
                }
                if (RejectReason.UNKNOWN_ORDER.code() != reason &&
                    RejectReason.POST_ONLY_WOULD_CROSS.code() != reason &&
                    RejectReason.QUANTITY_NOT_ABOVE_FILLED.code() != reason)
                {
                    unexpectedRejects.lazySet(unexpectedRejects.get() + 1);
                }
                if (ExecType.REJECTED == execType || RejectReason.UNKNOWN_ORDER.code() == reason)
                {
                    generator.onOrderDone(clientOrderId);
                }
                break;
            default:
                break;
        }
    }

    private void answered(final ExecutionReportDecoder report, final long nowNs)
    {
        acked.lazySet(acked.get() + 1);
        latency.recordValue(Math.max(0, Math.min(MAX_LATENCY_NS, nowNs - report.sendingTime())));
    }
}
