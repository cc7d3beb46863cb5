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
package io.warpbus.testing;

import java.nio.ByteBuffer;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Helpers for the wire codec tests (MPA, DDP, RDMAP): hand-written wire bytes, direct buffers and replayable seeds.
 */
public final class WireTestSupport
{
    /** System property that replays a fuzz run: {@code -Dwarpbus.fuzz.seed=N}. */
    public static final String SEED_PROPERTY = "warpbus.fuzz.seed";

    private WireTestSupport()
    {
    }

    /**
     * Parse hex written by hand, ignoring spaces, e.g. {@code "00 2a 41 43"}.
     *
     * @param hex pairs of hex digits.
     * @return the bytes.
     */
    public static byte[] hex(final String hex)
    {
        final String digits = hex.replace(" ", "");
        if (digits.length() % 2 != 0)
        {
            throw new IllegalArgumentException("odd number of hex digits: " + hex);
        }
        final byte[] bytes = new byte[digits.length() / 2];
        for (int i = 0; i < bytes.length; i++)
        {
            bytes[i] = (byte)Integer.parseInt(digits.substring(2 * i, 2 * i + 2), 16);
        }
        return bytes;
    }

    /**
     * Format bytes as lower-case hex pairs separated by spaces, for failure messages.
     *
     * @param bytes to format.
     * @return e.g. {@code "00 2a"}.
     */
    public static String toHex(final byte[] bytes)
    {
        final StringBuilder sb = new StringBuilder();
        for (final byte b : bytes)
        {
            sb.append(sb.length() > 0 ? " " : "").append(String.format("%02x", b & 0xFF));
        }
        return sb.toString();
    }

    /**
     * An UnsafeBuffer over a new direct ByteBuffer.
     *
     * @param length capacity.
     * @return the buffer, zero filled.
     */
    public static UnsafeBuffer directBuffer(final int length)
    {
        return new UnsafeBuffer(ByteBuffer.allocateDirect(length));
    }

    /**
     * Copy bytes out of a buffer.
     *
     * @param buffer to read.
     * @param offset first byte.
     * @param length number of bytes.
     * @return a new array.
     */
    public static byte[] bytes(final DirectBuffer buffer, final int offset, final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        return bytes;
    }

    /**
     * The seed for a fuzz run: the replay property when set, else a fresh one.
     *
     * @return the seed.
     */
    public static long seed()
    {
        final String replay = System.getProperty(SEED_PROPERTY);
        return null != replay ? Long.parseLong(replay) : System.nanoTime();
    }

    /**
     * What a fuzz failure message starts with, enough to replay it.
     *
     * @param seed      of the run.
     * @param iteration that failed.
     * @return the text.
     */
    public static String replay(final long seed, final int iteration)
    {
        return "seed=" + seed + " iteration=" + iteration + " (replay with -D" + SEED_PROPERTY + "=" + seed + ")";
    }
}
