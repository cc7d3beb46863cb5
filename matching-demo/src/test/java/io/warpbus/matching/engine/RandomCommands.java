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
package io.warpbus.matching.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A seeded stream of adversarial commands in {@link CommandScript} syntax over the {@link TestEngines} setup: prices
 * clustered around the reference so that most orders cross, every order type and time in force, cancels and
 * replaces of recent (often already done) orders, the same few accounts so self-trades are common, the tight
 * account for risk rejections, and now and then something malformed.
 */
final class RandomCommands
{
    private static final int RECENT_IDS = 12;

    private final SplittableRandom random;
    private final List<List<Long>> recentIds = new ArrayList<>();
    private long lastClientOrderId;

    RandomCommands(final long seed)
    {
        random = new SplittableRandom(seed);
        for (int i = 0; i < 10; i++)
        {
            recentIds.add(new ArrayList<>());
        }
    }

    String next()
    {
        final int account = account();
        final int instrument = instrument();
        final int roll = random.nextInt(100);
        if (roll < 15)
        {
            return "cancel c" + existingId(account) + " a" + account + " i" + instrument;
        }
        if (roll < 29)
        {
            return "replace c" + existingId(account) + " a" + account + " i" + instrument + " " + price(instrument) +
                " " + quantity(instrument);
        }

        final String typeAndTimeInForce = typeAndTimeInForce();
        final String side = 0 == random.nextInt(150) ? "-" : random.nextBoolean() ? "BUY" : "SELL";
        return "new c" + newId(account) + " a" + account + " i" + instrument + " " + side + " " + typeAndTimeInForce +
            " " + price(instrument) + " " + quantity(instrument);
    }

    private int account()
    {
        final int roll = random.nextInt(100);
        if (roll < 1)
        {
            return 5;
        }
        if (roll < 10)
        {
            return TestEngines.TIGHT_ACCOUNT;
        }

        return 1 + random.nextInt(4);
    }

    private int instrument()
    {
        final int roll = random.nextInt(100);
        if (roll < 1)
        {
            return 7;
        }

        return roll < 70 ? 1 : 2;
    }

    private String typeAndTimeInForce()
    {
        final int roll = random.nextInt(100);
        if (roll < 45)
        {
            return "LIMIT GTC";
        }
        if (roll < 60)
        {
            return "LIMIT IOC";
        }
        if (roll < 68)
        {
            return "LIMIT FOK";
        }
        if (roll < 76)
        {
            return "MARKET IOC";
        }
        if (roll < 80)
        {
            return "MARKET FOK";
        }
        if (roll < 97)
        {
            return "POST_ONLY GTC";
        }
        if (roll < 98)
        {
            return "MARKET GTC";
        }

        return 0 == random.nextInt(2) ? "- GTC" : "LIMIT -";
    }

    private long price(final int instrument)
    {
        final int roll = random.nextInt(100);
        if (2 == instrument)
        {
            final long price = 1_000 + 5 * (random.nextInt(9) - 4);
            return roll < 3 ? price + 1 + random.nextInt(4) : roll < 5 ? 1_000 + 5 * (20 - random.nextInt(40)) : price;
        }
        if (roll < 2)
        {
            return roll < 1 ? 0 : 85 + random.nextInt(30);
        }

        return 100 + random.nextInt(9) - 4;
    }

    private long quantity(final int instrument)
    {
        final int roll = random.nextInt(200);
        if (roll < 2)
        {
            return roll - 1;
        }
        if (2 == instrument)
        {
            return roll < 6 ? 10 * (1 + random.nextInt(5)) + 3 : 10 * (1 + random.nextInt(6));
        }

        return 1 + random.nextInt(20);
    }

    private long newId(final int account)
    {
        final List<Long> recent = recentIds.get(account);
        if (!recent.isEmpty() && random.nextInt(100) < 4)
        {
            return recent.get(random.nextInt(recent.size()));
        }

        final long id = ++lastClientOrderId;
        recent.add(id);
        if (recent.size() > RECENT_IDS)
        {
            recent.remove(0);
        }

        return id;
    }

    private long existingId(final int account)
    {
        final List<Long> recent = recentIds.get(account);
        if (recent.isEmpty() || random.nextInt(100) < 3)
        {
            return 1_000_000 + random.nextInt(10);
        }

        return recent.get(random.nextInt(recent.size()));
    }
}
