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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChildJvmTest
{
    @TempDir
    Path dir;

    @Test
    void shouldFindTheRepositoryRootFromAModuleDirectoryBelowIt() throws IOException
    {
        Files.createDirectories(dir.resolve("config"));
        Files.writeString(dir.resolve(ChildJvm.JVM_ARGS), "-Dx=y\n");
        final Path module = Files.createDirectories(dir.resolve("bus-core").resolve("target"));

        assertEquals(dir.toAbsolutePath().normalize(), ChildJvm.repositoryRoot(module));
        assertEquals(dir.toAbsolutePath().normalize(), ChildJvm.repositoryRoot(dir));
    }

    @Test
    void shouldNameTheMissingArgFileWhenNoDirectoryAboveHoldsIt()
    {
        final IllegalStateException ex = assertThrows(IllegalStateException.class,
            () -> ChildJvm.repositoryRoot(dir));
        assertTrue(ex.getMessage().contains(ChildJvm.JVM_ARGS), ex.getMessage());
    }

    @Test
    void shouldPassOnlyTheTestsSystemPropertiesFromItsOwnArguments()
    {
        assertEquals(List.of("-Dagrona.disable.bounds.checks=false", "-Dwarpbus.idle.strategy=backoff"),
            ChildJvm.systemProperties(List.of("-XX:+UseParallelGC", "-Dagrona.disable.bounds.checks=false",
            "-agentlib:jdwp=transport=dt_socket", "-Xmx2g", "-Dwarpbus.idle.strategy=backoff",
            "--add-opens=java.base/java.lang=ALL-UNNAMED")));
    }

    @Test
    void shouldPutTheArgFileFirstAndTheTestsFlagsBeforeTheClassPath()
    {
        final List<String> command = ChildJvm.of("x.Main").jvmFlags("-Xmx64m").property("p", "v").args("a", "b")
            .command();

        assertTrue(command.get(0).endsWith("java"), command.get(0));
        assertEquals("@" + ChildJvm.jvmArgsFile(), command.get(1));
        assertTrue(Files.isRegularFile(ChildJvm.jvmArgsFile()), "the repository's argfile");
        final int classPath = command.indexOf("-cp");
        assertEquals(List.of("-cp", System.getProperty("java.class.path"), "x.Main", "a", "b"),
            command.subList(classPath, command.size()));
        assertEquals(List.of("-Xmx64m", "-Dp=v"), command.subList(classPath - 2, classPath));
    }

    @Test
    @Timeout(60)
    void shouldStartAJvmWithTheFlagsFromTheArgFileAndTheTestsProperties() throws Exception
    {
        final Path out = dir.resolve("child.out");
        final Process process = ChildJvm.of(PrintFlags.class).property("warpbus.child.test", "yes")
            .processBuilder().redirectErrorStream(true).redirectOutput(out.toFile()).start();
        assertTrue(process.waitFor(50, TimeUnit.SECONDS), "child still running");
        final String printed = Files.readString(out, StandardCharsets.UTF_8);

        assertEquals(0, process.exitValue(), printed);
        // Opened only by the argfile: the test no longer hands its own --add-opens on.
        assertTrue(printed.contains("java.lang open=true"), printed);
        assertTrue(printed.contains("chronicle.analytics.disable=true"), printed);
        assertTrue(printed.contains("warpbus.child.test=yes"), printed);
    }

    /**
     * The child of {@link #shouldStartAJvmWithTheFlagsFromTheArgFileAndTheTestsProperties()}.
     */
    static final class PrintFlags
    {
        private PrintFlags()
        {
        }

        public static void main(final String[] args)
        {
            System.out.println("java.lang open=" + Object.class.getModule().isOpen("java.lang",
                PrintFlags.class.getModule()));
            System.out.println("chronicle.analytics.disable=" + System.getProperty("chronicle.analytics.disable"));
            System.out.println("warpbus.child.test=" + System.getProperty("warpbus.child.test"));
        }
    }
}
