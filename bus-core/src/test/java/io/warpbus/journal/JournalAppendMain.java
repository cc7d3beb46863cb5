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

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Child process of {@link JournalCrashTest}: resumes a stream after its last record and appends as fast as it can,
 * each record's payload derived from its sequence, printing its progress, until killed or {@code maxSeconds} pass.
 */
public final class JournalAppendMain
{
    private JournalAppendMain()
    {
    }

    /**
     * Run.
     *
     * @param args journal directory, stream id, max seconds, and {@code half} to die in the middle of record 1000.
     */
    public static void main(final String[] args)
    {
        final Path dir = Path.of(args[0]);
        final int streamId = Integer.parseInt(args[1]);
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(Long.parseLong(args[2]));
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[JournalCrashTest.MAX_PAYLOAD]);
        try (Journal journal = Journal.open(new JournalContext().directory(dir).rollCycle("FAST_DAILY")))
        {
            final JournalWriter writer = journal.writer(streamId);
            long sequence = writer.lastSequence() + 1;
            System.out.println("RESUMED " + writer.lastSequence());
            long appended = 0;
            if (args.length > 3 && "half".equals(args[3]))
            {
                for (; appended < 1000; appended++, sequence++)
                {
                    writer.append(sequence, 7, 0, sequence, sequence, payload, 0, JournalCrashTest.fill(payload,
                        sequence));
                }
                dieMidRecord(dir, streamId, sequence, payload);
            }
            while (System.nanoTime() - deadlineNs < 0)
            {
                final int length = JournalCrashTest.fill(payload, sequence);
                writer.append(sequence, 7, 0, sequence, sequence, payload, 0, length);
                sequence++;
                if (++appended % 10_000 == 0)
                {
                    System.out.println("APPENDED " + appended);
                }
            }
        }
        System.out.println("DONE");
    }

    /**
     * Open a document, write the record header and half the payload, and halt the JVM without completing it: what
     * {@code kill -9} leaves when it lands in the middle of an append, made certain.
     */
    private static void dieMidRecord(final Path dir, final int streamId, final long sequence,
        final UnsafeBuffer payload)
    {
        final SingleChronicleQueue queue = SingleChronicleQueueBuilder
            .single(dir.resolve("stream-" + streamId).toFile()).rollCycle(RollCycles.FAST_DAILY).build();
        final ExcerptAppender appender = queue.createAppender();
        final DocumentContext document = appender.writingDocument();
        final Bytes<?> bytes = document.wire().bytes();
        final int length = JournalCrashTest.fill(payload, sequence);
        bytes.writeInt(length);
        bytes.writeInt(JournalRecordDescriptor.VERSION << 16);
        bytes.writeLong(sequence);
        bytes.writeSkip(24);
        for (int i = 0; i < length / 2; i++)
        {
            bytes.writeByte(payload.getByte(i));
        }
        System.out.println("HALTING " + sequence);
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }
}
