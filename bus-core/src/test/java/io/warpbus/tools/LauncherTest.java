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
package io.warpbus.tools;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.warpbus.journal.Journal;
import io.warpbus.journal.JournalContext;
import io.warpbus.testing.ProjectFiles;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The real {@code ./warpbus} launcher on a copy of this checkout's sources, building with the real Maven wrapper:
 * each command's {@code --help} prints its usage without building, a fresh checkout builds and runs a command, a
 * changed source is rebuilt and its new code runs, a moved checkout runs its own classes, and a collector named in
 * JAVA_OPTS replaces the default. The command is
 * {@code journal dump} (bus-core only, and it opens Chronicle Queue, so the flags of config/jvm.args must work).
 * The steps run in order on one copy; each is bounded, and a step is skipped when an earlier one failed.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LauncherTest
{
    private static final long BUILD_TIMEOUT_MS = TimeUnit.SECONDS.toMillis(150);
    private static final long RUN_TIMEOUT_MS = TimeUnit.SECONDS.toMillis(30);
    private static final String COMMAND = "journal";
    private static final String BUILDING = "warpbus: building ";
    private static final String MARKER = "launcher-test: the edited main ran";
    private static final Pattern MAIN_METHOD = Pattern.compile("public static void main\\([^)]*\\)[^{]*\\{");

    @TempDir
    static Path work;

    private static Path checkout;
    private static Path journal;
    private static boolean stepsOk;

    @BeforeAll
    static void copyTheCheckout() throws Exception
    {
        checkout = work.toRealPath().resolve("first").resolve("warpbus");
        copySources(ProjectFiles.root(), checkout);
        journal = work.resolve("journal");
        try (Journal recorded = Journal.open(new JournalContext().directory(journal)))
        {
            recorded.writer(42).append(7, 99, 0, 0, 0, new UnsafeBuffer(new byte[] { 1, 2, 3, 4 }), 0, 4);
        }
        stepsOk = true;
    }

    @Test
    @Order(0)
    @Timeout(60)
    void shouldPrintEachCommandsUsageWithoutBuildingOrRunningIt() throws Exception
    {
        final Pattern commandLine = Pattern.compile("^\\s*([a-z][a-z-]*)\\)\\s+run");
        final List<String> commands = new ArrayList<>();
        for (final String text : Files.readAllLines(checkout.resolve("warpbus"), StandardCharsets.UTF_8))
        {
            final Matcher matcher = commandLine.matcher(text);
            if (matcher.find())
            {
                commands.add(matcher.group(1));
            }
        }
        assertTrue(commands.containsAll(List.of("demo", "gateway", "bench", "rping", "metrics")), commands.toString());
        for (final String command : commands)
        {
            final Run run = launch(RUN_TIMEOUT_MS, Map.of(), "help", command);
            assertEquals(0, run.exitCode, run.toString());
            assertTrue(run.out.startsWith("usage of ./warpbus " + command + ":\n  " + command + " "), run.toString());
        }

        final Run demo = launch(RUN_TIMEOUT_MS, Map.of(), "demo", "--help");
        assertEquals(0, demo.exitCode, demo.toString());
        assertTrue(demo.out.contains("./warpbus demo [--duration SECONDS]"), demo.toString());
        assertFalse(demo.out.contains("  gateway "), "another command's lines: " + demo);

        final Run gateway = launch(RUN_TIMEOUT_MS, Map.of(), "gateway", "-h");
        assertEquals(0, gateway.exitCode, gateway.toString());
        assertTrue(gateway.out.contains("(every property: docs/gateway.md)"), gateway.toString());

        final Run suite = launch(RUN_TIMEOUT_MS, Map.of(), "bench", "bus", "--help");
        assertEquals(0, suite.exitCode, suite.toString());
        assertTrue(suite.out.contains("  bench bus ") && suite.out.contains("[--system REGEX]"), suite.toString());
        assertFalse(suite.out.contains("bench rdma"), "another suite's lines: " + suite);

        final Run unknown = launch(RUN_TIMEOUT_MS, Map.of(), "nosuch", "--help");
        assertEquals(2, unknown.exitCode, unknown.toString());
        assertTrue(unknown.err.startsWith("warpbus: unknown command 'nosuch'"), unknown.toString());

        // Help is read from the script alone: nothing was built, so the build steps below still start fresh.
        assertFalse(Files.exists(checkout.resolve("bus-core/target")), "help built something");
        assertFalse(Files.exists(checkout.resolve("gateway/target")), "help built something");
    }

    @Test
    @Order(1)
    @Timeout(180)
    void shouldBuildAFreshCheckoutAndRunACommand() throws Exception
    {
        final Run run = step(() -> launch(BUILD_TIMEOUT_MS, Map.of(), COMMAND, "dump", journal.toString()));
        assertTrue(run.err.contains(BUILDING + "bus-core"), run.toString());
        assertTrue(run.out.startsWith("stream=42 seq=7 session=99 "), run.toString());
        assertFalse(run.out.contains(MARKER), run.toString());
    }

    @Test
    @Order(2)
    @Timeout(200)
    void shouldRebuildAfterASourceChangeAndRunTheNewCode() throws Exception
    {
        final Run changed = step(() ->
        {
            insertMarker(mainClassSource(checkout, COMMAND));
            return launch(BUILD_TIMEOUT_MS, Map.of(), COMMAND, "dump", journal.toString());
        });
        assertTrue(changed.err.contains(BUILDING + "bus-core"), changed.toString());
        assertTrue(changed.out.startsWith(MARKER), changed.toString());

        final Run unchanged = step(() -> launch(RUN_TIMEOUT_MS, Map.of(), COMMAND, "dump", journal.toString()));
        assertFalse(unchanged.err.contains(BUILDING), "nothing changed, yet it built again: " + unchanged);
        assertTrue(unchanged.out.startsWith(MARKER), unchanged.toString());
    }

    @Test
    @Order(3)
    @Timeout(180)
    void shouldRunItsOwnClassesWhenTheCheckoutMoves() throws Exception
    {
        final Path oldLocation = checkout;
        final Run run = step(() ->
        {
            checkout = Files.createDirectories(work.toRealPath().resolve("second")).resolve("warpbus");
            Files.move(oldLocation, checkout);
            // The JVM prints its properties, class path included, on standard error before main runs.
            return launch(BUILD_TIMEOUT_MS, Map.of("JAVA_OPTS", "-XshowSettings:properties"),
                COMMAND, "dump", journal.toString());
        });
        assertTrue(run.out.startsWith(MARKER), run.toString());
        assertTrue(run.err.contains(checkout + "/bus-core/target/classes"), run.toString());
        assertFalse(run.err.contains(oldLocation.toString()), "the old location is still in use: " + run);
    }

    @Test
    @Order(4)
    @Timeout(60)
    void shouldUseTheCollectorJavaOptsNamesInsteadOfTheDefault() throws Exception
    {
        final Run serial = step(() -> launch(RUN_TIMEOUT_MS, Map.of("JAVA_OPTS", "-XX:+UseSerialGC -Xlog:gc"),
            COMMAND, "dump", journal.toString()));
        assertTrue(serial.out.contains("Using Serial"), serial.toString());

        final Run byDefault = step(() -> launch(RUN_TIMEOUT_MS, Map.of("JAVA_OPTS", "-Xlog:gc"),
            COMMAND, "dump", journal.toString()));
        assertTrue(byDefault.out.contains("Using Parallel"), byDefault.toString());
    }

    /**
     * A step that needs the ones before it: skipped when one of them failed, and marks the rest skipped when it
     * fails itself. A run that exits non-zero fails the step.
     */
    private static Run step(final Step step) throws Exception
    {
        assumeTrue(stepsOk, "an earlier step failed");
        stepsOk = false;
        final Run run = step.run();
        assertEquals(0, run.exitCode, run.toString());
        stepsOk = true;
        return run;
    }

    /**
     * Run {@code ./warpbus} in the checkout with a clean environment for the JVM options; Maven builds offline
     * when this build does, with the same local repository.
     */
    private static Run launch(final long timeoutMs, final Map<String, String> env, final String... args)
        throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>();
        command.add("./warpbus");
        command.addAll(List.of(args));
        final Path out = Files.createTempFile(work, "out", ".txt");
        final Path err = Files.createTempFile(work, "err", ".txt");
        final ProcessBuilder builder = new ProcessBuilder(command).directory(checkout.toFile())
            .redirectOutput(out.toFile()).redirectError(err.toFile());
        final Map<String, String> environment = builder.environment();
        environment.remove("JAVA_OPTS");
        environment.remove("JDK_JAVA_OPTIONS");
        environment.remove("JAVA_TOOL_OPTIONS");
        environment.put("WARPBUS_MAVEN_ARGS", mavenArgs());
        environment.putAll(env);
        final Process process = builder.start();
        final boolean exited = process.waitFor(timeoutMs, TimeUnit.MILLISECONDS);
        if (!exited)
        {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        final Run run = new Run(String.join(" ", command), exited ? process.exitValue() : -1,
            Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
        if (!exited)
        {
            fail("./warpbus did not finish within " + timeoutMs + " ms: " + run);
        }
        return run;
    }

    private static String mavenArgs()
    {
        final String repository = System.getProperty("warpbus.maven.repo.local", "");
        return ("settings.offline=true".equals(System.getProperty("warpbus.maven.offline")) ? "-o" : "") +
            (repository.isEmpty() ? "" : " -Dmaven.repo.local=" + repository);
    }

    /**
     * The source file of a command's main class, as the launcher's one line for that command names it.
     */
    static Path mainClassSource(final Path root, final String command) throws IOException
    {
        final Pattern line = Pattern.compile("^\\s*" + Pattern.quote(command) + "\\)\\s+run\\s+(\\S+)\\s+(\\S+)");
        for (final String text : Files.readAllLines(root.resolve("warpbus"), StandardCharsets.UTF_8))
        {
            final Matcher matcher = line.matcher(text);
            if (matcher.find())
            {
                return root.resolve(matcher.group(1)).resolve("src/main/java")
                    .resolve(matcher.group(2).replace('.', '/') + ".java");
            }
        }
        throw new IllegalStateException("no line for '" + command + "' in " + root.resolve("warpbus"));
    }

    private static void insertMarker(final Path source) throws IOException
    {
        final String text = Files.readString(source, StandardCharsets.UTF_8);
        final Matcher main = MAIN_METHOD.matcher(text);
        assertTrue(main.find(), "no main method in " + source);
        Files.writeString(source, text.substring(0, main.end()) + " System.out.println(\"" + MARKER + "\");" +
            text.substring(main.end()), StandardCharsets.UTF_8);
    }

    /**
     * The checkout's files as git lists them (tracked, and new files not ignored), or, without git, every file
     * outside target/ and .git; with their times and permissions.
     */
    private static void copySources(final Path from, final Path to) throws IOException, InterruptedException
    {
        final List<Path> files = new ArrayList<>();
        final Process git = new ProcessBuilder("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
            .directory(from.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        final String listing = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (git.waitFor(30, TimeUnit.SECONDS) && 0 == git.exitValue())
        {
            for (final String name : listing.split("\0"))
            {
                if (!name.isEmpty())
                {
                    files.add(Path.of(name));
                }
            }
        }
        else
        {
            Files.walkFileTree(from, new SimpleFileVisitor<>()
            {
                @Override
                public FileVisitResult preVisitDirectory(final Path dir, final BasicFileAttributes attributes)
                {
                    final String name = String.valueOf(dir.getFileName());
                    return "target".equals(name) || ".git".equals(name) ?
                        FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(final Path file, final BasicFileAttributes attributes)
                {
                    files.add(from.relativize(file));
                    return FileVisitResult.CONTINUE;
                }
            });
        }
        for (final Path file : files)
        {
            final Path source = from.resolve(file);
            if (Files.isRegularFile(source))
            {
                final Path target = to.resolve(file.toString());
                Files.createDirectories(target.getParent());
                Files.copy(source, target, StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
    }

    /**
     * A step's work.
     */
    @FunctionalInterface
    private interface Step
    {
        Run run() throws Exception;
    }

    /**
     * What one run of the launcher did.
     */
    private record Run(String command, int exitCode, String out, String err)
    {
        @Override
        public String toString()
        {
            return "\n$ " + command + " -> exit " + exitCode + "\n---- stdout ----\n" + tail(out) +
                "---- stderr ----\n" + tail(err);
        }

        private static String tail(final String text)
        {
            final String[] lines = text.split("\n");
            return String.join("\n", List.of(lines).subList(Math.max(0, lines.length - 40), lines.length)) + "\n";
        }
    }
}
