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
package io.warpbus.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Results of one suite: per case, system and metric, the values of every round. Reports the median of the rounds,
 * prints a table with the ratio of each system to the baseline system, and writes a JSON array of
 * {@code {"suite","case","system","metric","value","unit"}} objects.
 */
public final class BenchReport
{
    private final String suite;
    private final String baseline;
    private final Map<String, List<Double>> values = new LinkedHashMap<>();
    private final Map<String, String> units = new LinkedHashMap<>();
    private final List<String> systems = new ArrayList<>();

    /**
     * Create a report.
     *
     * @param suite    suite name, e.g. {@code rdma}.
     * @param baseline the peer system that ratios are taken against.
     */
    public BenchReport(final String suite, final String baseline)
    {
        this.suite = suite;
        this.baseline = baseline;
    }

    /**
     * Record one round's value.
     *
     * @param caseName case, e.g. {@code pingpong-64B}.
     * @param system   system, e.g. {@code warpbus-iwarp}.
     * @param metric   metric, e.g. {@code rtt_p50_ns}.
     * @param value    the value.
     * @param unit     unit, e.g. {@code ns}.
     */
    public void add(final String caseName, final String system, final String metric, final double value,
        final String unit)
    {
        values.computeIfAbsent(key(caseName, system, metric), (k) -> new ArrayList<>()).add(value);
        units.put(metric, unit);
        if (!systems.contains(system))
        {
            systems.add(system);
        }
    }

    /**
     * The median of the rounds recorded.
     *
     * @param caseName case.
     * @param system   system.
     * @param metric   metric.
     * @return the median, or NaN when nothing was recorded.
     */
    public double median(final String caseName, final String system, final String metric)
    {
        final List<Double> list = values.get(key(caseName, system, metric));
        if (null == list || list.isEmpty())
        {
            return Double.NaN;
        }
        final double[] sorted = list.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        final int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    /**
     * Print the table: one row per case and metric, a column per system, and each system's ratio to the baseline.
     *
     * @param out where to print.
     */
    public void printTable(final PrintStream out)
    {
        final List<String> others = new ArrayList<>(systems);
        others.remove(baseline);
        final StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%-22s %-16s", "case", "metric"));
        for (final String system : systems)
        {
            header.append(String.format(Locale.ROOT, " %16s", system));
        }
        for (final String system : others)
        {
            header.append(String.format(Locale.ROOT, " %14s", "ratio(" + shortName(system) + ")"));
        }
        out.println(header);
        out.println("-".repeat(header.length()));
        for (final String[] row : rows())
        {
            final StringBuilder line = new StringBuilder(
                String.format(Locale.ROOT, "%-22s %-16s", row[0], row[1]));
            for (final String system : systems)
            {
                line.append(String.format(Locale.ROOT, " %16s", format(median(row[0], system, row[1]))));
            }
            final double base = median(row[0], baseline, row[1]);
            for (final String system : others)
            {
                final double ratio = median(row[0], system, row[1]) / base;
                line.append(String.format(Locale.ROOT, " %14s", Double.isNaN(ratio) ? "-" :
                    String.format(Locale.ROOT, "%.2fx", ratio)));
            }
            out.println(line);
        }
    }

    /**
     * Write the medians as a JSON array.
     *
     * @param file the file; its directory is created.
     * @throws IOException when it cannot be written.
     */
    public void writeJson(final Path file) throws IOException
    {
        writeJson(file, this);
    }

    /**
     * Write the medians of several reports as one JSON array, report after report: for a suite whose systems come
     * in pairs, each pair with its own baseline (and so its own table), but one file.
     *
     * @param file    the file; its directory is created.
     * @param reports the reports, in order.
     * @throws IOException when it cannot be written.
     */
    public static void writeJson(final Path file, final BenchReport... reports) throws IOException
    {
        final StringBuilder json = new StringBuilder("[\n");
        boolean first = true;
        for (final BenchReport report : reports)
        {
            first = report.appendJson(json, first);
        }
        json.append("\n]\n");
        Files.createDirectories(file.getParent());
        Files.writeString(file, json);
    }

    private boolean appendJson(final StringBuilder json, final boolean firstObject)
    {
        boolean first = firstObject;
        for (final String[] row : rows())
        {
            for (final String system : systems)
            {
                final double value = median(row[0], system, row[1]);
                if (Double.isNaN(value))
                {
                    continue;
                }
                json.append(first ? "" : ",\n").append(String.format(Locale.ROOT,
                    "  {\"suite\":\"%s\",\"case\":\"%s\",\"system\":\"%s\",\"metric\":\"%s\",\"value\":%s," +
                    "\"unit\":\"%s\"}", suite, row[0], system, row[1], number(value), units.get(row[1])));
                first = false;
            }
        }
        return first;
    }

    /**
     * Describe the conditions of the run: machine, OS, JVM and its flags.
     *
     * @return lines of text.
     */
    public static String conditions()
    {
        String cpu = "unknown CPU";
        try
        {
            cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter((l) -> l.startsWith("model name"))
                .findFirst().map((l) -> l.substring(l.indexOf(':') + 1).trim()).orElse(cpu);
        }
        catch (final IOException | RuntimeException ignore)
        {
            // Not Linux: the CPU model is informational only.
        }
        return "machine: " + Runtime.getRuntime().availableProcessors() + " cores, " + cpu + "\n" +
            "os: " + System.getProperty("os.name") + " " + System.getProperty("os.version") + "\n" +
            "jvm: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version") + "\n" +
            "jvm flags: " + String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()
            .stream().filter((a) -> !a.startsWith("--add-")).toList());
    }

    /**
     * Where suites write their JSON: {@code -Dwarpbus.bench.dir} or {@code target/bench}.
     *
     * @param name file name.
     * @return the path.
     */
    public static Path output(final String name)
    {
        return Path.of(System.getProperty("warpbus.bench.dir", "target/bench")).resolve(name);
    }

    private List<String[]> rows()
    {
        final List<String[]> rows = new ArrayList<>();
        for (final String key : values.keySet())
        {
            final String[] parts = key.split("\u0000");
            final boolean seen = rows.stream().anyMatch((r) -> r[0].equals(parts[0]) && r[1].equals(parts[2]));
            if (!seen)
            {
                rows.add(new String[] { parts[0], parts[2] });
            }
        }
        return rows;
    }

    private static String key(final String caseName, final String system, final String metric)
    {
        return caseName + "\u0000" + system + "\u0000" + metric;
    }

    private static String shortName(final String system)
    {
        final int dash = system.indexOf('-');
        return dash > 0 ? system.substring(dash + 1) : system;
    }

    private static String format(final double value)
    {
        if (Double.isNaN(value))
        {
            return "-";
        }
        return value >= 100 ? String.format(Locale.ROOT, "%,.0f", value) : String.format(Locale.ROOT, "%.2f", value);
    }

    private static String number(final double value)
    {
        return value == Math.rint(value) ? String.valueOf((long)value) : String.format(Locale.ROOT, "%.3f", value);
    }
}
