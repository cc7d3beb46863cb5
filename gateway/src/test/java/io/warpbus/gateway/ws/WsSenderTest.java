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

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;

import io.warpbus.gateway.security.Authenticator;
import io.warpbus.gateway.security.AuthenticatorFixtures;
import io.warpbus.gateway.security.CredentialStore;
import io.warpbus.gateway.session.Connection;
import io.warpbus.gateway.session.ConnectionTable;
import io.warpbus.gateway.session.CoreStandIn;
import io.warpbus.gateway.session.EventDescriptor;
import io.warpbus.gateway.session.EventText;
import io.warpbus.gateway.session.GatewayCounters;
import io.warpbus.gateway.session.InstrumentRegistry;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static io.warpbus.gateway.security.AuthenticatorFixtures.bcrypt;
import static io.warpbus.gateway.security.AuthenticatorFixtures.credentials;
import static io.warpbus.gateway.security.AuthenticatorFixtures.writeCredentials;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sender tells the logon throttle the session core's answer to a logon, under the name the logon was checked
 * under, even when the client left before the answer could be sent: the refusal still counts, the acceptance still
 * forgives. Driven on the test's thread, with the connection slots the core would fill.
 */
@Timeout(60)
class WsSenderTest
{
    private static final int MAX_FAILURES = 2;

    @TempDir
    Path dir;
    private GatewayCounters counters;
    private ConnectionTable connections;
    private Authenticator authenticator;
    private WsSender sender;

    @BeforeEach
    void setUp()
    {
        final CredentialStore credentials = credentials(writeCredentials(dir,
            "{\"users\":[{\"name\":\"carol\",\"password\":\"" + bcrypt("carol-pw") + "\",\"accounts\":[301]}]}"));
        counters = new GatewayCounters(dir.resolve("counters"));
        connections = new ConnectionTable(2, 64 * 1024);
        authenticator = AuthenticatorFixtures.authenticator(
            credentials, MAX_FAILURES, counters, AuthenticatorFixtures.clock());
        sender = new WsSender(connections, new OutboundEvents(new JsonEventEncoder(
            new InstrumentRegistry(1_000, Map.of(), new HashSet<>()), credentials.directory()), authenticator));
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.quietCloseAll(connections, counters);
    }

    @Test
    void shouldCountARefusalOfTheCoreWhoseClientLeftBeforeItWasSent()
    {
        for (int i = 1; i <= MAX_FAILURES; i++)
        {
            final Connection slot = answeredAndGone("192.0.2." + i, "carol", EventDescriptor.LOGON_REJECTED);
            sender.doWork();
            assertEquals(Connection.FREE, slot.state(), "the slot is given back");
        }
        final Authenticator.Outcome outcome = authenticator.password("carol", "carol-pw", "192.0.2.99");
        assertTrue(null != outcome.failure() && outcome.failure().startsWith("throttled"),
            "two refusals counted under carol, from two other addresses: " + outcome);
    }

    @Test
    void shouldForgiveTheNameOfALogonTheCoreAcceptedThoughItsClientLeft()
    {
        assertEquals("unknown user or wrong password", authenticator.password("carol", "guess-1", "192.0.2.1")
            .failure());
        assertTrue(authenticator.password("carol", "carol-pw", "192.0.2.2").succeeded());
        answeredAndGone("192.0.2.2", "carol", EventDescriptor.LOGON_ACCEPTED);
        sender.doWork();

        assertEquals("unknown user or wrong password", authenticator.password("carol", "guess-2", "192.0.2.3")
            .failure());
        final Authenticator.Outcome outcome = authenticator.password("carol", "carol-pw", "192.0.2.4");
        assertTrue(outcome.succeeded(), "the failure before the accepted logon was forgiven: " + outcome);
    }

    /**
     * A connection whose logon the core answered, as it queues the answer and a close, and whose client went away
     * before the sender sent either; the core has taken its {@code CLOSED}.
     */
    private Connection answeredAndGone(final String host, final String logonName, final int answer)
    {
        final WsConnection socket = new WsConnection(null, null, host, 40_000);
        final Connection slot = connections.acquire(GatewayWebSocketHandler.ADAPTER_ID, socket);
        socket.connection(slot);
        socket.logonName(logonName);
        final UnsafeBuffer event = new UnsafeBuffer(new byte[EventDescriptor.REASON_LENGTH]);
        if (EventDescriptor.LOGON_REJECTED == answer)
        {
            EventText.put(event, EventDescriptor.REASON_TEXT_OFFSET, "user blocked by an operator");
        }
        assertTrue(slot.outbound().write(answer, event, 0, EventDescriptor.LOGON_REJECTED == answer ?
            EventDescriptor.REASON_LENGTH : EventDescriptor.LOGON_ACCEPTED_LENGTH));
        EventText.put(event, EventDescriptor.REASON_TEXT_OFFSET, "logon refused");
        assertTrue(slot.outbound().write(EventDescriptor.CLOSE, event, 0, EventDescriptor.REASON_LENGTH));
        socket.closed();
        CoreStandIn.retire(slot);
        return slot;
    }
}
