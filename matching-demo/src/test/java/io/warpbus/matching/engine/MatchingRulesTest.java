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

import java.util.ArrayList;
import java.util.List;

import io.warpbus.matching.SelfTradePrevention;
import io.warpbus.matching.book.OrderBookFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Runs the hand-written {@link MatchingRules} table against one book implementation: after every command the events
 * must be exactly those written under it, and a refused command must leave the state hash as it was.
 */
abstract class MatchingRulesTest
{
    abstract OrderBookFactory factory();

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.warpbus.matching.engine.MatchingRules#scenarios")
    void shouldEmitExactlyTheEventsTheTableGives(final String name, final String script)
    {
        final EventLog log = new EventLog();
        SelfTradePrevention selfTradePrevention = SelfTradePrevention.CANCEL_RESTING;
        int capacity = 1024;
        MatchingEngine engine = null;
        String command = null;
        final List<String> expected = new ArrayList<>();
        long step = 0;

        for (final String rawLine : script.split("\n"))
        {
            final String line = rawLine.trim();
            if (line.isEmpty() || line.startsWith("#"))
            {
                continue;
            }
            if (line.startsWith("@stp "))
            {
                selfTradePrevention = SelfTradePrevention.valueOf(line.substring(5).trim());
            }
            else if (line.startsWith("@capacity "))
            {
                capacity = Integer.parseInt(line.substring(10).trim());
            }
            else if (line.startsWith(">"))
            {
                if (null == engine)
                {
                    engine = TestEngines.newEngine(factory(), selfTradePrevention, capacity, log);
                }
                if (null != command)
                {
                    check(engine, log, command, expected, ++step);
                }
                command = line.substring(1).trim();
                expected.clear();
            }
            else
            {
                expected.add(line);
            }
        }

        check(engine, log, command, expected, ++step);
    }

    private static void check(
        final MatchingEngine engine,
        final EventLog log,
        final String command,
        final List<String> expected,
        final long timestampNs)
    {
        final long hashBefore = engine.stateHash();
        log.expectTimestampNs(timestampNs);
        CommandScript.run(command, engine, timestampNs);
        final List<String> actual = log.drain();

        assertEquals(String.join("\n", expected), String.join("\n", actual), "events of: " + command);
        if (1 == actual.size() && actual.get(0).contains("REJECTED"))
        {
            assertEquals(hashBefore, engine.stateHash(), "a refused command changed the state: " + command);
        }
    }
}
