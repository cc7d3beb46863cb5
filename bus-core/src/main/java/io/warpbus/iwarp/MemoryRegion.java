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

import java.nio.ByteBuffer;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * Memory registered with a {@link ProtectionDomain}, named on the wire by its STag.
 * <p>
 * A region covers native memory (a direct or memory-mapped buffer) that must stay mapped until the region is
 * deregistered. Remote peers address it by {@link #stag()} and a tagged offset in
 * {@code [address(), address() + length())}; by default the tagged offset base is the memory's native address, as
 * verbs and Linux siw do, or zero with {@link Access#ZERO_BASED}. Local work requests address it by an index in
 * {@code [0, length())}.
 * <p>
 * The STag is 32 bits: a 12-bit table index and a 20-bit key drawn from a secure random source, so a peer cannot
 * guess the STag of a region it was not told about (and one wrong guess ends its connection).
 */
public final class MemoryRegion implements AutoCloseable
{
    static final int VALID = 0;
    static final int INVALIDATED = 1;
    static final int DEREGISTERED = 2;

    private final ProtectionDomain protectionDomain;
    private final UnsafeBuffer buffer;
    private final ByteBuffer byteView;
    private final ByteBuffer placementView;
    private ByteBuffer[] gatherViews;
    private final Object memoryOwner;
    private final long taggedOffsetBase;
    private final int stag;
    private final int access;
    private volatile int state = VALID;

    MemoryRegion(
        final ProtectionDomain protectionDomain,
        final UnsafeBuffer buffer,
        final ByteBuffer byteView,
        final Object memoryOwner,
        final int stag,
        final int access)
    {
        this.protectionDomain = protectionDomain;
        this.buffer = buffer;
        this.byteView = byteView;
        this.placementView = null == byteView || byteView.isReadOnly() ? null : byteView.duplicate();
        this.memoryOwner = memoryOwner;
        this.stag = stag;
        this.access = access;
        this.taggedOffsetBase = Access.allows(access, Access.ZERO_BASED) ? 0 : buffer.addressOffset();
    }

    /**
     * The steering tag a remote peer uses to name this region.
     *
     * @return the STag.
     */
    public int stag()
    {
        return stag;
    }

    /**
     * The tagged offset of the region's first byte: its native address, or zero for a zero-based region.
     *
     * @return the tagged offset base to advertise to a peer.
     */
    public long address()
    {
        return taggedOffsetBase;
    }

    /**
     * The tagged offset of the byte at {@code index}.
     *
     * @param index index in the region.
     * @return {@code address() + index}.
     */
    public long taggedOffset(final int index)
    {
        return taggedOffsetBase + index;
    }

    /**
     * Length of the region in bytes.
     *
     * @return the length.
     */
    public int length()
    {
        return buffer.capacity();
    }

    /**
     * The registered memory.
     *
     * @return a buffer over exactly the registered bytes.
     */
    public UnsafeBuffer buffer()
    {
        return buffer;
    }

    /**
     * Access rights granted when the region was registered.
     *
     * @return mask of {@link Access} flags.
     */
    public int access()
    {
        return access;
    }

    /**
     * The protection domain the region belongs to. Only queue pairs of the same domain may use it.
     *
     * @return the protection domain.
     */
    public ProtectionDomain protectionDomain()
    {
        return protectionDomain;
    }

    /**
     * Is the STag still valid (neither invalidated nor deregistered)?
     *
     * @return true when remote and local access are allowed.
     */
    public boolean isValid()
    {
        return VALID == state;
    }

    /**
     * Invalidate the STag locally: from now on any remote access with it is refused with a Terminate. The region
     * stays registered until {@link #close()}.
     */
    public void invalidate()
    {
        if (VALID == state)
        {
            state = INVALIDATED;
        }
    }

    /**
     * Deregister the region. When this returns, the engine no longer touches the memory and it may be unmapped.
     */
    @Override
    public void close()
    {
        protectionDomain.deregister(this);
    }

    /**
     * A byte buffer over exactly the region's memory (index 0 is the region's first byte), when the memory was
     * registered from one; the engine writes large payloads to sockets straight from it.
     */
    ByteBuffer byteView()
    {
        return byteView;
    }

    /**
     * A view of the region's bytes for the engine's gathering writes, one for each place in a write's list (one
     * write may take several pieces from the same region, each with its own position and limit). Each is made the
     * first time the region fills that place and kept, so that however a connection's pieces interleave regions,
     * the transmit path allocates nothing once every place has been used. Engine thread only; the region must have
     * a {@link #byteView()}.
     *
     * @param index the place in the write's list, below {@code TransmitRing.IOV_MAX}.
     * @return the view; its position and limit are the caller's to set.
     */
    ByteBuffer gatherView(final int index)
    {
        ByteBuffer[] views = gatherViews;
        if (null == views)
        {
            views = new ByteBuffer[TransmitRing.IOV_MAX];
            gatherViews = views;
        }
        ByteBuffer view = views[index];
        if (null == view)
        {
            view = byteView.duplicate();
            views[index] = view;
        }
        return view;
    }

    /**
     * A writable byte buffer over the region's memory, like {@link #byteView()}, whose position and limit only the
     * engine's thread moves: inbound payloads are read from a socket straight into it (direct placement).
     *
     * @return the buffer, or null when the region was not registered from a writable byte buffer.
     */
    ByteBuffer placementView()
    {
        return placementView;
    }

    Object memoryOwner()
    {
        return memoryOwner;
    }

    int state()
    {
        return state;
    }

    void markDeregistered()
    {
        state = DEREGISTERED;
    }

    /**
     * Invalidate on behalf of a remote Send with Invalidate.
     *
     * @return true when the region allowed it and was valid.
     */
    boolean invalidateRemotely()
    {
        if (VALID == state && Access.allows(access, Access.REMOTE_INVALIDATE))
        {
            state = INVALIDATED;
            return true;
        }
        return false;
    }

    /**
     * Translate a tagged offset range into an index, checking base and bounds without overflow.
     *
     * @param taggedOffset first byte's tagged offset.
     * @param length       number of bytes.
     * @return index in the region, or -1 when any byte of the range falls outside it.
     */
    int indexOf(final long taggedOffset, final int length)
    {
        final long index = taggedOffset - taggedOffsetBase;
        if (index < 0 || length < 0 || index > buffer.capacity() - (long)length)
        {
            return -1;
        }
        return (int)index;
    }

    /**
     * Is {@code [index, index + length)} inside the region?
     *
     * @param index  first byte.
     * @param length number of bytes.
     * @return true when in bounds.
     */
    boolean contains(final int index, final int length)
    {
        return index >= 0 && length >= 0 && index <= buffer.capacity() - length;
    }

    @Override
    public String toString()
    {
        return "MemoryRegion{stag=0x" + Integer.toHexString(stag) +
            ", address=0x" + Long.toHexString(taggedOffsetBase) +
            ", length=" + buffer.capacity() +
            ", access=" + Access.toString(access) +
            ", state=" + (VALID == state ? "VALID" : INVALIDATED == state ? "INVALIDATED" : "DEREGISTERED") + '}';
    }
}
