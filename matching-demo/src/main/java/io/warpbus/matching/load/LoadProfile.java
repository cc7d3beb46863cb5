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
package io.warpbus.matching.load;

import io.warpbus.matching.Instrument;
import io.warpbus.matching.RiskLimits;

/**
 * What a {@link LoadGenerator} produces: instruments, traders, rate, command mix and price behaviour. Fluent setters
 * share the name of their getter; {@link #conclude()} validates. Everything that shapes the stream is here, so a
 * profile and its seed reproduce a run exactly.
 * <p>
 * Instruments get ids 1 to {@link #instrumentCount()}, tick size 1, lot size 1, price scale 2, a 5% price band and
 * reference prices 100.00, 101.00, ... Market makers are accounts 1 to {@link #marketMakers()}, takers the next
 * {@link #takers()} ids; all get {@link #riskLimits()}.
 */
public final class LoadProfile
{
    /**
     * Price band of the generated instruments, in basis points.
     */
    public static final int PRICE_BAND_BPS = 500;

    /**
     * Reference price of the first generated instrument, in price units (100.00 at price scale 2).
     */
    public static final long FIRST_REFERENCE_PRICE = 10_000;

    private long seed = 1;
    private int instrumentCount = 1;
    private int marketMakers = 8;
    private int takers = 8;
    private long commandsPerSecond = 1_000_000;
    private long startTimestampNs;
    private int limitWeight = 35;
    private int marketWeight = 10;
    private int cancelWeight = 35;
    private int replaceWeight = 20;
    private int postOnlyPercent;
    private int takerIocPercent;
    private int quoteLevels = 8;
    private int maxMidDeviationTicks = 50;
    private int midMovePerMille = 20;
    private int maxQuantityLots = 10;
    private int quotesPerInstrument = 1024;
    private int prefillQuotesPerInstrument = 512;

    /**
     * The fixed benchmark mix: GTC limit 35%, market 10%, cancel 35%, replace 20%, on 1 or 10 (or any number of)
     * instruments; no post-only or IOC orders. Meant to run without feedback, so that the stream does not depend on
     * the engine and can drive a peer identically: after {@link LoadGenerator#prefill} the books then hold roughly
     * 60% of the tracked quotes, and about one command in five cancels or replaces a quote that has already traded
     * and is rejected.
     *
     * @param instrumentCount how many instruments to spread the load over.
     * @param seed            of the stream.
     * @return a new profile.
     */
    public static LoadProfile fixedMix(final int instrumentCount, final long seed)
    {
        return new LoadProfile().instrumentCount(instrumentCount).seed(seed);
    }

    /**
     * A livelier mix for demos, meant to be driven with {@link LoadGenerator#onOrderDone(long)} feedback: 30% of quotes
     * post-only, 40% of takers sending IOC limits instead of market orders, and limit 45%, market 10%, cancel 30%,
     * replace 15%, more quotes than cancels so that books keep their depth although fills also remove quotes.
     *
     * @param instrumentCount how many instruments to spread the load over.
     * @param seed            of the stream.
     * @return a new profile.
     */
    public static LoadProfile tradingDay(final int instrumentCount, final long seed)
    {
        return new LoadProfile().instrumentCount(instrumentCount).seed(seed).mix(45, 10, 30, 15).postOnlyPercent(30)
            .takerIocPercent(40);
    }

    /**
     * Check the profile.
     *
     * @return this.
     * @throws IllegalStateException if a value is out of range.
     */
    public LoadProfile conclude()
    {
        if (instrumentCount < 1 || marketMakers < 1 || takers < 1 || commandsPerSecond < 1 || quoteLevels < 1 ||
            maxMidDeviationTicks < 0 || maxQuantityLots < 1 || quotesPerInstrument < 1 || midMovePerMille < 0 ||
            midMovePerMille > 1000)
        {
            throw new IllegalStateException("counts, rate, levels, quantities and quotes must be positive, mid moves " +
                "0 to 1000 per mille");
        }
        if (prefillQuotesPerInstrument < 0 || prefillQuotesPerInstrument > quotesPerInstrument)
        {
            throw new IllegalStateException("prefill must be 0 to quotesPerInstrument: " + prefillQuotesPerInstrument);
        }
        if (limitWeight < 0 || marketWeight < 0 || cancelWeight < 0 || replaceWeight < 0 ||
            limitWeight + marketWeight + cancelWeight + replaceWeight <= 0)
        {
            throw new IllegalStateException("weights must not be negative and must not all be 0");
        }
        if (postOnlyPercent < 0 || postOnlyPercent > 100 || takerIocPercent < 0 || takerIocPercent > 100)
        {
            throw new IllegalStateException("percentages must be 0 to 100");
        }

        return this;
    }

    /**
     * The instruments this profile trades, to define in the engine.
     *
     * @return new definitions, ids 1 to {@link #instrumentCount()}.
     */
    public Instrument[] instruments()
    {
        final Instrument[] instruments = new Instrument[instrumentCount];
        for (int i = 0; i < instrumentCount; i++)
        {
            instruments[i] = new Instrument(
                i + 1, "LOAD" + (i + 1), 1, 1, 2, PRICE_BAND_BPS, FIRST_REFERENCE_PRICE + 100L * i);
        }

        return instruments;
    }

    /**
     * Every account the profile's traders use, market makers first.
     *
     * @return new array of account ids.
     */
    public int[] accountIds()
    {
        final int[] ids = new int[marketMakers + takers];
        for (int i = 0; i < ids.length; i++)
        {
            ids[i] = i + 1;
        }

        return ids;
    }

    /**
     * Limits wide enough that the generated traders never hit them.
     *
     * @return limits for every account.
     */
    public RiskLimits riskLimits()
    {
        return new RiskLimits(1_000_000_000L, Long.MAX_VALUE / 4, Long.MAX_VALUE / 4);
    }

    /**
     * Seed of the random choices.
     *
     * @param seed any value.
     * @return this.
     */
    public LoadProfile seed(final long seed)
    {
        this.seed = seed;
        return this;
    }

    /**
     * Seed of the random choices.
     *
     * @return the seed.
     */
    public long seed()
    {
        return seed;
    }

    /**
     * Number of instruments.
     *
     * @param instrumentCount at least 1.
     * @return this.
     */
    public LoadProfile instrumentCount(final int instrumentCount)
    {
        this.instrumentCount = instrumentCount;
        return this;
    }

    /**
     * Number of instruments.
     *
     * @return the count.
     */
    public int instrumentCount()
    {
        return instrumentCount;
    }

    /**
     * Number of market-maker accounts.
     *
     * @param marketMakers at least 1.
     * @return this.
     */
    public LoadProfile marketMakers(final int marketMakers)
    {
        this.marketMakers = marketMakers;
        return this;
    }

    /**
     * Number of market-maker accounts.
     *
     * @return the count.
     */
    public int marketMakers()
    {
        return marketMakers;
    }

    /**
     * Number of taker accounts.
     *
     * @param takers at least 1.
     * @return this.
     */
    public LoadProfile takers(final int takers)
    {
        this.takers = takers;
        return this;
    }

    /**
     * Number of taker accounts.
     *
     * @return the count.
     */
    public int takers()
    {
        return takers;
    }

    /**
     * Rate the commands' timestamps are spaced at; pacing in real time is up to the caller.
     *
     * @param commandsPerSecond at least 1.
     * @return this.
     */
    public LoadProfile commandsPerSecond(final long commandsPerSecond)
    {
        this.commandsPerSecond = commandsPerSecond;
        return this;
    }

    /**
     * Rate the commands' timestamps are spaced at.
     *
     * @return commands per second.
     */
    public long commandsPerSecond()
    {
        return commandsPerSecond;
    }

    /**
     * Timestamp of the first command.
     *
     * @param startTimestampNs nanoseconds, any epoch.
     * @return this.
     */
    public LoadProfile startTimestampNs(final long startTimestampNs)
    {
        this.startTimestampNs = startTimestampNs;
        return this;
    }

    /**
     * Timestamp of the first command.
     *
     * @return nanoseconds.
     */
    public long startTimestampNs()
    {
        return startTimestampNs;
    }

    /**
     * Relative frequency of each kind of command; the generator keeps to it exactly over every run of
     * {@code limit + market + cancel + replace} commands.
     *
     * @param limit   weight of {@link CommandKind#LIMIT}.
     * @param market  weight of {@link CommandKind#MARKET}.
     * @param cancel  weight of {@link CommandKind#CANCEL}.
     * @param replace weight of {@link CommandKind#REPLACE}.
     * @return this.
     */
    public LoadProfile mix(final int limit, final int market, final int cancel, final int replace)
    {
        this.limitWeight = limit;
        this.marketWeight = market;
        this.cancelWeight = cancel;
        this.replaceWeight = replace;
        return this;
    }

    /**
     * Weight of a kind of command.
     *
     * @param kind of command.
     * @return its weight.
     */
    public int weight(final CommandKind kind)
    {
        switch (kind)
        {
            case LIMIT:
                return limitWeight;
            case MARKET:
                return marketWeight;
            case CANCEL:
                return cancelWeight;
            default:
                return replaceWeight;
        }
    }

    /**
     * Share of market makers' quotes sent post-only instead of plain GTC limit.
     *
     * @param postOnlyPercent 0 to 100.
     * @return this.
     */
    public LoadProfile postOnlyPercent(final int postOnlyPercent)
    {
        this.postOnlyPercent = postOnlyPercent;
        return this;
    }

    /**
     * Share of market makers' quotes sent post-only.
     *
     * @return the percentage.
     */
    public int postOnlyPercent()
    {
        return postOnlyPercent;
    }

    /**
     * Share of takers' orders sent as IOC limits a few ticks through the mid instead of market orders.
     *
     * @param takerIocPercent 0 to 100.
     * @return this.
     */
    public LoadProfile takerIocPercent(final int takerIocPercent)
    {
        this.takerIocPercent = takerIocPercent;
        return this;
    }

    /**
     * Share of takers' orders sent as IOC limits.
     *
     * @return the percentage.
     */
    public int takerIocPercent()
    {
        return takerIocPercent;
    }

    /**
     * How far from the mid quotes go: 1 to this many ticks.
     *
     * @param quoteLevels at least 1.
     * @return this.
     */
    public LoadProfile quoteLevels(final int quoteLevels)
    {
        this.quoteLevels = quoteLevels;
        return this;
    }

    /**
     * How far from the mid quotes go, in ticks.
     *
     * @return the number of levels.
     */
    public int quoteLevels()
    {
        return quoteLevels;
    }

    /**
     * How far the mid may wander from the reference price before it is pulled back.
     *
     * @param maxMidDeviationTicks in ticks.
     * @return this.
     */
    public LoadProfile maxMidDeviationTicks(final int maxMidDeviationTicks)
    {
        this.maxMidDeviationTicks = maxMidDeviationTicks;
        return this;
    }

    /**
     * How far the mid may wander from the reference price, in ticks.
     *
     * @return the deviation.
     */
    public int maxMidDeviationTicks()
    {
        return maxMidDeviationTicks;
    }

    /**
     * How restless the mid is: the chance, per quote or take, that it moves one tick (up or down alike), in
     * thousandths. Quotes a few ticks either side of a mid that moves fast keep crossing each other's stale quotes.
     *
     * @param midMovePerMille 0 to 1000.
     * @return this.
     */
    public LoadProfile midMovePerMille(final int midMovePerMille)
    {
        this.midMovePerMille = midMovePerMille;
        return this;
    }

    /**
     * Chance per quote or take that the mid moves one tick, in thousandths.
     *
     * @return the chance.
     */
    public int midMovePerMille()
    {
        return midMovePerMille;
    }

    /**
     * Largest order quantity, in lots; quantities are uniform from 1.
     *
     * @param maxQuantityLots at least 1.
     * @return this.
     */
    public LoadProfile maxQuantityLots(final int maxQuantityLots)
    {
        this.maxQuantityLots = maxQuantityLots;
        return this;
    }

    /**
     * Largest order quantity, in lots.
     *
     * @return the quantity.
     */
    public int maxQuantityLots()
    {
        return maxQuantityLots;
    }

    /**
     * Quotes the market makers keep track of per instrument; a new quote beyond it forgets a random old one, which
     * stays in the book.
     *
     * @param quotesPerInstrument at least 1.
     * @return this.
     */
    public LoadProfile quotesPerInstrument(final int quotesPerInstrument)
    {
        this.quotesPerInstrument = quotesPerInstrument;
        return this;
    }

    /**
     * Quotes the market makers keep track of per instrument.
     *
     * @return the count.
     */
    public int quotesPerInstrument()
    {
        return quotesPerInstrument;
    }

    /**
     * Quotes {@link LoadGenerator#prefill} places in each instrument before the mix starts, so that books have depth
     * from the first measured command. Half of {@link #quotesPerInstrument()} by default: with equal limit and cancel
     * weights the number of quotes then wanders around it, far from both bounds.
     *
     * @param prefillQuotesPerInstrument 0 to {@link #quotesPerInstrument()}.
     * @return this.
     */
    public LoadProfile prefillQuotesPerInstrument(final int prefillQuotesPerInstrument)
    {
        this.prefillQuotesPerInstrument = prefillQuotesPerInstrument;
        return this;
    }

    /**
     * Quotes placed per instrument before the mix starts.
     *
     * @return the count.
     */
    public int prefillQuotesPerInstrument()
    {
        return prefillQuotesPerInstrument;
    }
}
