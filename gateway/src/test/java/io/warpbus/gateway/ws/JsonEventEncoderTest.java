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
package io.warpbus.gateway.ws;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.warpbus.gateway.session.CommandDescriptor;
import io.warpbus.gateway.session.CoreStandIn;
import io.warpbus.gateway.session.EventDescriptor;
import io.warpbus.gateway.session.InstrumentRegistry;
import io.warpbus.gateway.session.UserDirectory;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Market data is encoded once and reused for every subscriber: what it reuses must be exactly what encoding afresh
 * gives, whatever changed in between.
 */
class JsonEventEncoderTest
{
    private static final int ACME = 7;

    private final InstrumentRegistry instruments = new InstrumentRegistry(1_000_000, Map.of(), new HashSet<>());
    private final UnsafeBuffer event = new UnsafeBuffer(new byte[1024]);

    @Test
    void shouldGiveEachSubscriberItsOwnSequenceNumberOnTheSameUpdate()
    {
        CoreStandIn.define(instruments, ACME, "ACME", 1, 10, 2);
        final JsonEventEncoder encoder = encoder();
        final int length = update(1, 42, new long[] { 10_050, 30 });
        assertEquals("{\"type\":\"bookUpdate\",\"seq\":1,\"instrument\":\"ACME\",\"mdSeq\":42," +
            "\"changes\":[[\"buy\",\"100.50\",30,1]]}", encoder.encode(EventDescriptor.BOOK_UPDATE, event, 0, length));
        update(977, 42, new long[] { 10_050, 30 });
        assertEquals("{\"type\":\"bookUpdate\",\"seq\":977,\"instrument\":\"ACME\",\"mdSeq\":42," +
            "\"changes\":[[\"buy\",\"100.50\",30,1]]}", encoder.encode(EventDescriptor.BOOK_UPDATE, event, 0, length));
    }

    @Test
    void shouldEncodeWhatAFreshEncoderWouldThroughRandomUpdatesTradesAndRedefinitions()
    {
        CoreStandIn.define(instruments, ACME, "ACME", 1, 10, 2);
        CoreStandIn.define(instruments, ACME + 1, "BETA", 5, 1, 3);
        final JsonEventEncoder reusing = encoder();
        final Random random = new Random(5);
        for (int i = 0; i < 3_000; i++)
        {
            if (0 == random.nextInt(300))
            {
                // The engine restarted with other decimals: the same bytes now mean other prices.
                CoreStandIn.define(instruments, ACME, "ACME", 1, 10, 2 + random.nextInt(3));
            }
            final int instrument = ACME + random.nextInt(2);
            // Few distinct sequence numbers, so that the same key comes back with other contents.
            final long mdSeq = random.nextInt(8);
            final int type;
            final int length;
            if (random.nextBoolean())
            {
                type = EventDescriptor.BOOK_UPDATE;
                final long[] levels = new long[2 * (1 + random.nextInt(3))];
                for (int l = 0; l < levels.length; l++)
                {
                    levels[l] = 1 + random.nextInt(3);
                }
                length = update(random.nextInt(1000), mdSeq, levels);
            }
            else
            {
                type = EventDescriptor.TRADE;
                length = trade(random.nextInt(1000), mdSeq, 1 + random.nextInt(3));
            }
            event.putInt(EventDescriptor.INSTRUMENT_OFFSET, instrument);
            assertEquals(encoder().encode(type, event, 0, length), reusing.encode(type, event, 0, length),
                "event " + i);
        }
    }

    private JsonEventEncoder encoder()
    {
        return new JsonEventEncoder(instruments, new UserDirectory(List.of()));
    }

    /** A book update of (price, quantity) pairs, bids. */
    private int update(final long seq, final long mdSeq, final long[] levels)
    {
        event.putLong(EventDescriptor.SEQ_OFFSET, seq);
        event.putInt(EventDescriptor.INSTRUMENT_OFFSET, ACME);
        event.putLong(EventDescriptor.MD_SEQ_OFFSET, mdSeq);
        event.putInt(EventDescriptor.UPDATE_COUNT_OFFSET, levels.length / 2);
        int offset = EventDescriptor.UPDATE_LEVELS_OFFSET;
        for (int i = 0; i < levels.length; i += 2, offset += EventDescriptor.LEVEL_LENGTH)
        {
            event.putLong(offset + EventDescriptor.LEVEL_PRICE_OFFSET, levels[i]);
            event.putLong(offset + EventDescriptor.LEVEL_QUANTITY_OFFSET, levels[i + 1]);
            event.putInt(offset + EventDescriptor.LEVEL_ORDERS_OFFSET, 1);
            event.putByte(offset + EventDescriptor.LEVEL_SIDE_OFFSET, CommandDescriptor.BUY);
        }
        return offset;
    }

    private int trade(final long seq, final long mdSeq, final long price)
    {
        event.putLong(EventDescriptor.SEQ_OFFSET, seq);
        event.putLong(EventDescriptor.MD_SEQ_OFFSET, mdSeq);
        event.putByte(EventDescriptor.AGGRESSOR_OFFSET, CommandDescriptor.SELL);
        event.putLong(EventDescriptor.TRADE_ID_OFFSET, mdSeq * 3);
        event.putLong(EventDescriptor.TRADE_PRICE_OFFSET, price);
        event.putLong(EventDescriptor.TRADE_QUANTITY_OFFSET, 10);
        event.putLong(EventDescriptor.TRADE_TIME_OFFSET, 1_767_312_000_000_000_000L);
        return EventDescriptor.TRADE_LENGTH;
    }
}
