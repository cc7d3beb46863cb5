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

import java.util.SplittableRandom;

import io.warpbus.matching.CommandHandler;
import io.warpbus.matching.Instrument;
import io.warpbus.matching.OrderType;
import io.warpbus.matching.Side;
import io.warpbus.matching.TimeInForce;

/**
 * Synthetic traders producing order-entry commands into a {@link CommandHandler}: market makers quoting both sides a
 * few ticks around a wandering mid, cancelling and moving their quotes, and takers crossing the spread with market
 * or IOC orders. Deterministic: a {@link LoadProfile} and its seed give the same commands every time, so one stream
 * can drive the engine, a demo and a peer such as exchange-core alike.
 * <p>
 * Call {@link #prefill(CommandHandler)} first, untimed, so the books have depth: from an empty book an exact mix of
 * as many cancels as quotes keeps every book nearly empty. Then {@link #next(CommandHandler)} follows the profile's
 * weights exactly, interleaved by smooth weighted round robin; only a cancel or replace drawn when no instrument has
 * a tracked quote becomes a quote instead, and {@link #commandCount(CommandKind)} counts what was actually sent.
 * <p>
 * Makers track their quotes without knowing about fills, so some cancels and replaces name orders that have already
 * traded and are rejected, as they would be in a real market. A driver that sees execution reports can call
 * {@link #onOrderDone(long)} to keep the tracking exact; fills then also thin the books, so raise the limit weight
 * above the cancel weight to keep their depth.
 * <p>
 * Nothing is allocated per command. Timestamps are spaced at the profile's rate; pacing in real time is the
 * caller's business ({@link #nextTimestampNs()} gives the planned time of the next command).
 */
public final class LoadGenerator
{
    private static final CommandKind[] KINDS = CommandKind.values();

    private final LoadProfile profile;
    private final SplittableRandom random;
    private final int[] instrumentIds;
    private final long[] tickSizes;
    private final long[] lotSizes;
    private final long[] referencePrices;
    private final long[] midPrices;
    private final int[] weights = new int[KINDS.length];
    private final int[] currentWeights = new int[KINDS.length];
    private final long[] kindCounts = new long[KINDS.length];
    private final int totalWeight;
    private final int makers;
    private final int takers;
    private final TrackedQuotes quotes;
    private long lastClientOrderId;
    private long commandCount;

    /**
     * Make a generator at the start of its stream.
     *
     * @param profile what to generate, concluded here.
     */
    public LoadGenerator(final LoadProfile profile)
    {
        this.profile = profile.conclude();
        this.random = new SplittableRandom(profile.seed());

        final Instrument[] instruments = profile.instruments();
        instrumentIds = new int[instruments.length];
        tickSizes = new long[instruments.length];
        lotSizes = new long[instruments.length];
        referencePrices = new long[instruments.length];
        midPrices = new long[instruments.length];
        for (int i = 0; i < instruments.length; i++)
        {
            instrumentIds[i] = instruments[i].id();
            tickSizes[i] = instruments[i].tickSize();
            lotSizes[i] = instruments[i].lotSize();
            referencePrices[i] = instruments[i].referencePrice();
            midPrices[i] = instruments[i].referencePrice();
        }

        int total = 0;
        for (final CommandKind kind : KINDS)
        {
            weights[kind.ordinal()] = profile.weight(kind);
            total += profile.weight(kind);
        }
        totalWeight = total;

        makers = profile.marketMakers();
        takers = profile.takers();
        quotes = new TrackedQuotes(instruments.length, profile.quotesPerInstrument());
    }

    /**
     * The profile this generator follows.
     *
     * @return the concluded profile.
     */
    public LoadProfile profile()
    {
        return profile;
    }

    /**
     * Planned time of the next command, spaced at the profile's rate from its start time.
     *
     * @return nanoseconds.
     */
    public long nextTimestampNs()
    {
        return profile.startTimestampNs() + commandCount * 1_000_000_000L / profile.commandsPerSecond();
    }

    /**
     * Commands produced so far.
     *
     * @return the count.
     */
    public long commandCount()
    {
        return commandCount;
    }

    /**
     * Commands of one kind produced so far.
     *
     * @param kind of command.
     * @return the count.
     */
    public long commandCount(final CommandKind kind)
    {
        return kindCounts[kind.ordinal()];
    }

    /**
     * Quotes the market makers currently believe they have in the books.
     *
     * @return the count.
     */
    public int trackedQuotes()
    {
        return quotes.size();
    }

    /**
     * Place the profile's {@link LoadProfile#prefillQuotesPerInstrument()} quotes in every instrument, bids and asks
     * alternately, so the books have depth before the mix starts. Not counted by {@link #commandCount(CommandKind)}.
     *
     * @param handler receives the quotes.
     * @return how many quotes were placed.
     */
    public int prefill(final CommandHandler handler)
    {
        int placed = 0;
        for (int instrument = 0; instrument < instrumentIds.length; instrument++)
        {
            for (int i = 0; i < profile.prefillQuotesPerInstrument(); i++)
            {
                quote(handler, nextTimestampNs(), instrument, 0 == (i & 1) ? Side.BUY : Side.SELL);
                commandCount++;
                placed++;
            }
        }

        return placed;
    }

    /**
     * Produce several commands.
     *
     * @param handler receives them.
     * @param count   how many.
     */
    public void generate(final CommandHandler handler, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            next(handler);
        }
    }

    /**
     * Produce one command.
     *
     * @param handler receives it.
     * @return what kind it was.
     */
    public CommandKind next(final CommandHandler handler)
    {
        final long timestampNs = nextTimestampNs();
        CommandKind kind = nextKind();
        final boolean sent;
        switch (kind)
        {
            case MARKET:
                take(handler, timestampNs);
                sent = true;
                break;
            case CANCEL:
                sent = cancel(handler, timestampNs);
                break;
            case REPLACE:
                sent = replace(handler, timestampNs);
                break;
            default:
                sent = false;
                break;
        }
        if (!sent)
        {
            kind = CommandKind.LIMIT;
            final int instrument = random.nextInt(instrumentIds.length);
            quote(handler, timestampNs, instrument, random.nextBoolean() ? Side.BUY : Side.SELL);
        }

        kindCounts[kind.ordinal()]++;
        commandCount++;

        return kind;
    }

    /**
     * Tell the generator an order is done (filled, cancelled or rejected) so its maker stops tracking it. Optional:
     * without it makers learn nothing and keep cancelling and replacing some orders that no longer exist.
     *
     * @param clientOrderId of the order.
     */
    public void onOrderDone(final long clientOrderId)
    {
        quotes.remove(clientOrderId);
    }

    private CommandKind nextKind()
    {
        int best = 0;
        for (int k = 0; k < KINDS.length; k++)
        {
            currentWeights[k] += weights[k];
            if (currentWeights[k] > currentWeights[best])
            {
                best = k;
            }
        }
        currentWeights[best] -= totalWeight;

        return KINDS[best];
    }

    private void quote(final CommandHandler handler, final long timestampNs, final int instrument, final Side side)
    {
        if (quotes.isFull(instrument))
        {
            quotes.remove(quotes.slot(instrument, random.nextInt(quotes.count(instrument))));
        }

        final int maker = random.nextInt(makers);
        final long price = quotePrice(instrument, side);
        final long quantity = quantity(instrument);
        final OrderType type = random.nextInt(100) < profile.postOnlyPercent() ? OrderType.POST_ONLY : OrderType.LIMIT;
        final long clientOrderId = ++lastClientOrderId;
        quotes.add(instrument, clientOrderId, maker, side);

        handler.newOrder(
            clientOrderId, makerAccountId(maker), instrumentIds[instrument], side, type, TimeInForce.GTC, price,
            quantity, timestampNs);
    }

    private void take(final CommandHandler handler, final long timestampNs)
    {
        final int taker = random.nextInt(takers);
        final int instrument = random.nextInt(instrumentIds.length);
        final Side side = random.nextBoolean() ? Side.BUY : Side.SELL;
        final long quantity = quantity(instrument);
        final long mid = moveMid(instrument);
        final long clientOrderId = ++lastClientOrderId;
        final int accountId = makers + 1 + taker;

        if (random.nextInt(100) < profile.takerIocPercent())
        {
            final long through = (profile.quoteLevels() / 2 + 1) * tickSizes[instrument];
            final long price = Side.BUY == side ? mid + through : mid - through;
            handler.newOrder(
                clientOrderId, accountId, instrumentIds[instrument], side, OrderType.LIMIT, TimeInForce.IOC, price,
                quantity, timestampNs);
        }
        else
        {
            handler.newOrder(
                clientOrderId, accountId, instrumentIds[instrument], side, OrderType.MARKET, TimeInForce.IOC, 0,
                quantity, timestampNs);
        }
    }

    private boolean cancel(final CommandHandler handler, final long timestampNs)
    {
        final int slot = randomQuote();
        if (TrackedQuotes.NONE == slot)
        {
            return false;
        }

        final long clientOrderId = quotes.clientOrderId(slot);
        final int accountId = makerAccountId(quotes.maker(slot));
        final int instrument = quotes.instrument(slot);
        quotes.remove(slot);
        handler.cancel(clientOrderId, accountId, instrumentIds[instrument], timestampNs);

        return true;
    }

    private boolean replace(final CommandHandler handler, final long timestampNs)
    {
        final int slot = randomQuote();
        if (TrackedQuotes.NONE == slot)
        {
            return false;
        }

        final int instrument = quotes.instrument(slot);
        final long price = quotePrice(instrument, quotes.side(slot));
        final long quantity = quantity(instrument);
        handler.replace(
            quotes.clientOrderId(slot), makerAccountId(quotes.maker(slot)), instrumentIds[instrument], price, quantity,
            timestampNs);

        return true;
    }

    /**
     * A random tracked quote of a random instrument that has one, or {@link TrackedQuotes#NONE}.
     */
    private int randomQuote()
    {
        final int instruments = instrumentIds.length;
        final int start = random.nextInt(instruments);
        for (int i = 0; i < instruments; i++)
        {
            final int instrument = (start + i) % instruments;
            final int count = quotes.count(instrument);
            if (count > 0)
            {
                return quotes.slot(instrument, random.nextInt(count));
            }
        }

        return TrackedQuotes.NONE;
    }

    private long quotePrice(final int instrument, final Side side)
    {
        final long mid = moveMid(instrument);
        final long offset = (1 + random.nextInt(profile.quoteLevels())) * tickSizes[instrument];
        return Side.BUY == side ? mid - offset : mid + offset;
    }

    private long quantity(final int instrument)
    {
        return (1 + random.nextInt(profile.maxQuantityLots())) * lotSizes[instrument];
    }

    /**
     * Random walk of the mid, one tick at a time, pulled back once it strays too far from the reference price.
     */
    private long moveMid(final int instrument)
    {
        final long tick = tickSizes[instrument];
        final long maxDeviation = profile.maxMidDeviationTicks() * tick;
        long mid = midPrices[instrument];
        if (random.nextInt(1000) < profile.midMovePerMille())
        {
            mid += random.nextBoolean() ? tick : -tick;
        }
        if (mid > referencePrices[instrument] + maxDeviation)
        {
            mid -= tick;
        }
        else if (mid < referencePrices[instrument] - maxDeviation)
        {
            mid += tick;
        }
        midPrices[instrument] = mid;

        return mid;
    }

    private static int makerAccountId(final int maker)
    {
        return maker + 1;
    }
}
