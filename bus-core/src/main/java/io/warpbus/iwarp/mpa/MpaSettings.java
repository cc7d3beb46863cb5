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
 * What this side proposes and accepts in the MPA exchange.
 *
 * @param crcPolicy  CRC policy.
 * @param revision   MPA revision to request, 1 or 2 (2 enables IRD/ORD negotiation and peer-to-peer RTR).
 * @param ird        inbound RDMA Read requests this side accepts at once, 0 to 16383.
 * @param ord        outbound RDMA Read requests this side wants in flight, 0 to 16383.
 * @param maxIrd     the most inbound reads this side will grow its IRD to at a peer's request.
 * @param rtrTypes   mask of {@link RtrType} bits this side can send and receive.
 */
public record MpaSettings(CrcPolicy crcPolicy, int revision, int ird, int ord, int maxIrd, int rtrTypes)
{
    /**
     * Validate.
     */
    public MpaSettings
    {
        if (revision != 1 && revision != 2)
        {
            throw new IllegalArgumentException("MPA revision must be 1 or 2: " + revision);
        }
        if (ird < 0 || ird >= MpaFrameFlyweight.IRD_ORD_NO_NEGOTIATION || ord < 0 ||
            ord >= MpaFrameFlyweight.IRD_ORD_NO_NEGOTIATION)
        {
            throw new IllegalArgumentException("IRD and ORD must be in [0, 16382]: ird=" + ird + " ord=" + ord);
        }
        if (maxIrd < ird)
        {
            throw new IllegalArgumentException("maxIrd " + maxIrd + " is below ird " + ird);
        }
        if ((rtrTypes & RtrType.ALL) == 0 || (rtrTypes & ~RtrType.ALL) != 0)
        {
            throw new IllegalArgumentException("rtrTypes must name at least one of write, read, send: " + rtrTypes);
        }
    }
}
