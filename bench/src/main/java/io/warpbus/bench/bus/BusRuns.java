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
package io.warpbus.bench.bus;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import io.warpbus.bench.BenchReport;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The orchestrator's side of every command: it opens and closes a system's channels in both processes, and runs
 * one ping-pong or fan-out measurement at a time, recording into a {@link BenchReport}. During a measurement only
 * the measured system runs; while waiting for anything else, every system of the process runs a duty cycle.
 */
final class BusRuns
{
    /** Most messages offered between two duty cycles in a throughput run. */
    static final int BURST = 64;
    private static final long REPLY_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(120);
    private static final long CONNECT_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);
    /** Least share of a core each process's thread must have had for a run to count as steady. */
    static final double MIN_CPU_SHARE = 0.9;
    /** Messages offered, then polled from each subscription, per batch of {@link #localPoll}. */
    static final int POLL_BATCH = 256;
    /** Most times one disturbed run is repeated. */
    static final int MAX_REPEATS = 2;
    private static final boolean VERBOSE = Boolean.getBoolean("warpbus.bench.verbose");
    private static final long START_NS = System.nanoTime();

    private final Control control;
    private final BusEndpoint bus;
    private final AeronEndpoint aeron;
    private final PeerEndpoints peers;
    private final Runnable tick = this::tick;
    private final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(4096));
    private final int repeatBudget;
    private long runId;
    private long lastPong;
    private double orchestratorShare;
    private double responderShare;
    /** Last throughput run: the share of the publisher's duty cycles that followed a refused offer (held back). */
    private double refusedCyclesPct;
    /** Last throughput run: messages a subscriber's poll took, over the polls that found any. */
    private double messagesPerPoll;
    private int recorded;
    private int disturbed;
    private int repeats;
    private final java.util.Map<String, Integer> disturbedRuns = new java.util.TreeMap<>();
    private final Endpoint.MessageHandler pongHandler = (buffer, offset, length) -> lastPong = buffer.getLong(offset);
    private long polled;
    private long nextPolled;
    private long pollErrors;
    private final Endpoint.MessageHandler pollHandler = (buffer, offset, length) ->
    {
        if (buffer.getLong(offset) != nextPolled)
        {
            pollErrors++;
        }
        nextPolled++;
        polled++;
    };

    /**
     * The orchestrator's side.
     *
     * @param control      the connection to the responder.
     * @param bus          WarpBus.
     * @param aeron        Aeron.
     * @param peers        the systems without a bus.
     * @param repeatBudget how many disturbed runs may be repeated in all.
     */
    BusRuns(final Control control, final BusEndpoint bus, final AeronEndpoint aeron, final PeerEndpoints peers,
        final int repeatBudget)
    {
        this.peers = peers;
        this.repeatBudget = repeatBudget;
        this.control = control;
        this.bus = bus;
        this.aeron = aeron;
    }

    /**
     * Add a case's channels in both processes and wait until all are connected.
     *
     * @param system the system.
     * @param plan   who adds what.
     * @throws IOException on a control failure.
     */
    void open(final BusSystem system, final Channels.Plan plan) throws IOException
    {
        log("open " + system.label() + " " + plan);
        control.out.writeInt(Control.OPEN);
        control.out.writeInt(system.ordinal());
        control.writeChannels(plan.responderPublications());
        control.writeChannels(plan.responderSubscriptions());
        control.out.flush();
        final Endpoint endpoint = endpoint(system);
        for (final Channels.Channel channel : plan.orchestratorPublications())
        {
            endpoint.addPublication(channel.uri(), channel.streamId(), channel.subscribers());
        }
        for (final Channels.Channel channel : plan.orchestratorSubscriptions())
        {
            endpoint.addSubscription(channel.uri(), channel.streamId());
        }
        if (0 != control.awaitInt(tick, REPLY_TIMEOUT_NS))
        {
            throw new IllegalStateException(system.label() + ": the responder's channels did not connect " + plan);
        }
        awaitConnected(endpoint, system);
        log("opened " + system.label());
    }

    /**
     * Close a case's channels in both processes.
     *
     * @param system the system.
     * @throws IOException on a control failure.
     */
    void close(final BusSystem system) throws IOException
    {
        control.out.writeInt(Control.CLOSE);
        control.out.writeInt(system.ordinal());
        control.out.flush();
        log("close " + system.label());
        endpoint(system).closeChannels();
        control.awaitInt(tick, REPLY_TIMEOUT_NS);
        log("closed " + system.label());
    }

    /**
     * Ping-pong: {@code count / 4} warm-up round trips (or {@code maxRecordNs / 4}), then up to {@code count}
     * recorded ones (fewer when the run reaches {@code maxRecordNs}), one message in flight; a round trip is timed
     * from just before the offer to the poll that delivers the echo. A last ping with the {@link Control#STOP}
     * sequence ends the responder's echo. A disturbed run is repeated, see {@link #isSteady()}.
     *
     * @param report      where to record.
     * @param caseName    the case, or null for a warm-up run that records nothing.
     * @param system      the system.
     * @param size        message length.
     * @param count       round trips to record.
     * @param maxRecordNs most time to spend recording, so that a busy machine cannot stretch the suite.
     * @throws IOException on a control failure.
     */
    void pingPong(final BenchReport report, final String caseName, final BusSystem system, final int size,
        final long count, final long maxRecordNs) throws IOException
    {
        for (int attempt = 0; true; attempt++)
        {
            final Histogram histogram = pingPongOnce(system, size, count, maxRecordNs);
            if (null == caseName || !repeat(attempt, caseName, system))
            {
                if (null != caseName)
                {
                    final String label = system.label();
                    report.add(caseName, label, "rtt_p50_ns", histogram.getValueAtPercentile(50), "ns");
                    report.add(caseName, label, "rtt_p99_ns", histogram.getValueAtPercentile(99), "ns");
                    report.add(caseName, label, "rtt_p999_ns", histogram.getValueAtPercentile(99.9), "ns");
                    report.add(caseName, label, "rtt_p9999_ns", histogram.getValueAtPercentile(99.99), "ns");
                    report.add(caseName, label, "rtt_max_ns", histogram.getMaxValue(), "ns");
                }
                return;
            }
        }
    }

    /**
     * Throughput: {@code count} messages as fast as the publication takes them (up to {@link #BURST} offers, then
     * one duty cycle), timed from the first offer to the responder's report that every subscription has received
     * all of them. A disturbed run is repeated, see {@link #isSteady()}.
     *
     * @param report   where to record.
     * @param caseName the case, or null for a warm-up run that records nothing.
     * @param system   the system.
     * @param size     message length.
     * @param count    messages.
     * @throws IOException on a control failure.
     */
    void fanOut(final BenchReport report, final String caseName, final BusSystem system, final int size,
        final long count) throws IOException
    {
        for (int attempt = 0; true; attempt++)
        {
            final double messagesPerSecond = fanOutOnce(system, size, count);
            if (null == caseName || !repeat(attempt, caseName, system))
            {
                if (null != caseName)
                {
                    report.add(caseName, system.label(), "msgs_per_s", messagesPerSecond, "msg/s");
                    report.add(caseName, system.label(), "cycles_refused_pct", refusedCyclesPct, "%");
                    report.add(caseName, system.label(), "msgs_per_poll", messagesPerPoll, "msg");
                }
                return;
            }
        }
    }

    /**
     * The publisher's work per message and the subscriber's per fragment, measured on one thread: the orchestrator
     * offers a batch of {@value #POLL_BATCH} messages, runs a duty cycle, and polls a batch from each of its own
     * subscriptions; the offers with that duty cycle are timed apart from the polls. The other process and the
     * other core play no part, so these figures hold still where the two-process throughput swings with the
     * machine's scheduling.
     * <p>
     * With {@code behind} above 0, that many messages are offered first and left unpolled, so that every poll reads
     * the log that far behind its writer, as a subscriber that fell behind does: what the caches and the TLB hold
     * then differs from a subscriber reading what was just written. They are drained, untimed, at the end.
     *
     * @param report        where to record.
     * @param caseName      the case, or null for a warm-up run that records nothing.
     * @param system        the system (its channels opened with the subscriptions in this process).
     * @param size          message length.
     * @param subscriptions subscriptions to poll.
     * @param count         messages to poll from each subscription.
     * @param behind        messages between the writer and the subscribers' polls.
     */
    void localPoll(final BenchReport report, final String caseName, final BusSystem system, final int size,
        final int subscriptions, final long count, final long behind)
    {
        final Endpoint endpoint = endpoint(system);
        final long deadline = System.nanoTime() + REPLY_TIMEOUT_NS;
        long publishNs = 0;
        long pollNs = 0;
        long sequence = offerAndPublish(endpoint, system, size, 0, behind, deadline);
        long polledTo = 0;
        polled = 0;
        pollErrors = 0;
        while (polledTo < count)
        {
            final long batchEnd = Math.min(count, polledTo + POLL_BATCH) + behind;
            final long publishStart = System.nanoTime();
            sequence = offerAndPublish(endpoint, system, size, sequence, batchEnd, deadline);
            final long start = System.nanoTime();
            publishNs += start - publishStart;
            pollAll(endpoint, system, subscriptions, polledTo, sequence - behind, deadline);
            polledTo = sequence - behind;
            pollNs += System.nanoTime() - start;
        }
        final long polledInRun = polled;
        pollAll(endpoint, system, subscriptions, polledTo, sequence, deadline);
        if (0 != pollErrors || polledInRun != count * subscriptions || polled != (count + behind) * subscriptions)
        {
            throw new IllegalStateException(system.label() + ": local poll delivered " + polledInRun + " of " +
                count * subscriptions + " fragments, " + pollErrors + " out of sequence");
        }
        if (null != caseName)
        {
            report.add(caseName, system.label(), "poll_ns_per_fragment", (double)pollNs / polledInRun, "ns");
            report.add(caseName, system.label(), "publish_ns_per_message", (double)publishNs / count, "ns");
        }
    }

    /**
     * Offer the messages {@code [from, to)}, each carrying its sequence, then run the duty cycle that publishes them.
     */
    private long offerAndPublish(final Endpoint endpoint, final BusSystem system, final int size, final long from,
        final long to, final long deadline)
    {
        long sequence = from;
        while (sequence < to)
        {
            message.putLong(0, sequence);
            if (endpoint.offer(0, message, 0, size))
            {
                sequence++;
            }
            else
            {
                endpoint.doWork();
                checkDeadline(deadline, system);
            }
        }
        endpoint.doWork();
        return sequence;
    }

    /**
     * Poll the messages {@code [from, to)} from each subscription in turn, checking their sequence.
     */
    private void pollAll(final Endpoint endpoint, final BusSystem system, final int subscriptions, final long from,
        final long to, final long deadline)
    {
        for (int i = 0; i < subscriptions; i++)
        {
            nextPolled = from;
            while (nextPolled < to)
            {
                if (0 == endpoint.poll(i, pollHandler, (int)(to - nextPolled)))
                {
                    endpoint.doWork();
                    checkDeadline(deadline, system);
                }
            }
        }
    }

    private static void checkDeadline(final long deadline, final BusSystem system)
    {
        if (System.nanoTime() - deadline > 0)
        {
            throw new IllegalStateException(system.label() + ": local poll timed out");
        }
    }

    /**
     * Runs recorded, and how many of them were disturbed, as {@code {recorded, disturbed, repeats}}.
     *
     * @return the counts.
     */
    int[] disturbance()
    {
        return new int[] { recorded, disturbed, repeats };
    }

    /**
     * The recorded runs that were disturbed, by case and system.
     *
     * @return e.g. {@code pingpong-64B aeron-udp=2}, or empty.
     */
    java.util.Map<String, Integer> disturbedRuns()
    {
        return disturbedRuns;
    }

    /**
     * Was the last run steady: did both processes' threads have at least {@link #MIN_CPU_SHARE} of a core
     * throughout? On a shared machine a busy-spinning thread that is descheduled turns a microsecond round trip
     * into milliseconds, for whichever system happens to be running, and the median of a few rounds cannot undo that.
     *
     * @return true when neither process lost its core.
     */
    boolean isSteady()
    {
        return Math.min(orchestratorShare, responderShare) >= MIN_CPU_SHARE;
    }

    private boolean repeat(final int attempt, final String caseName, final BusSystem system)
    {
        final boolean steady = isSteady();
        log(String.format(java.util.Locale.ROOT, "cpu share: orchestrator %.2f, responder %.2f%s",
            orchestratorShare, responderShare, steady ? "" : " (disturbed)"));
        if (!steady && attempt < MAX_REPEATS && repeats < repeatBudget)
        {
            repeats++;
            return true;
        }
        recorded++;
        if (!steady)
        {
            disturbed++;
            disturbedRuns.merge(caseName + " " + system.label(), 1, Integer::sum);
        }
        return false;
    }

    private Histogram pingPongOnce(final BusSystem system, final int size, final long count, final long maxRecordNs)
        throws IOException
    {
        final Endpoint endpoint = endpoint(system);
        final long warmUp = count / 4;
        command(Control.PINGPONG, system, size, warmUp + count);
        awaitConnected(endpoint, system);
        final Histogram histogram = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
        final long base = runId << 32;
        message.setMemory(0, size, (byte)0);
        long sequence = 0;
        final long warmUntil = System.nanoTime() + maxRecordNs / 4;
        while (sequence < warmUp && System.nanoTime() - warmUntil < 0)
        {
            roundTrip(endpoint, system, base + ++sequence, size);
        }
        final long cpu0 = Control.threadCpuNs();
        final long recordFrom = System.nanoTime();
        final long recordUntil = recordFrom + maxRecordNs;
        for (long i = 0; i < count && System.nanoTime() - recordUntil < 0; i++)
        {
            final long rtt = roundTrip(endpoint, system, base + ++sequence, size);
            histogram.recordValue(Math.min(rtt, histogram.getHighestTrackableValue()));
        }
        orchestratorShare = (double)(Control.threadCpuNs() - cpu0) / (System.nanoTime() - recordFrom);
        roundTrip(endpoint, system, base + Control.STOP, size);
        awaitResult(endpoint, system);
        log(system.label() + ": " + histogram.getTotalCount() + " round trips recorded");
        return histogram;
    }

    private long roundTrip(final Endpoint endpoint, final BusSystem system, final long sequence, final int size)
    {
        message.putLong(0, sequence);
        final long t0 = System.nanoTime();
        while (!endpoint.offer(0, message, 0, size))
        {
            endpoint.doWork();
        }
        long spins = 0;
        do
        {
            endpoint.doWork();
            endpoint.poll(0, pongHandler, 1);
            if ((++spins & 0xFFFFF) == 0)
            {
                control.checkPeer();
                if (System.nanoTime() - t0 > REPLY_TIMEOUT_NS)
                {
                    throw new IllegalStateException(system.label() + ": no pong for ping " +
                        (sequence & Control.STOP));
                }
            }
        }
        while (lastPong != sequence);
        return System.nanoTime() - t0;
    }

    private double fanOutOnce(final BusSystem system, final int size, final long count) throws IOException
    {
        final Endpoint endpoint = endpoint(system);
        command(Control.SINK, system, size, count);
        awaitConnected(endpoint, system);
        final long base = runId << 32;
        final long deadline = System.nanoTime() + REPLY_TIMEOUT_NS;
        message.setMemory(0, size, (byte)0);
        final long cpu0 = Control.threadCpuNs();
        final long t0 = System.nanoTime();
        long sent = 0;
        long cycles = 0;
        long refusedCycles = 0;
        while (sent < count)
        {
            for (int burst = 0; burst < BURST && sent < count; burst++)
            {
                message.putLong(0, base + sent);
                if (!endpoint.offer(0, message, 0, size))
                {
                    refusedCycles++;
                    break;
                }
                sent++;
            }
            endpoint.doWork();
            if ((++cycles & 0xFFFF) == 0)
            {
                control.checkPeer();
                if (System.nanoTime() - deadline > 0)
                {
                    throw new IllegalStateException(system.label() + ": offered only " + sent + " of " + count);
                }
            }
        }
        awaitResult(endpoint, system);
        final long elapsed = System.nanoTime() - t0;
        orchestratorShare = (double)(Control.threadCpuNs() - cpu0) / elapsed;
        final long pollsWithMessages = control.in.readLong();
        final long delivered = control.in.readLong();
        refusedCyclesPct = 100.0 * refusedCycles / Math.max(1, cycles);
        messagesPerPoll = (double)delivered / Math.max(1, pollsWithMessages);
        return count * 1e9 / elapsed;
    }

    /**
     * The responder's report at the end of a run: the messages it saw out of sequence (must be none), then the
     * share of a core its thread had, in thousandths.
     */
    private void awaitResult(final Endpoint endpoint, final BusSystem system) throws IOException
    {
        final int errors = control.awaitInt(endpoint::doWork, REPLY_TIMEOUT_NS);
        responderShare = control.in.readInt() / 1000.0;
        if (0 != errors)
        {
            throw new IllegalStateException(system.label() + ": the responder saw " + errors +
                " messages out of sequence");
        }
    }

    /**
     * Tell the responder to exit.
     *
     * @throws IOException on a control failure.
     */
    void quit() throws IOException
    {
        control.out.writeInt(Control.QUIT);
        control.out.flush();
    }

    private void command(final int op, final BusSystem system, final int size, final long count) throws IOException
    {
        log((Control.SINK == op ? "fan-out " : "ping-pong ") + system.label() + " " + size + " B x " + count);
        runId++;
        control.out.writeInt(op);
        control.out.writeInt(system.ordinal());
        control.out.writeInt(size);
        control.out.writeLong(count);
        control.out.writeLong(runId);
        control.out.flush();
        control.awaitInt(tick, REPLY_TIMEOUT_NS);
    }

    private void awaitConnected(final Endpoint endpoint, final BusSystem system)
    {
        final long deadline = System.nanoTime() + CONNECT_TIMEOUT_NS;
        while (!endpoint.isConnected())
        {
            tick();
            if (System.nanoTime() - deadline > 0)
            {
                throw new IllegalStateException(system.label() + ": channels did not connect within " +
                    TimeUnit.NANOSECONDS.toSeconds(CONNECT_TIMEOUT_NS) + " s");
            }
        }
    }

    static void log(final String message)
    {
        if (VERBOSE)
        {
            System.err.printf(java.util.Locale.ROOT, "%9.3f s  %s%n", (System.nanoTime() - START_NS) / 1e9, message);
        }
    }

    private Endpoint endpoint(final BusSystem system)
    {
        switch (system)
        {
            case WARPBUS_IWARP:
            case WARPBUS_IPC:
                return bus;
            case AERON_UDP:
            case AERON_IPC:
                return aeron;
            default:
                return peers.of(system);
        }
    }

    private void tick()
    {
        bus.doWork();
        aeron.doWork();
        peers.doWork();
    }
}
