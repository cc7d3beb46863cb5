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
/**
 * The journal: every stream recorded into its own Chronicle Queue ({@link io.warpbus.journal.Journal}), written by
 * {@link io.warpbus.journal.JournalWriter} in increasing sequence order with a fixed binary record header
 * ({@link io.warpbus.journal.JournalRecordDescriptor}), read, searched by sequence or time and followed live by
 * {@link io.warpbus.journal.JournalReader}, and fed from a bus in process by
 * {@link io.warpbus.journal.JournalRecorder}. Crash consistency, retention and damaged files are described in
 * {@code docs/journal.md}.
 */
package io.warpbus.journal;
