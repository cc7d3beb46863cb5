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
package io.warpbus.iwarp;

import java.io.File;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import io.warpbus.iwarp.rdmap.RdmapOpcode;
import io.warpbus.iwarp.rdmap.TerminateError;
import io.warpbus.testing.Await;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Captures the engine's own traffic on loopback with tcpdump, from before the first connection so the MPA exchange
 * is in the capture, and decodes it with tshark's iWARP dissectors: every FPDU must carry a good CRC, nothing may
 * be malformed or left undecoded, and Write, Read Request, Read Response, Send and Terminate must decode with the
 * opcodes, STags and offsets the test put on the wire.
 */
@Tag("capture")
@Timeout(120)
class WiresharkComplianceTest
{
    private static final List<String> TSHARK = List.of("tshark", "-n", "-o", "tcp.try_heuristic_first:TRUE",
        "--enable-heuristic", "iwarp_mpa_tcp", "--disable-heuristic", "rpcrdma_iwarp",
        "--disable-heuristic", "smb_direct_iwarp");

    @TempDir
    Path dir;

    @Test
    void shouldDecodeCleanlyInWireshark() throws Exception
    {
        requireTool("tcpdump");
        requireTool("tshark");
        final Path pcap = dir.resolve("iwarp.pcap");
        final List<ConnectionEvent> serverEvents = new ArrayList<>();
        final List<ConnectionEvent> clientEvents = new ArrayList<>();
        try (Rnic server = Rnic.launch(dedicated("server"));
            Rnic client = Rnic.launch(dedicated("client")))
        {
            final ProtectionDomain serverPd = server.allocateProtectionDomain();
            final CompletionQueue serverCq = server.createCompletionQueue(64);
            final QueuePair serverQp = serverPd.createQueuePair(new QueuePairAttributes().completionQueue(serverCq));
            final MemoryRegion sink = serverPd.registerMemory(EnginePair.directBuffer(8192),
                Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ);
            final MemoryRegion recv = serverPd.registerMemory(EnginePair.directBuffer(256), Access.LOCAL_WRITE);
            serverQp.postRecv(1, recv, 0, 256);
            final InetSocketAddress address =
                server.connectionManager().listen(EnginePair.loopback(0), 4, null).localAddress();

            final Process tcpdump = new ProcessBuilder("tcpdump", "-Z", "root", "-i", "lo", "--immediate-mode",
                "-U", "-s", "0", "-w",
                pcap.toString(), "tcp port " + address.getPort())
                .redirectErrorStream(true).redirectOutput(dir.resolve("tcpdump.log").toFile()).start();
            try
            {
                awaitCapturing(dir.resolve("tcpdump.log"), tcpdump);

                final ProtectionDomain clientPd = client.allocateProtectionDomain();
                final CompletionQueue clientCq = client.createCompletionQueue(64);
                final QueuePair clientQp = clientPd.createQueuePair(
                    new QueuePairAttributes().completionQueue(clientCq));
                final MemoryRegion local = clientPd.registerMemory(EnginePair.directBuffer(8192),
                    Access.LOCAL_WRITE);
                client.connectionManager().connect(clientQp, address,
                    new ConnectionParameters().privateData("hello".getBytes(StandardCharsets.US_ASCII)), null);
                await(() -> poll(server, serverEvents, ConnectionEventType.CONNECT_REQUEST), "the connect request");
                takeEvent(serverEvents, ConnectionEventType.CONNECT_REQUEST).request()
                    .accept(serverQp, new ConnectionParameters());
                await(() -> poll(client, clientEvents, ConnectionEventType.ESTABLISHED), "the client to connect");

                local.buffer().putStringWithoutLengthAscii(0, "iwarp write payload, more than a few bytes");
                assertEquals(QueuePair.POSTED, clientQp.postWrite(1, local, 0, 5000, sink.stag(),
                    sink.taggedOffset(64), 0));
                assertEquals(QueuePair.POSTED, clientQp.postRead(2, local, 5000, 100, sink.stag(),
                    sink.taggedOffset(512), 0));
                assertEquals(QueuePair.POSTED, clientQp.postSend(3, local, 0, 13, QueuePair.SIGNALED));
                await(() -> clientCq.poll((wc) -> { }, 8) > 0 && serverCq.poll((wc) -> { }, 8) >= 0,
                    "a client completion");
                await(() -> 0 == clientCq.size() && recvCompleted(serverQp), "every completion and the send's receive");

                // A peer that writes to an STag it was never given gets a Terminate.
                try (RawPeer peer = new RawPeer(address))
                {
                    peer.sendRequest(16, 1, new byte[0]);
                    final QueuePair victim = serverPd.createQueuePair(
                        new QueuePairAttributes().completionQueue(serverCq));
                    await(() -> poll(server, serverEvents, ConnectionEventType.CONNECT_REQUEST),
                        "the raw peer's connect request");
                    takeEvent(serverEvents, ConnectionEventType.CONNECT_REQUEST).request()
                        .accept(victim, new ConnectionParameters());
                    peer.readReply();
                    peer.sendWriteRtr();
                    peer.sendTagged(RdmapOpcode.WRITE, 0x00ABCDEF, 0x1000, new byte[16], true);
                    assertEquals(TerminateError.DDP_TAGGED_INVALID_STAG, peer.readTerminate().error());
                    assertTrue(peer.awaitClosed());
                }
                clientQp.disconnect();
                await(() -> clientQp.state().isFinal(), "the client queue pair to close");
                Thread.sleep(500);
            }
            finally
            {
                tcpdump.destroy();
                tcpdump.waitFor(10, TimeUnit.SECONDS);
            }

            final String serverStag = "0x" + String.format("%08x", sink.stag());
            assertDecodes(pcap, serverStag, sink);
        }
    }

    private void assertDecodes(final Path pcap, final String serverStag, final MemoryRegion sink) throws Exception
    {
        final String verbose = tshark(pcap, "-V");
        final int good = count(verbose, "(Good CRC32)");
        assertTrue(good >= 8, "expected every FPDU to show a good CRC, found " + good + "\n" + verbose);
        assertEquals(0, count(verbose, "Bad CRC32"), "bad CRCs in\n" + verbose);

        final int fpdus = tshark(pcap, "-Y", "iwarp_mpa.ulpdulength", "-T", "fields", "-e", "iwarp_mpa.ulpdulength")
            .lines().mapToInt((l) -> l.split(",").length).sum();
        assertEquals(fpdus, good, "every FPDU must carry a checked CRC");

        assertEquals("", tshark(pcap, "-Y", "_ws.malformed || _ws.expert.severity >= warning").trim(),
            "malformed or warned frames");
        assertEquals("", tshark(pcap, "-Y", "tcp.len > 0 && !iwarp_mpa && !tcp.segment_data").trim(),
            "TCP payload not decoded as iWARP");
        assertTrue(tshark(pcap, "-Y", "iwarp_mpa.req", "-T", "fields", "-e", "iwarp_mpa.privatedata")
            .contains("68656c6c6f"), "the MPA request must carry the private data");

        final String fields = tshark(pcap, "-Y", "iwarp_rdma", "-T", "fields", "-E", "separator=|",
            "-e", "iwarp_rdma.opcode", "-e", "iwarp_ddp.stag", "-e", "iwarp_ddp.tagged_offset",
            "-e", "iwarp_rdma.sinkstag", "-e", "iwarp_rdma.rdmardsz", "-e", "iwarp_rdma.srcstag",
            "-e", "iwarp_rdma.srcto", "-e", "iwarp_rdma.term_layer", "-e", "iwarp_rdma.term_etype_ddp",
            "-e", "iwarp_rdma.term_errcode_ddp_tagged");
        final String writeTo = "0x" + String.format("%016x", sink.taggedOffset(64));
        final String readSource = "0x" + String.format("%016x", sink.taggedOffset(512));
        // Coalesced FPDUs share a frame, so each column may hold a comma-separated list.
        assertTrue(fields.lines().anyMatch((l) -> column(l, 0).contains("0x00") &&
            column(l, 1).contains(serverStag) && column(l, 2).contains(writeTo)),
            "an RDMA Write to the sink at offset 64:\n" + fields);
        assertTrue(fields.lines().anyMatch((l) -> column(l, 0).contains("0x01") && column(l, 4).contains("100") &&
            column(l, 5).contains(serverStag) && column(l, 6).contains(readSource)),
            "an RDMA Read Request of 100 bytes from the sink at offset 512:\n" + fields);
        assertTrue(opcodes(fields).contains("0x02"), "an RDMA Read Response:\n" + fields);
        assertTrue(opcodes(fields).contains("0x03"), "a Send:\n" + fields);
        assertTrue(fields.lines().anyMatch((l) -> l.startsWith("0x07|") && l.endsWith("|0x01|0x01|0x00")),
            "a Terminate: layer DDP, tagged buffer error, invalid STag:\n" + fields);
    }

    private static List<String> column(final String line, final int index)
    {
        return Arrays.asList(line.split("\\|", -1)[index].split(","));
    }

    private static List<String> opcodes(final String fields)
    {
        final List<String> opcodes = new ArrayList<>();
        fields.lines().forEach((l) -> opcodes.addAll(Arrays.asList(l.split("\\|", -1)[0].split(","))));
        return opcodes;
    }

    private String tshark(final Path pcap, final String... args) throws Exception
    {
        final List<String> command = new ArrayList<>(TSHARK);
        command.add("-r");
        command.add(pcap.toString());
        command.addAll(Arrays.asList(args));
        final Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "tshark did not finish");
        assertEquals(0, process.exitValue(), "tshark failed: " + command);
        return output;
    }

    private static void awaitCapturing(final Path log, final Process tcpdump) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() - deadline < 0)
        {
            if (!tcpdump.isAlive())
            {
                fail("tcpdump exited: " + Files.readString(log));
            }
            if (Files.exists(log) && Files.readString(log).contains("listening on"))
            {
                // The message comes as the capture opens; give the kernel filter a moment to attach.
                Thread.sleep(300);
                return;
            }
            Thread.sleep(20);
        }
        fail("tcpdump did not start capturing");
    }

    private static void requireTool(final String tool)
    {
        for (final String path : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
        {
            if (new File(path, tool).canExecute())
            {
                return;
            }
        }
        for (final String path : List.of("/usr/sbin", "/usr/bin", "/sbin"))
        {
            if (new File(path, tool).canExecute())
            {
                return;
            }
        }
        fail(tool + " is not installed: the wire compliance test needs tcpdump and tshark (.ci/run installs them)");
    }

    private static RnicContext dedicated(final String name)
    {
        return new RnicContext().name(name).threadingMode(ThreadingMode.DEDICATED).idleStrategy("backoff");
    }

    private static boolean recvCompleted(final QueuePair qp)
    {
        return qp.rqHead.get() == qp.rqTail.get();
    }

    private static boolean poll(final Rnic rnic, final List<ConnectionEvent> events, final ConnectionEventType type)
    {
        rnic.connectionManager().poll(events::add, 16);
        return events.stream().anyMatch((e) -> e.type() == type);
    }

    private static ConnectionEvent takeEvent(final List<ConnectionEvent> events, final ConnectionEventType type)
    {
        for (final ConnectionEvent event : events)
        {
            if (event.type() == type)
            {
                events.remove(event);
                return event;
            }
        }
        throw new AssertionError("no " + type + " in " + events);
    }

    private static int count(final String text, final String fragment)
    {
        int count = 0;
        int index = text.indexOf(fragment);
        while (index >= 0)
        {
            count++;
            index = text.indexOf(fragment, index + fragment.length());
        }
        return count;
    }

    private static void await(final BooleanSupplier condition, final String what)
    {
        Await.until(what, 10_000, condition);
    }
}
