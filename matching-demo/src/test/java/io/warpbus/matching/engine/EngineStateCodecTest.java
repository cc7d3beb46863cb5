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

import java.nio.ByteOrder;

import io.warpbus.matching.SelfTradePrevention;
import io.warpbus.matching.book.DirectOrderBook;
import io.warpbus.matching.book.NaiveOrderBook;
import io.warpbus.matching.book.OrderBookFactory;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EngineStateCodecTest
{
    private static final int STEPS_BEFORE = 1_500;
    private static final int STEPS_AFTER = 1_500;
    private static final int OFFSET = 24;

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = { 1, 2, 3, 4, 5 })
    void shouldContinueExactlyAsTheOriginalAfterRestore(final long seed)
    {
        final EventLog originalLog = new EventLog();
        final MatchingEngine original = TestEngines.newEngine(
            DirectOrderBook::new, SelfTradePrevention.CANCEL_RESTING, 64, originalLog);
        final RandomCommands commands = new RandomCommands(seed);
        for (int step = 1; step <= STEPS_BEFORE; step++)
        {
            CommandScript.run(commands.next(), original, step);
        }
        originalLog.drain();

        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(64);
        final int length = original.encodeState(buffer, OFFSET);
        assertEquals(original.encodedStateLength(), length);

        final EventLog directLog = new EventLog();
        final EventLog naiveLog = new EventLog();
        final MatchingEngine direct = restore(DirectOrderBook::new, directLog, buffer, length);
        final MatchingEngine naive = restore(NaiveOrderBook::new, naiveLog, buffer, length);
        assertEquals(original.stateHash(), direct.stateHash());
        assertEquals(original.stateHash(), naive.stateHash());
        assertTrue(original.book(1).orderCount() + original.book(2).orderCount() > 10, "a state worth testing");
        for (final int accountId : new int[]{ 1, 2, 3, 4, TestEngines.TIGHT_ACCOUNT })
        {
            assertEquals(original.liveOrderCount(accountId), direct.liveOrderCount(accountId));
            assertEquals(original.position(accountId, 2), naive.position(accountId, 2));
        }
        assertTrue(directLog.drain().isEmpty() && naiveLog.drain().isEmpty(), "restore emits no events");

        for (int step = STEPS_BEFORE + 1; step <= STEPS_BEFORE + STEPS_AFTER; step++)
        {
            final String command = commands.next();
            CommandScript.run(command, original, step);
            CommandScript.run(command, direct, step);
            CommandScript.run(command, naive, step);
            final String expected = String.join("\n", originalLog.drain());
            assertEquals(expected, String.join("\n", directLog.drain()), "seed " + seed + " step " + step);
            assertEquals(expected, String.join("\n", naiveLog.drain()), "seed " + seed + " step " + step);
            assertEquals(original.stateHash(), direct.stateHash(), "seed " + seed + " step " + step);
            assertEquals(original.stateHash(), naive.stateHash(), "seed " + seed + " step " + step);
        }
    }

    @Test
    void shouldRefuseToRestoreIntoAnEngineWithState()
    {
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(64);
        final MatchingEngine original = TestEngines.newEngine(
            DirectOrderBook::new, SelfTradePrevention.CANCEL_RESTING, 64, new EventLog());
        original.encodeState(buffer, 0);

        final MatchingEngine busy = TestEngines.newEngine(
            DirectOrderBook::new, SelfTradePrevention.CANCEL_RESTING, 64, new EventLog());
        assertThrows(IllegalStateException.class, () -> busy.restoreState(buffer, 0));
    }

    @Test
    void shouldDetectAnEncodedStateThatDoesNotRestoreTheRecordedState()
    {
        final MatchingEngine original = TestEngines.newEngine(
            DirectOrderBook::new, SelfTradePrevention.CANCEL_RESTING, 64, new EventLog());
        CommandScript.run("new c1 a1 BUY LIMIT GTC 100 10", original, 1);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[original.encodedStateLength()]);
        final int length = original.encodeState(buffer, 0);

        final int lastOrderQuantityOffset = length - 8 - (8 + 8 + 4) - 16;
        assertEquals(10, buffer.getLong(lastOrderQuantityOffset, ByteOrder.LITTLE_ENDIAN));
        final UnsafeBuffer wrongQuantity = new UnsafeBuffer(buffer.byteArray().clone());
        wrongQuantity.putLong(lastOrderQuantityOffset, 11, ByteOrder.LITTLE_ENDIAN);
        assertThrows(IllegalArgumentException.class, () -> restore(
            DirectOrderBook::new, new EventLog(), wrongQuantity, length));

        final UnsafeBuffer wrongMagic = new UnsafeBuffer(buffer.byteArray().clone());
        wrongMagic.putInt(0, 42);
        assertThrows(IllegalArgumentException.class, () -> restore(
            DirectOrderBook::new, new EventLog(), wrongMagic, length));
    }

    private static MatchingEngine restore(
        final OrderBookFactory factory,
        final EventLog log,
        final DirectBuffer buffer,
        final int length)
    {
        final MatchingEngine engine = TestEngines.emptyEngine(factory, SelfTradePrevention.CANCEL_RESTING, 64, log);
        final int offset = buffer instanceof ExpandableArrayBuffer ? OFFSET : 0;
        assertEquals(length, engine.restoreState(buffer, offset));
        return engine;
    }
}
