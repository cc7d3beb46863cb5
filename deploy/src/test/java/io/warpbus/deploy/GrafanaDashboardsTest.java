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
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ops/grafana: the provisioning files and the dashboards they load fit together (the data source's uid is the one
 * every panel names, the provider's path is where compose mounts the dashboards, the home dashboard exists), and
 * each dashboard is well formed (unique uids and panel ids, panels inside the 24-column grid, a query in every
 * target). That the queries parse is checked by promtool ({@link PromtoolTest}); that the metrics they name are
 * exported, against running services (gateway's OpsMetricNamesTest).
 */
@Timeout(60)
class GrafanaDashboardsTest
{
    static final Path DASHBOARDS = Path.of("ops/grafana/dashboards");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void shouldProvisionThePrometheusDataSourceAndTheDashboardsWhereComposeMountsThem()
    {
        final JsonNode datasource = DeployFiles.yaml(DeployFiles.file(
            "ops/grafana/provisioning/datasources/prometheus.yml")).path("datasources").path(0);
        assertEquals("warpbus-prometheus", datasource.path("uid").asString());
        assertEquals("prometheus", datasource.path("type").asString());
        assertEquals("http://prometheus:9090", datasource.path("url").asString());

        final JsonNode provider = DeployFiles.yaml(DeployFiles.file("ops/grafana/provisioning/dashboards/warpbus.yml"))
            .path("providers").path(0);
        assertEquals("file", provider.path("type").asString());
        final String path = provider.path("options").path("path").asString();
        final String compose = DeployFiles.read(DeployFiles.file("docker/compose.yaml"));
        assertTrue(compose.contains("../ops/grafana/dashboards:" + path + ":ro"), "compose mounts the dashboards at " +
            path);
        assertTrue(compose.contains("../ops/grafana/provisioning:/etc/grafana/provisioning:ro"), compose);
        final String home = "GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH: " + path + "/";
        final int at = compose.indexOf(home);
        assertTrue(at > 0, "home dashboard");
        final String file = compose.substring(at + home.length(), compose.indexOf('\n', at)).strip();
        assertTrue(Files.isRegularFile(DeployFiles.root().resolve(DASHBOARDS).resolve(file)), file);
    }

    @Test
    void shouldHaveWellFormedDashboardsForTheBusTheGatewayAndTheEngine()
    {
        final Set<String> uids = new TreeSet<>();
        for (final Path file : DeployFiles.list(DeployFiles.root().resolve(DASHBOARDS), ".json"))
        {
            final JsonNode dashboard = JSON.readTree(file.toFile());
            final String uid = dashboard.path("uid").asString();
            assertEquals(file.getFileName().toString(), uid + ".json", "uid and file name");
            assertTrue(uids.add(uid), uid);
            assertFalse(dashboard.path("title").asString().isEmpty(), uid);
            assertTrue(dashboard.path("panels").size() >= 8, uid + ": panels");
            final Set<Integer> ids = new TreeSet<>();
            for (final JsonNode panel : dashboard.path("panels"))
            {
                final String where = uid + " panel '" + panel.path("title").asString() + "'";
                assertTrue(ids.add(panel.path("id").asInt()), where + ": duplicate id");
                assertEquals("warpbus-prometheus", panel.path("datasource").path("uid").asString(), where);
                final JsonNode grid = panel.path("gridPos");
                assertTrue(grid.path("x").asInt() + grid.path("w").asInt() <= 24 && grid.path("w").asInt() > 0 &&
                    grid.path("h").asInt() > 0, where + ": " + grid);
                assertTrue(panel.path("targets").size() > 0, where + ": no query");
                final Set<String> refIds = new TreeSet<>();
                for (final JsonNode target : panel.path("targets"))
                {
                    assertFalse(target.path("expr").asString().isBlank(), where);
                    assertTrue(refIds.add(target.path("refId").asString()), where + ": duplicate refId");
                    assertEquals("warpbus-prometheus", target.path("datasource").path("uid").asString(), where);
                }
            }
        }
        assertEquals(Set.of("warpbus-bus", "warpbus-gateway", "warpbus-engine"), uids);
    }

    /**
     * Every query of every dashboard, for {@link PromtoolTest}.
     */
    static List<String> expressions()
    {
        final List<String> expressions = new ArrayList<>();
        for (final Path file : DeployFiles.list(DeployFiles.root().resolve(DASHBOARDS), ".json"))
        {
            for (final JsonNode panel : JSON.readTree(file.toFile()).path("panels"))
            {
                for (final JsonNode target : panel.path("targets"))
                {
                    expressions.add(target.path("expr").asString());
                }
            }
        }
        return expressions;
    }
}
