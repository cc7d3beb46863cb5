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

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import io.warpbus.bus.protocol.RingDescriptor;
import io.warpbus.iwarp.ThreadingMode;
import io.warpbus.testing.Await;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * IPC subscribers that block or drop read frames in the publisher's log file, where the writer put them; a
 * conflating one still has its frames copied into its ring. One bus in {@link ThreadingMode#INVOKER} mode, one duty
 * cycle at a time; {@code IpcBusProcessTest} runs the same path between processes.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class IpcSharedLogTest
{
    private static final int SIZE = 64;
    private static final int FRAME = 96;

    @TempDir
    Path dir;
    private Bus bus;
    private final List<String> events = new ArrayList<>();
    private final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(SIZE));

    @AfterEach
    void tearDown()
    {
        if (null != bus)
        {
            bus.close();
        }
    }

    @Test
    void shouldServeBlockAndDropSubscribersFromTheLogAndCopyOnlyForConflation() throws Exception
    {
        launch(BusConfiguration.HEARTBEAT_INTERVAL_DEFAULT_NS);
        final String channel = "warp:ipc?stream=31";
        final Subscription block = bus.addSubscription(channel);
        final Subscription drop = bus.addSubscription(channel + "|policy=drop");
        final Subscription conflate = bus.addSubscription(channel + "|policy=conflate");
        final ExclusivePublication publication = bus.addExclusivePublication(channel + "|conflation-key=" +
            BusTestProcess.KEY_OFFSET + ":4");
        await(() -> 3 == publication.subscriberCount(), "three subscribers to join");
        final Path log = IpcDirectory.logFile(stream(31), ProcessHandle.current().pid(), publication.sessionId());
        assertEquals(BusTestProcess.WINDOW + RingDescriptor.LOG_TRAILER_LENGTH, Files.size(log),
            "the log is a file of the window and its trailer");

        final int count = 1_000;
        final long[] next = new long[3];
        final Subscription[] subscriptions = { block, drop, conflate };
        for (int i = 0; i < count; )
        {
            Await.checkInterrupted();
            BusTestProcess.fill(message, i, SIZE, 16);
            if (publication.offer(message, 0, SIZE) > 0)
            {
                i++;
            }
            bus.doWork();
            pollAll(subscriptions, next);
        }
        await(() ->
        {
            pollAll(subscriptions, next);
            return next[0] == count && next[1] == count && next[2] == count;
        }, "every message to reach every subscriber");

        final long logCommit = ByteBuffer.wrap(Files.readAllBytes(log)).order(ByteOrder.nativeOrder())
            .getLong(BusTestProcess.WINDOW + RingDescriptor.LOG_COMMIT_OFFSET);
        assertEquals(publication.position(), logCommit, "the log's commit position is the published position");
        for (final Path ring : files(stream(31), "ring-*.dat"))
        {
            final byte[] bytes = Files.readAllBytes(ring);
            final int capacity = bytes.length - RingDescriptor.TRAILER_LENGTH;
            final ByteBuffer trailer = ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder());
            final int policy = trailer.getInt(capacity + RingDescriptor.POLICY_OFFSET);
            final long ringCommit = trailer.getLong(capacity + RingDescriptor.COMMIT_POSITION_OFFSET);
            final int written = nonZero(bytes, capacity);
            if (SlowConsumerPolicy.CONFLATE.ordinal() == policy)
            {
                assertTrue(written >= count * FRAME / 2, "frames are copied into a conflating ring: " + written);
                assertTrue(ringCommit > 0 && ringCommit <= logCommit, "a conflating ring's own commit position: " +
                    ringCommit);
            }
            else
            {
                assertEquals(0, written, "nothing is copied into the ring of a " +
                    SlowConsumerPolicy.values()[policy] + " subscriber");
                assertEquals(RingDescriptor.FOLLOW_LOG_COMMIT, ringCommit, "a " + SlowConsumerPolicy.values()[policy] +
                    " subscriber that keeps up follows the log's commit position, with no store into its ring");
            }
        }

        publication.close();
        await(() -> !Files.exists(log), "the closed publication to delete its log");
    }

    /**
     * Every page read or written on the data path is in the page tables of the processes that map it before the
     * first message, on both sides: a page touched for the first time on the data path costs a fault inside a round
     * trip. That is all of the log, all of a conflating subscriber's ring, and of the ring of a subscriber that
     * reads the log only the metadata: bringing in its unused frame area cost the publisher's duty cycle 6-7 ms.
     */
    @Test
    void shouldMapEveryPageOnTheDataPathBeforeTheFirstMessage() throws Exception
    {
        launch(BusConfiguration.HEARTBEAT_INTERVAL_DEFAULT_NS);
        // Rings of 4 MiB, so that a ring's frame area left out shows plainly against what a fault maps around it.
        final String channel = "warp:ipc?stream=36";
        final Subscription block = bus.addSubscription(channel + "|ring=4m");
        final Subscription conflate = bus.addSubscription(channel + "|ring=4m|policy=conflate");
        final ExclusivePublication publication = bus.addExclusivePublication(channel + "|window=8m|conflation-key=" +
            BusTestProcess.KEY_OFFSET + ":4");
        await(() -> 2 == publication.subscriberCount() && block.isConnected() && conflate.isConnected(),
            "the subscribers to join");

        final Path log = IpcDirectory.logFile(stream(36), ProcessHandle.current().pid(), publication.sessionId());
        final List<long[]> logMappings = residentAndSize(log);
        assertEquals(2, logMappings.size(), "the log is mapped by its writer and by the block subscriber");
        for (final long[] mapping : logMappings)
        {
            assertEquals(mapping[1], mapping[0], "resident kB of a mapping of the log of " + mapping[1] + " kB");
        }
        final List<Path> rings = files(stream(36), "ring-*.dat");
        assertEquals(2, rings.size(), "two rings: " + rings);
        for (final Path ring : rings)
        {
            final List<long[]> ringMappings = residentAndSize(ring);
            assertEquals(2, ringMappings.size(), "the ring is mapped by its subscriber and by the publisher");
            final ByteBuffer metadata = ByteBuffer.allocate(RingDescriptor.TRAILER_LENGTH)
                .order(ByteOrder.nativeOrder());
            try (FileChannel file = FileChannel.open(ring))
            {
                file.read(metadata, file.size() - RingDescriptor.TRAILER_LENGTH);
            }
            final SlowConsumerPolicy policy =
                SlowConsumerPolicy.values()[metadata.getInt(RingDescriptor.POLICY_OFFSET)];
            for (final long[] mapping : ringMappings)
            {
                assertTrue(mapping[1] > 4096, "a mapping of " + mapping[1] + " kB, not the 4 MiB ring's");
                if (SlowConsumerPolicy.CONFLATE == policy)
                {
                    assertEquals(mapping[1], mapping[0], "resident kB of a conflating ring of " + mapping[1] + " kB");
                }
                else
                {
                    // The metadata's page, and what the kernel maps around a fault (64 KiB by default).
                    assertTrue(mapping[0] <= 128, "resident kB of a " + policy + " ring of " + mapping[1] + " kB: " +
                        mapping[0]);
                }
            }
        }
    }

    /**
     * A joining subscriber brings the publisher's log in a slice per duty cycle: all of an 8 MiB log at once stalled
     * every stream on its bus for milliseconds. Its image opens only once the whole log is in.
     */
    @Test
    void shouldBringTheLogInASlicePerDutyCycleBeforeOpeningTheImage() throws Exception
    {
        launch(BusConfiguration.HEARTBEAT_INTERVAL_DEFAULT_NS);
        final String channel = "warp:ipc?stream=37";
        final Subscription subscription = bus.addSubscription(channel + "|ring=4m");
        final ExclusivePublication publication = bus.addExclusivePublication(channel + "|window=8m");
        final Path log = IpcDirectory.logFile(stream(37), ProcessHandle.current().pid(), publication.sessionId());
        final int window = 8 * 1024 * 1024;
        final List<Long> partly = new ArrayList<>();
        int cycles = 0;
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!subscription.isConnected())
        {
            assertTrue(System.nanoTime() < deadline, "the subscriber to join; cycles " + cycles + ", partly in: " +
                partly);
            bus.doWork();
            final List<long[]> mappings = residentAndSize(log);
            if (2 == mappings.size() && !subscription.isConnected())
            {
                cycles++;
                // The writer's mapping is all in from the start; the subscriber's is the other one. The kernel
                // maps a whole page-cache folio (up to 1 MiB here) at a fault, so the steps are its, not ours.
                final long resident = Math.min(mappings.get(0)[0], mappings.get(1)[0]);
                if (resident > 0 && resident < window / 1024)
                {
                    partly.add(resident);
                }
            }
        }
        final List<long[]> mappings = residentAndSize(log);
        assertEquals(2, mappings.size(), "the log is mapped by its writer and by the subscriber");
        for (final long[] mapping : mappings)
        {
            assertEquals(mapping[1], mapping[0], "resident kB of a mapping of the log of " + mapping[1] + " kB");
        }
        assertTrue(cycles >= window / IpcSubscriptionEndpoint.LOG_TOUCH_PER_CYCLE - 1, "the log came in over " +
            cycles + " duty cycles");
        assertFalse(partly.isEmpty(), "no duty cycle ended with the log partly in");
    }

    /**
     * A subscription that closes, or a publication that closes, while the log is still coming in: the subscriber lets
     * go of the log, and in the second case joins the next publisher of the stream.
     */
    @Test
    void shouldLetGoOfTheLogWhenEitherSideLeavesWhileItIsComingIn() throws Exception
    {
        launch(BusConfiguration.HEARTBEAT_INTERVAL_DEFAULT_NS);
        final String channel = "warp:ipc?stream=38";
        final ExclusivePublication first = bus.addExclusivePublication(channel + "|window=8m");
        final String firstLog = IpcDirectory.logFile(stream(38), ProcessHandle.current().pid(), first.sessionId())
            .toRealPath().toString();

        final Subscription leaving = bus.addSubscription(channel + "|ring=4m");
        await(() -> 2 == mappingsOf(firstLog), "the subscriber to start bringing the log in");
        assertFalse(leaving.isConnected(), "connected before the log was in");
        leaving.close();
        await(() -> 1 == mappingsOf(firstLog) && 0 == first.subscriberCount(),
            "the closed subscription to let go of the log and the publisher to see it leave");
        assertEquals(List.of(), files(stream(38), "ring-*.dat"), "the closed subscription's ring is deleted");

        final List<Integer> joined = new ArrayList<>();
        final Subscription staying = bus.addSubscription(channel + "|ring=4m", new ImageListener()
        {
            @Override
            public void onAvailable(final Image image)
            {
                joined.add(image.sessionId());
            }
        });
        await(() -> 2 == mappingsOf(firstLog), "the next subscriber to start bringing the log in");
        first.close();
        // The publisher's own mapping stays until its log is collected (see LogBuffer.deleteFile).
        await(() -> mappingsOf(firstLog) <= 1 && !Files.exists(Path.of(firstLog)),
            "the subscriber to let go of the closed publisher's log, and the publisher to delete it");
        assertEquals(List.of(), joined, "an image of a publisher that closed before its log was in");
        final ExclusivePublication second = bus.addExclusivePublication(channel + "|window=8m");
        await(staying::isConnected, "the subscriber to join the next publisher");
        assertEquals(List.of(second.sessionId()), joined, "the images opened");
        final long[] next = new long[1];
        BusTestProcess.fill(message, 7, SIZE, 16);
        await(() -> second.offer(message, 0, SIZE) > 0, "the offer to be accepted");
        await(() ->
        {
            pollAll(new Subscription[] { staying }, next);
            return 8 == next[0];
        }, "the next publisher's message to arrive");
    }

    /**
     * Subscriptions of one process that read the same log share one mapping of it: a mapping each cost every
     * subscription its own page walks (docs/performance.md). The mapping outlives a subscription that leaves while
     * others read, and goes with the last one; one that joins later opens at once, the shared mapping being in.
     */
    @Test
    void shouldShareOneMappingOfTheLogAmongTheSubscriptionsOfAProcess() throws Exception
    {
        launch(BusConfiguration.HEARTBEAT_INTERVAL_DEFAULT_NS);
        final String channel = "warp:ipc?stream=39";
        final ExclusivePublication publication = bus.addExclusivePublication(channel + "|window=8m");
        final String log = IpcDirectory.logFile(stream(39), ProcessHandle.current().pid(), publication.sessionId())
            .toRealPath().toString();
        final Subscription[] subscriptions = {
            bus.addSubscription(channel + "|ring=4m"),
            bus.addSubscription(channel + "|ring=4m|policy=drop"),
            bus.addSubscription(channel + "|ring=4m") };
        await(() -> 3 == publication.subscriberCount() &&
            Arrays.stream(subscriptions).allMatch(Subscription::isConnected), "the subscribers to join");
        assertEquals(2, mappingsOf(log), "the writer's mapping of the log, and one for the three subscriptions");

        final long[] expected = new long[subscriptions.length];
        publishAndReceive(publication, subscriptions, expected, 0, 1_000);
        subscriptions[0].close();
        await(() -> 2 == publication.subscriberCount(), "the first subscription to leave");
        assertEquals(2, mappingsOf(log), "the others still read through the shared mapping");
        publishAndReceive(publication, Arrays.copyOfRange(subscriptions, 1, 3), Arrays.copyOfRange(expected, 1, 3),
            1_000, 2_000);

        // A subscription joining now finds the log's mapping in: once attached, its image opens within a cycle or
        // two instead of after a slice of the log per duty cycle.
        final Subscription late = bus.addSubscription(channel + "|ring=4m");
        await(() -> 3 == publication.subscriberCount(), "the publisher to attach the late subscription");
        int cycles = 0;
        while (!late.isConnected() && cycles < 1_000)
        {
            bus.doWork();
            cycles++;
        }
        final int slices = 8 * 1024 * 1024 / IpcSubscriptionEndpoint.LOG_TOUCH_PER_CYCLE;
        assertTrue(late.isConnected(), "the late subscription to join; events: " + events);
        assertTrue(cycles < slices - 1, "joined " + cycles + " duty cycles after its attach: the log was brought in " +
            "again, " + slices + " slices");
        assertEquals(2, mappingsOf(log), "the late subscription shares the mapping too");

        subscriptions[1].close();
        subscriptions[2].close();
        late.close();
        await(() -> 0 == publication.subscriberCount() && 1 == mappingsOf(log),
            "the last subscription to leave to unmap the log, the writer's mapping staying");
    }

    private void publishAndReceive(final ExclusivePublication publication, final Subscription[] subscriptions,
        final long[] expected, final long from, final long to)
    {
        for (long value = from; value < to; value++)
        {
            BusTestProcess.fill(message, value, SIZE, 0);
            await(() -> publication.offer(message, 0, SIZE) > 0, "the offer to be accepted");
        }
        await(() ->
        {
            for (int s = 0; s < subscriptions.length; s++)
            {
                final int index = s;
                subscriptions[s].poll((buffer, offset, length, header) ->
                {
                    assertTrue(isMessage(buffer, offset, expected[index]), "subscription " + index + " expected " +
                        expected[index]);
                    expected[index]++;
                }, 256);
            }
            return Arrays.stream(expected).allMatch((next) -> next == to);
        }, "every subscription to receive up to " + to);
    }

    /**
     * Mappings of a file in this process, deleted or not, from {@code /proc/self/maps}.
     */
    private static int mappingsOf(final String file)
    {
        try
        {
            return (int)Files.readAllLines(Path.of("/proc/self/maps")).stream()
                .filter((line) -> line.endsWith(" " + file) || line.endsWith(" " + file + " (deleted)")).count();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Resident and mapped kB of each mapping of a file in this process, from {@code /proc/self/smaps}.
     */
    private static List<long[]> residentAndSize(final Path file) throws IOException
    {
        final String name = file.toRealPath().toString();
        final List<long[]> mappings = new ArrayList<>();
        long[] current = null;
        for (final String line : Files.readAllLines(Path.of("/proc/self/smaps")))
        {
            if (!line.isEmpty() && Character.digit(line.charAt(0), 16) >= 0)
            {
                current = line.endsWith(" " + name) ? new long[2] : null;
                if (null != current)
                {
                    mappings.add(current);
                }
            }
            else if (null != current && line.startsWith("Size:"))
            {
                current[1] = kilobytes(line);
            }
            else if (null != current && line.startsWith("Rss:"))
            {
                current[0] = kilobytes(line);
            }
        }
        return mappings;
    }

    private static long kilobytes(final String smapsLine)
    {
        final String[] fields = smapsLine.trim().split("\\s+");
        return Long.parseLong(fields[1]);
    }

    /**
     * Messages of lengths that do not repeat with the window, over several laps of the log: the first lap is used as
     * the file was created (zeroes), every later one only after it is cleaned, so no frame of an earlier lap is ever
     * read as a new one.
     */
    @Test
    void shouldDeliverEveryLapOfTheLogOnceInOrder()
    {
        launch(BusConfiguration.HEARTBEAT_INTERVAL_DEFAULT_NS);
        final String channel = "warp:ipc?stream=35";
        final Subscription subscription = bus.addSubscription(channel);
        final ExclusivePublication publication = bus.addExclusivePublication(channel);
        await(() -> 1 == publication.subscriberCount(), "the subscriber to join");

        final UnsafeBuffer payload = new UnsafeBuffer(ByteBuffer.allocateDirect(256));
        final long[] next = new long[1];
        final FragmentHandler handler = (buffer, offset, length, header) ->
        {
            final long index = buffer.getLong(offset);
            if (index != next[0] || length != lapLength(index) || buffer.getByte(offset + length - 1) != (byte)index)
            {
                fail("message " + next[0] + " expected, read index " + index + " of " + length + " bytes");
            }
            next[0]++;
        };
        final long count = 4L * BusTestProcess.WINDOW / 128;
        long offered = 0;
        while (next[0] < count)
        {
            Await.checkInterrupted();
            if (offered < count)
            {
                final int length = lapLength(offered);
                payload.putLong(0, offered);
                payload.putByte(length - 1, (byte)offered);
                if (publication.offer(payload, 0, length) > 0)
                {
                    offered++;
                }
            }
            bus.doWork();
            subscription.poll(handler, 64);
        }
        assertTrue(publication.position() > 3L * BusTestProcess.WINDOW, "over three laps of the window: " +
            publication.position());
        assertEquals(0, subscription.poll(handler, 64), "nothing after the last message");
    }

    private static int lapLength(final long index)
    {
        return 16 + (int)(index % 97);
    }

    @Test
    void shouldDeleteALogLeftByAPublisherThatExited() throws Exception
    {
        launch(BusConfiguration.HEARTBEAT_INTERVAL_DEFAULT_NS);
        final Path left = IpcDirectory.logFile(stream(32), Integer.MAX_VALUE, 7);
        try (RandomAccessFile file = new RandomAccessFile(left.toFile(), "rw"))
        {
            file.setLength(BusTestProcess.WINDOW);
        }

        final ExclusivePublication publication = bus.addExclusivePublication("warp:ipc?stream=32");

        assertFalse(Files.exists(left), "the stream's new publisher deletes what an exited one left");
        assertEquals(List.of(IpcDirectory.logFile(stream(32), ProcessHandle.current().pid(),
            publication.sessionId())), files(stream(32), "log-*.dat"));
    }

    @Test
    void shouldNameALogThatCannotBeReadAndNotConnect() throws Exception
    {
        launch(BusConfiguration.HEARTBEAT_INTERVAL_DEFAULT_NS);
        final String channel = "warp:ipc?stream=33";
        final ExclusivePublication publication = bus.addExclusivePublication(channel);
        final Path log = IpcDirectory.logFile(stream(33), ProcessHandle.current().pid(), publication.sessionId());
        Files.delete(log);
        try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "rw"))
        {
            file.setLength(4096);
        }

        final Subscription subscription = bus.addSubscription(channel);

        await(() -> events.stream().anyMatch((e) -> e.contains("subscription " + channel +
            " cannot read its publisher's log: publication log " + log + " holds 4096 bytes but its publisher " +
            "declared a window of " + BusTestProcess.WINDOW + " (a file of " + (BusTestProcess.WINDOW + 4096) +
            ")")), "the subscriber to name the log it cannot read");
        final long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
        while (System.nanoTime() - until < 0)
        {
            Await.checkInterrupted();
            bus.doWork();
        }
        assertEquals(0, subscription.imageCount(), "no image over a log that cannot be read");
        assertEquals(1, events.stream().filter((e) -> e.contains("cannot read its publisher's log")).count(),
            "tried again only after the liveness timeout (1 s), not on every scan: " + events);
    }

    @Test
    void shouldLeaveTheStreamFreeWhenAPublicationFailsAfterTakingIt() throws Exception
    {
        bus = Bus.launch(new BusContext().directory(dir).name("test").threadingMode(ThreadingMode.INVOKER)
            .termLength(BusTestProcess.TERM_LENGTH).window(4 * BusTestProcess.TERM_LENGTH)
            .ringCapacity(BusTestProcess.TERM_LENGTH).errorHandler((throwable) -> events.add(throwable.getMessage())));
        final List<ExclusivePublication> publications = new ArrayList<>();
        int streamId = 100;
        RuntimeException failure = null;
        while (null == failure && streamId < 2_000)
        {
            try
            {
                publications.add(bus.addExclusivePublication("warp:ipc?stream=" + streamId));
                streamId++;
            }
            catch (final RuntimeException ex)
            {
                failure = ex;
            }
        }
        assertTrue(null != failure, "the counters file never filled up");
        assertEquals(List.of(), files(stream(streamId), "log-*.dat"), "the failed publication's log is deleted");

        // Freed counters are reused a second after (CountersFile.COUNTER_FREE_TO_REUSE_TIMEOUT_MS): until then the
        // same stream keeps failing for want of counters, never because the failed attempts kept its lock.
        publications.remove(0).close();
        final int failedStream = streamId;
        final ExclusivePublication[] publication = new ExclusivePublication[1];
        await(() ->
        {
            try
            {
                publication[0] = bus.addExclusivePublication("warp:ipc?stream=" + failedStream);
                return true;
            }
            catch (final IllegalStateException ex)
            {
                assertTrue(ex.getMessage().contains("unable to allocate counter"), ex.getMessage());
                return false;
            }
        }, "a counter to be free again");
        assertEquals(List.of(IpcDirectory.logFile(stream(streamId), ProcessHandle.current().pid(),
            publication[0].sessionId())), files(stream(streamId), "log-*.dat"), "after: " + failure.getMessage());
    }

    /**
     * A publication refused for want of counters gives back those it took before the one it could not get. With
     * three counters free it takes its back-pressure, position and limit counters and fails on the fourth; as many
     * counters are allocated afterwards as before.
     */
    @Test
    void shouldGiveBackTheCountersARefusedPublicationTook() throws IOException
    {
        launch(BusConfiguration.HEARTBEAT_INTERVAL_DEFAULT_NS);
        final CountersManager manager = bus.conductor().counters().manager();
        while (manager.available() > 3)
        {
            manager.newCounter("filler");
        }
        final int allocated = allocatedCounters(manager);

        final IllegalStateException refused = assertThrows(IllegalStateException.class,
            () -> bus.addExclusivePublication("warp:ipc?stream=40"));
        assertTrue(refused.getMessage().contains("unable to allocate counter"), refused.getMessage());
        assertEquals(allocated, allocatedCounters(manager), "counters kept by the refused publication");
        assertEquals(List.of(), files(stream(40), "log-*.dat"), "the refused publication's log is deleted");
    }

    private static int allocatedCounters(final CountersManager manager)
    {
        final int[] count = new int[1];
        manager.forEach((counterId, typeId, keyBuffer, label) -> count[0]++);
        return count[0];
    }

    /**
     * A drop subscriber more than its ring behind (but less than its drop lag) may read only a ring ahead of what
     * it consumed: its ring then carries that bound, below the log's commit position. Once it has caught up it
     * follows the log's commit position again, and it receives every message once, in order.
     */
    @Test
    void shouldBoundASubscriberARingBehindAndLetItFollowTheLogOnceCaughtUp() throws Exception
    {
        launch(BusConfiguration.HEARTBEAT_INTERVAL_DEFAULT_NS);
        final String channel = "warp:ipc?stream=39";
        final int ring = 64 * 1024;
        final Subscription behind = bus.addSubscription(channel + "|policy=drop|ring=64k");
        final ExclusivePublication publication = bus.addExclusivePublication(channel + "|lag=512k");
        await(() -> 1 == publication.subscriberCount(), "the subscriber to join");
        final Path ringFile = files(stream(39), "ring-*.dat").get(0);
        final Path log = IpcDirectory.logFile(stream(39), ProcessHandle.current().pid(), publication.sessionId());

        final int count = 3 * ring / FRAME;
        for (int i = 0; i < count; )
        {
            if (offer(publication, i))
            {
                i++;
            }
            bus.doWork();
        }
        bus.doWork();
        assertEquals(publication.position(), commitInTrailer(log, BusTestProcess.WINDOW +
            RingDescriptor.LOG_COMMIT_OFFSET), "the log commits everything published");
        final long bound = commitInTrailer(ringFile, ring + RingDescriptor.COMMIT_POSITION_OFFSET);
        assertTrue(bound > 0 && bound <= ring, "the ring bounds a subscriber a ring behind to one ring ahead of " +
            "what it consumed (nothing yet): " + bound);

        final long[] next = { 0 };
        await(() ->
        {
            behind.poll((buffer, offset, length, header) ->
            {
                final long value = buffer.getLong(offset);
                if (value != next[0] || !isMessage(buffer, offset, value))
                {
                    fail("expected message " + next[0] + " intact, got " + value);
                }
                next[0]++;
            }, 64);
            return next[0] == count;
        }, "every message to arrive");
        await(() -> RingDescriptor.FOLLOW_LOG_COMMIT == commitInTrailer(ringFile, ring +
            RingDescriptor.COMMIT_POSITION_OFFSET), "the caught-up subscriber to follow the log again");
        assertEquals(0, behind.missingMessages(), "nothing missed");
        assertTrue(events.stream().noneMatch((e) -> e.contains("dropped")), "not dropped: " + events);
    }

    private static long commitInTrailer(final Path file, final int offset)
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            final ByteBuffer word = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.nativeOrder());
            channel.read(word, offset);
            return word.getLong(0);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * A drop subscriber stopped inside its handler, on a frame in the publisher's log, is dropped while the
     * publisher goes on. The frame under the handler must not change: the publisher moves what it had committed
     * into the subscriber's ring and holds its log (back-pressuring offers) until the subscriber has let go of it.
     * A subscriber whose heartbeat is an hour old by the publisher's wall clock (as after a step of either's) is
     * not silent while the heartbeat changes: the hold is the same.
     *
     * @param clockStepMs how far the bus's wall clock, which its heartbeats carry, is from the system's.
     */
    @ParameterizedTest(name = "wall clock stepped by {0} ms")
    @ValueSource(longs = { 0, -3_600_000 })
    void shouldHoldTheLogUnderADroppedSubscribersHandlerUntilItLetsGo(final long clockStepMs) throws Exception
    {
        launch(TimeUnit.MILLISECONDS.toNanos(500), () -> System.currentTimeMillis() + clockStepMs);
        final String channel = "warp:ipc?stream=34";
        final Subscription fast = bus.addSubscription(channel);
        final Subscription slow = bus.addSubscription(channel + "|policy=drop");
        final ExclusivePublication publication = bus.addExclusivePublication(channel + "|lag=128k");
        await(() -> 2 == publication.subscriberCount(), "both subscribers to join");
        final long[] published = { 0 };
        final long[] fastNext = { 0 };
        while (published[0] < 1_000)
        {
            offerAndCycle(publication, published, fast, fastNext);
        }

        final int[] refused = { 0 };
        final boolean[] intact = { false };
        final int polled = slow.poll((buffer, offset, length, header) ->
        {
            // Inside the handler: the publisher drops this subscriber and tries to lap its log several times.
            while (published[0] < 40_000 && refused[0] < 5_000)
            {
                final long before = published[0];
                offerAndCycle(publication, published, fast, fastNext);
                refused[0] = published[0] == before ? refused[0] + 1 : 0;
            }
            intact[0] = isMessage(buffer, offset, 0);
        }, 1);

        assertEquals(1, polled);
        assertTrue(events.stream().anyMatch((e) -> e.contains("dropped subscriber")), "dropped: " + events);
        assertTrue(refused[0] >= 5_000, "offers held while the dropped subscriber is in its handler, but " +
            published[0] + " were published");
        assertTrue(published[0] < 1_000 + BusTestProcess.WINDOW / FRAME, "held within one window: " +
            published[0]);
        assertTrue(intact[0], "the frame under the handler was overwritten");

        // Let go: the rest of what was committed comes from the ring, intact and in order; the publisher goes on,
        // and the subscriber rejoins and is told exactly what it missed.
        final long[] slowNext = { 1 };
        final long[] delivered = { 1 };
        final long target = published[0] + 1_000;
        final FragmentHandler check = (buffer, offset, length, header) ->
        {
            delivered[0]++;
            final long value = buffer.getLong(offset);
            if (value < slowNext[0] || !isMessage(buffer, offset, value))
            {
                fail("expected message " + slowNext[0] + " or later intact, got " + value);
            }
            if (slowNext[0] < 1_000 && value != slowNext[0])
            {
                fail("message " + slowNext[0] + ", committed before the drop, lost: got " + value);
            }
            slowNext[0] = value + 1;
        };
        await(() ->
        {
            offerAndCycle(publication, published, fast, fastNext);
            slow.poll(check, 64);
            return published[0] >= target;
        }, "the publisher to go on");
        Await.until(() -> "every message delivered once or reported missing: delivered " + delivered[0] +
            ", missing " + slow.missingMessages() + ", published " + published[0] + "; events: " + events, 10_000,
            bus::doWork, () ->
            {
                fast.poll((buffer, offset, length, header) -> { }, 256);
                slow.poll(check, 64);
                return delivered[0] + slow.missingMessages() == published[0];
            });
        assertTrue(slow.missingMessages() > 0, "the drop cost it messages, reported as missing");
        assertEquals(1, slow.imageCount(), "rejoined after the drop");
    }

    private void offerAndCycle(
        final Publication publication, final long[] published, final Subscription fast, final long[] fastNext)
    {
        if (offer(publication, published[0]))
        {
            published[0]++;
        }
        bus.doWork();
        fast.poll((buffer, offset, length, header) -> fastNext[0] = buffer.getLong(offset) + 1, 256);
    }

    /**
     * Offer message {@code value} (see {@link #isMessage}).
     *
     * @return true when the publication took it.
     */
    private boolean offer(final Publication publication, final long value)
    {
        Await.checkInterrupted();
        BusTestProcess.fill(message, value, SIZE, 0);
        return publication.offer(message, 0, SIZE) > 0;
    }

    private static boolean isMessage(final DirectBuffer buffer, final int offset, final long value)
    {
        final UnsafeBuffer expected = new UnsafeBuffer(new byte[SIZE]);
        BusTestProcess.fill(expected, value, SIZE, 0);
        for (int i = 0; i < SIZE; i++)
        {
            if (expected.getByte(i) != buffer.getByte(offset + i))
            {
                return false;
            }
        }
        return true;
    }

    private static void pollAll(final Subscription[] subscriptions, final long[] next)
    {
        for (int s = 0; s < subscriptions.length; s++)
        {
            final int index = s;
            subscriptions[s].poll((buffer, offset, length, header) -> next[index] = buffer.getLong(offset) + 1, 256);
        }
    }

    private static int nonZero(final byte[] bytes, final int length)
    {
        int count = 0;
        for (int i = 0; i < length; i++)
        {
            if (0 != bytes[i])
            {
                count++;
            }
        }
        return count;
    }

    private Path stream(final int streamId)
    {
        return IpcDirectory.streamDirectory(dir.resolve("ipc"), streamId);
    }

    private static List<Path> files(final Path directory, final String glob) throws IOException
    {
        final List<Path> found = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, glob))
        {
            files.forEach(found::add);
        }
        return found;
    }

    private void launch(final long heartbeatIntervalNs)
    {
        launch(heartbeatIntervalNs, SystemEpochClock.INSTANCE);
    }

    private void launch(final long heartbeatIntervalNs, final EpochClock clock)
    {
        bus = Bus.launch(new BusContext().directory(dir).name("test").threadingMode(ThreadingMode.INVOKER)
            .epochClock(clock).heartbeatIntervalNs(heartbeatIntervalNs).livenessTimeoutNs(10 * heartbeatIntervalNs)
            .termLength(BusTestProcess.TERM_LENGTH).window(BusTestProcess.WINDOW).ringCapacity(BusTestProcess.RING)
            .errorHandler((throwable) -> events.add("error: " + throwable.getMessage())));
    }

    private void await(final BooleanSupplier condition, final String what)
    {
        Await.until(() -> what + "; events: " + events, 10_000, bus::doWork, condition);
    }
}
