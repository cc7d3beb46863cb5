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
package io.warpbus.iwarp.mpa;

/**
 * The ready-to-receive message an initiator sends as its first FPDU in the peer-to-peer model (RFC 6581 section
 * 9.2): a zero-length Send, RDMA Write or RDMA Read. Listed in this engine's order of preference: a zero-length
 * Write needs no buffer and no reply, a Read needs a Read Response, a Send consumes a posted receive buffer.
 */
public enum RtrType
{
    /** Zero-length RDMA Write (C flag). */
    WRITE(1),
    /** Zero-length RDMA Read (D flag). */
    READ(2),
    /** Zero-length Send (B flag). */
    SEND(4);

    /** Every type. */
    public static final int ALL = 7;
    private static final RtrType[] VALUES = values();

    private final int bit;

    RtrType(final int bit)
    {
        this.bit = bit;
    }

    /**
     * This type's bit in a mask of types.
     *
     * @return the bit.
     */
    public int bit()
    {
        return bit;
    }

    /**
     * The most preferred type in a mask.
     *
     * @param mask of type bits.
     * @return the type, or null when the mask is empty.
     */
    public static RtrType preferred(final int mask)
    {
        for (final RtrType type : VALUES)
        {
            if ((mask & type.bit) != 0)
            {
                return type;
            }
        }
        return null;
    }

    /**
     * Parse a comma-separated list such as {@code write,read}.
     *
     * @param list the names.
     * @return the mask.
     * @throws IllegalArgumentException naming an unknown type.
     */
    public static int parseMask(final String list)
    {
        int mask = 0;
        for (final String name : list.split(","))
        {
            final String trimmed = name.trim();
            if (!trimmed.isEmpty())
            {
                try
                {
                    mask |= valueOf(trimmed.toUpperCase()).bit;
                }
                catch (final IllegalArgumentException ex)
                {
                    throw new IllegalArgumentException(
                        "unknown RTR type '" + trimmed + "': expected write, read or send");
                }
            }
        }
        return mask;
    }
}
