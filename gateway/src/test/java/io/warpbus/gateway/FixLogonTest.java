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

import io.warpbus.gateway.fix.FixAcceptor;
import io.warpbus.gateway.fix.FixMetrics;
import io.warpbus.gateway.session.GatewayCounterDescriptor;
import io.warpbus.gateway.session.GatewayCounters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import quickfix.Message;
import quickfix.field.MsgType;

import static io.warpbus.gateway.FixTestClient.field;
import static io.warpbus.gateway.FixTestClient.type;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * FIX logons against the gateway's credentials, from real QuickFIX/J initiators: a good one, and every refusal as a
 * Logout (5) whose Text (58) gives the reason (no password, wrong password, unknown user), a logon on CompIDs the
 * gateway does not know dropped without an answer, and the throttle that the failures feed (shared with the
 * WebSocket logons): one class, as the failures throttle the loopback address for the rest of the gateway's life.
 */
@SpringBootTest(classes = GatewayApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@Timeout(120)
class FixLogonTest extends GatewayTestBase
{
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
        FixOrderEntryTest.fixSessions(registry);
    }

    @Test
    void shouldLogOnAndRefuseBadLogonsWithTheReasonThenThrottleThem() throws InterruptedException
    {
        assertTrue(acceptor.port() > 0, "the acceptor listens on a port of its own");
        try (FixTestClient alice = client("ALICE", "alice", "alice-pw").start().awaitLogon())
        {
            final Message logon = alice.await(type(MsgType.LOGON), "the gateway's Logon");
            assertEquals("30", field(logon, 108), logon.toString());
            assertEquals(1, fixMetrics.logons());
            assertEquals(Boolean.TRUE, acceptor.sessions().get("FIX.4.4:WARPBUS->ALICE"), acceptor.sessions()
                .toString());
        }

        try (FixTestClient eve = client("EVE", "alice", "alice-pw").start())
        {
            Thread.sleep(2_000);
            assertFalse(eve.isLoggedOn(), "CompIDs the gateway does not know");
            assertTrue(eve.received().isEmpty(), "no answer to an unknown session: " + eve.received());
        }

        final long badPasswords = counters.value(GatewayCounterDescriptor.LOGON_FAILED_BAD_PASSWORD);
        final long unknownUsers = counters.value(GatewayCounterDescriptor.LOGON_FAILED_UNKNOWN_USER);
        assertEquals("a logon needs Username(553) and Password(554)", refusal("BOB", "bob", null));
        assertEquals("unknown user or wrong password", refusal("BOB", "bob", "not-bobs"));
        assertTrue(counters.value(GatewayCounterDescriptor.LOGON_FAILED_BAD_PASSWORD) > badPasswords);
        assertEquals("unknown user or wrong password", refusal("CAROL", "mallory", "whatever"));
        assertTrue(counters.value(GatewayCounterDescriptor.LOGON_FAILED_UNKNOWN_USER) > unknownUsers);
        assertTrue(fixMetrics.logonFailures() >= 3);

        final long throttled = counters.value(GatewayCounterDescriptor.LOGONS_THROTTLED);
        String reason = "";
        for (int i = 0; i < 8 && !reason.startsWith("throttled"); i++)
        {
            reason = refusal("BOB", "bob", "still-not-bobs");
        }
        assertTrue(reason.startsWith("throttled: too many failed logons, retry in "), reason);
        assertTrue(refusal("ALICE", "alice", "alice-pw").startsWith("throttled"),
            "the address is throttled, good password or not");
        assertTrue(counters.value(GatewayCounterDescriptor.LOGONS_THROTTLED) > throttled);
    }

    private String refusal(final String compId, final String userName, final String password)
    {
        try (FixTestClient client = client(compId, userName, password).start())
        {
            final Message logout = client.await(type(MsgType.LOGOUT), "a Logout refusing " + userName);
            assertFalse(client.received().stream().anyMatch(type(MsgType.LOGON)), "never logged on: " +
                client.received());
            return field(logout, 58);
        }
    }

    private FixTestClient client(final String compId, final String userName, final String password)
    {
        return new FixTestClient(acceptor.port(), compId, "WARPBUS", dir.resolve("fix-logon-clients"), userName,
            password);
    }
}
