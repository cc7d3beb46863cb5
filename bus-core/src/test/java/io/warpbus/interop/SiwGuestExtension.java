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
package io.warpbus.interop;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.opentest4j.TestAbortedException;

/**
 * Gives test classes one {@link SiwGuest} shared by the whole test run (booted on first use, stopped when the run
 * ends). Where the guest cannot run (not root, no qemu, debootstrap, tcpdump or tshark) the classes are skipped with
 * the reason; with {@value #REQUIRE_ENV}=1 in the environment, as {@code .ci/run} sets, they fail instead, because a
 * skipped interop test in CI proves nothing.
 * <p>
 * Before and after every test the guest's kernel log is checked for a fault: siw can crash the guest's iw_cm (see
 * {@link SiwGuest#missedFirstFpdu}), after which the guest serves no new connection, and every later case would
 * fail with an MPA exchange that siw never answers. The guest is then booted afresh, and the fault reported. After
 * a case that failed the guest is booted afresh too, fault or not, so that one failure does not become many.
 */
public final class SiwGuestExtension implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback,
    ParameterResolver
{
    /** Set to 1 where the interop tests must run (CI): a missing prerequisite fails instead of skipping. */
    public static final String REQUIRE_ENV = "WARPBUS_CI";
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SiwGuest.class);
    private static final List<String> TOOLS = List.of("qemu-system-x86_64", "debootstrap", "mkfs.ext4", "tcpdump",
        "tshark");

    @Override
    public void beforeAll(final ExtensionContext context) throws Exception
    {
        guest(context);
    }

    @Override
    public void beforeEach(final ExtensionContext context) throws Exception
    {
        // Also before: a fault can reach the log a moment after the case that caused it ended.
        final SiwGuest guest = booted(context);
        if (null != guest)
        {
            guest.rebootIfFaulted("before " + describe(context));
        }
    }

    @Override
    public void afterEach(final ExtensionContext context) throws Exception
    {
        final SiwGuest guest = booted(context);
        if (null != guest && null == guest.rebootIfFaulted("after " + describe(context)) &&
            context.getExecutionException().isPresent())
        {
            // A case that failed may leave siw or the guest's iw_cm in a state no later case gets out of, with no
            // fault in the log: in one CI run every case after a failed one timed out, because siw's rping client
            // could no longer connect. A fresh guest lets each later case pass or fail on its own.
            guest.reboot("failed case (" + describe(context) + ")");
        }
    }

    /** The guest, once a class has booted it; null before. */
    private static SiwGuest booted(final ExtensionContext context)
    {
        return context.getRoot().getStore(NAMESPACE).get("guest") instanceof SiwGuest guest ? guest : null;
    }

    private static String describe(final ExtensionContext context)
    {
        return context.getRequiredTestClass().getSimpleName() + " " + context.getDisplayName();
    }

    @Override
    public boolean supportsParameter(final ParameterContext parameter, final ExtensionContext context)
    {
        return SiwGuest.class == parameter.getParameter().getType();
    }

    @Override
    public Object resolveParameter(final ParameterContext parameter, final ExtensionContext context)
    {
        return guest(context);
    }

    private static SiwGuest guest(final ExtensionContext context)
    {
        final ExtensionContext.Store store = context.getRoot().getStore(NAMESPACE);
        final Object existing = store.get("failure");
        if (existing instanceof RuntimeException failure)
        {
            throw failure;
        }
        try
        {
            return store.computeIfAbsent("guest", (key) -> boot(), SiwGuest.class);
        }
        catch (final RuntimeException ex)
        {
            store.put("failure", ex);
            throw ex;
        }
    }

    private static SiwGuest boot()
    {
        final String missing = missingPrerequisites();
        if (null != missing)
        {
            final String reason = "Linux siw interop tests need " + missing + " (.ci/run installs it all; run as " +
                "root, or exclude them with -Dsurefire.excludedGroups=slow,siw)";
            if ("1".equals(System.getenv(REQUIRE_ENV)))
            {
                throw new IllegalStateException(REQUIRE_ENV + "=1 but " + reason);
            }
            throw new TestAbortedException(reason);
        }
        try
        {
            final Path scripts = scripts();
            final SiwGuest guest = SiwGuest.boot(scripts, Path.of("target", "siw-interop").toAbsolutePath());
            System.out.println("siw guest up:\n" + guest.info());
            return guest;
        }
        catch (final Exception ex)
        {
            throw new IllegalStateException("cannot start the siw guest: " + ex.getMessage(), ex);
        }
    }

    private static String missingPrerequisites()
    {
        final List<String> missing = new ArrayList<>();
        if (!isRoot())
        {
            missing.add("root");
        }
        for (final String tool : TOOLS)
        {
            if (!onPath(tool))
            {
                missing.add(tool);
            }
        }
        return missing.isEmpty() ? null : String.join(", ", missing);
    }

    private static boolean isRoot()
    {
        try
        {
            for (final String line : Files.readAllLines(Path.of("/proc/self/status")))
            {
                if (line.startsWith("Uid:"))
                {
                    return "0".equals(line.split("\\s+")[1]);
                }
            }
        }
        catch (final IOException ex)
        {
            return false;
        }
        return false;
    }

    private static boolean onPath(final String tool)
    {
        final List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "")
            .split(File.pathSeparator)));
        dirs.addAll(List.of("/usr/sbin", "/sbin", "/usr/bin"));
        for (final String dir : dirs)
        {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool)))
            {
                return true;
            }
        }
        return false;
    }

    private static Path scripts()
    {
        Path dir = Path.of("").toAbsolutePath();
        while (null != dir)
        {
            final Path candidate = dir.resolve("ops").resolve("interop").resolve("siw");
            if (Files.isExecutable(candidate.resolve("build-guest.sh")))
            {
                return candidate;
            }
            dir = dir.getParent();
        }
        throw new IllegalStateException("ops/interop/siw/build-guest.sh not found above " +
            Path.of("").toAbsolutePath());
    }
}
