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
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import io.warpbus.testing.FreePorts;

/**
 * A Debian bookworm guest with the Linux soft-iWARP driver (siw) and rdma-core's tools, booted under qemu by the
 * scripts in {@code ops/interop/siw/}: {@code build-guest.sh} builds it once into a cache outside the repository,
 * {@code run-guest.sh} boots it with a 9p share for jobs and results and the qemu user network as its only link.
 * <pre>
 *   test JVM (host)                                    guest (qemu TCG)
 *   127.0.0.1:hostPort(p) --hostfwd--&gt;                 10.0.2.15:p    (siw0 on eth0)
 *   127.0.0.1:port        &lt;----------------------      10.0.2.2:port
 *   share/jobs/NAME.sh  --9p--&gt; agent runs it --&gt; share/out/NAME.{out,err,rc}
 * </pre>
 * The guest stops when {@link #close()} is called, when the JVM that started it dies, or after 30 minutes, so a
 * failed or killed test never leaves qemu running. The guest's kernel log, with siw's connection-management debug
 * messages, is kept live in the share ({@code kernel.log}): a kernel fault in the guest (see {@link #kernelFault()})
 * or a connection siw left half established (see {@link #missedFirstFpdu}) shows only there. A guest
 * whose kernel faulted is booted afresh by {@link #rebootIfFaulted(String)} with the same host ports.
 */
public final class SiwGuest implements AutoCloseable
{
    /** Guest ports reachable from the host through qemu's user network, each at {@link #hostPort(int)}. */
    public static final int[] GUEST_PORTS = { 7101, 7102, 7103, 7104, 7105, 7106, 7107, 7108 };
    /** The guest's address on the user network. */
    public static final String GUEST_ADDRESS = "10.0.2.15";
    /** The host's loopback as the guest reaches it. */
    public static final String HOST_FROM_GUEST = "10.0.2.2";

    private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(20);
    private static final Duration BOOT_TIMEOUT = Duration.ofMinutes(3);
    private static final String DEFAULT_VARIANT = "default";
    /**
     * Attempts of a case siw's race can stall: about one run in 60 stalls under TCG, but in two CI runs the attempt
     * right after a fresh boot stalled again (passing at the third), so a retry also waits for the guest to settle.
     */
    private static final int STALL_ATTEMPTS = 4;
    private static final long SETTLE_MS = 5_000;
    /** What the guest kernel prints when it faults or a task hangs; after any of them its RDMA stack is not trusted. */
    private static final List<String> FAULTS = List.of("kernel BUG at", "BUG: ", "Oops: ", "general protection fault",
        "Kernel panic", "NETDEV WATCHDOG", "blocked for more than");
    /** siw_cm.c debug messages (Linux 6.1): "siw0: CEP[0x...] function: message". */
    private static final Pattern CEP_LINE = Pattern.compile("CEP\\[(0x[0-9a-f]+)] (\\w+): (.*)$");

    private final Path scripts;
    private final Path workDir;
    private final Path guestDir;
    private final Map<Integer, Integer> hostPorts;
    private final AtomicInteger jobs = new AtomicInteger();
    private Path share;
    private Process process;
    private String info;
    private long bootMs;
    private int boots;
    private String variant = DEFAULT_VARIANT;

    private SiwGuest(final Path scripts, final Path workDir, final Path guestDir, final Map<Integer, Integer> hostPorts)
    {
        this.scripts = scripts;
        this.workDir = workDir;
        this.guestDir = guestDir;
        this.hostPorts = hostPorts;
    }

    /**
     * A position in the guest's kernel log, to read only what the kernel printed after it.
     *
     * @param boot   which boot of the guest the position belongs to.
     * @param offset characters of the log before it.
     */
    public record KernelLogMark(int boot, int offset)
    {
    }

    /**
     * Build the guest if the cache lacks it, then boot it and wait until siw0 is up.
     *
     * @param scripts the {@code ops/interop/siw} directory.
     * @param workDir where the share and logs go.
     * @return the running guest.
     * @throws Exception when the build or the boot fails or times out; the message carries the log's tail.
     */
    public static SiwGuest boot(final Path scripts, final Path workDir) throws Exception
    {
        Files.createDirectories(workDir);
        final Path buildLog = workDir.resolve("build-guest.log");
        final Path buildOut = workDir.resolve("build-guest.out");
        final Process build = new ProcessBuilder(scripts.resolve("build-guest.sh").toString())
            .redirectOutput(buildOut.toFile()).redirectError(buildLog.toFile()).start();
        if (!build.waitFor(BUILD_TIMEOUT.toSeconds(), TimeUnit.SECONDS))
        {
            destroyTree(build);
            throw new IllegalStateException("build-guest.sh did not finish in " + BUILD_TIMEOUT + ":\n" +
                tail(buildLog, 40));
        }
        if (0 != build.exitValue())
        {
            throw new IllegalStateException("build-guest.sh failed (" + build.exitValue() + "):\n" +
                tail(buildLog, 40));
        }
        final List<String> lines = Files.readAllLines(buildOut);
        final Path guestDir = Path.of(lines.get(lines.size() - 1).trim());

        final Map<Integer, Integer> hostPorts = new LinkedHashMap<>();
        for (final int guestPort : GUEST_PORTS)
        {
            hostPorts.put(guestPort, FreePorts.loopback());
        }
        final SiwGuest guest = new SiwGuest(scripts, workDir, guestDir, hostPorts);
        guest.start();
        return guest;
    }

    private void start() throws Exception
    {
        boots++;
        final Path newShare = Files.createTempDirectory(workDir, "share-");
        final List<String> command = new ArrayList<>(List.of(scripts.resolve("run-guest.sh").toString(),
            "--guest", guestDir.toString(), "--share", newShare.toString(), "--timeout", "1800",
            "--watch-pid", String.valueOf(ProcessHandle.current().pid())));
        for (final Map.Entry<Integer, Integer> forward : hostPorts.entrySet())
        {
            command.add("--forward");
            command.add(forward.getValue() + ":" + forward.getKey());
        }
        final Path log = workDir.resolve(1 == boots ? "run-guest.log" : "run-guest-" + boots + ".log");
        final long startNs = System.nanoTime();
        final Process qemu = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        final Path ready = newShare.resolve("ready");
        final long deadlineNs = startNs + BOOT_TIMEOUT.toNanos();
        while (!Files.exists(ready))
        {
            if (!qemu.isAlive() || Files.exists(newShare.resolve("failed")) || System.nanoTime() - deadlineNs > 0)
            {
                final String why = !qemu.isAlive() ? "qemu exited (" + qemu.exitValue() + ")" :
                    Files.exists(newShare.resolve("failed")) ? Files.readString(newShare.resolve("failed")) :
                    "not ready within " + BOOT_TIMEOUT;
                destroyTree(qemu);
                throw new IllegalStateException("the siw guest did not come up: " + why + "\n" + log.getFileName() +
                    ":\n" + tail(log, 20) + "\nconsole:\n" + tail(newShare.resolve("console.log"), 30) +
                    "\nagent:\n" + tail(newShare.resolve("agent.log"), 30));
            }
            Thread.sleep(100);
        }
        final String report = Files.readString(ready);
        if (report.contains("siw_cm_debug=0 "))
        {
            destroyTree(qemu);
            throw new IllegalStateException("the guest's kernel gives no debug messages for siw_cm.c, which the " +
                "tests read to tell siw's known stalls from failures (dynamic debug):\n" + report);
        }
        share = newShare;
        process = qemu;
        info = report;
        bootMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
        variant = DEFAULT_VARIANT;
    }

    /**
     * What the guest runs: kernel, package versions, the siw module and link.
     *
     * @return the agent's ready report plus the guest build's manifest.
     */
    public String info()
    {
        String manifest = "";
        try
        {
            manifest = Files.readString(guestDir.resolve("manifest.txt"));
        }
        catch (final IOException ex)
        {
            manifest = "(no manifest: " + ex.getMessage() + ")";
        }
        return info + "boot=" + bootMs + " ms" + (boots > 1 ? " (boot " + boots + ")" : "") + "\n" + manifest;
    }

    /**
     * The host port that reaches a guest port.
     *
     * @param guestPort one of {@link #GUEST_PORTS}.
     * @return the port on 127.0.0.1.
     */
    public int hostPort(final int guestPort)
    {
        final Integer port = hostPorts.get(guestPort);
        if (null == port)
        {
            throw new IllegalArgumentException("guest port " + guestPort + " is not forwarded");
        }
        return port;
    }

    /**
     * Start a shell script in the guest, in the background.
     *
     * @param name   a label for the job (made unique).
     * @param script sh commands; bound every command with {@code timeout}.
     * @return the job.
     * @throws IOException if the share cannot be written.
     */
    public Job start(final String name, final String script) throws IOException
    {
        final String id = String.format("%03d-%s", jobs.incrementAndGet(), name.replaceAll("[^A-Za-z0-9_-]", "_"));
        final Path tmp = share.resolve("jobs").resolve("." + id + ".tmp");
        Files.writeString(tmp, script + "\n", StandardCharsets.UTF_8);
        Files.move(tmp, share.resolve("jobs").resolve(id + ".sh"), StandardCopyOption.ATOMIC_MOVE);
        return new Job(id, share.resolve("out"), process);
    }

    /**
     * Run a shell script in the guest and wait for it.
     *
     * @param name    a label.
     * @param script  sh commands.
     * @param timeout how long to wait.
     * @return its result.
     * @throws Exception on timeout or I/O failure.
     */
    public Result run(final String name, final String script, final Duration timeout) throws Exception
    {
        return start(name, script).await(timeout);
    }

    /**
     * Load another build of siw (see build-guest.sh) and create siw0 again.
     *
     * @param variant default, p2p, crc or v1.
     * @throws Exception when it does not load, even on a guest booted afresh.
     */
    public void loadSiw(final String variant) throws Exception
    {
        try
        {
            insmodSiw(variant);
        }
        catch (final IllegalStateException ex)
        {
            // siw held by a connection an earlier case left behind ("Module siw is in use"): start clean.
            reboot("siw that would not unload: " + ex.getMessage());
            if (!variant.equals(this.variant))
            {
                insmodSiw(variant);
            }
        }
    }

    private void insmodSiw(final String variant) throws Exception
    {
        final Result result = run("siw-" + variant, "rdma link delete siw0 2>/dev/null; rmmod siw && " +
            "insmod /opt/warpbus-siw/" + variant + "/siw.ko && " +
            "echo 'file siw_cm.c +p' > /proc/dynamic_debug/control && " +
            "rdma link add siw0 type siw netdev eth0 && rdma link show", Duration.ofSeconds(60));
        if (0 != result.exitCode() || !result.out().contains("siw0"))
        {
            throw new IllegalStateException("cannot load siw " + variant + ": " + result);
        }
        this.variant = variant;
    }

    /**
     * The build of siw loaded now.
     *
     * @return default, p2p, crc or v1; default after every boot.
     */
    public String variant()
    {
        return variant;
    }

    /**
     * The tail of the guest's serial console, for failure messages.
     *
     * @return the last lines.
     */
    public String console()
    {
        return tail(share.resolve("console.log"), 20);
    }

    /**
     * Where the guest's kernel log ends now.
     *
     * @return a mark for {@link #kernelLogSince(KernelLogMark)}.
     */
    public KernelLogMark kernelLogMark()
    {
        return new KernelLogMark(boots, read(share.resolve("kernel.log")).length());
    }

    /**
     * What the guest's kernel printed after a mark (all of this boot's log if the guest was booted again since).
     *
     * @param mark from {@link #kernelLogMark()}.
     * @return the lines.
     */
    public List<String> kernelLogSince(final KernelLogMark mark)
    {
        final String log = read(share.resolve("kernel.log"));
        final int from = mark.boot() == boots ? Math.min(mark.offset(), log.length()) : 0;
        return log.substring(from).lines().toList();
    }

    /**
     * Has the guest's kernel faulted (a BUG, an Oops) since it booted? After a fault in the RDMA stack the guest
     * serves no new connection: the iw_cm work queue's worker died holding a lock, so no connection request ever
     * reaches an application again.
     *
     * @return the fault's first lines, or null.
     */
    public String kernelFault()
    {
        final List<String> lines = kernelLogSince(new KernelLogMark(boots, 0));
        for (int i = 0; i < lines.size(); i++)
        {
            final String line = lines.get(i);
            if (FAULTS.stream().anyMatch(line::contains))
            {
                final List<String> fault = new ArrayList<>(List.of(line));
                for (int j = i + 1; j < Math.min(lines.size(), i + 12); j++)
                {
                    if (lines.get(j).contains("Workqueue:") || lines.get(j).contains("RIP:") ||
                        lines.get(j).contains("Comm:"))
                    {
                        fault.add(lines.get(j).strip());
                    }
                }
                return String.join(" / ", fault);
            }
        }
        return null;
    }

    /**
     * If the guest's kernel faulted, stop the guest and boot it afresh (same host ports, siw "default"), so that
     * the next case meets a working siw rather than one that can no longer accept a connection.
     *
     * @param when what ran, for the report.
     * @return the fault, or null when there was none and nothing was done.
     * @throws Exception when the guest does not come up again.
     */
    public String rebootIfFaulted(final String when) throws Exception
    {
        final String fault = kernelFault();
        if (null != fault)
        {
            reboot("kernel fault (seen " + when + "): " + fault);
        }
        return fault;
    }

    /**
     * Stop the guest and boot it afresh: same host ports, siw "default", a new share (jobs of the old boot are
     * gone with it).
     *
     * @param why for the report.
     * @throws Exception when the guest does not come up again.
     */
    public void reboot(final String why) throws Exception
    {
        System.out.println("siw guest: booting the guest again after a " + why);
        close();
        start();
        System.out.println("siw guest up again in " + bootMs + " ms (boot " + boots + ")");
    }

    /** A run of a case that returns null when it passed, or what siw's stall looked like. */
    @FunctionalInterface
    public interface StallingRun
    {
        /**
         * Run the case once.
         *
         * @param name of this attempt, for its jobs and captures.
         * @return null when it passed, or the stall; anything else fails the case by throwing.
         * @throws Exception when it fails.
         */
        String attempt(String name) throws Exception;
    }

    /**
     * Run a case that the guest can stall until it passes, at most {@value #STALL_ATTEMPTS} times: siw's accept
     * race ({@link #missedFirstFpdu}), a Read Request siw never answers, or the end of a connection that never left
     * the guest, each proven by the case's own evidence. After each stall the guest boots afresh, the last time too:
     * siw keeps the stalled connection, and unloading siw or closing that connection then hangs or crashes the
     * guest's iw_cm, which would fail the cases after this one.
     *
     * @param name of the case.
     * @param run  one attempt.
     * @throws Exception when an attempt fails, or when siw stalled every time.
     */
    public void passDespiteStalls(final String name, final StallingRun run) throws Exception
    {
        String stall = run.attempt(name);
        for (int attempt = 2; null != stall; attempt++)
        {
            reboot("stall (" + name + ")");
            if (attempt > STALL_ATTEMPTS)
            {
                throw new AssertionError("siw stalled " + STALL_ATTEMPTS + " times in a row in " + name + ": " +
                    stall);
            }
            System.out.println("siw stalled, running " + name + " again once the guest has settled: " + stall);
            Thread.sleep(SETTLE_MS);
            stall = run.attempt(name + "-again-" + attempt);
        }
    }

    /**
     * siw's passive side loses the start of a connection now and then (Linux 6.1, seen under TCG): siw_accept
     * sends the MPA Reply first and only then hands the socket to the queue pair (client-server model) or to its
     * ready-to-receive handler (peer-to-peer), so an FPDU that the initiator sends at once and that arrives in
     * between meets siw's connection-manager callback, which ignores data in RDMA mode ("siw_cm_llp_data_ready:
     * cep state: 7"). Nothing reads that FPDU until more data arrives; the initiator, waiting for an answer, sends
     * none. With peer-to-peer siw never reports the connection established, and when it is closed siw reports a
     * close the iw_cm does not expect in that state: a kernel BUG (iwcm.c, cm_close_handler).
     *
     * @param mark        taken before the connection was made.
     * @param peerToPeer  whether the connection negotiated a ready-to-receive exchange: then siw must also not
     *                    have reported it established after the loss (it would have, had later data brought the
     *                    lost FPDU in after all). Client-server, siw reports it established in the same breath.
     * @return what siw's CM logged of that connection, or null when no connection siw accepted after the mark
     * lost its first FPDU.
     */
    public String missedFirstFpdu(final KernelLogMark mark, final boolean peerToPeer)
    {
        for (final SiwConnection connection : siwConnections(mark))
        {
            if (connection.missed && (!peerToPeer || !connection.establishedAfterMiss))
            {
                return String.join(" / ", connection.lines);
            }
        }
        return null;
    }

    /**
     * Has siw reported a connection it accepted after the mark as established to the iw_cm? With peer-to-peer it
     * does so once it has read the initiator's ready-to-receive FPDU.
     *
     * @param mark taken before the connection was made.
     * @return true once siw's "reason=3" (IW_CM_EVENT_ESTABLISHED) upcall for it is in the log.
     */
    public boolean establishedBySiw(final KernelLogMark mark)
    {
        return siwConnections(mark).stream().anyMatch((connection) -> connection.established);
    }

    /**
     * The connections siw accepted after a mark, each from its endpoint's allocation to its release (siw reuses the
     * addresses of released endpoints), as siw_cm.c's debug messages tell them.
     */
    private List<SiwConnection> siwConnections(final KernelLogMark mark)
    {
        final List<SiwConnection> accepted = new ArrayList<>();
        final Map<String, SiwConnection> open = new LinkedHashMap<>();
        for (final String line : kernelLogSince(mark))
        {
            final Matcher cep = CEP_LINE.matcher(line);
            if (!cep.find())
            {
                continue;
            }
            final String id = cep.group(1);
            final String function = cep.group(2);
            final String message = cep.group(3);
            if ("siw_cep_alloc".equals(function) || !open.containsKey(id))
            {
                open.put(id, new SiwConnection());
            }
            final SiwConnection connection = open.get(id);
            connection.lines.add(function + ": " + message);
            if ("siw_accept".equals(function) && message.contains("send mpa reply"))
            {
                connection.replied = true;
                accepted.add(connection);
            }
            else if (connection.replied && "siw_cm_llp_data_ready".equals(function) &&
                message.startsWith("cep state: 7,"))
            {
                connection.missed = true;
            }
            else if (connection.replied && "siw_cm_upcall".equals(function) && message.contains("reason=3,"))
            {
                connection.established = true;
                connection.establishedAfterMiss = connection.missed;
            }
            else if ("__siw_cep_dealloc".equals(function))
            {
                open.remove(id);
            }
        }
        return accepted;
    }

    /**
     * The guest's TCP sockets on a port, with their queues and timers, for failure messages.
     *
     * @param guestPort the guest's port.
     * @return {@code ss}'s answer, or why there is none; never waits more than 20 s.
     */
    public String sockets(final int guestPort)
    {
        try
        {
            final Result result = run("sockets-" + guestPort, "timeout 10 ss -tanoi '( sport = :" + guestPort +
                " )'", Duration.ofSeconds(20));
            return result.out().strip() + (result.err().isBlank() ? "" : "\n" + result.err().strip());
        }
        catch (final Exception ex)
        {
            return "(no answer from the guest: " + ex.getMessage() + ")";
        }
    }

    /**
     * What siw's connection manager logged after a mark, for failure messages.
     *
     * @param mark taken before the case.
     * @return siw's CM lines and any kernel fault, at most the last 30.
     */
    public String siwLogSince(final KernelLogMark mark)
    {
        final List<String> lines = kernelLogSince(mark).stream()
            .filter((l) -> l.contains("CEP[") || l.contains("siw") || FAULTS.stream().anyMatch(l::contains)).toList();
        return tail(String.join("\n", lines), 30);
    }

    /** What siw's CM logged of one passive connection. */
    private static final class SiwConnection
    {
        private final List<String> lines = new ArrayList<>();
        private boolean replied;
        private boolean missed;
        private boolean established;
        private boolean establishedAfterMiss;
    }

    @Override
    public void close()
    {
        destroyTree(process);
        try
        {
            final Path pidFile = share.resolve("qemu.pid");
            if (Files.exists(pidFile))
            {
                final long pid = Long.parseLong(Files.readString(pidFile).trim());
                ProcessHandle.of(pid).ifPresent((qemu) ->
                {
                    qemu.destroyForcibly();
                    try
                    {
                        qemu.onExit().get(30, TimeUnit.SECONDS);
                    }
                    catch (final Exception ex)
                    {
                        System.err.println("siw guest: qemu (pid " + pid + ") did not exit: " + ex);
                    }
                });
            }
        }
        catch (final IOException | NumberFormatException ex)
        {
            System.err.println("siw guest: cannot read qemu's pid: " + ex);
        }
    }

    /** A job in the guest. */
    public static final class Job
    {
        private final String id;
        private final Path out;
        private final Process guest;

        private Job(final String id, final Path out, final Process guest)
        {
            this.id = id;
            this.out = out;
            this.guest = guest;
        }

        /**
         * Has the job ended?
         *
         * @return true once its exit code is written.
         */
        public boolean isDone()
        {
            return Files.exists(out.resolve(id + ".rc"));
        }

        /**
         * Does the job's output contain a string yet?
         *
         * @param text to look for.
         * @return true when its stdout so far contains it.
         * @throws IOException on a read failure.
         */
        public boolean printed(final String text) throws IOException
        {
            final Path stdout = out.resolve(id + ".out");
            return Files.exists(stdout) && Files.readString(stdout).contains(text);
        }

        /**
         * Wait until the job's output contains a string.
         *
         * @param text    to wait for.
         * @param timeout how long.
         * @throws Exception when the job ends or the time runs out first.
         */
        public void awaitPrinted(final String text, final Duration timeout) throws Exception
        {
            final long deadlineNs = System.nanoTime() + timeout.toNanos();
            while (!printed(text))
            {
                if (isDone() || System.nanoTime() - deadlineNs > 0)
                {
                    throw new IllegalStateException("guest job " + id + " did not print '" + text + "': " +
                        (isDone() ? await(Duration.ofSeconds(1)) : "still running after " + timeout));
                }
                Thread.sleep(20);
            }
        }

        /**
         * Wait for the job to end.
         *
         * @param timeout how long.
         * @return its exit code and output.
         * @throws Exception when it does not end in time (the guest process keeps its own timeout).
         */
        public Result await(final Duration timeout) throws Exception
        {
            final Path rc = out.resolve(id + ".rc");
            final long deadlineNs = System.nanoTime() + timeout.toNanos();
            while (!Files.exists(rc))
            {
                if (System.nanoTime() - deadlineNs > 0)
                {
                    throw new IllegalStateException("guest job " + id + " did not end within " + timeout +
                        "; output so far: " + read(out.resolve(id + ".out")) + " / " + read(out.resolve(id + ".err")));
                }
                if (!guest.isAlive())
                {
                    throw new IllegalStateException("the guest of job " + id + " is gone; console:\n" +
                        tail(out.resolveSibling("console.log"), 20));
                }
                Thread.sleep(20);
            }
            return new Result(Integer.parseInt(Files.readString(rc).trim()), read(out.resolve(id + ".out")),
                read(out.resolve(id + ".err")));
        }
    }

    /**
     * What a guest job left.
     *
     * @param exitCode its exit code.
     * @param out      its stdout.
     * @param err      its stderr.
     */
    public record Result(int exitCode, String out, String err)
    {
        @Override
        public String toString()
        {
            return "exit " + exitCode + "\n--- stdout\n" + tail(out, 30) + "\n--- stderr\n" + tail(err, 30);
        }
    }

    static String tail(final String text, final int lines)
    {
        final String[] all = text.split("\n", -1);
        final int from = Math.max(0, all.length - lines);
        return String.join("\n", java.util.Arrays.copyOfRange(all, from, all.length));
    }

    static String tail(final Path file, final int lines)
    {
        return tail(read(file), lines);
    }

    private static String read(final Path file)
    {
        try
        {
            return Files.exists(file) ? Files.readString(file) : "";
        }
        catch (final IOException ex)
        {
            return "(cannot read " + file + ": " + ex.getMessage() + ")";
        }
    }

    private static void destroyTree(final Process process)
    {
        process.destroy();
        try
        {
            if (!process.waitFor(15, TimeUnit.SECONDS))
            {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        }
        catch (final InterruptedException ex)
        {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
