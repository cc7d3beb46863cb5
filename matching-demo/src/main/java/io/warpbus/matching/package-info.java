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
 * The matching engine's vocabulary, free of any implementation: the commands it takes
 * ({@link io.warpbus.matching.CommandHandler}), the events it emits ({@link io.warpbus.matching.MatchingEventListener}:
 * execution reports, trades and L2 level changes, all with primitive arguments), the enums they carry with stable
 * numeric codes ({@link io.warpbus.orderentry.RejectReason} grouped by range), and the static data it needs
 * ({@link io.warpbus.matching.Instrument}, {@link io.warpbus.matching.RiskLimits}). The engine itself is in
 * {@code io.warpbus.matching.engine}, the order books in {@code io.warpbus.matching.book} and the synthetic traders in
 * {@code io.warpbus.matching.load}; all three depend on this package and never the other way round.
 */
package io.warpbus.matching;
