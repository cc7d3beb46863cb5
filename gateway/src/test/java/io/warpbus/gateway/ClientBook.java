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

import java.util.Map;
import java.util.TreeMap;

import tools.jackson.databind.JsonNode;

/**
 * A client's L2 book of one instrument, built as a trading app would: a {@code book} message replaces it, each
 * {@code bookUpdate} changes levels (quantity 0: the level is gone), and the market-data sequence must go up by one
 * from update to update (a {@code book} may jump).
 */
final class ClientBook
{
    private final String instrument;
    private final TreeMap<String, long[]> bids = new TreeMap<>();
    private final TreeMap<String, long[]> asks = new TreeMap<>();
    private long mdSeq = -1;
    private int gaps;
    private int books;
    private int updates;

    ClientBook(final String instrument)
    {
        this.instrument = instrument;
    }

    /**
     * Apply a message if it is this instrument's book, update or trade.
     *
     * @param message any message.
     */
    void apply(final JsonNode message)
    {
        if (!instrument.equals(message.path("instrument").asString()))
        {
            return;
        }
        final String type = message.path("type").asString();
        final long seq = message.path("mdSeq").asLong();
        switch (type)
        {
            case "book":
                bids.clear();
                asks.clear();
                for (final JsonNode level : message.path("bids"))
                {
                    bids.put(level.path(0).asString(), new long[] { level.path(1).asLong(), level.path(2).asLong() });
                }
                for (final JsonNode level : message.path("asks"))
                {
                    asks.put(level.path(0).asString(), new long[] { level.path(1).asLong(), level.path(2).asLong() });
                }
                mdSeq = seq;
                books++;
                break;
            case "bookUpdate":
                checkSequence(seq);
                for (final JsonNode change : message.path("changes"))
                {
                    final Map<String, long[]> side = "buy".equals(change.path(0).asString()) ? bids : asks;
                    if (0 == change.path(2).asLong())
                    {
                        side.remove(change.path(1).asString());
                    }
                    else
                    {
                        side.put(change.path(1).asString(), new long[] { change.path(2).asLong(),
                            change.path(3).asLong() });
                    }
                }
                updates++;
                break;
            case "trade":
                checkSequence(seq);
                break;
            default:
                break;
        }
    }

    private void checkSequence(final long seq)
    {
        if (mdSeq >= 0 && seq != mdSeq + 1)
        {
            gaps++;
        }
        mdSeq = seq;
    }

    long mdSeq()
    {
        return mdSeq;
    }

    int gaps()
    {
        return gaps;
    }

    int books()
    {
        return books;
    }

    int updates()
    {
        return updates;
    }

    /**
     * The book as text, sides best first, for comparing two books.
     *
     * @return the levels.
     */
    String levels()
    {
        final StringBuilder text = new StringBuilder("bids");
        for (final Map.Entry<String, long[]> level : bids.descendingMap().entrySet())
        {
            text.append(' ').append(level.getKey()).append('x').append(level.getValue()[0]).append('/')
                .append(level.getValue()[1]);
        }
        text.append(" asks");
        for (final Map.Entry<String, long[]> level : asks.entrySet())
        {
            text.append(' ').append(level.getKey()).append('x').append(level.getValue()[0]).append('/')
                .append(level.getValue()[1]);
        }
        return text.toString();
    }
}
