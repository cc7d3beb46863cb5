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

import io.warpbus.gateway.security.CredentialStore;
import io.warpbus.gateway.session.GatewayCounterDescriptor;
import io.warpbus.gateway.session.GatewayCounters;
import io.warpbus.gateway.session.User;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Repeated failed logons from one address throttle it: further logons are refused without their credentials being
 * checked, even correct ones, until the window has passed; throttled logons are counted. Logons the session core
 * refuses after their credentials passed (a blocked user, a refused resume) count as failures. Each test leaves the
 * window passed for the next.
 */
@SpringBootTest(classes = GatewayApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@Timeout(60)
class LogonThrottleTest extends GatewayTestBase
{
    @Autowired
    GatewayCounters counters;

    @Autowired
    CredentialStore credentials;

    @DynamicPropertySource
    static void properties(final DynamicPropertyRegistry registry)
    {
        gatewayProperties(registry);
        registry.add("warpbus.gateway.logon.max-failures", () -> "3");
        registry.add("warpbus.gateway.logon.failure-window", () -> "2s");
    }

    @Test
    void shouldThrottleAfterRepeatedFailuresAndAdmitAgainAfterTheWindow() throws InterruptedException
    {
        final long throttled = counters.value(GatewayCounterDescriptor.LOGONS_THROTTLED);
        for (int i = 0; i < 3; i++)
        {
            try (TestClient client = client())
            {
                assertEquals("unknown user or wrong password", client.logon("alice", "guess-" + i).path("reason")
                    .asString());
            }
        }
        try (TestClient client = client())
        {
            final JsonNode refused = client.logon("alice", "alice-pw");
            assertEquals("logonRejected", refused.path("type").asString(), refused.toString());
            assertTrue(refused.path("reason").asString().startsWith("throttled: too many failed logons"),
                refused.toString());
        }
        try (TestClient client = client())
        {
            final JsonNode refused = client.logonWithKey(GatewayFixtures.BOB_KEY, GatewayFixtures.BOB_SECRET,
                System.currentTimeMillis(), "nonce-throttled-000001");
            assertTrue(refused.path("reason").asString().startsWith("throttled"),
                "the address is throttled for every user: " + refused);
        }
        assertEquals(throttled + 2, counters.value(GatewayCounterDescriptor.LOGONS_THROTTLED));
        Thread.sleep(2_200);
        try (TestClient client = client())
        {
            assertEquals("logon", client.logon("alice", "alice-pw").path("type").asString(), "after the window");
        }
    }

    @Test
    void shouldCountLogonsTheSessionCoreRefusesAsFailures() throws InterruptedException
    {
        final User carol = credentials.directory().get("carol");
        carol.blocked(true);
        try
        {
            for (int i = 0; i < 2; i++)
            {
                try (TestClient client = client())
                {
                    assertEquals("user blocked by an operator", client.logon("carol", "carol-pw").path("reason")
                        .asString(), "credentials accepted, logon refused by the core");
                }
            }
        }
        finally
        {
            carol.blocked(false);
        }
        try (TestClient client = client())
        {
            client.send("{\"type\":\"logon\",\"username\":\"alice\",\"password\":\"alice-pw\",\"resume\":{" +
                "\"token\":\"" + "0".repeat(32) + "\",\"fromSeq\":1}}");
            assertEquals("cannot resume: unknown, ended or expired session",
                client.awaitType("logonRejected").path("reason").asString());
        }
        try (TestClient client = client())
        {
            final JsonNode refused = client.logon("carol", "carol-pw");
            assertTrue(refused.path("reason").asString().startsWith("throttled: too many failed logons"),
                "three refusals by the core throttle the address like three wrong passwords: " + refused);
        }
        Thread.sleep(2_200);
        try (TestClient client = client())
        {
            assertEquals("logon", client.logon("carol", "carol-pw").path("type").asString(), "after the window");
        }
    }
}
