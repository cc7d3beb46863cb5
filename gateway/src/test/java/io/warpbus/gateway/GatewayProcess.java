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
package io.warpbus.gateway;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.warpbus.testing.Await;
import io.warpbus.testing.ChildProcess;

/**
 * A gateway in a JVM of its own, pointed at an {@link EngineFixture}: for tests that kill it with {@code kill -9}
 * and start it again on the same journal, or run several side by side.
 */
final class GatewayProcess implements AutoCloseable
{
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private final ChildProcess process;
    private final int port;

    private GatewayProcess(final ChildProcess process, final int port)
    {
        this.process = process;
        this.port = port;
    }

    /**
     * Start a gateway and wait until it is ready (its readiness health is UP: the engine is connected both ways).
     *
     * @param name        its name and log file name.
     * @param dir         its directories (bus, journal) go under here, so a restart with the same finds them.
     * @param credentials the credentials file.
     * @param engine      the engine.
     * @param origin      its route at the engine.
     * @param port        its HTTP port.
     * @return the running gateway.
     */
    static GatewayProcess start(final String name, final Path dir, final Path credentials, final EngineFixture engine,
        final int origin, final int port)
    {
        return start(name, dir, credentials, engine, origin, port, List.of());
    }

    /**
     * Start a gateway with more properties.
     *
     * @param name        its name (and directories).
     * @param dir         where its directories go.
     * @param credentials the credentials file.
     * @param engine      the engine.
     * @param origin      its route at the engine.
     * @param port        its HTTP port.
     * @param extra       more {@code --property=value} arguments.
     * @return the running gateway.
     */
    static GatewayProcess start(final String name, final Path dir, final Path credentials, final EngineFixture engine,
        final int origin, final int port, final List<String> extra)
    {
        final List<String> args = new ArrayList<>(List.of(engine.gatewayArguments(origin)));
        args.addAll(extra);
        args.add("--server.port=" + port);
        args.add("--warpbus.gateway.name=" + name);
        args.add("--warpbus.gateway.bus-directory=" + dir.resolve(name + "-bus"));
        args.add("--warpbus.gateway.journal.directory=" + dir.resolve(name + "-journal"));
        args.add("--warpbus.gateway.credentials-file=" + credentials);
        args.add("--logging.level.root=WARN");
        final ChildProcess child = ChildProcess.start(name, dir.resolve("logs"), List.of(),
            GatewayApplication.class.getName(), args);
        final GatewayProcess gateway = new GatewayProcess(child, port);
        try
        {
            Await.until(name + " to be ready", 60_000, gateway::isReady);
        }
        catch (final AssertionError ex)
        {
            child.close();
            throw new AssertionError(ex.getMessage() + child.dump(), ex);
        }
        return gateway;
    }

    int port()
    {
        return port;
    }

    boolean isReady()
    {
        if (!process.isAlive())
        {
            throw new AssertionError(process.name() + " exited" + process.dump());
        }
        try
        {
            final HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/actuator/health/readiness")).build(),
                HttpResponse.BodyHandlers.ofString());
            return 200 == response.statusCode();
        }
        catch (final java.io.IOException ex)
        {
            return false;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    /**
     * One sample of the gateway's Prometheus scrape.
     *
     * @param sample the sample's name, without labels ({@code warpbus_gateway_orders_sent_total}).
     * @return its value.
     */
    double metric(final String sample)
    {
        final String scrape;
        try
        {
            scrape = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/prometheus"))
                .build(), HttpResponse.BodyHandlers.ofString()).body();
        }
        catch (final java.io.IOException ex)
        {
            throw new java.io.UncheckedIOException("scraping " + process.name(), ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
        for (final String line : scrape.split("\n"))
        {
            if (line.startsWith(sample + " ") || line.startsWith(sample + "{"))
            {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        throw new AssertionError("no " + sample + " in the scrape of " + process.name() + ":\n" + scrape);
    }

    /**
     * {@code kill -9}.
     *
     * @throws InterruptedException if interrupted while waiting for it to go.
     */
    void kill() throws InterruptedException
    {
        process.kill();
    }

    String dump()
    {
        return process.dump();
    }

    @Override
    public void close()
    {
        process.close();
    }
}
