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
package io.warpbus.bench.journal;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.warpbus.bench.BenchReport;
import io.warpbus.bus.Bus;
import io.warpbus.bus.BusContext;
import io.warpbus.bus.ChannelUri;
import io.warpbus.bus.ExclusivePublication;
import io.warpbus.bus.FragmentHandler;
import io.warpbus.bus.Subscription;
import io.warpbus.iwarp.ThreadingMode;
import io.warpbus.journal.Journal;
import io.warpbus.journal.JournalContext;
import io.warpbus.journal.JournalHandler;
import io.warpbus.journal.JournalReader;
import io.warpbus.journal.JournalRecorder;
import io.warpbus.journal.JournalWriter;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * {@code warpbus bench journal [--quick]}, all on one busy thread:
 * <ul>
 *     <li>{@code publish-64B} (over iWARP on loopback, the bus's transport) and {@code publish-ipc-64B} (over a
 *     shared-memory IPC channel, where the journal's cost shows most): one-way latency from {@code offer} of a
 *     64-byte message to its delivery by {@code poll}, one message in flight, on an INVOKER-mode bus driven by
 *     the same thread:
 *     {@code warpbus-journal} with a {@link JournalRecorder} on the bus, {@code warpbus-nojournal} on an identical
 *     bus without, and {@code chronicle-raw}: a raw Chronicle append of 64 bytes then a tailer reading it, the
 *     floor of what journaling one message costs;</li>
 *     <li>{@code replay-64B}: messages per second reading a recorded stream of 64-byte records from the start,
 *     {@code warpbus-journal} with {@link JournalReader#poll} and {@code chronicle-raw} with a raw tailer loop over
 *     the same queue.</li>
 * </ul>
 * Each case runs several rounds, alternating which system goes first; each figure is the median of the rounds.
 * Latency is recorded per message in an HdrHistogram after a warm-up.
 */
public final class JournalBench
{
    private static final String SUITE = "journal";
    private static final String JOURNAL = "warpbus-journal";
    private static final String NO_JOURNAL = "warpbus-nojournal";
    private static final String RAW = "chronicle-raw";
    private static final int SIZE = 64;
    private static final int REPLAY_STREAM = 7;

    private final boolean quick;
    private final BenchReport report = new BenchReport(SUITE, RAW);
    private final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(SIZE));
    private final long[] received = new long[1];
    private final FragmentHandler onMessage = (buffer, offset, length, header) -> received[0] = buffer.getLong(offset);
    private long replayed;
    private long replaySum;
    private final JournalHandler onRecord = (sequence, sessionId, flags, publisherNs, receiveNs, buffer, offset,
        length) ->
    {
        replayed++;
        replaySum += buffer.getLong(offset);
    };

    private JournalBench(final boolean quick)
    {
        this.quick = quick;
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
        for (final String arg : args)
        {
            if ("--quick".equals(arg))
            {
                quick = true;
            }
            else
            {
                System.err.println("unknown option '" + arg + "': usage: warpbus bench journal [--quick]");
                System.exit(2);
            }
        }
        new JournalBench(quick).run();
    }

    private void run() throws Exception
    {
        final long start = System.nanoTime();
        final Path work = Files.createTempDirectory("warpbus-bench-journal");
        try
        {
            publishCases(work);
            replayCase(work);
        }
        finally
        {
            delete(work);
        }
        System.out.println();
        System.out.println("journal suite" + (quick ? " (--quick)" : "") + ": median of rounds; ratio = system / " +
            "chronicle-raw");
        System.out.println(BenchReport.conditions());
        System.out.println("message mix: 64-byte messages; publish = one in flight, offer to poll on one thread, " +
            "over iWARP on loopback (publish-64B) or IPC (publish-ipc-64B) of an INVOKER bus; replay = read from " +
            "the start of a recorded stream; journal in " +
            work.getParent());
        System.out.println();
        report.printTable(System.out);
        final Path json = BenchReport.output("journal.json");
        report.writeJson(json);
        System.out.println();
        printTargets();
        System.out.printf(Locale.ROOT, "%nwrote %s in %.0f s%n", json.toAbsolutePath(),
            (System.nanoTime() - start) / 1e9);
    }

    private void publishCases(final Path work) throws IOException
    {
        try (Journal journal = Journal.open(new JournalContext().directory(work.resolve("recorded")));
            SingleChronicleQueue raw = SingleChronicleQueueBuilder.single(work.resolve("raw").toFile())
                .rollCycle(RollCycles.FAST_DAILY).build())
        {
            final ExcerptAppender appender = raw.createAppender();
            final ExcerptTailer tailer = raw.createTailer();
            // Each case has buses of its own, closed when it ends: a bus left idle through the other case would
            // find its subscriber silent past the liveness timeout on its next duty cycle and drop it.
            journalledCase(work, journal, "publish-64B", "", iwarpChannel(1001), iwarpChannel(1002), appender,
                tailer);
            journalledCase(work, journal, "publish-ipc-64B", "-ipc", "warp:ipc?stream=1003",
                "warp:ipc?stream=1004", appender, tailer);
        }
    }

    private void journalledCase(
        final Path work, final Journal journal, final String caseName, final String busSuffix,
        final String journalledChannel, final String plainChannel, final ExcerptAppender appender,
        final ExcerptTailer tailer)
    {
        try (Bus journalled = bus(work, "journalled" + busSuffix);
            Bus plain = bus(work, "plain" + busSuffix))
        {
            final JournalRecorder recorder = new JournalRecorder(journal, null,
                ChannelUri.parse(journalledChannel).streamId());
            journalled.addFrameObserver(recorder);
            final long published = publishCase(caseName, new Endpoint(journalled, journalledChannel),
                new Endpoint(plain, plainChannel), appender, tailer);
            // The recorder sees each frame in the duty cycle after its send: let the last ones through.
            final long deadline = System.nanoTime() + 5_000_000_000L;
            while (recorder.recordedFrames() < published && System.nanoTime() - deadline < 0)
            {
                journalled.doWork();
            }
            journalled.removeFrameObserver(recorder);
            if (recorder.recordedFrames() != published || recorder.rejectedFrames() > 0)
            {
                throw new IllegalStateException(caseName + ": the recorder recorded " + recorder.recordedFrames() +
                    " of " + published + " frames and rejected " + recorder.rejectedFrames());
            }
            recorder.close();
        }
    }

    private static String iwarpChannel(final int streamId) throws IOException
    {
        final InetAddress loopback = InetAddress.getLoopbackAddress();
        try (ServerSocket socket = new ServerSocket(0, 1, loopback))
        {
            return "warp:iwarp?endpoint=" + loopback.getHostAddress() + ":" + socket.getLocalPort() + "|stream=" +
                streamId;
        }
    }

    /**
     * Rounds of the three systems; returns the messages the journalled endpoint published.
     */
    private long publishCase(
        final String caseName, final Endpoint withJournal, final Endpoint withoutJournal,
        final ExcerptAppender appender, final ExcerptTailer tailer)
    {
        final int rounds = quick ? 5 : 9;
        final boolean ipc = caseName.contains("ipc");
        final int count = (quick ? 100_000 : 300_000) / (ipc ? 1 : 4);
        final int warmUp = count / 2;
        long published = 0;
        for (int round = -1; round < rounds; round++)
        {
            final List<String> order = round % 2 == 0 ? List.of(JOURNAL, NO_JOURNAL, RAW) :
                List.of(RAW, NO_JOURNAL, JOURNAL);
            for (final String system : order)
            {
                final Histogram histogram = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
                for (int i = 0; i < warmUp + count; i++)
                {
                    final long latency = RAW.equals(system) ? rawOnce(appender, tailer, i) :
                        (JOURNAL.equals(system) ? withJournal : withoutJournal).once(i);
                    if (i >= warmUp)
                    {
                        histogram.recordValue(Math.min(latency, histogram.getHighestTrackableValue()));
                    }
                }
                if (JOURNAL.equals(system))
                {
                    published += warmUp + count;
                }
                if (round >= 0)
                {
                    report.add(caseName, system, "latency_p50_ns", histogram.getValueAtPercentile(50), "ns");
                    report.add(caseName, system, "latency_p99_ns", histogram.getValueAtPercentile(99), "ns");
                    report.add(caseName, system, "latency_p999_ns", histogram.getValueAtPercentile(99.9), "ns");
                }
            }
        }
        return published;
    }

    private static Bus bus(final Path work, final String name)
    {
        return Bus.launch(new BusContext().directory(work.resolve("bus")).name(name)
            .threadingMode(ThreadingMode.INVOKER).termLength(1024 * 1024).window(16 * 1024 * 1024)
            .ringCapacity(4 * 1024 * 1024));
    }

    /**
     * A publication and a subscription on one IPC stream of an INVOKER bus.
     */
    private final class Endpoint
    {
        private final Bus bus;
        private final ExclusivePublication publication;
        private final Subscription subscription;

        Endpoint(final Bus bus, final String channel)
        {
            this.bus = bus;
            this.subscription = bus.addSubscription(channel);
            this.publication = bus.addExclusivePublication(channel);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!publication.isConnected())
            {
                if (System.nanoTime() - deadline > 0)
                {
                    throw new IllegalStateException("publication did not connect");
                }
                bus.doWork();
            }
        }

        long once(final long value)
        {
            message.putLong(0, value);
            final long t0 = System.nanoTime();
            while (publication.offer(message, 0, SIZE) < 0)
            {
                bus.doWork();
            }
            received[0] = -1;
            while (received[0] != value)
            {
                bus.doWork();
                subscription.poll(onMessage, 1);
            }
            return System.nanoTime() - t0;
        }
    }

    private long rawOnce(final ExcerptAppender appender, final ExcerptTailer tailer, final long value)
    {
        message.putLong(0, value);
        final long t0 = System.nanoTime();
        try (DocumentContext document = appender.writingDocument())
        {
            final Bytes<?> bytes = document.wire().bytes();
            bytes.unsafeWrite(message.addressOffset(), SIZE);
        }
        while (true)
        {
            try (DocumentContext document = tailer.readingDocument())
            {
                if (document.isPresent() && document.wire().bytes().readLong() == value)
                {
                    break;
                }
            }
        }
        return System.nanoTime() - t0;
    }

    private void replayCase(final Path work)
    {
        final int rounds = quick ? 5 : 9;
        final int count = quick ? 2_000_000 : 5_000_000;
        final Path dir = work.resolve("replay");
        try (Journal journal = Journal.open(new JournalContext().directory(dir)))
        {
            try (JournalWriter writer = journal.writer(REPLAY_STREAM))
            {
                for (int i = 0; i < count; i++)
                {
                    message.putLong(0, i);
                    writer.append(i, 1, 0, i, i, message, 0, SIZE);
                }
            }
            try (SingleChronicleQueue raw = SingleChronicleQueueBuilder.single(dir.resolve("stream-" + REPLAY_STREAM)
                .toFile()).readOnly(true).build())
            {
                for (int round = -1; round < rounds; round++)
                {
                    for (final String system : round % 2 == 0 ? List.of(JOURNAL, RAW) : List.of(RAW, JOURNAL))
                    {
                        final double rate = JOURNAL.equals(system) ? replayJournal(journal, count) :
                            replayRaw(raw, count);
                        if (round >= 0)
                        {
                            report.add("replay-64B", system, "msgs_per_s", rate, "msg/s");
                        }
                    }
                }
            }
        }
    }

    private double replayJournal(final Journal journal, final int count)
    {
        try (JournalReader reader = journal.reader(REPLAY_STREAM))
        {
            replayed = 0;
            final long t0 = System.nanoTime();
            while (reader.poll(onRecord, 256) > 0)
            {
                Thread.onSpinWait();
            }
            final long elapsed = System.nanoTime() - t0;
            check(replayed, count);
            return count / (elapsed / 1e9);
        }
    }

    private double replayRaw(final SingleChronicleQueue queue, final int count)
    {
        try (ExcerptTailer tailer = queue.createTailer())
        {
            long read = 0;
            long sum = 0;
            final long t0 = System.nanoTime();
            while (true)
            {
                try (DocumentContext document = tailer.readingDocument())
                {
                    if (!document.isPresent())
                    {
                        break;
                    }
                    final Bytes<?> bytes = document.wire().bytes();
                    sum += bytes.readLong(bytes.readPosition() + 40);
                    read++;
                }
            }
            final long elapsed = System.nanoTime() - t0;
            replaySum += sum;
            check(read, count);
            return count / (elapsed / 1e9);
        }
    }

    private static void check(final long read, final int count)
    {
        if (read != count)
        {
            throw new IllegalStateException("replayed " + read + " of " + count + " records");
        }
    }

    private void printTargets()
    {
        for (final String caseName : new String[] { "publish-64B", "publish-ipc-64B" })
        {
            for (final String metric : new String[] { "latency_p50_ns", "latency_p99_ns", "latency_p999_ns" })
            {
                final double ratio = report.median(caseName, JOURNAL, metric) /
                    report.median(caseName, NO_JOURNAL, metric);
                final boolean target = "publish-64B".equals(caseName) && "latency_p99_ns".equals(metric);
                System.out.printf(Locale.ROOT, "%s %-15s %-15s journal / nojournal: %.2fx%s%n",
                    target ? "target" : "      ", caseName, metric, ratio,
                    target ? (ratio <= 1.15 ? " <= 1.15x met" : " <= 1.15x MISSED") : "");
            }
        }
        final double replay = report.median("replay-64B", JOURNAL, "msgs_per_s") /
            report.median("replay-64B", RAW, "msgs_per_s");
        System.out.printf(Locale.ROOT, "target replay-64B      msgs_per_s      journal / raw: %.2fx >= 0.80x %s%n",
            replay,
            replay >= 0.8 ? "met" : "MISSED");
        System.out.println("(checksum " + replaySum + ")");
    }

    private static void delete(final Path directory) throws IOException
    {
        try (Stream<Path> paths = Files.walk(directory))
        {
            for (final Path path : paths.sorted(Comparator.reverseOrder()).toList())
            {
                Files.deleteIfExists(path);
            }
        }
    }
}
