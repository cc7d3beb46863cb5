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
package io.warpbus.bench.rdma;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import io.warpbus.bench.BenchReport;
import io.warpbus.bench.ChildOutput;
import org.HdrHistogram.Histogram;

/**
 * {@code warpbus bench rdma [--quick]}: RDMA Write ping-pong latency (64 B, 1 KiB, 64 KiB) and one-way RDMA Write
 * streaming bandwidth (64 B to 1 MiB) between two processes, side by side with plain NIO TCP ping-pong and bulk
 * transfer over the same loopback, same socket options, one busy-spinning thread per process for both systems.
 * <p>
 * Each case runs several rounds; within a round the two systems alternate (which goes first alternates too, so
 * neither always gets the warmer machine), and each reported figure is the median of the rounds. Ping-pong
 * latency is recorded per round trip in an HdrHistogram after a warm-up; streaming bandwidth is bytes over the time
 * from the first send to the receiver's acknowledgement of the last byte.
 */
public final class RdmaBench
{
    private static final String SUITE = "rdma";
    private static final String IWARP = "warpbus-iwarp";
    private static final String TCP = "tcp-nio";
    /** The engine with direct placement off: every payload goes through the receive buffer (large cases only). */
    private static final String BUFFERED = "warpbus-buffered";
    /** Messages at least this long run on {@link #BUFFERED} too; smaller ones never qualify for direct placement. */
    private static final int BUFFERED_MIN_SIZE = 65536;

    private final boolean quick;
    private final java.util.regex.Pattern cases;
    private final BenchReport report = new BenchReport(SUITE, TCP);
    private DataOutputStream control;
    private DataInputStream controlIn;
    private IwarpEndpoint iwarp;
    private IwarpEndpoint buffered;
    private TcpEndpoint tcp;
    private long runId;

    private RdmaBench(final boolean quick, final java.util.regex.Pattern cases)
    {
        this.quick = quick;
        this.cases = cases;
    }

    /**
     * Run the suite.
     *
     * @param args {@code --quick} for a short run.
     * @throws Exception on failure.
     */
    public static void main(final String[] args) throws Exception
    {
        boolean quick = false;
        String cases = ".*";
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
            else
            {
                System.err.println("unknown option '" + args[i] + "': usage: warpbus bench rdma [--quick] " +
                    "[--case REGEX]");
                System.exit(2);
            }
        }
        new RdmaBench(quick, java.util.regex.Pattern.compile(cases)).run();
    }

    private void run() throws Exception
    {
        final long start = System.nanoTime();
        final Process responder = startResponder();
        try
        {
            final String ready = ChildOutput.follow(responder, "bench-rdma-responder-output", "READY ", System.out)
                .awaitMarker(ChildOutput.STARTUP_TIMEOUT_S);
            final String[] ports = ready.split(" ");
            final InetAddress host = InetAddress.getLoopbackAddress();
            try (Socket controlSocket = new Socket(host, Integer.parseInt(ports[1])))
            {
                control = new DataOutputStream(controlSocket.getOutputStream());
                controlIn = new DataInputStream(controlSocket.getInputStream());
                tcp = new TcpEndpoint(SocketChannel.open(new InetSocketAddress(host, Integer.parseInt(ports[2]))));
                iwarp = IwarpEndpoint.connect(new InetSocketAddress(host, Integer.parseInt(ports[3])), true);
                buffered = IwarpEndpoint.connect(new InetSocketAddress(host, Integer.parseInt(ports[4])), false);
                try
                {
                    runCases();
                }
                finally
                {
                    control.writeInt(RdmaResponder.QUIT);
                    control.flush();
                    iwarp.close();
                    buffered.close();
                    tcp.close();
                }
            }
            responder.waitFor(30, TimeUnit.SECONDS);
        }
        finally
        {
            responder.destroy();
        }

        System.out.println();
        System.out.println("rdma suite" + (quick ? " (--quick)" : "") + ": median of rounds; ratio = warpbus / tcp");
        System.out.println(BenchReport.conditions());
        System.out.println("message mix: one size per case; ping-pong = one message in flight; stream = one-way, " +
            "iWARP CRC32C on; one busy-spin thread per process; loopback");
        System.out.println();
        report.printTable(System.out);
        final Path json = BenchReport.output("rdma.json");
        report.writeJson(json);
        System.out.println();
        printTargets();
        System.out.printf(Locale.ROOT, "%nwrote %s in %.0f s%n", json.toAbsolutePath(),
            (System.nanoTime() - start) / 1e9);
    }

    private void runCases() throws IOException
    {
        final int rounds = quick ? 3 : 5;
        // 16 KiB: a message over the size at which a connection counts as streaming, and under the one the
        // assembler pipelines, so that a ping-pong held by transmit coalescing shows (docs/performance.md).
        final int[] pingSizes = { 64, 1024, 16384, 65536 };
        final String[] pingNames = { "pingpong-64B", "pingpong-1KiB", "pingpong-16KiB", "pingpong-64KiB" };
        for (int c = 0; c < pingSizes.length; c++)
        {
            if (!cases.matcher(pingNames[c]).matches())
            {
                continue;
            }
            final int size = pingSizes[c];
            final long count = (size >= 65536 ? 4_000 : 20_000) * (quick ? 1 : 3);
            // One unrecorded run per system first: on two cores a run that overlaps the JIT's compiling of the
            // ping-pong loop (the engine's duty cycle inlined into it takes C2 a few hundred milliseconds) shares
            // the cores three ways, and its round trips stall for a scheduler slice (docs/performance.md).
            for (final String system : order(0, size))
            {
                pingPong(null, system, size, count);
            }
            for (int round = 0; round < rounds; round++)
            {
                for (final String system : order(round, size))
                {
                    pingPong(pingNames[c], system, size, count);
                }
            }
        }
        final int[] streamSizes = { 64, 1024, 65536, 1 << 20 };
        final String[] streamNames = { "stream-64B", "stream-1KiB", "stream-64KiB", "stream-1MiB" };
        for (int c = 0; c < streamSizes.length; c++)
        {
            if (!cases.matcher(streamNames[c]).matches())
            {
                continue;
            }
            final int size = streamSizes[c];
            final long bytes = (quick ? 1024L : 3072L) << 20;
            final long count = Math.max(1, bytes / size / (size == 64 ? 16 : 1));
            for (final String system : order(0, size))
            {
                stream(null, system, size, count / 4);
            }
            for (int round = 0; round < rounds; round++)
            {
                for (final String system : order(round, size))
                {
                    stream(streamNames[c], system, size, count);
                }
            }
        }
    }

    private static List<String> order(final int round, final int size)
    {
        if (size < BUFFERED_MIN_SIZE)
        {
            return round % 2 == 0 ? List.of(IWARP, TCP) : List.of(TCP, IWARP);
        }
        return round % 2 == 0 ? List.of(IWARP, BUFFERED, TCP) : List.of(TCP, BUFFERED, IWARP);
    }

    private IwarpEndpoint endpoint(final String system)
    {
        return BUFFERED.equals(system) ? buffered : iwarp;
    }

    /**
     * One ping-pong run; a null case name makes it a warm-up whose figures are not recorded.
     */
    private void pingPong(final String caseName, final String system, final int size, final long count)
        throws IOException
    {
        final long warmUp = count / 4;
        command(RdmaResponder.PINGPONG, system, size, warmUp + count);
        final Histogram histogram = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
        final IwarpEndpoint endpoint = endpoint(system);
        final long base = runId << 32;
        for (long i = 1; i <= warmUp + count; i++)
        {
            final long sequence = base + i;
            final long t0 = System.nanoTime();
            if (!TCP.equals(system))
            {
                endpoint.writeSequenced(size, sequence);
                endpoint.awaitSequenced(size, sequence);
            }
            else
            {
                tcp.writeSequenced(size, sequence);
                if (tcp.readSequenced(size) != sequence)
                {
                    throw new IOException("TCP pong out of step");
                }
            }
            final long rtt = System.nanoTime() - t0;
            if (i > warmUp)
            {
                histogram.recordValue(Math.min(rtt, histogram.getHighestTrackableValue()));
            }
        }
        awaitDone();
        if (null == caseName)
        {
            return;
        }
        report.add(caseName, system, "rtt_p50_ns", histogram.getValueAtPercentile(50), "ns");
        report.add(caseName, system, "rtt_p99_ns", histogram.getValueAtPercentile(99), "ns");
        report.add(caseName, system, "rtt_p999_ns", histogram.getValueAtPercentile(99.9), "ns");
        report.add(caseName, system, "rtt_p9999_ns", histogram.getValueAtPercentile(99.99), "ns");
        report.add(caseName, system, "rtt_max_ns", histogram.getMaxValue(), "ns");
    }

    /**
     * One streaming run; a null case name makes it a warm-up whose figures are not recorded.
     */
    private void stream(final String caseName, final String system, final int size, final long count)
        throws IOException
    {
        command(RdmaResponder.STREAM, system, size, count);
        final long t0 = System.nanoTime();
        if (!TCP.equals(system))
        {
            final IwarpEndpoint endpoint = endpoint(system);
            // The receiver's footprint matches the TCP peer's 1 MiB read buffer (two slots for 1 MiB messages).
            final int slots = Math.max(2, (1 << 20) / size);
            for (long i = 0; i < count; i++)
            {
                endpoint.enqueue(size, 0, (int)(i % slots) * size);
            }
            endpoint.signal(IwarpEndpoint.DONE_OFFSET, runId);
            endpoint.awaitSlot(IwarpEndpoint.ACK_OFFSET, runId);
        }
        else
        {
            tcp.writeBulk(size * count);
            if (tcp.readSequenced(8) != runId)
            {
                throw new IOException("TCP stream acknowledgement out of step");
            }
        }
        final double seconds = (System.nanoTime() - t0) / 1e9;
        awaitDone();
        if (null == caseName)
        {
            return;
        }
        report.add(caseName, system, "throughput_MBps", size * count / seconds / 1e6, "MB/s");
        report.add(caseName, system, "msgs_per_s", count / seconds, "msg/s");
    }

    private void command(final int op, final String system, final int size, final long count) throws IOException
    {
        runId++;
        control.writeInt(op);
        control.writeInt(TCP.equals(system) ? RdmaResponder.TCP :
            BUFFERED.equals(system) ? RdmaResponder.IWARP_BUFFERED : RdmaResponder.IWARP);
        control.writeInt(size);
        control.writeLong(count);
        control.writeLong(runId);
        control.flush();
        controlIn.readInt();
    }

    private void awaitDone() throws IOException
    {
        controlIn.readInt();
    }

    private void printTargets()
    {
        for (final String c : new String[] { "pingpong-64B", "pingpong-1KiB", "pingpong-64KiB" })
        {
            for (final String metric : new String[] { "rtt_p50_ns", "rtt_p99_ns" })
            {
                final double ratio = report.median(c, IWARP, metric) / report.median(c, TCP, metric);
                System.out.printf(Locale.ROOT, "target %-15s %-11s <= 1.15x tcp: %.2fx %s%n", c, metric, ratio,
                    ratio <= 1.15 ? "met" : "MISSED");
            }
        }
        final double tail = report.median("pingpong-64B", IWARP, "rtt_p999_ns") /
            report.median("pingpong-64B", TCP, "rtt_p999_ns");
        System.out.printf(Locale.ROOT, "target %-15s %-11s <= 1.50x tcp: %.2fx %s%n", "pingpong-64B", "rtt_p999_ns",
            tail, tail <= 1.5 ? "met" : "MISSED");
        final double direct = report.median("pingpong-64KiB", IWARP, "rtt_p50_ns") /
            report.median("pingpong-64KiB", BUFFERED, "rtt_p50_ns");
        System.out.printf(Locale.ROOT, "direct placement (FPDUs up to the MSS) against %s (16 KiB FPDUs): " +
            "pingpong-64KiB rtt_p50_ns %.2fx%n", BUFFERED, direct);
        final double stream = report.median("stream-64KiB", IWARP, "throughput_MBps") /
            report.median("stream-64KiB", TCP, "throughput_MBps");
        System.out.printf(Locale.ROOT, "target %-15s %-11s >= 0.80x tcp: %.2fx %s%n", "stream-64KiB",
            "throughput", stream, stream >= 0.8 ? "met" : "MISSED");
    }

    private static Process startResponder() throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(RdmaResponder.class.getName());
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }
}
