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
package io.warpbus.demo;

import java.util.function.Supplier;

import io.warpbus.iwarp.IdleStrategies;

/**
 * Which idle strategy each of the demo's duty-cycle threads uses, chosen from the cores the machine has unless the
 * user chose: a busy-spinning thread takes a whole core, and the demo runs five JVMs (engine, load client,
 * market-data subscriber, gateway, gateway load). A spinner is given a core only where one is left for it after
 * {@value #CORES_FOR_THE_REST} for the other processes; otherwise the thread backs off to parks of at most
 * {@value #SHARED_PARK_US} us, which costs a wake-up per command but leaves the cores to whoever has work. Where
 * nothing spins the default warm-up is longer too.
 * <p>
 * Where the engine and the load client cannot both spin, a command that arrives while either is parked waits for the
 * kernel to run it, behind whatever else shares its core. So there, unless the user chose their strategies or said
 * {@code --realtime off}, and where the process may ({@code --realtime auto}, the default), the two duty-cycle
 * threads run at {@code SCHED_FIFO} from halfway through the warm-up ({@link RealtimeScheduling}), and nothing spins:
 * each parks {@value #REALTIME_PARK_US} us whenever idle, since a real-time thread that spins or yields keeps its core
 * from every thread of the normal policy. {@code --realtime on} asks for it on any machine and fails where it is
 * refused.
 */
public final class IdlePlan
{
    /** Cores left to the market-data subscriber, the gateway and the gateway's load before anything spins. */
    static final int CORES_FOR_THE_REST = 2;
    /** Longest park of a latency-sensitive thread that shares its core. */
    static final int SHARED_PARK_US = 50;
    static final String SHARED = "backoff-" + SHARED_PARK_US;
    static final String SPIN = "spin";
    /** The fixed park of a real-time thread. */
    static final int REALTIME_PARK_US = 50;
    static final String REALTIME_PARK = "park-" + REALTIME_PARK_US;
    /** The {@code SCHED_FIFO} priority of the real-time threads: the lowest, above any thread of the normal policy. */
    static final int REALTIME_PRIORITY = 1;
    static final String BACKOFF = "backoff";
    static final String ON = "on";
    static final String AUTO = "auto";
    /** Default warm-up, in seconds, where a core is left for a spinner. */
    static final int WARMUP_S = 5;
    /**
     * Default warm-up, in seconds, where nothing spins: five JVMs compiling their hot paths on two cores fall behind
     * the load for about this long before their backlog is gone (docs/performance.md, "The demo on two cores").
     */
    static final int SHARED_WARMUP_S = 30;
    /**
     * The shortest warm-up {@code --realtime auto} raises the threads in, halfway through: the JIT's compiler threads
     * run at the normal policy and need about this long on two cores (measured at 30 s, docs/performance.md, "The
     * real-time order path, built"; in a 10 s warm-up, raised at 5 s, the subscribers stayed behind the whole run).
     */
    static final int REALTIME_MIN_WARMUP_S = SHARED_WARMUP_S;

    private final String engine;
    private final String client;
    private final String md;
    private final int warmupSeconds;
    private final boolean realtime;
    private final String reason;
    private final boolean asked;
    /** The plan {@code --realtime auto} falls back to where the warm-up is too short, or null. */
    private final IdlePlan withoutRealtime;

    private IdlePlan(final String engine, final String client, final String md, final int warmupSeconds,
        final boolean realtime, final String reason, final boolean asked, final IdlePlan withoutRealtime)
    {
        this.engine = engine;
        this.client = client;
        this.md = md;
        this.warmupSeconds = warmupSeconds;
        this.realtime = realtime;
        this.reason = reason;
        this.asked = asked;
        this.withoutRealtime = withoutRealtime;
    }

    /**
     * Choose the strategies.
     *
     * @param cores      the cores this JVM may use ({@link Runtime#availableProcessors()}).
     * @param engine     {@code --idle}, or null to choose.
     * @param client     {@code --client-idle}, or null to choose.
     * @param md         {@code --md-idle}, or null to choose.
     * @param realtime   {@code --realtime}: {@code on}, {@code off}, or {@code auto} (or null) for on where the
     *                   engine and the load client cannot both spin, neither strategy was given and it is permitted.
     * @param refusal    why this process may not use a real-time priority, or null when it may; asked only when
     *                   {@code realtime} would be used.
     * @return the plan.
     * @throws IllegalArgumentException naming the option whose value is unknown, or a strategy that never parks with
     *                                  {@code --realtime on}.
     * @throws IllegalStateException    with the refusal, for {@code --realtime on} where it is refused.
     */
    public static IdlePlan choose(final int cores, final String engine, final String client, final String md,
        final String realtime, final Supplier<String> refusal)
    {
        final String mode = null == realtime ? AUTO : realtime.trim().toLowerCase();
        if (!ON.equals(mode) && !AUTO.equals(mode) && !RealtimeScheduling.OFF.equals(mode))
        {
            throw new IllegalArgumentException("--realtime " + realtime + ": expected on, off or auto");
        }
        check("idle", engine, ON.equals(mode));
        check("client-idle", client, ON.equals(mode));
        check("md-idle", md, false);
        final int spareCores = Math.max(0, cores - CORES_FOR_THE_REST);
        final boolean wanted = ON.equals(mode) || AUTO.equals(mode) && spareCores < 2 && null == engine &&
            null == client;
        final String refused = wanted ? refusal.get() : null;
        if (ON.equals(mode) && null != refused)
        {
            throw new IllegalStateException("--realtime on: " + refused);
        }
        final IdlePlan shared = plan(cores, engine, client, md, null, null == refused ? "" :
            "; not at a real-time priority: " + refused, null);
        if (!wanted || null != refused)
        {
            return shared;
        }
        return plan(cores, engine, client, md, mode, "", AUTO.equals(mode) ? shared : null);
    }

    /**
     * The plan, real-time where {@code mode} is given ({@code on} or {@code auto}), else not; {@code note} ends the
     * reason.
     */
    private static IdlePlan plan(final int cores, final String engine, final String client, final String md,
        final String mode, final String note, final IdlePlan withoutRealtime)
    {
        final boolean fifo = null != mode;
        final int spareCores = Math.max(0, cores - CORES_FOR_THE_REST);
        final String chosenEngine = fifo ? REALTIME_PARK : spareCores >= 1 ? SPIN : SHARED;
        final String chosenClient = fifo ? REALTIME_PARK : spareCores >= 2 ? SPIN : SHARED;
        final String coreCount = cores + " core" + (1 == cores ? "" : "s");
        String why;
        if (fifo)
        {
            why = coreCount + (ON.equals(mode) ? ", --realtime on" : " for five processes and permitted") +
                ": the engine and the load client run at SCHED_FIFO " + REALTIME_PRIORITY + " from halfway " +
                "through the warm-up and park " + REALTIME_PARK_US + " us whenever idle, so a command wakes them at " +
                "once; the gateway, its load and the market-data subscriber get what they leave, and their latency " +
                "grows" +
                (AUTO.equals(mode) ? " (--realtime off to leave them all equal)" : "");
        }
        else if (spareCores >= 2)
        {
            why = cores + " cores: the engine and the load client busy-spin on one each, " + (cores - 2) +
                " left for the other three processes";
        }
        else if (spareCores == 1)
        {
            why = cores + " cores: the engine busy-spins on one, the load client parks at most " + SHARED_PARK_US +
                " us, two cores left for the other three processes";
        }
        else
        {
            why = coreCount + " for five processes: nothing busy-spins (a spinner would take a core the others " +
                "need); the engine and the load client park at most " + SHARED_PARK_US + " us when idle";
        }
        if (!fifo && spareCores == 0)
        {
            why += "; the warm-up is " + SHARED_WARMUP_S + " s unless --warmup says (the JIT of five JVMs holds the " +
                "load back that long)";
        }
        return new IdlePlan(null != engine ? engine : chosenEngine, null != client ? client : chosenClient,
            null != md ? md : BACKOFF, spareCores >= 1 && !fifo ? WARMUP_S : SHARED_WARMUP_S, fifo, why + note,
            null != engine || null != client || null != md, withoutRealtime);
    }

    /**
     * This plan for the warm-up the run will have (from {@code --warmup}, {@code --duration} and
     * {@link #warmupSeconds()}): where {@code --realtime auto} chose the real-time path and the warm-up is shorter
     * than {@value #REALTIME_MIN_WARMUP_S} s, the plan without it, saying why.
     *
     * @param warmupS the warm-up, in seconds.
     * @return the plan to run.
     */
    public IdlePlan forWarmup(final long warmupS)
    {
        if (null == withoutRealtime || warmupS >= REALTIME_MIN_WARMUP_S)
        {
            return this;
        }
        return new IdlePlan(withoutRealtime.engine, withoutRealtime.client, withoutRealtime.md,
            withoutRealtime.warmupSeconds, false, withoutRealtime.reason + "; not at a real-time priority: a " +
            warmupS + " s warm-up is too short for it (the threads are raised halfway through one of at least " +
            REALTIME_MIN_WARMUP_S + " s, once the JIT has compiled the hot paths: --duration " +
            2 * REALTIME_MIN_WARMUP_S + " or more)", withoutRealtime.asked, null);
    }

    private static void check(final String option, final String alias, final boolean realtime)
    {
        if (null != alias)
        {
            try
            {
                IdleStrategies.fromAlias(alias);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new IllegalArgumentException("--" + option + ": " + ex.getMessage());
            }
            final String name = alias.trim().toLowerCase();
            if (realtime && (SPIN.equals(name) || "noop".equals(name) || "yield".equals(name)))
            {
                throw new IllegalArgumentException("--" + option + " " + alias + " with --realtime on: a thread at " +
                    "SCHED_FIFO that never parks keeps its core from every other thread; use park-N or backoff-N");
            }
        }
    }

    /**
     * The engine's strategy.
     *
     * @return an alias for {@link IdleStrategies#fromAlias(String)}.
     */
    public String engine()
    {
        return engine;
    }

    /**
     * The load client's strategy.
     *
     * @return an alias.
     */
    public String client()
    {
        return client;
    }

    /**
     * The market-data subscriber's strategy.
     *
     * @return an alias.
     */
    public String md()
    {
        return md;
    }

    /**
     * Whether the engine's and the load client's duty-cycle threads run at a real-time priority, from halfway through
     * the warm-up.
     *
     * @return {@code --realtime on}.
     */
    public boolean realtime()
    {
        return realtime;
    }

    /**
     * The warm-up when {@code --warmup} is not given: longer where the processes share the cores.
     *
     * @return seconds.
     */
    public int warmupSeconds()
    {
        return warmupSeconds;
    }

    /**
     * One line for the banner: what was chosen and why.
     *
     * @return the text.
     */
    @Override
    public String toString()
    {
        return "engine " + engine + ", client " + client + ", md " + md + " (" + reason +
            (asked ? "; the options given override it" : "") + ")";
    }
}
