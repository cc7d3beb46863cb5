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

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * One client connection of a protocol adapter (a WebSocket, a FIX socket) and its bounded outbound queue: a
 * one-to-one ring buffer the session core writes events into and the adapter's sender drains onto the socket.
 * <p>
 * Life cycle: the adapter {@link ConnectionTable#acquire acquires} it when a client connects; the core binds a
 * session to it at logon; when the socket closes the adapter tells the core ({@code CLOSED}) and the core
 * {@link #retire() retires} it; the sender then {@link ConnectionTable#release releases} it for reuse once nothing
 * is being sent. The core asks for a close either in order, with a {@code CLOSE} event after what must still go
 * out (a logout), or at once with {@link #requestClose} (a client too slow to read its queue).
 */
public final class Connection
{
    /** Not in use. */
    public static final int FREE = 0;
    /** Connected. */
    public static final int OPEN = 1;
    /** Closed and unbound by the core; waiting for its sender to let go. */
    public static final int RETIRED = 2;

    private final int index;
    private final UnsafeBuffer ringBuffer;
    private final OneToOneRingBuffer outbound;
    private final AtomicLong generation = new AtomicLong();
    private volatile int state = FREE;
    private volatile Object attachment;
    private volatile int adapter;
    private volatile boolean closeRequested;
    private volatile int closeCode;
    private volatile String closeReason;
    /** Owned by the core: the bound session's index, -1 when none. */
    int session = -1;
    /** Owned by the core: a logon is being processed or was refused; further logons are ignored. */
    boolean logonSeen;

    Connection(final int index, final int queueCapacity)
    {
        this.index = index;
        ringBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(queueCapacity + RingBufferDescriptor.TRAILER_LENGTH));
        outbound = new OneToOneRingBuffer(ringBuffer);
    }

    /**
     * Index of the connection, as commands carry it.
     *
     * @return the index.
     */
    public int index()
    {
        return index;
    }

    /**
     * The outbound queue: the core writes, the adapter's sender reads.
     *
     * @return the ring buffer.
     */
    public RingBuffer outbound()
    {
        return outbound;
    }

    /**
     * The adapter's object for the socket (set at acquire).
     *
     * @return the attachment, or null once released.
     */
    public Object attachment()
    {
        return attachment;
    }

    /**
     * Which adapter owns the connection, so that each sender drains only its own.
     *
     * @return the adapter id given at acquire.
     */
    public int adapter()
    {
        return adapter;
    }

    /**
     * Bumped on every reuse, so that an adapter can tell a stale handle from the current one.
     *
     * @return the generation.
     */
    public long generation()
    {
        return generation.get();
    }

    /**
     * The state: {@link #FREE}, {@link #OPEN} or {@link #RETIRED}.
     *
     * @return the state.
     */
    public int state()
    {
        return state;
    }

    /**
     * Has the core asked for the connection to close now, without sending what is queued?
     *
     * @return true if so.
     */
    public boolean isCloseRequested()
    {
        return closeRequested;
    }

    /**
     * The close code the core asked for.
     *
     * @return a WebSocket-style close code.
     */
    public int closeCode()
    {
        return closeCode;
    }

    /**
     * The reason the core gave for closing.
     *
     * @return the reason, or null.
     */
    public String closeReason()
    {
        return closeReason;
    }

    /**
     * Ask the adapter to close the socket at once, dropping what is queued. Core thread.
     *
     * @param code   close code.
     * @param reason for the peer and the logs.
     */
    void requestClose(final int code, final String reason)
    {
        closeCode = code;
        closeReason = reason;
        closeRequested = true;
    }

    /**
     * The core is done with the connection. Core thread.
     */
    void retire()
    {
        session = -1;
        state = RETIRED;
    }

    void open(final int adapter, final Object attachment)
    {
        this.adapter = adapter;
        this.attachment = attachment;
        closeRequested = false;
        closeReason = null;
        closeCode = 0;
        session = -1;
        logonSeen = false;
        generation.incrementAndGet();
        state = OPEN;
    }

    void free()
    {
        attachment = null;
        state = FREE;
        BufferUtil.free(ringBuffer);
    }

    void reset()
    {
        attachment = null;
        ringBuffer.setMemory(0, ringBuffer.capacity(), (byte)0);
        state = FREE;
    }

    @Override
    public String toString()
    {
        return "connection " + index;
    }
}
