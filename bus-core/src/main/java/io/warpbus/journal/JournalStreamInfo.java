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
import java.util.List;

/**
 * What one stream of a journal holds, as {@link Journal#info(int)} reports it.
 *
 * @param streamId           the stream.
 * @param directory          the stream's queue directory.
 * @param rollCycle          the roll cycle the stream was created with.
 * @param recordCount        records readable.
 * @param firstSequence      sequence of the first readable record, -1 when none.
 * @param lastSequence       sequence of the last readable record, -1 when none.
 * @param firstTimestampNs   publisher timestamp of the first readable record, -1 when none.
 * @param lastTimestampNs    publisher timestamp of the last readable record, -1 when none.
 * @param cycles             the cycle files, oldest first.
 * @param damage             what is wrong with the stream's files (readable only before the damaged file), or null.
 */
public record JournalStreamInfo(
    int streamId,
    Path directory,
    String rollCycle,
    long recordCount,
    long firstSequence,
    long lastSequence,
    long firstTimestampNs,
    long lastTimestampNs,
    List<JournalCycleInfo> cycles,
    String damage)
{
}
