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

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The command line of a JVM that a test starts: this JVM's {@code java}, the flags every WarpBus process needs (the
 * repository's {@value #JVM_ARGS}, passed as an {@code @argfile}), the {@code -D} properties this JVM was started
 * with, the test's own flags, this JVM's class path, the main class and its arguments.
 */
public final class ChildJvm
{
    /** The argfile with every JVM flag, relative to the repository root. */
    public static final String JVM_ARGS = "config/jvm.args";

    private final String mainClass;
    private final List<String> jvmFlags = new ArrayList<>();
    private final List<String> args = new ArrayList<>();

    private ChildJvm(final String mainClass)
    {
        this.mainClass = mainClass;
    }

    /**
     * A JVM that runs a class.
     *
     * @param mainClass the class with {@code main}.
     * @return the builder.
     */
    public static ChildJvm of(final Class<?> mainClass)
    {
        return of(mainClass.getName());
    }

    /**
     * A JVM that runs a class.
     *
     * @param mainClass the name of the class with {@code main}.
     * @return the builder.
     */
    public static ChildJvm of(final String mainClass)
    {
        return new ChildJvm(mainClass);
    }

    /**
     * More JVM flags, after the inherited ones (so a later {@code -Xmx} or {@code -D} wins).
     *
     * @param flags e.g. {@code -Xmx256m}.
     * @return this.
     */
    public ChildJvm jvmFlags(final List<String> flags)
    {
        jvmFlags.addAll(flags);
        return this;
    }

    /**
     * More JVM flags, after the inherited ones (so a later {@code -Xmx} or {@code -D} wins).
     *
     * @param flags e.g. {@code -Xmx256m}.
     * @return this.
     */
    public ChildJvm jvmFlags(final String... flags)
    {
        return jvmFlags(Arrays.asList(flags));
    }

    /**
     * A system property for the child.
     *
     * @param name  the property.
     * @param value its value.
     * @return this.
     */
    public ChildJvm property(final String name, final String value)
    {
        jvmFlags.add("-D" + name + "=" + value);
        return this;
    }

    /**
     * Arguments for {@code main}.
     *
     * @param args appended in order.
     * @return this.
     */
    public ChildJvm args(final List<String> args)
    {
        this.args.addAll(args);
        return this;
    }

    /**
     * Arguments for {@code main}.
     *
     * @param args appended in order.
     * @return this.
     */
    public ChildJvm args(final String... args)
    {
        return args(Arrays.asList(args));
    }

    /**
     * The whole command line.
     *
     * @return java, its flags, the class path, the main class and its arguments.
     */
    public List<String> command()
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("@" + jvmArgsFile());
        command.addAll(systemProperties(ManagementFactory.getRuntimeMXBean().getInputArguments()));
        command.addAll(jvmFlags);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass);
        command.addAll(args);
        return command;
    }

    /**
     * A process builder for the command line, to redirect and start.
     *
     * @return a new builder.
     */
    public ProcessBuilder processBuilder()
    {
        return new ProcessBuilder(command());
    }

    /**
     * The argfile with every JVM flag WarpBus processes need.
     *
     * @return its absolute path.
     * @throws IllegalStateException when no directory above the working directory holds it.
     */
    public static Path jvmArgsFile()
    {
        return repositoryRoot(Path.of(System.getProperty("user.dir"))).resolve(JVM_ARGS);
    }

    /**
     * The first directory, walking up from {@code start}, that holds {@value #JVM_ARGS}: the repository root, found
     * from a module's directory (where Surefire runs) as well as from the root.
     *
     * @param start where to begin.
     * @return the root, absolute.
     * @throws IllegalStateException when there is none.
     */
    public static Path repositoryRoot(final Path start)
    {
        for (Path dir = start.toAbsolutePath().normalize(); null != dir; dir = dir.getParent())
        {
            if (Files.isRegularFile(dir.resolve(JVM_ARGS)))
            {
                return dir;
            }
        }
        throw new IllegalStateException("no " + JVM_ARGS + " in " + start + " or any directory above it");
    }

    /**
     * The {@code -D} properties among a JVM's arguments: the test's own (bounds checks on, back-off idling...).
     *
     * @param inputArguments a JVM's arguments.
     * @return the {@code -D} ones, in order.
     */
    static List<String> systemProperties(final List<String> inputArguments)
    {
        final List<String> properties = new ArrayList<>();
        for (final String argument : inputArguments)
        {
            if (argument.startsWith("-D"))
            {
                properties.add(argument);
            }
        }
        return properties;
    }
}
