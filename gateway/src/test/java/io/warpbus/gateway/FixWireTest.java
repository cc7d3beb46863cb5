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
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

import io.warpbus.gateway.fix.FixAcceptor;
import io.warpbus.gateway.session.GatewayCounterDescriptor;
import io.warpbus.gateway.session.GatewayCounters;
import io.warpbus.matching.book.OrderBook;
import io.warpbus.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import quickfix.Message;
import quickfix.field.MsgType;

import static io.warpbus.gateway.FixTestClient.type;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The FIX acceptor on the wire, with a client on a plain socket ({@link RawFixClient}) that sends what QuickFIX/J's
 * own initiator never would, and reads only when it wants to:
 * <ul>
 *   <li>garbled messages (a bad CheckSum, a BodyLength that does not end at the CheckSum) are ignored, as the FIX
 *   session protocol says: no answer, the session stays up, and the MsgSeqNum they carried is still expected (the
 *   next good message with it is processed; one after it shows a gap and gets a ResendRequest);</li>
 *   <li>a message missing a required tag gets a session-level Reject (3) naming the tag;</li>
 *   <li>a market-data session that stops reading while the book moves fast is conflated like a WebSocket one: when
 *   it reads again it finds a fresh full book (W) and the gateway's conflated-updates counter has moved, while a
 *   market-data session that keeps reading got every update.</li>
 * </ul>
 */
@SpringBootTest(classes = GatewayApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@Timeout(180)
class FixWireTest extends GatewayTestBase
{
    private static final long QUIET_MS = 1_000;
    private static final int FLOOD_ORDERS = 4_000;

    @Autowired
    FixAcceptor acceptor;

    @Autowired
    GatewayCounters counters;

    @DynamicPropertySource
    static void properties(final DynamicPropertyRegistry registry)
    {
        gatewayProperties(registry);
        floodProperties(registry);
        registry.add("warpbus.gateway.sessions.socket-send-buffer", () -> "8192");
        registry.add("warpbus.gateway.sessions.max-open-orders", () -> "10000");
        registry.add("warpbus.gateway.fix.port", () -> "0");
        registry.add("warpbus.gateway.fix.address", () -> "127.0.0.1");
        final String[][] sessions = { { "RAW", "order-entry" }, { "SLOW", "market-data" }, { "FAST", "market-data" } };
        for (int i = 0; i < sessions.length; i++)
        {
            final String[] session = sessions[i];
            registry.add("warpbus.gateway.fix.sessions[" + i + "].sender-comp-id", () -> session[0]);
            registry.add("warpbus.gateway.fix.sessions[" + i + "].type", () -> session[1]);
        }
    }

    @Test
    void shouldIgnoreGarbledMessagesAndRejectOneMissingARequiredTag()
    {
        try (RawFixClient raw = new RawFixClient(acceptor.port(), "RAW", "WARPBUS", 0))
        {
            raw.logon("alice", "alice-pw", 30);

            // A bad CheckSum: dropped unanswered; its MsgSeqNum is still the one expected.
            final int checkSumSeq = raw.nextSeq();
            raw.send(RawFixClient.frame(raw.next("1", checkSumSeq, "112=bad-checksum"), 0, 1));
            assertNull(raw.read(QUIET_MS), "a message with a bad CheckSum is not answered");
            raw.sendGood("1", "112=after-checksum");
            final RawFixClient.Fix heartbeat = raw.read(FixTestClient.TIMEOUT_MS);
            assertEquals("0", null == heartbeat ? null : heartbeat.type(), "the TestRequest with the same " +
                "MsgSeqNum answered: " + heartbeat);
            assertEquals("after-checksum", heartbeat.get(112), heartbeat.toString());

            // A BodyLength short of the CheckSum: dropped too; the next number after it shows the gap.
            final int lengthSeq = raw.nextSeq();
            raw.send(RawFixClient.frame(raw.next("1", lengthSeq, "112=bad-length"), -5, 0));
            assertNull(raw.read(QUIET_MS), "a message with a bad BodyLength is not answered");
            raw.send(RawFixClient.frame(raw.next("1", lengthSeq + 1, "112=after-gap"), 0, 0));
            final RawFixClient.Fix resend = raw.read(FixTestClient.TIMEOUT_MS);
            assertEquals("2", null == resend ? null : resend.type(), "a ResendRequest for the gap: " + resend);
            assertEquals(String.valueOf(lengthSeq), resend.get(7), "BeginSeqNo: the dropped message's " + resend);
            // Filled with a gap fill up to the message that showed the gap, which is then processed.
            raw.send(RawFixClient.frame(raw.next("4", lengthSeq, "43=Y|122=" + RawFixClient.time(-1_000) +
                "|123=Y|36=" + (lengthSeq + 1)), 0, 0));
            raw.nextSeq(lengthSeq + 2);
            final RawFixClient.Fix afterGap = raw.readUntil((m) -> "0".equals(m.type()) && null != m.get(112),
                "the Heartbeat answering the TestRequest after the gap");
            assertEquals("after-gap", afterGap.get(112), afterGap.toString());

            // Side (54) missing: a session-level Reject naming the tag; the session goes on.
            final int orderSeq = raw.nextSeq();
            raw.sendGood("D", "1=" + GatewayFixtures.ALICE_ACCOUNT + "|11=raw-no-side|38=10|40=2|44=99.00|55=ACME|" +
                "60=" + RawFixClient.time(0));
            final RawFixClient.Fix reject = raw.readUntil((m) -> "3".equals(m.type()), "a session-level Reject");
            assertEquals(String.valueOf(orderSeq), reject.get(45), reject.toString());
            assertEquals("54", reject.get(371), reject.toString());
            assertEquals("D", reject.get(372), reject.toString());
            assertEquals("1", reject.get(373), "SessionRejectReason 1, required tag missing: " + reject);
            assertTrue(reject.get(58).startsWith("Required tag missing"), reject.toString());
            raw.sendGood("1", "112=still-up");
            assertEquals("still-up", raw.readUntil((m) -> "0".equals(m.type()) && null != m.get(112),
                "the Heartbeat after the Reject").get(112));
        }
    }

    @Test
    void shouldConflateASlowMarketDataSessionWithoutDelayingTheOthers()
    {
        try (RawFixClient slow = new RawFixClient(acceptor.port(), "SLOW", "WARPBUS", 4096);
            FixTestClient fast = new FixTestClient(acceptor.port(), "FAST", "WARPBUS", dir.resolve("fix-wire"),
                "alice", "alice-pw").start().awaitLogon();
            TestClient bob = client())
        {
            slow.logon("alice", "alice-pw", 30);
            slow.sendGood("V", "262=slow-1|263=1|264=0|146=1|55=ACME|267=3|269=0|269=1|269=2");
            slow.readUntil((m) -> "W".equals(m.type()), "the slow session's first book");
            fast.send(FixOrderEntryTest.marketDataRequest("fast-1", '1', "ACME"));
            fast.await(type(MsgType.MARKET_DATA_SNAPSHOT_FULL_REFRESH), "the fast session's first book");
            bob.logon("bob", "bob-pw");
            final long conflatedBefore = counters.value(GatewayCounterDescriptor.CONFLATED_UPDATES);

            // The slow session reads nothing now: its socket fills, then QuickFIX/J's writes, then its queue.
            final int sent = MarketDataTest.flood(bob, FLOOD_ORDERS, "fix-slow",
                () -> counters.value(GatewayCounterDescriptor.CONFLATED_UPDATES) > conflatedBefore);
            assertTrue(sent < FLOOD_ORDERS, "conflated after " + sent + " orders");

            final RawFixClient.Fix conflated = slow.readUntil((m) -> "W".equals(m.type()),
                "a fresh full book after the backlog");
            assertEquals("slow-1", conflated.get(262), conflated.toString());
            final List<RawFixClient.Fix> since = new ArrayList<>();
            since.add(conflated);
            final OrderBook book = engine().service().engine().book(GatewayFixtures.ACME.id());
            final String[] last = { "", "", "" };
            Await.until(() -> "both sessions' books to be the engine's:\n  slow   " + last[0] + "\n  fast   " +
                last[1] + "\n  engine " + last[2], FixTestClient.TIMEOUT_MS, () ->
                {
                    for (int i = 0; i < 10_000; i++)
                    {
                        final RawFixClient.Fix message = slow.read(20);
                        if (null == message)
                        {
                            break;
                        }
                        since.add(message);
                    }
                }, () ->
                {
                    last[0] = rebuild(since);
                    last[1] = FixBookRebuildTest.rebuild(fast.received());
                    last[2] = FixBookRebuildTest.levels(book);
                    return last[0].equals(last[2]) && last[1].equals(last[2]);
                });
            assertTrue(counters.value(GatewayCounterDescriptor.CONFLATED_UPDATES) > conflatedBefore);
            final List<Message> fastMessages = fast.received();
            assertEquals(1, fastMessages.stream().filter(type(MsgType.MARKET_DATA_SNAPSHOT_FULL_REFRESH)).count(),
                "the fast session was never conflated");
            final long increments = fastMessages.stream().filter(type(MsgType.MARKET_DATA_INCREMENTAL_REFRESH))
                .count();
            assertTrue(increments >= sent, "an increment per order for the fast session: " + increments + " for " +
                sent + " orders");
        }
    }

    /**
     * The book from a raw session's messages: the W first, then each X's entries change or delete levels (trades
     * leave it as it is), in the text {@link FixBookRebuildTest#levels} gives the engine's book.
     */
    private static String rebuild(final List<RawFixClient.Fix> messages)
    {
        final TreeMap<Long, String> bids = new TreeMap<>();
        final TreeMap<Long, String> offers = new TreeMap<>();
        for (final RawFixClient.Fix message : messages)
        {
            final boolean snapshot = "W".equals(message.type());
            if (!snapshot && !"X".equals(message.type()))
            {
                continue;
            }
            if (snapshot)
            {
                bids.clear();
                offers.clear();
            }
            String action = snapshot ? "0" : null;
            String entryType = null;
            String price = null;
            String size = null;
            for (final String[] field : message.ordered())
            {
                if ("279".equals(field[0]))
                {
                    action = field[1];
                }
                else if ("269".equals(field[0]))
                {
                    entryType = field[1];
                }
                else if ("270".equals(field[0]))
                {
                    price = field[1];
                }
                else if ("271".equals(field[0]))
                {
                    size = field[1];
                }
                else if ("346".equals(field[0]))
                {
                    // The last field of a level's entry (trades carry none).
                    final TreeMap<Long, String> side = "0".equals(entryType) ? bids : offers;
                    final long units = new BigDecimal(price).movePointRight(2).longValueExact();
                    if ("2".equals(action))
                    {
                        side.remove(units);
                    }
                    else
                    {
                        side.put(units, size + "/" + field[1]);
                    }
                }
            }
        }
        return FixBookRebuildTest.text(bids, offers);
    }
}
