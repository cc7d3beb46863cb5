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
package io.warpbus.bus.protocol;

import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The subscribe handshake codec: random requests and replies survive a round trip, and truncated or mutated
 * private data is either decoded into some request or refused with an IllegalArgumentException, never anything
 * else (it comes from the network).
 */
class SubscribeHandshakeTest
{
    private static final long SEED = System.nanoTime();
    private final Random random = new Random(SEED);

    @Test
    void shouldRoundTripRandomRequestsAndReplies()
    {
        for (int i = 0; i < 2_000; i++)
        {
            final SubscribeHandshake.Request request = new SubscribeHandshake.Request(random.nextInt(),
                random.nextInt(), random.nextLong(), random.nextInt(), random.nextInt(3), random.nextLong(),
                random.nextInt(), random.nextLong(), random.nextLong(), text(SubscribeHandshake.MAX_NAME_LENGTH),
                random.nextInt(2), random.nextLong(), random.nextLong(),
                text(SubscribeHandshake.MAX_ENDPOINT_LENGTH));
            assertEquals(request, SubscribeHandshake.decodeRequest(SubscribeHandshake.encode(request)),
                "seed " + SEED);
            final SubscribeHandshake.Reply reply = new SubscribeHandshake.Reply(random.nextInt(), random.nextInt(),
                random.nextLong(), random.nextLong(), random.nextInt(), random.nextLong(), random.nextLong(),
                random.nextLong(), text(SubscribeHandshake.MAX_ENDPOINT_LENGTH));
            assertEquals(reply, SubscribeHandshake.decodeReply(SubscribeHandshake.encode(reply)), "seed " + SEED);
        }
    }

    @Test
    void shouldRefuseTruncatedOrMutatedPrivateDataWithAClearError()
    {
        final SubscribeHandshake.Request request = new SubscribeHandshake.Request(1001, 7, 4096, 1 << 20, 0, 5, 9,
            0, 0, "subscriber-1", SubscribeHandshake.FLAG_REPLAY, 99, -1, "127.0.0.1:40457");
        final byte[] valid = SubscribeHandshake.encode(request);
        for (int length = 0; length < valid.length; length++)
        {
            final byte[] truncated = Arrays.copyOf(valid, length);
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> SubscribeHandshake.decodeRequest(truncated), "truncated to " + length);
            assertTrue(ex.getMessage().startsWith("subscribe request"), ex.getMessage());
        }
        for (int i = 0; i < 20_000; i++)
        {
            final byte[] mutated = valid.clone();
            for (int flips = 1 + random.nextInt(4); flips > 0; flips--)
            {
                mutated[random.nextInt(mutated.length)] = (byte)random.nextInt(256);
            }
            try
            {
                SubscribeHandshake.decodeRequest(mutated);
            }
            catch (final IllegalArgumentException expected)
            {
                assertTrue(expected.getMessage().startsWith("subscribe request"), expected.getMessage());
            }
            catch (final RuntimeException ex)
            {
                fail("seed " + SEED + ": " + Arrays.toString(mutated) + " threw " + ex);
            }
        }
    }

    private String text(final int maxLength)
    {
        final char[] chars = new char[random.nextInt(maxLength + 1)];
        for (int i = 0; i < chars.length; i++)
        {
            chars[i] = (char)(' ' + random.nextInt(95));
        }
        return new String(chars);
    }
}
