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

import java.util.concurrent.atomic.AtomicLong;

import io.warpbus.iwarp.mpa.NegotiatedParameters;

import org.agrona.BitUtil;

/**
 * A queue pair: a send queue and a receive queue bound to one connection.
 * <p>
 * Work requests are posted without blocking or allocating. Each post writes one slot of a preallocated ring and
 * publishes it with an ordered store; the engine's thread consumes it. One application thread posts to a queue
 * pair (posts from several threads need the caller's own exclusion). A post returns {@link #POSTED} or a negative
 * status; failures of the operation itself are reported later in a {@link WorkCompletion}.
 * <p>
 * Completions of the send queue are delivered in the order the requests were posted (an RDMA Read that is still
 * waiting for its response holds back the completion of a Write posted after it), and receive completions in the
 * order the peer's Sends arrived. A request without {@link #SIGNALED} raises no completion unless it fails.
 */
public final class QueuePair implements AutoCloseable
{
    /** The work request was queued. */
    public static final int POSTED = 0;
    /** The queue is full: poll completions (for signaled requests) or retry later. */
    public static final int QUEUE_FULL = -1;
    /** The queue pair is not in a state that accepts this work request. */
    public static final int NOT_CONNECTED = -2;
    /** The local buffer is invalid, of another protection domain, out of bounds or lacks the needed rights. */
    public static final int INVALID_BUFFER = -3;
    /** An argument is out of range (for example a negative length). */
    public static final int INVALID_ARGUMENT = -4;

    /** Post flag: raise a completion when the request succeeds. */
    public static final int SIGNALED = 1;
    /** Post flag for Sends: ask the peer for a solicited event. */
    public static final int SOLICITED = 2;

    static final byte OP_SEND = 0;
    static final byte OP_SEND_INVALIDATE = 1;
    static final byte OP_WRITE = 2;
    static final byte OP_READ = 3;
    static final byte OP_WRITE_INLINE = 4;

    /** Most bytes {@link #postWriteInline} carries. */
    public static final int MAX_INLINE_LENGTH = 24;

    final int number;
    final ProtectionDomain protectionDomain;
    final CompletionQueue sendCompletionQueue;
    final CompletionQueue receiveCompletionQueue;
    final Rnic rnic;

    // Send queue slots: written by the application before the tail is published, read by the engine after.
    final int sqMask;
    final long[] sqWrId;
    final byte[] sqOpcode;
    final int[] sqFlags;
    final MemoryRegion[] sqRegion;
    final int[] sqIndex;
    final int[] sqLength;
    final int[] sqRemoteStag;
    final long[] sqRemoteTaggedOffset;
    final int[] sqInvalidateStag;
    final long[] sqInline;
    final AtomicLong sqTail = new AtomicLong();
    final AtomicLong sqHead = new AtomicLong();
    // Engine-owned per-slot progress.
    final long[] sqCompleteAtTxBytes;
    final CompletionStatus[] sqStatus;
    long sqFinalized;
    private long sqCachedHead;

    // Receive queue slots.
    final int rqMask;
    final long[] rqWrId;
    final MemoryRegion[] rqRegion;
    final int[] rqIndex;
    final int[] rqLength;
    final AtomicLong rqTail = new AtomicLong();
    final AtomicLong rqHead = new AtomicLong();
    private long rqCachedHead;

    private volatile QueuePairState state = QueuePairState.IDLE;
    private volatile String errorReason;
    Connection connection;

    QueuePair(final Rnic rnic, final int number, final ProtectionDomain pd, final QueuePairAttributes attributes)
    {
        attributes.validate();
        this.rnic = rnic;
        this.number = number;
        this.protectionDomain = pd;
        this.sendCompletionQueue = attributes.sendCompletionQueue();
        this.receiveCompletionQueue = attributes.receiveCompletionQueue();

        final int sqCapacity = BitUtil.findNextPositivePowerOfTwo(attributes.sendQueueDepth());
        sqMask = sqCapacity - 1;
        sqWrId = new long[sqCapacity];
        sqOpcode = new byte[sqCapacity];
        sqFlags = new int[sqCapacity];
        sqRegion = new MemoryRegion[sqCapacity];
        sqIndex = new int[sqCapacity];
        sqLength = new int[sqCapacity];
        sqRemoteStag = new int[sqCapacity];
        sqRemoteTaggedOffset = new long[sqCapacity];
        sqInvalidateStag = new int[sqCapacity];
        sqInline = new long[sqCapacity * 3];
        sqCompleteAtTxBytes = new long[sqCapacity];
        sqStatus = new CompletionStatus[sqCapacity];

        final int rqCapacity = BitUtil.findNextPositivePowerOfTwo(attributes.receiveQueueDepth());
        rqMask = rqCapacity - 1;
        rqWrId = new long[rqCapacity];
        rqRegion = new MemoryRegion[rqCapacity];
        rqIndex = new int[rqCapacity];
        rqLength = new int[rqCapacity];
    }

    /**
     * The queue pair number, reported in completions.
     *
     * @return the number.
     */
    public int number()
    {
        return number;
    }

    /**
     * The protection domain whose regions this queue pair may use.
     *
     * @return the domain.
     */
    public ProtectionDomain protectionDomain()
    {
        return protectionDomain;
    }

    /**
     * Current state.
     *
     * @return the state.
     */
    public QueuePairState state()
    {
        return state;
    }

    /**
     * Why the queue pair went to {@link QueuePairState#ERROR}, or null.
     *
     * @return the reason, naming the error the engine detected or the Terminate the peer sent.
     */
    public String errorReason()
    {
        return errorReason;
    }

    /**
     * Negotiated connection properties, once connected.
     *
     * @return the connection's negotiated parameters, or null before the MPA exchange has completed.
     */
    public NegotiatedParameters negotiated()
    {
        final Connection connection = this.connection;
        return null == connection ? null : connection.negotiated();
    }

    /**
     * Post a Send of {@code length} bytes at {@code index} of {@code region}.
     *
     * @param wrId   returned in the completion.
     * @param region local buffer, or null when length is 0.
     * @param index  first byte in the region.
     * @param length number of bytes.
     * @param flags  {@link #SIGNALED}, {@link #SOLICITED}.
     * @return {@link #POSTED} or a negative status.
     */
    public int postSend(final long wrId, final MemoryRegion region, final int index, final int length, final int flags)
    {
        return postSendQueue(OP_SEND, wrId, region, index, length, 0, 0L, 0, flags, 0);
    }

    /**
     * Post a Send with Invalidate: the peer invalidates {@code stagToInvalidate} when the message arrives.
     *
     * @param wrId             returned in the completion.
     * @param region           local buffer, or null when length is 0.
     * @param index            first byte in the region.
     * @param length           number of bytes.
     * @param stagToInvalidate the peer's STag to invalidate.
     * @param flags            {@link #SIGNALED}, {@link #SOLICITED}.
     * @return {@link #POSTED} or a negative status.
     */
    public int postSendWithInvalidate(
        final long wrId,
        final MemoryRegion region,
        final int index,
        final int length,
        final int stagToInvalidate,
        final int flags)
    {
        return postSendQueue(OP_SEND_INVALIDATE, wrId, region, index, length, 0, 0L, stagToInvalidate, flags, 0);
    }

    /**
     * Post an RDMA Write of local bytes to the peer's region named by {@code remoteStag}.
     *
     * @param wrId               returned in the completion.
     * @param region             local source buffer, or null when length is 0.
     * @param index              first byte in the region.
     * @param length             number of bytes.
     * @param remoteStag         the peer's STag.
     * @param remoteTaggedOffset tagged offset of the first byte in the peer's region.
     * @param flags              {@link #SIGNALED}.
     * @return {@link #POSTED} or a negative status.
     */
    public int postWrite(
        final long wrId,
        final MemoryRegion region,
        final int index,
        final int length,
        final int remoteStag,
        final long remoteTaggedOffset,
        final int flags)
    {
        return postSendQueue(OP_WRITE, wrId, region, index, length, remoteStag, remoteTaggedOffset, 0, flags, 0);
    }

    /**
     * Post an RDMA Write of up to 24 bytes given by value: the bytes are copied into the send queue now, so the
     * caller may change its variables at once (like verbs' inline sends). The values are written little-endian,
     * {@code value0} first.
     *
     * @param wrId               returned in the completion.
     * @param value0             first 8 bytes.
     * @param value1             next 8 bytes.
     * @param value2             next 8 bytes.
     * @param length             bytes to write, 1 to {@link #MAX_INLINE_LENGTH}.
     * @param remoteStag         the peer's STag.
     * @param remoteTaggedOffset tagged offset of the first byte in the peer's region.
     * @param flags              {@link #SIGNALED}.
     * @return {@link #POSTED} or a negative status.
     */
    public int postWriteInline(
        final long wrId,
        final long value0,
        final long value1,
        final long value2,
        final int length,
        final int remoteStag,
        final long remoteTaggedOffset,
        final int flags)
    {
        if (length < 1 || length > MAX_INLINE_LENGTH)
        {
            return INVALID_ARGUMENT;
        }
        if (QueuePairState.RTS != state)
        {
            return NOT_CONNECTED;
        }
        final long tail = sqTail.getPlain();
        if (tail - sqCachedHead > sqMask)
        {
            sqCachedHead = sqHead.get();
            if (tail - sqCachedHead > sqMask)
            {
                return QUEUE_FULL;
            }
        }
        final int slot = (int)tail & sqMask;
        sqWrId[slot] = wrId;
        sqOpcode[slot] = OP_WRITE_INLINE;
        sqFlags[slot] = flags;
        sqRegion[slot] = null;
        sqIndex[slot] = 0;
        sqLength[slot] = length;
        sqRemoteStag[slot] = remoteStag;
        sqRemoteTaggedOffset[slot] = remoteTaggedOffset;
        sqInline[slot * 3] = value0;
        sqInline[slot * 3 + 1] = value1;
        sqInline[slot * 3 + 2] = value2;
        sqTail.lazySet(tail + 1);
        return POSTED;
    }

    /**
     * Post an RDMA Read of the peer's bytes into a local sink buffer, which needs {@link Access#LOCAL_WRITE}.
     * At most the negotiated outbound read limit (ORD) of reads are in flight; later ones wait in the queue.
     *
     * @param wrId               returned in the completion.
     * @param sink               local buffer the data is placed in.
     * @param index              first byte in the region.
     * @param length             number of bytes.
     * @param remoteStag         the peer's STag of the source.
     * @param remoteTaggedOffset tagged offset of the first byte in the peer's region.
     * @param flags              {@link #SIGNALED}.
     * @return {@link #POSTED} or a negative status.
     */
    public int postRead(
        final long wrId,
        final MemoryRegion sink,
        final int index,
        final int length,
        final int remoteStag,
        final long remoteTaggedOffset,
        final int flags)
    {
        return postSendQueue(
            OP_READ, wrId, sink, index, length, remoteStag, remoteTaggedOffset, 0, flags, Access.LOCAL_WRITE);
    }

    /**
     * Post a receive buffer for one inbound Send. Receive buffers may be posted before the queue pair connects.
     *
     * @param wrId   returned in the completion.
     * @param region local buffer with {@link Access#LOCAL_WRITE}, or null when length is 0.
     * @param index  first byte in the region.
     * @param length capacity of the buffer.
     * @return {@link #POSTED} or a negative status.
     */
    public int postRecv(final long wrId, final MemoryRegion region, final int index, final int length)
    {
        final QueuePairState state = this.state;
        if (state.isFinal() || QueuePairState.TERMINATE == state)
        {
            return NOT_CONNECTED;
        }
        final int check = checkLocalBuffer(region, index, length, Access.LOCAL_WRITE);
        if (POSTED != check)
        {
            return check;
        }
        final long tail = rqTail.getPlain();
        if (tail - rqCachedHead > rqMask)
        {
            rqCachedHead = rqHead.get();
            if (tail - rqCachedHead > rqMask)
            {
                return QUEUE_FULL;
            }
        }
        final int slot = (int)tail & rqMask;
        rqWrId[slot] = wrId;
        rqRegion[slot] = region;
        rqIndex[slot] = index;
        rqLength[slot] = length;
        rqTail.lazySet(tail + 1);
        return POSTED;
    }

    /**
     * Number of send queue slots free for posting.
     *
     * @return the count.
     */
    public int sendQueueAvailable()
    {
        return (int)(sqMask + 1 - (sqTail.get() - sqHead.get()));
    }

    /**
     * Start a graceful disconnect: work already posted is sent, then the connection is closed and a
     * {@link ConnectionEventType#DISCONNECTED} event follows.
     */
    public void disconnect()
    {
        rnic.execute(() -> rnic.agent().disconnect(this, "disconnected by the local application"));
    }

    /**
     * Disconnect (if connected) and release the queue pair.
     */
    @Override
    public void close()
    {
        if (!state.isFinal())
        {
            rnic.executeAndWait(() -> rnic.agent().disconnect(this, "queue pair closed by the local application"));
        }
    }

    private int postSendQueue(
        final byte opcode,
        final long wrId,
        final MemoryRegion region,
        final int index,
        final int length,
        final int remoteStag,
        final long remoteTaggedOffset,
        final int invalidateStag,
        final int flags,
        final int requiredAccess)
    {
        if (QueuePairState.RTS != state)
        {
            return NOT_CONNECTED;
        }
        final int check = checkLocalBuffer(region, index, length, requiredAccess);
        if (POSTED != check)
        {
            return check;
        }
        final long tail = sqTail.getPlain();
        if (tail - sqCachedHead > sqMask)
        {
            sqCachedHead = sqHead.get();
            if (tail - sqCachedHead > sqMask)
            {
                return QUEUE_FULL;
            }
        }
        final int slot = (int)tail & sqMask;
        sqWrId[slot] = wrId;
        sqOpcode[slot] = opcode;
        sqFlags[slot] = flags;
        sqRegion[slot] = region;
        sqIndex[slot] = index;
        sqLength[slot] = length;
        sqRemoteStag[slot] = remoteStag;
        sqRemoteTaggedOffset[slot] = remoteTaggedOffset;
        sqInvalidateStag[slot] = invalidateStag;
        sqTail.lazySet(tail + 1);
        return POSTED;
    }

    private int checkLocalBuffer(final MemoryRegion region, final int index, final int length, final int access)
    {
        if (length < 0 || index < 0)
        {
            return INVALID_ARGUMENT;
        }
        if (null == region)
        {
            return 0 == length ? POSTED : INVALID_BUFFER;
        }
        if (!region.isValid() || region.protectionDomain() != protectionDomain ||
            !region.contains(index, length) || !Access.allows(region.access(), access))
        {
            return INVALID_BUFFER;
        }
        return POSTED;
    }

    void state(final QueuePairState state)
    {
        this.state = state;
    }

    void errorReason(final String reason)
    {
        if (null == errorReason)
        {
            errorReason = reason;
        }
    }

    @Override
    public String toString()
    {
        return "QueuePair{number=" + number + ", state=" + state + '}';
    }
}
