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

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.DataFormatException;

import org.HdrHistogram.Histogram;

/**
 * The {@code STATS name key=value ...} lines every demo process prints to standard output once a second, which the
 * demo reads to show and judge the whole system; one format for writing and parsing.
 */
public final class Stats
{
    /**
     * Start of every stats line.
     */
    public static final String PREFIX = "STATS ";

    private static final Pattern FIELD = Pattern.compile("([A-Za-z0-9_.-]+)=(\\S+)");

    private final StringBuilder line = new StringBuilder(256);

    /**
     * Begin a line.
     *
     * @param process name of the process, e.g. {@code engine}.
     * @return this.
     */
    public Stats begin(final String process)
    {
        line.setLength(0);
        line.append(PREFIX).append(process);
        return this;
    }

    /**
     * Add a whole number.
     *
     * @param key   name.
     * @param value value.
     * @return this.
     */
    public Stats add(final String key, final long value)
    {
        line.append(' ').append(key).append('=').append(value);
        return this;
    }

    /**
     * Add a rate with one decimal.
     *
     * @param key   name.
     * @param value value.
     * @return this.
     */
    public Stats add(final String key, final double value)
    {
        line.append(' ').append(key).append('=').append(String.format(Locale.ROOT, "%.1f", value));
        return this;
    }

    /**
     * Add p50, p99, p99.9 and max of a histogram of nanoseconds, as {@code key_p50} etc.
     *
     * @param key       prefix.
     * @param histogram values in nanoseconds.
     * @return this.
     */
    public Stats add(final String key, final Histogram histogram)
    {
        final boolean empty = 0 == histogram.getTotalCount();
        add(key + "_count", histogram.getTotalCount());
        add(key + "_p50", empty ? 0 : histogram.getValueAtPercentile(50));
        add(key + "_p99", empty ? 0 : histogram.getValueAtPercentile(99));
        add(key + "_p999", empty ? 0 : histogram.getValueAtPercentile(99.9));
        add(key + "_max", empty ? 0 : histogram.getMaxValue());
        return this;
    }

    /**
     * Add a whole histogram, compressed and in Base64, for a reader that needs more than its percentiles (the demo
     * subtracts two of them to get the latency of the interval between).
     *
     * @param key       name.
     * @param histogram the histogram.
     * @return this.
     */
    public Stats addEncoded(final String key, final Histogram histogram)
    {
        final ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        final int length = histogram.encodeIntoCompressedByteBuffer(buffer);
        line.append(' ').append(key).append('=')
            .append(Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length)));
        return this;
    }

    /**
     * Decode a histogram written by {@link #addEncoded(String, Histogram)}.
     *
     * @param value the field's value.
     * @return the histogram.
     * @throws IllegalArgumentException when the value is not one.
     */
    public static Histogram decodeHistogram(final String value)
    {
        try
        {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(value)), 0);
        }
        catch (final DataFormatException | RuntimeException ex)
        {
            throw new IllegalArgumentException("not an encoded histogram: " + ex.getMessage(), ex);
        }
    }

    /**
     * The line built.
     *
     * @return the text.
     */
    @Override
    public String toString()
    {
        return line.toString();
    }

    /**
     * Is this a stats line?
     *
     * @param text a line of output.
     * @return true if it starts with {@link #PREFIX}.
     */
    public static boolean isStats(final String text)
    {
        return text.startsWith(PREFIX);
    }

    /**
     * The process name of a stats line.
     *
     * @param text a stats line.
     * @return the name.
     */
    public static String process(final String text)
    {
        final int end = text.indexOf(' ', PREFIX.length());
        return end < 0 ? text.substring(PREFIX.length()) : text.substring(PREFIX.length(), end);
    }

    /**
     * The fields of a stats line.
     *
     * @param text a stats line.
     * @return key to value, in order.
     */
    public static Map<String, String> parse(final String text)
    {
        final Map<String, String> fields = new LinkedHashMap<>();
        final Matcher matcher = FIELD.matcher(text);
        while (matcher.find())
        {
            fields.put(matcher.group(1), matcher.group(2));
        }

        return fields;
    }
}
