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
package io.warpbus.iwarp;

/**
 * What an application offers when it connects or accepts: private data and, optionally, its own RDMA Read depths
 * instead of the engine's defaults.
 */
public final class ConnectionParameters
{
    private static final byte[] NO_DATA = new byte[0];

    private byte[] privateData = NO_DATA;
    private int ird = -1;
    private int ord = -1;

    /**
     * Private data for the peer's application: at most 508 bytes with MPA revision 2, 512 with revision 1.
     *
     * @param data the bytes (copied).
     * @return this for a fluent API.
     */
    public ConnectionParameters privateData(final byte[] data)
    {
        this.privateData = data.clone();
        return this;
    }

    /**
     * The private data.
     *
     * @return the bytes.
     */
    public byte[] privateData()
    {
        return privateData;
    }

    /**
     * Inbound RDMA Read depth for this connection; -1 for the engine's default.
     *
     * @param ird the depth.
     * @return this for a fluent API.
     */
    public ConnectionParameters ird(final int ird)
    {
        this.ird = ird;
        return this;
    }

    /**
     * The inbound read depth.
     *
     * @return the depth, -1 for the default.
     */
    public int ird()
    {
        return ird;
    }

    /**
     * Outbound RDMA Read depth for this connection; -1 for the engine's default.
     *
     * @param ord the depth.
     * @return this for a fluent API.
     */
    public ConnectionParameters ord(final int ord)
    {
        this.ord = ord;
        return this;
    }

    /**
     * The outbound read depth.
     *
     * @return the depth, -1 for the default.
     */
    public int ord()
    {
        return ord;
    }
}
