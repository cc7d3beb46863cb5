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
 * Central limit order books, one per instrument, behind the {@link io.warpbus.matching.book.OrderBook} interface:
 * price-time priority, matching with self-trade prevention, execution reports, trades and L2 level changes emitted as
 * they happen. {@link io.warpbus.matching.book.DirectOrderBook} is the production book (preallocated structure of
 * arrays, sorted price levels with intrusive order queues, no allocation); {@link
 * io.warpbus.matching.book.NaiveOrderBook} is a list-based reference kept obviously correct so the two can be compared
 * command by command. Both fold their state into the same {@link io.warpbus.matching.book.StateHash}. Books trust their
 * caller: validation and risk belong to the engine.
 */
package io.warpbus.matching.book;
