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
 * Deterministic synthetic order flow for demos and benchmarks: {@link io.warpbus.matching.load.LoadGenerator} plays
 * market makers and takers according to a {@link io.warpbus.matching.load.LoadProfile} (instruments, accounts, rate,
 * an exact mix of limit, market, cancel and replace commands) and calls a {@link io.warpbus.matching.CommandHandler}
 * for each command, allocating nothing per command. The same seed always gives the same stream, so it can drive the
 * matching engine and a peer engine side by side.
 */
package io.warpbus.matching.load;
