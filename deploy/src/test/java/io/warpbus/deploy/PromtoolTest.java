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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.warpbus.testing.RequiredTools;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ops/prometheus checked by Prometheus's own promtool (Debian's {@code prometheus}): both scrape configurations
 * and the rules they load, and the rules' unit tests, of which every alert has at least one that expects it to
 * fire. The unit tests are shown to catch a change: a copy of the rules with an alert's delay changed fails them.
 */
@Tag("prometheus")
@Timeout(120)
class PromtoolTest
{
    private static final Path RULES = Path.of("ops/prometheus/rules/warpbus-alerts.yml");
    private static final Path TESTS = Path.of("ops/prometheus/tests/warpbus-alerts-test.yml");

    @TempDir
    Path dir;

    @Test
    void shouldAcceptBothScrapeConfigurationsAndTheirRules()
    {
        for (final String config : List.of("ops/prometheus/prometheus.yml", "ops/prometheus/prometheus-k8s.yml"))
        {
            final DeployFiles.Result result = promtool("check", "config", config);
            assertEquals(0, result.exitCode(), result.output());
            assertTrue(result.output().contains("SUCCESS: 1 rule files found"), result.output());
            assertTrue(result.output().contains(" is valid prometheus config file syntax"), result.output());
        }
        final DeployFiles.Result rules = promtool("check", "rules", RULES.toString());
        assertEquals(0, rules.exitCode(), rules.output());
        assertTrue(rules.output().contains("SUCCESS: " + alertNames().size() + " rules found"), rules.output());
    }

    @Test
    void shouldPassEveryAlertsUnitTest()
    {
        final DeployFiles.Result result = promtool("test", "rules", TESTS.toString());
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.output().contains("SUCCESS"), result.output());
    }

    @Test
    void shouldHaveAFiringUnitTestAndARunbookEntryForEveryAlert()
    {
        final Set<String> alerts = alertNames();
        assertTrue(alerts.containsAll(Set.of("WarpBusSubscriberLag", "WarpBusBackPressure", "WarpBusSlowConsumerDrops",
            "WarpBusSubscriberDisconnects", "WarpBusGapsRepaired", "WarpBusGapsUnrepaired", "WarpBusLogonFailures",
            "WarpBusJournalDiskSpaceLow", "WarpBusOrderLatencyP99", "WarpBusEngineDown")), alerts.toString());

        final Set<String> firing = new TreeSet<>();
        final Set<String> quiet = new TreeSet<>();
        for (final JsonNode test : DeployFiles.yaml(DeployFiles.root().resolve(TESTS)).path("tests"))
        {
            for (final JsonNode ruleTest : test.path("alert_rule_test"))
            {
                (ruleTest.path("exp_alerts").isEmpty() ? quiet : firing).add(ruleTest.path("alertname").asString());
            }
        }
        final Set<String> untested = new TreeSet<>(alerts);
        untested.removeAll(firing);
        assertEquals(Set.of(), untested, "alerts without a unit test that expects them to fire");
        final Set<String> neverQuiet = new TreeSet<>(alerts);
        neverQuiet.removeAll(quiet);
        assertEquals(Set.of(), neverQuiet, "alerts without a unit test that expects them to stay quiet");

        final Set<String> anchors = RunbookAnchors.of(DeployFiles.file("docs/runbook.md"));
        for (final JsonNode rule : rules())
        {
            final String url = rule.path("annotations").path("runbook_url").asString();
            assertTrue(url.startsWith("docs/runbook.md#"), rule.path("alert").asString() + ": " + url);
            assertTrue(anchors.contains(url.substring(url.indexOf('#') + 1)),
                rule.path("alert").asString() + ": no heading for " + url + " in docs/runbook.md");
            assertTrue(Set.of("info", "warning", "critical").contains(rule.path("labels").path("severity").asString()),
                rule.toString());
        }
    }

    @Test
    void shouldFailTheUnitTestsWhenAnAlertChanges() throws IOException
    {
        final String rules = DeployFiles.read(DeployFiles.root().resolve(RULES));
        final Matcher engineDown = Pattern.compile("(alert: WarpBusEngineDown\\n(?:.*\\n)*?\\s+for: )30s")
            .matcher(rules);
        assertTrue(engineDown.find(), "WarpBusEngineDown's 'for: 30s'");
        Files.createDirectories(dir.resolve("rules"));
        Files.createDirectories(dir.resolve("tests"));
        Files.writeString(dir.resolve("rules/warpbus-alerts.yml"), engineDown.replaceFirst("$110m"));
        Files.copy(DeployFiles.root().resolve(TESTS), dir.resolve("tests/warpbus-alerts-test.yml"));

        final DeployFiles.Result result = promtool("test", "rules", dir.resolve("tests/warpbus-alerts-test.yml")
            .toString());
        assertNotEquals(0, result.exitCode(), result.output());
        assertTrue(result.output().contains("alertname: WarpBusEngineDown"), result.output());
    }

    @Test
    void shouldParseEveryDashboardQuery() throws IOException
    {
        // promtool checks PromQL inside rule files: each query becomes a recording rule of a scratch file.
        final List<String> expressions = GrafanaDashboardsTest.expressions();
        assertTrue(expressions.size() > 50, "queries: " + expressions.size());
        final StringBuilder rules = new StringBuilder("groups:\n  - name: dashboards\n    rules:\n");
        for (int i = 0; i < expressions.size(); i++)
        {
            rules.append("      - record: dashboard:query_").append(i).append("\n        expr: '")
                .append(expressions.get(i).replace("'", "''")).append("'\n");
        }
        final Path file = dir.resolve("dashboard-queries.yml");
        Files.writeString(file, rules);
        final DeployFiles.Result result = promtool("check", "rules", file.toString());
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.output().contains("SUCCESS: " + expressions.size() + " rules found"), result.output());

        Files.writeString(file, "groups:\n  - name: broken\n    rules:\n      - record: x:y\n" +
            "        expr: 'sum by (job (rate(warpbus_bus_errors_total[1m]))'\n");
        assertNotEquals(0, promtool("check", "rules", file.toString()).exitCode(), "promtool accepts bad PromQL");
    }

    static Set<String> alertNames()
    {
        final Set<String> names = new TreeSet<>();
        for (final JsonNode rule : rules())
        {
            names.add(rule.path("alert").asString());
        }
        return names;
    }

    static List<JsonNode> rules()
    {
        final List<JsonNode> rules = new java.util.ArrayList<>();
        for (final JsonNode group : DeployFiles.yaml(DeployFiles.root().resolve(RULES)).path("groups"))
        {
            for (final JsonNode rule : group.path("rules"))
            {
                if (rule.has("alert"))
                {
                    rules.add(rule);
                }
            }
        }
        return rules;
    }

    private static DeployFiles.Result promtool(final String... args)
    {
        RequiredTools.require("the Prometheus configuration and rule tests", "promtool");
        final List<String> command = new java.util.ArrayList<>(List.of(RequiredTools.find("promtool")));
        command.addAll(List.of(args));
        return DeployFiles.run(command, Map.of(), List.of(), 60);
    }
}
