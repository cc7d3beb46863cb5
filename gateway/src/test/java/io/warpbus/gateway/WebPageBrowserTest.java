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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The gateway's web page in a real browser: Debian's {@code chromium}, driven by {@code playwright-core} from
 * {@code src/test/browser/page-test.mjs}, against this class's gateway and a real matching engine. The script logs on
 * with a wrong then a right password, watches the ladder, sends, cancels, amends and fills orders, sees the gateway
 * reject an off-tick order the page let through, has its connection cut (a TCP proxy it runs in front of the
 * gateway) while another user fills its resting order, and checks that the page resumes with that fill shown once;
 * then a non-admin is refused the operations view and its endpoint, an admin sees its charts with data, and an
 * operator's end of the session logs the page off with the operator's reason. Then Debian's {@code firefox-esr},
 * driven headless by {@code puppeteer-core} over WebDriver BiDi ({@code firefox-test.mjs}), logs on, watches the
 * book, has a crossing order filled with its trade on the tape and the chart, and shows an admin the operations view.
 * The page is the one the build made from {@code src/main/web} (TypeScript, Vite) into
 * {@code target/classes/static}; its own logic (book building, gap detection, the session's resume, the order
 * checks) is unit-tested by vitest in the build's test phase. Screenshots and the browser's console go to
 * {@code target/browser}.
 *
 * <p>Needs {@code node}, {@code /usr/bin/chromium}, {@code /usr/bin/firefox-esr} and {@code npm ci} run in
 * {@code src/test/browser}: without them
 * the test is skipped with the reason, except with {@code WARPBUS_CI=1}, where it fails.
 */
@SpringBootTest(classes = GatewayApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@Tag("browser")
@Timeout(600)
class WebPageBrowserTest extends GatewayTestBase
{
    static final Path BROWSER_DIR = Path.of("src", "test", "browser").toAbsolutePath();
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path FIREFOX = Path.of("/usr/bin/firefox-esr");
    static final Path ARTIFACTS = Path.of("target", "browser").toAbsolutePath();
    static final Path BUILT_PAGE = Path.of("target", "classes", "static", "index.html").toAbsolutePath();
    static final long PAGE_TIMEOUT_S = 270;
    static final long FIREFOX_TIMEOUT_S = 230;
    static final String[] STEPS = {
        "page served without credentials in its source",
        "the theme follows the system until the toggle picks one, which is remembered",
        "logon with a wrong password shows the gateway reason",
        "logon",
        "ladder shows levels",
        "client-side validation refuses an off-tick price without sending it",
        "an order shows in open orders and marked in the ladder",
        "cancel removes it",
        "an order the page lets through is rejected with the gateway reason",
        "a crossing order fills and the trade reaches the tape and the chart",
        "amend changes price and quantity",
        "a dropped connection reconnects and resumes without losing the fill made meanwhile",
        "a non-admin cannot open the operations view or its endpoint",
        "the admin sees the operations view with charts of data",
        "logout",
        "an operator ending the session logs the page off with the reason, without reconnecting",
    };
    static final String[] FIREFOX_STEPS = {
        "firefox: logon with a wrong password shows the gateway reason, then logon",
        "firefox: the book populates",
        "firefox: a crossing order fills and its trade reaches the tape and the chart",
        "firefox: the admin sees the operations view with charts of data",
    };

    @DynamicPropertySource
    static void properties(final DynamicPropertyRegistry registry)
    {
        gatewayProperties(registry);
    }

    @Test
    void shouldTradeAndOperateThroughThePageInARealBrowser() throws Exception
    {
        requirePrerequisites();
        Files.createDirectories(ARTIFACTS);

        try (TestClient carol = client())
        {
            carol.logon("carol", "carol-pw");
            final int from = carol.size();
            carol.send(OrderEntryTest.order("seed-b1", GatewayFixtures.CAROL_ACCOUNT, "buy", "99.00", 10));
            carol.send(OrderEntryTest.order("seed-b2", GatewayFixtures.CAROL_ACCOUNT, "buy", "98.50", 20));
            carol.send(OrderEntryTest.order("seed-s1", GatewayFixtures.CAROL_ACCOUNT, "sell", "101.00", 10));
            carol.send(OrderEntryTest.order("seed-s2", GatewayFixtures.CAROL_ACCOUNT, "sell", "101.50", 20));
            carol.await(from, (m) -> "seed-s2".equals(m.path("clOrdId").asString()) &&
                "new".equals(m.path("execType").asString()), "the last seed order accepted");
            assertEquals(4, carol.ofType("executionReport").stream()
                .filter((m) -> "new".equals(m.path("execType").asString())).count(), carol.received().toString());

            final List<String> output = run(List.of("node", "page-test.mjs"), Map.of(
                "GATEWAY_HTTP", "http://127.0.0.1:" + port,
                "ARTIFACTS", ARTIFACTS.toString(),
                "CHROMIUM", CHROMIUM.toString(),
                "ALICE_PASSWORD", "alice-pw",
                "BOB_PASSWORD", "bob-pw",
                "ADMIN_PASSWORD", "admin-pw"), PAGE_TIMEOUT_S, ARTIFACTS.resolve("page-test.log"));
            final String all = String.join("\n", output);
            for (final String step : STEPS)
            {
                assertTrue(output.contains("PASS " + step), "step '" + step + "' did not pass:\n" + all);
            }
            assertTrue(output.contains("DONE"), all);

            // The same page in Firefox, on the book chromium left: carol's bid of 10 at 99.00, asks at 101.50.
            final List<String> firefox = run(List.of("node", "firefox-test.mjs"), Map.of(
                "GATEWAY_HTTP", "http://127.0.0.1:" + port,
                "ARTIFACTS", ARTIFACTS.toString(),
                "FIREFOX", FIREFOX.toString(),
                "ALICE_PASSWORD", "alice-pw",
                "ADMIN_PASSWORD", "admin-pw"), FIREFOX_TIMEOUT_S, ARTIFACTS.resolve("firefox-test.log"));
            final String firefoxAll = String.join("\n", firefox);
            for (final String step : FIREFOX_STEPS)
            {
                assertTrue(firefox.contains("PASS " + step), "step '" + step + "' did not pass:\n" + firefoxAll);
            }
            assertTrue(firefox.contains("DONE"), firefoxAll);
        }
        assertTrue(Files.size(ARTIFACTS.resolve("trade-view.png")) > 10_000, "trade view screenshot");
        assertTrue(Files.size(ARTIFACTS.resolve("operations-view.png")) > 10_000, "operations view screenshot");
        assertTrue(Files.size(ARTIFACTS.resolve("firefox-trade-view.png")) > 10_000, "firefox trade view screenshot");
        assertTrue(Files.size(ARTIFACTS.resolve("firefox-operations-view.png")) > 10_000,
            "firefox operations view screenshot");
    }

    private static void requirePrerequisites()
    {
        final List<String> missing = new ArrayList<>();
        if (!Files.isExecutable(CHROMIUM))
        {
            missing.add(CHROMIUM + " (apt-get install chromium)");
        }
        if (!Files.isExecutable(FIREFOX))
        {
            missing.add(FIREFOX + " (apt-get install firefox-esr)");
        }
        if (!Files.isDirectory(BROWSER_DIR.resolve("node_modules").resolve("puppeteer-core")))
        {
            missing.add(BROWSER_DIR.resolve("node_modules").resolve("puppeteer-core") + " (npm ci in " + BROWSER_DIR +
                ")");
        }
        if (!Files.isDirectory(BROWSER_DIR.resolve("node_modules").resolve("playwright-core")))
        {
            missing.add(BROWSER_DIR.resolve("node_modules") + " (npm ci in " + BROWSER_DIR + ")");
        }
        if (!onPath("node"))
        {
            missing.add("node on the PATH");
        }
        if (!Files.isRegularFile(BUILT_PAGE))
        {
            missing.add(BUILT_PAGE + " (built by the gateway's Maven build from src/main/web)");
        }
        if (!missing.isEmpty())
        {
            final String reason = "the browser test needs " + String.join(", ", missing);
            if ("1".equals(System.getenv("WARPBUS_CI")))
            {
                fail(reason);
            }
            Assumptions.abort(reason);
        }
    }

    private static boolean onPath(final String command)
    {
        final String path = System.getenv("PATH");
        if (null == path)
        {
            return false;
        }
        for (final String dir : path.split(java.io.File.pathSeparator))
        {
            if (Files.isExecutable(Path.of(dir, command)))
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Runs a command in the browser directory, its output also written to a log file; fails the test when it does
     * not end within the timeout (and kills it) or exits with other than 0.
     */
    private static List<String> run(final List<String> command, final Map<String, String> environment,
        final long timeoutS, final Path log) throws IOException, InterruptedException
    {
        final ProcessBuilder builder = new ProcessBuilder(command).directory(BROWSER_DIR.toFile())
            .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        final Process process = builder.start();
        final boolean ended = process.waitFor(timeoutS, TimeUnit.SECONDS);
        if (!ended)
        {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
        final List<String> output = Files.readAllLines(log);
        if (!ended)
        {
            fail(String.join(" ", command) + " did not end within " + timeoutS + " s:\n" + String.join("\n", output));
        }
        assertEquals(0, process.exitValue(), String.join(" ", command) + " failed:\n" + String.join("\n", output));
        return output;
    }
}
