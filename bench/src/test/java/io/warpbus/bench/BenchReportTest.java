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
package io.warpbus.bench;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BenchReportTest
{
    @TempDir
    Path dir;

    @Test
    void shouldReportTheMedianOfRounds()
    {
        final BenchReport report = new BenchReport("rdma", "tcp-nio");
        report.add("pingpong-64B", "warpbus-iwarp", "rtt_p50_ns", 30, "ns");
        report.add("pingpong-64B", "warpbus-iwarp", "rtt_p50_ns", 10, "ns");
        report.add("pingpong-64B", "warpbus-iwarp", "rtt_p50_ns", 20, "ns");
        report.add("pingpong-64B", "warpbus-iwarp", "rtt_p50_ns", 1000, "ns");
        assertEquals(25.0, report.median("pingpong-64B", "warpbus-iwarp", "rtt_p50_ns"));
        assertTrue(Double.isNaN(report.median("pingpong-64B", "tcp-nio", "rtt_p50_ns")));
    }

    @Test
    void shouldWriteOneJsonObjectPerCaseSystemAndMetric() throws Exception
    {
        final BenchReport report = new BenchReport("rdma", "tcp-nio");
        report.add("stream-64KiB", "warpbus-iwarp", "throughput_MBps", 1500.5, "MB/s");
        report.add("stream-64KiB", "tcp-nio", "throughput_MBps", 2000, "MB/s");
        final Path file = dir.resolve("out/rdma.json");
        report.writeJson(file);
        assertEquals("[\n" +
            "  {\"suite\":\"rdma\",\"case\":\"stream-64KiB\",\"system\":\"warpbus-iwarp\"," +
            "\"metric\":\"throughput_MBps\",\"value\":1500.500,\"unit\":\"MB/s\"},\n" +
            "  {\"suite\":\"rdma\",\"case\":\"stream-64KiB\",\"system\":\"tcp-nio\"," +
            "\"metric\":\"throughput_MBps\",\"value\":2000,\"unit\":\"MB/s\"}\n" +
            "]\n", Files.readString(file));
    }

    @Test
    void shouldWriteSeveralReportsAsOneJsonArray() throws Exception
    {
        final BenchReport network = new BenchReport("bus", "aeron-udp");
        network.add("pingpong-64B", "warpbus-iwarp", "rtt_p50_ns", 30000, "ns");
        network.add("pingpong-64B", "aeron-udp", "rtt_p50_ns", 20000, "ns");
        final BenchReport ipc = new BenchReport("bus", "aeron-ipc");
        ipc.add("pingpong-64B", "warpbus-ipc", "rtt_p50_ns", 700, "ns");
        ipc.add("pingpong-64B", "aeron-ipc", "rtt_p50_ns", 500, "ns");
        final BenchReport empty = new BenchReport("bus", "aeron-udp");
        final Path file = dir.resolve("out/bus.json");
        BenchReport.writeJson(file, network, empty, ipc);
        assertEquals("[\n" +
            "  {\"suite\":\"bus\",\"case\":\"pingpong-64B\",\"system\":\"warpbus-iwarp\"," +
            "\"metric\":\"rtt_p50_ns\",\"value\":30000,\"unit\":\"ns\"},\n" +
            "  {\"suite\":\"bus\",\"case\":\"pingpong-64B\",\"system\":\"aeron-udp\"," +
            "\"metric\":\"rtt_p50_ns\",\"value\":20000,\"unit\":\"ns\"},\n" +
            "  {\"suite\":\"bus\",\"case\":\"pingpong-64B\",\"system\":\"warpbus-ipc\"," +
            "\"metric\":\"rtt_p50_ns\",\"value\":700,\"unit\":\"ns\"},\n" +
            "  {\"suite\":\"bus\",\"case\":\"pingpong-64B\",\"system\":\"aeron-ipc\"," +
            "\"metric\":\"rtt_p50_ns\",\"value\":500,\"unit\":\"ns\"}\n" +
            "]\n", Files.readString(file));
    }

    @Test
    void shouldPrintTheRatioToTheBaseline()
    {
        final BenchReport report = new BenchReport("rdma", "tcp-nio");
        report.add("pingpong-64B", "warpbus-iwarp", "rtt_p50_ns", 11000, "ns");
        report.add("pingpong-64B", "tcp-nio", "rtt_p50_ns", 10000, "ns");
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        report.printTable(new PrintStream(out, true, StandardCharsets.UTF_8));
        final String table = out.toString(StandardCharsets.UTF_8);
        assertTrue(table.contains("1.10x"), table);
        assertTrue(table.contains("11,000"), table);
    }
}
