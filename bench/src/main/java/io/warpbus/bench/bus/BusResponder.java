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

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The second process of the bus suite: its own WarpBus bus and its own embedded Aeron driver, plus (for
 * {@code aeron:ipc}) a client of the orchestrator's driver. It runs what the orchestrator names on the control
 * connection, one thing at a time on its main thread, the mirror image of the orchestrator's side: it subscribes,
 * echoes pings, and drains fan-out streams. Between commands it keeps running a duty cycle of every system so that
 * none of them times out while the other is measured.
 */
public final class BusResponder
{
    private static final long COMMAND_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);
    private static final long RUN_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(120);
    private static final long CONNECT_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);
    private static final int SINK_POLL_LIMIT = 256;

    private final Control control;
    private final BusEndpoint bus;
    private final AeronEndpoint udp;
    private final PeerEndpoints peers;
    private final String orchestratorAeronDirectory;
    private final Map<BusSystem, Integer> subscriptionCounts = new EnumMap<>(BusSystem.class);
    private final Runnable tick = this::tick;
    private final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(4096));
    private AeronEndpoint ipc;
    private int messageLength;
    private int current;
    private long base;
    private long errors;
    private long[] received = new long[0];
    private final Endpoint.MessageHandler echoHandler = (buffer, offset, length) ->
    {
        message.putBytes(0, buffer, offset, length);
        messageLength = length;
    };
    private final Endpoint.MessageHandler sinkHandler = (buffer, offset, length) ->
    {
        final long sequence = buffer.getLong(offset);
        if (sequence != base + received[current])
        {
            errors++;
            received[current] = sequence - base;
        }
        received[current]++;
    };

    private BusResponder(
        final Control control, final BusEndpoint bus, final AeronEndpoint udp, final PeerEndpoints peers,
        final String orchestratorAeronDirectory)
    {
        this.peers = peers;
        this.control = control;
        this.bus = bus;
        this.udp = udp;
        this.orchestratorAeronDirectory = orchestratorAeronDirectory;
    }

    /**
     * Start the responder on loopback; it prints {@code READY <control port>}.
     *
     * @param args the WarpBus directory shared with the orchestrator (IPC meets there), and the directory of the
     *             orchestrator's Aeron driver (for {@code aeron:ipc}).
     * @throws IOException on a control socket failure.
     */
    public static void main(final String[] args) throws IOException
    {
        final ProcessHandle parent = ProcessHandle.current().parent()
            .orElseThrow(() -> new IllegalStateException("the responder is started by the bus suite"));
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
            BusEndpoint bus = new BusEndpoint(Path.of(args[0]), "bench-responder-" + ProcessHandle.current().pid());
            AeronEndpoint udp = AeronEndpoint.embedded(BenchDirectories.of("aeron-responder").toString());
            PeerEndpoints peers = new PeerEndpoints())
        {
            System.out.println("READY " + server.getLocalPort());
            System.out.flush();
            try (Socket socket = server.accept())
            {
                final BusResponder responder = new BusResponder(new Control(socket, parent), bus, udp, peers,
                    args[1]);
                try
                {
                    responder.serve();
                }
                finally
                {
                    CloseHelper.quietClose(responder.ipc);
                }
            }
        }
    }

    private void serve() throws IOException
    {
        while (true)
        {
            final int op = control.awaitInt(tick, COMMAND_TIMEOUT_NS);
            switch (op)
            {
                case Control.QUIT:
                    return;
                case Control.OPEN:
                    open(BusSystem.values()[control.in.readInt()]);
                    break;
                case Control.PINGPONG:
                    echo();
                    break;
                case Control.SINK:
                    sink();
                    break;
                case Control.CLOSE:
                    close(BusSystem.values()[control.in.readInt()]);
                    break;
                default:
                    throw new IOException("unknown command " + op);
            }
        }
    }

    private void open(final BusSystem system) throws IOException
    {
        final List<Channels.Channel> publications = control.readChannels();
        final List<Channels.Channel> subscriptions = control.readChannels();
        final Endpoint endpoint = endpoint(system);
        for (final Channels.Channel channel : publications)
        {
            endpoint.addPublication(channel.uri(), channel.streamId(), channel.subscribers());
        }
        for (final Channels.Channel channel : subscriptions)
        {
            endpoint.addSubscription(channel.uri(), channel.streamId());
        }
        subscriptionCounts.put(system, subscriptions.size());
        final long deadline = System.nanoTime() + CONNECT_TIMEOUT_NS;
        while (!endpoint.isConnected())
        {
            tick();
            if (System.nanoTime() - deadline > 0)
            {
                System.err.println("bus responder: " + system.label() + " did not connect " + subscriptions +
                    " within " + TimeUnit.NANOSECONDS.toSeconds(CONNECT_TIMEOUT_NS) + " s");
                control.reply(-1);
                return;
            }
        }
        control.reply(0);
    }

    /**
     * Echo pings until the orchestrator's stop ping: each is polled, copied and offered back on the pong channel.
     */
    private void echo() throws IOException
    {
        final Endpoint endpoint = endpoint(BusSystem.values()[control.in.readInt()]);
        control.in.readInt();
        control.in.readLong();
        base = control.in.readLong() << 32;
        errors = 0;
        settle(endpoint);
        control.reply(0);
        final long stop = base + Control.STOP;
        final long cpu0 = Control.threadCpuNs();
        final long wall0 = System.nanoTime();
        final long deadline = wall0 + RUN_TIMEOUT_NS;
        long spins = 0;
        long echoed = 0;
        while (true)
        {
            endpoint.doWork();
            if (endpoint.poll(0, echoHandler, 1) > 0)
            {
                final long sequence = message.getLong(0);
                if (sequence != base + echoed + 1 && sequence != stop)
                {
                    errors++;
                }
                while (!endpoint.offer(0, message, 0, messageLength))
                {
                    endpoint.doWork();
                }
                echoed++;
                if (sequence == stop)
                {
                    break;
                }
            }
            if ((++spins & 0xFFFF) == 0)
            {
                control.checkPeer();
                if (System.nanoTime() - deadline > 0)
                {
                    throw new IllegalStateException("echo timed out after " + echoed + " pings");
                }
            }
        }
        control.replyResult(errors, cpu0, wall0);
    }

    /**
     * Poll every subscription until each has received {@code count} messages, checking their sequence.
     */
    private void sink() throws IOException
    {
        final BusSystem system = BusSystem.values()[control.in.readInt()];
        final Endpoint endpoint = endpoint(system);
        control.in.readInt();
        final long count = control.in.readLong();
        base = control.in.readLong() << 32;
        errors = 0;
        received = new long[subscriptionCounts.getOrDefault(system, 0)];
        settle(endpoint);
        control.reply(0);
        final long cpu0 = Control.threadCpuNs();
        final long wall0 = System.nanoTime();
        final long deadline = wall0 + RUN_TIMEOUT_NS;
        long spins = 0;
        long pollsWithMessages = 0;
        int done = 0;
        while (done < received.length)
        {
            endpoint.doWork();
            done = 0;
            for (int i = 0; i < received.length; i++)
            {
                if (received[i] < count)
                {
                    current = i;
                    if (endpoint.poll(i, sinkHandler, SINK_POLL_LIMIT) > 0)
                    {
                        pollsWithMessages++;
                    }
                }
                else
                {
                    done++;
                }
            }
            if ((++spins & 0xFFFF) == 0)
            {
                control.checkPeer();
                if (System.nanoTime() - deadline > 0)
                {
                    throw new IllegalStateException("sink timed out: " + java.util.Arrays.toString(received) +
                        " of " + count);
                }
            }
        }
        control.replyResult(errors, cpu0, wall0);
        // Which side held the rate: a subscriber that keeps up takes a few messages per poll, one that is behind
        // takes up to the limit.
        control.out.writeLong(pollsWithMessages);
        control.out.writeLong(java.util.Arrays.stream(received).sum());
        control.out.flush();
    }

    private void close(final BusSystem system) throws IOException
    {
        endpoint(system).closeChannels();
        subscriptionCounts.remove(system);
        final long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
        while (System.nanoTime() - until < 0)
        {
            tick();
        }
        control.reply(0);
    }

    /**
     * Run the system about to be measured for a moment first, while the orchestrator does too: it may have sat idle
     * through the other system's run, and its heartbeats, credits and status messages (an Aeron multi-destination
     * publication forgets a destination not heard from for 5 s) should be fresh when the clock starts.
     */
    private static void settle(final Endpoint endpoint)
    {
        final long until = System.nanoTime() + Control.SETTLE_NS;
        while (System.nanoTime() - until < 0)
        {
            endpoint.doWork();
        }
    }

    private Endpoint endpoint(final BusSystem system)
    {
        switch (system)
        {
            case WARPBUS_IWARP:
            case WARPBUS_IPC:
                return bus;
            case AERON_UDP:
                return udp;
            case AERON_IPC:
                if (null == ipc)
                {
                    ipc = AeronEndpoint.attach(orchestratorAeronDirectory);
                }
                return ipc;
            default:
                return peers.of(system);
        }
    }

    private void tick()
    {
        bus.doWork();
        udp.doWork();
        peers.doWork();
        if (null != ipc)
        {
            ipc.doWork();
        }
    }
}
