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

import java.io.IOException;
import java.lang.ref.WeakReference;
import java.nio.MappedByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashMap;
import java.util.Map;

import org.agrona.IoUtil;

/**
 * The publishers' logs this process reads in place: one mapping of a log file, shared by every subscription of every
 * bus in the process that reads it, and unmapped when the last of them lets go.
 * <p>
 * A subscription that mapped the log itself reached each page through a mapping of its own. Four subscriptions
 * reading one log then need four TLB entries for every page where one would do, and a subscriber behind by more
 * than the TLB covers takes a page walk per page per subscription; under a hypervisor's nested paging a walk is
 * tens of memory reads. Measured (docs/performance.md, "One mapping of a log per process"): four subscriptions
 * polled 24 MiB behind their writer took 10.1-10.9 ns a fragment through four mappings and 5.7-6.0 ns through one
 * in the VM's slower mode, about a tenth less through one in its faster mode.
 * <p>
 * A mapping is known by the file's identity (device and inode), not its name: a publisher that reuses a dead
 * process's pid and session writes a new file under the old name, which must not be served from the old one's
 * mapping. Called from buses' duty cycles when a subscription joins or leaves, so one lock is enough.
 */
final class IpcLogMappings
{
    /**
     * Weakly: a bus closed without its subscriptions' last duty cycles never releases, and its mappings must then
     * go with the garbage as each subscription's own did (the buffer's cleaner unmaps it), not stay for good.
     */
    private static final Map<Object, WeakReference<Mapping>> MAPPINGS = new HashMap<>();

    private IpcLogMappings()
    {
    }

    /**
     * A log's mapping, shared; {@link #release()} once per {@link #acquire}.
     */
    static final class Mapping
    {
        private final Object key;
        private final Path file;
        private final int windowLength;
        private final MappedByteBuffer buffer;
        private int references = 1;
        private volatile boolean broughtIn;

        private Mapping(final Object key, final Path file, final int windowLength, final MappedByteBuffer buffer)
        {
            this.key = key;
            this.file = file;
            this.windowLength = windowLength;
            this.buffer = buffer;
        }

        /**
         * The mapping: the window, then the log's trailer.
         *
         * @return the read-only mapping.
         */
        MappedByteBuffer buffer()
        {
            return buffer;
        }

        /**
         * Whether a subscription already brought every page of this mapping into the page tables, so that another
         * one joining need not walk it again.
         *
         * @return true once {@link #broughtIn()} was called.
         */
        boolean isBroughtIn()
        {
            return broughtIn;
        }

        /**
         * Every page of the mapping has been touched.
         */
        void broughtIn()
        {
            broughtIn = true;
        }

        /**
         * Let go of the mapping: the last holder unmaps it. The caller reads nothing from it afterwards.
         */
        void release()
        {
            synchronized (MAPPINGS)
            {
                if (references <= 0)
                {
                    throw new IllegalStateException("log mapping of " + file + " released more often than acquired");
                }
                if (--references == 0)
                {
                    final WeakReference<Mapping> registered = null == key ? null : MAPPINGS.get(key);
                    if (null != registered && this == registered.get())
                    {
                        MAPPINGS.remove(key);
                    }
                    IoUtil.unmap(buffer);
                }
            }
        }

        @Override
        public String toString()
        {
            return "Mapping{" + file + ", references=" + references + '}';
        }
    }

    /**
     * Map a publisher's log, or share this process's mapping of it.
     *
     * @param file         the log.
     * @param windowLength the window its publisher declared in the subscriber's ring.
     * @return the mapping, to be released once.
     * @throws BusException when the file is gone, does not have the declared size, was replaced while being
     *                      mapped, or is mapped here already with another declared window.
     */
    static Mapping acquire(final Path file, final int windowLength)
    {
        synchronized (MAPPINGS)
        {
            MAPPINGS.values().removeIf((reference) -> null == reference.get());
            final Object key = fileKey(file);
            final WeakReference<Mapping> reference = null == key ? null : MAPPINGS.get(key);
            final Mapping existing = null == reference ? null : reference.get();
            if (null != existing)
            {
                if (existing.windowLength != windowLength)
                {
                    throw new BusException("publication log " + file + " is mapped here with a window of " +
                        existing.windowLength + " bytes, but its publisher now declares " + windowLength);
                }
                existing.references++;
                return existing;
            }
            final MappedByteBuffer buffer = IpcDirectory.mapLog(file, windowLength);
            final Object keyAfter = fileKey(file);
            if (null == key || !key.equals(keyAfter))
            {
                if (null != key)
                {
                    IoUtil.unmap(buffer);
                    throw new BusException("publication log " + file + " was replaced while it was being mapped");
                }
                // A file system without file keys: this subscription keeps a mapping of its own.
                return new Mapping(null, file, windowLength, buffer);
            }
            final Mapping mapping = new Mapping(key, file, windowLength, buffer);
            MAPPINGS.put(key, new WeakReference<>(mapping));
            return mapping;
        }
    }

    private static Object fileKey(final Path file)
    {
        try
        {
            return Files.readAttributes(file, BasicFileAttributes.class).fileKey();
        }
        catch (final IOException ex)
        {
            throw new BusException("cannot map publication log " + file + ": " + ex.getMessage(), ex);
        }
    }
}
