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
package io.warpbus.matching.engine;

import java.util.stream.Stream;

import org.junit.jupiter.params.provider.Arguments;

import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * The matching rules as a table of scripts with their expected events, worked out by hand. Each {@code >} line is a
 * command (see {@link CommandScript}); the lines under it are every event it must produce, in order (see
 * {@link EventLog}); {@code @stp} and {@code @capacity} set up the engine. Instruments and accounts are those of
 * {@link TestEngines}: instrument 1 has tick 1 and a band of 10 around 100.
 */
final class MatchingRules
{
    private static final Arguments SCENARIO_01 = arguments(
        "limit orders rest in price levels with their depth", """
            > new c1 a1 BUY LIMIT GTC 100 10
            NEW o1 c1 a1 BUY 10@100 last 0@0 cum 0 leaves 10
            L2 BUY ADD 100 qty 10 n 1 d 1
            > new c2 a2 BUY LIMIT GTC 100 5
            NEW o2 c2 a2 BUY 5@100 last 0@0 cum 0 leaves 5
            L2 BUY CHANGE 100 qty 15 n 2 d 1
            > new c3 a3 BUY LIMIT GTC 99 7
            NEW o3 c3 a3 BUY 7@99 last 0@0 cum 0 leaves 7
            L2 BUY ADD 99 qty 7 n 1 d 2
            > new c4 a4 BUY LIMIT GTC 101 1
            NEW o4 c4 a4 BUY 1@101 last 0@0 cum 0 leaves 1
            L2 BUY ADD 101 qty 1 n 1 d 1
            > new c5 a1 SELL LIMIT GTC 103 2
            NEW o5 c5 a1 SELL 2@103 last 0@0 cum 0 leaves 2
            L2 SELL ADD 103 qty 2 n 1 d 1
            > new c6 a2 SELL LIMIT GTC 102 2
            NEW o6 c6 a2 SELL 2@102 last 0@0 cum 0 leaves 2
            L2 SELL ADD 102 qty 2 n 1 d 1
            """);

    private static final Arguments SCENARIO_02 = arguments(
        "a crossing order trades at the resting price, oldest first", """
            > new c1 a1 SELL LIMIT GTC 101 5
            NEW o1 c1 a1 SELL 5@101 last 0@0 cum 0 leaves 5
            L2 SELL ADD 101 qty 5 n 1 d 1
            > new c2 a2 SELL LIMIT GTC 101 5
            NEW o2 c2 a2 SELL 5@101 last 0@0 cum 0 leaves 5
            L2 SELL CHANGE 101 qty 10 n 2 d 1
            > new c3 a3 BUY LIMIT GTC 103 7
            NEW o3 c3 a3 BUY 7@103 last 0@0 cum 0 leaves 7
            TRADE t1 5@101 BUY aggressor o3 resting o1
            FILLED o1 c1 a1 SELL 5@101 last 5@101 cum 5 leaves 0
            PARTIALLY_FILLED o3 c3 a3 BUY 7@103 last 5@101 cum 5 leaves 2
            TRADE t2 2@101 BUY aggressor o3 resting o2
            PARTIALLY_FILLED o2 c2 a2 SELL 5@101 last 2@101 cum 2 leaves 3
            FILLED o3 c3 a3 BUY 7@103 last 2@101 cum 7 leaves 0
            L2 SELL CHANGE 101 qty 3 n 1 d 1
            """);

    private static final Arguments SCENARIO_03 = arguments(
        "a sweep takes better prices first, reports each level once and rests the rest", """
            > new c1 a1 SELL LIMIT GTC 102 3
            NEW o1 c1 a1 SELL 3@102 last 0@0 cum 0 leaves 3
            L2 SELL ADD 102 qty 3 n 1 d 1
            > new c2 a2 SELL LIMIT GTC 101 2
            NEW o2 c2 a2 SELL 2@101 last 0@0 cum 0 leaves 2
            L2 SELL ADD 101 qty 2 n 1 d 1
            > new c3 a1 SELL LIMIT GTC 101 4
            NEW o3 c3 a1 SELL 4@101 last 0@0 cum 0 leaves 4
            L2 SELL CHANGE 101 qty 6 n 2 d 1
            > new c4 a3 BUY LIMIT GTC 102 12
            NEW o4 c4 a3 BUY 12@102 last 0@0 cum 0 leaves 12
            TRADE t1 2@101 BUY aggressor o4 resting o2
            FILLED o2 c2 a2 SELL 2@101 last 2@101 cum 2 leaves 0
            PARTIALLY_FILLED o4 c4 a3 BUY 12@102 last 2@101 cum 2 leaves 10
            TRADE t2 4@101 BUY aggressor o4 resting o3
            FILLED o3 c3 a1 SELL 4@101 last 4@101 cum 4 leaves 0
            PARTIALLY_FILLED o4 c4 a3 BUY 12@102 last 4@101 cum 6 leaves 6
            L2 SELL DELETE 101 qty 0 n 0 d 1
            TRADE t3 3@102 BUY aggressor o4 resting o1
            FILLED o1 c1 a1 SELL 3@102 last 3@102 cum 3 leaves 0
            PARTIALLY_FILLED o4 c4 a3 BUY 12@102 last 3@102 cum 9 leaves 3
            L2 SELL DELETE 102 qty 0 n 0 d 1
            L2 BUY ADD 102 qty 3 n 1 d 1
            """);

    private static final Arguments SCENARIO_04 = arguments(
        "IOC trades what it can and the engine cancels the remainder", """
            > new c1 a1 SELL LIMIT GTC 100 4
            NEW o1 c1 a1 SELL 4@100 last 0@0 cum 0 leaves 4
            L2 SELL ADD 100 qty 4 n 1 d 1
            > new c2 a2 BUY LIMIT IOC 100 10
            NEW o2 c2 a2 BUY 10@100 last 0@0 cum 0 leaves 10
            TRADE t1 4@100 BUY aggressor o2 resting o1
            FILLED o1 c1 a1 SELL 4@100 last 4@100 cum 4 leaves 0
            PARTIALLY_FILLED o2 c2 a2 BUY 10@100 last 4@100 cum 4 leaves 6
            L2 SELL DELETE 100 qty 0 n 0 d 1
            CANCELLED o2 c2 a2 BUY 10@100 last 0@0 cum 4 leaves 0 IMMEDIATE_REMAINDER
            > new c3 a2 BUY LIMIT IOC 100 10
            NEW o3 c3 a2 BUY 10@100 last 0@0 cum 0 leaves 10
            CANCELLED o3 c3 a2 BUY 10@100 last 0@0 cum 0 leaves 0 IMMEDIATE_REMAINDER
            """);

    private static final Arguments SCENARIO_05 = arguments(
        "FOK fills completely or is rejected without touching the book", """
            > new c1 a1 SELL LIMIT GTC 100 4
            NEW o1 c1 a1 SELL 4@100 last 0@0 cum 0 leaves 4
            L2 SELL ADD 100 qty 4 n 1 d 1
            > new c2 a1 SELL LIMIT GTC 101 4
            NEW o2 c2 a1 SELL 4@101 last 0@0 cum 0 leaves 4
            L2 SELL ADD 101 qty 4 n 1 d 2
            > new c3 a2 BUY LIMIT FOK 101 9
            REJECTED o0 c3 a2 BUY 9@101 last 0@0 cum 0 leaves 0 FOK_NOT_FILLABLE
            > new c4 a2 BUY LIMIT FOK 100 5
            REJECTED o0 c4 a2 BUY 5@100 last 0@0 cum 0 leaves 0 FOK_NOT_FILLABLE
            > new c5 a2 BUY LIMIT FOK 101 6
            NEW o3 c5 a2 BUY 6@101 last 0@0 cum 0 leaves 6
            TRADE t1 4@100 BUY aggressor o3 resting o1
            FILLED o1 c1 a1 SELL 4@100 last 4@100 cum 4 leaves 0
            PARTIALLY_FILLED o3 c5 a2 BUY 6@101 last 4@100 cum 4 leaves 2
            L2 SELL DELETE 100 qty 0 n 0 d 1
            TRADE t2 2@101 BUY aggressor o3 resting o2
            PARTIALLY_FILLED o2 c2 a1 SELL 4@101 last 2@101 cum 2 leaves 2
            FILLED o3 c5 a2 BUY 6@101 last 2@101 cum 6 leaves 0
            L2 SELL CHANGE 101 qty 2 n 1 d 1
            """);

    private static final Arguments SCENARIO_06 = arguments(
        "a market order sweeps up to the band edge and the remainder is cancelled", """
            > new c1 a1 SELL LIMIT GTC 101 3
            NEW o1 c1 a1 SELL 3@101 last 0@0 cum 0 leaves 3
            L2 SELL ADD 101 qty 3 n 1 d 1
            > new c2 a1 SELL LIMIT GTC 105 3
            NEW o2 c2 a1 SELL 3@105 last 0@0 cum 0 leaves 3
            L2 SELL ADD 105 qty 3 n 1 d 2
            > new c3 a2 BUY MARKET IOC 0 10
            NEW o3 c3 a2 BUY 10@110 last 0@0 cum 0 leaves 10
            TRADE t1 3@101 BUY aggressor o3 resting o1
            FILLED o1 c1 a1 SELL 3@101 last 3@101 cum 3 leaves 0
            PARTIALLY_FILLED o3 c3 a2 BUY 10@110 last 3@101 cum 3 leaves 7
            L2 SELL DELETE 101 qty 0 n 0 d 1
            TRADE t2 3@105 BUY aggressor o3 resting o2
            FILLED o2 c2 a1 SELL 3@105 last 3@105 cum 3 leaves 0
            PARTIALLY_FILLED o3 c3 a2 BUY 10@110 last 3@105 cum 6 leaves 4
            L2 SELL DELETE 105 qty 0 n 0 d 1
            CANCELLED o3 c3 a2 BUY 10@110 last 0@0 cum 6 leaves 0 IMMEDIATE_REMAINDER
            # band at 105 is 10: a sell market order is protected at 95; the empty book cancels it at once
            > new c4 a2 SELL MARKET IOC 0 1
            NEW o4 c4 a2 SELL 1@95 last 0@0 cum 0 leaves 1
            CANCELLED o4 c4 a2 SELL 1@95 last 0@0 cum 0 leaves 0 IMMEDIATE_REMAINDER
            """);

    private static final Arguments SCENARIO_07 = arguments(
        "a market order never trades beyond its protection price", """
            > new c1 a1 SELL LIMIT GTC 110 5
            NEW o1 c1 a1 SELL 5@110 last 0@0 cum 0 leaves 5
            L2 SELL ADD 110 qty 5 n 1 d 1
            > new c2 a1 BUY LIMIT GTC 95 1
            NEW o2 c2 a1 BUY 1@95 last 0@0 cum 0 leaves 1
            L2 BUY ADD 95 qty 1 n 1 d 1
            > new c3 a2 SELL LIMIT GTC 95 1
            NEW o3 c3 a2 SELL 1@95 last 0@0 cum 0 leaves 1
            TRADE t1 1@95 SELL aggressor o3 resting o2
            FILLED o2 c2 a1 BUY 1@95 last 1@95 cum 1 leaves 0
            FILLED o3 c3 a2 SELL 1@95 last 1@95 cum 1 leaves 0
            L2 BUY DELETE 95 qty 0 n 0 d 1
            # last trade 95, band 9: protection 104, below the ask at 110
            > new c4 a3 BUY MARKET IOC 0 5
            NEW o4 c4 a3 BUY 5@104 last 0@0 cum 0 leaves 5
            CANCELLED o4 c4 a3 BUY 5@104 last 0@0 cum 0 leaves 0 IMMEDIATE_REMAINDER
            > new c5 a3 BUY MARKET FOK 0 5
            REJECTED o0 c5 a3 BUY 5@0 last 0@0 cum 0 leaves 0 FOK_NOT_FILLABLE
            """);

    private static final Arguments SCENARIO_08 = arguments(
        "post-only rests, or is rejected if it would trade", """
            > new c1 a1 SELL LIMIT GTC 101 5
            NEW o1 c1 a1 SELL 5@101 last 0@0 cum 0 leaves 5
            L2 SELL ADD 101 qty 5 n 1 d 1
            > new c2 a2 BUY POST_ONLY GTC 101 5
            REJECTED o0 c2 a2 BUY 5@101 last 0@0 cum 0 leaves 0 POST_ONLY_WOULD_CROSS
            > new c3 a2 BUY POST_ONLY GTC 100 5
            NEW o2 c3 a2 BUY 5@100 last 0@0 cum 0 leaves 5
            L2 BUY ADD 100 qty 5 n 1 d 1
            > new c4 a2 SELL POST_ONLY GTC 100 5
            REJECTED o0 c4 a2 SELL 5@100 last 0@0 cum 0 leaves 0 POST_ONLY_WOULD_CROSS
            """);

    private static final Arguments SCENARIO_09 = arguments(
        "cancel changes the level, or deletes it with its depth", """
            > new c1 a1 BUY LIMIT GTC 100 10
            NEW o1 c1 a1 BUY 10@100 last 0@0 cum 0 leaves 10
            L2 BUY ADD 100 qty 10 n 1 d 1
            > new c2 a2 BUY LIMIT GTC 100 4
            NEW o2 c2 a2 BUY 4@100 last 0@0 cum 0 leaves 4
            L2 BUY CHANGE 100 qty 14 n 2 d 1
            > new c3 a2 BUY LIMIT GTC 99 1
            NEW o3 c3 a2 BUY 1@99 last 0@0 cum 0 leaves 1
            L2 BUY ADD 99 qty 1 n 1 d 2
            > cancel c1 a1
            CANCELLED o1 c1 a1 BUY 10@100 last 0@0 cum 0 leaves 0
            L2 BUY CHANGE 100 qty 4 n 1 d 1
            > cancel c3 a2
            CANCELLED o3 c3 a2 BUY 1@99 last 0@0 cum 0 leaves 0
            L2 BUY DELETE 99 qty 0 n 0 d 2
            > cancel c2 a2
            CANCELLED o2 c2 a2 BUY 4@100 last 0@0 cum 0 leaves 0
            L2 BUY DELETE 100 qty 0 n 0 d 1
            """);

    private static final Arguments SCENARIO_10 = arguments(
        "a cancelled part-filled order reports what it traded; done orders cannot be cancelled", """
            > new c1 a1 SELL LIMIT GTC 100 10
            NEW o1 c1 a1 SELL 10@100 last 0@0 cum 0 leaves 10
            L2 SELL ADD 100 qty 10 n 1 d 1
            > new c2 a2 BUY LIMIT GTC 100 3
            NEW o2 c2 a2 BUY 3@100 last 0@0 cum 0 leaves 3
            TRADE t1 3@100 BUY aggressor o2 resting o1
            PARTIALLY_FILLED o1 c1 a1 SELL 10@100 last 3@100 cum 3 leaves 7
            FILLED o2 c2 a2 BUY 3@100 last 3@100 cum 3 leaves 0
            L2 SELL CHANGE 100 qty 7 n 1 d 1
            > cancel c1 a1
            CANCELLED o1 c1 a1 SELL 10@100 last 0@0 cum 3 leaves 0
            L2 SELL DELETE 100 qty 0 n 0 d 1
            > cancel c1 a1
            CANCEL_REJECTED o0 c1 a1 null 0@0 last 0@0 cum 0 leaves 0 UNKNOWN_ORDER
            > cancel c2 a2
            CANCEL_REJECTED o0 c2 a2 null 0@0 last 0@0 cum 0 leaves 0 UNKNOWN_ORDER
            """);

    private static final Arguments SCENARIO_11 = arguments(
        "cancel of another account's, another instrument's or an unknown order is refused", """
            > new c1 a1 BUY LIMIT GTC 100 10
            NEW o1 c1 a1 BUY 10@100 last 0@0 cum 0 leaves 10
            L2 BUY ADD 100 qty 10 n 1 d 1
            > cancel c1 a2
            CANCEL_REJECTED o0 c1 a2 null 0@0 last 0@0 cum 0 leaves 0 UNKNOWN_ORDER
            > cancel c1 a1 i2
            CANCEL_REJECTED o0 c1 a1 i2 null 0@0 last 0@0 cum 0 leaves 0 UNKNOWN_ORDER
            > cancel c1 a1 i7
            CANCEL_REJECTED o0 c1 a1 i7 null 0@0 last 0@0 cum 0 leaves 0 UNKNOWN_INSTRUMENT
            > cancel c1 a5
            CANCEL_REJECTED o0 c1 a5 null 0@0 last 0@0 cum 0 leaves 0 UNKNOWN_ACCOUNT
            > cancel c99 a1
            CANCEL_REJECTED o0 c99 a1 null 0@0 last 0@0 cum 0 leaves 0 UNKNOWN_ORDER
            """);

    private static final Arguments SCENARIO_12 = arguments(
        "lowering the quantity keeps time priority", """
            > new c1 a1 BUY LIMIT GTC 100 10
            NEW o1 c1 a1 BUY 10@100 last 0@0 cum 0 leaves 10
            L2 BUY ADD 100 qty 10 n 1 d 1
            > new c2 a2 BUY LIMIT GTC 100 10
            NEW o2 c2 a2 BUY 10@100 last 0@0 cum 0 leaves 10
            L2 BUY CHANGE 100 qty 20 n 2 d 1
            > replace c1 a1 100 6
            REPLACED o1 c1 a1 BUY 6@100 last 0@0 cum 0 leaves 6
            L2 BUY CHANGE 100 qty 16 n 2 d 1
            > new c3 a3 SELL LIMIT GTC 100 6
            NEW o3 c3 a3 SELL 6@100 last 0@0 cum 0 leaves 6
            TRADE t1 6@100 SELL aggressor o3 resting o1
            FILLED o1 c1 a1 BUY 6@100 last 6@100 cum 6 leaves 0
            FILLED o3 c3 a3 SELL 6@100 last 6@100 cum 6 leaves 0
            L2 BUY CHANGE 100 qty 10 n 1 d 1
            """);

    private static final Arguments SCENARIO_13 = arguments(
        "raising the quantity loses time priority", """
            > new c1 a1 BUY LIMIT GTC 100 5
            NEW o1 c1 a1 BUY 5@100 last 0@0 cum 0 leaves 5
            L2 BUY ADD 100 qty 5 n 1 d 1
            > new c2 a2 BUY LIMIT GTC 100 5
            NEW o2 c2 a2 BUY 5@100 last 0@0 cum 0 leaves 5
            L2 BUY CHANGE 100 qty 10 n 2 d 1
            > replace c1 a1 100 8
            REPLACED o1 c1 a1 BUY 8@100 last 0@0 cum 0 leaves 8
            L2 BUY CHANGE 100 qty 13 n 2 d 1
            > new c3 a3 SELL LIMIT GTC 100 6
            NEW o3 c3 a3 SELL 6@100 last 0@0 cum 0 leaves 6
            TRADE t1 5@100 SELL aggressor o3 resting o2
            FILLED o2 c2 a2 BUY 5@100 last 5@100 cum 5 leaves 0
            PARTIALLY_FILLED o3 c3 a3 SELL 6@100 last 5@100 cum 5 leaves 1
            TRADE t2 1@100 SELL aggressor o3 resting o1
            PARTIALLY_FILLED o1 c1 a1 BUY 8@100 last 1@100 cum 1 leaves 7
            FILLED o3 c3 a3 SELL 6@100 last 1@100 cum 6 leaves 0
            L2 BUY CHANGE 100 qty 7 n 1 d 1
            """);

    private static final Arguments SCENARIO_14 = arguments(
        "a new price moves the order to the back of the new level", """
            > new c1 a1 BUY LIMIT GTC 100 5
            NEW o1 c1 a1 BUY 5@100 last 0@0 cum 0 leaves 5
            L2 BUY ADD 100 qty 5 n 1 d 1
            > new c2 a2 BUY LIMIT GTC 99 5
            NEW o2 c2 a2 BUY 5@99 last 0@0 cum 0 leaves 5
            L2 BUY ADD 99 qty 5 n 1 d 2
            > replace c1 a1 99 5
            REPLACED o1 c1 a1 BUY 5@99 last 0@0 cum 0 leaves 5
            L2 BUY DELETE 100 qty 0 n 0 d 1
            L2 BUY CHANGE 99 qty 10 n 2 d 1
            > new c3 a3 SELL LIMIT GTC 99 5
            NEW o3 c3 a3 SELL 5@99 last 0@0 cum 0 leaves 5
            TRADE t1 5@99 SELL aggressor o3 resting o2
            FILLED o2 c2 a2 BUY 5@99 last 5@99 cum 5 leaves 0
            FILLED o3 c3 a3 SELL 5@99 last 5@99 cum 5 leaves 0
            L2 BUY CHANGE 99 qty 5 n 1 d 1
            > replace c1 a1 98 5
            REPLACED o1 c1 a1 BUY 5@98 last 0@0 cum 0 leaves 5
            L2 BUY DELETE 99 qty 0 n 0 d 1
            L2 BUY ADD 98 qty 5 n 1 d 1
            """);

    private static final Arguments SCENARIO_15 = arguments(
        "a replace across the book trades like a new order; amending to the same values is a no-op", """
            > new c1 a1 SELL LIMIT GTC 102 5
            NEW o1 c1 a1 SELL 5@102 last 0@0 cum 0 leaves 5
            L2 SELL ADD 102 qty 5 n 1 d 1
            > new c2 a2 BUY LIMIT GTC 100 8
            NEW o2 c2 a2 BUY 8@100 last 0@0 cum 0 leaves 8
            L2 BUY ADD 100 qty 8 n 1 d 1
            > replace c2 a2 102 8
            REPLACED o2 c2 a2 BUY 8@102 last 0@0 cum 0 leaves 8
            L2 BUY DELETE 100 qty 0 n 0 d 1
            TRADE t1 5@102 BUY aggressor o2 resting o1
            FILLED o1 c1 a1 SELL 5@102 last 5@102 cum 5 leaves 0
            PARTIALLY_FILLED o2 c2 a2 BUY 8@102 last 5@102 cum 5 leaves 3
            L2 SELL DELETE 102 qty 0 n 0 d 1
            L2 BUY ADD 102 qty 3 n 1 d 1
            > replace c2 a2 102 5
            REPLACE_REJECTED o2 c2 a2 BUY 5@102 last 0@0 cum 5 leaves 3 QUANTITY_NOT_ABOVE_FILLED
            > replace c2 a2 102 6
            REPLACED o2 c2 a2 BUY 6@102 last 0@0 cum 5 leaves 1
            L2 BUY CHANGE 102 qty 1 n 1 d 1
            > replace c2 a2 102 6
            REPLACED o2 c2 a2 BUY 6@102 last 0@0 cum 5 leaves 1
            """);

    private static final Arguments SCENARIO_16 = arguments(
        "a replace is validated and risk-checked like a new order", """
            > new c1 a1 SELL LIMIT GTC 102 5
            NEW o1 c1 a1 SELL 5@102 last 0@0 cum 0 leaves 5
            L2 SELL ADD 102 qty 5 n 1 d 1
            > new c2 a2 BUY POST_ONLY GTC 100 5
            NEW o2 c2 a2 BUY 5@100 last 0@0 cum 0 leaves 5
            L2 BUY ADD 100 qty 5 n 1 d 1
            > replace c2 a2 102 5
            REPLACE_REJECTED o2 c2 a2 BUY 5@102 last 0@0 cum 0 leaves 5 POST_ONLY_WOULD_CROSS
            > replace c2 a2 111 5
            REPLACE_REJECTED o2 c2 a2 BUY 5@111 last 0@0 cum 0 leaves 5 PRICE_OUTSIDE_BAND
            > replace c2 a2 101 0
            REPLACE_REJECTED o2 c2 a2 BUY 0@101 last 0@0 cum 0 leaves 5 INVALID_QUANTITY
            > replace c2 a2 0 5
            REPLACE_REJECTED o2 c2 a2 BUY 5@0 last 0@0 cum 0 leaves 5 INVALID_PRICE
            > replace c9 a2 101 5
            REPLACE_REJECTED o0 c9 a2 null 5@101 last 0@0 cum 0 leaves 0 UNKNOWN_ORDER
            > replace c2 a5 101 5
            REPLACE_REJECTED o0 c2 a5 null 5@101 last 0@0 cum 0 leaves 0 UNKNOWN_ACCOUNT
            > replace c2 a2 101 5
            REPLACED o2 c2 a2 BUY 5@101 last 0@0 cum 0 leaves 5
            L2 BUY DELETE 100 qty 0 n 0 d 1
            L2 BUY ADD 101 qty 5 n 1 d 1
            """);

    private static final Arguments SCENARIO_17 = arguments(
        "self-trade prevention cancels the resting orders and keeps matching", """
            > new c1 a1 SELL LIMIT GTC 100 3
            NEW o1 c1 a1 SELL 3@100 last 0@0 cum 0 leaves 3
            L2 SELL ADD 100 qty 3 n 1 d 1
            > new c2 a2 SELL LIMIT GTC 100 4
            NEW o2 c2 a2 SELL 4@100 last 0@0 cum 0 leaves 4
            L2 SELL CHANGE 100 qty 7 n 2 d 1
            > new c3 a1 SELL LIMIT GTC 101 5
            NEW o3 c3 a1 SELL 5@101 last 0@0 cum 0 leaves 5
            L2 SELL ADD 101 qty 5 n 1 d 2
            > new c4 a1 BUY LIMIT GTC 101 6
            NEW o4 c4 a1 BUY 6@101 last 0@0 cum 0 leaves 6
            CANCELLED o1 c1 a1 SELL 3@100 last 0@0 cum 0 leaves 0 SELF_TRADE_PREVENTED
            TRADE t1 4@100 BUY aggressor o4 resting o2
            FILLED o2 c2 a2 SELL 4@100 last 4@100 cum 4 leaves 0
            PARTIALLY_FILLED o4 c4 a1 BUY 6@101 last 4@100 cum 4 leaves 2
            L2 SELL DELETE 100 qty 0 n 0 d 1
            CANCELLED o3 c3 a1 SELL 5@101 last 0@0 cum 0 leaves 0 SELF_TRADE_PREVENTED
            L2 SELL DELETE 101 qty 0 n 0 d 1
            L2 BUY ADD 101 qty 2 n 1 d 1
            """);

    private static final Arguments SCENARIO_18 = arguments(
        "self-trade prevention leaves own orders out of a fill-or-kill count", """
            > new c1 a1 SELL LIMIT GTC 100 5
            NEW o1 c1 a1 SELL 5@100 last 0@0 cum 0 leaves 5
            L2 SELL ADD 100 qty 5 n 1 d 1
            > new c2 a2 SELL LIMIT GTC 100 2
            NEW o2 c2 a2 SELL 2@100 last 0@0 cum 0 leaves 2
            L2 SELL CHANGE 100 qty 7 n 2 d 1
            > new c3 a1 BUY LIMIT FOK 100 3
            REJECTED o0 c3 a1 BUY 3@100 last 0@0 cum 0 leaves 0 FOK_NOT_FILLABLE
            > new c4 a1 BUY LIMIT FOK 100 2
            NEW o3 c4 a1 BUY 2@100 last 0@0 cum 0 leaves 2
            CANCELLED o1 c1 a1 SELL 5@100 last 0@0 cum 0 leaves 0 SELF_TRADE_PREVENTED
            TRADE t1 2@100 BUY aggressor o3 resting o2
            FILLED o2 c2 a2 SELL 2@100 last 2@100 cum 2 leaves 0
            FILLED o3 c4 a1 BUY 2@100 last 2@100 cum 2 leaves 0
            L2 SELL DELETE 100 qty 0 n 0 d 1
            """);

    private static final Arguments SCENARIO_19 = arguments(
        "cancel-aggressor self-trade prevention stops at the own order, earlier fills stand", """
            @stp CANCEL_AGGRESSOR
            > new c1 a2 SELL LIMIT GTC 100 3
            NEW o1 c1 a2 SELL 3@100 last 0@0 cum 0 leaves 3
            L2 SELL ADD 100 qty 3 n 1 d 1
            > new c2 a1 SELL LIMIT GTC 100 4
            NEW o2 c2 a1 SELL 4@100 last 0@0 cum 0 leaves 4
            L2 SELL CHANGE 100 qty 7 n 2 d 1
            > new c3 a2 SELL LIMIT GTC 100 5
            NEW o3 c3 a2 SELL 5@100 last 0@0 cum 0 leaves 5
            L2 SELL CHANGE 100 qty 12 n 3 d 1
            > new c4 a1 BUY LIMIT GTC 100 10
            NEW o4 c4 a1 BUY 10@100 last 0@0 cum 0 leaves 10
            TRADE t1 3@100 BUY aggressor o4 resting o1
            FILLED o1 c1 a2 SELL 3@100 last 3@100 cum 3 leaves 0
            PARTIALLY_FILLED o4 c4 a1 BUY 10@100 last 3@100 cum 3 leaves 7
            L2 SELL CHANGE 100 qty 9 n 2 d 1
            CANCELLED o4 c4 a1 BUY 10@100 last 0@0 cum 3 leaves 0 SELF_TRADE_PREVENTED
            > new c5 a1 BUY LIMIT FOK 100 1
            REJECTED o0 c5 a1 BUY 1@100 last 0@0 cum 0 leaves 0 FOK_NOT_FILLABLE
            > new c6 a3 BUY LIMIT FOK 100 9
            NEW o5 c6 a3 BUY 9@100 last 0@0 cum 0 leaves 9
            TRADE t2 4@100 BUY aggressor o5 resting o2
            FILLED o2 c2 a1 SELL 4@100 last 4@100 cum 4 leaves 0
            PARTIALLY_FILLED o5 c6 a3 BUY 9@100 last 4@100 cum 4 leaves 5
            TRADE t3 5@100 BUY aggressor o5 resting o3
            FILLED o3 c3 a2 SELL 5@100 last 5@100 cum 5 leaves 0
            FILLED o5 c6 a3 BUY 9@100 last 5@100 cum 9 leaves 0
            L2 SELL DELETE 100 qty 0 n 0 d 1
            """);

    private static final Arguments SCENARIO_20 = arguments(
        "malformed new orders are rejected; a client order id is free again once done", """
            > new c1 a1 i7 BUY LIMIT GTC 100 1
            REJECTED o0 c1 a1 i7 BUY 1@100 last 0@0 cum 0 leaves 0 UNKNOWN_INSTRUMENT
            > new c1 a5 BUY LIMIT GTC 100 1
            REJECTED o0 c1 a5 BUY 1@100 last 0@0 cum 0 leaves 0 UNKNOWN_ACCOUNT
            > new c1 a1 - LIMIT GTC 100 1
            REJECTED o0 c1 a1 null 1@100 last 0@0 cum 0 leaves 0 INVALID_SIDE
            > new c1 a1 BUY - GTC 100 1
            REJECTED o0 c1 a1 BUY 1@100 last 0@0 cum 0 leaves 0 INVALID_ORDER_TYPE
            > new c1 a1 BUY LIMIT - 100 1
            REJECTED o0 c1 a1 BUY 1@100 last 0@0 cum 0 leaves 0 INVALID_TIME_IN_FORCE
            > new c1 a1 BUY MARKET GTC 0 1
            REJECTED o0 c1 a1 BUY 1@0 last 0@0 cum 0 leaves 0 INVALID_TIME_IN_FORCE
            > new c1 a1 BUY POST_ONLY IOC 100 1
            REJECTED o0 c1 a1 BUY 1@100 last 0@0 cum 0 leaves 0 INVALID_TIME_IN_FORCE
            > new c1 a1 BUY LIMIT GTC 100 0
            REJECTED o0 c1 a1 BUY 0@100 last 0@0 cum 0 leaves 0 INVALID_QUANTITY
            > new c1 a1 BUY LIMIT GTC 100 -5
            REJECTED o0 c1 a1 BUY -5@100 last 0@0 cum 0 leaves 0 INVALID_QUANTITY
            > new c1 a1 i2 BUY LIMIT GTC 1000 15
            REJECTED o0 c1 a1 i2 BUY 15@1000 last 0@0 cum 0 leaves 0 QUANTITY_OFF_LOT_SIZE
            > new c1 a1 i2 BUY LIMIT GTC 1002 10
            REJECTED o0 c1 a1 i2 BUY 10@1002 last 0@0 cum 0 leaves 0 PRICE_OFF_TICK_GRID
            > new c1 a1 i2 BUY LIMIT GTC 0 10
            REJECTED o0 c1 a1 i2 BUY 10@0 last 0@0 cum 0 leaves 0 INVALID_PRICE
            > new c1 a1 BUY LIMIT GTC -100 10
            REJECTED o0 c1 a1 BUY 10@-100 last 0@0 cum 0 leaves 0 INVALID_PRICE
            > new c1 a1 i2 BUY LIMIT GTC 1005 20
            NEW o1 c1 a1 i2 BUY 20@1005 last 0@0 cum 0 leaves 20
            L2 i2 BUY ADD 1005 qty 20 n 1 d 1
            > new c1 a1 BUY LIMIT GTC 100 1
            REJECTED o0 c1 a1 BUY 1@100 last 0@0 cum 0 leaves 0 DUPLICATE_CLIENT_ORDER_ID
            > new c1 a2 BUY LIMIT GTC 100 1
            NEW o2 c1 a2 BUY 1@100 last 0@0 cum 0 leaves 1
            L2 BUY ADD 100 qty 1 n 1 d 1
            > cancel c1 a1 i2
            CANCELLED o1 c1 a1 i2 BUY 20@1005 last 0@0 cum 0 leaves 0
            L2 i2 BUY DELETE 1005 qty 0 n 0 d 1
            > new c1 a1 BUY LIMIT GTC 100 1
            NEW o3 c1 a1 BUY 1@100 last 0@0 cum 0 leaves 1
            L2 BUY CHANGE 100 qty 2 n 2 d 1
            """);

    private static final Arguments SCENARIO_21 = arguments(
        "orders over an account's risk limits are rejected", """
            > new c1 a9 BUY LIMIT GTC 100 101
            REJECTED o0 c1 a9 BUY 101@100 last 0@0 cum 0 leaves 0 MAX_ORDER_QUANTITY_EXCEEDED
            > new c1 a9 BUY LIMIT GTC 100 51
            REJECTED o0 c1 a9 BUY 51@100 last 0@0 cum 0 leaves 0 MAX_NOTIONAL_EXCEEDED
            > new c1 a9 BUY LIMIT GTC 111 10
            REJECTED o0 c1 a9 BUY 10@111 last 0@0 cum 0 leaves 0 PRICE_OUTSIDE_BAND
            > new c1 a9 SELL LIMIT GTC 89 10
            REJECTED o0 c1 a9 SELL 10@89 last 0@0 cum 0 leaves 0 PRICE_OUTSIDE_BAND
            > new c1 a1 SELL LIMIT GTC 100 40
            NEW o1 c1 a1 SELL 40@100 last 0@0 cum 0 leaves 40
            L2 SELL ADD 100 qty 40 n 1 d 1
            > new c2 a9 BUY LIMIT GTC 100 40
            NEW o2 c2 a9 BUY 40@100 last 0@0 cum 0 leaves 40
            TRADE t1 40@100 BUY aggressor o2 resting o1
            FILLED o1 c1 a1 SELL 40@100 last 40@100 cum 40 leaves 0
            FILLED o2 c2 a9 BUY 40@100 last 40@100 cum 40 leaves 0
            L2 SELL DELETE 100 qty 0 n 0 d 1
            > new c3 a9 BUY LIMIT GTC 100 11
            REJECTED o0 c3 a9 BUY 11@100 last 0@0 cum 0 leaves 0 POSITION_LIMIT_EXCEEDED
            > new c3 a9 BUY LIMIT GTC 100 10
            NEW o3 c3 a9 BUY 10@100 last 0@0 cum 0 leaves 10
            L2 BUY ADD 100 qty 10 n 1 d 1
            > new c4 a9 BUY MARKET IOC 0 11
            REJECTED o0 c4 a9 BUY 11@0 last 0@0 cum 0 leaves 0 POSITION_LIMIT_EXCEEDED
            > new c4 a9 SELL MARKET IOC 0 91
            REJECTED o0 c4 a9 SELL 91@0 last 0@0 cum 0 leaves 0 MAX_NOTIONAL_EXCEEDED
            > replace c3 a9 100 20
            REPLACE_REJECTED o3 c3 a9 BUY 20@100 last 0@0 cum 0 leaves 10 POSITION_LIMIT_EXCEEDED
            > replace c3 a9 100 5
            REPLACED o3 c3 a9 BUY 5@100 last 0@0 cum 0 leaves 5
            L2 BUY CHANGE 100 qty 5 n 1 d 1
            > new c4 a9 SELL LIMIT GTC 102 45
            NEW o4 c4 a9 SELL 45@102 last 0@0 cum 0 leaves 45
            L2 SELL ADD 102 qty 45 n 1 d 1
            """);

    private static final Arguments SCENARIO_22 = arguments(
        "orders that could rest are rejected when the book is full", """
            @capacity 2
            > new c1 a1 BUY LIMIT GTC 99 1
            NEW o1 c1 a1 BUY 1@99 last 0@0 cum 0 leaves 1
            L2 BUY ADD 99 qty 1 n 1 d 1
            > new c2 a1 BUY LIMIT GTC 98 1
            NEW o2 c2 a1 BUY 1@98 last 0@0 cum 0 leaves 1
            L2 BUY ADD 98 qty 1 n 1 d 2
            > new c3 a2 SELL LIMIT GTC 101 1
            REJECTED o0 c3 a2 SELL 1@101 last 0@0 cum 0 leaves 0 BOOK_FULL
            > new c3 a2 SELL LIMIT IOC 99 1
            NEW o3 c3 a2 SELL 1@99 last 0@0 cum 0 leaves 1
            TRADE t1 1@99 SELL aggressor o3 resting o1
            FILLED o1 c1 a1 BUY 1@99 last 1@99 cum 1 leaves 0
            FILLED o3 c3 a2 SELL 1@99 last 1@99 cum 1 leaves 0
            L2 BUY DELETE 99 qty 0 n 0 d 1
            > new c4 a2 SELL LIMIT GTC 101 1
            NEW o4 c4 a2 SELL 1@101 last 0@0 cum 0 leaves 1
            L2 SELL ADD 101 qty 1 n 1 d 1
            """);

    private MatchingRules()
    {
    }

    static Stream<Arguments> scenarios()
    {
        return Stream.of(
            SCENARIO_01,
            SCENARIO_02,
            SCENARIO_03,
            SCENARIO_04,
            SCENARIO_05,
            SCENARIO_06,
            SCENARIO_07,
            SCENARIO_08,
            SCENARIO_09,
            SCENARIO_10,
            SCENARIO_11,
            SCENARIO_12,
            SCENARIO_13,
            SCENARIO_14,
            SCENARIO_15,
            SCENARIO_16,
            SCENARIO_17,
            SCENARIO_18,
            SCENARIO_19,
            SCENARIO_20,
            SCENARIO_21,
            SCENARIO_22);
    }
}
