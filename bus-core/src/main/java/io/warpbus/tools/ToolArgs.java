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

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Options of the form {@code --name value} and flags {@code --name}, checked against what a tool accepts, with
 * errors that name the bad option.
 */
final class ToolArgs
{
    private final Map<String, String> values = new HashMap<>();

    private ToolArgs()
    {
    }

    /**
     * Parse.
     *
     * @param args    the command line.
     * @param options options that take a value.
     * @param flags   options that take none.
     * @return the parsed arguments.
     * @throws IllegalArgumentException naming an unknown option or a missing value.
     */
    static ToolArgs parse(final String[] args, final Set<String> options, final Set<String> flags)
    {
        final ToolArgs parsed = new ToolArgs();
        for (int i = 0; i < args.length; i++)
        {
            final String arg = args[i];
            if (flags.contains(arg))
            {
                parsed.values.put(arg, "true");
            }
            else if (options.contains(arg))
            {
                if (i + 1 >= args.length)
                {
                    throw new IllegalArgumentException("option " + arg + " needs a value");
                }
                parsed.values.put(arg, args[++i]);
            }
            else
            {
                throw new IllegalArgumentException("unknown option '" + arg + "'");
            }
        }
        return parsed;
    }

    String required(final String name)
    {
        final String value = values.get(name);
        if (null == value)
        {
            throw new IllegalArgumentException("missing required option " + name);
        }
        return value;
    }

    String string(final String name, final String defaultValue)
    {
        return values.getOrDefault(name, defaultValue);
    }

    boolean flag(final String name)
    {
        return values.containsKey(name);
    }

    long number(final String name, final long defaultValue, final long min, final long max)
    {
        final String value = values.get(name);
        if (null == value)
        {
            return defaultValue;
        }
        final long number;
        try
        {
            number = Long.parseLong(value.replace("_", ""));
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("option " + name + " needs a number, not '" + value + "'");
        }
        if (number < min || number > max)
        {
            throw new IllegalArgumentException("option " + name + " must be in [" + min + ", " + max + "]: " + number);
        }
        return number;
    }
}
