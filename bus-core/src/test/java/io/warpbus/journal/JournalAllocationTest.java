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
package io.warpbus.journal;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;

import io.warpbus.bus.protocol.FrameDescriptor;
import io.warpbus.testing.ThreadAllocation;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The journal's hot paths allocate nothing once warm: append of fields, append of a bus frame, and poll. Measured
 * in rounds of {@value #ROUND} operations after a warm-up; steady state is {@value #CLEAN_ROUNDS} consecutive
 * rounds without a byte allocated, which any per-record allocation would fail. (A one-off of a few hundred bytes,
 * such as Chronicle mapping its next 64 MiB chunk or the JIT settling, may fall in an early round.) All the records
 * fit in Chronicle's first chunk.
 */
@Timeout(60)
class JournalAllocationTest
{
    private static final int WARM_UP = 50_000;
    private static final int ROUND = 10_000;
    private static final int MAX_ROUNDS = 10;
    private static final int CLEAN_ROUNDS = 3;

    @TempDir
    Path dir;
    private long delivered;
    private long checksum;
    private final JournalHandler handler = (sequence, sessionId, flags, publisherNs, receiveNs, buffer, offset,
        length) ->
    {
        delivered++;
        checksum += sequence + buffer.getByte(offset + length - 1);
    };

    @Test
    void shouldAppendAndPollWithoutAllocating()
    {
        try (Journal journal = Journal.open(new JournalContext().directory(dir).rollCycle("FAST_DAILY")))
        {
            final JournalWriter writer = journal.writer(1);
            final UnsafeBuffer payload = new UnsafeBuffer(ByteBuffer.allocateDirect(256));
            final UnsafeBuffer frame = new UnsafeBuffer(ByteBuffer.allocateDirect(256));
            FrameDescriptor.putHeader(frame, 0, FrameDescriptor.TYPE_DATA, FrameDescriptor.FLAGS_UNFRAGMENTED, 1, 5, 0);
            final long[] sequence = { 0 };
            for (int i = 0; i < WARM_UP; i++)
            {
                writer.append(sequence[0]++, 5, 0, i, i, payload, 0, 8);
                FrameDescriptor.sequence(frame, 0, sequence[0]++);
                writer.append(frame, 0, FrameDescriptor.HEADER_LENGTH + 8);
            }
            final List<Long> appendRounds = measure(() ->
            {
                for (int i = 0; i < ROUND; i++)
                {
                    payload.putLong(0, i);
                    writer.append(sequence[0]++, 5, 0, i, i, payload, 0, 64);
                    FrameDescriptor.sequence(frame, 0, sequence[0]++);
                    writer.append(frame, 0, FrameDescriptor.HEADER_LENGTH + 100);
                }
                return 2 * ROUND;
            });

            while (sequence[0] < 2L * WARM_UP + (long)MAX_ROUNDS * ROUND)
            {
                writer.append(sequence[0]++, 5, 0, 0, 0, payload, 0, 64);
            }
            final JournalReader reader = journal.reader(1);
            for (int i = 0; i < WARM_UP; i++)
            {
                reader.poll(handler, 2);
            }
            delivered = 0;
            final List<Long> pollRounds = measure(() ->
            {
                int polled = 0;
                while (polled < ROUND)
                {
                    final int count = reader.poll(handler, 100);
                    assertTrue(count > 0, "records left to poll");
                    polled += count;
                }
                return polled;
            });

            assertTrue(cleanTail(appendRounds), "bytes allocated per round of " + 2 * ROUND + " appends: " +
                appendRounds);
            assertTrue(cleanTail(pollRounds), "bytes allocated per round of " + ROUND + " polled: " + pollRounds);
            assertEquals((long)ROUND * pollRounds.size(), delivered);
        }
    }

    /**
     * Rounds until {@value #CLEAN_ROUNDS} in a row allocate nothing, or {@value #MAX_ROUNDS}.
     */
    private static List<Long> measure(final IntSupplier round)
    {
        final List<Long> rounds = new ArrayList<>();
        while (rounds.size() < MAX_ROUNDS && !cleanTail(rounds))
        {
            final long before = ThreadAllocation.current();
            round.getAsInt();
            rounds.add(ThreadAllocation.current() - before);
        }
        return rounds;
    }

    private static boolean cleanTail(final List<Long> rounds)
    {
        if (rounds.size() < CLEAN_ROUNDS)
        {
            return false;
        }
        for (int i = rounds.size() - CLEAN_ROUNDS; i < rounds.size(); i++)
        {
            if (0 != rounds.get(i))
            {
                return false;
            }
        }
        return true;
    }
}
