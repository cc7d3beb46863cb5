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
package io.warpbus.gateway.fix;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * What the adapter keeps of one FIX session across logons and gateway restarts, in a small memory-mapped file beside
 * QuickFIX/J's store (so a {@code kill -9} loses nothing the process wrote): the token of the session core's session
 * that carries the FIX session, and the core sequence number of the last event handed to QuickFIX/J, which has put it
 * in its own store by then. The next logon resumes the core session from the number after it: what the core raised
 * while the FIX client was away, or while the gateway was down, reaches the client as new FIX messages, and nothing
 * it already got is sent twice.
 * <pre>
 *   0 int64 magic, 8 int64 token high, 16 int64 token low, 24 int64 last delivered core seq
 * </pre>
 * The logon thread writes the token before the session goes live; the sender thread then writes the last delivered
 * number.
 */
final class FixSessionState implements AutoCloseable
{
    static final long MAGIC = 0x5742_4649_5853_5431L;
    private static final int LENGTH = 32;
    private static final int TOKEN_HIGH_OFFSET = 8;
    private static final int TOKEN_LOW_OFFSET = 16;
    private static final int DELIVERED_OFFSET = 24;

    private final MappedByteBuffer mapped;
    private final UnsafeBuffer buffer;
    private final Path file;

    FixSessionState(final Path file)
    {
        this.file = file;
        try
        {
            Files.createDirectories(file.getParent());
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE))
            {
                final long size = channel.size();
                if (0 != size && LENGTH != size)
                {
                    throw new IllegalStateException("FIX session state " + file + " is " + size + " bytes, not " +
                        LENGTH + ": not a file this gateway wrote");
                }
                mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, LENGTH);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot open the FIX session state " + file, ex);
        }
        buffer = new UnsafeBuffer(mapped);
        final long magic = buffer.getLongVolatile(0);
        if (0 == magic)
        {
            buffer.putLongVolatile(0, MAGIC);
        }
        else if (MAGIC != magic)
        {
            throw new IllegalStateException("FIX session state " + file + " does not start with the magic number: " +
                "not a file this gateway wrote");
        }
    }

    /**
     * Does the FIX session have a core session to resume?
     *
     * @return true once a logon has been accepted.
     */
    boolean hasCoreSession()
    {
        return 0 != buffer.getLongVolatile(TOKEN_HIGH_OFFSET);
    }

    long tokenHigh()
    {
        return buffer.getLongVolatile(TOKEN_HIGH_OFFSET);
    }

    long tokenLow()
    {
        return buffer.getLongVolatile(TOKEN_LOW_OFFSET);
    }

    /**
     * The core sequence number of the last event handed to QuickFIX/J.
     *
     * @return 0 when none.
     */
    long lastDelivered()
    {
        return buffer.getLongVolatile(DELIVERED_OFFSET);
    }

    /**
     * A new core session carries the FIX session from now on.
     *
     * @param high      token, first half.
     * @param low       token, second half.
     * @param delivered what of it the client has: 0 for a new core session.
     */
    void coreSession(final long high, final long low, final long delivered)
    {
        buffer.putLongVolatile(TOKEN_HIGH_OFFSET, high);
        buffer.putLongVolatile(TOKEN_LOW_OFFSET, low);
        buffer.putLongVolatile(DELIVERED_OFFSET, delivered);
    }

    /**
     * An event went to QuickFIX/J.
     *
     * @param seq its core sequence number.
     */
    void delivered(final long seq)
    {
        buffer.putLongOrdered(DELIVERED_OFFSET, seq);
    }

    @Override
    public void close()
    {
        IoUtil.unmap(mapped);
    }

    @Override
    public String toString()
    {
        return file.toString();
    }
}
