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
package io.warpbus.journal;

import java.nio.file.Path;

import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.rollcycles.LargeRollCycles;
import net.openhft.chronicle.queue.rollcycles.LegacyRollCycles;
import net.openhft.chronicle.queue.rollcycles.SparseRollCycles;
import net.openhft.chronicle.queue.rollcycles.TestRollCycles;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.OffsetEpochNanoClock;
import org.agrona.concurrent.SystemEpochClock;

/**
 * Configuration of a {@link Journal}: every setting starts from its {@link JournalConfiguration} system property,
 * can be overridden fluently, and is validated once by {@link #conclude()} when the journal opens, with an error
 * naming the bad setting.
 * <pre>{@code
 * try (Journal journal = Journal.open(new JournalContext().directory(dir).rollCycle("HOURLY").retentionDays(7)))
 * {
 *     ...
 * }
 * }</pre>
 */
public final class JournalContext
{
    private Path directory = JournalConfiguration.directory();
    private String rollCycleName = JournalConfiguration.rollCycle();
    private String retentionCycles = JournalConfiguration.retentionCycles();
    private String retentionDays = JournalConfiguration.retentionDays();
    private String readOnly = JournalConfiguration.readOnly();
    private EpochClock epochClock = SystemEpochClock.INSTANCE;
    private EpochNanoClock epochNanoClock = new OffsetEpochNanoClock();
    private RollCycle rollCycle;
    private int retentionCycleCount;
    private int retentionDayCount;
    private boolean readOnlyFlag;
    private boolean concluded;

    /**
     * Validate and derive; done once, by {@link Journal#open(JournalContext)}.
     *
     * @return this.
     * @throws IllegalArgumentException naming the setting that is wrong.
     * @throws IllegalStateException    when already concluded.
     */
    public JournalContext conclude()
    {
        if (concluded)
        {
            throw new IllegalStateException("journal context already concluded: a context configures one journal");
        }
        if (null == directory)
        {
            throw new IllegalArgumentException(JournalConfiguration.DIR_PROP_NAME + " must be set");
        }
        rollCycle = rollCycleNamed(rollCycleName);
        retentionCycleCount = nonNegative(JournalConfiguration.RETENTION_CYCLES_PROP_NAME, retentionCycles);
        retentionDayCount = nonNegative(JournalConfiguration.RETENTION_DAYS_PROP_NAME, retentionDays);
        if (!"true".equalsIgnoreCase(readOnly) && !"false".equalsIgnoreCase(readOnly))
        {
            throw new IllegalArgumentException(JournalConfiguration.READ_ONLY_PROP_NAME + " must be true or false, " +
                "not '" + readOnly + "'");
        }
        readOnlyFlag = Boolean.parseBoolean(readOnly);
        if (null == epochClock || null == epochNanoClock)
        {
            throw new IllegalArgumentException("journal clocks must not be null");
        }
        concluded = true;
        return this;
    }

    /**
     * The Chronicle roll cycle of this name.
     *
     * @param name e.g. {@code MINUTELY}, {@code HOURLY}, {@code FAST_DAILY}, {@code TEST_SECONDLY}.
     * @return the roll cycle.
     * @throws IllegalArgumentException naming the property and listing the names known.
     */
    public static RollCycle rollCycleNamed(final String name)
    {
        final StringBuilder known = new StringBuilder();
        for (final RollCycle[] family : new RollCycle[][] {
            RollCycles.values(), LegacyRollCycles.values(), LargeRollCycles.values(), SparseRollCycles.values(),
            TestRollCycles.values() })
        {
            for (final RollCycle cycle : family)
            {
                final String cycleName = ((Enum<?>)cycle).name();
                if (cycleName.equalsIgnoreCase(null == name ? "" : name.trim()))
                {
                    return cycle;
                }
                known.append(known.length() > 0 ? ", " : "").append(cycleName);
            }
        }
        throw new IllegalArgumentException(JournalConfiguration.ROLL_CYCLE_PROP_NAME + " '" + name +
            "' is not a roll cycle; known: " + known);
    }

    private static int nonNegative(final String property, final String value)
    {
        final int number;
        try
        {
            number = Integer.parseInt(value.trim());
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(property + " must be a whole number, not '" + value + "'");
        }
        if (number < 0)
        {
            throw new IllegalArgumentException(property + " must be 0 (keep all) or more, not " + number);
        }
        return number;
    }

    /**
     * The journal directory: one {@code stream-<id>} directory per stream.
     *
     * @param directory the directory; created by a writable journal when missing.
     * @return this.
     */
    public JournalContext directory(final Path directory)
    {
        this.directory = directory;
        return this;
    }

    /**
     * The journal directory.
     *
     * @return the directory.
     */
    public Path directory()
    {
        return directory;
    }

    /**
     * The roll cycle of new streams, by name; a stream already on disk keeps the cycle it was created with.
     *
     * @param name e.g. {@code MINUTELY}, {@code HOURLY}, {@code DAILY}, {@code FAST_HOURLY}, {@code FAST_DAILY}.
     * @return this.
     */
    public JournalContext rollCycle(final String name)
    {
        this.rollCycleName = name;
        return this;
    }

    /**
     * The roll cycle, once concluded.
     *
     * @return the Chronicle roll cycle.
     */
    public RollCycle rollCycle()
    {
        return rollCycle;
    }

    /**
     * The roll cycle's name as configured.
     *
     * @return the name.
     */
    public String rollCycleName()
    {
        return rollCycleName;
    }

    /**
     * Keep only the newest {@code count} cycle files of each stream.
     *
     * @param count cycles to keep; 0 keeps all.
     * @return this.
     */
    public JournalContext retentionCycles(final int count)
    {
        this.retentionCycles = Integer.toString(count);
        return this;
    }

    /**
     * Cycles kept, once concluded.
     *
     * @return the count, 0 for all.
     */
    public int retentionCycles()
    {
        return retentionCycleCount;
    }

    /**
     * Delete cycle files that ended more than {@code days} days ago.
     *
     * @param days age limit; 0 keeps all.
     * @return this.
     */
    public JournalContext retentionDays(final int days)
    {
        this.retentionDays = Integer.toString(days);
        return this;
    }

    /**
     * Age limit in days, once concluded.
     *
     * @return days, 0 for no limit.
     */
    public int retentionDays()
    {
        return retentionDayCount;
    }

    /**
     * Open for reading only: nothing is created, appended or deleted, and a missing directory is an error.
     *
     * @param readOnly true for read only.
     * @return this.
     */
    public JournalContext readOnly(final boolean readOnly)
    {
        this.readOnly = Boolean.toString(readOnly);
        return this;
    }

    /**
     * Read only, once concluded.
     *
     * @return true when read only.
     */
    public boolean readOnly()
    {
        return readOnlyFlag;
    }

    /**
     * The clock that decides the current cycle and the age of cycles for retention (tests move it by hand).
     *
     * @param clock epoch milliseconds.
     * @return this.
     */
    public JournalContext epochClock(final EpochClock clock)
    {
        this.epochClock = clock;
        return this;
    }

    /**
     * The cycle and retention clock.
     *
     * @return the clock.
     */
    public EpochClock epochClock()
    {
        return epochClock;
    }

    /**
     * The clock that stamps a record's receive time when a bus frame is appended; the default, Agrona's
     * {@code OffsetEpochNanoClock}, allocates nothing (the JDK's epoch clock makes an {@code Instant} per read).
     *
     * @param clock epoch nanoseconds.
     * @return this.
     */
    public JournalContext epochNanoClock(final EpochNanoClock clock)
    {
        this.epochNanoClock = clock;
        return this;
    }

    /**
     * The receive-time clock.
     *
     * @return the clock.
     */
    public EpochNanoClock epochNanoClock()
    {
        return epochNanoClock;
    }
}
