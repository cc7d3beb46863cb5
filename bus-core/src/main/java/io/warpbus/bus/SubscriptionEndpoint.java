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
package io.warpbus.bus;

/**
 * The bus-side half of a subscription on one transport: it keeps the subscription joined to its publisher, turns
 * each connection into an {@link Image}, returns credit and watches the publisher's heartbeat.
 */
interface SubscriptionEndpoint
{
    /**
     * One duty cycle.
     *
     * @param nowNs monotonic time.
     * @param nowMs epoch time for heartbeats.
     * @return work done.
     */
    int doWork(long nowNs, long nowMs);

    /**
     * Leave: tell the publisher and release the ring.
     */
    void close();

    /**
     * Has {@link #close()} finished?
     *
     * @return true once everything is released.
     */
    boolean isClosed();
}
