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
package io.warpbus.bus;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.zip.CRC32C;

import io.warpbus.iwarp.ThreadingMode;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Child process of the multi-process bus tests ({@link BusProcessTestBase}): a publisher or a subscriber in its own
 * JVM, configured by {@code key=value} arguments, reporting what happens as one line per event on standard output.
 * <p>
 * Message {@code i} of a publisher is {@code size} bytes: the long {@code i} at offset 0, then (with {@code keys})
 * the int conflation key {@code i % keys} at offset 8, then bytes that are a function of {@code i} and their index,
 * so a subscriber checks every byte of every message it receives, and both sides keep a CRC32C over the payloads.
 * <p>
 * Standard input is the control channel: a line {@code STOP} ends publishing or receiving cleanly; end of input
 * (the parent test died) halts the process at once, and so does running longer than {@code max-seconds}.
 * <pre>
 *   pub: channel count(0: until STOP) size rate(msgs/s, 0: flat out) wait-subscribers keys
 *        prints READY session=S, SUBSCRIBERS n on each change, then SENT n checksum=X backpressured=B ...
 *   sub: channel subscriptions count(0: until STOP) pause-after pause-ms slow-every slow-ms
 *        prints AVAILABLE / UNAVAILABLE / GAP / FIRST / PROGRESS events and one DONE line per subscription
 * </pre>
 */
final class BusTestProcess
{
    static final int TERM_LENGTH = 64 * 1024;
    static final int WINDOW = 1024 * 1024;
    static final int RING = 256 * 1024;
    static final int KEY_OFFSET = 8;

    private static volatile boolean stopRequested;

    private BusTestProcess()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final Map<String, String> options = new HashMap<>();
        for (final String arg : args)
        {
            final int equals = arg.indexOf('=');
            options.put(arg.substring(0, equals), arg.substring(equals + 1));
        }
        startWatchdogs(Long.parseLong(options.getOrDefault("max-seconds", "90")));
        final BusContext context = new BusContext()
            .directory(Path.of(options.get("dir")))
            .name(options.get("name"))
            .threadingMode(ThreadingMode.DEDICATED)
            .idleStrategy("backoff")
            .termLength(TERM_LENGTH)
            .window(WINDOW)
            .ringCapacity(RING)
            .heartbeatIntervalNs(TimeUnit.MILLISECONDS.toNanos(Long.parseLong(
                options.getOrDefault("heartbeat-ms", "100"))))
            .livenessTimeoutNs(TimeUnit.MILLISECONDS.toNanos(Long.parseLong(
                options.getOrDefault("liveness-ms", "1500"))))
            .errorHandler((throwable) -> System.err.println("bus error: " + throwable));
        final int exitCode;
        try (Bus bus = Bus.launch(context))
        {
            exitCode = "pub".equals(options.get("mode")) ? publish(bus, options) : subscribe(bus, options);
        }
        System.out.flush();
        System.exit(exitCode);
    }

    /**
     * Write message {@code value} of {@code size} bytes.
     */
    static void fill(final MutableDirectBuffer buffer, final long value, final int size, final int keys)
    {
        buffer.putLong(0, value);
        final int start = keys > 0 ? KEY_OFFSET + 4 : KEY_OFFSET;
        if (keys > 0)
        {
            buffer.putInt(KEY_OFFSET, (int)(value % keys), java.nio.ByteOrder.LITTLE_ENDIAN);
        }
        for (int i = start; i < size; i++)
        {
            buffer.putByte(i, (byte)(value * 31 + i));
        }
    }

    /**
     * Does the message at {@code offset} hold exactly what {@link #fill} writes for its value?
     */
    static boolean verify(
        final DirectBuffer buffer, final int offset, final int length, final int size, final int keys)
    {
        if (length != size)
        {
            return false;
        }
        final long value = buffer.getLong(offset);
        final int start = keys > 0 ? KEY_OFFSET + 4 : KEY_OFFSET;
        if (keys > 0 && buffer.getInt(offset + KEY_OFFSET, java.nio.ByteOrder.LITTLE_ENDIAN) != (int)(value % keys))
        {
            return false;
        }
        for (int i = start; i < size; i++)
        {
            if (buffer.getByte(offset + i) != (byte)(value * 31 + i))
            {
                return false;
            }
        }
        return true;
    }

    private static int publish(final Bus bus, final Map<String, String> options)
    {
        final ExclusivePublication publication = bus.addExclusivePublication(options.get("channel"));
        final long count = Long.parseLong(options.getOrDefault("count", "0"));
        final int size = Integer.parseInt(options.getOrDefault("size", "64"));
        final long rate = Long.parseLong(options.getOrDefault("rate", "0"));
        final int waitSubscribers = Integer.parseInt(options.getOrDefault("wait-subscribers", "1"));
        final int keys = Integer.parseInt(options.getOrDefault("keys", "0"));
        System.out.println("READY session=" + publication.sessionId());
        final Watcher watcher = new Watcher(publication);
        final IdleStrategy idle = new BackoffIdleStrategy();
        while (publication.subscriberCount() < waitSubscribers && !stopRequested)
        {
            watcher.check();
            idle.idle();
        }
        watcher.check();
        final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(Math.max(size, 64)));
        final byte[] scratch = new byte[size];
        final CRC32C crc = new CRC32C();
        final long startNs = System.nanoTime();
        long sent = 0;
        while ((0 == count || sent < count) && !stopRequested)
        {
            if (rate > 0 && sent >= (System.nanoTime() - startNs) * rate / 1_000_000_000L)
            {
                watcher.check();
                LockSupport.parkNanos(100_000);
                continue;
            }
            fill(message, sent, size, keys);
            final long result = publication.offer(message, 0, size);
            if (result > 0)
            {
                message.getBytes(0, scratch, 0, size);
                crc.update(scratch, 0, size);
                sent++;
                idle.reset();
            }
            else
            {
                watcher.onRefused(result);
                watcher.check();
                idle.idle();
            }
        }
        final String totals = "SENT " + sent + " checksum=" + hex(crc.getValue()) + " " + watcher;
        System.out.println("PUBLISHED " + totals);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(
            Long.parseLong(options.getOrDefault("drain-seconds", "30")));
        while (!publication.isDrained() && System.nanoTime() - deadline < 0)
        {
            watcher.check();
            idle.idle();
        }
        watcher.check();
        System.out.println(publication.isDrained() ? "DRAINED" : "NOT DRAINED within the timeout");
        System.out.println(totals);
        publication.close();
        return 0;
    }

    private static int subscribe(final Bus bus, final Map<String, String> options)
    {
        final long count = Long.parseLong(options.getOrDefault("count", "0"));
        final int subscriptions = Integer.parseInt(options.getOrDefault("subscriptions", "1"));
        final int size = Integer.parseInt(options.getOrDefault("size", "64"));
        final int keys = Integer.parseInt(options.getOrDefault("keys", "0"));
        final long pauseAfter = Long.parseLong(options.getOrDefault("pause-after", "0"));
        final long pauseMs = Long.parseLong(options.getOrDefault("pause-ms", "0"));
        final long slowEvery = Long.parseLong(options.getOrDefault("slow-every", "0"));
        final long slowMs = Long.parseLong(options.getOrDefault("slow-ms", "1"));
        final long progressNs = TimeUnit.MILLISECONDS.toNanos(Long.parseLong(
            options.getOrDefault("progress-ms", "250")));
        final Receiver[] receivers = new Receiver[subscriptions];
        for (int i = 0; i < subscriptions; i++)
        {
            receivers[i] = new Receiver(i, size, keys, count);
            receivers[i].subscription = bus.addSubscription(options.get("channel"), receivers[i]);
        }
        final IdleStrategy idle = new BackoffIdleStrategy();
        boolean paused = 0 == pauseAfter;
        long nextSlow = slowEvery;
        long nextProgressNs = System.nanoTime() + progressNs;
        while (!stopRequested && !allDone(receivers))
        {
            int fragments = 0;
            long total = 0;
            for (final Receiver receiver : receivers)
            {
                fragments += receiver.subscription.poll(receiver, 64);
                total += receiver.received;
            }
            if (!paused && total >= pauseAfter)
            {
                paused = true;
                System.out.println("PAUSING for " + pauseMs + " ms after " + total + " messages");
                sleep(pauseMs);
                System.out.println("RESUMING");
            }
            if (slowEvery > 0 && total >= nextSlow)
            {
                nextSlow = total + slowEvery;
                sleep(slowMs);
            }
            if (System.nanoTime() - nextProgressNs >= 0)
            {
                nextProgressNs = System.nanoTime() + progressNs;
                for (final Receiver receiver : receivers)
                {
                    System.out.println("PROGRESS " + receiver.summary());
                }
            }
            idle.idle(fragments);
        }
        for (final Receiver receiver : receivers)
        {
            receiver.finish();
            System.out.println("DONE " + receiver.summary());
            if (keys > 0)
            {
                System.out.println("LAST-BY-KEY sub=" + receiver.index + " " + receiver.lastByKey());
            }
        }
        return 0;
    }

    private static boolean allDone(final Receiver[] receivers)
    {
        for (final Receiver receiver : receivers)
        {
            if (!receiver.done())
            {
                return false;
            }
        }
        return true;
    }

    private static void sleep(final long ms)
    {
        try
        {
            Thread.sleep(ms);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    static String hex(final long crc)
    {
        return String.format("%08x", crc);
    }

    private static void startWatchdogs(final long maxSeconds)
    {
        final Thread control = new Thread(() ->
        {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)))
            {
                String line;
                while (null != (line = reader.readLine()))
                {
                    if ("STOP".equals(line.trim()))
                    {
                        stopRequested = true;
                    }
                }
            }
            catch (final IOException ignore)
            {
                // the parent is gone either way
            }
            System.err.println("standard input closed: the parent test is gone, halting");
            Runtime.getRuntime().halt(3);
        }, "control");
        control.setDaemon(true);
        control.start();
        final Thread lifetime = new Thread(() ->
        {
            sleep(TimeUnit.SECONDS.toMillis(maxSeconds));
            System.err.println("ran longer than " + maxSeconds + " s, halting");
            Runtime.getRuntime().halt(4);
        }, "lifetime");
        lifetime.setDaemon(true);
        lifetime.start();
    }

    /** The publisher's view: subscriber count changes and refused offers. */
    private static final class Watcher
    {
        private final Publication publication;
        private int subscribers = -1;
        private long backPressured;
        private long notConnected;
        private long adminAction;

        Watcher(final Publication publication)
        {
            this.publication = publication;
        }

        void check()
        {
            final int count = publication.subscriberCount();
            if (count != subscribers)
            {
                subscribers = count;
                System.out.println("SUBSCRIBERS " + count + " at position " + publication.position());
            }
        }

        void onRefused(final long result)
        {
            if (Publication.BACK_PRESSURED == result)
            {
                backPressured++;
            }
            else if (Publication.NOT_CONNECTED == result)
            {
                notConnected++;
            }
            else if (Publication.ADMIN_ACTION == result)
            {
                adminAction++;
            }
            else
            {
                throw new IllegalStateException("offer failed: " + result);
            }
        }

        @Override
        public String toString()
        {
            return "backpressured=" + backPressured + " notconnected=" + notConnected + " adminaction=" + adminAction;
        }
    }

    /** One subscription's checks: order, content, sequences, gaps, checksum, last value per key. */
    private static final class Receiver implements FragmentHandler, ImageListener
    {
        final int index;
        final int size;
        final int keys;
        final long count;
        final CRC32C crc = new CRC32C();
        final byte[] scratch;
        final long[] lastByKey;
        Subscription subscription;
        volatile long received;
        volatile long lastValue = -1;
        long expected;
        long skipped;
        long errors;
        String firstError;
        int session;
        boolean started;
        volatile long missing;
        volatile long gaps;
        volatile long reportedTo = -1;

        Receiver(final int index, final int size, final int keys, final long count)
        {
            this.index = index;
            this.size = size;
            this.keys = keys;
            this.count = count;
            this.scratch = new byte[Math.max(size, 1)];
            this.lastByKey = new long[Math.max(keys, 1)];
            java.util.Arrays.fill(lastByKey, -1);
        }

        @Override
        public void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header header)
        {
            final long value = buffer.getLong(offset);
            if (!started || header.sessionId() != session)
            {
                started = true;
                session = header.sessionId();
                expected = value;
                System.out.println("FIRST sub=" + index + " session=" + session + " value=" + value + " sequence=" +
                    header.sequence());
            }
            if (value != header.sequence())
            {
                error("value " + value + " arrived with sequence " + header.sequence());
            }
            if (!verify(buffer, offset, length, size, keys))
            {
                error("content of message " + value + " (" + length + " bytes) is not what was published");
            }
            if (value < expected)
            {
                error("value " + value + " arrived after " + (expected - 1) + " (duplicate or out of order)");
            }
            else
            {
                skipped += value - expected;
                expected = value + 1;
            }
            if (keys > 0)
            {
                lastByKey[(int)(value % keys)] = value;
            }
            buffer.getBytes(offset, scratch, 0, length);
            crc.update(scratch, 0, length);
            lastValue = value;
            received++;
        }

        @Override
        public void onAvailable(final Image image)
        {
            System.out.println("AVAILABLE sub=" + index + " session=" + image.sessionId() + " position=" +
                image.joinPosition());
        }

        @Override
        public void onUnavailable(final Image image, final String reason)
        {
            System.out.println("UNAVAILABLE sub=" + index + " session=" + image.sessionId() + " last=" +
                image.lastSequence() + " reason=" + reason);
        }

        @Override
        public void onGap(final Image image, final long fromSequence, final long toSequence, final long position)
        {
            missing += toSequence - fromSequence + 1;
            gaps++;
            reportedTo = Math.max(reportedTo, toSequence);
            System.out.println("GAP sub=" + index + " session=" + image.sessionId() + " from=" + fromSequence +
                " to=" + toSequence);
        }

        /** Done once the last message was read, or reported missing: a drop subscriber may rejoin past the end. */
        boolean done()
        {
            return count > 0 && through() >= count - 1;
        }

        /** The highest sequence read or reported missing: every sequence up to it is accounted for. */
        long through()
        {
            return Math.max(lastValue, reportedTo);
        }

        /** Counts as skipped the messages after the last one read that a gap at the end of the stream covered. */
        void finish()
        {
            if (done() && lastValue < count - 1)
            {
                skipped += count - expected;
            }
        }

        String lastByKey()
        {
            final StringBuilder builder = new StringBuilder();
            for (int i = 0; i < lastByKey.length; i++)
            {
                builder.append(0 == i ? "" : ",").append(lastByKey[i]);
            }
            return builder.toString();
        }

        String summary()
        {
            return "sub=" + index + " images=" + subscription.imageCount() + " received=" + received + " last=" +
                lastValue + " through=" + through() + " skipped=" + skipped +
                " missing=" + missing + " gaps=" + gaps + " errors=" + errors + " checksum=" + hex(crc.getValue()) +
                " session=" + session + (null != firstError ? " first-error=" + firstError : "");
        }

        private void error(final String what)
        {
            if (0 == errors++)
            {
                firstError = what.replace(' ', '_');
                System.out.println("ERROR sub=" + index + " " + what);
            }
        }
    }
}
