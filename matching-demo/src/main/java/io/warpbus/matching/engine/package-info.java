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
 * The matching engine: {@link io.warpbus.matching.engine.MatchingEngine} takes order-entry commands as primitive method
 * calls, validates them, applies per-account pre-trade risk (maximum order quantity, maximum notional, price band,
 * position limit), hands accepted ones to the instrument's book and keeps live orders and positions in step with the
 * resulting execution reports. It is single-threaded and deterministic, exposes a state hash for recovery checks, and
 * encodes and restores its whole state ({@code EngineStateCodec}), which the engine service's checkpoints carry.
 * Wiring it to the bus (decoding commands, encoding events) happens outside this package.
 */
package io.warpbus.matching.engine;
