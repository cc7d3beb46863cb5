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

/**
 * System properties that configure a {@link Journal}, with their defaults; {@link JournalContext} starts from these.
 *
 * <table>
 *     <caption>Journal properties</caption>
 *     <tr><th>property</th><th>default</th><th>meaning</th></tr>
 *     <tr><td>warpbus.journal.dir</td><td>warpbus-journal under the temp dir</td><td>the journal directory: one
 *     {@code stream-<id>} directory per stream</td></tr>
 *     <tr><td>warpbus.journal.roll.cycle</td><td>FAST_DAILY</td><td>Chronicle roll cycle by name: MINUTELY,
 *     FIVE_MINUTELY, TEN_MINUTELY, TWENTY_MINUTELY, HALF_HOURLY, HOURLY, FAST_HOURLY, TWO_HOURLY, FOUR_HOURLY,
 *     SIX_HOURLY, DAILY, FAST_DAILY, WEEKLY, the LARGE_/XLARGE_/HUGE_/SMALL_ variants, TEST_SECONDLY</td></tr>
 *     <tr><td>warpbus.journal.retention.cycles</td><td>0</td><td>keep the newest N cycle files of each stream;
 *     0 keeps all</td></tr>
 *     <tr><td>warpbus.journal.retention.days</td><td>0</td><td>delete cycle files that ended more than N days ago;
 *     0 keeps all</td></tr>
 *     <tr><td>warpbus.journal.read.only</td><td>false</td><td>open for reading only: never creates, appends to or
 *     deletes a file</td></tr>
 * </table>
 */
public final class JournalConfiguration
{
    /** Journal directory property. */
    public static final String DIR_PROP_NAME = "warpbus.journal.dir";
    /** Roll cycle property. */
    public static final String ROLL_CYCLE_PROP_NAME = "warpbus.journal.roll.cycle";
    /** Default roll cycle: one file per day, with Chronicle's faster index layout. */
    public static final String ROLL_CYCLE_DEFAULT = "FAST_DAILY";
    /** Retention by count of cycles property. */
    public static final String RETENTION_CYCLES_PROP_NAME = "warpbus.journal.retention.cycles";
    /** Retention by age in days property. */
    public static final String RETENTION_DAYS_PROP_NAME = "warpbus.journal.retention.days";
    /** Read-only property. */
    public static final String READ_ONLY_PROP_NAME = "warpbus.journal.read.only";

    private JournalConfiguration()
    {
    }

    static Path directory()
    {
        final String dir = System.getProperty(DIR_PROP_NAME);
        return null != dir ? Path.of(dir) :
            Path.of(System.getProperty("java.io.tmpdir"), "warpbus-journal-" + System.getProperty("user.name", "user"));
    }

    static String rollCycle()
    {
        return System.getProperty(ROLL_CYCLE_PROP_NAME, ROLL_CYCLE_DEFAULT);
    }

    static String retentionCycles()
    {
        return System.getProperty(RETENTION_CYCLES_PROP_NAME, "0");
    }

    static String retentionDays()
    {
        return System.getProperty(RETENTION_DAYS_PROP_NAME, "0");
    }

    static String readOnly()
    {
        return System.getProperty(READ_ONLY_PROP_NAME, "false");
    }
}
