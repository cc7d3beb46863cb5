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

import java.nio.file.Path;

import io.warpbus.gateway.session.InstrumentRegistry;
import io.warpbus.gateway.session.SessionCore;
import io.warpbus.gateway.ws.TradingServer;
import io.warpbus.testing.Await;
import io.warpbus.testing.BusTestWatcher;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * Base of the Spring Boot tests that run one gateway in the test's JVM against a real matching engine over the bus
 * (an {@link EngineFixture} with one route), with the credentials of {@link GatewayFixtures}. Subclasses are
 * {@code @SpringBootTest(webEnvironment = RANDOM_PORT)} with {@code @DirtiesContext}, so every class gets a fresh
 * gateway and engine.
 */
@ExtendWith(BusTestWatcher.class)
abstract class GatewayTestBase
{
    @TempDir
    static Path dir;
    static EngineFixture engine;

    @LocalServerPort
    int port;

    @Autowired
    TradingServer tradingServer;

    @Autowired
    SessionCore core;

    @Autowired
    InstrumentRegistry instruments;

    /**
     * The gateway's properties, pointing at a fresh engine; called once per class when Spring builds the context.
     *
     * @param registry Spring's registry.
     */
    static void gatewayProperties(final DynamicPropertyRegistry registry)
    {
        registry.add("warpbus.gateway.name", () -> "gateway-test");
        registry.add("warpbus.gateway.bus-directory", () -> dir().resolve("gateway-bus").toString());
        registry.add("warpbus.gateway.credentials-file", () -> GatewayFixtures.writeCredentials(dir()).toString());
        registry.add("warpbus.gateway.journal.directory", () -> dir().resolve("gateway-journal").toString());
        registry.add("warpbus.gateway.instruments.max-quantity.ACME", () -> "10000");
        registry.add("warpbus.gateway.sessions.max-sessions", () -> "64");
        registry.add("warpbus.gateway.trading.port", () -> "0");
        for (final String argument : engine().gatewayArguments(1))
        {
            final int equals = argument.indexOf('=');
            registry.add(argument.substring(2, equals), () -> argument.substring(equals + 1));
        }
    }

    /**
     * Rate limits out of the way, for tests that send orders in floods.
     *
     * @param registry Spring's registry.
     */
    static void floodProperties(final DynamicPropertyRegistry registry)
    {
        registry.add("warpbus.gateway.rate-limits.session-orders-per-second", () -> "100000");
        registry.add("warpbus.gateway.rate-limits.session-order-burst", () -> "100000");
        registry.add("warpbus.gateway.rate-limits.user-orders-per-second", () -> "100000");
        registry.add("warpbus.gateway.rate-limits.user-order-burst", () -> "100000");
    }

    static synchronized EngineFixture engine()
    {
        if (null == engine)
        {
            engine = new EngineFixture(dir(), 1, false);
        }
        return engine;
    }

    private static Path dir()
    {
        if (null == dir)
        {
            throw new IllegalStateException("@TempDir not injected yet");
        }
        return dir;
    }

    @AfterAll
    static void closeEngine()
    {
        if (null != engine)
        {
            engine.close();
            engine = null;
        }
    }

    /**
     * Every test starts with the gateway connected to the engine both ways and the instruments known.
     */
    @BeforeEach
    void awaitEngine()
    {
        Await.until("the gateway to connect to the engine", TestClient.TIMEOUT_MS,
            () -> core.isEngineConnected() && core.isEngineCaughtUp() && core.isMarketDataConnected() &&
            instruments.size() == GatewayFixtures.instruments().length);
    }

    /**
     * The port the tests' WebSocket clients use: the gateway's own trading server; a subclass for the web server's
     * endpoint returns {@link #port}.
     *
     * @return the port of a {@code /ws} endpoint.
     */
    int wsPort()
    {
        return tradingServer.port();
    }

    TestClient client()
    {
        return new TestClient(wsPort());
    }
}
