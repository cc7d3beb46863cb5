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
package io.warpbus.interop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * A tcpdump capture of host loopback (where qemu's user network meets the engine) for the ports of one run, and
 * its decoding by tshark's iWARP dissectors (MPA, DDP, RDMAP). The capture buffer is large ({@code -B 262144}):
 * with a small one the kernel drops packets of 64 KiB pings and the decode would be incomplete.
 */
public final class WireCapture implements AutoCloseable
{
    private static final List<String> TSHARK = List.of("tshark", "-n", "-o", "tcp.try_heuristic_first:TRUE",
        "--enable-heuristic", "iwarp_mpa_tcp", "--disable-heuristic", "rpcrdma_iwarp",
        "--disable-heuristic", "smb_direct_iwarp");

    private final Path pcap;
    private final Path log;
    private final Process tcpdump;
    private boolean stopped;

    private WireCapture(final Path pcap, final Path log, final Process tcpdump)
    {
        this.pcap = pcap;
        this.log = log;
        this.tcpdump = tcpdump;
    }

    /**
     * Start capturing TCP traffic of the given ports on {@code lo}.
     *
     * @param pcap  the file to write.
     * @param ports the TCP ports (either end).
     * @return the capture, once tcpdump listens.
     * @throws Exception when tcpdump does not start.
     */
    public static WireCapture start(final Path pcap, final int... ports) throws Exception
    {
        final StringBuilder filter = new StringBuilder();
        for (final int port : ports)
        {
            filter.append(filter.length() > 0 ? " or " : "").append("tcp port ").append(port);
        }
        final Path log = Path.of(pcap + ".log");
        final Process tcpdump = new ProcessBuilder("tcpdump", "-Z", "root", "-i", "lo", "-B", "262144",
            "--immediate-mode", "-U", "-s", "0", "-w", pcap.toString(), filter.toString())
            .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!Files.exists(log) || !Files.readString(log).contains("listening on"))
        {
            if (!tcpdump.isAlive() || System.nanoTime() - deadlineNs > 0)
            {
                tcpdump.destroyForcibly();
                throw new IllegalStateException("tcpdump did not start: " + Files.readString(log));
            }
            Thread.sleep(20);
        }
        Thread.sleep(200);
        return new WireCapture(pcap, log, tcpdump);
    }

    /**
     * Stop the capture and decode it.
     *
     * @return what the dissectors found.
     * @throws Exception when tcpdump or tshark fail.
     */
    public Decoded stopAndDecode() throws Exception
    {
        stop();
        final String tcpdumpLog = Files.readString(log);
        final List<String> problems = new ArrayList<>();
        if (!tcpdumpLog.lines().anyMatch((l) -> l.trim().equals("0 packets dropped by kernel")))
        {
            problems.add("tcpdump dropped packets: " + tcpdumpLog.replace('\n', ' '));
        }
        // Every TCP payload must decode as MPA, except a TCP retransmission: the host's TCP resends bytes the
        // capture already holds (and decoded) from the first copy, and tshark hands no retransmitted bytes to the
        // dissectors. On a loaded machine loopback sees them: a tail-loss probe re-sent a 40-byte Send 5 ms after
        // the original, as its delayed ACK arrived ("TCP Spurious Retransmission").
        problems.addAll(tshark("-Y", "_ws.malformed || iwarp_mpa.bad_length || " +
            "(tcp.len > 0 && !iwarp_mpa && !tcp.segment_data && !tcp.analysis.retransmission)").lines().toList());

        final String fields = tshark("-Y", "iwarp_mpa", "-T", "fields", "-E", "separator=|", "-e", "iwarp_mpa.req",
            "-e", "iwarp_mpa.rep", "-e", "iwarp_mpa.crc_flag", "-e", "iwarp_mpa.rev", "-e", "iwarp_mpa.ulpdulength",
            "-e", "iwarp_rdma.opcode", "-e", "iwarp_ddp.last_flag", "-e", "tcp.srcport", "-e", "tcp.dstport");
        boolean crc = false;
        int revision = 0;
        int fpdus = 0;
        int lastFpduFrom = 0;
        int lastFpduTo = 0;
        final Map<String, Integer> opcodes = new TreeMap<>();
        for (final String line : fields.lines().toList())
        {
            final String[] column = line.split("\\|", -1);
            if (!column[2].isEmpty())
            {
                final List<String> flags = Arrays.asList(column[2].split(","));
                crc |= flags.contains("1") || flags.contains("True");
                revision = Integer.parseInt(column[3].split(",")[0]);
            }
            if (!column[4].isEmpty())
            {
                fpdus += column[4].split(",").length;
                lastFpduFrom = Integer.parseInt(column[7].trim());
                lastFpduTo = Integer.parseInt(column[8].trim());
            }
            if (!column[5].isEmpty())
            {
                // One entry per DDP segment: a message is counted at its segment with the Last flag.
                final String[] opcode = column[5].split(",");
                final String[] last = column[6].split(",");
                for (int i = 0; i < opcode.length; i++)
                {
                    if (i < last.length && ("1".equals(last[i]) || "True".equals(last[i])))
                    {
                        opcodes.merge(opcodeName(opcode[i]), 1, Integer::sum);
                    }
                }
            }
        }
        // The dissector checks each CRC itself and says so only in the field's label.
        final String details = tshark("-O", "iwarp_mpa");
        final int goodCrc = count(details, "(Good CRC32)");
        final int badCrc = count(details, "(Bad CRC32");
        return new Decoded(pcap, crc, revision, fpdus, goodCrc, badCrc, opcodes, lastFpduFrom, lastFpduTo, problems);
    }

    /**
     * Stop the capture and say whether one side closed its half of the connection: a FIN or a reset sent from a
     * port.
     *
     * @param port the sending side's port.
     * @return true when the capture holds a FIN or a reset from it.
     * @throws Exception when tshark fails.
     */
    public boolean stopAndFindCloseFrom(final int port) throws Exception
    {
        stop();
        return !tshark("-Y", "tcp.srcport == " + port + " && (tcp.flags.fin == 1 || tcp.flags.reset == 1)").isBlank();
    }

    @Override
    public void close()
    {
        stop();
    }

    private void stop()
    {
        if (!stopped)
        {
            stopped = true;
            try
            {
                // Let the last segments (FIN, the final ACKs) reach the capture before stopping it.
                Thread.sleep(300);
                tcpdump.destroy();
                if (!tcpdump.waitFor(10, TimeUnit.SECONDS))
                {
                    tcpdump.destroyForcibly();
                }
            }
            catch (final InterruptedException ex)
            {
                tcpdump.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    private String tshark(final String... args) throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>(TSHARK);
        command.add("-r");
        command.add(pcap.toString());
        command.addAll(Arrays.asList(args));
        final Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(120, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            throw new IllegalStateException("tshark did not finish: " + command);
        }
        if (0 != process.exitValue())
        {
            throw new IllegalStateException("tshark failed (" + process.exitValue() + "): " + command);
        }
        return output;
    }

    private static int count(final String text, final String fragment)
    {
        int count = 0;
        for (int index = text.indexOf(fragment); index >= 0; index = text.indexOf(fragment, index + 1))
        {
            count++;
        }
        return count;
    }

    private static String opcodeName(final String opcode)
    {
        return switch (opcode.trim())
        {
            case "0x00", "0" -> "write";
            case "0x01", "1" -> "read-request";
            case "0x02", "2" -> "read-response";
            case "0x03", "3" -> "send";
            case "0x07", "7" -> "terminate";
            default -> "opcode-" + opcode.trim();
        };
    }

    /**
     * What tshark made of a capture.
     *
     * @param pcap     the capture file.
     * @param crc      whether either MPA frame asked for CRC.
     * @param revision the MPA revision of the frames.
     * @param fpdus    FPDUs decoded.
     * @param goodCrc  FPDUs whose CRC matched tshark's own.
     * @param badCrc   FPDUs whose CRC did not.
     * @param opcodes  RDMAP messages (segments with the DDP Last flag) by opcode.
     * @param lastFrom the TCP port that sent the last FPDU on the wire (any segment), 0 when there was none.
     * @param lastTo   the TCP port it was sent to, 0 when there was none.
     * @param problems malformed or undecoded frames, and capture drops.
     */
    public record Decoded(
        Path pcap,
        boolean crc,
        int revision,
        int fpdus,
        int goodCrc,
        int badCrc,
        Map<String, Integer> opcodes,
        int lastFrom,
        int lastTo,
        List<String> problems)
    {
        /**
         * How many RDMAP messages of an opcode the capture holds.
         *
         * @param name write, read-request, read-response, send or terminate.
         * @return the count.
         */
        public int count(final String name)
        {
            return opcodes.getOrDefault(name, 0);
        }

        /**
         * Did every frame decode, nothing drop and every CRC check? Only such a capture can prove what siw did.
         *
         * @return true when there are no problems and no bad CRC.
         */
        public boolean isClean()
        {
            return problems.isEmpty() && 0 == badCrc;
        }

        @Override
        public String toString()
        {
            return pcap.getFileName() + ": MPA rev " + revision + (crc ? ", CRC" : ", no CRC") + ", " + fpdus +
                " FPDUs (" + goodCrc + " good CRC, " + badCrc + " bad), " + opcodes +
                (problems.isEmpty() ? "" : ", problems: " + problems);
        }
    }
}
