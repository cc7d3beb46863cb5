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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.warpbus.bus.protocol.FrameDescriptor;
import io.warpbus.bus.protocol.RingDescriptor;
import io.warpbus.iwarp.ThreadingMode;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The poll of one image over a ring written here frame by frame, as a publisher (or a peer writing into the ring
 * over RDMA) would: frames delivered in order, sequence gaps and duplicates, and what no publisher writes.
 */
@Timeout(60)
class ImageTest
{
    private static final int CAPACITY = 4096;
    private static final int SESSION = 42;
    private static final int STREAM = 7;

    @TempDir
    Path directory;

    private final List<Throwable> errors = new CopyOnWriteArrayList<>();
    private final UnsafeBuffer frames = new UnsafeBuffer(ByteBuffer.allocateDirect(CAPACITY));
    private final UnsafeBuffer control = new UnsafeBuffer(ByteBuffer.allocateDirect(RingDescriptor.TRAILER_LENGTH));
    private final CountersManager counters = new CountersManager(
        new UnsafeBuffer(ByteBuffer.allocateDirect(16 * CountersReader.METADATA_LENGTH)),
        new UnsafeBuffer(ByteBuffer.allocateDirect(16 * CountersReader.COUNTER_LENGTH)));
    private final List<long[]> gaps = new ArrayList<>();
    private Bus bus;
    private Subscription subscription;
    private long tail;

    @BeforeEach
    void launch()
    {
        bus = Bus.launch(new BusContext().directory(directory).name("image-test")
            .threadingMode(ThreadingMode.INVOKER).errorHandler(errors::add));
        final AtomicCounter counter = counters.newCounter("gaps");
        subscription = new Subscription(bus, ChannelUri.parse("warp:ipc?stream=" + STREAM), new ImageListener()
        {
            @Override
            public void onGap(final Image image, final long fromSequence, final long toSequence, final long position)
            {
                gaps.add(new long[] { fromSequence, toSequence, position });
            }
        }, 1, counter, counter, counter);
    }

    @AfterEach
    void close()
    {
        bus.close();
    }

    @Test
    void shouldDeliverDataFramesInOrderWithTheirHeadersAndSkipPadding()
    {
        final Image image = image(0, 100);
        final long first = append(100, 16);
        final long pad = appendFrame(FrameDescriptor.TYPE_PAD, 200, FrameDescriptor.HEADER_LENGTH + 24);
        final long second = append(101, 40);
        commit();

        final List<String> seen = new ArrayList<>();
        final int fragments = image.poll((buffer, offset, length, header) ->
        {
            seen.add(header.sequence() + "@" + header.position() + " session " + header.sessionId() + " stream " +
                header.streamId() + " " + length + " B first byte " + buffer.getByte(offset));
            assertEquals(image, header.image());
        }, 10);

        assertEquals(2, fragments);
        assertEquals(List.of(
            "100@" + first + " session 42 stream 7 16 B first byte 100",
            "101@" + second + " session 42 stream 7 40 B first byte 101"), seen);
        assertTrue(pad > first && second > pad);
        assertEquals(101, image.lastSequence());
        assertEquals(tail, image.position());
        assertEquals(tail, control.getLong(RingDescriptor.CONSUMED_POSITION_OFFSET));
        assertTrue(image.isDrained());
        assertFalse(image.isClosed());
    }

    @Test
    void shouldReportAGapOnceAndSkipADuplicate()
    {
        final Image image = image(0, 0);
        for (final long sequence : new long[] { 0, 1, 5, 3, 6 })
        {
            append(sequence, 8);
        }
        commit();

        final List<Long> delivered = new ArrayList<>();
        image.poll((buffer, offset, length, header) -> delivered.add(header.sequence()), 2);
        assertEquals(List.of(0L, 1L), delivered);
        assertEquals(1, image.lastSequence());
        image.poll((buffer, offset, length, header) -> delivered.add(header.sequence()), 10);

        assertEquals(List.of(0L, 1L, 5L, 6L), delivered);
        assertEquals(1, gaps.size());
        assertEquals(2, gaps.get(0)[0]);
        assertEquals(4, gaps.get(0)[1]);
        assertEquals(1, image.gapCount());
        assertEquals(1, image.duplicateCount());
        assertEquals(6, image.lastSequence());
    }

    @Test
    void shouldRedeliverAnAbortedFragmentAndReportItsGapOnlyOnce()
    {
        final Image image = image(0, 0);
        append(0, 8);
        append(3, 8);
        commit();

        final List<Long> delivered = new ArrayList<>();
        final int[] calls = { 0 };
        image.controlledPoll((buffer, offset, length, header) ->
        {
            calls[0]++;
            if (3 == header.sequence() && calls[0] == 2)
            {
                return ControlledFragmentHandler.Action.ABORT;
            }
            delivered.add(header.sequence());
            return ControlledFragmentHandler.Action.CONTINUE;
        }, 10);
        assertEquals(List.of(0L), delivered);
        assertEquals(0, image.lastSequence());

        image.controlledPoll((buffer, offset, length, header) ->
        {
            delivered.add(header.sequence());
            return ControlledFragmentHandler.Action.CONTINUE;
        }, 10);
        assertEquals(List.of(0L, 3L), delivered);
        assertEquals(1, gaps.size());
        assertEquals(3, image.lastSequence());
    }

    /**
     * Lengths no publisher writes where a frame starts: each closes the image after the frames before it.
     */
    @ParameterizedTest
    @ValueSource(ints = { 0, 4, -8, 16, Integer.MAX_VALUE, Integer.MAX_VALUE - 6, Integer.MIN_VALUE, CAPACITY })
    void shouldCloseOnACorruptLengthAfterDeliveringWhatCameBefore(final int length)
    {
        final Image image = image(0, 0);
        append(0, 8);
        append(1, 8);
        final long bad = appendFrame(FrameDescriptor.TYPE_DATA, 2, 64);
        frames.putInt((int)bad, length, ByteOrder.LITTLE_ENDIAN);
        append(3, 8);
        commit();

        assertClosedAt(image, bad, length, 2);
    }

    @Test
    void shouldCloseOnAFrameRunningPastTheEndOfTheRing()
    {
        final long start = CAPACITY - 64;
        final Image image = image(start, 0);
        tail = start;
        final long bad = appendFrame(FrameDescriptor.TYPE_DATA, 0, 128 - 4);
        tail = start + 128;
        commit();

        assertClosedAt(image, bad, 128 - 4, 0);
    }

    @Test
    void shouldCloseOnAFrameRunningPastTheCommitPosition()
    {
        final Image image = image(0, 0);
        append(0, 8);
        final long bad = append(1, 64);
        control.putLongOrdered(RingDescriptor.COMMIT_POSITION_OFFSET, bad + 32);

        assertClosedAt(image, bad, FrameDescriptor.HEADER_LENGTH + 64, 1);
    }

    @Test
    void shouldHoldOffACloseFromAHandlerUntilThePollEnds()
    {
        final Image image = image(0, 0);
        append(0, 8);
        append(1, 8);
        commit();

        final List<Boolean> closedFromHandler = new ArrayList<>();
        final int fragments = image.poll(
            (buffer, offset, length, header) -> closedFromHandler.add(image.tryClose("from a handler", false)), 10);

        assertEquals(2, fragments);
        assertEquals(List.of(false, false), closedFromHandler);
        assertFalse(image.isClosed());
        assertEquals(1, image.lastSequence());
        assertTrue(image.tryClose("after the poll", false));
        assertEquals(0, image.poll((buffer, offset, length, header) -> closedFromHandler.add(true), 10));
        assertEquals("after the poll", image.closeReason());
    }

    @Test
    @Timeout(30)
    void shouldNotCloseAnImageWhileAnotherThreadPollsIt() throws InterruptedException
    {
        for (int round = 0; round < 200; round++)
        {
            final Image image = image(0, 0);
            for (int sequence = 0; sequence < 64; sequence++)
            {
                append(sequence, 8);
            }
            commit();
            final AtomicBoolean closed = new AtomicBoolean();
            final AtomicInteger closedDuringDelivery = new AtomicInteger();
            final AtomicInteger delivered = new AtomicInteger();
            final Thread poller = new Thread(() ->
            {
                while (!image.isClosed())
                {
                    image.poll((buffer, offset, length, header) ->
                    {
                        delivered.incrementAndGet();
                        final long until = System.nanoTime() + 2_000;
                        while (System.nanoTime() - until < 0)
                        {
                            Thread.onSpinWait();
                        }
                        if (closed.get())
                        {
                            closedDuringDelivery.incrementAndGet();
                        }
                    }, 1);
                }
            });
            poller.start();
            for (int spins = round * 37; spins > 0; spins--)
            {
                Thread.onSpinWait();
            }
            while (!image.tryClose("closed mid-stream", false))
            {
                Thread.onSpinWait();
            }
            closed.set(true);
            poller.join(10_000);

            assertFalse(poller.isAlive());
            assertEquals(0, closedDuringDelivery.get(), "round " + round);
            assertEquals(delivered.get() - 1, image.lastSequence(), "round " + round);
        }
    }

    @Test
    void shouldRefuseToJoinOffAFrameBoundary()
    {
        assertNull(Image.joinProblem(0));
        assertNull(Image.joinProblem(1L << 40));
        assertEquals("initial position 12 is not a frame boundary (a non-negative multiple of 8)",
            Image.joinProblem(12));
        assertEquals("initial position -8 is not a frame boundary (a non-negative multiple of 8)",
            Image.joinProblem(-8));
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> image(4092, 0));
        assertEquals("initial position 4092 is not a frame boundary (a non-negative multiple of 8)",
            refused.getMessage());
        final IllegalArgumentException tooSmall = assertThrows(IllegalArgumentException.class,
            () -> new Image(subscription, SESSION, "test", new UnsafeBuffer(new byte[1024]), CAPACITY, control, 0,
                new JoinPolicy.JoinPoint(0, 0, -1, -1), null));
        assertTrue(tooSmall.getMessage().contains("frames of 4096 bytes in a buffer of 1024"), tooSmall.getMessage());
    }

    /**
     * Random streams with random bytes of the frame headers overwritten: the poll never throws, never hands out
     * bytes outside the ring, delivers rising sequences, and either reaches the commit position or closes naming
     * a corrupt frame.
     */
    @Test
    void shouldSurviveMutatedRings()
    {
        final Random random = new Random(0x5EED_1A6EL);
        for (int round = 0; round < 2000; round++)
        {
            frames.setMemory(0, CAPACITY, (byte)0);
            errors.clear();
            final long start = 8L * random.nextInt(CAPACITY / 8) + (long)CAPACITY * random.nextInt(3);
            final Image image = image(start, 0);
            tail = start;
            long sequence = 0;
            final List<Long> frameStarts = new ArrayList<>();
            while (tail - start < CAPACITY - 256)
            {
                final int payload = random.nextInt(120);
                final int room = CAPACITY - (int)(tail & (CAPACITY - 1));
                if (FrameDescriptor.alignedLength(payload) > room)
                {
                    frameStarts.add(appendFrame(FrameDescriptor.TYPE_PAD, 0, room));
                    continue;
                }
                sequence += random.nextInt(8) == 0 ? 2 : 1;
                frameStarts.add(append(sequence, payload));
            }
            commit();
            for (int m = 1 + random.nextInt(3); m > 0; m--)
            {
                final long frame = frameStarts.get(random.nextInt(frameStarts.size()));
                final int offset = (int)(frame & (CAPACITY - 1));
                final int at = offset + random.nextInt(Math.min(FrameDescriptor.HEADER_LENGTH, CAPACITY - offset));
                frames.putByte(at, (byte)random.nextInt(256));
            }

            final long[] last = { -1 };
            int polls = 0;
            while (!image.isClosed() && !image.isDrained() && polls++ < 1000)
            {
                image.poll((buffer, offset, length, header) ->
                {
                    assertTrue(offset >= FrameDescriptor.HEADER_LENGTH && length >= 0 && offset + length <= CAPACITY,
                        () -> "fragment at " + offset + " of " + length + " B");
                    assertTrue(header.sequence() > last[0], () -> header.sequence() + " after " + last[0]);
                    last[0] = header.sequence();
                }, 1 + random.nextInt(16));
            }
            if (image.isClosed())
            {
                assertTrue(image.closeReason().startsWith("corrupt frame in the ring at position "),
                    image.closeReason());
                assertEquals(1, errors.size());
            }
            else
            {
                assertEquals(tail, image.position());
                assertTrue(errors.isEmpty(), errors::toString);
            }
            assertEquals(last[0] < 0 ? -1 : last[0], image.lastSequence());
        }
    }

    private void assertClosedAt(final Image image, final long bad, final int length, final int deliveredBefore)
    {
        final List<Long> delivered = new ArrayList<>();
        image.poll((buffer, offset, fragmentLength, header) -> delivered.add(header.sequence()), 10);

        assertEquals(deliveredBefore, delivered.size());
        assertTrue(image.isClosed());
        final String reason = "corrupt frame in the ring at position " + bad + ": length " + length;
        assertTrue(image.closeReason().startsWith(reason), image.closeReason());
        assertEquals(deliveredBefore - 1, image.lastSequence());
        assertEquals(bad, image.position());
        assertEquals(1, errors.size());
        assertTrue(errors.get(0).getMessage().contains(reason), errors.get(0).getMessage());
        assertEquals(0, image.poll((buffer, offset, fragmentLength, header) -> delivered.add(-1L), 10));
    }

    private Image image(final long position, final long sequence)
    {
        tail = position;
        control.putLong(RingDescriptor.COMMIT_POSITION_OFFSET, position);
        return new Image(subscription, SESSION, "test", frames, CAPACITY, control, 0,
            new JoinPolicy.JoinPoint(position, sequence, -1, -1), null);
    }

    private long append(final long sequence, final int payloadLength)
    {
        final long position = appendFrame(FrameDescriptor.TYPE_DATA, sequence,
            FrameDescriptor.HEADER_LENGTH + payloadLength);
        if (payloadLength > 0)
        {
            frames.putByte((int)(position & (CAPACITY - 1)) + FrameDescriptor.HEADER_LENGTH, (byte)sequence);
        }
        return position;
    }

    private long appendFrame(final int type, final long sequence, final int length)
    {
        final long position = tail;
        final int offset = (int)(position & (CAPACITY - 1));
        if (FrameDescriptor.TYPE_DATA == type)
        {
            FrameDescriptor.putHeader(frames, offset, type, FrameDescriptor.FLAGS_UNFRAGMENTED, STREAM, SESSION, 0);
            FrameDescriptor.sequence(frames, offset, sequence);
        }
        else
        {
            // Padding may fill as little as 8 bytes at the end of the ring: its length and type only.
            frames.putShort(offset + FrameDescriptor.TYPE_OFFSET, (short)type, ByteOrder.LITTLE_ENDIAN);
        }
        FrameDescriptor.commit(frames, offset, length);
        tail = position + ((length + FrameDescriptor.FRAME_ALIGNMENT - 1) & -FrameDescriptor.FRAME_ALIGNMENT);
        return position;
    }

    private void commit()
    {
        control.putLongOrdered(RingDescriptor.COMMIT_POSITION_OFFSET, tail);
    }
}
