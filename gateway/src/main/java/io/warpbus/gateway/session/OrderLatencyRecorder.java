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

/**
 * Receives each order request's round trip inside the gateway: from the adapter receiving the client's request to
 * the answer queued for the client, and the part of it the gateway itself spent (request received to sent on the
 * bus, plus the engine's answer taken by the session core to queued); the rest is the bus and the engine. A request
 * the gateway rejects itself spent all of its round trip in the gateway. Called on the session core's thread: must
 * not block or allocate.
 */
@FunctionalInterface
public interface OrderLatencyRecorder
{
    /**
     * One round trip.
     *
     * @param totalNanos   request in to answer out.
     * @param gatewayNanos of that, the time spent in the gateway.
     */
    void onRoundTrip(long totalNanos, long gatewayNanos);
}
