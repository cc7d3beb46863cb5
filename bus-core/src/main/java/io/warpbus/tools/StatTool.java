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

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import io.warpbus.bus.status.CountersFile;

/**
 * {@code warpbus stat}: print the counters and the distinct error log of a running (or dead) bus from its
 * {@code <dir>/counters.dat}, from another process, without disturbing the bus.
 * <pre>
 * stat --dir DIR [--count N] [--interval MS] [--errors] [--filter REGEX]
 * </pre>
 * Each snapshot is a header line (time, owner pid, start time, heartbeat age and status) followed by one line per
 * allocated counter, {@code id: value - label}. When the owner is gone and a new file has replaced its file (the
 * bus restarted), the next snapshot shows the new file. Exit codes: 0 done, 1 missing or invalid counters file, 2
 * bad arguments.
 */
public final class StatTool
{
    static final int EXIT_OK = 0;
    static final int EXIT_FAILED = 1;
    static final int EXIT_USAGE = 2;
    /** {@code --alive}: the owner closed the file, or its heartbeat is stale and not changing. */
    static final int EXIT_NOT_ALIVE = 3;
    static final long DEFAULT_INTERVAL_MS = 1_000;
    /** {@code --alive}: how long a heartbeat stamped too far from this clock is watched for a change. */
    static final long ALIVE_WATCH_MS = 1_000;

    /** Parsed command line. */
    static final class Options
    {
        Path dir;
        long count;
        long intervalMs = DEFAULT_INTERVAL_MS;
        boolean errors;
        Pattern filter;
        boolean help;
        boolean alive;
    }

    private StatTool()
    {
    }

    /**
     * Run the tool and exit with its exit code.
     *
     * @param args the command line, see the class documentation.
     */
    public static void main(final String[] args)
    {
        System.exit(run(args, System.out, System.err));
    }

    static int run(final String[] args, final PrintStream out, final PrintStream err)
    {
        final Options options;
        try
        {
            options = parse(args);
        }
        catch (final IllegalArgumentException ex)
        {
            err.println("stat: " + ex.getMessage());
            usage(err);
            return EXIT_USAGE;
        }
        if (options.help)
        {
            usage(out);
            return EXIT_OK;
        }

        final CountersFile countersFile;
        try
        {
            countersFile = CountersFile.mapExisting(options.dir);
        }
        catch (final RuntimeException ex)
        {
            err.println("stat: " + ex.getMessage());
            return EXIT_FAILED;
        }

        CountersFile lastMapped = countersFile;
        try
        {
            if (options.alive)
            {
                return alive(countersFile, out);
            }
            if (options.errors)
            {
                printErrors(countersFile, options.filter, out);
            }
            else
            {
                lastMapped = printCounters(countersFile, options, out);
            }
            return EXIT_OK;
        }
        finally
        {
            lastMapped.close();
        }
    }

    static Options parse(final String[] args)
    {
        final Options options = new Options();
        for (int i = 0; i < args.length; i++)
        {
            final String arg = args[i];
            switch (arg)
            {
                case "--dir":
                    options.dir = Path.of(value(args, ++i, arg));
                    break;
                case "--count":
                    options.count = number(args, ++i, arg);
                    if (options.count < 0)
                    {
                        throw new IllegalArgumentException("--count must be 0 (forever) or more: " + options.count);
                    }
                    break;
                case "--interval":
                    options.intervalMs = number(args, ++i, arg);
                    if (options.intervalMs <= 0)
                    {
                        throw new IllegalArgumentException("--interval must be positive: " + options.intervalMs);
                    }
                    break;
                case "--errors":
                    options.errors = true;
                    break;
                case "--alive":
                    options.alive = true;
                    break;
                case "--filter":
                    final String regex = value(args, ++i, arg);
                    try
                    {
                        options.filter = Pattern.compile(regex);
                    }
                    catch (final PatternSyntaxException ex)
                    {
                        throw new IllegalArgumentException("bad --filter regex '" + regex + "': " +
                            ex.getDescription());
                    }
                    break;
                case "-h":
                case "--help":
                    options.help = true;
                    break;
                default:
                    throw new IllegalArgumentException("unknown option '" + arg + "'");
            }
        }
        if (!options.help && null == options.dir)
        {
            throw new IllegalArgumentException("--dir DIR is required");
        }
        return options;
    }

    static void usage(final PrintStream stream)
    {
        stream.println("usage: warpbus stat --dir DIR [--count N] [--interval MS] [--errors] [--filter REGEX] " +
            "[--alive]");
        stream.println("  --dir DIR       the bus's directory, holding " + CountersFile.FILENAME);
        stream.println("  --count N       print N snapshots, then exit; 0 (default): until Ctrl-C");
        stream.println("  --interval MS   time between snapshots, default " + DEFAULT_INTERVAL_MS);
        stream.println("  --errors        print the distinct error log, then exit");
        stream.println("  --filter REGEX  only counters whose label (with --errors: errors whose text) contains a " +
            "match");
        stream.println("  --alive         print the owner's status line and exit 0 if it is alive (its heartbeat " +
            "recent, or changing within " + ALIVE_WATCH_MS + " ms), " + EXIT_NOT_ALIVE + " if it closed the file or " +
            "its heartbeat is stale (a health check)");
    }

    /**
     * {@code --alive}: print the status line and answer whether the owner runs. A heartbeat stamped within the
     * liveness timeout of this clock, ahead or behind, is alive. One further off is watched for
     * {@link #ALIVE_WATCH_MS} on the monotonic clock: after a step of the host's clock (NTP) a live owner's stamps
     * are off by the step but still change, and a dead owner's may look recent after a step back only within the
     * timeout.
     */
    static int alive(final CountersFile countersFile, final PrintStream out)
    {
        final long nowMs = System.currentTimeMillis();
        final boolean closed = countersFile.isOwnerClosed();
        final long ageMs = countersFile.heartbeatAgeMs(nowMs);
        final boolean recent = Math.abs(ageMs) <= CountersFile.DEFAULT_LIVENESS_TIMEOUT_MS;
        final boolean beating = !closed && !recent && countersFile.isBeating(ALIVE_WATCH_MS);
        out.println(headerLine(countersFile, nowMs, beating));
        return !closed && (recent || beating) ? EXIT_OK : EXIT_NOT_ALIVE;
    }

    static String headerLine(final CountersFile countersFile, final long nowMs)
    {
        return headerLine(countersFile, nowMs, false);
    }

    /**
     * The status line: the owner's pid and start, the heartbeat's age and what it says.
     *
     * @param beating the heartbeat was seen changing although its age says otherwise.
     */
    static String headerLine(final CountersFile countersFile, final long nowMs, final boolean beating)
    {
        final long pid = countersFile.pid();
        final long heartbeatAgeMs = countersFile.heartbeatAgeMs(nowMs);
        final String status;
        if (countersFile.isOwnerClosed())
        {
            status = "closed by its owner";
        }
        else if (beating)
        {
            status = "alive (heartbeat changing, though stamped " + Math.abs(heartbeatAgeMs) + " ms " +
                (heartbeatAgeMs > 0 ? "behind" : "ahead of") + " this clock)";
        }
        else if (heartbeatAgeMs < -CountersFile.DEFAULT_LIVENESS_TIMEOUT_MS)
        {
            status = "STALE: heartbeat stamped " + -heartbeatAgeMs + " ms ahead of this clock" +
                ownerRunning(pid);
        }
        else if (!countersFile.isAlive(nowMs))
        {
            status = "STALE: no heartbeat for " + heartbeatAgeMs + " ms" + ownerRunning(pid);
        }
        else
        {
            status = "alive";
        }
        return Instant.ofEpochMilli(nowMs) +
            " pid=" + pid +
            " start=" + Instant.ofEpochMilli(countersFile.startTimestampMs()) +
            " heartbeat-age=" + heartbeatAgeMs + "ms" +
            " status=" + status +
            " file=" + countersFile.file();
    }

    private static String ownerRunning(final long pid)
    {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) ? "" :
            ", pid " + pid + " is not running";
    }

    /**
     * When the owner of the mapped file is gone and another file has replaced it (the bus restarted), map the new
     * one and close the old; otherwise keep the current mapping.
     */
    static CountersFile followReplacement(final CountersFile current, final Path dir, final long nowMs)
    {
        if (current.isAlive(nowMs))
        {
            return current;
        }
        if (!current.isReplacedOnDisk())
        {
            return current;
        }
        try
        {
            final CountersFile replacement = CountersFile.mapExisting(dir);
            current.close();
            return replacement;
        }
        catch (final RuntimeException ex)
        {
            return current; // not ready yet, or invalid: keep showing the old one
        }
    }

    private static CountersFile printCounters(
        final CountersFile mapped, final Options options, final PrintStream out)
    {
        CountersFile countersFile = mapped;
        for (long i = 0; 0 == options.count || i < options.count; i++)
        {
            if (i > 0)
            {
                try
                {
                    Thread.sleep(options.intervalMs);
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                    break;
                }
                countersFile = followReplacement(countersFile, options.dir, System.currentTimeMillis());
            }
            printSnapshot(countersFile, options.filter, out);
        }
        return countersFile;
    }

    private static void printSnapshot(final CountersFile countersFile, final Pattern filter, final PrintStream out)
    {
        final StringBuilder snapshot = new StringBuilder(4096);
        snapshot.append(headerLine(countersFile, System.currentTimeMillis())).append(System.lineSeparator());
        countersFile.countersReader().forEach(
            (value, counterId, label) ->
            {
                if (null == filter || filter.matcher(label).find())
                {
                    snapshot.append(String.format(Locale.ROOT, "%4d: %20d - %s", counterId, value, label))
                        .append(System.lineSeparator());
                }
            });
        out.print(snapshot);
        out.flush();
    }

    private static void printErrors(final CountersFile countersFile, final Pattern filter, final PrintStream out)
    {
        out.println(headerLine(countersFile, System.currentTimeMillis()));
        final int[] printed = new int[1];
        countersFile.readErrors(
            (observationCount, firstTimestampMs, lastTimestampMs, encodedException) ->
            {
                if (null == filter || filter.matcher(encodedException).find())
                {
                    printed[0]++;
                    out.println();
                    out.println(observationCount + " observations from " + Instant.ofEpochMilli(firstTimestampMs) +
                        " to " + Instant.ofEpochMilli(lastTimestampMs) + " for:");
                    out.print(encodedException);
                    if (!encodedException.endsWith("\n"))
                    {
                        out.println();
                    }
                }
            });
        out.println();
        out.println(printed[0] + " distinct errors observed.");
        out.flush();
    }

    private static String value(final String[] args, final int index, final String option)
    {
        if (index >= args.length)
        {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[index];
    }

    private static long number(final String[] args, final int index, final String option)
    {
        final String value = value(args, index, option);
        try
        {
            return Long.parseLong(value);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(option + " needs a number: '" + value + "'");
        }
    }
}
