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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The images' one Dockerfile, docker/Dockerfile, read by {@link Dockerfile} as {@code docker build} would (no Docker
 * engine runs here): one build stage with the Maven wrapper on JDK 17, shared by every image, and a target per image
 * on a JRE 17; every file they copy present in the checkout and sent in the build context, an unprivileged user, a
 * health check, the launcher as entry point so that the JVM flags come from config/jvm.args, and the ports the
 * service listens on exposed.
 */
@Timeout(60)
class DockerfileTest
{
    static final List<String> SERVICES = List.of("engine", "gateway", "recorder", "tools");
    /** The module whose jars and runtime class path each image runs. */
    static final Map<String, String> MODULES = Map.of("engine", "matching-demo", "gateway", "gateway", "recorder",
        "bus-metrics", "tools", "matching-demo");
    static final String DOCKERFILE = "docker/Dockerfile";
    private static final Pattern MODULE_LIST = Pattern.compile("-pl (\\S+) ");

    @Test
    void shouldBuildOnceWithTheMavenWrapperOnJdk17AndRunEachImageOnJre17()
    {
        final Dockerfile dockerfile = dockerfile();
        final Dockerfile.Stage build = dockerfile.stage("build");
        assertNotNull(build, dockerfile.path + ": no stage named build");
        assertEquals("eclipse-temurin:17-jdk", build.image(), dockerfile.path.toString());
        assertEquals(1, dockerfile.stages.stream().filter((s) -> s.image().endsWith("-jdk")).count(),
            dockerfile.path + ": one build stage, shared by every image");
        final String run = String.join(" ", build.all("RUN").stream().map(Dockerfile.Instruction::arguments)
            .toList());
        assertTrue(run.contains("./mvnw -B "), dockerfile.path + ": the build does not use the Maven wrapper");
        assertTrue(run.contains("-DskipTests") && run.contains(" package"), run);
        final Matcher modules = MODULE_LIST.matcher(run);
        assertTrue(modules.find(), run);
        final List<String> built = List.of(modules.group(1).split(","));
        for (final String module : built)
        {
            assertTrue(Files.isRegularFile(DeployFiles.file(module + "/pom.xml")), run);
        }
        assertTrue(run.contains("for module in " + String.join(" ", built) + "; do"), run);
        assertTrue(run.contains("<\"$module/target/classpath.txt\"") &&
            run.contains("cp \"$module/target/$module\"-*.jar \"/opt/warpbus/$module/lib/\""),
            dockerfile.path + ": each module's jar and runtime class path go to /opt/warpbus/MODULE/lib: " + run);
        for (final String service : SERVICES)
        {
            final Dockerfile.Stage image = image(service);
            assertEquals("eclipse-temurin:17-jre", image.image(), service);
            final String module = MODULES.get(service);
            assertTrue(built.contains(module), service + ": " + module + " is not built: " + run);
            assertTrue(image.all("COPY").stream().anyMatch((c) -> c.words().equals(List.of("--from=build",
                "/opt/warpbus/" + module + "/lib", "/opt/warpbus/lib"))), service + ": does not take " + module +
                "'s jars from the build stage");
            assertTrue(image.all("RUN").stream().noneMatch((r) -> r.arguments().contains("mvnw")),
                service + ": builds on its own");
        }
        for (final String service : SERVICES)
        {
            assertFalse(Files.exists(DeployFiles.file("docker/" + service + "/Dockerfile")),
                "docker/" + service + "/Dockerfile: the images have one Dockerfile, " + DOCKERFILE);
        }
    }

    @Test
    void shouldCopyOnlyWhatTheCheckoutHasAndTheBuildContextSends()
    {
        final List<String> ignored = ignoredPatterns();
        final Dockerfile dockerfile = dockerfile();
        final Set<String> stagesSoFar = new TreeSet<>();
        for (final Dockerfile.Stage stage : dockerfile.stages)
        {
            for (final Dockerfile.Instruction copy : stage.instructions())
            {
                if (!"COPY".equals(copy.keyword()) && !"ADD".equals(copy.keyword()))
                {
                    continue;
                }
                final List<String> sources = new ArrayList<>();
                String from = null;
                for (final String word : copy.words())
                {
                    if (word.startsWith("--from="))
                    {
                        from = word.substring("--from=".length());
                    }
                    else if (!word.startsWith("--"))
                    {
                        sources.add(word);
                    }
                }
                final String where = dockerfile.path + ":" + copy.line() + " " + copy.keyword() + " " +
                    copy.arguments();
                assertTrue(sources.size() >= 2, where);
                sources.remove(sources.size() - 1);
                if (null != from)
                {
                    assertTrue(stagesSoFar.contains(from), where + ": no earlier stage " + from);
                    continue;
                }
                for (final String source : sources)
                {
                    assertTrue(Files.exists(DeployFiles.file(source)), where + ": " + source +
                        " is not in the checkout");
                    for (final String pattern : ignored)
                    {
                        assertFalse(source.equals(pattern) || source.startsWith(pattern + "/"),
                            where + ": " + source + " is left out of the build context by .dockerignore");
                    }
                }
            }
            if (null != stage.name())
            {
                stagesSoFar.add(stage.name());
            }
        }
    }

    @Test
    void shouldRunAsAnUnprivilegedUserWithAHealthCheckAndTheLaunchersJvmFlags()
    {
        final String launcher = DeployFiles.read(DeployFiles.file("warpbus"));
        assertTrue(launcher.contains("JVM_ARGS_FILE=\"$ROOT/config/jvm.args\""), "the launcher's argfile");
        assertTrue(launcher.contains("exec \"$JAVA\" \"@$JVM_ARGS_FILE\""), "the launcher runs java @config/jvm.args");
        assertTrue(launcher.contains("WARPBUS_CLASSPATH"), "the launcher's prebuilt mode");
        for (final String service : SERVICES)
        {
            final Dockerfile.Stage image = image(service);
            final String where = DOCKERFILE + " --target " + service;

            final Dockerfile.Instruction user = image.last("USER");
            assertNotNull(user, where + ": no USER");
            final String name = user.arguments().split(":")[0];
            assertFalse(Set.of("root", "0").contains(name), where + ": runs as " + user.arguments());
            assertTrue(image.all("RUN").stream().anyMatch((r) -> r.arguments().contains("useradd") &&
                r.arguments().contains(" " + name)), where + ": user " + name + " is never created");
            assertTrue(image.instructions().indexOf(user) > image.instructions().indexOf(image.last("RUN")),
                where + ": USER must follow the last RUN (setup runs as root, the service does not)");

            assertTrue(copies(image, "warpbus", "/opt/warpbus/warpbus"), where + ": the launcher");
            assertTrue(copies(image, "config/jvm.args", "/opt/warpbus/config/jvm.args"), where + ": config/jvm.args");
            final List<String> entrypoint = image.last("ENTRYPOINT").execForm();
            assertNotNull(entrypoint, where + ": ENTRYPOINT is not in exec form (signals would not reach java)");
            assertEquals("/opt/warpbus/warpbus", entrypoint.get(0), where + ": ENTRYPOINT is not the launcher");
            assertTrue(image.all("ENV").stream().anyMatch((e) -> e.arguments().contains(
                "WARPBUS_CLASSPATH=\"/opt/warpbus/lib/*\"")), where + ": the launcher would try to build");

            final Dockerfile.Instruction healthcheck = image.last("HEALTHCHECK");
            assertNotNull(healthcheck, where + ": no HEALTHCHECK");
            final String check = healthcheck.arguments();
            assertFalse(check.strip().equalsIgnoreCase("NONE"), where);
            final List<String> command = new Dockerfile.Instruction(healthcheck.line(), "CMD",
                check.substring(check.indexOf("CMD ") + 4)).execForm();
            assertNotNull(command, where + ": HEALTHCHECK CMD is not in exec form: " + check);
            assertTrue(copies(image, null, command.get(0)), where + ": the health check runs " + command.get(0) +
                ", which the image does not have");
            if (command.get(0).endsWith("healthcheck.sh"))
            {
                assertTrue(exposed(image).contains(Integer.parseInt(command.get(1))),
                    where + ": the health check's port " + command.get(1) + " is not exposed");
            }
            assertTrue(image.all("VOLUME").stream().anyMatch((v) -> v.arguments().contains("/var/run/warpbus")),
                where + ": no volume for the counters");
        }
    }

    @Test
    void shouldExposeWhatTheServiceListensOn()
    {
        assertEquals(Set.of(40400, 9101), exposed(image("engine")));
        assertEquals(Set.of(8080, 8081, 40500), exposed(image("gateway")));
        assertEquals(Set.of(40600, 9102), exposed(image("recorder")));
        assertEquals(Set.of(40300), exposed(image("tools")));
        // The gateway's own defaults are the ports it exposes.
        final String gateway = String.join(" ", image("gateway").all("ENV").stream()
            .map(Dockerfile.Instruction::arguments).toList());
        assertTrue(gateway.contains("SERVER_PORT=8080") && gateway.contains("WARPBUS_GATEWAY_TRADING_PORT=8081"),
            gateway);
        // The engine's default command listens where the image says.
        final List<String> engine = image("engine").last("CMD").execForm();
        assertEquals("0.0.0.0:9101", engine.get(engine.indexOf("--metrics") + 1));
    }

    static Dockerfile dockerfile()
    {
        return Dockerfile.parse(DeployFiles.file(DOCKERFILE));
    }

    /**
     * An image as {@code docker build --target SERVICE} builds it: its stage on top of the shared run stage.
     */
    static Dockerfile.Stage image(final String service)
    {
        return dockerfile().target(service);
    }

    static Set<Integer> exposed(final Dockerfile.Stage image)
    {
        final Set<Integer> ports = new TreeSet<>();
        for (final Dockerfile.Instruction expose : image.all("EXPOSE"))
        {
            for (final String word : expose.words())
            {
                ports.add(Integer.parseInt(word.replace("/tcp", "")));
            }
        }
        return ports;
    }

    private static boolean copies(final Dockerfile.Stage stage, final String source, final String destination)
    {
        for (final Dockerfile.Instruction copy : stage.all("COPY"))
        {
            final List<String> words = copy.words();
            if (words.get(words.size() - 1).equals(destination) && (null == source || words.contains(source)))
            {
                return true;
            }
        }
        return false;
    }

    private static List<String> ignoredPatterns()
    {
        final List<String> patterns = new ArrayList<>();
        for (final String line : DeployFiles.read(DeployFiles.file(".dockerignore")).split("\n"))
        {
            final String pattern = line.strip();
            if (!pattern.isEmpty() && !pattern.startsWith("#") && !pattern.contains("*"))
            {
                patterns.add(pattern.endsWith("/") ? pattern.substring(0, pattern.length() - 1) : pattern);
            }
        }
        assertTrue(patterns.contains(".git"), ".dockerignore leaves out .git");
        assertTrue(DeployFiles.read(DeployFiles.file(".dockerignore")).contains("**/target"),
            ".dockerignore leaves out build output");
        return patterns;
    }
}
