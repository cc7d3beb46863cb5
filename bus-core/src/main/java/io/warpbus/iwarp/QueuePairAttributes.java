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

import java.util.Objects;

/**
 * Parameters for {@link ProtectionDomain#createQueuePair(QueuePairAttributes)}.
 */
public final class QueuePairAttributes
{
    private CompletionQueue sendCompletionQueue;
    private CompletionQueue receiveCompletionQueue;
    private int sendQueueDepth = 256;
    private int receiveQueueDepth = 256;

    /**
     * Completion queue for send queue work requests.
     *
     * @param queue the queue.
     * @return this for a fluent API.
     */
    public QueuePairAttributes sendCompletionQueue(final CompletionQueue queue)
    {
        this.sendCompletionQueue = queue;
        return this;
    }

    /**
     * Completion queue for receive work requests.
     *
     * @param queue the queue.
     * @return this for a fluent API.
     */
    public QueuePairAttributes receiveCompletionQueue(final CompletionQueue queue)
    {
        this.receiveCompletionQueue = queue;
        return this;
    }

    /**
     * Use one completion queue for both queues.
     *
     * @param queue the queue.
     * @return this for a fluent API.
     */
    public QueuePairAttributes completionQueue(final CompletionQueue queue)
    {
        this.sendCompletionQueue = queue;
        this.receiveCompletionQueue = queue;
        return this;
    }

    /**
     * Maximum outstanding send queue work requests (rounded up to a power of two).
     *
     * @param depth the depth.
     * @return this for a fluent API.
     */
    public QueuePairAttributes sendQueueDepth(final int depth)
    {
        this.sendQueueDepth = depth;
        return this;
    }

    /**
     * Maximum posted receive buffers (rounded up to a power of two).
     *
     * @param depth the depth.
     * @return this for a fluent API.
     */
    public QueuePairAttributes receiveQueueDepth(final int depth)
    {
        this.receiveQueueDepth = depth;
        return this;
    }

    /**
     * The send completion queue.
     *
     * @return the queue.
     */
    public CompletionQueue sendCompletionQueue()
    {
        return sendCompletionQueue;
    }

    /**
     * The receive completion queue.
     *
     * @return the queue.
     */
    public CompletionQueue receiveCompletionQueue()
    {
        return receiveCompletionQueue;
    }

    /**
     * The send queue depth.
     *
     * @return the depth.
     */
    public int sendQueueDepth()
    {
        return sendQueueDepth;
    }

    /**
     * The receive queue depth.
     *
     * @return the depth.
     */
    public int receiveQueueDepth()
    {
        return receiveQueueDepth;
    }

    void validate()
    {
        Objects.requireNonNull(sendCompletionQueue, "sendCompletionQueue");
        Objects.requireNonNull(receiveCompletionQueue, "receiveCompletionQueue");
        if (sendQueueDepth < 1 || sendQueueDepth > 1 << 16)
        {
            throw new IllegalArgumentException("sendQueueDepth must be in [1, 65536]: " + sendQueueDepth);
        }
        if (receiveQueueDepth < 1 || receiveQueueDepth > 1 << 16)
        {
            throw new IllegalArgumentException("receiveQueueDepth must be in [1, 65536]: " + receiveQueueDepth);
        }
    }
}
