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
import java.util.ArrayList;
import java.util.List;

import io.warpbus.gateway.security.AuthenticatorFixtures;
import io.warpbus.matching.Instrument;
import io.warpbus.matching.RiskLimits;

import static io.warpbus.gateway.security.AuthenticatorFixtures.bcrypt;

/**
 * What the gateway's tests share: the instruments and accounts of the engine they run against, the users of the
 * credentials file they write, and free loopback ports.
 */
final class GatewayFixtures
{
    /** ACME: tick 0.05, lot 10, reference 100.00, a wide band. */
    static final Instrument ACME = new Instrument(1, "ACME", 5, 10, 2, 2000, 10_000);
    /** BETA: tick 0.01, lot 1, reference 50.00. */
    static final Instrument BETA = new Instrument(2, "BETA", 1, 1, 2, 2000, 5_000);
    static final long ALICE_ACCOUNT = 101;
    static final long ALICE_SECOND_ACCOUNT = 102;
    static final long BOB_ACCOUNT = 201;
    static final long CAROL_ACCOUNT = 301;
    static final long ADMIN_ACCOUNT = 401;
    static final long VIEWER_ACCOUNT = 701;
    static final long[] ACCOUNTS = { ALICE_ACCOUNT, ALICE_SECOND_ACCOUNT, BOB_ACCOUNT, CAROL_ACCOUNT, ADMIN_ACCOUNT,
        VIEWER_ACCOUNT };
    static final RiskLimits LIMITS = new RiskLimits(1_000_000_000L, Long.MAX_VALUE / 4, Long.MAX_VALUE / 4);
    static final String BOB_KEY = AuthenticatorFixtures.BOB_KEY;
    static final byte[] BOB_SECRET = AuthenticatorFixtures.BOB_SECRET;

    private GatewayFixtures()
    {
    }

    static Instrument[] instruments()
    {
        return new Instrument[] { ACME, BETA };
    }

    /**
     * A credentials file: alice and carol trade with passwords, bob with an API key (and a password), admin has
     * the admin role, carol sees only ACME's market data; vera is a viewer of ACME with an account of her own but
     * without the trader role; mode 600.
     */
    static Path writeCredentials(final Path dir)
    {
        final List<String> users = new ArrayList<>();
        users.add(user("alice", bcrypt("alice-pw"), "[" + ALICE_ACCOUNT + "," + ALICE_SECOND_ACCOUNT + "]",
            "[\"trader\"]", "[\"*\"]", ""));
        users.add(user("bob", bcrypt("bob-pw"), "[" + BOB_ACCOUNT + "]", "[\"trader\"]", "[\"*\"]",
            ",\"apiKeys\":[" + AuthenticatorFixtures.bobApiKey() + "]"));
        users.add(user("carol", bcrypt("carol-pw"), "[" + CAROL_ACCOUNT + "]", "[\"trader\"]",
            "[\"ACME\"]", ",\"ordersPerSecond\":5,\"orderBurst\":5"));
        users.add(user("admin", bcrypt("admin-pw"), "[" + ADMIN_ACCOUNT + "]", "[\"admin\",\"trader\"]",
            "[\"*\"]", ""));
        users.add(user("vera", bcrypt("vera-pw"), "[" + VIEWER_ACCOUNT + "]", "[\"viewer\"]", "[\"ACME\"]",
            ""));
        return AuthenticatorFixtures.writeCredentials(dir, "{\"users\":[" + String.join(",", users) + "]}");
    }

    private static String user(final String name, final String password, final String accounts, final String roles,
        final String marketData, final String extra)
    {
        return "{\"name\":\"" + name + "\",\"password\":\"" + password + "\",\"accounts\":" + accounts +
            ",\"roles\":" + roles + ",\"marketData\":" + marketData + extra + "}";
    }

    static String channel(final int port, final int stream)
    {
        return "warp:iwarp?endpoint=127.0.0.1:" + port + "|stream=" + stream;
    }
}
