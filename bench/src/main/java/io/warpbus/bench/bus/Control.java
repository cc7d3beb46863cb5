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

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * The control connection between the orchestrator and the responder: commands one way, an int reply the other.
 * Waiting for a reply never blocks the process's one thread: it keeps running a duty cycle of whatever it is given,
 * so the systems stay alive (heartbeats, credits, status messages) and a run's last bytes still leave.
 * <pre>
 *   OPEN     system, publications (uri, stream, subscribers)*, subscriptions (uri, stream)*  -&gt; 0 once connected
 *   PINGPONG system, size, count, runId  -&gt; 0 after settling, then errors and cpu share after the stop ping
 *   SINK     system, size, count, runId  -&gt; 0 after settling, then errors and cpu share once every subscription
 *                                           has all
 *   CLOSE    system                      -&gt; 0 once closed
 *   QUIT
 * </pre>
 */
final class Control
{
    static final int QUIT = 0;
    static final int OPEN = 1;
    static final int PINGPONG = 2;
    static final int SINK = 3;
    static final int CLOSE = 4;
    /** Low 32 bits of the sequence of the ping that ends a ping-pong run. */
    static final long STOP = 0xFFFF_FFFFL;
    /** How long the responder runs the measured system before it acknowledges a run. */
    static final long SETTLE_NS = 250_000_000L;
    private static final int CHECK_EVERY = 16;
    private static final long ALIVE_CHECK_NS = 100_000_000L;
    private static final java.lang.management.ThreadMXBean THREADS =
        java.lang.management.ManagementFactory.getThreadMXBean();

    final DataInputStream in;
    final DataOutputStream out;
    private final ProcessHandle peer;

    /**
     * Wrap a connected socket.
     *
     * @param socket the control connection.
     * @param peer   the other process, checked while waiting so that a dead peer ends the wait.
     * @throws IOException on a socket failure.
     */
    Control(final Socket socket, final ProcessHandle peer) throws IOException
    {
        this.peer = peer;
        socket.setTcpNoDelay(true);
        in = new DataInputStream(socket.getInputStream());
        out = new DataOutputStream(socket.getOutputStream());
    }

    /**
     * Spin a duty cycle until an int has arrived, then read it.
     *
     * @param work      the duty cycle.
     * @param timeoutNs how long to wait: a peer that died sends nothing, and a busy spin must not outlive it.
     * @return the int.
     * @throws IOException when nothing arrived in time.
     */
    int awaitInt(final Runnable work, final long timeoutNs) throws IOException
    {
        final long deadline = System.nanoTime() + timeoutNs;
        long nextAliveCheck = System.nanoTime() + ALIVE_CHECK_NS;
        while (true)
        {
            for (int i = 0; i < CHECK_EVERY; i++)
            {
                work.run();
            }
            if (in.available() >= 4)
            {
                return in.readInt();
            }
            final long now = System.nanoTime();
            if (now - deadline > 0)
            {
                throw new IOException("nothing on the control connection for " + timeoutNs / 1_000_000_000L + " s");
            }
            if (now - nextAliveCheck > 0)
            {
                nextAliveCheck = now + ALIVE_CHECK_NS;
                if (!peer.isAlive())
                {
                    throw new IOException("the other process (pid " + peer.pid() + ") has exited");
                }
            }
        }
    }

    /**
     * Fail when the other process has exited: for busy loops that wait on it through a system, not this socket.
     */
    void checkPeer()
    {
        if (!peer.isAlive())
        {
            throw new IllegalStateException("the other process (pid " + peer.pid() + ") has exited");
        }
    }

    /**
     * CPU time of the calling thread: against wall time, the share of a core the thread had.
     *
     * @return nanoseconds.
     */
    static long threadCpuNs()
    {
        return THREADS.getCurrentThreadCpuTime();
    }

    /**
     * Reply with the end of a run: errors, then the share of a core the thread had since {@code cpu0} and
     * {@code wall0}, in thousandths.
     *
     * @param errors messages out of sequence.
     * @param cpu0   {@link #threadCpuNs()} at the start.
     * @param wall0  {@link System#nanoTime()} at the start.
     * @throws IOException on a socket failure.
     */
    void replyResult(final long errors, final long cpu0, final long wall0) throws IOException
    {
        final long share = (threadCpuNs() - cpu0) * 1000 / Math.max(1, System.nanoTime() - wall0);
        out.writeInt((int)Math.min(Integer.MAX_VALUE, errors));
        out.writeInt((int)Math.min(Integer.MAX_VALUE, share));
        out.flush();
    }

    void reply(final int value) throws IOException
    {
        out.writeInt(value);
        out.flush();
    }

    void writeChannels(final List<Channels.Channel> channels) throws IOException
    {
        out.writeInt(channels.size());
        for (final Channels.Channel channel : channels)
        {
            out.writeUTF(channel.uri());
            out.writeInt(channel.streamId());
            out.writeInt(channel.subscribers());
        }
    }

    List<Channels.Channel> readChannels() throws IOException
    {
        final int count = in.readInt();
        final List<Channels.Channel> channels = new ArrayList<>(count);
        for (int i = 0; i < count; i++)
        {
            channels.add(new Channels.Channel(in.readUTF(), in.readInt(), in.readInt()));
        }
        return channels;
    }
}
