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

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.warpbus.matching.CommandHandler;
import io.warpbus.matching.Instrument;
import io.warpbus.matching.OrderType;
import io.warpbus.matching.Side;
import io.warpbus.matching.TimeInForce;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LoadGeneratorTest
{
    @Test
    void shouldProduceTheSameCommandsForTheSameSeed()
    {
        final List<String> first = record(LoadProfile.tradingDay(10, 7), 20_000);
        final List<String> second = record(LoadProfile.tradingDay(10, 7), 20_000);
        final List<String> otherSeed = record(LoadProfile.tradingDay(10, 8), 20_000);

        assertEquals(first, second);
        assertNotEquals(first, otherSeed);
    }

    @ParameterizedTest(name = "{0} instruments")
    @ValueSource(ints = { 1, 10 })
    void shouldKeepTheFixedMixExactly(final int instrumentCount)
    {
        final LoadProfile profile = LoadProfile.fixedMix(instrumentCount, 3);
        final LoadGenerator generator = new LoadGenerator(profile);
        final Recorder recorder = new Recorder();
        final int prefilled = generator.prefill(recorder);
        assertEquals(instrumentCount * profile.prefillQuotesPerInstrument(), prefilled);

        final int cycles = 2_000;
        final int total = 100;
        generator.generate(recorder, cycles * total);

        for (final CommandKind kind : CommandKind.values())
        {
            assertEquals((long)cycles * profile.weight(kind), generator.commandCount(kind), kind.name());
        }
        assertEquals(prefilled + cycles * total, generator.commandCount());
        assertEquals(prefilled + cycles * total, recorder.commands.size());
    }

    @Test
    void shouldInterleaveTheMixRatherThanBatchIt()
    {
        final LoadGenerator generator = new LoadGenerator(LoadProfile.fixedMix(1, 3).mix(2, 1, 1, 1));
        final Recorder recorder = new Recorder();
        generator.prefill(recorder);
        final StringBuilder kinds = new StringBuilder();
        for (int i = 0; i < 10; i++)
        {
            kinds.append(generator.next(recorder).name().charAt(0));
        }

        assertEquals("LMCRLLMCRL", kinds.toString());
    }

    @Test
    void shouldPlaceValidOrdersAroundTheMidOfEachInstrument()
    {
        final LoadProfile profile = LoadProfile.tradingDay(10, 11);
        final Instrument[] instruments = profile.instruments();
        final Set<Integer> accounts = new HashSet<>();
        for (final int accountId : profile.accountIds())
        {
            accounts.add(accountId);
        }
        final LoadGenerator generator = new LoadGenerator(profile);
        final Set<String> kindsSeen = new HashSet<>();
        final CommandHandler checker = new Recorder()
        {
            @Override
            @SuppressWarnings("checkstyle:parameternumber")
            public void newOrder(
                final long clientOrderId,
                final int accountId,
                final int instrumentId,
                final Side side,
                final OrderType type,
                final TimeInForce timeInForce,
                final long price,
                final long quantity,
                final long timestampNs)
            {
                final Instrument instrument = instruments[instrumentId - 1];
                assertTrue(accounts.contains(accountId));
                assertTrue(quantity > 0 && instrument.isWholeLots(quantity));
                if (OrderType.MARKET != type)
                {
                    final long distance = Math.abs(price - instrument.referencePrice());
                    assertTrue(instrument.isOnTickGrid(price) && distance < instrument.bandWidth(
                        instrument.referencePrice()) / 2, "price " + price + " of " + instrument);
                }
                kindsSeen.add(type + "/" + timeInForce);
            }
        };
        generator.prefill(checker);
        generator.generate(checker, 100_000);

        assertEquals(Set.of("LIMIT/GTC", "POST_ONLY/GTC", "LIMIT/IOC", "MARKET/IOC"), kindsSeen);
    }

    @Test
    void shouldSpaceTimestampsAtTheConfiguredRate()
    {
        final LoadGenerator generator = new LoadGenerator(
            LoadProfile.fixedMix(1, 1).commandsPerSecond(250_000).startTimestampNs(1_000));
        final Recorder recorder = new Recorder();
        generator.generate(recorder, 1_000);

        assertEquals(1_000 + 1_000 * 4_000L, generator.nextTimestampNs());
        assertTrue(recorder.commands.get(1).endsWith(" t5000"), recorder.commands.get(1));
    }

    @Test
    void shouldStopTrackingQuotesReportedDone()
    {
        final LoadGenerator generator = new LoadGenerator(LoadProfile.fixedMix(2, 5));
        final Recorder recorder = new Recorder();
        generator.prefill(recorder);
        assertEquals(1_024, generator.trackedQuotes());

        generator.onOrderDone(1);
        generator.onOrderDone(2);
        generator.onOrderDone(2);
        generator.onOrderDone(99_999);

        assertEquals(1_022, generator.trackedQuotes());
    }

    @Test
    void shouldRefuseAProfileOutOfRange()
    {
        assertThrows(IllegalStateException.class, () -> new LoadGenerator(LoadProfile.fixedMix(0, 1)));
        assertThrows(IllegalStateException.class, () -> new LoadGenerator(LoadProfile.fixedMix(1, 1).mix(0, 0, 0, 0)));
        assertThrows(IllegalStateException.class,
            () -> new LoadGenerator(LoadProfile.fixedMix(1, 1).prefillQuotesPerInstrument(2_000)));
    }

    private static List<String> record(final LoadProfile profile, final int count)
    {
        final LoadGenerator generator = new LoadGenerator(profile);
        final Recorder recorder = new Recorder();
        generator.prefill(recorder);
        generator.generate(recorder, count);
        return recorder.commands;
    }

    private static class Recorder implements CommandHandler
    {
        final List<String> commands = new ArrayList<>();

        @Override
        @SuppressWarnings("checkstyle:parameternumber")
        public void newOrder(
            final long clientOrderId,
            final int accountId,
            final int instrumentId,
            final Side side,
            final OrderType type,
            final TimeInForce timeInForce,
            final long price,
            final long quantity,
            final long timestampNs)
        {
            commands.add("new c" + clientOrderId + " a" + accountId + " i" + instrumentId + " " + side + " " + type +
                " " + timeInForce + " " + price + " " + quantity + " t" + timestampNs);
        }

        @Override
        public void cancel(
            final long clientOrderId, final int accountId, final int instrumentId, final long timestampNs)
        {
            commands.add("cancel c" + clientOrderId + " a" + accountId + " i" + instrumentId + " t" + timestampNs);
        }

        @Override
        public void replace(
            final long clientOrderId,
            final int accountId,
            final int instrumentId,
            final long newPrice,
            final long newQuantity,
            final long timestampNs)
        {
            commands.add("replace c" + clientOrderId + " a" + accountId + " i" + instrumentId + " " + newPrice + " " +
                newQuantity + " t" + timestampNs);
        }
    }
}
