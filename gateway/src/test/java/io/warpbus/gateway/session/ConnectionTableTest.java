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
package io.warpbus.gateway.session;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConnectionTableTest
{
    @Test
    void shouldRefuseAnOutboundQueueTooSmallOrNotAPowerOfTwo()
    {
        final IllegalArgumentException small = assertThrows(IllegalArgumentException.class,
            () -> new ConnectionTable(2, 32 * 1024));
        assertTrue(small.getMessage().startsWith("an outbound queue of 32768 bytes: it must be a power of two of " +
            "at least 65536"), small.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ConnectionTable(2, 96 * 1024));
    }

    @Test
    void shouldTakeTheLargestBookAndPageOfOpenOrdersInTheSmallestQueue()
    {
        final int book = EventDescriptor.BOOK_LEVELS_OFFSET +
            2 * MarketDataFanout.MAX_BOOK_LEVELS * EventDescriptor.LEVEL_LENGTH;
        final int orders = EventDescriptor.OPEN_ORDERS_ENTRIES_OFFSET +
            EventDescriptor.MAX_ORDERS_PER_MESSAGE * EventDescriptor.ORDER_ENTRY_LENGTH;
        try (ConnectionTable table = new ConnectionTable(2, ConnectionTable.MIN_QUEUE_BYTES))
        {
            final Connection connection = table.get(0);
            final UnsafeBuffer message = new UnsafeBuffer(new byte[Math.max(book, orders)]);
            assertTrue(connection.outbound().write(EventDescriptor.BOOK, message, 0, book), "a book of " + book);
            assertTrue(connection.outbound().write(EventDescriptor.OPEN_ORDERS, message, 0, orders),
                "a page of orders of " + orders);
            assertEquals(2, connection.outbound().read((type, buffer, offset, length) -> { }));
        }
    }
}
