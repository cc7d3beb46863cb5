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
package io.warpbus.bench.bus;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.logbuffer.FragmentHandler;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.NoOpLock;
import org.agrona.concurrent.YieldingIdleStrategy;

/**
 * Aeron in one process, as the peer of the bus suite: an Aeron client whose conductor runs in an
 * {@link AgentInvoker}, and usually an embedded media driver in {@link ThreadingMode#INVOKER} mode (conductor,
 * sender and receiver as one agent). {@link #doWork()} invokes the driver, then the client's conductor, so the
 * process has exactly one busy thread, like the WarpBus side. The settings are Aeron's own low-latency and
 * throughput profiles ({@code low-latency.properties}, {@code aeron-throughput.properties}) minus their threads:
 * <ul>
 *     <li>driver: {@code threadingMode=INVOKER}, {@code asyncExecutorEnabled=false} (else name resolution gets a
 *     thread of its own), {@code termBufferSparseFile=false}, {@code socketSndbuf/RcvbufLength=2 MiB},
 *     {@code initialWindowLength=2 MiB}, {@code mtuLength=ipcMtuLength=8 KiB}; its directory is deleted on start
 *     and on shutdown;</li>
 *     <li>client: {@code useConductorAgentInvoker=true}, {@code driverAgentInvoker} = the embedded driver's (so a
 *     synchronous add runs the driver while it waits), {@code clientLock=NoOpLock} (one thread),
 *     {@code preTouchMappedMemory=true}, as Aeron's Archive does in its own INVOKER mode;</li>
 *     <li>both: liveness timeouts of {@link #LIVENESS_TIMEOUT_NS} (WarpBus gets the same).</li>
 * </ul>
 * Term lengths are Aeron's defaults (16 MiB for UDP, 64 MiB for IPC). {@code aeron:ipc} only connects clients of
 * the same driver, so for IPC the responder {@link #attach attaches} a client to the orchestrator's driver; that
 * driver is then driven by the orchestrator's thread alone, the one extra duty the IPC peer needs.
 */
final class AeronEndpoint implements Endpoint
{
    /**
     * Every liveness timeout of client and driver (driver, client, image, publication connection, flow control
     * receiver): one system sits idle while the other is measured, for longer than Aeron's 5 to 10 s defaults when
     * the machine is busy. Timeouts only bound failure detection; nothing on the data path reads them.
     */
    static final long LIVENESS_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);

    private final MediaDriver driver;
    private final AgentInvoker driverInvoker;
    private final Aeron aeron;
    private final AgentInvoker clientInvoker;
    private ExclusivePublication[] publications = new ExclusivePublication[0];
    private Subscription[] subscriptions = new Subscription[0];
    private MessageHandler target;
    private final FragmentHandler adapter = (buffer, offset, length, header) ->
        target.onMessage(buffer, offset, length);

    private AeronEndpoint(final MediaDriver driver, final String directory)
    {
        this.driver = driver;
        this.driverInvoker = null == driver ? null : driver.sharedAgentInvoker();
        final Aeron.Context context = new Aeron.Context()
            .aeronDirectoryName(directory)
            .useConductorAgentInvoker(true)
            .driverAgentInvoker(driverInvoker)
            .clientLock(NoOpLock.INSTANCE)
            .awaitingIdleStrategy(YieldingIdleStrategy.INSTANCE)
            .preTouchMappedMemory(true)
            .driverTimeoutMs(TimeUnit.NANOSECONDS.toMillis(LIVENESS_TIMEOUT_NS))
            .errorHandler((ex) -> System.err.println("aeron client " + directory + ": " + ex));
        Aeron client = null;
        try
        {
            client = Aeron.connect(context);
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietClose(driver);
            throw ex;
        }
        this.aeron = client;
        this.clientInvoker = client.conductorAgentInvoker();
    }

    /**
     * An embedded driver in INVOKER mode with its own directory, and a client of it.
     *
     * @param directory the driver's directory (deleted on start and on close).
     * @return the endpoint.
     */
    static AeronEndpoint embedded(final String directory)
    {
        final MediaDriver.Context context = new MediaDriver.Context()
            .aeronDirectoryName(directory)
            .threadingMode(ThreadingMode.INVOKER)
            .asyncExecutorEnabled(false)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .warnIfDirectoryExists(false)
            .termBufferSparseFile(false)
            .socketSndbufLength(2 << 20)
            .socketRcvbufLength(2 << 20)
            .initialWindowLength(2 << 20)
            .mtuLength(8 << 10)
            .ipcMtuLength(8 << 10)
            .clientLivenessTimeoutNs(LIVENESS_TIMEOUT_NS)
            .imageLivenessTimeoutNs(LIVENESS_TIMEOUT_NS)
            .publicationConnectionTimeoutNs(LIVENESS_TIMEOUT_NS)
            .publicationUnblockTimeoutNs(LIVENESS_TIMEOUT_NS + TimeUnit.SECONDS.toNanos(10))
            .flowControlReceiverTimeoutNs(LIVENESS_TIMEOUT_NS)
            .errorHandler((ex) -> System.err.println("aeron driver " + directory + ": " + ex));
        return new AeronEndpoint(MediaDriver.launch(context), directory);
    }

    /**
     * A client of a driver another process runs (and drives).
     *
     * @param directory that driver's directory.
     * @return the endpoint.
     */
    static AeronEndpoint attach(final String directory)
    {
        return new AeronEndpoint(null, directory);
    }

    /**
     * The driver's directory.
     *
     * @return the directory name.
     */
    String directory()
    {
        return aeron.context().aeronDirectoryName();
    }

    @Override
    public void addPublication(final String channel, final int streamId, final int subscribers)
    {
        publications = Arrays.copyOf(publications, publications.length + 1);
        publications[publications.length - 1] = aeron.addExclusivePublication(channel, streamId);
    }

    @Override
    public void addSubscription(final String channel, final int streamId)
    {
        subscriptions = Arrays.copyOf(subscriptions, subscriptions.length + 1);
        subscriptions[subscriptions.length - 1] = aeron.addSubscription(channel, streamId);
    }

    @Override
    public boolean isConnected()
    {
        for (final ExclusivePublication publication : publications)
        {
            if (!publication.isConnected())
            {
                return false;
            }
        }
        for (final Subscription subscription : subscriptions)
        {
            if (!subscription.isConnected())
            {
                return false;
            }
        }
        return true;
    }

    @Override
    public int doWork()
    {
        int work = 0;
        if (null != driverInvoker)
        {
            work += driverInvoker.invoke();
        }
        return work + clientInvoker.invoke();
    }

    @Override
    public boolean offer(final int publication, final DirectBuffer buffer, final int offset, final int length)
    {
        final long result = publications[publication].offer(buffer, offset, length);
        if (result > 0)
        {
            return true;
        }
        if (Publication.CLOSED == result || Publication.MAX_POSITION_EXCEEDED == result)
        {
            throw new IllegalStateException("offer failed: " + Publication.errorString(result) + " on " +
                publications[publication].channel());
        }
        return false;
    }

    @Override
    public int poll(final int subscription, final MessageHandler handler, final int limit)
    {
        target = handler;
        return subscriptions[subscription].poll(adapter, limit);
    }

    @Override
    public void closeChannels()
    {
        for (final ExclusivePublication publication : publications)
        {
            publication.close();
        }
        for (final Subscription subscription : subscriptions)
        {
            subscription.close();
        }
        publications = new ExclusivePublication[0];
        subscriptions = new Subscription[0];
    }

    @Override
    public void close()
    {
        CloseHelper.closeAll(aeron, driver);
    }

    @Override
    public String toString()
    {
        return "AeronEndpoint{" + directory() + (null == driver ? ", attached" : ", embedded") + "}";
    }
}
