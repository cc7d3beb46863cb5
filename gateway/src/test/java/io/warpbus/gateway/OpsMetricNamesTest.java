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

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.warpbus.bus.Bus;
import io.warpbus.bus.BusContext;
import io.warpbus.demo.service.EngineStats;
import io.warpbus.demo.service.MetricsServer;
import io.warpbus.iwarp.ThreadingMode;
import io.warpbus.journal.Journal;
import io.warpbus.journal.JournalContext;
import io.warpbus.journal.StreamRecorder;
import io.warpbus.metrics.CountersExporter;
import io.warpbus.testing.Await;
import io.warpbus.testing.FreePorts;
import io.warpbus.testing.ProjectFiles;
import org.agrona.CloseHelper;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every metric that an alert rule (ops/prometheus/rules) or a Grafana dashboard (ops/grafana/dashboards) names is
 * exported by a running service: this gateway against a real engine on the bus, the engine's own endpoint
 * ({@link MetricsServer}, as {@code EngineMain} serves it) and a real recorder recording the engine's market data,
 * exported by {@code warpbus metrics} ({@link CountersExporter}) as the recorder's image runs it. A metric of one
 * service must come from that service: {@code warpbus_engine_*} from the engine, {@code warpbus_gateway_*} from the
 * gateway, {@code warpbus_exporter_*} from the recorder's exporter, and the bus's own {@code warpbus_bus_*} from all
 * three.
 */
@SpringBootTest(classes = GatewayApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@Timeout(120)
class OpsMetricNamesTest extends GatewayTestBase
{
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "offset", "by", "without", "on",
        "ignoring", "group_left", "group_right", "inf", "nan");
    /** Series Prometheus makes itself. */
    private static final Set<String> SYNTHETIC = Set.of("up", "ALERTS", "ALERTS_FOR_STATE");

    private MetricsServer engineMetrics;
    private Bus recorderBus;
    private Journal recorderJournal;
    private StreamRecorder recorder;
    private Thread recorderThread;
    private final AtomicBoolean recording = new AtomicBoolean(true);
    private CountersExporter recorderExporter;

    @DynamicPropertySource
    static void properties(final DynamicPropertyRegistry registry)
    {
        gatewayProperties(registry);
    }

    @AfterEach
    void stop() throws InterruptedException
    {
        recording.set(false);
        if (null != recorderThread)
        {
            recorderThread.join(10_000);
        }
        CloseHelper.quietCloseAll(recorderExporter, recorder, recorderJournal, recorderBus, engineMetrics);
    }

    @Test
    void shouldExportEveryMetricTheRulesAndDashboardsName() throws Exception
    {
        try (TestClient alice = client())
        {
            alice.logon("alice", "alice-pw");
        }
        final EngineStats stats = new EngineStats(engine().service(), System.nanoTime());
        engineMetrics = new MetricsServer(new InetSocketAddress("127.0.0.1", 0), engine().service(), stats)
            .busCounters(engine().bus().countersFile(), "engine")
            .diskSpace(dir);
        stats.sample(System.nanoTime());
        startRecorder();
        recorderExporter = CountersExporter.start(new String[] {"--root", dir.resolve("recorder-shm").toString(),
            "--disk", dir.resolve("recorder-journal").toString(), "--listen", "127.0.0.1:0"}, System.err);
        Await.until("the recorder's bus to be exported", 10_000, () -> recorderExporter.busCount() > 0);

        final Set<String> gateway = names(scrape(port, "/actuator/prometheus"));
        final Set<String> engineNames = names(scrape(engineMetrics.address().getPort(), "/metrics"));
        final Set<String> recorderNames = names(scrape(recorderExporter.address().getPort(), "/metrics"));

        final Set<String> referenced = referencedNames();
        assertTrue(referenced.size() > 40 && referenced.containsAll(Set.of("warpbus_subscriber_lag",
            "warpbus_gateway_order_round_trip_seconds_bucket", "warpbus_engine_match_latency_seconds",
            "disk_free_bytes", "warpbus_exporter_buses", "warpbus_bus_slow_consumer_drops_total")),
            referenced.toString());

        final Set<String> missing = new TreeSet<>();
        for (final String name : referenced)
        {
            final boolean exported;
            if (name.startsWith("warpbus_engine_"))
            {
                exported = engineNames.contains(name);
            }
            else if (name.startsWith("warpbus_gateway_"))
            {
                exported = gateway.contains(name);
            }
            else if (name.startsWith("warpbus_exporter_"))
            {
                exported = recorderNames.contains(name);
            }
            else if (name.startsWith("warpbus_bus_"))
            {
                exported = gateway.contains(name) && engineNames.contains(name) && recorderNames.contains(name);
            }
            else
            {
                exported = gateway.contains(name) || engineNames.contains(name) || recorderNames.contains(name);
            }
            if (!exported)
            {
                missing.add(name);
            }
        }
        assertEquals(Set.of(), missing, "named by a rule or dashboard but not exported; gateway exports " + gateway +
            "; engine " + engineNames + "; recorder " + recorderNames);
    }

    private void startRecorder()
    {
        recorderBus = Bus.launch(new BusContext().directory(dir.resolve("recorder-shm")).name("record-1")
            .threadingMode(ThreadingMode.INVOKER));
        recorderJournal = Journal.open(new JournalContext().directory(dir.resolve("recorder-journal")));
        recorder = new StreamRecorder(recorderBus, recorderJournal, engine().marketData(),
            "127.0.0.1:" + FreePorts.loopback(), Throwable::printStackTrace);
        recorderThread = new Thread(() ->
        {
            final IdleStrategy idle = new BackoffIdleStrategy(100, 10, 1_000, 1_000_000);
            while (recording.get())
            {
                idle.idle(recorderBus.doWork() + recorder.doWork());
            }
        }, "ops-recorder");
        recorderThread.start();
    }

    /**
     * The metric names in every alert rule's and every dashboard query's PromQL: label matchers, strings, ranges and
     * grouping clauses removed, then every identifier that is neither a function nor a keyword.
     */
    static Set<String> referencedNames() throws IOException
    {
        final Path root = ProjectFiles.root();
        final Set<String> names = new TreeSet<>();
        try (Stream<Path> rules = Files.list(root.resolve("ops/prometheus/rules")))
        {
            for (final Path file : rules.toList())
            {
                final Map<String, Object> document = new Yaml().load(Files.readString(file));
                for (final Object group : (List<?>)document.get("groups"))
                {
                    for (final Object rule : (List<?>)((Map<?, ?>)group).get("rules"))
                    {
                        names.addAll(metricNames(String.valueOf(((Map<?, ?>)rule).get("expr"))));
                    }
                }
            }
        }
        final JsonMapper json = JsonMapper.builder().build();
        try (Stream<Path> dashboards = Files.list(root.resolve("ops/grafana/dashboards")))
        {
            for (final Path file : dashboards.toList())
            {
                for (final JsonNode panel : json.readTree(file.toFile()).path("panels"))
                {
                    for (final JsonNode target : panel.path("targets"))
                    {
                        names.addAll(metricNames(target.path("expr").asString()));
                    }
                }
            }
        }
        names.removeAll(SYNTHETIC);
        return names;
    }

    static Set<String> metricNames(final String expression)
    {
        final String stripped = expression
            .replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"", "\"\"")
            .replaceAll("\\{[^}]*}", " ")
            .replaceAll("\\[[^\\]]*]", " ")
            .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ");
        final Set<String> names = new TreeSet<>();
        final Matcher matcher = IDENTIFIER.matcher(stripped);
        while (matcher.find())
        {
            final String word = matcher.group();
            final int start = matcher.start();
            if (start > 0 && (Character.isDigit(stripped.charAt(start - 1)) || '.' == stripped.charAt(start - 1)))
            {
                continue; // the exponent or unit of a number
            }
            final String rest = stripped.substring(matcher.end()).stripLeading();
            if (!rest.startsWith("(") && !KEYWORDS.contains(word))
            {
                names.add(word);
            }
        }
        return names;
    }

    private static Set<String> names(final String scrape)
    {
        final Set<String> names = new TreeSet<>();
        for (final String line : scrape.split("\n"))
        {
            if (line.isBlank() || line.startsWith("#"))
            {
                continue;
            }
            final int end = line.indexOf('{') > 0 ? line.indexOf('{') : line.indexOf(' ');
            names.add(line.substring(0, end));
        }
        return names;
    }

    private static String scrape(final int port, final String path) throws IOException, InterruptedException
    {
        final HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port +
            path)).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), path + ": " + response.body());
        return response.body();
    }

    @Test
    void shouldFindTheMetricNamesOfAnExpression()
    {
        assertEquals(Set.of("warpbus_a_total", "warpbus_b", "up"), metricNames(
            "histogram_quantile(0.99, sum by (job, le) (rate(warpbus_a_total{job=\"x\",le=~\"a|b\"}[5m]))) " +
            "/ on (job) group_left warpbus_b > 1e9 and up{job=\"y\"} == 0"));
    }
}
