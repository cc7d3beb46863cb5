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
 * The engine service: the matching engine of {@code io.warpbus.matching.engine} put on the bus as a process of its
 * own. {@link io.warpbus.demo.service.EngineService} wires it (configured by
 * {@link io.warpbus.demo.service.EngineContext}) and runs its duty cycle; {@link io.warpbus.demo.service.EngineMain}
 * is the process around it. Its jobs live in classes of their own: decoding order entry
 * ({@code OrderEntryHandler}), encoding execution reports and incremental market data ({@code EngineOutput}, one
 * {@code ReportRoute} per gateway), the market-data snapshot cycle for late joiners ({@code MarketDataSnapshots}),
 * heartbeats ({@code Heartbeats}), event sourcing and restart from a checkpoint ({@code EngineRecovery},
 * {@code CommandJournal}, {@code CheckpointStore}), counters and metrics ({@code EngineCounters},
 * {@link io.warpbus.demo.service.EngineStats}, {@link io.warpbus.demo.service.MetricsServer}).
 * <p>
 * Words used in this package: a <em>snapshot</em> is the market-data book image on the snapshot stream; a
 * <em>checkpoint</em> is the service's state on disk that a restart begins from.
 */
package io.warpbus.demo.service;
