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
package io.warpbus.demo;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.agrona.SystemUtil;

/**
 * Command-line options of the demo's processes: {@code --name value} pairs and {@code --flag}s, each falling back to
 * the system property {@code warpbus.demo.name} and then to a default. Unknown options fail with a message naming
 * them, so a typo never silently runs with a default.
 */
public final class Options
{
    /**
     * Prefix of the system properties options fall back to.
     */
    public static final String PROPERTY_PREFIX = "warpbus.demo.";

    private final Map<String, String> values = new HashMap<>();
    private final Set<String> flags;

    private Options(final Set<String> flags)
    {
        this.flags = flags;
    }

    /**
     * Parse arguments.
     *
     * @param args    the arguments.
     * @param options names (without {@code --}) that take a value.
     * @param flags   names (without {@code --}) that take none.
     * @return the parsed options.
     * @throws IllegalArgumentException naming an unknown option or a missing value.
     */
    public static Options parse(final String[] args, final Set<String> options, final Set<String> flags)
    {
        final Options parsed = new Options(flags);
        for (int i = 0; i < args.length; i++)
        {
            final String arg = args[i];
            if (!arg.startsWith("--"))
            {
                throw new IllegalArgumentException("unexpected argument '" + arg + "'");
            }
            final String name = arg.substring(2);
            if (flags.contains(name))
            {
                parsed.values.put(name, "true");
            }
            else if (options.contains(name))
            {
                if (i + 1 >= args.length)
                {
                    throw new IllegalArgumentException("option --" + name + " needs a value");
                }
                parsed.values.merge(name, args[++i], (a, b) -> a + "," + b);
            }
            else
            {
                throw new IllegalArgumentException("unknown option '" + arg + "'; known: " + describe(options, flags));
            }
        }

        return parsed;
    }

    /**
     * A string option.
     *
     * @param name         without {@code --}.
     * @param defaultValue when neither the option nor its property is given.
     * @return the value.
     */
    public String string(final String name, final String defaultValue)
    {
        final String value = values.get(name);
        return null != value ? value : System.getProperty(PROPERTY_PREFIX + name, defaultValue);
    }

    /**
     * A required string option.
     *
     * @param name without {@code --}.
     * @return the value.
     * @throws IllegalArgumentException if it is missing.
     */
    public String required(final String name)
    {
        final String value = string(name, null);
        if (null == value || value.isEmpty())
        {
            throw new IllegalArgumentException("option --" + name + " is required");
        }

        return value;
    }

    /**
     * A repeatable option: every value given, in order (repeats and commas both separate values).
     *
     * @param name without {@code --}.
     * @return the values, empty if none.
     */
    public List<String> list(final String name)
    {
        final String value = string(name, null);
        return null == value || value.isEmpty() ? List.of() : List.of(value.split(","));
    }

    /**
     * A whole number option within bounds; sizes accept k, m and g suffixes.
     *
     * @param name         without {@code --}.
     * @param defaultValue when not given.
     * @param min          least value.
     * @param max          greatest value.
     * @return the value.
     * @throws IllegalArgumentException if it is not a number or out of bounds.
     */
    public long number(final String name, final long defaultValue, final long min, final long max)
    {
        final String text = string(name, null);
        if (null == text)
        {
            return defaultValue;
        }
        final long value;
        try
        {
            value = SystemUtil.parseSize(name, text);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("option --" + name + " '" + text + "' is not a number");
        }
        if (value < min || value > max)
        {
            throw new IllegalArgumentException("option --" + name + " " + value + " must be in [" + min + ", " +
                max + "]");
        }

        return value;
    }

    /**
     * A flag.
     *
     * @param name without {@code --}.
     * @return true if given, or if its property is {@code true}.
     */
    public boolean flag(final String name)
    {
        if (!flags.contains(name))
        {
            throw new IllegalArgumentException("not a flag: " + name);
        }
        return Boolean.parseBoolean(string(name, "false"));
    }

    private static String describe(final Set<String> options, final Set<String> flags)
    {
        final StringBuilder builder = new StringBuilder();
        options.stream().sorted().forEach((o) -> builder.append("--").append(o).append(" VALUE, "));
        flags.stream().sorted().forEach((f) -> builder.append("--").append(f).append(", "));
        return builder.length() > 2 ? builder.substring(0, builder.length() - 2) : "";
    }
}
