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
 * The demo's market-data subscriber process: {@link io.warpbus.demo.subscriber.MarketDataMain} runs a
 * {@link io.warpbus.demo.subscriber.MarketDataClient}, which rebuilds each instrument's
 * {@link io.warpbus.demo.subscriber.L2Book} from the engine's incremental stream, joins late from the snapshot
 * stream, and checks sequences and snapshots against the rebuilt books. The messages it reads are those of
 * bus-core's market-data schema ({@code io.warpbus.marketdata}).
 */
package io.warpbus.demo.subscriber;
