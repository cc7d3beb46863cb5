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
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.zip.CRC32C;

import io.warpbus.bus.Bus;
import io.warpbus.bus.BusContext;
import io.warpbus.bus.FragmentAssembler;
import io.warpbus.bus.Header;
import io.warpbus.bus.Image;
import io.warpbus.bus.ImageListener;
import io.warpbus.bus.Subscription;
import io.warpbus.journal.ReplayMergeSubscription;
import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

/**
 * {@code warpbus sub --channel URI [--count N]}: receives messages and, once it has N (or on Ctrl-C), prints
 * {@code received N messages, gaps G, duplicates D, checksum HEX}: G gaps reported by the bus, D messages that
 * arrived again with a sequence already delivered, and the CRC32C chained over the payloads in order (the same
 * function {@code warpbus pub} prints), so equal checksums mean nothing was lost, reordered or duplicated.
 * <p>
 * {@code --from SEQUENCE} starts at that sequence: history the publisher no longer holds is replayed from the
 * stream's recorder and merged into the live stream. {@code --repair} (implied by {@code --from}) fills every gap
 * the bus reports from the recorder; G then counts only the gaps that could not be filled. The recorder is found
 * through the publisher, or named with {@code --replay-endpoint HOST:PORT}.
 */
public final class SubTool
{
    static final int EXIT_OK = 0;
    static final int EXIT_FAILED = 1;
    static final int EXIT_USAGE = 2;
    private static final Set<String> OPTIONS = Set.of("--channel", "--count", "--timeout", "--idle", "--from",
        "--replay-endpoint");

    private final CRC32C crc = new CRC32C();
    private final Int2ObjectHashMap<long[]> lastSequence = new Int2ObjectHashMap<>();
    private byte[] scratch = new byte[4096];
    private volatile long received;
    private volatile long gaps;
    private volatile long duplicates;
    private boolean merged;
    private volatile ReplayMergeSubscription merge;
    private final AtomicBoolean repairsPrinted = new AtomicBoolean();

    private SubTool()
    {
    }

    /**
     * Run the tool.
     *
     * @param args the options.
     */
    public static void main(final String[] args)
    {
        System.exit(run(args, System.out, System.err, new AtomicBoolean(true)));
    }

    static int run(final String[] args, final PrintStream out, final PrintStream err, final AtomicBoolean running)
    {
        final ToolArgs options;
        final String channel;
        final long count;
        final long timeoutNs;
        try
        {
            options = ToolArgs.parse(args, OPTIONS, Set.of("--repair"));
            channel = options.required("--channel");
            count = options.number("--count", 0, 0, Long.MAX_VALUE);
            timeoutNs = TimeUnit.SECONDS.toNanos(options.number("--timeout", 0, 0, 86_400));
        }
        catch (final IllegalArgumentException ex)
        {
            err.println("warpbus sub: " + ex.getMessage());
            err.println("usage: warpbus sub --channel URI [--count N] [--timeout SECONDS] [--idle STRATEGY] " +
                "[--from SEQUENCE | --repair] [--replay-endpoint HOST:PORT]");
            return EXIT_USAGE;
        }
        final SubTool tool = new SubTool();
        final AtomicBoolean printed = new AtomicBoolean();
        final Thread hook = new Thread(() ->
        {
            running.set(false);
            tool.print(out, printed);
            tool.printRepairs(err);
        }, "warpbus-sub-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        final BusContext context = new BusContext().name("sub-" + ProcessHandle.current().pid())
            .idleStrategy(options.string("--idle", "backoff"));
        try (Bus bus = Bus.launch(context))
        {
            final long from = options.number("--from", -1, 0, Long.MAX_VALUE);
            final boolean merged = from >= 0 || options.flag("--repair");
            tool.merged = merged;
            final Subscription subscription = merged ? null : bus.addSubscription(channel, tool.listener());
            final ReplayMergeSubscription merge = merged ? new ReplayMergeSubscription(bus, channel, from,
                options.string("--replay-endpoint", null), tool.repairListener(err)) : null;
            tool.merge = merge;
            final FragmentAssembler assembler = new FragmentAssembler(tool::onMessage);
            final IdleStrategy idle = new BackoffIdleStrategy();
            final long deadline = System.nanoTime() + timeoutNs;
            while (running.get() && (0 == count || tool.received < count))
            {
                if (timeoutNs > 0 && System.nanoTime() - deadline > 0)
                {
                    err.println("warpbus sub: timed out with " + tool.received + " of " + count + " messages");
                    tool.print(out, printed);
                    tool.printRepairs(err);
                    return EXIT_FAILED;
                }
                idle.idle(merged ? merge.poll(assembler, 256) : subscription.poll(assembler, 256));
            }
            tool.print(out, printed);
            tool.printRepairs(err);
            return EXIT_OK;
        }
        catch (final RuntimeException ex)
        {
            err.println("warpbus sub: " + ex.getMessage());
            return EXIT_FAILED;
        }
        finally
        {
            try
            {
                Runtime.getRuntime().removeShutdownHook(hook);
            }
            catch (final IllegalStateException ignore)
            {
                // Already shutting down: the hook prints.
            }
        }
    }

    private ImageListener listener()
    {
        return new ImageListener()
        {
            @Override
            public void onGap(final Image image, final long fromSequence, final long toSequence, final long position)
            {
                gaps++;
            }
        };
    }

    private ReplayMergeSubscription.Listener repairListener(final PrintStream err)
    {
        return new ReplayMergeSubscription.Listener()
        {
            @Override
            public void onUnrepairedGap(final long fromSequence, final long toSequence, final String reason)
            {
                gaps++;
                err.println("warpbus sub: sequences " + fromSequence + " to " + toSequence + " lost: " + reason);
            }
        };
    }

    private void onMessage(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        // Merged delivery mixes the live session with replays' sessions: one sequence space for all.
        final int key = merged ? 0 : header.sessionId();
        long[] last = lastSequence.get(key);
        if (null == last)
        {
            last = new long[] { -1 };
            lastSequence.put(key, last);
        }
        if (header.sequence() <= last[0])
        {
            duplicates++;
            return;
        }
        last[0] = header.sequence();
        if (scratch.length < length)
        {
            scratch = new byte[length];
        }
        buffer.getBytes(offset, scratch, 0, length);
        crc.update(scratch, 0, length);
        received++;
    }

    /**
     * With repair on: how much came from the recorder rather than the live stream, on standard error (the result
     * line on standard output stays one line).
     */
    private void printRepairs(final PrintStream err)
    {
        final ReplayMergeSubscription merge = this.merge;
        if (null != merge && repairsPrinted.compareAndSet(false, true))
        {
            err.println("warpbus sub: repaired " + merge.repairedMessages() + " messages in " + merge.repairs() +
                " replays from the recorder, unrepaired " + merge.unrepairedMessages());
            err.flush();
        }
    }

    private void print(final PrintStream out, final AtomicBoolean printed)
    {
        if (printed.compareAndSet(false, true))
        {
            out.println("received " + received + " messages, gaps " + gaps + ", duplicates " + duplicates +
                ", checksum " + PubTool.hex(crc.getValue()));
            out.flush();
        }
    }
}
