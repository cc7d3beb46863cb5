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

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import io.warpbus.matching.ExecType;
import io.warpbus.matching.SelfTradePrevention;
import io.warpbus.matching.book.DirectOrderBook;
import io.warpbus.matching.book.NaiveOrderBook;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Seeded random command streams run through an engine on {@link DirectOrderBook} and one on {@link NaiveOrderBook}:
 * after every command both must have emitted the same events and reached the same state hash, and
 * {@link BookInvariants} must hold. A failure names the seed, policy, step and command.
 * <p>
 * Replay one seed with {@code -Dwarpbus.matching.seed=N}; run more with {@code -Dwarpbus.matching.seeds=N} and longer
 * streams with {@code -Dwarpbus.matching.steps=N}.
 */
class DifferentialMatchingTest
{
    private static final String SEED_PROP_NAME = "warpbus.matching.seed";
    private static final int SEEDS = Integer.getInteger("warpbus.matching.seeds", 16);
    private static final int STEPS = Integer.getInteger("warpbus.matching.steps", 2_000);
    private static final int BOOK_CAPACITY = 40;

    private final Map<ExecType, Integer> execTypesSeen = new EnumMap<>(ExecType.class);

    @Test
    void shouldEmitTheSameEventsAndStateAsTheReferenceBookAfterEveryCommand()
    {
        final Long onlySeed = Long.getLong(SEED_PROP_NAME);
        final long firstSeed = null == onlySeed ? 1 : onlySeed;
        final long lastSeed = null == onlySeed ? SEEDS : onlySeed;
        for (long seed = firstSeed; seed <= lastSeed; seed++)
        {
            for (final SelfTradePrevention selfTradePrevention : SelfTradePrevention.values())
            {
                run(seed, selfTradePrevention);
            }
        }

        if (null == onlySeed)
        {
            for (final ExecType execType : ExecType.values())
            {
                assertTrue(execTypesSeen.getOrDefault(execType, 0) > SEEDS,
                    "the random streams hardly exercise " + execType + ": " + execTypesSeen);
            }
        }
    }

    private void run(final long seed, final SelfTradePrevention selfTradePrevention)
    {
        final BookInvariants invariants = new BookInvariants();
        final EventLog directLog = new EventLog().tap(invariants);
        final EventLog naiveLog = new EventLog();
        final MatchingEngine direct = TestEngines.newEngine(
            DirectOrderBook::new, selfTradePrevention, BOOK_CAPACITY, directLog);
        final MatchingEngine naive = TestEngines.newEngine(
            NaiveOrderBook::new, selfTradePrevention, BOOK_CAPACITY, naiveLog);
        final RandomCommands commands = new RandomCommands(seed);

        String command = null;
        int step = 0;
        try
        {
            for (step = 1; step <= STEPS; step++)
            {
                command = commands.next();
                CommandScript.run(command, direct, step);
                CommandScript.run(command, naive, step);

                final List<String> directEvents = directLog.drain();
                assertEquals(String.join("\n", naiveLog.drain()), String.join("\n", directEvents), "events");
                assertEquals(naive.stateHash(), direct.stateHash(), "engine state hash");
                assertEquals(naive.stateHash(1), direct.stateHash(1), "instrument 1 state hash");
                assertEquals(naive.book(2).stateHash(), direct.book(2).stateHash(), "book 2 state hash");
                invariants.check(direct);
                invariants.check(naive);
                count(directEvents);
            }
        }
        catch (final AssertionError | RuntimeException ex)
        {
            throw new AssertionError("seed " + seed + ", " + selfTradePrevention + ", step " + step + ": " +
                command + " (replay with -D" + SEED_PROP_NAME + "=" + seed + ")", ex);
        }
    }

    private void count(final List<String> events)
    {
        for (final String event : events)
        {
            final String type = event.substring(0, event.indexOf(' '));
            if (!"TRADE".equals(type) && !"L2".equals(type) && !type.startsWith("L2"))
            {
                execTypesSeen.merge(ExecType.valueOf(type), 1, Integer::sum);
            }
        }
    }
}
