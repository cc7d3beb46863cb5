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
 * The demo's order-entry load client process: {@link io.warpbus.demo.client.LoadClientMain} runs a
 * {@link io.warpbus.demo.client.LoadClient}, which publishes the commands of a
 * {@link io.warpbus.matching.load.LoadGenerator} on an order-entry stream at a planned rate
 * ({@link io.warpbus.demo.client.OrderSender} encodes them) and reads the engine's execution reports back to check
 * exec ids and measure order-to-report latency.
 */
package io.warpbus.demo.client;
