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
package io.warpbus.iwarp;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;

/**
 * The software RNIC: the iWARP protocol suite (RDMAP over DDP over MPA over TCP) run by a busy-polled duty cycle.
 * <p>
 * <pre>{@code
 * try (Rnic rnic = Rnic.launch(new RnicContext().threadingMode(ThreadingMode.DEDICATED)))
 * {
 *     ProtectionDomain pd = rnic.allocateProtectionDomain();
 *     MemoryRegion ring = pd.registerMemory(new UnsafeBuffer(ByteBuffer.allocateDirect(1 << 20)),
 *         Access.LOCAL_WRITE | Access.REMOTE_WRITE);
 *     CompletionQueue cq = rnic.createCompletionQueue(1024);
 *     QueuePair qp = pd.createQueuePair(new QueuePairAttributes().completionQueue(cq));
 *     rnic.connectionManager().connect(qp, new InetSocketAddress(host, port), new ConnectionParameters(), null);
 *     // poll rnic.connectionManager() for ESTABLISHED, then post work requests and poll cq
 * }
 * }</pre>
 * In {@link ThreadingMode#INVOKER} mode the application drives the engine by calling {@link #doWork()}, and every
 * call into the engine must come from that one thread.
 */
public final class Rnic implements AutoCloseable
{
    private final RnicContext context;
    private final StagTable stagTable = new StagTable();
    private final ManyToOneConcurrentLinkedQueue<Runnable> commands = new ManyToOneConcurrentLinkedQueue<>();
    private final ConnectionManager connectionManager;
    private final RnicAgent agent;
    private final AtomicInteger protectionDomainIds = new AtomicInteger();
    private final AtomicInteger queuePairNumbers = new AtomicInteger();
    private final AgentRunner runner;
    private final AgentInvoker invoker;
    private volatile boolean closed;

    private Rnic(final RnicContext context)
    {
        this.context = context;
        this.connectionManager = new ConnectionManager(this);
        this.agent = new RnicAgent(this, context, commands);
        switch (context.threadingMode())
        {
            case DEDICATED:
                runner = new AgentRunner(context.idleStrategy(), context.errorHandler(), null, agent);
                invoker = null;
                break;
            case INVOKER:
                runner = null;
                invoker = new AgentInvoker(context.errorHandler(), null, agent);
                break;
            default:
                runner = null;
                invoker = null;
                break;
        }
    }

    /**
     * Start an engine.
     *
     * @param context configuration; concluded here.
     * @return the running engine.
     */
    public static Rnic launch(final RnicContext context)
    {
        context.conclude();
        final Rnic rnic = new Rnic(context);
        if (null != rnic.runner)
        {
            AgentRunner.startOnThread(rnic.runner);
        }
        else if (null != rnic.invoker)
        {
            rnic.invoker.start();
        }
        return rnic;
    }

    /**
     * The configuration.
     *
     * @return the concluded context.
     */
    public RnicContext context()
    {
        return context;
    }

    /**
     * Create a protection domain.
     *
     * @return a new domain.
     */
    public ProtectionDomain allocateProtectionDomain()
    {
        ensureOpen();
        return new ProtectionDomain(this, protectionDomainIds.incrementAndGet());
    }

    /**
     * Create a completion queue.
     *
     * @param capacity entries, rounded up to a power of two.
     * @return a new queue.
     */
    public CompletionQueue createCompletionQueue(final int capacity)
    {
        ensureOpen();
        return new CompletionQueue(capacity);
    }

    /**
     * The connection manager.
     *
     * @return the manager.
     */
    public ConnectionManager connectionManager()
    {
        return connectionManager;
    }

    /**
     * The engine's agent, to compose with other agents in {@link ThreadingMode#SHARED} mode.
     *
     * @return the agent.
     */
    public Agent sharedAgent()
    {
        if (ThreadingMode.SHARED != context.threadingMode())
        {
            throw new IllegalStateException("the agent is only handed out in SHARED mode, not " +
                context.threadingMode());
        }
        return agent;
    }

    /**
     * In {@link ThreadingMode#SHARED} mode, make the calling thread the one that runs the engine's agent. The agent
     * follows the thread running its duty cycles by itself; an owner that closes the composed agent from another
     * thread (an invoker started on main, run by an application's agent thread, closed on main again) calls this
     * first, so that the control commands issued while closing run at once rather than wait for a duty cycle that
     * nothing will run.
     */
    public void runOnCallingThread()
    {
        if (ThreadingMode.SHARED != context.threadingMode())
        {
            throw new IllegalStateException("only the owner of a SHARED engine drives it, not in " +
                context.threadingMode() + " mode");
        }
        agent.onStart();
    }

    /**
     * Run one duty cycle on the caller's thread, in {@link ThreadingMode#INVOKER} mode.
     *
     * @return the amount of work done; 0 when idle.
     */
    public int doWork()
    {
        return invoker.invoke();
    }

    /**
     * Engine counters: FPDUs, bytes, errors and connections.
     *
     * @return the counters.
     */
    public RnicCounters counters()
    {
        return agent.counters();
    }

    /**
     * Stop the engine and close every connection and listener.
     */
    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            if (null != runner)
            {
                CloseHelper.close(runner);
            }
            else if (null != invoker)
            {
                CloseHelper.close(invoker);
            }
            else
            {
                agent.onClose();
            }
        }
    }

    /**
     * Has the engine been closed?
     *
     * @return true once closed.
     */
    public boolean isClosed()
    {
        return closed;
    }

    RnicAgent agent()
    {
        return agent;
    }

    StagTable stagTable()
    {
        return stagTable;
    }

    int nextQueuePairNumber()
    {
        return queuePairNumbers.incrementAndGet();
    }

    QueuePair createQueuePair(final ProtectionDomain pd, final QueuePairAttributes attributes)
    {
        ensureOpen();
        return new QueuePair(this, nextQueuePairNumber(), pd, attributes);
    }

    void ensureOpen()
    {
        if (closed)
        {
            throw new IllegalStateException("Rnic " + context.name() + " is closed");
        }
    }

    /**
     * Run a control command on the engine's thread: at once when the caller is that thread (or in INVOKER mode,
     * where the caller always is), else queued for the next duty cycle.
     */
    void execute(final Runnable command)
    {
        if (runsInline())
        {
            command.run();
        }
        else
        {
            commands.offer(command);
        }
    }

    /**
     * Run a control command on the engine's thread and wait until it has run.
     */
    void executeAndWait(final Runnable command)
    {
        if (runsInline())
        {
            command.run();
            return;
        }
        final boolean[] done = new boolean[1];
        final Object lock = new Object();
        commands.offer(() ->
        {
            try
            {
                command.run();
            }
            finally
            {
                synchronized (lock)
                {
                    done[0] = true;
                    lock.notifyAll();
                }
            }
        });
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        synchronized (lock)
        {
            while (!done[0])
            {
                if (closed && !agent.isRunning())
                {
                    command.run();
                    return;
                }
                if (System.nanoTime() - deadlineNs > 0)
                {
                    throw new IllegalStateException("engine " + context.name() + " did not run a command in 10s");
                }
                try
                {
                    lock.wait(1);
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted waiting for engine " + context.name(), ex);
                }
            }
        }
    }

    private boolean runsInline()
    {
        return ThreadingMode.INVOKER == context.threadingMode() || agent.isEngineThread() || closed;
    }
}
