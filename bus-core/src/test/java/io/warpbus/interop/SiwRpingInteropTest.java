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

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.warpbus.testing.FreePorts;
import io.warpbus.tools.Rping;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code ./warpbus rping} against rdma-core's {@code rping} on the Linux siw driver in a qemu guest, in both
 * directions, 100 validated pings per run from 64 B to 64 KiB (odd lengths included, so FPDUs carry pad), with CRC
 * and without, MPA revision 2 with and without the peer-to-peer ready-to-receive exchange, and MPA revision 1.
 * Every run is captured on loopback and must decode in tshark's iWARP dissectors with no bad CRC, nothing
 * malformed or undecoded, and the RDMAP messages a run of 100 pings puts on the wire.
 * <p>
 * siw's MPA choices are compile-time constants, so the guest carries four builds (see
 * {@code ops/interop/siw/build-guest.sh}): {@code default} (revision 2, client-server model, no CRC asked),
 * {@code p2p}, {@code crc} and {@code v1}. As a responder siw follows the initiator, so the runs with our client
 * vary our side instead ({@code --crc}, {@code --mpa-revision}).
 */
@Tag("siw")
@ExtendWith(SiwGuestExtension.class)
@Timeout(300)
class SiwRpingInteropTest
{
    private static final int PINGS = 100;
    private static final int VERBOSE_LIMIT = 4096;
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(150);
    private static final String MISSED_FIRST_FPDU = "siw's accept missed our first FPDU";
    /** Our client's failure when siw never answered its first advert. */
    private static final String FIRST_ADVERT_TIMEOUT =
        "timed out after 30 s waiting in state AWAIT_READ_GO, 0 pings done";
    private static final Pattern READ_TIMEOUT =
        Pattern.compile("timed out after \\d+ s waiting in state READING, (\\d+) pings done");
    private static final Pattern GO_TIMEOUT =
        Pattern.compile("timed out after \\d+ s waiting in state AWAIT_(READ|WRITE)_GO, (\\d+) pings done");

    private static SiwGuest guest;
    private static int nextGuestPort;
    private static ExecutorService executor;
    private static Path captures;

    @BeforeAll
    static void boot(final SiwGuest siwGuest) throws IOException
    {
        guest = siwGuest;
        // A thread per server run, so a run that fails and leaves its server still waiting never holds up the next.
        executor = Executors.newCachedThreadPool((runnable) -> new Thread(runnable, "rping-server"));
        captures = Files.createDirectories(Path.of("target", "siw-interop", "captures").toAbsolutePath());
    }

    @AfterAll
    static void stop() throws Exception
    {
        if (null != executor)
        {
            executor.shutdownNow();
        }
        if (null != guest && !"default".equals(guest.variant()))
        {
            use("default");
        }
    }

    static Stream<Arguments> siwClients()
    {
        final List<Arguments> runs = new ArrayList<>();
        for (final int size : new int[] { 64, 1001, 4097, 65535 })
        {
            runs.add(Arguments.of("default", size));
        }
        for (final int size : new int[] { 64, 1001, 4097, 65535 })
        {
            runs.add(Arguments.of("p2p", size));
        }
        for (final int size : new int[] { 333, 65535 })
        {
            runs.add(Arguments.of("crc", size));
        }
        for (final int size : new int[] { 64, 9999 })
        {
            runs.add(Arguments.of("v1", size));
        }
        return runs.stream();
    }

    @ParameterizedTest(name = "siw ({0}) rping client -> warpbus rping server, {1} B")
    @MethodSource("siwClients")
    void shouldServeSiwRpingClient(final String variant, final int size) throws Exception
    {
        // Seen once in CI (the run's capture was not kept): after 46 pings our server timed out in READING, waiting
        // for the Response to its RDMA Read Request, and every later case failed on a guest that no longer answered.
        // The case runs again on a fresh guest only when its capture proves siw's silence: our Read Request on the
        // wire, well formed, and no Response to it. A Response this engine failed to complete fails the case.
        guest.passDespiteStalls("siw-" + variant + "-client-" + size,
            (name) -> serveSiwRpingClient(name, variant, size));
    }

    /**
     * One run of siw's rping client against our server.
     *
     * @return null when it passed, or the capture's proof that siw left a Read Request unanswered (any other
     * failure fails the test).
     */
    private static String serveSiwRpingClient(final String name, final String variant, final int size)
        throws Exception
    {
        use(variant);
        final int port = FreePorts.loopback();
        final ByteArrayOutputStream serverOut = new ByteArrayOutputStream();
        final ByteArrayOutputStream serverErr = new ByteArrayOutputStream();
        final SiwGuest.KernelLogMark mark = guest.kernelLogMark();
        final WireCapture.Decoded wire;
        try (WireCapture capture = WireCapture.start(captures.resolve(name + ".pcap"), port))
        {
            final Future<Integer> server = executor.submit(() -> Rping.run(new String[] { "-s", "-a", "127.0.0.1",
                "-p", String.valueOf(port), "-S", String.valueOf(size), "-d" },
                new PrintStream(serverOut, true), new PrintStream(serverErr, true)));
            awaitOutput(serverOut, "listening on", server);

            final SiwGuest.Result client = guest.run(name, "timeout 120 rping -c -a " + SiwGuest.HOST_FROM_GUEST +
                " -p " + port + " -C " + PINGS + " -S " + size + " -V" + (size <= VERBOSE_LIMIT ? " -v" : ""),
                RUN_TIMEOUT);
            final int serverExit = server.get(30, TimeUnit.SECONDS);
            if (0 != serverExit)
            {
                // siw's client exits 0 when our server gives up and closes, so our server's failure comes first.
                final String failure = serverErr.toString(StandardCharsets.UTF_8);
                final WireCapture.Decoded stalled = capture.stopAndDecode();
                final String unanswered = unansweredRead(failure, stalled, port);
                if (null != unanswered)
                {
                    return unanswered + " / siw rping client: " + client;
                }
                fail("our server: " + failure + "\nsiw rping client: " + client + "\n" + stalled + "\nsiw's CM:\n" +
                    guest.siwLogSince(mark));
            }
            assertEquals(0, client.exitCode(), "siw rping client: " + client + "\nour server: " +
                SiwGuest.tail(serverErr.toString(StandardCharsets.UTF_8), 10));
            if (size <= VERBOSE_LIMIT)
            {
                assertPings(client.out());
            }
            wire = capture.stopAndDecode();
        }
        assertCleanWire(wire, "crc".equals(variant), "v1".equals(variant) ? 1 : 2);
        assertEquals(PINGS, wire.count("read-request"), "one RDMA Read per ping, by our server: " + wire);
        assertEquals(PINGS, wire.count("write") - ("p2p".equals(variant) ? 1 : 0),
            "one RDMA Write per ping (plus siw's zero-length RTR Write with p2p): " + wire);
        assertEquals(4 * PINGS, wire.count("send"), "four 16-byte Sends per ping: " + wire);
        assertEquals(port, wire.lastFrom(), "our go-ahead after the last Write ends the exchange: " + wire);
        delete(wire);
        return null;
    }

    /**
     * Did our server time out waiting for a Read Response that siw never sent? Only our server sends Read Requests
     * and only siw sends Read Responses, so a clean capture with one Read Request more than the pings done, a
     * Response (its last segment) for each ping done, and no FPDU from siw after our last one proves it.
     *
     * @param ourPort our server's port.
     * @return what the capture shows, or null when it does not prove that.
     */
    static String unansweredRead(final String failure, final WireCapture.Decoded wire, final int ourPort)
    {
        final Matcher timedOut = READ_TIMEOUT.matcher(failure);
        if (!timedOut.find() || !wire.isClean() || ourPort != wire.lastFrom())
        {
            return null;
        }
        final int pings = Integer.parseInt(timedOut.group(1));
        return pings + 1 == wire.count("read-request") && pings == wire.count("read-response") ?
            "siw never answered our Read Request after " + pings + " pings: " + timedOut.group() + " / " + wire : null;
    }

    /**
     * Did our client time out waiting for siw's go-ahead after siw fell silent? Each ping is our source advert
     * (a Send), siw's Read Request, our Read Response, siw's go-ahead (a Send), our sink advert (a Send), siw's
     * Write and its go-ahead; our zero-length RTR Write comes first. A clean capture that ends with our advert (no
     * FPDU from siw after it, not even a segment of its Write) and holds every message of the pings done before it
     * proves it. Not before the first ping: a connection that never carried one is {@link #MISSED_FIRST_FPDU}'s
     * case, which needs siw's own log.
     *
     * @param siwPort the port siw's server is reached at.
     * @return what the capture shows, or null when it does not prove that.
     */
    static String unansweredAdvert(final String failure, final WireCapture.Decoded wire, final int siwPort)
    {
        final Matcher timedOut = GO_TIMEOUT.matcher(failure);
        if (!timedOut.find() || !wire.isClean() || 0 != wire.count("terminate") || siwPort != wire.lastTo())
        {
            return null;
        }
        final int pings = Integer.parseInt(timedOut.group(2));
        final boolean sink = "WRITE".equals(timedOut.group(1));
        final int reads = sink ? pings + 1 : pings;
        final boolean silent = pings > 0 && reads == wire.count("read-request") &&
            reads == wire.count("read-response") && pings + 1 == wire.count("write") &&
            4 * pings + (sink ? 3 : 1) == wire.count("send");
        return silent ? "siw never answered our " + (sink ? "sink" : "source") + " advert after " + pings +
            " pings: " + timedOut.group() + " / " + wire : null;
    }

    /**
     * siw's accept race ({@link SiwGuest#missedFirstFpdu}) when our close woke siw's ready-to-receive handler, which
     * then read what its accept had missed, our RTR and our first advert, and reported the connection established
     * as it ended. siw's rping server then either got the advert, posted its Read and failed "wait for
     * RDMA_READ_COMPLETE", or saw the disconnect first and failed "wait for RDMA_READ_ADV". The second is excused
     * only with siw's own log of the miss and a capture that ends with our advert: our RTR and our Send, nothing
     * from siw after them, no Terminate.
     *
     * @param failure   our client's error output.
     * @param siwServer siw's rping server's error output.
     * @param missed    what siw's CM logged of a connection whose first FPDU it missed, or null.
     * @param wire      the decoded capture.
     * @param siwPort   the host port of siw's server.
     * @return what the stall looked like, or null when this is not siw's race.
     */
    static String lostFirstAdvert(final String failure, final String siwServer, final String missed,
        final WireCapture.Decoded wire, final int siwPort)
    {
        if (!failure.contains(FIRST_ADVERT_TIMEOUT) || !wire.isClean() || 0 != wire.count("read-request"))
        {
            return null;
        }
        final String siw = " / siw: " + siwServer.strip().replace('\n', ' ') + " / " + wire;
        if (siwServer.contains("wait for RDMA_READ_COMPLETE"))
        {
            return failure.strip() + siw;
        }
        final boolean neverRead = siwServer.contains("wait for RDMA_READ_ADV") && null != missed &&
            0 == wire.count("terminate") && siwPort == wire.lastTo() && 1 == wire.count("write") &&
            1 == wire.count("send") && 0 == wire.count("read-response");
        return neverRead ? MISSED_FIRST_FPDU + " and its rping server never got our advert: " + failure.strip() +
            siw + " / siw's CM: " + missed : null;
    }

    static Stream<Arguments> siwServers()
    {
        final List<Arguments> runs = new ArrayList<>();
        for (final String crc : new String[] { "preferred", "off" })
        {
            for (final int size : new int[] { 64, 1001, 4097, 65535 })
            {
                runs.add(Arguments.of(crc, size));
            }
        }
        return runs.stream();
    }

    @ParameterizedTest(name = "warpbus rping client (MPA v2 p2p, CRC {0}) -> siw rping server, {1} B")
    @MethodSource("siwServers")
    void shouldPingSiwRpingServer(final String crc, final int size) throws Exception
    {
        use("default");
        // Seen about once in 60 runs under TCG, and in two CI runs again right after a reboot: siw's accept lost our
        // RTR and first Send (see SiwGuest.missedFirstFpdu), the capture shows nothing from siw after its ACK of
        // them, and our client times out. Either siw's rping server is still waiting for the connection, or (when
        // our FIN woke siw's RTR handler, which then read both) it got our Send as we left, posted its Read and
        // failed with "wait for RDMA_READ_COMPLETE". That is siw's race, not this engine's, so the case runs again
        // on a guest booted afresh (closing that connection can crash the guest's iw_cm) and must pass within a few
        // attempts. Seen once in CI later in a run: after 56 pings of 64 KiB, siw's server reported its 57th Write
        // done and waited for our next advert, yet the capture held nothing from siw after our sink advert for 30 s.
        // That runs again too, only when the capture proves siw's silence (unansweredAdvert). Seen in CI once more:
        // siw's log showed the accept missing our RTR and Send, and its rping server, woken by our close, failed
        // "wait for RDMA_READ_ADV" (lostFirstAdvert).
        guest.passDespiteStalls("siw-server-crc-" + crc + "-" + size, (name) -> pingSiwRpingServer(name, crc, size));
    }

    /**
     * One run of our client against siw's rping server.
     *
     * @return null when it passed, or what siw's stall looked like (any other failure fails the test).
     */
    private static String pingSiwRpingServer(final String name, final String crc, final int size) throws Exception
    {
        final int guestPort = nextGuestPort();
        final int hostPort = guest.hostPort(guestPort);
        final SiwGuest.KernelLogMark mark = guest.kernelLogMark();
        final WireCapture.Decoded wire;
        try (WireCapture capture = WireCapture.start(captures.resolve(name + ".pcap"), hostPort))
        {
            final SiwGuest.Job server = startSiwRpingServer(name, guestPort, "-S " + size + " -V");
            final ByteArrayOutputStream out = new ByteArrayOutputStream();
            final ByteArrayOutputStream err = new ByteArrayOutputStream();
            final int exit = Rping.run(new String[] { "-c", "-a", "127.0.0.1", "-p", String.valueOf(hostPort),
                "-C", String.valueOf(PINGS), "-S", String.valueOf(size), "-V", "-v", "--crc", crc },
                new PrintStream(out, true), new PrintStream(err, true));
            final String failure = err.toString(StandardCharsets.UTF_8);
            final String missed = guest.missedFirstFpdu(mark, true);
            if (0 != exit && failure.contains(FIRST_ADVERT_TIMEOUT) && null != missed && !server.isDone())
            {
                // siw's rping server waits for a connection siw never reported; it would wait until its timeout.
                return MISSED_FIRST_FPDU + ": " + failure.strip() + " / siw: " + missed;
            }
            final SiwGuest.Result result = server.await(RUN_TIMEOUT);
            wire = capture.stopAndDecode();
            final String silent = 0 == exit ? null : unansweredAdvert(failure, wire, hostPort);
            if (null != silent)
            {
                return silent + " / siw: " + result.err().strip().replace('\n', ' ');
            }
            final String lost = 0 == exit ? null :
                lostFirstAdvert(failure, result.err(), guest.missedFirstFpdu(mark, false), wire, hostPort);
            if (null != lost)
            {
                return lost;
            }
            assertEquals(0, exit, "our client: " + failure + "\nsiw server: " + result + "\n" + wire +
                "\nsiw's CM:\n" + guest.siwLogSince(mark));
            assertSiwServerEnded(result);
            assertPings(out.toString(StandardCharsets.UTF_8));
        }
        assertCleanWire(wire, "preferred".equals(crc), 2);
        assertEquals(PINGS, wire.count("read-request"), "one RDMA Read per ping, by siw: " + wire);
        assertEquals(PINGS + 1, wire.count("write"), "one RDMA Write per ping and our zero-length RTR: " + wire);
        assertEquals(4 * PINGS, wire.count("send"), "four 16-byte Sends per ping: " + wire);
        assertEquals(hostPort, wire.lastFrom(), "siw's go-ahead after its last Write ends the exchange: " + wire);
        delete(wire);
        return null;
    }

    /**
     * siw as an MPA revision 1 responder behind {@code rdma_accept(id, NULL)} (as rping's server calls it) has no
     * IRD/ORD from the exchange and an ORD of 0: its RDMA Read fails to post, and it closes the connection. Our
     * client must say so and exit non-zero, without hanging.
     */
    @Test
    void shouldReportThatSiwCannotReadFromARevisionOneClient() throws Exception
    {
        use("default");
        // The same loss as in shouldPingSiwRpingServer, client-server model: siw's accept missed our first Send, so
        // its rping server never got as far as posting the Read this case is about.
        guest.passDespiteStalls("siw-server-rev1", SiwRpingInteropTest::pingSiwFromRevisionOneClient);
    }

    /**
     * One run of our revision 1 client against siw's rping server.
     *
     * @return null when it went as siw's missing ORD makes it go, or what siw's loss of our first FPDU looked like
     * (any other outcome fails the test).
     */
    private static String pingSiwFromRevisionOneClient(final String name) throws Exception
    {
        final int guestPort = nextGuestPort();
        final SiwGuest.KernelLogMark mark = guest.kernelLogMark();
        final SiwGuest.Job server = startSiwRpingServer(name, guestPort, "-S 64");
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final long startNs = System.nanoTime();
        final int exit = Rping.run(new String[] { "-c", "-a", "127.0.0.1", "-p",
            String.valueOf(guest.hostPort(guestPort)), "-C", "10", "--mpa-revision", "1" },
            new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true));
        final String message = err.toString(StandardCharsets.UTF_8);
        final String missed = guest.missedFirstFpdu(mark, false);
        if (0 != exit && message.contains(FIRST_ADVERT_TIMEOUT) && null != missed && !server.isDone())
        {
            return MISSED_FIRST_FPDU + ": " + message.strip() + " / siw: " + missed;
        }
        final SiwGuest.Result result = server.await(RUN_TIMEOUT);

        assertEquals(255, exit, message + "\nsiw server: " + result + "\nsiw's CM:\n" + guest.siwLogSince(mark));
        assertTrue(message.contains("rping client failed: the connection ended in state AWAIT_READ_GO after 0 pings") &&
            message.contains("closed by the peer"), message);
        assertTrue(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNs) < 20, "no hang: " + message);
        assertNotEquals(0, result.exitCode(), "siw's server fails too: " + result);
        assertTrue(result.err().contains("post send error"), "its RDMA Read could not be posted: " + result);
        return null;
    }

    /**
     * siw as a revision 2 initiator refuses a revision 1 Reply (it closes the connection); our server, told to
     * speak revision 1 only, must exit non-zero with the reason rather than 0 with no ping done.
     */
    @Test
    void shouldExitNonZeroWhenSiwRefusesOurRevisionOneReply() throws Exception
    {
        use("default");
        final int port = FreePorts.loopback();
        final ByteArrayOutputStream serverOut = new ByteArrayOutputStream();
        final ByteArrayOutputStream serverErr = new ByteArrayOutputStream();
        final Future<Integer> server = executor.submit(() -> Rping.run(new String[] { "-s", "-a", "127.0.0.1",
            "-p", String.valueOf(port), "-d", "--mpa-revision", "1" },
            new PrintStream(serverOut, true), new PrintStream(serverErr, true)));
        awaitOutput(serverOut, "listening on", server);

        final SiwGuest.Result client = guest.run("siw-client-refuses-rev1", "timeout 60 rping -c -a " +
            SiwGuest.HOST_FROM_GUEST + " -p " + port + " -C 10", RUN_TIMEOUT);

        assertEquals(255, server.get(60, TimeUnit.SECONDS), serverErr.toString(StandardCharsets.UTF_8));
        final String err = serverErr.toString(StandardCharsets.UTF_8);
        assertTrue(err.contains("rping server failed: the client left before its first ping"), err);
        assertNotEquals(0, client.exitCode(), "siw's client did not connect: " + client);
    }

    private static SiwGuest.Job startSiwRpingServer(final String name, final int guestPort, final String options)
        throws Exception
    {
        final SiwGuest.Job server = guest.start(name, "timeout 120 rping -s -a " + SiwGuest.GUEST_ADDRESS + " -p " +
            guestPort + " " + options + " & pid=$!\n" +
            "for i in $(seq 200); do ss -Hltn \"sport = :" + guestPort + "\" | grep -q LISTEN && break; sleep 0.05;" +
            " done\necho listening\nwait $pid");
        server.awaitPrinted("listening", Duration.ofSeconds(30));
        return server;
    }

    /**
     * rdma-core 44's rping server ends with 0 when its client disconnects, but now and then its connection manager
     * thread reads the event channel while main destroys it, and it exits 255 after the run with exactly this
     * message ("rdma_get_cm_event: Bad file descriptor"). That exit says nothing about the exchange, which the
     * client's validated pings and the capture prove; any other failure does.
     */
    static void assertSiwServerEnded(final SiwGuest.Result result)
    {
        if (0 != result.exitCode())
        {
            assertTrue(result.err().contains("server DISCONNECT EVENT") &&
                result.err().strip().endsWith("rdma_get_cm_event: Bad file descriptor"), "siw rping server: " + result);
        }
    }

    private static void assertPings(final String output)
    {
        final List<String> pings = output.lines().filter((l) -> l.startsWith("ping data: rdma-ping-")).toList();
        assertEquals(PINGS, pings.size(), "pings printed:\n" + SiwGuest.tail(output, 5));
        assertTrue(pings.get(PINGS - 1).startsWith("ping data: rdma-ping-" + (PINGS - 1) + ": "),
            pings.get(PINGS - 1));
    }

    static void assertCleanWire(final WireCapture.Decoded wire, final boolean crc, final int revision)
    {
        System.out.println(wire);
        assertEquals(List.of(), wire.problems(), "malformed, undecoded or dropped: " + wire);
        assertEquals(0, wire.badCrc(), "bad CRCs: " + wire);
        assertTrue(wire.fpdus() > 0, "no FPDU decoded: " + wire);
        assertEquals(crc, wire.crc(), "CRC negotiated: " + wire);
        assertEquals(revision, wire.revision(), "MPA revision: " + wire);
        if (crc)
        {
            assertEquals(wire.fpdus(), wire.goodCrc(), "every FPDU must carry a CRC that checks: " + wire);
        }
    }

    static void delete(final WireCapture.Decoded wire) throws IOException
    {
        // Kept when a run fails (for Wireshark), dropped when it passed: a 64 KiB run captures about 15 MB.
        Files.deleteIfExists(wire.pcap());
        Files.deleteIfExists(Path.of(wire.pcap() + ".log"));
    }

    private static void use(final String variant) throws Exception
    {
        if (!variant.equals(guest.variant()))
        {
            guest.loadSiw(variant);
        }
    }

    private static int nextGuestPort()
    {
        return SiwGuest.GUEST_PORTS[nextGuestPort++ % SiwGuest.GUEST_PORTS.length];
    }

    static void awaitOutput(final ByteArrayOutputStream out, final String text, final Future<Integer> process)
        throws Exception
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!out.toString(StandardCharsets.UTF_8).contains(text))
        {
            if (process.isDone() || System.nanoTime() - deadlineNs > 0)
            {
                throw new IllegalStateException("no '" + text + "' from our rping: " + out + (process.isDone() ?
                    " (exited " + process.get() + ")" : ""));
            }
            Thread.sleep(10);
        }
    }
}
