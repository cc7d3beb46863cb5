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

import java.nio.file.Path;
import java.util.Map;

import io.warpbus.gateway.fix.FixAcceptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The main FIX order-entry flow with QuickFIX/J initiators each in a JVM of its own ({@link FixInitiatorMain},
 * driven through stdin and stdout), against the gateway and a real matching engine over the bus: a logon, an order
 * that rests, a fill against another session's order with both sides' reports, a replace and a cancel, an
 * entitlement reject (8), a missing required tag (3), a cancel of a cancelled order (9); and a refused logon with the
 * gateway's reason.
 */
@SpringBootTest(classes = GatewayApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@Timeout(180)
class FixChildJvmTest extends GatewayTestBase
{
    @Autowired
    FixAcceptor acceptor;

    @DynamicPropertySource
    static void properties(final DynamicPropertyRegistry registry)
    {
        gatewayProperties(registry);
        FixOrderEntryTest.fixSessions(registry);
    }

    @Test
    void shouldTradeThroughQuickFixInitiatorsInJvmsOfTheirOwn()
    {
        final Path store = dir.resolve("fix-child-store");
        try (ChildFixInitiator alice = ChildFixInitiator.start(acceptor.port(), "ALICE", store, "alice", "alice-pw");
            ChildFixInitiator bob = ChildFixInitiator.start(acceptor.port(), "BOB", store, "bob", "bob-pw"))
        {
            alice.awaitLine("logged-on"::equals, "alice's logon");
            bob.awaitLine("logged-on"::equals, "bob's logon");

            alice.command("D cj-1 " + GatewayFixtures.ALICE_ACCOUNT + " sell ACME 30 101.00");
            final Map<Integer, String> rests = alice.await("35", "8", "11", "cj-1", "150", "0");
            assertEquals("0", rests.get(39), rests.toString());
            assertEquals("30", rests.get(151), rests.toString());

            bob.command("D cj-2 " + GatewayFixtures.BOB_ACCOUNT + " buy ACME 20 101.00");
            final Map<Integer, String> bought = bob.await("35", "8", "11", "cj-2", "150", "F");
            assertEquals("2", bought.get(39), bought.toString());
            assertEquals("101.00", bought.get(31), bought.toString());
            assertEquals("20", bought.get(32), bought.toString());
            final Map<Integer, String> sold = alice.await("35", "8", "11", "cj-1", "150", "F");
            assertEquals("1", sold.get(39), "partly filled: " + sold);
            assertEquals("20", sold.get(14), sold.toString());
            assertEquals("10", sold.get(151), sold.toString());

            alice.command("G cj-3 cj-1 sell ACME 40 101.50");
            final Map<Integer, String> replaced = alice.await("35", "8", "11", "cj-3", "150", "5");
            assertEquals("cj-1", replaced.get(41), replaced.toString());
            assertEquals("101.50", replaced.get(44), replaced.toString());
            assertEquals("40", replaced.get(38), replaced.toString());

            alice.command("F cj-4 cj-3 sell ACME");
            final Map<Integer, String> cancelled = alice.await("35", "8", "11", "cj-4", "150", "4");
            assertEquals("cj-3", cancelled.get(41), cancelled.toString());
            assertEquals("4", cancelled.get(39), cancelled.toString());
            assertEquals("20", cancelled.get(14), cancelled.toString());
            assertEquals("0", cancelled.get(151), cancelled.toString());

            alice.command("D cj-5 " + GatewayFixtures.BOB_ACCOUNT + " buy ACME 10 99.00");
            final Map<Integer, String> refused = alice.await("35", "8", "11", "cj-5", "150", "8");
            assertTrue(refused.get(58).contains("not entitled"), refused.toString());

            alice.command("D- cj-6 " + GatewayFixtures.ALICE_ACCOUNT + " buy ACME 10 99.00 54");
            final Map<Integer, String> reject = alice.await("35", "3", "371", "54");
            assertEquals("1", reject.get(373), reject.toString());
            assertEquals("D", reject.get(372), reject.toString());

            alice.command("F cj-7 cj-4 sell ACME");
            final Map<Integer, String> cancelReject = alice.await("35", "9", "11", "cj-7");
            assertEquals("1", cancelReject.get(434), cancelReject.toString());
            assertEquals("8", cancelReject.get(39), "no such live order: " + cancelReject);

            alice.command("quit");
            assertEquals(0, alice.awaitExit(), alice.lines().toString());
            assertTrue(alice.lines().stream().noneMatch((line) -> line.startsWith("error")), alice.lines().toString());
        }
    }

    @Test
    void shouldBeRefusedWithTheGatewaysReason()
    {
        try (ChildFixInitiator wrong = ChildFixInitiator.start(acceptor.port(), "CAROL",
            dir.resolve("fix-child-refused"), "carol", "not-carols-password"))
        {
            final String refused = wrong.awaitLine((line) -> line.startsWith("logon-refused"), "the refusal");
            assertEquals("logon-refused unknown user or wrong password", refused);
            assertEquals(1, wrong.awaitExit(), wrong.lines().toString());
        }
    }
}
