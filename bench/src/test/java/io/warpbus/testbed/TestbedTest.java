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
package io.warpbus.testbed;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs the multi-host fault-injection testbed ({@code ops/testbed/testbed.sh}, quick mode) as part of the build:
 * network namespaces on a bridge, the real {@code ./warpbus} tools on different hosts, faults while traffic flows.
 * Prints the script's output, report line included, and asserts that it exited 0 after injecting faults, with
 * nothing lost and nothing duplicated. Needs root, iproute2 ({@code ip}, {@code tc}, {@code ss}) and nftables
 * ({@code nft}): without them it is skipped with the reason, unless {@code WARPBUS_CI=1}, where it fails instead.
 */
@Tag("testbed")
class TestbedTest
{
    private static final String REQUIRE_ENV = "WARPBUS_CI";
    private static final long HARD_TIMEOUT_S = 480;
    private static final Pattern REPORT = Pattern.compile(
        "^testbed: faults (\\d+), sent (\\d+), received (\\d+), repaired (\\d+), lost (\\d+), duplicated (\\d+)$");

    @TempDir
    Path dir;

    @Test
    @Timeout(value = HARD_TIMEOUT_S + 60, unit = TimeUnit.SECONDS)
    void shouldLoseAndDuplicateNothingWhileFaultsAreInjected() throws Exception
    {
        final Path root = repositoryRoot();
        final String missing = missingPrerequisite();
        if (null != missing)
        {
            if ("1".equals(System.getenv(REQUIRE_ENV)))
            {
                fail("the testbed must run here (" + REQUIRE_ENV + "=1) but " + missing);
            }
            Assumptions.abort("testbed skipped: " + missing);
        }
        final Path output = dir.resolve("testbed.out");
        final ProcessBuilder builder = new ProcessBuilder(root.resolve("ops/testbed/testbed.sh").toString(),
            "--work", dir.resolve("work").toString())
            .directory(root.toFile())
            .redirectErrorStream(true)
            .redirectOutput(output.toFile());
        builder.environment().put("WARPBUS_MAVEN_ARGS", mavenArgs());
        final Process process = builder.start();
        if (!process.waitFor(HARD_TIMEOUT_S, TimeUnit.SECONDS))
        {
            // SIGTERM first: the script's trap removes its namespaces and kills its processes.
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
            }
            fail("the testbed did not finish within " + HARD_TIMEOUT_S + " s:\n" + tail(output, 60));
        }
        final List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8);
        Matcher report = null;
        for (final String line : lines)
        {
            // The whole run goes to the build's output: what was injected, the recovery times, the report line.
            System.out.println(line);
            final Matcher matcher = REPORT.matcher(line);
            if (matcher.matches())
            {
                report = matcher;
            }
        }
        assertNotNull(report, "no report line:\n" + tail(output, 60));
        assertEquals(0, process.exitValue(), "testbed exit code:\n" + tail(output, 80));
        assertTrue(Long.parseLong(report.group(1)) > 0, "faults injected: " + report.group(0));
        assertTrue(Long.parseLong(report.group(2)) > 0, "messages sent: " + report.group(0));
        assertEquals(0, Long.parseLong(report.group(5)), "lost: " + report.group(0));
        assertEquals(0, Long.parseLong(report.group(6)), "duplicated: " + report.group(0));
    }

    private static Path repositoryRoot()
    {
        Path candidate = Path.of("").toAbsolutePath();
        for (int i = 0; i < 3 && null != candidate; i++)
        {
            if (Files.isRegularFile(candidate.resolve("ops/testbed/testbed.sh")))
            {
                return candidate;
            }
            candidate = candidate.getParent();
        }
        throw new IllegalStateException("ops/testbed/testbed.sh not found above " + Path.of("").toAbsolutePath());
    }

    private static String missingPrerequisite() throws IOException, InterruptedException
    {
        if (!"Linux".equals(System.getProperty("os.name")))
        {
            return "network namespaces need Linux, not " + System.getProperty("os.name");
        }
        final Process id = new ProcessBuilder("id", "-u").redirectErrorStream(true).start();
        final String uid = new String(id.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
        if (!id.waitFor(10, TimeUnit.SECONDS) || !"0".equals(uid))
        {
            return "it needs root (uid " + uid + ")";
        }
        final List<String> missing = new ArrayList<>();
        for (final String tool : new String[] { "ip", "tc", "ss", "nft" })
        {
            final Process which = new ProcessBuilder("bash", "-c",
                "PATH=$PATH:/usr/sbin:/sbin command -v " + tool).redirectErrorStream(true).start();
            which.getInputStream().readAllBytes();
            if (!which.waitFor(10, TimeUnit.SECONDS) || 0 != which.exitValue())
            {
                missing.add(tool);
            }
        }
        return missing.isEmpty() ? null : "missing " + String.join(", ", missing) +
            " (apt-get install iproute2 nftables)";
    }

    /**
     * The launcher's nested Maven build offline and on the same local repository as this build, when it is.
     */
    private static String mavenArgs()
    {
        final StringBuilder args = new StringBuilder();
        if ("settings.offline=true".equals(System.getProperty("warpbus.maven.offline")))
        {
            args.append("-o");
        }
        final String repo = System.getProperty("warpbus.maven.repo.local");
        if (null != repo && !repo.isEmpty() && !repo.contains("${"))
        {
            args.append(args.length() > 0 ? " " : "").append("-Dmaven.repo.local=").append(repo);
        }
        return args.toString();
    }

    private static String tail(final Path file, final int lines) throws IOException
    {
        if (!Files.exists(file))
        {
            return "(no output)";
        }
        final List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
        return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    }
}
