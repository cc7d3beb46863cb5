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
 * Market data over the bus: the SBE schema {@code sbe/market-data.xml} (codecs generated at build time into
 * {@code io.warpbus.marketdata.sbe}), the conflation key of a message
 * ({@link io.warpbus.marketdata.MarketDataMessages}), a seeded generator of realistic traffic
 * ({@link io.warpbus.marketdata.MarketDataGenerator}, the sample feed {@code warpbus pub} publishes) and a one-line
 * printer ({@link io.warpbus.marketdata.MarketDataPrinter}, which {@code warpbus journal} prints with).
 * <p>
 * This is the one {@code marketdata} package: the messages and what reads, writes or prints them. Processes that
 * publish or consume market data (the matching demo's engine service and subscriber, the gateway) live in their own
 * modules and use it.
 * <p>
 * Every instrument-scoped message carries its {@code instrumentId} (uint32) at body offset 0, right after the
 * 8-byte message header, so the bus reads a conflation key without decoding the message.
 */
package io.warpbus.marketdata;
