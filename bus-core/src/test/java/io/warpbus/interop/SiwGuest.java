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
import java.net.ServerSocket;
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
 * failed or killed test never leaves qemu running.
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

    private final Path share;
    private final Process process;
    private final Map<Integer, Integer> hostPorts;
    private final String info;
    private final Path guestDir;
    private final AtomicInteger jobs = new AtomicInteger();
    private final long bootMs;

    private SiwGuest(
        final Path share,
        final Process process,
        final Map<Integer, Integer> hostPorts,
        final String info,
        final Path guestDir,
        final long bootMs)
    {
        this.share = share;
        this.process = process;
        this.hostPorts = hostPorts;
        this.info = info;
        this.guestDir = guestDir;
        this.bootMs = bootMs;
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

        final Path share = Files.createTempDirectory(workDir, "share-");
        final Map<Integer, Integer> hostPorts = new LinkedHashMap<>();
        final List<String> command = new ArrayList<>(List.of(scripts.resolve("run-guest.sh").toString(),
            "--guest", guestDir.toString(), "--share", share.toString(), "--timeout", "1800",
            "--watch-pid", String.valueOf(ProcessHandle.current().pid())));
        for (final int guestPort : GUEST_PORTS)
        {
            final int hostPort = freePort();
            hostPorts.put(guestPort, hostPort);
            command.add("--forward");
            command.add(hostPort + ":" + guestPort);
        }
        final long startNs = System.nanoTime();
        final Process process = new ProcessBuilder(command)
            .redirectErrorStream(true).redirectOutput(workDir.resolve("run-guest.log").toFile()).start();
        final Path ready = share.resolve("ready");
        final long deadlineNs = startNs + BOOT_TIMEOUT.toNanos();
        while (!Files.exists(ready))
        {
            if (!process.isAlive() || Files.exists(share.resolve("failed")) || System.nanoTime() - deadlineNs > 0)
            {
                final String why = !process.isAlive() ? "qemu exited (" + process.exitValue() + ")" :
                    Files.exists(share.resolve("failed")) ? Files.readString(share.resolve("failed")) :
                    "not ready within " + BOOT_TIMEOUT;
                destroyTree(process);
                throw new IllegalStateException("the siw guest did not come up: " + why + "\nrun-guest.log:\n" +
                    tail(workDir.resolve("run-guest.log"), 20) + "\nconsole:\n" + tail(share.resolve("console.log"),
                    30) + "\nagent:\n" + tail(share.resolve("agent.log"), 30));
            }
            Thread.sleep(100);
        }
        final long bootMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
        return new SiwGuest(share, process, hostPorts, Files.readString(ready), guestDir, bootMs);
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
        return info + "boot=" + bootMs + " ms\n" + manifest;
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
        return new Job(id);
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
     * @throws Exception when it does not load.
     */
    public void loadSiw(final String variant) throws Exception
    {
        final Result result = run("siw-" + variant, "rdma link delete siw0 2>/dev/null; rmmod siw && " +
            "insmod /opt/warpbus-siw/" + variant + "/siw.ko && rdma link add siw0 type siw netdev eth0 && " +
            "rdma link show", Duration.ofSeconds(60));
        if (0 != result.exitCode() || !result.out().contains("siw0"))
        {
            throw new IllegalStateException("cannot load siw " + variant + ": " + result);
        }
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
                    qemu.onExit().join();
                });
            }
        }
        catch (final IOException | NumberFormatException ex)
        {
            System.err.println("siw guest: cannot read qemu's pid: " + ex);
        }
    }

    /** A job in the guest. */
    public final class Job
    {
        private final String id;

        private Job(final String id)
        {
            this.id = id;
        }

        /**
         * Has the job ended?
         *
         * @return true once its exit code is written.
         */
        public boolean isDone()
        {
            return Files.exists(share.resolve("out").resolve(id + ".rc"));
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
            final Path out = share.resolve("out").resolve(id + ".out");
            return Files.exists(out) && Files.readString(out).contains(text);
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
            final Path out = share.resolve("out");
            final Path rc = out.resolve(id + ".rc");
            final long deadlineNs = System.nanoTime() + timeout.toNanos();
            while (!Files.exists(rc))
            {
                if (System.nanoTime() - deadlineNs > 0)
                {
                    throw new IllegalStateException("guest job " + id + " did not end within " + timeout +
                        "; output so far: " + read(out.resolve(id + ".out")) + " / " + read(out.resolve(id + ".err")));
                }
                if (!process.isAlive())
                {
                    throw new IllegalStateException("the guest is gone; console:\n" + console());
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

    private static int freePort() throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0))
        {
            return socket.getLocalPort();
        }
    }
}
