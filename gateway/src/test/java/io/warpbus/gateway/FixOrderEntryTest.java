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

import java.time.LocalDateTime;
import java.util.List;
import java.util.Random;

import io.warpbus.gateway.fix.FixAcceptor;
import io.warpbus.gateway.fix.FixMetrics;
import io.warpbus.gateway.session.GatewayCounterDescriptor;
import io.warpbus.gateway.session.GatewayCounters;
import io.warpbus.orderentry.RejectReason;
import io.warpbus.testing.Await;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import quickfix.Message;
import quickfix.field.ClOrdID;
import quickfix.field.MsgType;
import quickfix.field.OrdType;
import quickfix.field.OrigClOrdID;
import quickfix.field.Side;
import quickfix.field.TransactTime;
import quickfix.fix44.NewOrderSingle;
import quickfix.fix44.OrderCancelReplaceRequest;
import quickfix.fix44.OrderCancelRequest;

import static io.warpbus.gateway.FixTestClient.field;
import static io.warpbus.gateway.FixTestClient.report;
import static io.warpbus.gateway.FixTestClient.type;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Orders through the gateway's FIX acceptor to a real matching engine, from real QuickFIX/J initiators over loopback
 * sockets: accepted, replaced, cancelled, filled against another session's order with both sides' reports, every
 * refusal with its reason in Text (58), rate limits, a malformed message rejected at the session level, a
 * client-side sequence gap answered by a resend, and a mutation test of the FIX-to-order mapping's bad values.
 */
@SpringBootTest(classes = GatewayApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@Timeout(120)
class FixOrderEntryTest extends GatewayTestBase
{
    private static int nextOrder;
    private static FixTestClient alice;
    private static FixTestClient bob;

    @Autowired
    FixAcceptor acceptor;

    @Autowired
    FixMetrics fixMetrics;

    @Autowired
    GatewayCounters counters;

    @DynamicPropertySource
    static void properties(final DynamicPropertyRegistry registry)
    {
        gatewayProperties(registry);
        floodProperties(registry);
        fixSessions(registry);
    }

    static void fixSessions(final DynamicPropertyRegistry registry)
    {
        registry.add("warpbus.gateway.fix.port", () -> "0");
        registry.add("warpbus.gateway.fix.address", () -> "127.0.0.1");
        final String[] clients = { "ALICE", "BOB", "CAROL", "MD", "DROP" };
        for (int i = 0; i < clients.length; i++)
        {
            final String client = clients[i];
            registry.add("warpbus.gateway.fix.sessions[" + i + "].sender-comp-id", () -> client);
            registry.add("warpbus.gateway.fix.sessions[" + i + "].type", () -> "MD".equals(client) ? "market-data" :
                "DROP".equals(client) ? "drop-copy" : "order-entry");
        }
    }

    @BeforeAll
    static void noClients()
    {
        alice = null;
        bob = null;
    }

    @AfterAll
    static void closeClients()
    {
        for (final FixTestClient client : new FixTestClient[] { alice, bob })
        {
            if (null != client)
            {
                client.close();
            }
        }
    }

    private FixTestClient alice()
    {
        if (null == alice)
        {
            alice = new FixTestClient(acceptor.port(), "ALICE", "WARPBUS", dir.resolve("fix-clients"), "alice",
                "alice-pw").start().awaitLogon();
        }
        return alice;
    }

    private FixTestClient bob()
    {
        if (null == bob)
        {
            bob = new FixTestClient(acceptor.port(), "BOB", "WARPBUS", dir.resolve("fix-clients"), "bob", "bob-pw")
                .start().awaitLogon();
        }
        return bob;
    }

    @Test
    void shouldAcceptReplaceAndCancelAnOrderWithFix44Fields()
    {
        final FixTestClient alice = alice();
        final String id = id("new");
        alice.send(order(id, GatewayFixtures.ALICE_ACCOUNT, Side.BUY, "99.00", "10"));
        final Message accepted = alice.await(report(id, '0'), "the order accepted");
        assertEquals("0", field(accepted, 39), accepted.toString());
        assertEquals("101", field(accepted, 1));
        assertEquals("ACME", field(accepted, 55));
        assertEquals("1", field(accepted, 54));
        assertEquals("2", field(accepted, 40));
        assertEquals("99.00", field(accepted, 44));
        assertEquals("10", field(accepted, 38));
        assertEquals("0", field(accepted, 14));
        assertEquals("10", field(accepted, 151));
        assertEquals("0", field(accepted, 6));
        assertNotEquals("NONE", field(accepted, 37));
        assertNotNull(field(accepted, 17));
        assertNotNull(field(accepted, 60));

        final String replaceId = id("replace");
        final OrderCancelReplaceRequest replace = new OrderCancelReplaceRequest(new OrigClOrdID(id),
            new ClOrdID(replaceId), new Side(Side.BUY), new TransactTime(LocalDateTime.now()),
            new OrdType(OrdType.LIMIT));
        replace.setString(55, "ACME");
        replace.setString(44, "98.50");
        replace.setString(38, "30");
        alice.send(replace);
        final Message replaced = alice.await(report(replaceId, '5'), "the order replaced");
        assertEquals(id, field(replaced, 41), replaced.toString());
        assertEquals("0", field(replaced, 39));
        assertEquals("98.50", field(replaced, 44));
        assertEquals("30", field(replaced, 38));
        assertEquals("30", field(replaced, 151));
        assertEquals(field(accepted, 37), field(replaced, 37), "the same order");

        final String cancelId = id("cancel");
        final OrderCancelRequest cancel = new OrderCancelRequest(new OrigClOrdID(replaceId), new ClOrdID(cancelId),
            new Side(Side.BUY), new TransactTime(LocalDateTime.now()));
        cancel.setString(55, "ACME");
        alice.send(cancel);
        final Message cancelled = alice.await(report(cancelId, '4'), "the order cancelled");
        assertEquals(replaceId, field(cancelled, 41), cancelled.toString());
        assertEquals("4", field(cancelled, 39));
        assertEquals("0", field(cancelled, 151));
        assertEquals("0", field(cancelled, 14));

        final String again = id("cancel-again");
        final OrderCancelRequest late = new OrderCancelRequest(new OrigClOrdID(cancelId), new ClOrdID(again),
            new Side(Side.BUY), new TransactTime(LocalDateTime.now()));
        late.setString(55, "ACME");
        alice.send(late);
        final Message refused = alice.await((m) -> MsgType.ORDER_CANCEL_REJECT.equals(FixTestClient.msgType(m)) &&
            again.equals(field(m, 11)), "the cancel of a cancelled order refused");
        assertEquals(cancelId, field(refused, 41), refused.toString());
        assertEquals("1", field(refused, 434));
        assertEquals("1", field(refused, 102));
        assertEquals(RejectReason.UNKNOWN_ORDER.text(), field(refused, 58));
    }

    @Test
    void shouldFillAgainstAnotherSessionsOrderAndReportBothSides()
    {
        final FixTestClient alice = alice();
        final FixTestClient bob = bob();
        final String sell = id("sell");
        alice.send(order(sell, GatewayFixtures.ALICE_ACCOUNT, Side.SELL, "101.00", "50"));
        alice.await(report(sell, '0'), "alice's sell accepted");
        final String buy = id("buy");
        bob.send(order(buy, GatewayFixtures.BOB_ACCOUNT, Side.BUY, "101.00", "20"));
        final Message bobFill = bob.await(report(buy, 'F'), "bob's fill");
        assertEquals("2", field(bobFill, 39), bobFill.toString());
        assertEquals("101.00", field(bobFill, 31));
        assertEquals("20", field(bobFill, 32));
        assertEquals("20", field(bobFill, 14));
        assertEquals("0", field(bobFill, 151));
        assertEquals("101", field(bobFill, 6));
        final Message aliceFill = alice.await(report(sell, 'F'), "alice's fill");
        assertEquals("1", field(aliceFill, 39), aliceFill.toString());
        assertEquals("101.00", field(aliceFill, 31));
        assertEquals("20", field(aliceFill, 32));
        assertEquals("20", field(aliceFill, 14));
        assertEquals("30", field(aliceFill, 151));
        assertEquals("2", field(aliceFill, 54));
        assertNotEquals(field(aliceFill, 17), field(bobFill, 17), "each fill has its own ExecID");
        for (final Message message : alice.received())
        {
            if (MsgType.EXECUTION_REPORT.equals(FixTestClient.msgType(message)))
            {
                assertNotEquals(buy, field(message, 11), "only alice's own orders: " + message);
            }
        }
        final String cancelId = id("cancel");
        final OrderCancelRequest cancel = new OrderCancelRequest(new OrigClOrdID(sell), new ClOrdID(cancelId),
            new Side(Side.SELL), new TransactTime(LocalDateTime.now()));
        cancel.setString(55, "ACME");
        alice.send(cancel);
        final Message cancelled = alice.await(report(cancelId, '4'), "the rest cancelled");
        assertEquals("20", field(cancelled, 14), cancelled.toString());
        assertEquals("0", field(cancelled, 151));
    }

    @Test
    void shouldCopyTheFillsOfAWebSocketSessionsOrdersToTheUsersDropCopy()
    {
        final FixTestClient bob = bob();
        try (FixTestClient drop = new FixTestClient(acceptor.port(), "DROP", "WARPBUS", dir.resolve("fix-clients"),
            "alice", "alice-pw").start().awaitLogon(); TestClient ws = client())
        {
            final long copies = counters.value(GatewayCounterDescriptor.DROP_COPIES);
            ws.logon("alice", "alice-pw");
            final String sell = id("ws-sell");
            ws.request(OrderEntryTest.order(sell, GatewayFixtures.ALICE_SECOND_ACCOUNT, "sell", "101.50", 40),
                "executionReport");
            final String buy = id("drop-buy");
            bob.send(order(buy, GatewayFixtures.BOB_ACCOUNT, Side.BUY, "101.50", "40"));
            bob.await(report(buy, 'F'), "bob's fill");
            final Message copy = drop.await(report(sell, 'F'), "the drop copy of alice's fill");
            assertEquals("Y", field(copy, 797), copy.toString());
            assertEquals("102", field(copy, 1));
            assertEquals("2", field(copy, 39));
            assertEquals("101.50", field(copy, 31));
            assertEquals("40", field(copy, 32));
            assertEquals("40", field(copy, 14));
            assertEquals("0", field(copy, 151));
            assertEquals(1, drop.received().stream().filter(type(MsgType.EXECUTION_REPORT)).count(),
                "only the fill of alice's account, not her order's acceptance nor bob's fill: " + drop.received());
            assertEquals(copies + 1, counters.value(GatewayCounterDescriptor.DROP_COPIES));
        }
    }

    @Test
    void shouldRefuseWhatTheGatewayRulesForbidWithTheReasonInText()
    {
        final FixTestClient alice = alice();
        assertRejected(alice, order(id("acct"), GatewayFixtures.BOB_ACCOUNT, Side.BUY, "99.50", "10"),
            RejectReason.NOT_ENTITLED);
        assertRejected(alice, order(id("tick"), GatewayFixtures.ALICE_ACCOUNT, Side.BUY, "99.03", "10"),
            RejectReason.PRICE_OFF_TICK_GRID);
        assertRejected(alice, order(id("lot"), GatewayFixtures.ALICE_ACCOUNT, Side.BUY, "99.00", "15"),
            RejectReason.QUANTITY_OFF_LOT_SIZE);
        assertRejected(alice, order(id("zero"), GatewayFixtures.ALICE_ACCOUNT, Side.BUY, "99.00", "0"),
            RejectReason.INVALID_QUANTITY);
        final Message unknown = order(id("unknown"), GatewayFixtures.ALICE_ACCOUNT, Side.BUY, "1.00", "10");
        unknown.setString(55, "NOPE");
        assertEquals("1", field(assertRejected(alice, unknown, RejectReason.UNKNOWN_INSTRUMENT), 103));

        final String live = id("dup");
        alice.send(order(live, GatewayFixtures.ALICE_ACCOUNT, Side.BUY, "90.00", "10"));
        alice.await(report(live, '0'), "the first order");
        final int from = alice.size();
        alice.send(order(live, GatewayFixtures.ALICE_ACCOUNT, Side.BUY, "90.00", "10"));
        final Message duplicate = alice.await(from, report(live, '8'), "the duplicate refused");
        assertEquals(RejectReason.DUPLICATE_CLIENT_ORDER_ID.text(), field(duplicate, 58), duplicate.toString());
        assertEquals("6", field(duplicate, 103));
        assertTrue(counters.value(GatewayCounterDescriptor.GATEWAY_REJECTS) >= 6);
    }

    @Test
    void shouldAnswerAMalformedMessageWithASessionReject()
    {
        final FixTestClient alice = alice();
        final long before = fixMetrics.sessionRejects();
        final Message noSide = order(id("noside"), GatewayFixtures.ALICE_ACCOUNT, Side.BUY, "99.00", "10");
        noSide.removeField(54);
        final int from = alice.size();
        alice.send(noSide);
        final Message reject = alice.await(from, type(MsgType.REJECT), "a session-level Reject");
        assertEquals("54", field(reject, 371), reject.toString());
        assertEquals("1", field(reject, 373), "Required tag missing: " + reject);
        assertTrue(alice.isLoggedOn(), "the session stays up");
        Await.until("the Reject counted", FixTestClient.TIMEOUT_MS, () ->
        {
        }, () -> fixMetrics.sessionRejects() > before);
    }

    @Test
    void shouldRefuseOrdersOnAMarketDataSessionWithABusinessReject()
    {
        try (FixTestClient md = new FixTestClient(acceptor.port(), "MD", "WARPBUS", dir.resolve("fix-clients"),
            "alice", "alice-pw").start().awaitLogon())
        {
            final String id = id("md");
            md.send(order(id, GatewayFixtures.ALICE_ACCOUNT, Side.BUY, "99.00", "10"));
            final Message reject = md.await(type(MsgType.BUSINESS_MESSAGE_REJECT), "a BusinessMessageReject");
            assertEquals("D", field(reject, 372), reject.toString());
            assertEquals(id, field(reject, 379));
            assertEquals("3", field(reject, 380));
            assertEquals("this is a market-data session: orders go on an order-entry session", field(reject, 58));
        }
    }

    @Test
    void shouldListInstrumentsAndStreamABookSnapshotThenIncrementsAndTrades() throws quickfix.FieldNotFound
    {
        final FixTestClient alice = alice();
        final FixTestClient bob = bob();
        try (FixTestClient md = new FixTestClient(acceptor.port(), "MD", "WARPBUS", dir.resolve("fix-clients"),
            "alice", "alice-pw").start().awaitLogon())
        {
            final quickfix.fix44.SecurityListRequest listRequest = new quickfix.fix44.SecurityListRequest(
                new quickfix.field.SecurityReqID("sec-1"), new quickfix.field.SecurityListRequestType(4));
            md.send(listRequest);
            final Message list = md.await(type(MsgType.SECURITY_LIST), "the SecurityList");
            assertEquals("sec-1", field(list, 320), list.toString());
            assertEquals("0", field(list, 560));
            assertEquals(2, list.getGroupCount(146), list.toString());
            final quickfix.Group acme = list.getGroup(1, 146);
            assertEquals("ACME", acme.getString(55), list.toString());
            assertEquals("tick 0.05", acme.getString(107));
            assertEquals("10", acme.getString(561));

            md.send(marketDataRequest("md-1", '1', "ACME"));
            final Message snapshot = md.await(type(MsgType.MARKET_DATA_SNAPSHOT_FULL_REFRESH), "the ACME book");
            assertEquals("md-1", field(snapshot, 262), snapshot.toString());
            assertEquals("ACME", field(snapshot, 55));

            final String buy = id("md-buy");
            int from = md.size();
            alice.send(order(buy, GatewayFixtures.ALICE_ACCOUNT, Side.BUY, "97.35", "20"));
            final Message added = md.await(from, incremental('1', '0', "97.35"), "the new bid level");
            assertEquals("20", entry(added, '1', '0', "97.35").getString(271), added.toString());
            assertEquals("1", entry(added, '1', '0', "97.35").getString(346));

            from = md.size();
            final String sell = id("md-sell");
            bob.send(order(sell, GatewayFixtures.BOB_ACCOUNT, Side.SELL, "97.35", "20"));
            final Message trade = md.await(from, incremental('0', '2', "97.35"), "the trade");
            assertEquals("20", entry(trade, '0', '2', "97.35").getString(271), trade.toString());
            md.await(from, incremental('2', '0', "97.35"), "the bid level gone");

            final int before = md.size();
            md.send(marketDataRequest("md-2", '1', "NOPE"));
            final Message reject = md.await(before, type(MsgType.MARKET_DATA_REQUEST_REJECT), "the unknown symbol");
            assertEquals("md-2", field(reject, 262), reject.toString());
            assertEquals("0", field(reject, 281));
            assertTrue(field(reject, 58).contains("NOPE"), reject.toString());
        }
        final int from = alice.size();
        alice.send(marketDataRequest("md-3", '1', "ACME"));
        final Message refused = alice.await(from, type(MsgType.BUSINESS_MESSAGE_REJECT), "V on an order session");
        assertEquals("V", field(refused, 372), refused.toString());
        assertEquals("this is a order-entry session: market data goes on a market-data session", field(refused, 58));
    }

    /**
     * A MarketDataRequest (V) for bids, offers and trades of one symbol, all levels.
     */
    static Message marketDataRequest(final String id, final char type, final String symbol)
    {
        final quickfix.fix44.MarketDataRequest request = new quickfix.fix44.MarketDataRequest(
            new quickfix.field.MDReqID(id), new quickfix.field.SubscriptionRequestType(type),
            new quickfix.field.MarketDepth(0));
        for (final char entryType : new char[] { '0', '1', '2' })
        {
            final quickfix.fix44.MarketDataRequest.NoMDEntryTypes types =
                new quickfix.fix44.MarketDataRequest.NoMDEntryTypes();
            types.setChar(269, entryType);
            request.addGroup(types);
        }
        final quickfix.fix44.MarketDataRequest.NoRelatedSym related =
            new quickfix.fix44.MarketDataRequest.NoRelatedSym();
        related.setString(55, symbol);
        request.addGroup(related);
        return request;
    }

    private static java.util.function.Predicate<Message> incremental(final char action, final char entryType,
        final String price)
    {
        return (message) -> MsgType.MARKET_DATA_INCREMENTAL_REFRESH.equals(FixTestClient.msgType(message)) &&
            null != entry(message, action, entryType, price);
    }

    private static quickfix.Group entry(final Message message, final char action, final char entryType,
        final String price)
    {
        try
        {
            for (int i = 1; i <= message.getGroupCount(268); i++)
            {
                final quickfix.Group group = message.getGroup(i, 268);
                if (action == group.getChar(279) && entryType == group.getChar(269) &&
                    price.equals(group.getString(270)))
                {
                    return group;
                }
            }
            return null;
        }
        catch (final quickfix.FieldNotFound ex)
        {
            return null;
        }
    }

    @Test
    void shouldRateLimitAUsersOrders()
    {
        try (FixTestClient carol = new FixTestClient(acceptor.port(), "CAROL", "WARPBUS", dir.resolve("fix-clients"),
            "carol", "carol-pw").start().awaitLogon())
        {
            final long before = counters.value(GatewayCounterDescriptor.RATE_LIMIT_REJECTS);
            for (int i = 0; i < 20; i++)
            {
                carol.send(order(id("rate"), GatewayFixtures.CAROL_ACCOUNT, Side.BUY, "10.00", "10"));
            }
            Await.until("an answer to every order", FixTestClient.TIMEOUT_MS, () ->
            {
            }, () -> 20 == carol.received().stream().filter(type(MsgType.EXECUTION_REPORT)).count());
            long limited = 0;
            for (final Message report : carol.received())
            {
                if (RejectReason.RATE_LIMITED.text().equals(field(report, 58)))
                {
                    limited++;
                    assertEquals("8", field(report, 150), report.toString());
                }
            }
            assertTrue(limited >= 10, "carol may send 5 at once and 5 a second: " + limited + " of 20 limited");
            assertEquals(limited, counters.value(GatewayCounterDescriptor.RATE_LIMIT_REJECTS) - before);
        }
    }

    @Test
    void shouldResendWhatTheClientMissedWhenItFindsAGap() throws Exception
    {
        final FixTestClient alice = alice();
        final String first = id("gap");
        alice.send(order(first, GatewayFixtures.ALICE_ACCOUNT, Side.BUY, "95.00", "10"));
        final Message missed = alice.await(report(first, '0'), "the first report");
        final int missedSeq = missed.getHeader().getInt(34);
        // The client forgets it had that report: the next message from the gateway shows it a gap.
        alice.session().setNextTargetMsgSeqNum(missedSeq);
        final int from = alice.size();
        final String second = id("gap");
        alice.send(order(second, GatewayFixtures.ALICE_ACCOUNT, Side.BUY, "95.00", "10"));
        final Message resent = alice.await(from, (m) -> report(first, '0').test(m) &&
            "Y".equals(header(m, 43)), "the missed report resent as a possible duplicate");
        assertEquals(missedSeq, resent.getHeader().getInt(34), resent.toString());
        assertEquals(field(missed, 17), field(resent, 17), "the same ExecID");
        alice.await(from, report(second, '0'), "the second report");
        assertTrue(alice.isLoggedOn());
    }

    /**
     * Mutations of a good NewOrderSingle, each bad in one field, chosen at random with a printed seed: every one gets
     * the answer its kind calls for, with a Text naming what was wrong.
     */
    @Test
    void shouldAnswerEveryBadFieldValueWithTheRightRejectAndReason()
    {
        final FixTestClient alice = alice();
        final long seed = System.nanoTime();
        final Random random = new Random(seed);
        for (int i = 0; i < 30; i++)
        {
            final String id = id("mut");
            final Message order = order(id, GatewayFixtures.ALICE_ACCOUNT, Side.BUY, "95.00", "10");
            final int kind = random.nextInt(9);
            final String context = "seed " + seed + " case " + i + " kind " + kind + ": ";
            final int from = alice.size();
            switch (kind)
            {
                case 0:
                {
                    final char side = "35678ABCG".charAt(random.nextInt(9));
                    order.setChar(54, side);
                    alice.send(order);
                    assertBusinessReject(alice, from, id, "Side(54) must be 1 (buy) or 2 (sell), not " + side,
                        context);
                    break;
                }
                case 1:
                {
                    final int cents = 1 + random.nextInt(4);
                    order.setString(44, "95.0" + cents);
                    alice.send(order);
                    assertReport(alice, from, id, RejectReason.PRICE_OFF_TICK_GRID, context);
                    break;
                }
                case 2:
                    order.setString(38, random.nextBoolean() ? "0" : "-" + (10 * (1 + random.nextInt(1000))));
                    alice.send(order);
                    assertReport(alice, from, id, RejectReason.INVALID_QUANTITY, context);
                    break;
                case 3:
                    order.setString(38, (10_010 + 10 * random.nextInt(1_000_000)) + "");
                    alice.send(order);
                    assertReport(alice, from, id, RejectReason.QUANTITY_OUTSIDE_LIMITS, context);
                    break;
                case 4:
                {
                    final String huge = "1" + "0".repeat(16 + random.nextInt(5)) + (random.nextBoolean() ? "" : "5");
                    order.setString(38, huge);
                    alice.send(order);
                    assertBusinessReject(alice, from, id, "OrderQty(38) " + huge + " is out of range: at most " +
                        "1000000000000000", context);
                    break;
                }
                case 5:
                {
                    final int tag = new int[] { 11, 54, 40, 55, 60 }[random.nextInt(5)];
                    order.removeField(tag);
                    alice.send(order);
                    final Message reject = alice.await(from, type(MsgType.REJECT), context + "a Reject");
                    assertEquals(Integer.toString(tag), field(reject, 371), context + reject);
                    assertEquals("1", field(reject, 373), context + reject);
                    assertNotNull(field(reject, 58), context + reject);
                    break;
                }
                case 6:
                    order.removeField(38);
                    alice.send(order);
                    assertBusinessReject(alice, from, id, "OrderQty(38) is required", context);
                    break;
                case 7:
                    order.removeField(1);
                    alice.send(order);
                    assertBusinessReject(alice, from, id, "Account(1) is required: the account the order is for, " +
                        "one the user is entitled to", context);
                    break;
                default:
                    order.removeField(44);
                    alice.send(order);
                    assertBusinessReject(alice, from, id, "Price(44) is required on a limit order (OrdType(40)=2)",
                        context);
                    break;
            }
        }
        assertTrue(alice.isLoggedOn(), "bad values do not end the session");
    }

    private static void assertBusinessReject(final FixTestClient client, final int from, final String id,
        final String text, final String context)
    {
        final Message reject = client.await(from, type(MsgType.BUSINESS_MESSAGE_REJECT), context + "a j for " + id);
        assertEquals(id, field(reject, 379), context + reject);
        assertEquals("D", field(reject, 372), context + reject);
        assertEquals(text, field(reject, 58), context + reject);
    }

    private static void assertReport(final FixTestClient client, final int from, final String id,
        final RejectReason reason, final String context)
    {
        final Message report = client.await(from, report(id, '8'), context + "a rejection of " + id);
        assertEquals(reason.text(), field(report, 58), context + report);
        assertEquals("8", field(report, 39), context + report);
    }

    private static Message assertRejected(final FixTestClient client, final Message order, final RejectReason reason)
    {
        final String id = field(order, 11);
        final int from = client.size();
        client.send(order);
        final Message report = client.await(from, report(id, '8'), "the rejection of " + id);
        assertEquals(reason.text(), field(report, 58), report.toString());
        assertEquals("8", field(report, 39), report.toString());
        assertEquals("0", field(report, 151));
        return report;
    }

    static Message order(final String clOrdId, final long account, final char side, final String price,
        final String quantity)
    {
        final NewOrderSingle order = new NewOrderSingle(new ClOrdID(clOrdId), new Side(side),
            new TransactTime(LocalDateTime.now()), new OrdType(OrdType.LIMIT));
        order.setString(1, Long.toString(account));
        order.setString(55, "ACME");
        order.setString(44, price);
        order.setString(38, quantity);
        return order;
    }

    private static synchronized String id(final String what)
    {
        return "fix-" + what + "-" + ++nextOrder;
    }

    private static String header(final Message message, final int tag)
    {
        try
        {
            return message.getHeader().getString(tag);
        }
        catch (final quickfix.FieldNotFound ex)
        {
            return null;
        }
    }

    static List<Message> reports(final FixTestClient client)
    {
        return client.received().stream().filter(type(MsgType.EXECUTION_REPORT)).toList();
    }
}
