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
import java.nio.ByteBuffer;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;

import io.warpbus.bus.Bus;
import io.warpbus.bus.BusContext;
import io.warpbus.bus.ExclusivePublication;
import io.warpbus.bus.Publication;
import io.warpbus.marketdata.MarketDataGenerator;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * {@code warpbus pub --channel URI --count N [--size BYTES] [--rate MSGS_PER_S] [--wait-subscribers K]}: waits for
 * K subscribers, publishes N messages (SBE market data, or synthetic payloads of exactly BYTES), waits until every
 * connected subscriber has consumed them, and prints {@code sent N messages, checksum HEX}, the CRC32C chained over
 * the payloads in order, the same function {@code warpbus sub} prints.
 * <p>
 * When every subscriber has gone it waits up to {@code --return-timeout} seconds for one to come back, saying so
 * once a second, and goes on where it stopped; a recorder that was lost (a durable subscriber) keeps the stream
 * going meanwhile, and the tool says when it left and when it is back.
 */
public final class PubTool
{
    static final int EXIT_OK = 0;
    static final int EXIT_FAILED = 1;
    static final int EXIT_USAGE = 2;
    private static final Set<String> OPTIONS = Set.of("--channel", "--count", "--size", "--rate", "--wait-subscribers",
        "--timeout", "--idle", "--seed", "--return-timeout");

    private PubTool()
    {
    }

    /**
     * Run the tool.
     *
     * @param args the options.
     */
    public static void main(final String[] args)
    {
        System.exit(run(args, System.out, System.err));
    }

    static int run(final String[] args, final PrintStream out, final PrintStream err)
    {
        final ToolArgs options;
        final String channel;
        final long count;
        final int size;
        final long rate;
        final int waitSubscribers;
        final long timeoutNs;
        final long returnTimeoutNs;
        try
        {
            options = ToolArgs.parse(args, OPTIONS, Set.of());
            channel = options.required("--channel");
            options.required("--count");
            count = options.number("--count", 0, 0, Long.MAX_VALUE);
            size = (int)options.number("--size", 0, 0, 16 * 1024 * 1024);
            rate = options.number("--rate", 0, 0, 1_000_000_000);
            waitSubscribers = (int)options.number("--wait-subscribers", 1, 0, 4096);
            timeoutNs = TimeUnit.SECONDS.toNanos(options.number("--timeout", 30, 1, 86_400));
            returnTimeoutNs = TimeUnit.SECONDS.toNanos(options.number("--return-timeout", 30, 0, 86_400));
        }
        catch (final IllegalArgumentException ex)
        {
            err.println("warpbus pub: " + ex.getMessage());
            err.println("usage: warpbus pub --channel URI --count N [--size BYTES] [--rate MSGS_PER_S] " +
                "[--wait-subscribers K] [--timeout SECONDS] [--return-timeout SECONDS] [--idle STRATEGY] [--seed N]");
            return EXIT_USAGE;
        }

        final BusContext context = new BusContext().name("pub-" + ProcessHandle.current().pid())
            .idleStrategy(options.string("--idle", "backoff"));
        try (Bus bus = Bus.launch(context))
        {
            final ExclusivePublication publication = bus.addExclusivePublication(channel);
            if (size > publication.maxMessageLength())
            {
                err.println("warpbus pub: --size " + size + " exceeds the channel's longest message of " +
                    publication.maxMessageLength() + " bytes");
                return EXIT_USAGE;
            }
            final IdleStrategy idle = new BackoffIdleStrategy();
            if (!await(() -> publication.subscriberCount() >= waitSubscribers, timeoutNs, idle))
            {
                err.println("warpbus pub: only " + publication.subscriberCount() + " of " + waitSubscribers +
                    " subscribers connected to " + channel + " within the timeout");
                return EXIT_FAILED;
            }
            final PublishProgress progress = new PublishProgress(publication, returnTimeoutNs, err);
            final long checksum = publish(publication, count, size, rate, options.number("--seed", 42, 0,
                Long.MAX_VALUE), progress);
            if (checksum < 0)
            {
                return EXIT_FAILED;
            }
            if (!await(() -> progress.drained(count), timeoutNs, idle))
            {
                err.println("warpbus pub: subscribers had not consumed everything within the timeout");
                out.println("sent " + count + " messages, checksum " + hex(checksum));
                return EXIT_FAILED;
            }
            out.println("sent " + count + " messages, checksum " + hex(checksum));
            return EXIT_OK;
        }
        catch (final RuntimeException ex)
        {
            err.println("warpbus pub: " + ex.getMessage());
            return EXIT_FAILED;
        }
    }

    /**
     * Publish and return the chained CRC32C, or -1 when the stream lost every subscriber.
     */
    private static long publish(
        final Publication publication,
        final long count,
        final int size,
        final long rate,
        final long seed,
        final PublishProgress progress)
    {
        final int capacity = Math.max(size, MarketDataGenerator.MAX_MESSAGE_LENGTH);
        final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(capacity));
        final MarketDataGenerator generator = new MarketDataGenerator(seed, 16);
        final Random random = new Random(seed);
        final byte[] filler = new byte[capacity];
        random.nextBytes(filler);
        final byte[] scratch = new byte[capacity];
        final CRC32C crc = new CRC32C();
        final long intervalNs = rate > 0 ? 1_000_000_000L / rate : 0;
        long nextSendNs = System.nanoTime();
        for (long i = 0; i < count; )
        {
            if (intervalNs > 0)
            {
                while (System.nanoTime() - nextSendNs < 0)
                {
                    Thread.onSpinWait();
                }
                nextSendNs += intervalNs;
            }
            final int length;
            if (size > 0)
            {
                message.putBytes(0, filler, 0, size);
                if (size >= 8)
                {
                    message.putLong(0, i);
                }
                length = size;
            }
            else
            {
                length = generator.encodeNext(message, 0);
            }
            long result;
            while ((result = publication.offer(message, 0, length)) < 0)
            {
                if (!progress.onRefused(result, i))
                {
                    return -1;
                }
                Thread.onSpinWait();
            }
            progress.onAccepted(i);
            message.getBytes(0, scratch, 0, length);
            crc.update(scratch, 0, length);
            i++;
        }
        return crc.getValue();
    }

    private static boolean await(
        final java.util.function.BooleanSupplier condition, final long timeoutNs, final IdleStrategy idle)
    {
        final long deadline = System.nanoTime() + timeoutNs;
        idle.reset();
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0 || Thread.currentThread().isInterrupted())
            {
                return false;
            }
            idle.idle();
        }
        return true;
    }

    static String hex(final long crc)
    {
        return String.format("%08x", crc);
    }
}
