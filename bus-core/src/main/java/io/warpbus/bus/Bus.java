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
package io.warpbus.bus;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.warpbus.bus.status.CountersFile;
import io.warpbus.bus.status.RecordingErrorHandler;
import io.warpbus.bus.status.SystemCounterDescriptor;
import io.warpbus.iwarp.Rnic;
import io.warpbus.iwarp.ThreadingMode;
import org.agrona.CloseHelper;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.CompositeAgent;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

/**
 * The bus: publications and subscriptions over iWARP (RDMA Write into subscribers' rings) and IPC (shared-memory
 * rings), driven by one agent that composes the bus's conductor with its iWARP engine.
 * <pre>{@code
 * try (Bus bus = Bus.launch(new BusContext()))
 * {
 *     ExclusivePublication pub = bus.addExclusivePublication("warp:iwarp?endpoint=10.0.0.5:40456|stream=1001");
 *     Subscription sub = bus.addSubscription("warp:iwarp?endpoint=10.0.0.5:40456|stream=1001");
 *     long result = pub.offer(buffer, 0, length);   // position, or NOT_CONNECTED / BACK_PRESSURED / ...
 *     sub.poll((buf, offset, len, header) -> ..., 10);
 * }
 * }</pre>
 * Threading is configuration: {@link ThreadingMode#DEDICATED} (the bus's own thread), {@link ThreadingMode#SHARED}
 * ({@link #agent()} to compose) or {@link ThreadingMode#INVOKER} ({@link #doWork()} from the application's thread,
 * which must then make every call into the bus).
 */
public final class Bus implements AutoCloseable
{
    private static final long COMMAND_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    private final BusContext context;
    private final Rnic rnic;
    private final CountersFile countersFile;
    private final BusCounters counters;
    private final BusConductor conductor;
    private final Agent agent;
    private final AgentRunner runner;
    private final AgentInvoker invoker;
    private final AtomicCounter errors;
    private final ErrorHandler errorHandler;
    private volatile boolean closed;

    private Bus(final BusContext context)
    {
        this.context = context;
        try
        {
            Files.createDirectories(context.busDirectory());
            Files.createDirectories(context.ipcDirectory());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create bus directory " + context.busDirectory() + ": " +
                ex.getMessage(), ex);
        }
        this.countersFile = CountersFile.create(context.busDirectory());
        final CountersManager countersManager = countersFile.countersManager();
        this.counters = new BusCounters(countersManager);
        this.errors = counters.system(SystemCounterDescriptor.ERRORS);
        final ErrorHandler userHandler = context.errorHandler();
        final ErrorHandler recorder = new RecordingErrorHandler(countersFile.errorLog(), errors);
        this.errorHandler = (throwable) ->
        {
            recorder.onError(throwable);
            if (null != userHandler)
            {
                userHandler.onError(throwable);
            }
            else
            {
                System.err.println(context.name() + ": " + throwable.getMessage());
            }
        };
        this.rnic = Rnic.launch(context.rnicContext().errorHandler(errorHandler).countersManager(countersManager));
        this.conductor = new BusConductor(this, context, rnic, counters, errorHandler, countersFile);
        this.agent = new CompositeAgent(conductor, rnic.sharedAgent());
        switch (context.threadingMode())
        {
            case DEDICATED:
                runner = new AgentRunner(context.idleStrategy(), errorHandler, null, agent);
                invoker = null;
                break;
            case INVOKER:
                runner = null;
                invoker = new AgentInvoker(errorHandler, null, agent);
                break;
            default:
                runner = null;
                invoker = null;
                break;
        }
    }

    /**
     * Start a bus.
     *
     * @param context configuration; concluded here.
     * @return the running bus.
     */
    public static Bus launch(final BusContext context)
    {
        context.conclude();
        final Bus bus = new Bus(context);
        if (null != bus.runner)
        {
            AgentRunner.startOnThread(bus.runner);
        }
        else if (null != bus.invoker)
        {
            bus.invoker.start();
        }
        return bus;
    }

    /**
     * Add a publication for one publishing thread.
     *
     * @param channel the channel URI.
     * @return the publication.
     * @throws IllegalArgumentException naming what is wrong with the channel.
     */
    public ExclusivePublication addExclusivePublication(final String channel)
    {
        return (ExclusivePublication)addPublication(channel, false);
    }

    /**
     * Add a publication many threads may offer to.
     *
     * @param channel the channel URI.
     * @return the publication.
     * @throws IllegalArgumentException naming what is wrong with the channel.
     */
    public ConcurrentPublication addPublication(final String channel)
    {
        return (ConcurrentPublication)addPublication(channel, true);
    }

    /**
     * Add a subscription.
     *
     * @param channel the channel URI.
     * @return the subscription.
     * @throws IllegalArgumentException naming what is wrong with the channel.
     */
    public Subscription addSubscription(final String channel)
    {
        return addSubscription(channel, null);
    }

    /**
     * Add a subscription with a listener for images coming and going and for gaps.
     *
     * @param channel  the channel URI.
     * @param listener the listener, or null.
     * @return the subscription.
     * @throws IllegalArgumentException naming what is wrong with the channel.
     */
    public Subscription addSubscription(final String channel, final ImageListener listener)
    {
        return addSubscription(channel, listener, -1, 0);
    }

    /**
     * Add a subscription that resumes a stream where an earlier one left off: the publisher starts it at
     * {@code resumeSequence} if it still holds that message, and otherwise tells it (through
     * {@link ImageListener#onGap}) exactly which sequences it can no longer have. A recorder restarted after a crash
     * resumes like this from the last sequence in its journal.
     *
     * @param channel        the channel URI.
     * @param listener       the listener, or null.
     * @param resumeSequence the first sequence wanted, or -1 to join live.
     * @param resumeSession  the publisher session that sequence belongs to (a different session resumes by
     *                       sequence only if its publication continues the stream with {@code initial-sequence}).
     * @return the subscription.
     * @throws IllegalArgumentException naming what is wrong with the channel.
     */
    public Subscription addSubscription(
        final String channel, final ImageListener listener, final long resumeSequence, final int resumeSession)
    {
        ensureOpen();
        final ChannelUri uri = ChannelUri.parse(channel);
        final int ring = uri.size("ring", context.ringCapacity());
        if (!org.agrona.BitUtil.isPowerOfTwo(ring) || ring < BusConfiguration.MIN_TERM_LENGTH)
        {
            throw new IllegalArgumentException("channel '" + channel + "': ring " + ring +
                " must be a power of two of at least " + BusConfiguration.MIN_TERM_LENGTH);
        }
        final long registrationId = counters.nextRegistrationId();
        final Subscription subscription = new Subscription(this, uri, listener, registrationId,
            counters.gaps(registrationId, uri), counters.system(SystemCounterDescriptor.GAPS_DETECTED),
            counters.messagesIn(registrationId, uri));
        subscription.resumeFrom(resumeSequence, resumeSession);
        final SubscriptionEndpoint endpoint = uri.isIpc() ?
            new IpcSubscriptionEndpoint(conductor, subscription) :
            new RdmaSubscriptionEndpoint(conductor, subscription, rnic);
        subscription.endpoint(endpoint);
        call(() ->
        {
            conductor.addEndpoint(endpoint);
            return null;
        });
        return subscription;
    }

    /**
     * Register an observer of every frame this bus publishes (the in-process journal's hook).
     *
     * @param observer the observer.
     */
    public void addFrameObserver(final FrameObserver observer)
    {
        call(() ->
        {
            conductor.addObserver(observer);
            return null;
        });
    }

    /**
     * Remove a frame observer.
     *
     * @param observer the observer.
     */
    public void removeFrameObserver(final FrameObserver observer)
    {
        call(() ->
        {
            conductor.removeObserver(observer);
            return null;
        });
    }

    /**
     * Run one duty cycle on the caller's thread, in {@link ThreadingMode#INVOKER} mode.
     *
     * @return work done.
     */
    public int doWork()
    {
        return invoker.invoke();
    }

    /**
     * The bus's agent, in {@link ThreadingMode#SHARED} mode.
     *
     * @return the agent to compose.
     */
    public Agent agent()
    {
        if (ThreadingMode.SHARED != context.threadingMode())
        {
            throw new IllegalStateException("the agent is only handed out in SHARED mode, not " +
                context.threadingMode());
        }
        return agent;
    }

    /**
     * The configuration.
     *
     * @return the concluded context.
     */
    public BusContext context()
    {
        return context;
    }

    BusConductor conductor()
    {
        return conductor;
    }

    /**
     * The bus's iWARP engine.
     *
     * @return the engine.
     */
    public Rnic rnic()
    {
        return rnic;
    }

    /**
     * Faults recorded so far.
     *
     * @return the count.
     */
    public long errorCount()
    {
        return errors.get();
    }

    /**
     * Close every publication and subscription and stop.
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
            else
            {
                // The application may close an invoked or composed bus from a thread other than the one that drove
                // it; the engine's commands issued while closing then run on this thread.
                rnic.runOnCallingThread();
                if (null != invoker)
                {
                    CloseHelper.close(invoker);
                }
                else
                {
                    agent.onClose();
                }
            }
            rnic.close();
            countersFile.markClosed();
        }
    }

    /**
     * The bus's counters file: {@code warpbus stat --dir} reads it from outside the process.
     *
     * @return the file's path.
     */
    public java.nio.file.Path countersFile()
    {
        return countersFile.file();
    }

    AtomicCounter systemCounter(final SystemCounterDescriptor descriptor)
    {
        return counters.system(descriptor);
    }

    void removePublication(final Publication publication)
    {
        if (!closed)
        {
            call(() ->
            {
                conductor.closeFanOut(publication);
                return null;
            });
        }
    }

    void removeSubscription(final Subscription subscription)
    {
        if (!closed)
        {
            call(() ->
            {
                conductor.closeEndpoint(subscription, subscription.endpoint());
                return null;
            });
        }
    }

    void onError(final Throwable error)
    {
        errorHandler.onError(error);
    }

    /**
     * Serve replays at an iWARP endpoint: subscribers with a replay channel naming it are handed to the provider,
     * each with a publication of its own (see {@link ReplayProvider}). The endpoint may also carry ordinary
     * publications. The bus makes a replay log ready here, of the size the default ring needs, and keeps the logs
     * of replays that end for the next ones: fresh memory for each on the bus's thread stalled it for milliseconds.
     *
     * @param endpoint host:port to listen on.
     * @param provider what serves them.
     */
    public void addReplayEndpoint(final String endpoint, final ReplayProvider provider)
    {
        ensureOpen();
        final java.net.InetSocketAddress address = ChannelUri.parseEndpoint(endpoint);
        call(() ->
        {
            conductor.addReplayProvider(address, provider);
            return null;
        });
    }

    /**
     * Stop serving replays at an endpoint. Replays under way go on until their provider closes them.
     *
     * @param endpoint as given to {@link #addReplayEndpoint}.
     */
    public void removeReplayEndpoint(final String endpoint)
    {
        final java.net.InetSocketAddress address = ChannelUri.parseEndpoint(endpoint);
        call(() ->
        {
            conductor.removeReplayProvider(address);
            return null;
        });
    }

    /**
     * A replay's publication, on the bus's thread, for one subscriber joining at its first frame.
     */
    ExclusivePublication addReplayPublication(
        final java.net.InetSocketAddress endpoint, final int streamId, final long fromSequence, final int ring)
    {
        // Sized for the subscriber's ring (see ReplayLogs.termFor).
        if (!org.agrona.BitUtil.isPowerOfTwo(ring) || ring < BusConfiguration.MIN_TERM_LENGTH || ring > 1 << 28)
        {
            throw new IllegalArgumentException("ring " + ring + " must be a power of two in [64k, 256m]");
        }
        final int term = ReplayLogs.termFor(ring);
        final int window = ReplayLogs.windowFor(ring);
        final String host = endpoint.getAddress().getHostAddress();
        final String channel = "warp:iwarp?endpoint=" + (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" +
            endpoint.getPort() + "|stream=" + streamId + "|initial-sequence=" + fromSequence + "|term=" + term +
            "|window=" + window;
        return (ExclusivePublication)addPublication(channel, false, true);
    }

    private Publication addPublication(final String channel, final boolean concurrent)
    {
        return addPublication(channel, concurrent, false);
    }

    private Publication addPublication(final String channel, final boolean concurrent, final boolean replay)
    {
        ensureOpen();
        final ChannelUri uri = ChannelUri.parse(channel);
        final int termLength = uri.size("term", context.termLength());
        final int window = uri.size("window", context.window());
        if (termLength < BusConfiguration.MIN_TERM_LENGTH || termLength > BusConfiguration.MAX_TERM_LENGTH)
        {
            throw new IllegalArgumentException("channel '" + channel + "': term " + termLength +
                " must be in [64k, 64m]");
        }
        BusContext.checkSizes("channel '" + channel + "': ", termLength, window, termLength);
        final int sessionId = ThreadLocalRandom.current().nextInt(1, Integer.MAX_VALUE);
        final FileLock ipcLock;
        final LogBuffer log;
        if (uri.isIpc())
        {
            final Path stream = IpcDirectory.streamDirectory(context.ipcDirectory(), uri.streamId());
            ipcLock = IpcDirectory.lockPublisher(stream, uri.streamId());
            boolean created = false;
            try
            {
                IpcDirectory.removeLogs(stream);
                log = LogBuffer.mapped(termLength, window,
                    IpcDirectory.logFile(stream, ProcessHandle.current().pid(), sessionId));
                created = true;
            }
            catch (final IOException | RuntimeException ex)
            {
                throw new BusException("channel '" + channel + "': cannot create the publication's log in " + stream +
                    ": " + ex.getMessage(), ex);
            }
            finally
            {
                if (!created)
                {
                    CloseHelper.quietClose(ipcLock.channel());
                }
            }
        }
        else
        {
            ipcLock = null;
            // A replay's publication is made on the bus's thread: its log comes from memory kept for replays.
            log = replay ? new LogBuffer(termLength, window, conductor.replayLogs().take(window)) :
                new LogBuffer(termLength, window);
        }
        AtomicCounter backPressure = null;
        try
        {
            final long registrationId = counters.nextRegistrationId();
            backPressure = counters.backPressure(registrationId, uri, sessionId);
            final Publication publication = concurrent ?
                new ConcurrentPublication(this, uri, sessionId, log, backPressure, registrationId) :
                new ExclusivePublication(this, uri, sessionId, log, backPressure, registrationId);
            publication.ipcLock = ipcLock;
            if (!uri.isIpc())
            {
                publication.protectionDomain = rnic.allocateProtectionDomain();
                log.region = publication.protectionDomain.registerMemory(log.byteBuffer, 0);
            }
            call(() ->
            {
                final PublicationFanOut fanOut = new PublicationFanOut(conductor, publication, counters);
                fanOut.replay = replay;
                conductor.addFanOut(fanOut);
                return null;
            });
            return publication;
        }
        catch (final RuntimeException | Error ex)
        {
            // Whatever failed (a full counters file, the conductor refusing), nothing of the publication stays:
            // above all not the stream's lock, which would refuse every later publisher on it.
            counters.free(backPressure);
            if (null != log.region)
            {
                log.region.close();
            }
            if (null != ipcLock)
            {
                deleteQuietly(log);
                CloseHelper.quietClose(ipcLock.channel());
            }
            throw ex;
        }
    }

    private static void deleteQuietly(final LogBuffer log)
    {
        try
        {
            log.deleteFile();
        }
        catch (final IOException ignore)
        {
            // The publication failed for another reason, which is the one to report; the next publisher on the
            // stream deletes what is left.
        }
    }

    /**
     * Run a command on the bus's thread and wait for it: inline in INVOKER mode or when already on that thread.
     */
    private <T> T call(final Supplier<T> command)
    {
        if (ThreadingMode.INVOKER == context.threadingMode() || conductor.isConductorThread() ||
            (null != runner && runner.isClosed()))
        {
            return command.get();
        }
        final Object[] result = new Object[2];
        final Object lock = new Object();
        conductor.execute(() ->
        {
            Object value = null;
            RuntimeException failure = null;
            try
            {
                value = command.get();
            }
            catch (final RuntimeException ex)
            {
                failure = ex;
            }
            synchronized (lock)
            {
                result[0] = value;
                result[1] = null == failure ? Boolean.TRUE : failure;
                lock.notifyAll();
            }
        });
        final long deadline = System.nanoTime() + COMMAND_TIMEOUT_NS;
        synchronized (lock)
        {
            while (null == result[1])
            {
                if (System.nanoTime() - deadline > 0)
                {
                    throw new BusException("bus " + context.name() + " did not run a command within 10 s: is its " +
                        "agent running?");
                }
                try
                {
                    lock.wait(1);
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                    throw new BusException("interrupted waiting for bus " + context.name(), ex);
                }
            }
        }
        if (result[1] instanceof RuntimeException)
        {
            throw (RuntimeException)result[1];
        }
        @SuppressWarnings("unchecked") final T value = (T)result[0];
        return value;
    }

    private void ensureOpen()
    {
        if (closed)
        {
            throw new IllegalStateException("bus " + context.name() + " is closed");
        }
    }
}
