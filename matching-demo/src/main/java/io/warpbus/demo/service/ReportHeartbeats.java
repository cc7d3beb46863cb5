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
package io.warpbus.demo.service;

import java.nio.ByteBuffer;

import io.warpbus.orderentry.sbe.EngineHeartbeatEncoder;
import io.warpbus.orderentry.sbe.MessageHeaderEncoder;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The {@code EngineHeartbeat}s of one report stream: every interval while a subscriber is connected, and at once
 * when the publication gains a subscriber. A subscriber learns that it is connected before this side's publication
 * counts it, so a report published in between would go to nobody; the greeting tells a client when reports will
 * reach it, and clients send nothing before it.
 */
final class ReportHeartbeats
{
    private final OutboundStream stream;
    private final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final EngineHeartbeatEncoder encoder = new EngineHeartbeatEncoder();
    private int subscribers;

    ReportHeartbeats(final OutboundStream stream)
    {
        this.stream = stream;
    }

    /**
     * Greet a subscriber that has just joined.
     *
     * @param epochNs    the time to put in the greeting.
     * @param lastExecId the stream's last exec id.
     * @return 1 if the subscriber count changed, else 0.
     */
    int greetSubscribers(final long epochNs, final long lastExecId)
    {
        final int subscribers = stream.publication().subscriberCount();
        if (subscribers == this.subscribers)
        {
            return 0;
        }
        final boolean joined = subscribers > this.subscribers;
        this.subscribers = subscribers;
        if (joined)
        {
            heartbeat(epochNs, lastExecId);
        }
        return 1;
    }

    /**
     * Publish a heartbeat when a subscriber is connected.
     *
     * @param epochNs    its transact time.
     * @param lastExecId the stream's last exec id.
     */
    void heartbeat(final long epochNs, final long lastExecId)
    {
        if (!stream.isConnected())
        {
            return;
        }
        encoder.wrapAndApplyHeader(buffer, 0, headerEncoder).lastExecId(lastExecId).transactTime(epochNs);
        stream.publish(buffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength());
    }
}
