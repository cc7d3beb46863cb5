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
 * One cycle file of a stream.
 *
 * @param cycle       Chronicle's cycle number (time since the epoch in units of the roll cycle).
 * @param file        the file.
 * @param sizeBytes   the file's length (Chronicle grows files in chunks, so this is not the bytes of records).
 * @param recordCount records in the cycle, or -1 when the file is damaged.
 */
public record JournalCycleInfo(int cycle, Path file, long sizeBytes, long recordCount)
{
}
