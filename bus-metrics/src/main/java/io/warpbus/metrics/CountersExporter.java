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
package io.warpbus.metrics;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.system.DiskSpaceMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.warpbus.bus.status.CountersFile;
import io.warpbus.bus.status.PeerHeartbeat;
import org.agrona.CloseHelper;

/**
 * A Prometheus endpoint for WarpBus processes that have no HTTP server of their own (the recorder, the
 * {@code pub}/{@code sub} tools): it maps their bus counters files read-only, the way {@code ./warpbus stat} does,
 * and serves them through {@link BusCountersMeterBinder} under the names every other process exports. It runs
 * beside the process (a sidecar container sharing its counters volume, or a second process on the host), so the
 * process itself stays free of HTTP and Micrometer.
 * <pre>
 * ./warpbus metrics --root /dev/shm/warpbus --listen 0.0.0.0:9102 --disk /var/lib/warpbus/journal
 * </pre>
 * <ul>
 *     <li>{@code --root DIR} (repeatable): every sub-directory holding a {@code counters.dat} is a bus to export
 *     while its owner is alive; a bus that closes, whose heartbeat stops changing for 5 s or that is replaced by a
 *     restarted owner is dropped and the new one picked up, rescanned every {@code --interval-ms} (1000);</li>
 *     <li>{@code --dir DIR} (repeatable): one bus directory, exported whenever its owner is alive;</li>
 *     <li>{@code --disk PATH} (repeatable): {@code disk_free_bytes} and {@code disk_total_bytes} of a file system
 *     (the journal's);</li>
 *     <li>{@code --listen HOST:PORT} (127.0.0.1:9102), {@code --application NAME} (the {@code application} tag,
 *     {@code warpbus-recorder}).</li>
 * </ul>
 * {@code GET /metrics} is the Prometheus text format, with {@code warpbus_exporter_buses} counting the buses
 * exported; {@code GET /health} answers 200 while at least one bus is exported and alive, 503 otherwise, so an
 * orchestrator can probe a process that has no endpoint of its own.
 */
public final class CountersExporter implements AutoCloseable
{
    /** Exit code for bad options. */
    public static final int EXIT_USAGE = 2;
    private static final long LIVENESS_TIMEOUT_NS =
        TimeUnit.MILLISECONDS.toNanos(CountersFile.DEFAULT_LIVENESS_TIMEOUT_MS);
    private static final String USAGE = "usage: warpbus metrics (--root DIR | --dir DIR)... [--disk PATH]... " +
        "[--listen HOST:PORT] [--application NAME] [--interval-ms MS]";

    private final List<Path> roots;
    private final List<Path> dirs;
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Map<Path, Exported> exported = new HashMap<>();
    private final ScheduledExecutorService scanner;
    private final HttpServer server;

    /** Buses not exported, by directory: the heartbeat each had when it was last found dead or dropped. */
    private final Map<Path, Long> silent = new HashMap<>();

    private record Exported(CountersFile file, BusCountersMeterBinder binder, PeerHeartbeat heartbeat)
    {
    }

    /**
     * Start exporting and serving.
     *
     * @param roots       directories whose sub-directories are buses.
     * @param dirs        bus directories.
     * @param disks       file systems whose space to export.
     * @param listen      where to serve; port 0 for a free one.
     * @param application the {@code application} tag.
     * @param intervalMs  how often to rescan and refresh.
     * @throws IOException if the address cannot be bound.
     */
    public CountersExporter(
        final List<Path> roots,
        final List<Path> dirs,
        final List<Path> disks,
        final InetSocketAddress listen,
        final String application,
        final long intervalMs) throws IOException
    {
        this.roots = List.copyOf(roots);
        this.dirs = List.copyOf(dirs);
        registry.config().commonTags("application", application);
        for (final Path disk : disks)
        {
            new DiskSpaceMetrics(disk.toFile()).bindTo(registry);
        }
        Gauge.builder("warpbus.exporter.buses", this, CountersExporter::busCount)
            .description("bus counters files exported now").register(registry);
        scan();
        scanner = Executors.newSingleThreadScheduledExecutor((task) ->
        {
            final Thread thread = new Thread(task, "warpbus-exporter-scan");
            thread.setDaemon(true);
            return thread;
        });
        scanner.scheduleWithFixedDelay(this::scan, intervalMs, intervalMs, TimeUnit.MILLISECONDS);
        server = HttpServer.create(listen, 16);
        server.createContext("/metrics", (exchange) -> respond(exchange, 200,
            "text/plain; version=0.0.4; charset=utf-8", registry.scrape()));
        server.createContext("/health", (exchange) ->
        {
            final int buses = busCount();
            respond(exchange, buses > 0 ? 200 : 503, "application/json", "{\"status\":\"" +
                (buses > 0 ? "UP" : "DOWN") + "\",\"buses\":" + buses + "}");
        });
        server.setExecutor(Executors.newSingleThreadExecutor((task) ->
        {
            final Thread thread = new Thread(task, "warpbus-exporter-http");
            thread.setDaemon(true);
            return thread;
        }));
        server.start();
    }

    /**
     * Where the server listens.
     *
     * @return the bound address.
     */
    public InetSocketAddress address()
    {
        return server.getAddress();
    }

    /**
     * The buses exported now.
     *
     * @return their count.
     */
    public synchronized int busCount()
    {
        return exported.size();
    }

    /**
     * Drop the buses whose owner went away and export the new ones.
     * <p>
     * An exported bus is alive while its heartbeat keeps changing, timed on this process's monotonic clock: the
     * value is the owner's wall clock, and a step of the host's clock (NTP) must neither drop a live bus nor keep a
     * dead one. Only a bus seen for the first time is judged by its heartbeat's age on the wall clock, the one thing
     * known about it then; a bus dropped or found dead is exported again once its heartbeat changes.
     */
    public synchronized void scan()
    {
        final long nowMs = System.currentTimeMillis();
        final long nowNs = System.nanoTime();
        for (final Iterator<Map.Entry<Path, Exported>> it = exported.entrySet().iterator(); it.hasNext(); )
        {
            final Map.Entry<Path, Exported> entry = it.next();
            final Exported bus = entry.getValue();
            final long heartbeat = bus.file.heartbeatTimestampMs();
            bus.heartbeat.read(heartbeat, nowNs);
            if (bus.file.isOwnerClosed() || bus.heartbeat.silentNs(nowNs) > LIVENESS_TIMEOUT_NS ||
                bus.file.isReplacedOnDisk())
            {
                CloseHelper.quietCloseAll(bus.binder, bus.file);
                it.remove();
                silent.put(entry.getKey(), heartbeat);
            }
        }
        final List<Path> candidates = candidates();
        silent.keySet().retainAll(candidates);
        for (final Path dir : candidates)
        {
            if (!exported.containsKey(dir) && Files.isRegularFile(dir.resolve(CountersFile.FILENAME)))
            {
                export(dir, nowMs, nowNs);
            }
        }
    }

    @Override
    public synchronized void close()
    {
        server.stop(0);
        scanner.shutdownNow();
        for (final Exported entry : exported.values())
        {
            CloseHelper.quietCloseAll(entry.binder, entry.file);
        }
        exported.clear();
        registry.close();
    }

    private void export(final Path dir, final long nowMs, final long nowNs)
    {
        final CountersFile file;
        try
        {
            file = CountersFile.mapExisting(dir);
        }
        catch (final IllegalStateException ex)
        {
            return; // being created or replaced: the next scan tries again
        }
        final long heartbeat = file.heartbeatTimestampMs();
        final Long lastSilent = silent.get(dir);
        final boolean alive = !file.isOwnerClosed() &&
            (null == lastSilent ? file.isAlive(nowMs) : heartbeat != lastSilent);
        if (!alive)
        {
            file.close();
            silent.put(dir, heartbeat);
            return;
        }
        silent.remove(dir);
        final PeerHeartbeat tracked = new PeerHeartbeat();
        tracked.read(heartbeat, nowNs);
        tracked.heard(nowNs);
        final BusCountersMeterBinder binder = new BusCountersMeterBinder(file.countersReader(),
            Tags.of("bus", dir.getFileName().toString()));
        binder.bindTo(registry);
        exported.put(dir, new Exported(file, binder, tracked));
    }

    private List<Path> candidates()
    {
        final List<Path> result = new ArrayList<>(dirs);
        for (final Path root : roots)
        {
            if (!Files.isDirectory(root))
            {
                continue;
            }
            try (DirectoryStream<Path> children = Files.newDirectoryStream(root, Files::isDirectory))
            {
                for (final Path child : children)
                {
                    result.add(child);
                }
            }
            catch (final IOException ignore)
            {
                // a root that cannot be listed now may be listable at the next scan
            }
        }
        return result;
    }

    private void refreshAll()
    {
        synchronized (this)
        {
            for (final Exported entry : exported.values())
            {
                entry.binder.refresh();
            }
        }
    }

    private void respond(final HttpExchange exchange, final int status, final String contentType, final String body)
        throws IOException
    {
        refreshAll();
        final byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody())
        {
            out.write(bytes);
        }
    }

    /**
     * Run until the JVM is stopped.
     *
     * @param args options, see the class comment.
     * @throws Exception if the listen address cannot be bound.
     */
    public static void main(final String[] args) throws Exception
    {
        final CountersExporter exporter = start(args, System.err);
        if (null == exporter)
        {
            System.exit(EXIT_USAGE);
            return;
        }
        System.out.println("warpbus metrics: serving http://" + exporter.address().getHostString() + ":" +
            exporter.address().getPort() + "/metrics");
        System.out.flush();
        final CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() ->
        {
            exporter.close();
            stopped.countDown();
        }, "warpbus-exporter-shutdown"));
        stopped.await();
    }

    /**
     * Parse the options and start an exporter.
     *
     * @param args options, see the class comment.
     * @param err  where a bad option is explained.
     * @return the running exporter, or null when an option was bad (explained on {@code err}).
     * @throws IOException if the listen address cannot be bound.
     */
    public static CountersExporter start(final String[] args, final PrintStream err) throws IOException
    {
        final List<Path> roots = new ArrayList<>();
        final List<Path> dirs = new ArrayList<>();
        final List<Path> disks = new ArrayList<>();
        String listen = "127.0.0.1:9102";
        String application = "warpbus-recorder";
        long intervalMs = 1_000;
        try
        {
            for (int i = 0; i < args.length; i += 2)
            {
                final String option = args[i];
                if (i + 1 >= args.length)
                {
                    throw new IllegalArgumentException("option " + option + " needs a value");
                }
                final String value = args[i + 1];
                switch (option)
                {
                    case "--root" -> roots.add(Path.of(value));
                    case "--dir" -> dirs.add(Path.of(value));
                    case "--disk" -> disks.add(existingDirectory(value));
                    case "--listen" -> listen = value;
                    case "--application" -> application = value;
                    case "--interval-ms" -> intervalMs = positive(option, value);
                    default -> throw new IllegalArgumentException("unknown option " + option);
                }
            }
            if (roots.isEmpty() && dirs.isEmpty())
            {
                throw new IllegalArgumentException("give at least one --root or --dir");
            }
            return new CountersExporter(roots, dirs, disks, address(listen), application, intervalMs);
        }
        catch (final IllegalArgumentException ex)
        {
            err.println("warpbus metrics: " + ex.getMessage());
            err.println(USAGE);
            return null;
        }
    }

    private static Path existingDirectory(final String value)
    {
        final Path path = Path.of(value);
        if (!Files.isDirectory(path))
        {
            throw new IllegalArgumentException("--disk " + value + " is not a directory");
        }
        return path;
    }

    private static long positive(final String option, final String value)
    {
        try
        {
            final long parsed = Long.parseLong(value);
            if (parsed <= 0)
            {
                throw new IllegalArgumentException(option + " must be positive, not " + value);
            }
            return parsed;
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(option + " must be a number, not '" + value + "'", ex);
        }
    }

    static InetSocketAddress address(final String hostPort)
    {
        final int colon = hostPort.lastIndexOf(':');
        if (colon <= 0 || colon == hostPort.length() - 1)
        {
            throw new IllegalArgumentException("--listen must be HOST:PORT, not '" + hostPort + "'");
        }
        final int port;
        try
        {
            port = Integer.parseInt(hostPort.substring(colon + 1));
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("--listen port must be a number, not '" + hostPort + "'", ex);
        }
        if (port < 0 || port > 65535)
        {
            throw new IllegalArgumentException("--listen port must be 0 to 65535, not " + port);
        }
        return new InetSocketAddress(hostPort.substring(0, colon), port);
    }
}
