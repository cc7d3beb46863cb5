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

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * One side of the plain TCP peer: a non-blocking NIO socket busy-polled by the benchmark's thread, with the same
 * socket options as the engine's connections. Messages are plain bytes, the kernel path the engine sits on.
 */
final class TcpEndpoint implements AutoCloseable
{
    private static final int BULK_CHUNK = 1 << 20;

    private final SocketChannel channel;
    private final ByteBuffer out = ByteBuffer.allocateDirect(BULK_CHUNK);
    private final ByteBuffer in = ByteBuffer.allocateDirect(BULK_CHUNK);

    TcpEndpoint(final SocketChannel channel) throws IOException
    {
        this.channel = channel;
        channel.configureBlocking(false);
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        channel.setOption(StandardSocketOptions.SO_SNDBUF, 4 << 20);
        channel.setOption(StandardSocketOptions.SO_RCVBUF, 4 << 20);
    }

    /** Send a message of {@code length} bytes whose last 8 bytes are the sequence. */
    void writeSequenced(final int length, final long sequence) throws IOException
    {
        out.clear().limit(length);
        out.putLong(length - 8, sequence);
        while (out.hasRemaining())
        {
            channel.write(out);
        }
    }

    /** Spin until a whole message of {@code length} bytes has arrived; return its sequence. */
    long readSequenced(final int length) throws IOException
    {
        in.clear().limit(length);
        while (in.hasRemaining())
        {
            if (channel.read(in) < 0)
            {
                throw new IOException("peer closed");
            }
        }
        return in.getLong(length - 8);
    }

    /** Send {@code total} bytes in chunks as large as the buffer: the kernel's bulk floor. */
    void writeBulk(final long total) throws IOException
    {
        long remaining = total;
        while (remaining > 0)
        {
            out.clear().limit((int)Math.min(out.capacity(), remaining));
            while (out.hasRemaining())
            {
                remaining -= channel.write(out);
            }
        }
    }

    /** Spin until {@code total} bytes have arrived. */
    void readBulk(final long total) throws IOException
    {
        long remaining = total;
        while (remaining > 0)
        {
            in.clear().limit((int)Math.min(in.capacity(), remaining));
            final int read = channel.read(in);
            if (read < 0)
            {
                throw new IOException("peer closed");
            }
            remaining -= read;
        }
    }

    @Override
    public void close() throws IOException
    {
        channel.close();
    }
}
