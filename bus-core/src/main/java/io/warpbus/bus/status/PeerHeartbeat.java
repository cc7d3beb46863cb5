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
package io.warpbus.bus.status;

/**
 * The other side's heartbeat, as this side sees it: a subscriber's or publisher's across a link, or a bus's in its
 * counters file as the metrics exporter sees it. The value the peer writes is its wall clock, another process's or
 * host's, which may be any distance from this one's and may step (NTP): so it is heard when it changes, and silence
 * is timed on this side's monotonic clock, never by comparing the value with a clock here.
 */
public final class PeerHeartbeat
{
    private long value;
    private long heardNs;

    /**
     * Count the peer as heard now (it has just joined or connected).
     *
     * @param nowNs this side's monotonic time.
     */
    public void heard(final long nowNs)
    {
        heardNs = nowNs;
    }

    /**
     * Take the value the peer last wrote: heard now if it changed.
     *
     * @param value the value read.
     * @param nowNs this side's monotonic time.
     */
    public void read(final long value, final long nowNs)
    {
        if (value != this.value)
        {
            this.value = value;
            heardNs = nowNs;
        }
    }

    /**
     * How long the peer has been silent.
     *
     * @param nowNs this side's monotonic time.
     * @return nanoseconds since it was last heard.
     */
    public long silentNs(final long nowNs)
    {
        return nowNs - heardNs;
    }
}
