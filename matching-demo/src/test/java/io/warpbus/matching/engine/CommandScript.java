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

import io.warpbus.matching.CommandHandler;
import io.warpbus.matching.OrderType;
import io.warpbus.matching.Side;
import io.warpbus.matching.TimeInForce;

/**
 * Parses one command line of a test script and calls the engine with it.
 * <pre>
 *   new c1 a1 [i2] BUY LIMIT GTC 100 10      client order id, account, instrument (default 1), price, quantity
 *   cancel c1 a1 [i2]
 *   replace c1 a1 [i2] 101 5                 new price, new total quantity
 * </pre>
 * {@code -} for the side, type or time in force passes null.
 */
final class CommandScript
{
    private CommandScript()
    {
    }

    static void run(final String line, final CommandHandler handler, final long timestampNs)
    {
        final String[] words = line.trim().split("\\s+");
        final long clientOrderId = Long.parseLong(prefixed(words[1], "c"));
        final int accountId = Integer.parseInt(prefixed(words[2], "a"));
        int next = 3;
        int instrumentId = 1;
        if (words.length > next && words[next].startsWith("i"))
        {
            instrumentId = Integer.parseInt(words[next].substring(1));
            next++;
        }

        switch (words[0])
        {
            case "new":
                handler.newOrder(
                    clientOrderId, accountId, instrumentId,
                    "-".equals(words[next]) ? null : Side.valueOf(words[next]),
                    "-".equals(words[next + 1]) ? null : OrderType.valueOf(words[next + 1]),
                    "-".equals(words[next + 2]) ? null : TimeInForce.valueOf(words[next + 2]),
                    Long.parseLong(words[next + 3]),
                    Long.parseLong(words[next + 4]),
                    timestampNs);
                break;
            case "cancel":
                handler.cancel(clientOrderId, accountId, instrumentId, timestampNs);
                break;
            case "replace":
                handler.replace(
                    clientOrderId, accountId, instrumentId, Long.parseLong(words[next]),
                    Long.parseLong(words[next + 1]), timestampNs);
                break;
            default:
                throw new IllegalArgumentException("unknown command: " + line);
        }
    }

    private static String prefixed(final String word, final String prefix)
    {
        if (!word.startsWith(prefix))
        {
            throw new IllegalArgumentException("expected " + prefix + "<n>, got " + word);
        }

        return word.substring(prefix.length());
    }
}
