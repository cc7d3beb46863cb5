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
package io.warpbus.testing;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

import io.warpbus.bus.status.CountersFile;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDir;

/**
 * When a test fails, prints what the buses it used recorded: every counter ({@code name=value}) and the distinct
 * errors of each {@code counters.dat} under the test's directories, read with {@link CountersFile} as
 * {@code warpbus stat} reads them, so that a failure in CI explains itself.
 * <p>
 * The directories are the test's {@link TempDir} {@code Path} fields (instance or static, in the test class or a
 * superclass), which is where the tests put their buses, plus any given to {@link #watch(Path)} by a test that
 * registers the extension with {@code @RegisterExtension}. Child processes' buses are found the same way, as long as
 * their directories lie below one of those. The report is printed right after the test method, before
 * {@code @AfterEach} closes the buses and the temporary directories are deleted.
 */
public final class BusTestWatcher implements AfterTestExecutionCallback
{
    private static final int MAX_DEPTH = 6;

    private final List<Path> watched = new CopyOnWriteArrayList<>();
    private final PrintStream out;

    /**
     * A watcher that prints to standard output (Surefire's {@code *-output.txt}).
     */
    public BusTestWatcher()
    {
        this(System.out);
    }

    /**
     * A watcher that prints to a stream.
     *
     * @param out where reports go.
     */
    public BusTestWatcher(final PrintStream out)
    {
        this.out = out;
    }

    /**
     * Also report the buses below a directory.
     *
     * @param directory a bus directory or a directory above bus directories.
     * @return this.
     */
    public BusTestWatcher watch(final Path directory)
    {
        watched.add(directory);
        return this;
    }

    @Override
    public void afterTestExecution(final ExtensionContext context)
    {
        if (context.getExecutionException().isEmpty())
        {
            return;
        }
        final List<Path> directories = new ArrayList<>(watched);
        context.getTestInstances().ifPresent((instances) -> instances.getAllInstances()
            .forEach((instance) -> directories.addAll(tempDirectories(instance.getClass(), instance))));
        context.getTestClass().ifPresent((testClass) -> directories.addAll(tempDirectories(testClass, null)));
        out.print(report(context.getDisplayName() + " in " + context.getRequiredTestClass().getName(), directories));
        out.flush();
    }

    /**
     * The report on the buses below some directories.
     *
     * @param title       what failed.
     * @param directories where to look for {@code counters.dat}.
     * @return the text, ending with a line break.
     */
    public static String report(final String title, final Collection<Path> directories)
    {
        final StringBuilder report = new StringBuilder();
        final Set<Path> files = countersFiles(directories);
        report.append("==== ").append(title).append(" failed: ").append(files.size())
            .append(" bus counters file(s) under ").append(new TreeSet<>(directories)).append(" ====\n");
        for (final Path file : files)
        {
            appendBus(report, file);
        }
        return report.toString();
    }

    private static void appendBus(final StringBuilder report, final Path file)
    {
        report.append("---- bus ").append(file.getParent()).append(" ----\n");
        try (CountersFile countersFile = CountersFile.mapExisting(file.getParent()))
        {
            final long nowMs = System.currentTimeMillis();
            report.append("pid ").append(countersFile.pid()).append(", ")
                .append(countersFile.isOwnerClosed() ? "closed" : countersFile.isAlive(nowMs) ? "alive" :
                "no heartbeat for " + countersFile.heartbeatAgeMs(nowMs) + " ms").append('\n');
            report.append("counters:\n");
            countersFile.countersReader().forEach((value, counterId, label) ->
                report.append("  ").append(label).append('=').append(value).append('\n'));
            final StringBuilder errors = new StringBuilder();
            final int distinct = countersFile.readErrors((count, firstMs, lastMs, encodedException) ->
                errors.append("  ").append(count).append(" observations from ").append(Instant.ofEpochMilli(firstMs))
                    .append(" to ").append(Instant.ofEpochMilli(lastMs)).append(":\n  ")
                    .append(encodedException.strip().replace("\n", "\n  ")).append('\n'));
            report.append("distinct errors: ").append(distinct).append('\n').append(errors);
        }
        catch (final RuntimeException ex)
        {
            report.append("cannot read it: ").append(ex).append('\n');
        }
    }

    private static Set<Path> countersFiles(final Collection<Path> directories)
    {
        final Set<Path> files = new TreeSet<>();
        for (final Path directory : directories)
        {
            if (!Files.isDirectory(directory))
            {
                continue;
            }
            try (Stream<Path> paths = Files.walk(directory, MAX_DEPTH))
            {
                paths.filter((path) -> CountersFile.FILENAME.equals(String.valueOf(path.getFileName())))
                    .map((path) -> path.toAbsolutePath().normalize())
                    .forEach(files::add);
            }
            catch (final IOException | UncheckedIOException ex)
            {
                // a directory deleted while walking it: report what was found
            }
        }
        return files;
    }

    private static List<Path> tempDirectories(final Class<?> testClass, final Object instance)
    {
        final List<Path> directories = new ArrayList<>();
        for (Class<?> type = testClass; null != type && Object.class != type; type = type.getSuperclass())
        {
            for (final Field field : type.getDeclaredFields())
            {
                if (field.isAnnotationPresent(TempDir.class) && Path.class == field.getType() &&
                    Modifier.isStatic(field.getModifiers()) == (null == instance))
                {
                    final Path directory = read(field, instance);
                    if (null != directory)
                    {
                        directories.add(directory);
                    }
                }
            }
        }
        return directories;
    }

    private static Path read(final Field field, final Object instance)
    {
        try
        {
            field.setAccessible(true);
            return (Path)field.get(instance);
        }
        catch (final ReflectiveOperationException | RuntimeException ex)
        {
            return null;
        }
    }
}
