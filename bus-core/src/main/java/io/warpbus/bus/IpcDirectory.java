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
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import io.warpbus.bus.protocol.RingDescriptor;
import org.agrona.BitUtil;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Where IPC publishers and subscribers of one stream meet on a host.
 * <pre>
 *   DIR/ipc/stream-1001/
 *       publisher.lock        held (file lock) by the one IPC publisher of the stream
 *       generation.dat        a counter subscribers bump after adding or resetting a ring, so the publisher
 *                             rescans the directory only when something changed
 *       ring-&lt;id&gt;.dat        one per subscription: frames, then the metadata of RingDescriptor
 * </pre>
 * Either side may come first: files are created by whichever side needs them.
 */
final class IpcDirectory
{
    static final int GENERATION_FILE_LENGTH = 4096;
    static final String RING_PREFIX = "ring-";
    static final String RING_SUFFIX = ".dat";
    static final String LOG_PREFIX = "log-";
    private static final int TOUCH_STRIDE = 4096;

    private IpcDirectory()
    {
    }

    static Path streamDirectory(final Path ipcDirectory, final int streamId)
    {
        final Path dir = ipcDirectory.resolve("stream-" + streamId);
        try
        {
            Files.createDirectories(dir);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create IPC directory " + dir + ": " + ex.getMessage(), ex);
        }
        return dir;
    }

    /**
     * Map (creating when needed) the stream's generation counter.
     */
    static UnsafeBuffer mapGeneration(final Path streamDirectory)
    {
        final Path file = streamDirectory.resolve("generation.dat");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
            StandardOpenOption.WRITE))
        {
            if (channel.size() < GENERATION_FILE_LENGTH)
            {
                channel.write(java.nio.ByteBuffer.allocate(1), GENERATION_FILE_LENGTH - 1);
            }
            final MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, GENERATION_FILE_LENGTH);
            return new UnsafeBuffer(mapped);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot map " + file + ": " + ex.getMessage(), ex);
        }
    }

    static void bumpGeneration(final UnsafeBuffer generation)
    {
        generation.getAndAddLong(0, 1);
    }

    /**
     * Take the stream's publisher lock.
     *
     * @return the held lock; release it when the publication closes.
     * @throws BusException when another process or publication holds it.
     */
    static FileLock lockPublisher(final Path streamDirectory, final int streamId)
    {
        final Path file = streamDirectory.resolve("publisher.lock");
        try
        {
            final FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            final FileLock lock;
            try
            {
                lock = channel.tryLock();
            }
            catch (final OverlappingFileLockException ex)
            {
                channel.close();
                throw new BusException("IPC stream " + streamId + " already has a publisher in this process");
            }
            if (null == lock)
            {
                channel.close();
                throw new BusException("IPC stream " + streamId + " already has a publisher on this host (" + file +
                    " is locked)");
            }
            return lock;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot lock " + file + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * Create and map a subscriber's ring file, every page of it allocated (a publisher that later moves frames into
     * it must not meet a full memory volume). Only the pages read on the data path are brought into the page tables.
     *
     * @param file         the ring.
     * @param capacity     its frame area.
     * @param framesInRing whether frames are delivered in the ring (conflation) rather than read from the log.
     * @return the mapping.
     */
    static MappedByteBuffer createRing(final Path file, final int capacity, final boolean framesInRing)
    {
        try
        {
            final MappedByteBuffer mapped = createZeroed(file, (long)capacity + RingDescriptor.TRAILER_LENGTH);
            preTouch(mapped, framesInRing ? 0 : capacity);
            return mapped;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create ring " + file + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * Create a file of zeroes and map it, without bringing its pages in. The zeroes are written through the file,
     * not the mapping: that allocates every page without mapping it here, and a memory volume too small for the
     * file is an I/O error now rather than a bus error (SIGBUS) at some later write.
     *
     * @param file   where; it must not exist.
     * @param length its length.
     * @return the read-write mapping.
     * @throws IOException when the file cannot be created or filled (it is then deleted).
     */
    static MappedByteBuffer createZeroed(final Path file, final long length) throws IOException
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
            StandardOpenOption.WRITE))
        {
            final ByteBuffer zeroes = ByteBuffer.allocateDirect((int)Math.min(length, 1024 * 1024));
            for (long position = 0; position < length; )
            {
                zeroes.clear().limit((int)Math.min(zeroes.capacity(), length - position));
                position += channel.write(zeroes, position);
            }
            return channel.map(FileChannel.MapMode.READ_WRITE, 0, length);
        }
        catch (final IOException | RuntimeException ex)
        {
            Files.deleteIfExists(file);
            throw ex;
        }
    }

    /**
     * Bring every page of a mapping into this process's page tables now, when it is mapped, rather than one fault
     * at a time on the data path: a first touch of a shared-memory page costs a fault of several microseconds, and
     * the writer's first frames in a page, or the cleaner's pass over 64 KiB of fresh log, took them inside a round
     * trip.
     *
     * @param mapped the mapping.
     * @return the same mapping.
     */
    static MappedByteBuffer preTouch(final MappedByteBuffer mapped)
    {
        mapped.load();
        return mapped;
    }

    /**
     * {@link #preTouch(MappedByteBuffer)} for the part of a mapping from an offset on. A ring's frame area is
     * written and read only for a conflating subscriber (and after a drop): for the others only the metadata is on
     * the data path, and touching the frames as well cost the publisher's duty cycle 6-7 ms for each 4 MiB ring
     * that joined (2026-12-05, on /dev/shm).
     *
     * @param mapped the mapping.
     * @param from   the first byte to bring in.
     */
    static void preTouch(final MappedByteBuffer mapped, final int from)
    {
        if (0 == from)
        {
            mapped.load();
            return;
        }
        final UnsafeBuffer pages = new UnsafeBuffer(mapped);
        preTouch(pages, from, pages.capacity());
    }

    /**
     * Bring in the pages of a mapping between two offsets: one read per 4 KiB, every page once whatever the page
     * size, volatile so that the reads are not dropped.
     *
     * @param pages the mapping.
     * @param from  the first byte.
     * @param to    the byte after the last.
     */
    static void preTouch(final UnsafeBuffer pages, final int from, final int to)
    {
        for (int offset = from & -TOUCH_STRIDE; offset < to; offset += TOUCH_STRIDE)
        {
            pages.getByteVolatile(offset);
        }
    }

    /**
     * Map a subscriber's ring, without bringing its pages in (see {@link #preTouch(MappedByteBuffer, int)}).
     *
     * @param file the ring.
     * @return the mapping.
     */
    static MappedByteBuffer mapRing(final Path file)
    {
        return IoUtil.mapExistingFile(file.toFile(), file.getFileName().toString());
    }

    /**
     * Where the publication of a process and session keeps its log in a stream's directory.
     *
     * @param streamDirectory the stream's directory.
     * @param pid             the publishing process.
     * @param sessionId       the publication's session.
     * @return the file.
     */
    static Path logFile(final Path streamDirectory, final long pid, final int sessionId)
    {
        return streamDirectory.resolve(LOG_PREFIX + pid + "-" + Integer.toHexString(sessionId) + RING_SUFFIX);
    }

    /**
     * Map a publication's log for reading, without bringing its pages in: a subscriber does that a slice at a
     * time over its duty cycles ({@link IpcSubscriptionEndpoint}).
     *
     * @param file         the log.
     * @param windowLength the window its publisher declared.
     * @return the mapping: the window, then the log's trailer ({@link RingDescriptor#LOG_TRAILER_LENGTH}).
     * @throws BusException naming what is wrong with the file.
     */
    static MappedByteBuffer mapLog(final Path file, final int windowLength)
    {
        if (!BitUtil.isPowerOfTwo(windowLength))
        {
            throw new BusException("publication log " + file + " declared a window of " + windowLength +
                " bytes, not a power of two");
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            final long size = channel.size();
            final long expected = (long)windowLength + RingDescriptor.LOG_TRAILER_LENGTH;
            if (size != expected)
            {
                throw new BusException("publication log " + file + " holds " + size + " bytes but its publisher " +
                    "declared a window of " + windowLength + " (a file of " + expected + ")");
            }
            return channel.map(FileChannel.MapMode.READ_ONLY, 0, expected);
        }
        catch (final IOException ex)
        {
            throw new BusException("cannot map publication log " + file + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * Delete the logs earlier publishers left in a stream's directory. Only the holder of the stream's publisher
     * lock calls this, before it creates its own log: a publisher that closed deleted its log, so any log still
     * here is one whose process exited without closing (subscribers still draining it keep their mappings).
     *
     * @param streamDirectory the stream's directory.
     * @return logs deleted.
     * @throws IOException when the directory cannot be listed or a file deleted.
     */
    static int removeLogs(final Path streamDirectory) throws IOException
    {
        int removed = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(streamDirectory, LOG_PREFIX + "*" + RING_SUFFIX))
        {
            for (final Path file : files)
            {
                if (Files.deleteIfExists(file))
                {
                    removed++;
                }
            }
        }
        return removed;
    }

    /**
     * Is this the ring of a subscriber process that no longer runs (one killed without closing its subscription)?
     * Ring files are named {@code ring-PID-RANDOM.dat}; since a process id means nothing across PID namespaces
     * (containers sharing /dev/shm), the subscriber's heartbeat in the ring must also be older than the liveness
     * timeout.
     *
     * @param file       a ring file.
     * @param nowMs      epoch milliseconds.
     * @param livenessMs how old a heartbeat may be.
     * @return true when the ring's owner is gone.
     */
    static boolean isOrphan(final Path file, final long nowMs, final long livenessMs)
    {
        final String name = file.getFileName().toString();
        final int end = name.indexOf('-', RING_PREFIX.length());
        if (!name.startsWith(RING_PREFIX) || end < 0)
        {
            return false;
        }
        final long pid;
        try
        {
            pid = Long.parseLong(name.substring(RING_PREFIX.length(), end));
        }
        catch (final NumberFormatException ex)
        {
            return false;
        }
        if (ProcessHandle.current().pid() == pid || ProcessHandle.of(pid).isPresent())
        {
            return false;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            final long trailer = channel.size() - RingDescriptor.TRAILER_LENGTH;
            final ByteBuffer heartbeat = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder());
            if (trailer < 0 || 8 != channel.read(heartbeat, trailer + RingDescriptor.SUBSCRIBER_HEARTBEAT_OFFSET))
            {
                return false;
            }
            return nowMs - heartbeat.getLong(0) > livenessMs;
        }
        catch (final IOException ex)
        {
            return false;
        }
    }

    /**
     * Delete the rings of subscriber processes that have exited.
     *
     * @param streamDirectory the stream's directory.
     * @param livenessMs      how old a ring's heartbeat must be.
     * @return the number deleted.
     * @throws IOException when the directory cannot be listed.
     */
    static int removeOrphanRings(final Path streamDirectory, final long livenessMs) throws IOException
    {
        final long nowMs = System.currentTimeMillis();
        int removed = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(streamDirectory, RING_PREFIX + "*" + RING_SUFFIX))
        {
            for (final Path file : files)
            {
                if (isOrphan(file, nowMs, livenessMs) && Files.deleteIfExists(file))
                {
                    removed++;
                }
            }
        }
        return removed;
    }
}
