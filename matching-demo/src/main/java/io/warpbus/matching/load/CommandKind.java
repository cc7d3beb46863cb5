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
package io.warpbus.matching.load;

/**
 * The kinds of command a {@link LoadGenerator} mixes.
 */
public enum CommandKind
{
    /**
     * A market maker's good-till-cancelled quote (limit or post-only) a few ticks from the mid.
     */
    LIMIT,

    /**
     * A taker crossing the spread: a market order, or an immediate-or-cancel limit through the mid.
     */
    MARKET,

    /**
     * A market maker cancelling one of its quotes.
     */
    CANCEL,

    /**
     * A market maker moving one of its quotes to a new price and quantity.
     */
    REPLACE
}
