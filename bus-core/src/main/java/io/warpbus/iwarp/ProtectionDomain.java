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

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A protection domain groups memory regions and queue pairs: a queue pair can only reach regions of its own domain,
 * whether the access is local (a work request) or remote (an STag on the wire).
 */
public final class ProtectionDomain
{
    private final Rnic rnic;
    private final int id;

    ProtectionDomain(final Rnic rnic, final int id)
    {
        this.rnic = rnic;
        this.id = id;
    }

    /**
     * The domain's number within its {@link Rnic}.
     *
     * @return the id.
     */
    public int id()
    {
        return id;
    }

    /**
     * The engine the domain belongs to.
     *
     * @return the engine.
     */
    public Rnic rnic()
    {
        return rnic;
    }

    /**
     * Register native memory for local and remote access.
     *
     * @param buffer over direct or memory-mapped memory; heap arrays cannot be registered.
     * @param access mask of {@link Access} flags.
     * @return the region, with a fresh STag.
     */
    public MemoryRegion registerMemory(final AtomicBuffer buffer, final int access)
    {
        if (null != buffer.byteArray())
        {
            throw new IllegalArgumentException(
                "only direct or memory-mapped memory can be registered, not a heap array");
        }
        final ByteBuffer backing = buffer.byteBuffer();
        final ByteBuffer view = null == backing ? null :
            backing.duplicate().clear().slice(buffer.wrapAdjustment(), buffer.capacity());
        final Object owner = null != backing ? backing : buffer;
        return register(new UnsafeBuffer(buffer.addressOffset(), buffer.capacity()), view, owner, access);
    }

    /**
     * Register a direct or memory-mapped byte buffer, from its position to its limit.
     *
     * @param buffer a direct buffer.
     * @param access mask of {@link Access} flags.
     * @return the region, with a fresh STag.
     */
    public MemoryRegion registerMemory(final ByteBuffer buffer, final int access)
    {
        if (!buffer.isDirect())
        {
            throw new IllegalArgumentException(
                "only direct or memory-mapped memory can be registered, not a heap buffer");
        }
        final UnsafeBuffer view = new UnsafeBuffer(buffer, buffer.position(), buffer.remaining());
        return register(view, buffer.slice(buffer.position(), buffer.remaining()), buffer, access);
    }

    /**
     * Create a queue pair in this domain, in state {@link QueuePairState#IDLE}; connect or accept it through the
     * {@link ConnectionManager}.
     *
     * @param attributes queue depths and completion queues.
     * @return the queue pair.
     */
    public QueuePair createQueuePair(final QueuePairAttributes attributes)
    {
        return rnic.createQueuePair(this, attributes);
    }

    private MemoryRegion register(
        final UnsafeBuffer view, final ByteBuffer byteView, final Object owner, final int access)
    {
        if ((access & ~Access.ALL) != 0)
        {
            throw new IllegalArgumentException("unknown access flags: 0x" + Integer.toHexString(access));
        }
        if (view.capacity() == 0)
        {
            throw new IllegalArgumentException("cannot register an empty buffer");
        }
        rnic.ensureOpen();
        final StagTable table = rnic.stagTable();
        final MemoryRegion region = new MemoryRegion(this, view, byteView, owner, table.allocateStag(), access);
        table.publish(region);
        return region;
    }

    void deregister(final MemoryRegion region)
    {
        if (MemoryRegion.DEREGISTERED == region.state())
        {
            return;
        }
        region.markDeregistered();
        // Removing it on the engine's thread means no placement into it is still under way when close() returns.
        rnic.executeAndWait(() ->
        {
            rnic.stagTable().remove(region);
            rnic.agent().onDeregistered(region);
        });
    }

    @Override
    public String toString()
    {
        return "ProtectionDomain{id=" + id + '}';
    }
}
