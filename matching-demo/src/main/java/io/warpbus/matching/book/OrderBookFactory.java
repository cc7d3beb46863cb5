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
package io.warpbus.matching.book;

import io.warpbus.matching.Instrument;
import io.warpbus.matching.MatchingEventListener;
import io.warpbus.matching.SelfTradePrevention;

/**
 * Makes the book of an instrument; {@code DirectOrderBook::new} and {@code NaiveOrderBook::new} are factories.
 */
@FunctionalInterface
public interface OrderBookFactory
{
    /**
     * Make an empty book.
     *
     * @param instrument          to trade.
     * @param capacity            most resting orders.
     * @param selfTradePrevention what to do when an account's orders meet.
     * @param listener            to report every change to.
     * @return the new book.
     */
    OrderBook newOrderBook(
        Instrument instrument, int capacity, SelfTradePrevention selfTradePrevention, MatchingEventListener listener);
}
