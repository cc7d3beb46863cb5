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

import java.nio.file.Path;
import java.util.Arrays;

import io.warpbus.bus.Bus;
import io.warpbus.bus.BusContext;
import io.warpbus.bus.ExclusivePublication;
import io.warpbus.bus.FragmentHandler;
import io.warpbus.bus.Publication;
import io.warpbus.bus.Subscription;
import io.warpbus.iwarp.ThreadingMode;
import org.agrona.DirectBuffer;

/**
 * WarpBus in one process: a {@link Bus} in {@link ThreadingMode#INVOKER} mode, so its conductor and iWARP engine
 * run only inside {@link #doWork()} on the benchmark's thread. Everything else is the bus's defaults (term 1 MiB,
 * window 16 MiB, ring 4 MiB, block policy, MPA CRC32C as the engine prefers it), which is what an application gets,
 * except the liveness timeout, {@link AeronEndpoint#LIVENESS_TIMEOUT_NS} as Aeron's: one system sits idle while the
 * other is measured.
 * Both processes give the same {@link BusContext#directory(Path)} so that IPC channels meet.
 */
final class BusEndpoint implements Endpoint
{
    private final Bus bus;
    private ExclusivePublication[] publications = new ExclusivePublication[0];
    private int[] subscriberCounts = new int[0];
    private Subscription[] subscriptions = new Subscription[0];
    private MessageHandler target;
    private final FragmentHandler adapter = (buffer, offset, length, header) ->
        target.onMessage(buffer, offset, length);

    BusEndpoint(final Path directory, final String name)
    {
        bus = Bus.launch(new BusContext().directory(directory).name(name).threadingMode(ThreadingMode.INVOKER)
            .livenessTimeoutNs(AeronEndpoint.LIVENESS_TIMEOUT_NS));
    }

    @Override
    public void addPublication(final String channel, final int streamId, final int subscribers)
    {
        publications = Arrays.copyOf(publications, publications.length + 1);
        publications[publications.length - 1] = bus.addExclusivePublication(channel);
        subscriberCounts = Arrays.copyOf(subscriberCounts, subscriberCounts.length + 1);
        subscriberCounts[subscriberCounts.length - 1] = subscribers;
    }

    @Override
    public void addSubscription(final String channel, final int streamId)
    {
        subscriptions = Arrays.copyOf(subscriptions, subscriptions.length + 1);
        subscriptions[subscriptions.length - 1] = bus.addSubscription(channel);
    }

    @Override
    public boolean isConnected()
    {
        for (int i = 0; i < publications.length; i++)
        {
            if (!publications[i].isConnected() || publications[i].subscriberCount() < subscriberCounts[i])
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
        return bus.doWork();
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
            throw new IllegalStateException("offer failed: " + result + " on " + publications[publication]);
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
        subscriberCounts = new int[0];
        subscriptions = new Subscription[0];
    }

    @Override
    public void close()
    {
        bus.close();
    }

    @Override
    public String toString()
    {
        return "BusEndpoint{" + bus.context().name() + "}";
    }
}
