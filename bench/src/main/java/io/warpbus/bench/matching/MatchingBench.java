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

import java.util.Locale;
import java.util.concurrent.TimeUnit;

import exchange.core2.core.common.CoreWaitStrategy;
import io.warpbus.bench.BenchReport;
import io.warpbus.matching.CommandHandler;
import io.warpbus.matching.OrderType;
import io.warpbus.matching.Side;
import io.warpbus.matching.TimeInForce;
import io.warpbus.matching.load.LoadGenerator;
import io.warpbus.matching.load.LoadProfile;
import org.HdrHistogram.Histogram;

/**
 * {@code warpbus bench matching [--quick] [--rate COMMANDS_PER_S] [--ec-wait YIELDING|BLOCKING|BUSY_SPIN]}: our
 * matching engine against exchange-core 0.5.3 on the same generated order flow, on one instrument
 * ({@code mixed-1sym}) and on ten ({@code mixed-10sym}).
 * <p>
 * The flow is {@link LoadProfile#fixedMix(int, long)}: GTC limit 35%, market 10%, cancel 35%, replace 20%, from a
 * seeded generator without feedback, so both engines get exactly the same commands (after the same untimed
 * prefill of 512 quotes per instrument). Each engine is fed from a producer thread through its own intake and
 * observed where it finishes a command (see {@link WarpbusMatchingSystem}, {@link ExchangeCoreSystem}).
 * <ul>
 *     <li><b>throughput</b> ({@code orders_per_s}): the producer submits as fast as the engine takes commands;
 *     commands over the time from the first submission to the last command finished;</li>
 *     <li><b>latency</b> ({@code latency_p50_ns}, {@code _p99_ns}, {@code _p999_ns}): commands submitted at a fixed
 *     offered rate ({@code --rate}, 100,000/s by default) at planned times; each command's latency runs from its
 *     planned time to its finish, so a stall delays the commands queued behind it too (no coordinated omission).</li>
 * </ul>
 * Every case runs several rounds; within a round the systems alternate, and which goes first alternates across
 * rounds; each engine starts fresh for every run. Figures are medians of the rounds; the table's ratio is
 * {@code warpbus / exchange-core}. Results go to {@code target/bench/matching.json}.
 */
public final class MatchingBench
{
    private static final String SUITE = "matching";
    private static final String WARPBUS = "warpbus-matching";
    private static final String EXCHANGE_CORE = "exchange-core";
    private static final long SEED = 20_260_101L;

    private final boolean quick;
    private final long rate;
    private final CoreWaitStrategy ecWait;
    private final BenchReport report = new BenchReport(SUITE, EXCHANGE_CORE);

    private MatchingBench(final boolean quick, final long rate, final CoreWaitStrategy ecWait)
    {
        this.quick = quick;
        this.rate = rate;
        this.ecWait = ecWait;
    }

    /**
     * Run the suite.
     *
     * @param args {@code --quick}, {@code --rate N}, {@code --ec-wait STRATEGY}.
     * @throws Exception on failure.
     */
    public static void main(final String[] args) throws Exception
    {
        boolean quick = false;
        long rate = 100_000;
        CoreWaitStrategy ecWait = CoreWaitStrategy.YIELDING;
        for (int i = 0; i < args.length; i++)
        {
            if ("--quick".equals(args[i]))
            {
                quick = true;
            }
            else if ("--rate".equals(args[i]) && i + 1 < args.length)
            {
                rate = Long.parseLong(args[++i]);
            }
            else if ("--ec-wait".equals(args[i]) && i + 1 < args.length)
            {
                ecWait = CoreWaitStrategy.valueOf(args[++i]);
            }
            else
            {
                System.err.println("unknown option '" + args[i] + "': usage: warpbus bench matching [--quick] " +
                    "[--rate COMMANDS_PER_S] [--ec-wait YIELDING|BLOCKING|BUSY_SPIN]");
                System.exit(2);
            }
        }
        new MatchingBench(quick, rate, ecWait).run();
    }

    private void run() throws Exception
    {
        final int rounds = quick ? 3 : 5;
        final long throughputCommands = quick ? 400_000 : 2_000_000;
        final long latencyCommands = Math.max(10_000, rate * (quick ? 2 : 5));
        System.out.println("matching suite" + (quick ? " (--quick)" : "") + ": median of " + rounds +
            " rounds; ratio = warpbus / exchange-core");
        System.out.println("flow: LoadProfile.fixedMix (limit 35%, market 10%, cancel 35%, replace 20%), seed " + SEED +
            ", prefill 512 quotes per instrument; throughput over " + throughputCommands + " commands, latency at " +
            rate + " commands/s over " + latencyCommands + " commands");
        System.out.println("exchange-core: 1 matching engine, 1 risk engine, risk processing off, wait strategy " +
            ecWait + ", plain daemon threads, its throughput preset for throughput and latency preset for latency");
        System.out.println(BenchReport.conditions());
        System.out.println();

        for (final int instruments : new int[] { 1, 10 })
        {
            final String caseName = "mixed-" + instruments + "sym";
            final LoadProfile profile = LoadProfile.fixedMix(instruments, SEED);
            warmUp(profile);
            for (int round = 0; round < rounds; round++)
            {
                final boolean warpbusFirst = 0 == (round & 1);
                for (int turn = 0; turn < 2; turn++)
                {
                    final boolean warpbus = warpbusFirst == (0 == turn);
                    throughput(caseName, profile, warpbus, throughputCommands);
                    latency(caseName, profile, warpbus, latencyCommands);
                }
            }
        }

        System.out.println();
        report.printTable(System.out);
        report.writeJson(BenchReport.output("matching.json"));
        System.out.println();
        System.out.println("wrote " + BenchReport.output("matching.json").toAbsolutePath());
    }

    private MatchingSystem system(final LoadProfile profile, final boolean warpbus, final boolean throughputPreset)
    {
        return warpbus ? new WarpbusMatchingSystem(profile) :
            new ExchangeCoreSystem(profile, throughputPreset, ecWait);
    }

    private void warmUp(final LoadProfile profile) throws Exception
    {
        for (final boolean warpbus : new boolean[] { true, false })
        {
            try (MatchingSystem system = system(profile, warpbus, true))
            {
                system.start();
                final Pacer pacer = new Pacer(system.producer());
                final LoadGenerator generator = new LoadGenerator(LoadProfile.fixedMix(profile.instrumentCount(), 1));
                pacer.timestampNs = System.nanoTime();
                long sent = generator.prefill(pacer);
                for (int i = 0; i < 300_000; i++)
                {
                    pacer.timestampNs = System.nanoTime();
                    generator.next(pacer);
                }
                sent += 300_000;
                system.awaitProcessed(sent);
            }
        }
    }

    private void throughput(final String caseName, final LoadProfile profile, final boolean warpbus, final long count)
        throws Exception
    {
        try (MatchingSystem system = system(profile, warpbus, true))
        {
            system.start();
            final Pacer pacer = new Pacer(system.producer());
            final LoadGenerator generator = new LoadGenerator(LoadProfile.fixedMix(profile.instrumentCount(), SEED));
            pacer.timestampNs = System.nanoTime();
            final long prefill = generator.prefill(pacer);
            system.awaitProcessed(prefill);
            system.resetLatencies();

            final long startNs = System.nanoTime();
            for (long i = 0; i < count; i++)
            {
                pacer.timestampNs = System.nanoTime();
                generator.next(pacer);
            }
            final long endNs = system.awaitProcessed(prefill + count);
            final double perSecond = count * 1e9 / (endNs - startNs);
            report.add(caseName, system.name(), "orders_per_s", perSecond, "orders/s");
            System.out.printf(Locale.ROOT, "%-12s %-17s throughput %,12.0f orders/s  (trades %,d)%n", caseName,
                system.name(), perSecond, trades(system));
        }
    }

    private void latency(final String caseName, final LoadProfile profile, final boolean warpbus, final long count)
        throws Exception
    {
        try (MatchingSystem system = system(profile, warpbus, false))
        {
            system.start();
            final Pacer pacer = new Pacer(system.producer());
            final LoadGenerator generator = new LoadGenerator(LoadProfile.fixedMix(profile.instrumentCount(), SEED));
            pacer.timestampNs = System.nanoTime();
            final long prefill = generator.prefill(pacer);
            system.awaitProcessed(prefill);
            system.resetLatencies();

            final long intervalNs = 1_000_000_000L / rate;
            final long startNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1);
            for (long i = 0; i < count; i++)
            {
                final long plannedNs = startNs + i * intervalNs;
                while (System.nanoTime() - plannedNs < 0)
                {
                    Thread.onSpinWait();
                }
                pacer.timestampNs = plannedNs;
                generator.next(pacer);
            }
            system.awaitProcessed(prefill + count);
            final Histogram histogram = system.latencies();
            report.add(caseName, system.name(), "latency_p50_ns", histogram.getValueAtPercentile(50), "ns");
            report.add(caseName, system.name(), "latency_p99_ns", histogram.getValueAtPercentile(99), "ns");
            report.add(caseName, system.name(), "latency_p999_ns", histogram.getValueAtPercentile(99.9), "ns");
            System.out.printf(Locale.ROOT, "%-12s %-17s latency at %,d/s: p50 %,d ns, p99 %,d ns, p99.9 %,d ns, " +
                "max %,d ns (%,d commands)%n", caseName, system.name(), rate, histogram.getValueAtPercentile(50),
                histogram.getValueAtPercentile(99), histogram.getValueAtPercentile(99.9), histogram.getMaxValue(),
                histogram.getTotalCount());
        }
    }

    private static long trades(final MatchingSystem system)
    {
        return system instanceof WarpbusMatchingSystem ? ((WarpbusMatchingSystem)system).trades() :
            ((ExchangeCoreSystem)system).trades();
    }

    /**
     * Forwards the generator's commands with the submission time the driver chose instead of the profile's.
     */
    private static final class Pacer implements CommandHandler
    {
        private final CommandHandler delegate;
        long timestampNs;

        Pacer(final CommandHandler delegate)
        {
            this.delegate = delegate;
        }

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
            final long ignored)
        {
            delegate.newOrder(clientOrderId, accountId, instrumentId, side, type, timeInForce, price, quantity,
                timestampNs);
        }

        @Override
        public void cancel(final long clientOrderId, final int accountId, final int instrumentId, final long ignored)
        {
            delegate.cancel(clientOrderId, accountId, instrumentId, timestampNs);
        }

        @Override
        public void replace(
            final long clientOrderId,
            final int accountId,
            final int instrumentId,
            final long newPrice,
            final long newQuantity,
            final long ignored)
        {
            delegate.replace(clientOrderId, accountId, instrumentId, newPrice, newQuantity, timestampNs);
        }
    }
}
