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
package io.warpbus.deploy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.warpbus.testing.RequiredTools;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docker/compose.yaml as Docker Compose reads it: {@code docker-compose config} (Debian's docker-compose) must
 * accept it and prints it resolved (anchors, merges, variables), and that is what the checks read: every service
 * the system needs, health checks and start order, fixed addresses that match the host table, ports the images
 * expose, files the bind mounts need, and Prometheus's targets on services that listen there.
 */
@Timeout(120)
class ComposeFileTest
{
    private static final String COMPOSE = "docker/compose.yaml";
    private static final Map<String, String> VARIABLES = Map.of("WARPBUS_DEMO_PASSWORD", "compose-test-pw",
        "GRAFANA_ADMIN_PASSWORD", "compose-test-admin");
    private static final Pattern LISTEN = Pattern.compile("0\\.0\\.0\\.0:(\\d+)");
    private static JsonNode config;

    @BeforeAll
    static void resolve()
    {
        final DeployFiles.Result result = compose(VARIABLES, List.of());
        assertEquals(0, result.exitCode(), "docker-compose config: " + result.output());
        config = DeployFiles.YAML.readTree(result.output());
    }

    @Test
    void shouldRunTheWholeSystem()
    {
        final Set<String> services = new TreeSet<>(config.path("services").propertyNames());
        assertEquals(Set.of("gateway-users", "engine", "gateway-1", "gateway-2", "recorder", "recorder-metrics",
            "loadgen", "prometheus", "grafana"), services);
        for (final String name : services)
        {
            final JsonNode service = config.path("services").path(name);
            if (!"gateway-users".equals(name))
            {
                assertTrue(service.path("healthcheck").path("test").isArray(), name + ": no health check");
                assertEquals("unless-stopped", service.path("restart").asString(), name);
            }
        }
        for (final String engineFed : List.of("engine", "loadgen"))
        {
            assertTrue(config.path("services").path(engineFed).path("stdin_open").asBoolean(),
                engineFed + " stops at the end of its standard input: keep it open");
        }
    }

    @Test
    void shouldStartInOrderOnHealth()
    {
        assertDependsOn("engine", "gateway-users", "service_completed_successfully");
        for (final String dependent : List.of("gateway-1", "gateway-2", "recorder", "loadgen"))
        {
            assertDependsOn(dependent, "engine", "service_healthy");
        }
        for (final String gateway : List.of("gateway-1", "gateway-2"))
        {
            assertDependsOn("prometheus", gateway, "service_healthy");
            assertDependsOn(gateway, "gateway-users", "service_completed_successfully");
        }
        assertDependsOn("prometheus", "engine", "service_healthy");
        assertDependsOn("grafana", "prometheus", "service_healthy");
        assertDependsOn("recorder-metrics", "recorder", "service_started");
        for (final String name : config.path("services").propertyNames())
        {
            final JsonNode dependsOn = config.path("services").path(name).path("depends_on");
            for (final String target : dependsOn.propertyNames())
            {
                if ("service_healthy".equals(dependsOn.path(target).path("condition").asString()))
                {
                    assertTrue(config.path("services").path(target).has("healthcheck"), name + " waits for " +
                        target + "'s health, which it does not check");
                }
            }
        }
    }

    @Test
    void shouldGiveEveryBusHostAFixedAddressMatchingTheHostTable()
    {
        final Map<String, String> addresses = new java.util.HashMap<>();
        for (final String name : config.path("services").propertyNames())
        {
            final JsonNode address = config.path("services").path(name).path("networks").path("warpbus")
                .path("ipv4_address");
            if (!address.isMissingNode())
            {
                addresses.put(name, address.asString());
            }
        }
        for (final String name : List.of("engine", "gateway-1", "gateway-2", "recorder", "loadgen"))
        {
            final Set<String> table = new TreeSet<>();
            config.path("services").path(name).path("extra_hosts").forEach((h) -> table.add(h.asString()));
            for (final String host : List.of("engine", "gateway-1", "gateway-2", "recorder", "loadgen"))
            {
                assertTrue(table.contains(host + ":" + addresses.get(host)), name + "'s host table misses " + host +
                    " at " + addresses.get(host) + ": " + table);
            }
        }
    }

    @Test
    void shouldListenOnlyOnPortsItsImageExposes()
    {
        for (final String name : config.path("services").propertyNames())
        {
            final JsonNode service = config.path("services").path(name);
            if (!service.has("build"))
            {
                continue;
            }
            final Path dockerfile = DeployFiles.file(service.path("build").path("dockerfile").asString());
            assertTrue(Files.isRegularFile(dockerfile), name + ": " + dockerfile);
            final String target = service.path("build").path("target").asString();
            assertTrue(DockerfileTest.SERVICES.contains(target), name + ": build target '" + target + "' is none of " +
                DockerfileTest.SERVICES);
            final Set<Integer> exposed = DockerfileTest.exposed(Dockerfile.parse(dockerfile).target(target));
            final Set<Integer> listens = new TreeSet<>();
            final List<String> words = new ArrayList<>();
            service.path("command").forEach((w) -> words.add(w.asString()));
            service.path("environment").forEach((v) -> words.add(v.asString()));
            for (final String word : words)
            {
                final Matcher matcher = LISTEN.matcher(word);
                while (matcher.find())
                {
                    listens.add(Integer.parseInt(matcher.group(1)));
                }
            }
            final int replay = words.indexOf("--replay-endpoint");
            if (replay >= 0)
            {
                listens.add(Integer.parseInt(words.get(replay + 1).substring(words.get(replay + 1).indexOf(':') + 1)));
            }
            service.path("ports").forEach((p) -> listens.add(p.path("target").asInt()));
            final JsonNode test = service.path("healthcheck").path("test");
            if ("/opt/warpbus/healthcheck.sh".equals(test.path(1).asString()))
            {
                listens.add(Integer.parseInt(test.path(2).asString()));
            }
            if (!"gateway-users".equals(name))
            {
                assertFalse(listens.isEmpty(), name);
            }
            assertTrue(exposed.containsAll(listens), name + " listens on " + listens + ", " + dockerfile +
                " exposes " + exposed);
        }
    }

    @Test
    void shouldMountFilesThatExistAndScrapeServicesThatListen()
    {
        for (final String name : config.path("services").propertyNames())
        {
            for (final JsonNode volume : config.path("services").path(name).path("volumes"))
            {
                final String source = volume.asString().split(":")[0];
                if (source.startsWith("/"))
                {
                    assertTrue(Files.exists(Path.of(source)), name + " mounts " + source + ", which is missing");
                    assertTrue(Path.of(source).normalize().startsWith(DeployFiles.root().resolve("ops")),
                        name + " mounts " + source + " from outside ops/");
                }
            }
        }
        final JsonNode prometheus = DeployFiles.yaml(DeployFiles.file("ops/prometheus/prometheus.yml"));
        for (final JsonNode job : prometheus.path("scrape_configs"))
        {
            for (final JsonNode target : job.path("static_configs").path(0).path("targets"))
            {
                final String host = target.asString().split(":")[0];
                final String port = target.asString().split(":")[1];
                if ("localhost".equals(host))
                {
                    continue;
                }
                final StringBuilder listeners = new StringBuilder();
                for (final String name : config.path("services").propertyNames())
                {
                    final JsonNode service = config.path("services").path(name);
                    if (name.equals(host) || ("service:" + host).equals(service.path("network_mode").asString()))
                    {
                        listeners.append(service.path("command")).append(service.path("healthcheck"))
                            .append(service.path("ports"));
                    }
                }
                assertTrue(listeners.toString().contains(port), job.path("job_name").asString() + " scrapes " +
                    target.asString() + ": nothing of service " + host + " listens on " + port);
            }
        }
    }

    @Test
    void shouldRefuseToStartWithoutTheDemoUsersPassword()
    {
        final DeployFiles.Result result = compose(Map.of("GRAFANA_ADMIN_PASSWORD", "x"),
            List.of("WARPBUS_DEMO_PASSWORD"));
        assertNotEquals(0, result.exitCode(), result.output());
        assertTrue(result.output().contains("set WARPBUS_DEMO_PASSWORD"), result.output());
    }

    private static void assertDependsOn(final String service, final String target, final String condition)
    {
        assertEquals(condition, config.path("services").path(service).path("depends_on").path(target)
            .path("condition").asString(), service + " depends on " + target);
    }

    private static DeployFiles.Result compose(final Map<String, String> variables, final List<String> unset)
    {
        RequiredTools.require("the compose file check", "docker-compose");
        return DeployFiles.run(List.of(RequiredTools.find("docker-compose"), "-f", COMPOSE, "config"), variables,
            unset, 60);
    }
}
