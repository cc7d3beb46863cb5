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
package io.warpbus.bench.matching;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import exchange.core2.core.ExchangeApi;
import exchange.core2.core.ExchangeCore;
import exchange.core2.core.common.CoreSymbolSpecification;
import exchange.core2.core.common.CoreWaitStrategy;
import exchange.core2.core.common.MatcherEventType;
import exchange.core2.core.common.MatcherTradeEvent;
import exchange.core2.core.common.OrderAction;
import exchange.core2.core.common.SymbolType;
import exchange.core2.core.common.api.ApiAddUser;
import exchange.core2.core.common.api.binary.BatchAddSymbolsCommand;
import exchange.core2.core.common.cmd.OrderCommand;
import exchange.core2.core.common.cmd.OrderCommandType;
import exchange.core2.core.common.config.ExchangeConfiguration;
import exchange.core2.core.common.config.InitialStateConfiguration;
import exchange.core2.core.common.config.OrdersProcessingConfiguration;
import exchange.core2.core.common.config.PerformanceConfiguration;
import io.warpbus.matching.CommandHandler;
import io.warpbus.matching.Instrument;
import io.warpbus.matching.OrderType;
import io.warpbus.matching.Side;
import io.warpbus.matching.TimeInForce;
import io.warpbus.matching.load.LoadProfile;
import org.HdrHistogram.Histogram;

/**
 * exchange-core 0.5.3 in its best honest configuration for a two-core machine, fed through its non-blocking API
 * ({@link ExchangeApi#placeNewOrder(int, long, long, long, int, long, long, long, OrderAction,
 * exchange.core2.core.common.OrderType, int, long)} and friends, which publish straight into its Disruptor ring) and
 * observed in its results consumer, where a command arrives once its whole pipeline (grouping, risk R1, matching,
 * risk R2) is done.
 * <p>
 * Configuration: its own latency or throughput preset (order book {@code OrderBookDirectImpl}, ring of 2K or 64K,
 * groups of 256 or 4096 messages), cut to one matching engine and one risk engine (two cores), plain daemon threads
 * instead of its CPU-pinning thread factory (pinning six threads to two cores only hurts), risk processing off (its
 * fastest mode: ours does validation and pre-trade risk on every order), no journaling, and the wait strategy given
 * ({@code YIELDING} by default: {@code BUSY_SPIN} on two cores with five pipeline threads starves them).
 * <p>
 * Commands map one to one: GTC limit to GTC; market to IOC at the edge of the instrument's 5% band around its
 * reference price (the generator keeps prices well inside it); cancel to cancel; replace to move (exchange-core
 * amends the price only). Client order ids become exchange-core order ids, accounts its user ids.
 */
final class ExchangeCoreSystem implements MatchingSystem
{
    private final LoadProfile profile;
    private final boolean throughputPreset;
    private final CoreWaitStrategy waitStrategy;
    private final AtomicLong processed = new AtomicLong();
    private final Histogram latencies = new Histogram(60_000_000_000L, 3);
    private final long[] bandUp;
    private final long[] bandDown;
    private final int[] instrumentIndex;
    private long trades;
    private ExchangeCore core;
    private ExchangeApi api;

    ExchangeCoreSystem(final LoadProfile profile, final boolean throughputPreset, final CoreWaitStrategy waitStrategy)
    {
        this.profile = profile;
        this.throughputPreset = throughputPreset;
        this.waitStrategy = waitStrategy;
        final Instrument[] instruments = profile.instruments();
        bandUp = new long[instruments.length];
        bandDown = new long[instruments.length];
        int maxId = 0;
        for (final Instrument instrument : instruments)
        {
            maxId = Math.max(maxId, instrument.id());
        }
        instrumentIndex = new int[maxId + 1];
        for (int i = 0; i < instruments.length; i++)
        {
            final long band = instruments[i].bandWidth(instruments[i].referencePrice());
            bandUp[i] = instruments[i].referencePrice() + band;
            bandDown[i] = instruments[i].referencePrice() - band;
            instrumentIndex[instruments[i].id()] = i;
        }
    }

    @Override
    public String name()
    {
        return "exchange-core";
    }

    @Override
    public void start() throws Exception
    {
        final PerformanceConfiguration performance = (throughputPreset ?
            PerformanceConfiguration.throughputPerformanceBuilder() :
            PerformanceConfiguration.latencyPerformanceBuilder())
            .matchingEnginesNum(1)
            .riskEnginesNum(1)
            .threadFactory((runnable) ->
            {
                final Thread thread = new Thread(runnable, "exchange-core");
                thread.setDaemon(true);
                return thread;
            })
            .waitStrategy(waitStrategy)
            .build();
        final ExchangeConfiguration configuration = ExchangeConfiguration.defaultBuilder()
            .performanceCfg(performance)
            .ordersProcessingCfg(OrdersProcessingConfiguration.builder()
                .riskProcessingMode(OrdersProcessingConfiguration.RiskProcessingMode.NO_RISK_PROCESSING)
                .marginTradingMode(OrdersProcessingConfiguration.MarginTradingMode.MARGIN_TRADING_DISABLED)
                .build())
            .initStateCfg(InitialStateConfiguration.CLEAN_TEST)
            .build();
        core = ExchangeCore.builder().resultsConsumer(this::onResult).exchangeConfiguration(configuration).build();
        core.startup();
        api = core.getApi();

        final List<CoreSymbolSpecification> symbols = new ArrayList<>();
        for (final Instrument instrument : profile.instruments())
        {
            symbols.add(CoreSymbolSpecification.builder()
                .symbolId(instrument.id())
                .type(SymbolType.CURRENCY_EXCHANGE_PAIR)
                .baseCurrency(1)
                .quoteCurrency(2)
                .baseScaleK(1)
                .quoteScaleK(1)
                .takerFee(0)
                .makerFee(0)
                .build());
        }
        api.submitBinaryDataAsync(new BatchAddSymbolsCommand(symbols)).get(10, TimeUnit.SECONDS);
        for (final int accountId : profile.accountIds())
        {
            api.submitCommandAsync(ApiAddUser.builder().uid(accountId).build()).get(10, TimeUnit.SECONDS);
        }
        resetLatencies();
    }

    @Override
    public CommandHandler producer()
    {
        return producer;
    }

    @Override
    public long awaitProcessed(final long count) throws InterruptedException
    {
        while (processed.get() < count)
        {
            Thread.onSpinWait();
            if (Thread.interrupted())
            {
                throw new InterruptedException();
            }
        }
        return System.nanoTime();
    }

    @Override
    public Histogram latencies()
    {
        return latencies;
    }

    @Override
    public void resetLatencies()
    {
        // Called with nothing in flight: the results thread's last write to the histogram happened before its
        // write of the processed count that awaitProcessed read.
        latencies.reset();
    }

    @Override
    public void close()
    {
        if (null != core)
        {
            core.shutdown(10, TimeUnit.SECONDS);
        }
    }

    long trades()
    {
        return trades;
    }

    private void onResult(final OrderCommand command, final long sequence)
    {
        final OrderCommandType type = command.command;
        if (OrderCommandType.PLACE_ORDER != type && OrderCommandType.CANCEL_ORDER != type &&
            OrderCommandType.MOVE_ORDER != type)
        {
            return;
        }
        latencies.recordValue(Math.max(0, Math.min(60_000_000_000L, System.nanoTime() - command.timestamp)));
        for (MatcherTradeEvent event = command.matcherEvent; null != event; event = event.nextEvent)
        {
            if (MatcherEventType.TRADE == event.eventType)
            {
                trades++;
            }
        }
        processed.lazySet(processed.get() + 1);
    }

    private final CommandHandler producer = new CommandHandler()
    {
        @Override
        @SuppressWarnings("checkstyle:parameternumber")
        public void newOrder(
            final long clientOrderId,
            final int accountId,
            final int instrumentId,
            final Side side,
            final OrderType type,
            final TimeInForce timeInForce,
            final long price,
            final long quantity,
            final long timestampNs)
        {
            final OrderAction action = Side.BUY == side ? OrderAction.BID : OrderAction.ASK;
            final long limit;
            final exchange.core2.core.common.OrderType orderType;
            if (OrderType.MARKET == type)
            {
                final int index = instrumentIndex[instrumentId];
                limit = Side.BUY == side ? bandUp[index] : bandDown[index];
                orderType = exchange.core2.core.common.OrderType.IOC;
            }
            else
            {
                limit = price;
                orderType = TimeInForce.GTC == timeInForce ? exchange.core2.core.common.OrderType.GTC :
                    TimeInForce.IOC == timeInForce ? exchange.core2.core.common.OrderType.IOC :
                    exchange.core2.core.common.OrderType.FOK;
            }
            api.placeNewOrder(0, 0, timestampNs, clientOrderId, 0, limit, limit, quantity, action, orderType,
                instrumentId, accountId);
        }

        @Override
        public void cancel(
            final long clientOrderId, final int accountId, final int instrumentId, final long timestampNs)
        {
            api.cancelOrder(0, 0, timestampNs, clientOrderId, instrumentId, accountId);
        }

        @Override
        public void replace(
            final long clientOrderId,
            final int accountId,
            final int instrumentId,
            final long newPrice,
            final long newQuantity,
            final long timestampNs)
        {
            api.moveOrder(0, 0, timestampNs, newPrice, clientOrderId, instrumentId, accountId);
        }
    };
}
