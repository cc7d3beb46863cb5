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
package io.warpbus.bench.rdma;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.ServerSocketChannel;

/**
 * The second process of the rdma suite. It runs each test the orchestrator names on its control socket, one at a
 * time on its main thread, as the mirror image of the orchestrator's side: it echoes ping-pong messages and
 * acknowledges the end of a stream.
 */
public final class RdmaResponder
{
    static final int QUIT = 0;
    static final int PINGPONG = 1;
    static final int STREAM = 2;
    static final int IWARP = 1;
    static final int TCP = 2;
    static final int IWARP_BUFFERED = 3;

    private RdmaResponder()
    {
    }

    /**
     * Start the responder on loopback; it prints {@code READY <control> <tcp> <iwarp> <iwarp-buffered>} ports.
     *
     * @param args bind address, optional (default loopback).
     * @throws IOException on a socket failure.
     */
    public static void main(final String[] args) throws IOException
    {
        final InetAddress host = args.length > 0 ? InetAddress.getByName(args[0]) : InetAddress.getLoopbackAddress();
        try (ServerSocket control = new ServerSocket(0, 1, host);
            ServerSocketChannel tcpListener = ServerSocketChannel.open();
            IwarpEndpoint iwarp = IwarpEndpoint.listen(new InetSocketAddress(host, 0), true);
            IwarpEndpoint buffered = IwarpEndpoint.listen(new InetSocketAddress(host, 0), false))
        {
            tcpListener.bind(new InetSocketAddress(host, 0), 1);
            System.out.println("READY " + control.getLocalPort() + " " +
                ((InetSocketAddress)tcpListener.getLocalAddress()).getPort() + " " + iwarp.port() + " " +
                buffered.port());
            System.out.flush();
            try (Socket controlSocket = control.accept();
                TcpEndpoint tcp = new TcpEndpoint(tcpListener.accept()))
            {
                iwarp.acceptOne();
                buffered.acceptOne();
                serve(new DataInputStream(controlSocket.getInputStream()),
                    new DataOutputStream(controlSocket.getOutputStream()), iwarp, buffered, tcp);
            }
        }
    }

    private static void serve(
        final DataInputStream in,
        final DataOutputStream out,
        final IwarpEndpoint iwarp,
        final IwarpEndpoint buffered,
        final TcpEndpoint tcp) throws IOException
    {
        while (true)
        {
            final int op = in.readInt();
            if (QUIT == op)
            {
                return;
            }
            final int system = in.readInt();
            final int size = in.readInt();
            final long count = in.readLong();
            final long runId = in.readLong();
            out.writeInt(0);
            out.flush();
            final IwarpEndpoint endpoint = IWARP_BUFFERED == system ? buffered : iwarp;
            if (PINGPONG == op)
            {
                echo(system, size, count, runId, endpoint, tcp);
            }
            else
            {
                sink(system, size, count, runId, endpoint, tcp);
            }
            out.writeInt(0);
            out.flush();
        }
    }

    private static void echo(
        final int system,
        final int size,
        final long count,
        final long runId,
        final IwarpEndpoint iwarp,
        final TcpEndpoint tcp) throws IOException
    {
        for (long i = 1; i <= count; i++)
        {
            final long sequence = (runId << 32) + i;
            if (TCP != system)
            {
                iwarp.awaitSequenced(size, sequence);
                iwarp.writeSequenced(size, sequence);
            }
            else
            {
                final long received = tcp.readSequenced(size);
                if (received != sequence)
                {
                    throw new IOException("TCP ping out of step: " + received + " != " + sequence);
                }
                tcp.writeSequenced(size, sequence);
            }
        }
        if (TCP != system)
        {
            iwarp.flush();
        }
    }

    private static void sink(
        final int system,
        final int size,
        final long count,
        final long runId,
        final IwarpEndpoint iwarp,
        final TcpEndpoint tcp) throws IOException
    {
        if (TCP != system)
        {
            iwarp.awaitSlot(IwarpEndpoint.DONE_OFFSET, runId);
            iwarp.signal(IwarpEndpoint.ACK_OFFSET, runId);
            iwarp.flush();
        }
        else
        {
            tcp.readBulk(size * count);
            tcp.writeSequenced(8, runId);
        }
    }
}
