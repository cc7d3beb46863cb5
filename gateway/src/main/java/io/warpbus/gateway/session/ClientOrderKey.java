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
package io.warpbus.gateway.session;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A session's client order id as a map key: the session index and up to 36 ASCII bytes. Each order owns one key;
 * lookups fill one reusable probe, so that neither allocates.
 */
final class ClientOrderKey
{
    static final int WIDTH = CommandDescriptor.CLIENT_ORDER_ID_WIDTH;

    private final byte[] bytes = new byte[WIDTH];
    private int session;
    private int length;
    private int hash;

    /**
     * Fill from a length-prefixed field.
     *
     * @param session index of the session.
     * @param buffer  holding the field.
     * @param offset  of its length byte.
     * @return this.
     */
    ClientOrderKey set(final int session, final DirectBuffer buffer, final int offset)
    {
        this.session = session;
        length = Math.min(WIDTH, buffer.getByte(offset) & 0xFF);
        buffer.getBytes(offset + 1, bytes, 0, length);
        int h = 31 * session + length;
        for (int i = 0; i < length; i++)
        {
            h = 31 * h + bytes[i];
        }
        hash = h;
        return this;
    }

    /**
     * Copy another key.
     *
     * @param other the key.
     * @return this.
     */
    ClientOrderKey set(final ClientOrderKey other)
    {
        session = other.session;
        length = other.length;
        hash = other.hash;
        System.arraycopy(other.bytes, 0, bytes, 0, length);
        return this;
    }

    int session()
    {
        return session;
    }

    /**
     * Write as a length-prefixed field.
     *
     * @param buffer to write to.
     * @param offset of the length byte.
     */
    void put(final MutableDirectBuffer buffer, final int offset)
    {
        buffer.putByte(offset, (byte)length);
        buffer.putBytes(offset + 1, bytes, 0, length);
    }

    @Override
    public int hashCode()
    {
        return hash;
    }

    @Override
    public boolean equals(final Object obj)
    {
        if (!(obj instanceof ClientOrderKey))
        {
            return false;
        }
        final ClientOrderKey other = (ClientOrderKey)obj;
        if (other.session != session || other.length != length || other.hash != hash)
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            if (other.bytes[i] != bytes[i])
            {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString()
    {
        return new String(bytes, 0, length, java.nio.charset.StandardCharsets.US_ASCII);
    }
}
