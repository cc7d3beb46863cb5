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
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.aeron.Aeron;
import io.warpbus.bench.BenchReport;
import io.warpbus.bench.ChildOutput;

/**
 * {@code warpbus bench bus [--quick] [--case REGEX] [--system REGEX]}: the bus side by side with Aeron
 * {@value #AERON} in one run, between two processes on loopback, each with exactly one busy-spinning thread that
 * drives everything.
 * <ul>
 *     <li>ping-pong round trip of 32 B and 64 B messages, one in flight, the pong echoed on a second channel:
 *     {@code warpbus-iwarp} against {@code aeron-udp} and against {@code warpbus-rdma}, the bus's own engine with
 *     nothing on top (one RDMA Write per message into the peer's slot, see {@link RdmaEndpoint}), ping and pong on
 *     a connection each as the bus has them, beside {@code warpbus-rdma-duplex}, the pong back over the ping's
 *     connection, and {@code tcp-nio} and {@code tcp-nio-duplex}, plain TCP the same two ways (see
 *     {@link TcpEndpoint}), the kernel path under every iWARP system, and
 *     {@code warpbus-ipc} against {@code aeron-ipc};</li>
 *     <li>throughput of 64 B messages from one publisher to one subscriber and to four (all four in the
 *     responder, polled by its one thread), until every subscriber has received every message;</li>
 *     <li>IPC only, the publisher's cost per message and the poll's per fragment on one thread: the orchestrator
 *     publishes batches of 64 B messages and polls them from four subscriptions of its own, timing the two apart
 *     (see {@link BusRuns#localPoll}).</li>
 * </ul>
 * WarpBus: a {@code Bus} in INVOKER mode per process, {@code bus.doWork()} from the benchmark thread, with the bus's
 * defaults (see {@link BusEndpoint}); both processes share one bus directory so that IPC meets. Aeron: an embedded
 * media driver in INVOKER mode per process with Aeron's low-latency and throughput settings, the driver and the
 * client conductor invoked from the benchmark thread (see {@link AeronEndpoint}); four UDP subscribers use
 * multi-destination-cast with dynamic control and min flow control (see {@link Channels}); {@code aeron:ipc} goes
 * through the orchestrator's driver, as it needs one driver. Aeron's stock {@code EmbeddedPingPong} is not used: it
 * runs a dedicated-thread driver, five busy threads on this two-core machine.
 * <p>
 * Each case runs several rounds (3 with {@code --quick}, 5 otherwise); within a round the systems of a pair
 * alternate, and which goes first rotates. Each figure is the median of the rounds. Latency ratios below 1
 * and throughput ratios above 1 favour WarpBus. Per run:
 * <ul>
 *     <li>both processes first run the measured system alone for {@value Control#SETTLE_NS} ns, since it sat idle
 *     through the other system's run (liveness timeouts are 60 s on both sides for the same reason);</li>
 *     <li>ping-pong: 20,000 (60,000) recorded round trips after a quarter as many warm-up ones, capped at 2 s (5 s)
 *     of recording so that a busy machine cannot stretch the suite; throughput: 1,000,000 (3,000,000) messages,
 *     up to {@value BusRuns#BURST} offers per duty cycle, timed to the responder's acknowledgement that every
 *     subscription has them all, in sequence; one discarded warm-up run per system opens each case;</li>
 *     <li>each process measures the share of a core its thread had; a run in which either had less than 90% is
 *     repeated (at most twice, within a budget), and the summary names the recorded runs still disturbed.</li>
 * </ul>
 */
public final class BusBench
{
    static final String AERON = "1.51";
    private static final String SUITE = "bus";
    private static final int[] PING_SIZES = { 32, 64 };
    private static final int[] FAN_OUTS = { 1, 4 };
    private static final int THROUGHPUT_SIZE = 64;
    private static final int POLL_SUBSCRIBERS = 4;
    private static final String POLL_CASE = "poll-" + THROUGHPUT_SIZE + "B-" + POLL_SUBSCRIBERS + "sub";
    /**
     * The poll case with every poll 24 MiB behind the writer, as a subscriber that fell behind reads (both systems
     * at Aeron IPC's default window, which holds that). Frames of 64 bytes take 96 in either log.
     */
    private static final String BEHIND_CASE = POLL_CASE + "-behind24m";
    private static final long BEHIND_MESSAGES = 24L * 1024 * 1024 / 96;
    /** Four IPC subscribers with the bus's flow-control window equal to Aeron IPC's default one. */
    private static final String WINDOW_CASE = "throughput-" + THROUGHPUT_SIZE + "B-" + POLL_SUBSCRIBERS + "sub-window" +
        Channels.RING_OF_AERON_IPC;
    /** The systems compared side by side; the {@code warpbus-rdma} ones have ping-pong only ({@link RdmaEndpoint}). */
    private static final BusSystem[][] PAIRS = {
        { BusSystem.WARPBUS_IWARP, BusSystem.AERON_UDP, BusSystem.WARPBUS_RDMA, BusSystem.WARPBUS_RDMA_DUPLEX,
            BusSystem.TCP_NIO, BusSystem.TCP_NIO_DUPLEX },
        { BusSystem.WARPBUS_IPC, BusSystem.AERON_IPC } };

    private final boolean quick;
    private final Pattern cases;
    private final Pattern systems;
    private final BenchReport network = new BenchReport(SUITE, BusSystem.AERON_UDP.label());
    private final BenchReport ipc = new BenchReport(SUITE, BusSystem.AERON_IPC.label());
    private final int rounds;
    private final long pings;
    private final long messages;
    private final long maxRunNs;
    private final int repeatBudget;
    private int streamBase = 1000;
    private String loadAtStart;
    private int[] disturbance = { 0, 0, 0 };
    private String disturbedRuns = "{}";

    private BusBench(final boolean quick, final Pattern cases, final Pattern systems)
    {
        this.quick = quick;
        this.cases = cases;
        this.systems = systems;
        this.rounds = quick ? 3 : 5;
        this.pings = Integer.getInteger("warpbus.bench.pings", quick ? 20_000 : 60_000);
        this.messages = Integer.getInteger("warpbus.bench.messages", quick ? 1_000_000 : 3_000_000);
        this.maxRunNs = TimeUnit.SECONDS.toNanos(Integer.getInteger("warpbus.bench.run.seconds", quick ? 2 : 5));
        this.repeatBudget = quick ? 12 : 40;
    }

    /**
     * Run the suite.
     *
     * @param args {@code --quick} for a short run, {@code --case REGEX} and {@code --system REGEX} to run some
     *             cases or systems only.
     * @throws Exception on failure.
     */
    public static void main(final String[] args) throws Exception
    {
        boolean quick = false;
        String cases = ".*";
        String systems = ".*";
        for (int i = 0; i < args.length; i++)
        {
            if ("--quick".equals(args[i]))
            {
                quick = true;
            }
            else if ("--case".equals(args[i]) && i + 1 < args.length)
            {
                cases = args[++i];
            }
            else if ("--system".equals(args[i]) && i + 1 < args.length)
            {
                systems = args[++i];
            }
            else
            {
                System.err.println("unknown option '" + args[i] + "': usage: warpbus bench bus [--quick] " +
                    "[--case REGEX] [--system REGEX]");
                System.exit(2);
            }
        }
        new BusBench(quick, Pattern.compile(cases), Pattern.compile(systems)).run();
    }

    private void run() throws Exception
    {
        final long start = System.nanoTime();
        loadAtStart = loadAverage();
        BenchDirectories.sweepStale();
        final Path busDirectory = BenchDirectories.of("bus");
        final String aeronDirectory = BenchDirectories.of("aeron-orchestrator").toString();
        final Process responder = startResponder(busDirectory, aeronDirectory);
        try
        {
            final int port = awaitReady(responder);
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
                BusEndpoint bus = new BusEndpoint(busDirectory, "bench-orchestrator-" + ProcessHandle.current().pid());
                AeronEndpoint aeron = AeronEndpoint.embedded(aeronDirectory);
                PeerEndpoints peers = new PeerEndpoints())
            {
                final BusRuns runs = new BusRuns(new Control(socket, responder.toHandle()), bus, aeron, peers,
                    repeatBudget);
                try
                {
                    runCases(runs);
                }
                finally
                {
                    runs.quit();
                }
                disturbance = runs.disturbance();
                disturbedRuns = runs.disturbedRuns().toString();
            }
            responder.waitFor(30, TimeUnit.SECONDS);
        }
        finally
        {
            responder.destroy();
            BenchDirectories.deleteTree(busDirectory);
        }
        printResults(start);
    }

    private void runCases(final BusRuns runs) throws IOException
    {
        for (final BusSystem[] pair : activePairs())
        {
            final BenchReport report = report(pair);
            if (!anyCase("pingpong-", PING_SIZES, "B"))
            {
                continue;
            }
            streamBase += 10;
            open(runs, pair, (system) -> Channels.pingPong(system, streamBase));
            for (final BusSystem system : pair)
            {
                runs.pingPong(report, null, system, PING_SIZES[0], pings / 4, maxRunNs);
            }
            for (final int size : PING_SIZES)
            {
                final String caseName = "pingpong-" + size + "B";
                if (cases.matcher(caseName).matches())
                {
                    for (int round = 0; round < rounds; round++)
                    {
                        for (final BusSystem system : order(pair, round))
                        {
                            runs.pingPong(report, caseName, system, size, pings, maxRunNs);
                        }
                    }
                }
            }
            close(runs, pair);
        }
        for (final BusSystem[] systemsOfPair : activePairs())
        {
            final BenchReport report = report(systemsOfPair);
            final BusSystem[] pair = Stream.of(systemsOfPair)
                .filter((s) -> !s.isPeer())
                .toArray(BusSystem[]::new);
            for (int i = 0; i < FAN_OUTS.length && pair.length > 0; i++)
            {
                final int subscribers = FAN_OUTS[i];
                fanOutCase(runs, report, pair, "throughput-" + THROUGHPUT_SIZE + "B-" + subscribers + "sub",
                    (system) -> Channels.fanOut(system, subscribers, streamBase));
            }
            if (Stream.of(pair).anyMatch((s) -> BusSystem.WARPBUS_IPC == s || BusSystem.AERON_IPC == s))
            {
                fanOutCase(runs, report, pair, WINDOW_CASE,
                    (system) -> Channels.fanOutAtAeronsWindow(system, POLL_SUBSCRIBERS, streamBase));
            }
        }
        for (final BusSystem[] systemsOfPair : activePairs())
        {
            final BusSystem[] pair = Stream.of(systemsOfPair)
                .filter((s) -> BusSystem.WARPBUS_IPC == s || BusSystem.AERON_IPC == s)
                .toArray(BusSystem[]::new);
            if (0 == pair.length)
            {
                continue;
            }
            localPollCase(runs, pair, POLL_CASE, (system) -> Channels.local(system, POLL_SUBSCRIBERS, streamBase), 0);
            localPollCase(runs, pair, BEHIND_CASE,
                (system) -> Channels.localAtAeronsWindow(system, POLL_SUBSCRIBERS, streamBase), BEHIND_MESSAGES);
        }
    }

    private void localPollCase(final BusRuns runs, final BusSystem[] pair, final String caseName,
        final java.util.function.Function<BusSystem, Channels.Plan> plans, final long behind) throws IOException
    {
        if (!cases.matcher(caseName).matches())
        {
            return;
        }
        streamBase += 10;
        open(runs, pair, plans);
        for (final BusSystem system : pair)
        {
            runs.localPoll(ipc, null, system, THROUGHPUT_SIZE, POLL_SUBSCRIBERS, messages / 4, behind);
        }
        for (int round = 0; round < rounds; round++)
        {
            for (final BusSystem system : order(pair, round))
            {
                runs.localPoll(ipc, caseName, system, THROUGHPUT_SIZE, POLL_SUBSCRIBERS, messages, behind);
            }
        }
        close(runs, pair);
    }

    private void fanOutCase(final BusRuns runs, final BenchReport report, final BusSystem[] pair,
        final String caseName, final java.util.function.Function<BusSystem, Channels.Plan> plans) throws IOException
    {
        if (!cases.matcher(caseName).matches())
        {
            return;
        }
        streamBase += 10;
        open(runs, pair, plans);
        for (final BusSystem system : pair)
        {
            runs.fanOut(report, null, system, THROUGHPUT_SIZE, messages / 4);
        }
        for (int round = 0; round < rounds; round++)
        {
            for (final BusSystem system : order(pair, round))
            {
                runs.fanOut(report, caseName, system, THROUGHPUT_SIZE, messages);
            }
        }
        close(runs, pair);
    }

    private static void open(final BusRuns runs, final BusSystem[] pair,
        final java.util.function.Function<BusSystem, Channels.Plan> plans) throws IOException
    {
        for (final BusSystem system : pair)
        {
            runs.open(system, plans.apply(system));
        }
    }

    private static void close(final BusRuns runs, final BusSystem[] pair) throws IOException
    {
        for (final BusSystem system : pair)
        {
            runs.close(system);
        }
    }

    private boolean anyCase(final String prefix, final int[] values, final String suffix)
    {
        for (final int value : values)
        {
            if (cases.matcher(prefix + value + suffix).matches())
            {
                return true;
            }
        }
        return false;
    }

    /**
     * The pairs, without the systems {@code --system} leaves out (a pair may be down to one system, or none).
     */
    private List<BusSystem[]> activePairs()
    {
        final List<BusSystem[]> pairs = new ArrayList<>();
        for (final BusSystem[] pair : PAIRS)
        {
            final BusSystem[] active = Stream.of(pair).filter((s) -> systems.matcher(s.label()).matches())
                .toArray(BusSystem[]::new);
            if (active.length > 0)
            {
                pairs.add(active);
            }
        }
        return pairs;
    }

    private BenchReport report(final BusSystem[] pair)
    {
        return BusSystem.WARPBUS_IPC == pair[0] || BusSystem.AERON_IPC == pair[0] ? ipc : network;
    }

    private static List<BusSystem> order(final BusSystem[] pair, final int round)
    {
        final List<BusSystem> order = new ArrayList<>(List.of(pair));
        java.util.Collections.rotate(order, round);
        return order;
    }

    private void printResults(final long start) throws IOException
    {
        System.out.println();
        System.out.println("bus suite" + (quick ? " (--quick)" : "") + ": median of " + rounds + " rounds; " +
            "ratio = warpbus / aeron (latency: lower is better; throughput: higher is better)");
        System.out.println(BenchReport.conditions());
        System.out.println("load average (1/5/15 min, runnable/total): at start " + loadAtStart + ", at end " +
            loadAverage() + " (this suite itself keeps 2 threads busy)");
        System.out.println("processes: orchestrator (publisher, pinger) + responder (subscribers, ponger), one " +
            "busy-spin thread each driving everything, loopback");
        System.out.println("warpbus: Bus in INVOKER mode, bus.doWork() from the benchmark thread; defaults: term " +
            "1 MiB, window 16 MiB, ring 4 MiB, block policy, MPA CRC32C on; ipc through a shared bus directory; " +
            "timestamp=cycle (one clock read per duty cycle for the frames' timestamps; Aeron writes none)");
        System.out.println("warpbus-rdma: the engine alone (INVOKER mode, MPA CRC32C on), one unsignaled RDMA " +
            "Write of payload + 8 B trailer per message into the peer's slot, polled on the trailer; ping-pong only; " +
            "ping and pong on a connection each, as the bus has one per subscription; warpbus-rdma-duplex: the same, " +
            "the pong back over the ping's connection (TCP then acknowledges each message with the answer's segment)");
        System.out.println("tcp-nio: plain TCP, no engine: non-blocking NIO sockets busy-polled, TCP_NODELAY, " +
            "4 MiB socket buffers, a 4 B length + payload per message in one write; ping-pong only; ping and pong " +
            "on a connection each; tcp-nio-duplex: the pong back over the ping's connection");
        System.out.println("aeron " + aeronVersion() + ": embedded MediaDriver per process in INVOKER mode " +
            "(sharedAgentInvoker + client conductor invoker, NoOpLock, async executor off), term sparse=false, " +
            "so_sndbuf/so_rcvbuf 2 MiB, rcv window 2 MiB, mtu 8 KiB, pre-touch; udp: aeron:udp?endpoint=" +
            "127.0.0.1:PORT, 4 subscribers: MDC control-mode=dynamic|fc=min, one endpoint each; ipc: aeron:ipc " +
            "through the orchestrator's driver");
        System.out.printf(Locale.ROOT, "ping-pong: %,d round trips per run (or %d s) after %,d warm-up, one in " +
            "flight, pong on a second channel; throughput: %,d messages of %d B per run, up to %d offers per duty " +
            "cycle, timed to the last subscriber's ack; each run after %d ms of settling%n", pings,
            TimeUnit.NANOSECONDS.toSeconds(maxRunNs), pings / 4, messages, THROUGHPUT_SIZE, BusRuns.BURST,
            TimeUnit.NANOSECONDS.toMillis(Control.SETTLE_NS));
        System.out.printf(Locale.ROOT, "%s: as throughput-%dB-%dsub, but the bus's subscriptions take a %s ring " +
            "(its publication the log that needs), so that the bus's flow-control window is Aeron IPC's default " +
            "(half its 64 MiB term); Aeron keeps its defaults%n", WINDOW_CASE, THROUGHPUT_SIZE, POLL_SUBSCRIBERS,
            Channels.RING_OF_AERON_IPC);
        System.out.printf(Locale.ROOT, "poll: one thread of the orchestrator offers %d messages of %d B, runs a " +
            "duty cycle and polls them from each of its %d subscriptions, %,d messages per run; the offers with that " +
            "duty cycle, and the polls, are timed apart%n", BusRuns.POLL_BATCH, THROUGHPUT_SIZE, POLL_SUBSCRIBERS,
            messages);
        System.out.printf(Locale.ROOT, "steadiness: a run in which either process's thread had less than %.0f%% " +
            "of a core is repeated (at most %d times, %d repeats in all): %d repeated; %d of %d recorded runs were " +
            "still disturbed %s%n", BusRuns.MIN_CPU_SHARE * 100, BusRuns.MAX_REPEATS, repeatBudget, disturbance[2],
            disturbance[1], disturbance[0], disturbance[1] > 0 ? disturbedRuns : "");
        System.out.println();
        network.printTable(System.out);
        System.out.println();
        ipc.printTable(System.out);
        final Path json = BenchReport.output("bus.json");
        BenchReport.writeJson(json, network, ipc);
        System.out.println();
        printTargets();
        System.out.printf(Locale.ROOT, "%nwrote %s in %.0f s%n", json.toAbsolutePath(),
            (System.nanoTime() - start) / 1e9);
    }

    private void printTargets()
    {
        for (final int size : PING_SIZES)
        {
            for (final String metric : new String[] { "rtt_p50_ns", "rtt_p99_ns" })
            {
                target(network, "pingpong-" + size + "B", metric, BusSystem.WARPBUS_IWARP, BusSystem.AERON_UDP,
                    "<=", 1.0);
            }
        }
        for (final int size : PING_SIZES)
        {
            for (final String metric : new String[] { "rtt_p50_ns", "rtt_p99_ns" })
            {
                target(network, "pingpong-" + size + "B", metric, BusSystem.WARPBUS_IWARP, BusSystem.WARPBUS_RDMA,
                    "<=", 1.10);
            }
        }
        for (final int size : PING_SIZES)
        {
            for (final String metric : new String[] { "rtt_p50_ns", "rtt_p99_ns" })
            {
                // No target: TCP itself against UDP, the floor under any bus that runs over TCP.
                ratio(network, "pingpong-" + size + "B", metric, BusSystem.TCP_NIO_DUPLEX, BusSystem.AERON_UDP);
                ratio(network, "pingpong-" + size + "B", metric, BusSystem.TCP_NIO, BusSystem.AERON_UDP);
            }
        }
        for (final int subscribers : FAN_OUTS)
        {
            target(network, "throughput-" + THROUGHPUT_SIZE + "B-" + subscribers + "sub", "msgs_per_s",
                BusSystem.WARPBUS_IWARP, BusSystem.AERON_UDP, ">=", 1.0);
        }
        for (final int size : PING_SIZES)
        {
            for (final String metric : new String[] { "rtt_p50_ns", "rtt_p99_ns" })
            {
                target(ipc, "pingpong-" + size + "B", metric, BusSystem.WARPBUS_IPC, BusSystem.AERON_IPC, "<=", 1.2);
            }
        }
        for (final int subscribers : FAN_OUTS)
        {
            target(ipc, "throughput-" + THROUGHPUT_SIZE + "B-" + subscribers + "sub", "msgs_per_s",
                BusSystem.WARPBUS_IPC, BusSystem.AERON_IPC, ">=", 1 == subscribers ? 1.0 : 0.9);
        }
        target(ipc, WINDOW_CASE, "msgs_per_s", BusSystem.WARPBUS_IPC, BusSystem.AERON_IPC, ">=", 0.9);
        // No target: the subscriber's own work per fragment, which bounds the four-subscriber throughput.
        ratio(ipc, POLL_CASE, "poll_ns_per_fragment", BusSystem.WARPBUS_IPC, BusSystem.AERON_IPC);
        // No target: the publisher's work per message, offer and the duty cycle that publishes, which bounds it too.
        ratio(ipc, POLL_CASE, "publish_ns_per_message", BusSystem.WARPBUS_IPC, BusSystem.AERON_IPC);
        // No target: the subscriber's work per fragment when it reads far behind the writer.
        ratio(ipc, BEHIND_CASE, "poll_ns_per_fragment", BusSystem.WARPBUS_IPC, BusSystem.AERON_IPC);
    }

    private static void ratio(final BenchReport report, final String caseName, final String metric,
        final BusSystem system, final BusSystem peer)
    {
        final double ratio = report.median(caseName, system.label(), metric) /
            report.median(caseName, peer.label(), metric);
        System.out.printf(Locale.ROOT, "ratio  %-20s %-11s %s / %s: %s%n", caseName, metric, system.label(),
            peer.label(), Double.isNaN(ratio) ? "not run" : String.format(Locale.ROOT, "%.2fx", ratio));
    }

    private static void target(final BenchReport report, final String caseName, final String metric,
        final BusSystem system, final BusSystem peer, final String relation, final double limit)
    {
        final double ratio = report.median(caseName, system.label(), metric) /
            report.median(caseName, peer.label(), metric);
        final String verdict = Double.isNaN(ratio) ? "not run" :
            ("<=".equals(relation) ? ratio <= limit : ratio >= limit) ? "met" : "MISSED";
        System.out.printf(Locale.ROOT, "target %-20s %-11s %s %s %.2fx %s: %.2fx %s%n", caseName, metric,
            system.label(), relation, limit, peer.label(), ratio, verdict);
    }

    /**
     * The machine is shared: what else ran shows in the load average, so the run says what it was.
     */
    private static String loadAverage()
    {
        try
        {
            final String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return fields[0] + " " + fields[1] + " " + fields[2] + " " + fields[3];
        }
        catch (final IOException | RuntimeException ex)
        {
            return "unknown";
        }
    }

    private static String aeronVersion()
    {
        final String version = Aeron.class.getPackage().getImplementationVersion();
        return null == version ? AERON : version;
    }

    private static int awaitReady(final Process responder) throws InterruptedException
    {
        final String ready = ChildOutput.follow(responder, "bench-bus-responder-output", "READY ", System.out)
            .awaitMarker(ChildOutput.STARTUP_TIMEOUT_S);
        return Integer.parseInt(ready.substring("READY ".length()).trim());
    }

    private static Process startResponder(final Path busDirectory, final String aeronDirectory) throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(BusResponder.class.getName());
        command.add(busDirectory.toString());
        command.add(aeronDirectory);
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }
}
