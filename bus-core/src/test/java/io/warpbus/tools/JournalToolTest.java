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

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.warpbus.journal.Journal;
import io.warpbus.journal.JournalContext;
import io.warpbus.journal.JournalWriter;
import io.warpbus.marketdata.MarketDataGenerator;
import io.warpbus.marketdata.MarketDataPrinter;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class JournalToolTest
{
    private static final long T0 = 1_772_461_800_000_000_000L;

    @TempDir
    Path dir;
    private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();

    /**
     * Stream 7: 20 market-data messages, sequences 100..119; stream 8: 3 raw payloads, sequences 0..2.
     */
    private List<String> record()
    {
        final MarketDataGenerator generator = new MarketDataGenerator(42, 2, T0);
        final MarketDataPrinter printer = new MarketDataPrinter();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[MarketDataGenerator.MAX_MESSAGE_LENGTH]);
        final List<String> decoded = new java.util.ArrayList<>();
        try (Journal journal = Journal.open(new JournalContext().directory(dir)))
        {
            final JournalWriter md = journal.writer(7);
            for (int i = 0; i < 20; i++)
            {
                final int length = generator.encodeNext(buffer, 0);
                decoded.add(printer.format(buffer, 0, length));
                md.append(100 + i, 55, 0xC0, T0 + i * 1000L, T0 + i * 1000L + 7, buffer, 0, length);
            }
            final JournalWriter raw = journal.writer(8);
            final UnsafeBuffer bytes = new UnsafeBuffer(new byte[40]);
            for (int i = 0; i < 40; i++)
            {
                bytes.putByte(i, (byte)i);
            }
            for (int i = 0; i < 3; i++)
            {
                raw.append(i, 66, 0, T0, T0, bytes, 0, 4 + 18 * i);
            }
        }
        return decoded;
    }

    private int run(final String... args)
    {
        return JournalTool.run(args, new PrintStream(outBytes, true, StandardCharsets.UTF_8),
            new PrintStream(errBytes, true, StandardCharsets.UTF_8), new AtomicBoolean(true));
    }

    private List<String> out()
    {
        return outBytes.toString(StandardCharsets.UTF_8).lines().toList();
    }

    private String err()
    {
        return errBytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void shouldDumpOneLinePerRecordDecodingMarketData()
    {
        final List<String> decoded = record();
        assertEquals(0, run("dump", dir.toString()), err());
        final List<String> lines = out();
        assertEquals(23, lines.size(), String.join("\n", lines));
        assertEquals("stream=7 seq=100 session=55 flags=0xc0 published=2026-03-02T14:30:00Z " +
            "received=2026-03-02T14:30:00.000000007Z length=" + lines.get(0).replaceAll(".* length=(\\d+) .*", "$1") +
            " " + decoded.get(0), lines.get(0));
        for (int i = 0; i < 20; i++)
        {
            assertTrue(lines.get(i).startsWith("stream=7 seq=" + (100 + i) + " "), lines.get(i));
            assertTrue(lines.get(i).endsWith(" " + decoded.get(i)), lines.get(i));
        }
        assertEquals("stream=8 seq=0 session=66 flags=0x0 published=2026-03-02T14:30:00Z " +
            "received=2026-03-02T14:30:00Z length=4 hex=00010203", lines.get(20));
        assertTrue(lines.get(22).endsWith("length=40 hex=000102030405060708090a0b0c0d0e0f" +
            "101112131415161718191a1b1c1d1e1f..."), lines.get(22));
    }

    @Test
    void shouldDumpFromASequenceAndStopAtACount()
    {
        record();
        assertEquals(0, run("dump", dir.toString(), "--stream", "7", "--from", "110", "--count", "3"), err());
        assertEquals(List.of("110", "111", "112"), out().stream().map((l) -> l.split(" ")[1].substring(4)).toList());
    }

    @Test
    void shouldPrintStatsPerStream()
    {
        record();
        assertEquals(0, run("stats", dir.toString()), err());
        final List<String> lines = out();
        assertEquals("stream 7: 20 records, sequences 100..119, published 2026-03-02T14:30:00Z .. " +
            "2026-03-02T14:30:00.000019Z, roll cycle FAST_DAILY, 1 cycle files", lines.get(0));
        assertTrue(lines.get(1).matches("  \\d{8}F\\.cq4 cycle \\d+, \\d+ bytes, 20 records"), lines.get(1));
        assertTrue(lines.get(2).startsWith("stream 8: 3 records, sequences 0..2, "), lines.get(2));
    }

    @Test
    void shouldTailRecordsAppendedAfterItStarts() throws Exception
    {
        record();
        final AtomicInteger exit = new AtomicInteger(-1);
        final Thread tail = new Thread(() -> exit.set(run("tail", dir.toString(), "--stream", "8", "--count", "2")));
        tail.start();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        try (Journal journal = Journal.open(new JournalContext().directory(dir)))
        {
            final JournalWriter writer = journal.writer(8);
            long sequence = 3;
            while (tail.isAlive() && System.nanoTime() - deadline < 0)
            {
                writer.append(sequence++, 66, 0, T0, T0, new UnsafeBuffer(new byte[8]), 0, 8);
                Thread.sleep(20);
            }
        }
        tail.join(5000);
        assertEquals(0, exit.get(), err());
        final List<String> lines = out();
        assertEquals(2, lines.size(), String.join("\n", lines));
        final long first = Long.parseLong(lines.get(0).split(" ")[1].substring(4));
        assertTrue(first >= 3, "only records appended after the tail started: " + lines);
        assertTrue(lines.get(1).startsWith("stream=8 seq=" + (first + 1) + " "), lines.get(1));
    }

    @Test
    void shouldNameWhatIsWrongWithANonZeroExit() throws Exception
    {
        assertEquals(JournalTool.EXIT_FAILED, run("stats", dir.resolve("missing").toString()));
        assertEquals("warpbus journal: journal directory " + dir.resolve("missing") + " does not exist\n", err());
        errBytes.reset();
        assertEquals(JournalTool.EXIT_USAGE, run("dump", dir.toString(), "--stream", "x"));
        assertTrue(err().startsWith("warpbus journal: option --stream needs a number, not 'x'\n"), err());
        errBytes.reset();
        assertEquals(JournalTool.EXIT_USAGE, run("list", dir.toString()));
        assertTrue(err().startsWith("warpbus journal: unknown command 'list'\n"), err());

        record();
        errBytes.reset();
        assertEquals(JournalTool.EXIT_FAILED, run("dump", dir.toString(), "--stream", "9"));
        assertEquals("warpbus journal: unknown stream 9: no directory " + dir.resolve("stream-9") + "\n", err());
        errBytes.reset();
        assertEquals(JournalTool.EXIT_FAILED, run("dump", dir.toString(), "--stream", "7", "--from", "500"));
        assertEquals("warpbus journal: stream 7: sequence 500 is beyond the last record (sequence 119)\n", err());

        final Path file;
        try (var files = Files.list(dir.resolve("stream-7")))
        {
            file = files.filter((f) -> f.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        try (RandomAccessFile truncate = new RandomAccessFile(file.toFile(), "rw"))
        {
            truncate.setLength(3000);
        }
        outBytes.reset();
        assertEquals(JournalTool.EXIT_FAILED, run("stats", dir.toString()));
        assertTrue(out().contains("  DAMAGED: stream 7: cycle file " + file + " is truncated: 3000 bytes is not a " +
            "whole number of 4096-byte pages"), String.join("\n", out()));
        assertTrue(out().stream().anyMatch((l) -> l.startsWith("stream 8: 3 records")), "stream 8 still reported");
    }
}
