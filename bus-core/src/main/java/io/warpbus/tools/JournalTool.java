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
package io.warpbus.tools;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import io.warpbus.journal.Journal;
import io.warpbus.journal.JournalContext;
import io.warpbus.journal.JournalCycleInfo;
import io.warpbus.journal.JournalException;
import io.warpbus.journal.JournalHandler;
import io.warpbus.journal.JournalReader;
import io.warpbus.journal.JournalStreamInfo;
import io.warpbus.marketdata.MarketDataMessages;
import io.warpbus.marketdata.MarketDataPrinter;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

/**
 * {@code warpbus journal dump|tail|stats DIR [--stream N] [--from SEQ] [--count N]}: reads a journal directory
 * without writing to it (opened read only).
 * <ul>
 *     <li>{@code dump}: one line per record, {@code stream=S seq=N session=I flags=0xF published=T received=T
 *     length=L} then the payload decoded when it is a market-data message, else the first bytes in hex; every stream
 *     in turn, or one;</li>
 *     <li>{@code tail}: the same lines for records appended from now on (or from {@code --from}), until Ctrl-C or
 *     {@code --count} records; needs {@code --stream} when the journal holds several streams;</li>
 *     <li>{@code stats}: per stream, record count, sequence and time range, and the cycle files with their sizes.</li>
 * </ul>
 * Exit code 0, 1 when the journal or a stream is missing or damaged (the message names it), 2 for bad options.
 */
public final class JournalTool
{
    static final int EXIT_OK = 0;
    static final int EXIT_FAILED = 1;
    static final int EXIT_USAGE = 2;
    private static final int HEX_PREVIEW = 32;
    private static final String USAGE =
        "usage: warpbus journal dump|tail|stats DIR [--stream N] [--from SEQ] [--count N]";
    private static final Set<String> OPTIONS = Set.of("--stream", "--from", "--count");

    private final PrintStream out;
    private final MarketDataPrinter printer = new MarketDataPrinter();
    private final StringBuilder line = new StringBuilder(256);
    private int streamId;
    private long printed;

    private JournalTool(final PrintStream out)
    {
        this.out = out;
    }

    /**
     * Run the tool.
     *
     * @param args the command, the directory, then options.
     */
    public static void main(final String[] args)
    {
        final AtomicBoolean running = new AtomicBoolean(true);
        final Thread main = Thread.currentThread();
        Runtime.getRuntime().addShutdownHook(new Thread(() ->
        {
            running.set(false);
            try
            {
                main.join(2000);
            }
            catch (final InterruptedException ignore)
            {
                Thread.currentThread().interrupt();
            }
        }, "warpbus-journal-shutdown"));
        final int exit = run(args, System.out, System.err, running);
        if (running.get())
        {
            System.exit(exit);
        }
    }

    static int run(final String[] args, final PrintStream out, final PrintStream err, final AtomicBoolean running)
    {
        final String command;
        final Path directory;
        final ToolArgs options;
        final Integer stream;
        final long from;
        final long count;
        try
        {
            if (args.length < 2 || !Set.of("dump", "tail", "stats").contains(args[0]))
            {
                throw new IllegalArgumentException(args.length == 0 ? "missing command" :
                    args.length == 1 ? "missing journal directory" : "unknown command '" + args[0] + "'");
            }
            command = args[0];
            directory = Path.of(args[1]);
            options = ToolArgs.parse(Arrays.copyOfRange(args, 2, args.length), OPTIONS, Set.of());
            stream = options.flag("--stream") ?
                (int)options.number("--stream", 0, Integer.MIN_VALUE, Integer.MAX_VALUE) : null;
            from = options.number("--from", -1, 0, Long.MAX_VALUE);
            count = options.number("--count", 0, 0, Long.MAX_VALUE);
        }
        catch (final IllegalArgumentException ex)
        {
            err.println("warpbus journal: " + ex.getMessage());
            err.println(USAGE);
            return EXIT_USAGE;
        }
        try (Journal journal = Journal.open(new JournalContext().directory(directory).readOnly(true)))
        {
            final int[] streams = null != stream ? new int[] { stream } : journal.streams();
            final JournalTool tool = new JournalTool(out);
            switch (command)
            {
                case "stats":
                    return tool.stats(journal, streams);
                case "dump":
                    return tool.dump(journal, streams, from, count, err);
                default:
                    if (streams.length != 1)
                    {
                        err.println("warpbus journal: tail follows one stream: give --stream (the journal holds " +
                            streams.length + ": " + Arrays.toString(streams) + ")");
                        return EXIT_USAGE;
                    }
                    return tool.tail(journal, streams[0], from, count, running);
            }
        }
        catch (final JournalException ex)
        {
            err.println("warpbus journal: " + ex.getMessage());
            return EXIT_FAILED;
        }
        finally
        {
            out.flush();
        }
    }

    private int stats(final Journal journal, final int[] streams)
    {
        int exit = EXIT_OK;
        for (final int id : streams)
        {
            final JournalStreamInfo info = journal.info(id);
            out.println("stream " + id + ": " + info.recordCount() + " records, sequences " + info.firstSequence() +
                ".." + info.lastSequence() + ", published " + time(info.firstTimestampNs()) + " .. " +
                time(info.lastTimestampNs()) + ", roll cycle " + info.rollCycle() + ", " + info.cycles().size() +
                " cycle files");
            for (final JournalCycleInfo cycle : info.cycles())
            {
                out.println("  " + cycle.file().getFileName() + " cycle " + cycle.cycle() + ", " + cycle.sizeBytes() +
                    " bytes, " + (cycle.recordCount() < 0 ? "DAMAGED" : cycle.recordCount() + " records"));
            }
            if (null != info.damage())
            {
                out.println("  DAMAGED: " + info.damage());
                exit = EXIT_FAILED;
            }
        }
        return exit;
    }

    private int dump(final Journal journal, final int[] streams, final long from, final long count,
        final PrintStream err)
    {
        int exit = EXIT_OK;
        final JournalHandler handler = this::print;
        for (final int id : streams)
        {
            streamId = id;
            try (JournalReader reader = journal.reader(id))
            {
                if (from >= 0)
                {
                    reader.seekToSequence(from);
                }
                final long limit = 0 == count ? Long.MAX_VALUE : count;
                printed = 0;
                while (printed < limit && reader.poll(handler, (int)Math.min(256, limit - printed)) > 0)
                {
                    Thread.onSpinWait();
                }
                if (null != reader.damage())
                {
                    err.println("warpbus journal: " + reader.damage() + " (records before it were dumped)");
                    exit = EXIT_FAILED;
                }
            }
        }
        return exit;
    }

    private int tail(final Journal journal, final int id, final long from, final long count,
        final AtomicBoolean running)
    {
        streamId = id;
        try (JournalReader reader = journal.reader(id))
        {
            if (from >= 0)
            {
                reader.seekToSequence(from);
            }
            else
            {
                reader.toEnd();
            }
            final JournalHandler handler = this::print;
            final IdleStrategy idle = new BackoffIdleStrategy();
            printed = 0;
            while (running.get() && (0 == count || printed < count))
            {
                final int polled = reader.poll(handler, (int)(0 == count ? 256 : Math.min(256, count - printed)));
                if (polled > 0)
                {
                    out.flush();
                }
                idle.idle(polled);
            }
        }
        return EXIT_OK;
    }

    private void print(
        final long sequence,
        final int sessionId,
        final int flags,
        final long publisherTimestampNs,
        final long receiveTimestampNs,
        final DirectBuffer buffer,
        final int offset,
        final int length)
    {
        final StringBuilder line = this.line;
        line.setLength(0);
        line.append("stream=").append(streamId).append(" seq=").append(sequence).append(" session=")
            .append(sessionId).append(" flags=0x").append(Integer.toHexString(flags)).append(" published=")
            .append(time(publisherTimestampNs)).append(" received=").append(time(receiveTimestampNs))
            .append(" length=").append(length).append(' ');
        if (MarketDataMessages.isMarketData(buffer, offset, length))
        {
            printer.appendTo(line, buffer, offset, length);
        }
        else
        {
            line.append("hex=");
            for (int i = 0, n = Math.min(length, HEX_PREVIEW); i < n; i++)
            {
                final int b = buffer.getByte(offset + i) & 0xFF;
                line.append(Character.forDigit(b >>> 4, 16)).append(Character.forDigit(b & 0xF, 16));
            }
            if (length > HEX_PREVIEW)
            {
                line.append("...");
            }
        }
        out.println(line);
        printed++;
    }

    private static String time(final long epochNs)
    {
        return epochNs < 0 ? "-" : Instant.ofEpochSecond(0, epochNs).toString();
    }
}
