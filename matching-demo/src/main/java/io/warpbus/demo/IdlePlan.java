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

import io.warpbus.iwarp.IdleStrategies;

/**
 * Which idle strategy each of the demo's duty-cycle threads uses, chosen from the cores the machine has unless the
 * user chose: a busy-spinning thread takes a whole core, and the demo runs five JVMs (engine, load client,
 * market-data subscriber, gateway, gateway load). A spinner is given a core only where one is left for it after
 * {@value #CORES_FOR_THE_REST} for the other processes; otherwise the thread backs off to parks of at most
 * {@value #SHARED_PARK_US} us, which costs a wake-up per command but leaves the cores to whoever has work.
 */
public final class IdlePlan
{
    /** Cores left to the market-data subscriber, the gateway and the gateway's load before anything spins. */
    static final int CORES_FOR_THE_REST = 2;
    /** Longest park of a latency-sensitive thread that shares its core. */
    static final int SHARED_PARK_US = 50;
    static final String SHARED = "backoff-" + SHARED_PARK_US;
    static final String SPIN = "spin";
    static final String BACKOFF = "backoff";

    private final String engine;
    private final String client;
    private final String md;
    private final String reason;

    private IdlePlan(final String engine, final String client, final String md, final String reason)
    {
        this.engine = engine;
        this.client = client;
        this.md = md;
        this.reason = reason;
    }

    /**
     * Choose the strategies.
     *
     * @param cores      the cores this JVM may use ({@link Runtime#availableProcessors()}).
     * @param engine     {@code --idle}, or null to choose.
     * @param client     {@code --client-idle}, or null to choose.
     * @param md         {@code --md-idle}, or null to choose.
     * @return the plan.
     * @throws IllegalArgumentException naming the option whose strategy is unknown.
     */
    public static IdlePlan choose(final int cores, final String engine, final String client, final String md)
    {
        check("idle", engine);
        check("client-idle", client);
        check("md-idle", md);
        final int spareCores = Math.max(0, cores - CORES_FOR_THE_REST);
        final String chosenEngine = spareCores >= 1 ? SPIN : SHARED;
        final String chosenClient = spareCores >= 2 ? SPIN : SHARED;
        final String why;
        if (spareCores >= 2)
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
            why = cores + " core" + (1 == cores ? "" : "s") + " for five processes: nothing busy-spins (a spinner " +
                "would take a core the others need); the engine and the load client park at most " + SHARED_PARK_US +
                " us when idle";
        }
        final boolean asked = null != engine || null != client || null != md;
        return new IdlePlan(null != engine ? engine : chosenEngine, null != client ? client : chosenClient,
            null != md ? md : BACKOFF, why + (asked ? "; the options given override it" : ""));
    }

    private static void check(final String option, final String alias)
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
     * One line for the banner: what was chosen and why.
     *
     * @return the text.
     */
    @Override
    public String toString()
    {
        return "engine " + engine + ", client " + client + ", md " + md + " (" + reason + ")";
    }
}
