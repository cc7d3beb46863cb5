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
package io.warpbus.demo.service;

import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.agrona.ExpandableDirectByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CheckpointWriterTest
{
    private final List<String> written = new CopyOnWriteArrayList<>();
    private final List<Throwable> errors = new CopyOnWriteArrayList<>();

    @Test
    @Timeout(30)
    void shouldWriteOnItsOwnThreadWhileTheCallerGoesOnAndRefuseASecondUntilDone() throws Exception
    {
        final CountDownLatch inWrite = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        try (CheckpointWriter writer = new CheckpointWriter((buffer, length, sequence) ->
        {
            inWrite.countDown();
            await(release);
            written.add(Thread.currentThread().getName() + " " + sequence + " " + buffer.getStringWithoutLengthAscii(
                0, length));
        }, errors::add))
        {
            final ExpandableDirectByteBuffer buffer = writer.claim();
            assertNotNull(buffer);
            final int length = buffer.putStringWithoutLengthAscii(0, "state-41");
            writer.commit(length, 41);
            assertTrue(inWrite.await(10, TimeUnit.SECONDS), "the writer's thread took it");

            assertTrue(writer.isWriting());
            assertNull(writer.claim(), "the buffer is not handed out again while its checkpoint is being written");
            assertEquals(List.of(), written, "the caller returned before the write finished");

            release.countDown();
            assertTrue(writer.awaitIdle());
            assertEquals(List.of("engine-checkpoint 41 state-41"), written);
            assertFalse(writer.isWriting());
            assertSame(buffer, writer.claim(), "free again once written");
        }
        assertEquals(List.of(), errors);
    }

    @Test
    @Timeout(30)
    void shouldReportAFailedWriteAndTakeTheNextOne()
    {
        try (CheckpointWriter writer = new CheckpointWriter((buffer, length, sequence) ->
        {
            if (7 == sequence)
            {
                throw new UncheckedIOException(new java.io.IOException("disk full"));
            }
            if (8 == sequence)
            {
                throw new LinkageError("an error, not an exception");
            }
            written.add(String.valueOf(sequence));
        }, errors::add))
        {
            writer.commit(writer.claim().putStringWithoutLengthAscii(0, "a"), 7);
            assertTrue(writer.awaitIdle());
            assertEquals(1, errors.size());
            assertTrue(errors.get(0).getMessage().contains("disk full"), errors.get(0).toString());

            writer.commit(writer.claim().putStringWithoutLengthAscii(0, "b"), 8);
            assertTrue(writer.awaitIdle());
            assertEquals(2, errors.size());
            assertEquals("an error, not an exception", errors.get(1).getMessage());

            writer.commit(writer.claim().putStringWithoutLengthAscii(0, "c"), 9);
            assertTrue(writer.awaitIdle(), "the thread lives on after an Error");
            assertEquals(List.of("9"), written);
        }
    }

    @Test
    @Timeout(30)
    void shouldFinishTheCheckpointInFlightWhenClosed()
    {
        final CheckpointWriter writer = new CheckpointWriter((buffer, length, sequence) ->
        {
            sleepMs(200);
            written.add(String.valueOf(sequence));
        }, errors::add);
        writer.commit(writer.claim().putStringWithoutLengthAscii(0, "last"), 99);
        writer.close();
        assertEquals(List.of("99"), written, "close waits for the write in flight");
    }

    private static void await(final CountDownLatch latch)
    {
        try
        {
            latch.await(20, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleepMs(final long ms)
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
}
