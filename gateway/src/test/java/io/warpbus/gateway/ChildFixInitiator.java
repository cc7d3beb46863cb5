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

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import io.warpbus.testing.Await;
import io.warpbus.testing.ChildJvm;

/**
 * Drives a {@link FixInitiatorMain} in a JVM of its own: writes its commands to the child's stdin and collects its
 * {@value FixInitiatorMain#PREFIX} lines from its stdout on a reader thread, parsing each received FIX message into
 * its tags (a repeated tag keeps its last value).
 */
final class ChildFixInitiator implements AutoCloseable
{
    private static final long TIME_LIMIT_S = 150;

    private final Process process;
    private final Writer stdin;
    private final List<String> lines = new ArrayList<>();
    private final Thread reader;

    private ChildFixInitiator(final Process process)
    {
        this.process = process;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        reader = new Thread(this::read, "child-fix-initiator-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Start a child that logs on.
     *
     * @param port     the gateway's FIX port.
     * @param sender   its SenderCompID.
     * @param store    QuickFIX/J's store directory.
     * @param user     Username (553).
     * @param password Password (554), passed in the child's environment.
     * @return the child, logging on.
     */
    static ChildFixInitiator start(final int port, final String sender, final Path store, final String user,
        final String password)
    {
        final ProcessBuilder builder = ChildJvm.of(FixInitiatorMain.class).jvmFlags("-Xmx128m")
            .args(String.valueOf(port), sender, "WARPBUS", store.toString(), user, String.valueOf(TIME_LIMIT_S))
            .processBuilder().redirectErrorStream(true);
        builder.environment().put("WARPBUS_PASSWORD", password);
        try
        {
            return new ChildFixInitiator(builder.start());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private void read()
    {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
            StandardCharsets.UTF_8)))
        {
            String line;
            while (null != (line = out.readLine()))
            {
                if (line.startsWith(FixInitiatorMain.PREFIX))
                {
                    synchronized (lines)
                    {
                        lines.add(line.substring(FixInitiatorMain.PREFIX.length()));
                    }
                }
            }
        }
        catch (final IOException ex)
        {
            // The child ended.
        }
    }

    /**
     * Send a command line.
     *
     * @param command as {@link FixInitiatorMain} reads them.
     */
    void command(final String command)
    {
        try
        {
            stdin.write(command + "\n");
            stdin.flush();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("the child initiator's stdin: " + lines(), ex);
        }
    }

    List<String> lines()
    {
        synchronized (lines)
        {
            return new ArrayList<>(lines);
        }
    }

    /**
     * Wait for a line.
     *
     * @param match what it must be.
     * @param what  what is awaited, for the failure.
     * @return the line.
     */
    String awaitLine(final Predicate<String> match, final String what)
    {
        final String[] found = new String[1];
        Await.until(() -> what + " from the child initiator; its lines: " + lines(), FixTestClient.TIMEOUT_MS,
            () -> Await.sleep(10), () ->
            {
                for (final String line : lines())
                {
                    if (match.test(line))
                    {
                        found[0] = line;
                        return true;
                    }
                }
                return false;
            });
        return found[0];
    }

    /**
     * Wait for a received message with these tags and values.
     *
     * @param tagsAndValues tag, value, tag, value...
     * @return the message's tags.
     */
    Map<Integer, String> await(final String... tagsAndValues)
    {
        final Predicate<String> match = (line) ->
        {
            if (!line.startsWith("recv "))
            {
                return false;
            }
            final Map<Integer, String> fields = fields(line);
            for (int i = 0; i < tagsAndValues.length; i += 2)
            {
                if (!tagsAndValues[i + 1].equals(fields.get(Integer.parseInt(tagsAndValues[i]))))
                {
                    return false;
                }
            }
            return true;
        };
        return fields(awaitLine(match, "a message with " + String.join(",", tagsAndValues)));
    }

    static Map<Integer, String> fields(final String line)
    {
        final Map<Integer, String> fields = new HashMap<>();
        for (final String field : line.substring(line.indexOf(' ') + 1).split("\\|"))
        {
            final int equals = field.indexOf('=');
            if (equals > 0)
            {
                fields.put(Integer.parseInt(field.substring(0, equals)), field.substring(equals + 1));
            }
        }
        return fields;
    }

    /**
     * Wait for the child to end.
     *
     * @return its exit code.
     */
    int awaitExit()
    {
        try
        {
            if (!process.waitFor(30, TimeUnit.SECONDS))
            {
                throw new AssertionError("the child initiator did not end within 30 s: " + lines());
            }
            reader.join(5_000);
            return process.exitValue();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    @Override
    public void close()
    {
        if (process.isAlive())
        {
            try
            {
                command("quit");
                process.waitFor(10, TimeUnit.SECONDS);
            }
            catch (final UncheckedIOException | InterruptedException ex)
            {
                // Forced below.
            }
            process.destroyForcibly();
        }
    }
}
