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
package io.warpbus.gateway;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import io.warpbus.gateway.fix.FixAcceptor;
import io.warpbus.matching.OrderType;
import io.warpbus.matching.Side;
import io.warpbus.matching.book.OrderBook;
import io.warpbus.matching.book.OrderVisitor;
import io.warpbus.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import quickfix.FieldNotFound;
import quickfix.Group;
import quickfix.Message;
import quickfix.field.ClOrdID;
import quickfix.field.MsgType;
import quickfix.field.OrdType;
import quickfix.field.TransactTime;
import quickfix.fix44.NewOrderSingle;

import static io.warpbus.gateway.FixTestClient.field;
import static io.warpbus.gateway.FixTestClient.type;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * FIX market data rebuilds the engine's book: a market-data session subscribes to BETA (263=1), two order-entry
 * sessions send orders at random prices around the reference, some crossing, and the book the subscriber rebuilds from
 * the snapshot (W) and the increments (X) is, level by level, price, total quantity and order count, the book of
 * the real matching engine behind the gateway.
 */
@SpringBootTest(classes = GatewayApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@Timeout(120)
class FixBookRebuildTest extends GatewayTestBase
{
    private static final int ORDERS = 40;

    @Autowired
    FixAcceptor acceptor;

    @DynamicPropertySource
    static void properties(final DynamicPropertyRegistry registry)
    {
        gatewayProperties(registry);
        floodProperties(registry);
        FixOrderEntryTest.fixSessions(registry);
    }

    @Test
    void shouldRebuildTheEnginesBookFromTheSnapshotAndIncrements() throws Exception
    {
        final long seed = System.nanoTime();
        final Random random = new Random(seed);
        final Path clients = dir.resolve("fix-book-clients");
        try (FixTestClient md = new FixTestClient(acceptor.port(), "MD", "WARPBUS", clients, "alice", "alice-pw")
            .start().awaitLogon();
            FixTestClient alice = new FixTestClient(acceptor.port(), "ALICE", "WARPBUS", clients, "alice",
                "alice-pw").start().awaitLogon();
            FixTestClient bob = new FixTestClient(acceptor.port(), "BOB", "WARPBUS", clients, "bob", "bob-pw")
                .start().awaitLogon())
        {
            md.send(FixOrderEntryTest.marketDataRequest("book-1", '1', "BETA"));
            md.await(type(MsgType.MARKET_DATA_SNAPSHOT_FULL_REFRESH), "the BETA snapshot");
            final List<String> ids = new ArrayList<>();
            final List<FixTestClient> senders = new ArrayList<>();
            for (int i = 0; i < ORDERS; i++)
            {
                final boolean fromAlice = random.nextBoolean();
                final boolean buy = random.nextBoolean();
                // 49.90 to 50.10: bids and offers overlap, so some orders trade and some rest.
                final long price = 4990 + random.nextInt(21);
                final String id = "book-" + seed + "-" + i;
                ids.add(id);
                senders.add(fromAlice ? alice : bob);
                senders.get(i).send(order(id, fromAlice ? GatewayFixtures.ALICE_ACCOUNT :
                    GatewayFixtures.BOB_ACCOUNT, buy, price, 1 + random.nextInt(20)));
            }
            for (int i = 0; i < ORDERS; i++)
            {
                final String id = ids.get(i);
                senders.get(i).await((message) -> type(MsgType.EXECUTION_REPORT).test(message) &&
                    id.equals(field(message, 11)), "the first report of " + id + " (seed " + seed + ")");
            }
            final OrderBook book = engine().service().engine().book(GatewayFixtures.BETA.id());
            final String[] last = { "", "" };
            Await.until(() -> "the rebuilt book to be the engine's (seed " + seed + "):\n  rebuilt " + last[0] +
                "\n  engine  " + last[1], FixTestClient.TIMEOUT_MS, () -> Await.sleep(20), () ->
                {
                    last[0] = rebuild(md.received());
                    last[1] = levels(book);
                    return last[0].equals(last[1]);
                });
            assertFalse(last[1].equals("bids asks"), "the orders left a book to compare (seed " + seed + ")");
            assertEquals(last[1], last[0]);
        }
    }

    /**
     * The book from the subscriber's messages in order: a W replaces it, an X's entries add, change or delete a
     * level (trades, 269=2, leave the book as it is).
     */
    static String rebuild(final List<Message> messages)
    {
        try
        {
            return rebuildOrThrow(messages);
        }
        catch (final FieldNotFound ex)
        {
            throw new IllegalStateException("a market-data entry without a required field: " + ex.getMessage(), ex);
        }
    }

    private static String rebuildOrThrow(final List<Message> messages) throws FieldNotFound
    {
        final TreeMap<Long, String> bids = new TreeMap<>();
        final TreeMap<Long, String> offers = new TreeMap<>();
        for (final Message message : messages)
        {
            final String type = FixTestClient.msgType(message);
            final boolean snapshot = MsgType.MARKET_DATA_SNAPSHOT_FULL_REFRESH.equals(type);
            if (!snapshot && !MsgType.MARKET_DATA_INCREMENTAL_REFRESH.equals(type))
            {
                continue;
            }
            if (snapshot)
            {
                bids.clear();
                offers.clear();
            }
            for (int i = 1; i <= message.getGroupCount(268); i++)
            {
                final Group entry = message.getGroup(i, 268);
                final char entryType = entry.getChar(269);
                if ('2' == entryType)
                {
                    continue;
                }
                final Map<Long, String> side = '0' == entryType ? bids : offers;
                final long price = new BigDecimal(entry.getString(270)).movePointRight(2).longValueExact();
                final char action = snapshot ? '0' : entry.getChar(279);
                if ('2' == action)
                {
                    side.remove(price);
                }
                else
                {
                    side.put(price, entry.getString(271) + "/" + entry.getString(346));
                }
            }
        }
        return text(bids, offers);
    }

    /**
     * The engine's book as levels: quantity left in units and order count at each price.
     */
    static String levels(final OrderBook book)
    {
        final TreeMap<Long, long[]> bids = new TreeMap<>();
        final TreeMap<Long, long[]> offers = new TreeMap<>();
        book.forEachOrder(new OrderVisitor()
        {
            @Override
            @SuppressWarnings("checkstyle:parameternumber")
            public void onOrder(final long orderId, final long clientOrderId, final int accountId, final Side side,
                final OrderType type, final long price, final long quantity, final long filledQuantity)
            {
                final long[] level = (Side.BUY == side ? bids : offers).computeIfAbsent(price, (p) -> new long[2]);
                level[0] += quantity - filledQuantity;
                level[1]++;
            }
        });
        final TreeMap<Long, String> bidText = new TreeMap<>();
        final TreeMap<Long, String> offerText = new TreeMap<>();
        bids.forEach((price, level) -> bidText.put(price, level[0] + "/" + level[1]));
        offers.forEach((price, level) -> offerText.put(price, level[0] + "/" + level[1]));
        return text(bidText, offerText);
    }

    static String text(final TreeMap<Long, String> bids, final TreeMap<Long, String> offers)
    {
        final StringBuilder text = new StringBuilder("bids");
        bids.descendingMap().forEach((price, level) -> text.append(' ').append(price).append('x').append(level));
        text.append(" asks");
        offers.forEach((price, level) -> text.append(' ').append(price).append('x').append(level));
        return text.toString();
    }

    private static Message order(final String id, final long account, final boolean buy, final long price,
        final long quantity)
    {
        final NewOrderSingle order = new NewOrderSingle(new ClOrdID(id), new quickfix.field.Side(buy ?
            quickfix.field.Side.BUY : quickfix.field.Side.SELL), new TransactTime(LocalDateTime.now()),
            new OrdType(OrdType.LIMIT));
        order.setString(1, Long.toString(account));
        order.setString(55, "BETA");
        order.setString(44, BigDecimal.valueOf(price, 2).toPlainString());
        order.setString(38, Long.toString(quantity));
        return order;
    }
}
