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
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.warpbus.testing.ChildProcess;
import io.warpbus.testing.ProjectFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * config/jvm.args is the only list of the JVM flags WarpBus needs; Surefire's argLine reads it as an @argfile, as
 * the launcher does. Every flag in it must be in effect in the test JVM, and in a JVM a test starts with the test
 * JVM's own input arguments (as the multi-process tests do).
 */
@Timeout(60)
class JvmArgsTest
{
    private static final String IN_EFFECT = "every flag in effect";

    @TempDir
    Path dir;

    @Test
    void shouldHaveEveryFlagOfTheArgfileInEffectInTheTestJvm() throws IOException
    {
        final List<String> flags = flags(ProjectFiles.root().resolve("config/jvm.args"));
        assertTrue(flags.size() >= 14, "the Chronicle opens and exports, and analytics off: " + flags);
        assertEquals(List.of(), notInEffect(flags), "flags of config/jvm.args missing from the test JVM");
    }

    @Test
    void shouldPassTheFlagsToAChildJvmStartedWithTheTestJvmsArguments() throws Exception
    {
        final Path argfile = ProjectFiles.root().resolve("config/jvm.args");
        try (ChildProcess child = ChildProcess.start(
            "probe", dir, List.of(), Probe.class.getName(), List.of(argfile.toString())))
        {
            assertEquals(0, child.awaitExit(30_000, child::dump), child.dump());
            assertEquals(List.of(IN_EFFECT), child.lines(), child.dump());
        }
    }

    /**
     * The flags of an argfile: comments from '#' to the end of a line dropped, one flag per whitespace-separated
     * word (the file uses no quotes).
     */
    static List<String> flags(final Path argfile) throws IOException
    {
        final List<String> flags = new ArrayList<>();
        for (final String line : Files.readAllLines(argfile, StandardCharsets.UTF_8))
        {
            final int comment = line.indexOf('#');
            final String content = (comment < 0 ? line : line.substring(0, comment)).trim();
            if (!content.isEmpty())
            {
                flags.addAll(List.of(content.split("\\s+")));
            }
        }
        return flags;
    }

    /**
     * The flags this JVM does not honour: an --add-opens or --add-exports to ALL-UNNAMED not granted to the class
     * path, a -D property with another value, any other flag absent from the JVM's input arguments.
     */
    static List<String> notInEffect(final List<String> flags)
    {
        final Module classPath = JvmArgsTest.class.getModule();
        final List<String> missing = new ArrayList<>();
        for (final String flag : flags)
        {
            final boolean inEffect;
            if (flag.startsWith("--add-opens=") || flag.startsWith("--add-exports="))
            {
                final String[] parts = flag.substring(flag.indexOf('=') + 1).split("[/=]");
                final Optional<Module> module = ModuleLayer.boot().findModule(parts[0]);
                inEffect = "ALL-UNNAMED".equals(parts[2]) && module.isPresent() && (flag.startsWith("--add-opens=") ?
                    module.get().isOpen(parts[1], classPath) : module.get().isExported(parts[1], classPath));
            }
            else if (flag.startsWith("-D"))
            {
                final int equals = flag.indexOf('=');
                inEffect = equals > 0 &&
                    flag.substring(equals + 1).equals(System.getProperty(flag.substring(2, equals)));
            }
            else
            {
                inEffect = ManagementFactory.getRuntimeMXBean().getInputArguments().contains(flag);
            }
            if (!inEffect)
            {
                missing.add(flag);
            }
        }
        return missing;
    }

    /**
     * A child JVM that checks the flags of the argfile named by its argument.
     */
    static final class Probe
    {
        private Probe()
        {
        }

        public static void main(final String[] args) throws IOException
        {
            final List<String> missing = notInEffect(flags(Path.of(args[0])));
            System.out.println(missing.isEmpty() ? IN_EFFECT : "not in effect: " + missing);
        }
    }
}
