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
package io.warpbus.gateway.config;

import io.warpbus.gateway.session.GatewayCounters;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.IdleStrategy;
import org.springframework.context.SmartLifecycle;

/**
 * Runs one of the gateway's agents (the session core, a protocol adapter's sender) on a thread of its own with an
 * Agrona {@link AgentRunner}, as part of the application's lifecycle: started before the web server accepts
 * connections, stopped after it has stopped. An error in the duty cycle is counted and recorded in the gateway's
 * error log; the agent keeps running.
 */
public final class AgentLifecycle implements SmartLifecycle
{
    /** The session core starts first and stops last. */
    public static final int CORE_PHASE = 0;
    /** Protocol adapters' senders start after the core and stop before it. */
    public static final int SENDER_PHASE = 100;

    private final Agent agent;
    private final IdleStrategy idleStrategy;
    private final GatewayCounters counters;
    private final int phase;
    private AgentRunner runner;

    /**
     * A lifecycle for an agent.
     *
     * @param agent        the agent.
     * @param idleStrategy between idle duty cycles.
     * @param counters     where errors go.
     * @param phase        {@link #CORE_PHASE} or {@link #SENDER_PHASE}.
     */
    public AgentLifecycle(final Agent agent, final IdleStrategy idleStrategy, final GatewayCounters counters,
        final int phase)
    {
        this.agent = agent;
        this.idleStrategy = idleStrategy;
        this.counters = counters;
        this.phase = phase;
    }

    @Override
    public synchronized void start()
    {
        if (null == runner)
        {
            runner = new AgentRunner(idleStrategy, counters::onError, null, agent);
            AgentRunner.startOnThread(runner);
        }
    }

    @Override
    public synchronized void stop()
    {
        CloseHelper.quietClose(runner);
        runner = null;
    }

    @Override
    public synchronized boolean isRunning()
    {
        return null != runner;
    }

    @Override
    public int getPhase()
    {
        return phase;
    }

    /**
     * Is the agent's thread alive?
     *
     * @return true while it runs its duty cycle.
     */
    public synchronized boolean isAgentThreadAlive()
    {
        return null != runner && null != runner.thread() && runner.thread().isAlive() && !runner.isClosed();
    }
}
