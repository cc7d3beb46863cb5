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
 * A view of one entry of a {@link CompletionQueue}, valid only during {@link CompletionHandler#onCompletion}.
 */
public final class WorkCompletion
{
    /** Flag: the inbound Send asked for a solicited event. */
    public static final int FLAG_SOLICITED = 1;
    /** Flag: the inbound Send invalidated a local STag, see {@link #invalidatedStag()}. */
    public static final int FLAG_INVALIDATED = 2;

    private final CompletionQueue queue;
    private int index;

    WorkCompletion(final CompletionQueue queue)
    {
        this.queue = queue;
    }

    WorkCompletion index(final int index)
    {
        this.index = index;
        return this;
    }

    /**
     * The id the application gave the work request when it posted it.
     *
     * @return the work request id.
     */
    public long workRequestId()
    {
        return queue.wrIds[index];
    }

    /**
     * Kind of work request.
     *
     * @return the opcode.
     */
    public CompletionOpcode opcode()
    {
        return queue.opcodes[index];
    }

    /**
     * Outcome.
     *
     * @return the status.
     */
    public CompletionStatus status()
    {
        return queue.statuses[index];
    }

    /**
     * Bytes transferred: bytes received for {@link CompletionOpcode#RECV}, bytes read for
     * {@link CompletionOpcode#RDMA_READ}, bytes sent otherwise.
     *
     * @return the byte count.
     */
    public int byteLength()
    {
        return queue.byteLengths[index];
    }

    /**
     * Number of the queue pair the request was posted to.
     *
     * @return the queue pair number.
     */
    public int queuePairNumber()
    {
        return queue.qpNumbers[index];
    }

    /**
     * Flags: {@link #FLAG_SOLICITED}, {@link #FLAG_INVALIDATED}.
     *
     * @return the flags.
     */
    public int flags()
    {
        return queue.flags[index];
    }

    /**
     * The local STag a Send with Invalidate invalidated, when {@link #FLAG_INVALIDATED} is set.
     *
     * @return the STag.
     */
    public int invalidatedStag()
    {
        return queue.invalidatedStags[index];
    }

    @Override
    public String toString()
    {
        return "WorkCompletion{wrId=" + workRequestId() + ", opcode=" + opcode() + ", status=" + status() +
            ", byteLength=" + byteLength() + ", qp=" + queuePairNumber() + ", flags=" + flags() + '}';
    }
}
