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
package io.warpbus.bus.status;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.agrona.IoUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.errors.DistinctErrorLog;
import org.agrona.concurrent.errors.ErrorConsumer;
import org.agrona.concurrent.errors.ErrorLogReader;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;

/**
 * The memory-mapped file {@code <dir>/counters.dat} holding the bus's counters and distinct error log, written by
 * one owner process and readable by any number of other processes (such as the {@code warpbus stat} tool).
 * <p>
 * Owner side: {@link #create(Path)} replaces any stale file and exposes {@link #countersManager()},
 * {@link #errorLog()} and {@link #heartbeat(long)}. Reader side: {@link #mapExisting(Path)} validates the file and
 * maps it read-only, exposing {@link #countersReader()}, {@link #readErrors(ErrorConsumer)} and the header fields.
 * <p>
 * Layout, all fields in the machine's native byte order (the file is only read on the host that wrote it):
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+  header, HEADER_LENGTH = 128 bytes
 *  |                 Magic 0x5742434E "WBCN" (int32)               |   0  written last, with release semantics
 *  +---------------------------------------------------------------+
 *  |                    Layout version (int32)                     |   4
 *  +---------------------------------------------------------------+
 *  |                  Header length = 128 (int32)                  |   8
 *  +---------------------------------------------------------------+
 *  |           Counters metadata length (int32) = 512 * N          |  12
 *  +---------------------------------------------------------------+
 *  |            Counters values length (int32) = 128 * N           |  16
 *  +---------------------------------------------------------------+
 *  |                    Error log length (int32)                   |  20
 *  +---------------------------------------------------------------+
 *  |                      Owner PID (int64)                        |  24
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                Start timestamp, epoch ms (int64)              |  32
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |        Owner state (int32): 1 = active, 2 = closed            |  40
 *  +---------------------------------------------------------------+
 *  |                     reserved to offset 64                     |  44
 *  +---------------------------------------------------------------+
 *  |       Heartbeat timestamp, epoch ms (int64), own cache line   |  64
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                    reserved to offset 128                     |  72
 *  +---------------------------------------------------------------+
 *  |          Counters metadata buffer (Agrona CountersManager)    | 128
 *  |                             ...                               |
 *  +---------------------------------------------------------------+
 *  |           Counters values buffer (Agrona CountersManager)     | 128 + metadata length
 *  |                             ...                               |
 *  +---------------------------------------------------------------+
 *  |            Error log buffer (Agrona DistinctErrorLog)         | 128 + metadata + values length
 *  |                             ...                               |
 *  +---------------------------------------------------------------+
 * </pre>
 * N is the maximum number of counters. Every section starts on a 128-byte boundary.
 * <p>
 * Threading: {@link #heartbeat(long)} is for one thread of the owner; the {@link CountersManager} allocates from
 * one thread at a time (Agrona's rule); the {@link DistinctErrorLog} records from any thread. {@link #close()}
 * unmaps the file: any counter, reader or buffer obtained from it must not be used afterwards (that would crash the
 * JVM), so close it last.
 */
public final class CountersFile implements AutoCloseable
{
    /** Name of the file inside the directory. */
    public static final String FILENAME = "counters.dat";

    /** The magic number at offset 0, {@code "WBCN"} read as a big-endian int. */
    public static final int MAGIC = 0x5742434E;

    /** Version of the layout described above; bumped on any incompatible change. */
    public static final int LAYOUT_VERSION = 1;

    /** Length of the header, and the alignment of every section. */
    public static final int HEADER_LENGTH = 128;

    /** Default maximum number of counters. */
    public static final int DEFAULT_MAX_COUNTERS = 1024;

    /** Default length of the error log buffer: 1 MiB. */
    public static final int DEFAULT_ERROR_LOG_LENGTH = 1024 * 1024;

    /** Largest maximum number of counters accepted, which keeps the file under 2 GiB. */
    public static final int MAX_MAX_COUNTERS = 1024 * 1024;

    /** Smallest error log length accepted. */
    public static final int MIN_ERROR_LOG_LENGTH = 1024;

    /** Largest error log length accepted. */
    public static final int MAX_ERROR_LOG_LENGTH = 1024 * 1024 * 1024;

    /** A heartbeat older than this means the owner is not running (or is stuck); see {@link #isAlive(long)}. */
    public static final long DEFAULT_LIVENESS_TIMEOUT_MS = 5_000;

    /** How long a freed counter id stays unused so that readers do not confuse it with its successor. */
    public static final long COUNTER_FREE_TO_REUSE_TIMEOUT_MS = 1_000;

    /** How long a start watches a live process's stale-looking heartbeat for a change, see isBeating. */
    private static final long BEATING_WATCH_MS = 500;

    /** Owner state: the owner is (or was, if its heartbeat is stale) running. */
    public static final int OWNER_ACTIVE = 1;

    /** Owner state: the owner closed the file. */
    public static final int OWNER_CLOSED = 2;

    static final int MAGIC_OFFSET = 0;
    static final int LAYOUT_VERSION_OFFSET = 4;
    static final int HEADER_LENGTH_OFFSET = 8;
    static final int COUNTERS_METADATA_LENGTH_OFFSET = 12;
    static final int COUNTERS_VALUES_LENGTH_OFFSET = 16;
    static final int ERROR_LOG_LENGTH_OFFSET = 20;
    static final int PID_OFFSET = 24;
    static final int START_TIMESTAMP_OFFSET = 32;
    static final int OWNER_STATE_OFFSET = 40;
    static final int HEARTBEAT_TIMESTAMP_OFFSET = 64;

    private static final int METADATA_PER_VALUE = CountersReader.METADATA_LENGTH / CountersReader.COUNTER_LENGTH;

    private final Path file;
    private final boolean owner;
    private final MappedByteBuffer mapped;
    private final UnsafeBuffer header;
    private final UnsafeBuffer errorLogBuffer;
    private final CountersReader countersReader;
    private final CountersManager countersManager;
    private final DistinctErrorLog errorLog;
    /** Identity of the file on disk (device and inode on Linux) when it was mapped. */
    private final Object fileKey;
    private boolean closed;

    private CountersFile(final Path file, final boolean owner, final MappedByteBuffer mapped)
    {
        this.file = file;
        this.owner = owner;
        this.mapped = mapped;
        fileKey = fileKey(file);
        header = new UnsafeBuffer(mapped, 0, HEADER_LENGTH);
        final int metadataLength = header.getInt(COUNTERS_METADATA_LENGTH_OFFSET);
        final int valuesLength = header.getInt(COUNTERS_VALUES_LENGTH_OFFSET);
        final int errorLogLength = header.getInt(ERROR_LOG_LENGTH_OFFSET);
        final UnsafeBuffer metadata = new UnsafeBuffer(mapped, HEADER_LENGTH, metadataLength);
        final UnsafeBuffer values = new UnsafeBuffer(mapped, HEADER_LENGTH + metadataLength, valuesLength);
        errorLogBuffer = new UnsafeBuffer(mapped, HEADER_LENGTH + metadataLength + valuesLength, errorLogLength);
        if (owner)
        {
            // The reuse delay is elapsed time on this process alone, so it is measured on the monotonic clock: with
            // the wall clock, a step back (NTP, a VM restored from a snapshot) kept every freed counter unusable for
            // as long as the step, and each new publication failed for want of counters.
            countersManager = new CountersManager(
                metadata, values, StandardCharsets.US_ASCII, CountersFile::monotonicMs,
                COUNTER_FREE_TO_REUSE_TIMEOUT_MS);
            countersReader = countersManager;
            errorLog = new DistinctErrorLog(errorLogBuffer, SystemEpochClock.INSTANCE, StandardCharsets.UTF_8);
        }
        else
        {
            countersManager = null;
            countersReader = new CountersReader(metadata, values, StandardCharsets.US_ASCII);
            errorLog = null;
        }
    }

    /**
     * Create {@code <dir>/counters.dat} with the default sizes; see {@link #create(Path, int, int)}.
     *
     * @param dir the directory, created if missing.
     * @return the owner's mapping of the new file.
     */
    public static CountersFile create(final Path dir)
    {
        return create(dir, DEFAULT_MAX_COUNTERS, DEFAULT_ERROR_LOG_LENGTH);
    }

    /**
     * Create {@code <dir>/counters.dat}, replacing a file left by an owner that closed it or is no longer running,
     * and map it read-write. Readers that still map the old file keep seeing the old one.
     *
     * @param dir            the directory, created if missing.
     * @param maxCounters    how many counters the file can hold, 1 to {@link #MAX_MAX_COUNTERS}.
     * @param errorLogLength length of the distinct error log in bytes, a multiple of 128 from
     *                       {@link #MIN_ERROR_LOG_LENGTH} to {@link #MAX_ERROR_LOG_LENGTH}.
     * @return the owner's mapping of the new file.
     * @throws IllegalArgumentException when a size is out of range.
     * @throws IllegalStateException    when the file belongs to an owner that is still running.
     * @throws UncheckedIOException     when the directory or the file cannot be created.
     */
    public static CountersFile create(final Path dir, final int maxCounters, final int errorLogLength)
    {
        if (maxCounters < 1 || maxCounters > MAX_MAX_COUNTERS)
        {
            throw new IllegalArgumentException(
                "maxCounters must be from 1 to " + MAX_MAX_COUNTERS + ": " + maxCounters);
        }
        if (errorLogLength < MIN_ERROR_LOG_LENGTH || errorLogLength > MAX_ERROR_LOG_LENGTH ||
            0 != errorLogLength % HEADER_LENGTH)
        {
            throw new IllegalArgumentException("errorLogLength must be a multiple of " + HEADER_LENGTH + " from " +
                MIN_ERROR_LOG_LENGTH + " to " + MAX_ERROR_LOG_LENGTH + ": " + errorLogLength);
        }

        final Path file = dir.resolve(FILENAME);
        try
        {
            Files.createDirectories(dir);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create the counters directory " + dir + ": " + ex, ex);
        }
        refuseIfInUse(file);

        final int valuesLength = maxCounters * CountersReader.COUNTER_LENGTH;
        final int metadataLength = valuesLength * METADATA_PER_VALUE;
        final long fileLength = (long)HEADER_LENGTH + metadataLength + valuesLength + errorLogLength;
        final MappedByteBuffer mapped;
        try
        {
            // Unlink rather than overwrite, so that readers still mapping the old file are not corrupted.
            Files.deleteIfExists(file);
            mapped = IoUtil.mapNewFile(file.toFile(), fileLength, true);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create the counters file " + file + ": " + ex, ex);
        }

        final UnsafeBuffer header = new UnsafeBuffer(mapped, 0, HEADER_LENGTH);
        final long nowMs = System.currentTimeMillis();
        header.putInt(LAYOUT_VERSION_OFFSET, LAYOUT_VERSION);
        header.putInt(HEADER_LENGTH_OFFSET, HEADER_LENGTH);
        header.putInt(COUNTERS_METADATA_LENGTH_OFFSET, metadataLength);
        header.putInt(COUNTERS_VALUES_LENGTH_OFFSET, valuesLength);
        header.putInt(ERROR_LOG_LENGTH_OFFSET, errorLogLength);
        header.putLong(PID_OFFSET, ProcessHandle.current().pid());
        header.putLong(START_TIMESTAMP_OFFSET, nowMs);
        header.putInt(OWNER_STATE_OFFSET, OWNER_ACTIVE);
        header.putLong(HEARTBEAT_TIMESTAMP_OFFSET, nowMs);
        header.putIntRelease(MAGIC_OFFSET, MAGIC);

        return new CountersFile(file, true, mapped);
    }

    /**
     * Map an existing {@code <dir>/counters.dat} read-only, after checking its magic, layout version and lengths.
     *
     * @param dir the directory given to the owner's {@link #create(Path)}.
     * @return a reader's mapping of the file.
     * @throws IllegalStateException when the directory or file is missing or the file is not a valid counters file;
     *                               the message names the file and what is wrong with it.
     */
    public static CountersFile mapExisting(final Path dir)
    {
        final Path file = dir.resolve(FILENAME);
        if (!Files.isDirectory(dir))
        {
            throw new IllegalStateException("no counters directory " + dir + " (looked for " + file + ")");
        }
        if (!Files.isRegularFile(file))
        {
            throw new IllegalStateException("no counters file " + file + ": is a bus running with --dir " + dir + "?");
        }

        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            final long fileLength = channel.size();
            if (fileLength < HEADER_LENGTH)
            {
                throw invalid(file, "truncated: " + fileLength + " bytes, shorter than the " + HEADER_LENGTH +
                    "-byte header");
            }
            final ByteBuffer headerBytes = ByteBuffer.allocate(HEADER_LENGTH).order(ByteOrder.nativeOrder());
            while (headerBytes.hasRemaining() && channel.read(headerBytes, headerBytes.position()) >= 0)
            {
                // read the whole header
            }
            final long mappedLength = validate(file, new UnsafeBuffer(headerBytes.array()), fileLength);
            final MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, mappedLength);
            if (MAGIC != new UnsafeBuffer(mapped, 0, HEADER_LENGTH).getIntVolatile(MAGIC_OFFSET))
            {
                IoUtil.unmap(mapped);
                throw invalid(file, "it was replaced while being mapped; try again");
            }
            return new CountersFile(file, false, mapped);
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("cannot read the counters file " + file + ": " + ex, ex);
        }
    }

    /**
     * Where the file is.
     *
     * @return the path of {@code counters.dat}.
     */
    public Path file()
    {
        return file;
    }

    /**
     * Whether this mapping is the owner's ({@link #create}) rather than a reader's ({@link #mapExisting}).
     *
     * @return true for the owner.
     */
    public boolean isOwner()
    {
        return owner;
    }

    /**
     * The counters, for the owner to allocate from.
     *
     * @return the counters manager over the file's counters sections.
     * @throws IllegalStateException on a reader's mapping.
     */
    public CountersManager countersManager()
    {
        ensureOwner("countersManager()");
        return countersManager;
    }

    /**
     * The counters, for reading; on the owner's side this is the {@link #countersManager()} itself.
     *
     * @return a reader over the file's counters sections.
     */
    public CountersReader countersReader()
    {
        ensureOpen();
        return countersReader;
    }

    /**
     * The distinct error log, for the owner to record into; see also {@link RecordingErrorHandler}.
     *
     * @return the error log over the file's error log section.
     * @throws IllegalStateException on a reader's mapping.
     */
    public DistinctErrorLog errorLog()
    {
        ensureOwner("errorLog()");
        return errorLog;
    }

    /**
     * The raw error log section, for {@link ErrorLogReader}.
     *
     * @return the buffer over the error log section.
     */
    public AtomicBuffer errorLogBuffer()
    {
        ensureOpen();
        return errorLogBuffer;
    }

    /**
     * Read the distinct errors recorded so far.
     *
     * @param consumer called with each distinct error: observation count, first and last observation timestamps
     *                 (epoch ms) and the encoded exception (its stack trace text).
     * @return the number of distinct errors read.
     */
    public int readErrors(final ErrorConsumer consumer)
    {
        return readErrors(consumer, 0);
    }

    /**
     * Read the distinct errors last observed at or after a timestamp.
     *
     * @param consumer         called with each distinct error, see {@link #readErrors(ErrorConsumer)}.
     * @param sinceTimestampMs only errors last observed at or after this epoch time in ms are read.
     * @return the number of distinct errors read.
     */
    public int readErrors(final ErrorConsumer consumer, final long sinceTimestampMs)
    {
        ensureOpen();
        return ErrorLogReader.read(errorLogBuffer, consumer, sinceTimestampMs);
    }

    /**
     * Record that the owner is alive. Call it periodically (e.g. every 100 ms) from the owner's duty cycle; readers
     * treat a heartbeat older than {@link #DEFAULT_LIVENESS_TIMEOUT_MS} as a dead or stuck owner.
     *
     * @param nowMs the current epoch time in ms.
     * @throws IllegalStateException on a reader's mapping.
     */
    public void heartbeat(final long nowMs)
    {
        ensureOwner("heartbeat(long)");
        header.putLongRelease(HEARTBEAT_TIMESTAMP_OFFSET, nowMs);
    }

    /**
     * The owner's last heartbeat.
     *
     * @return epoch time in ms of the last {@link #heartbeat(long)}, or of the file's creation.
     */
    public long heartbeatTimestampMs()
    {
        ensureOpen();
        return header.getLongVolatile(HEARTBEAT_TIMESTAMP_OFFSET);
    }

    /**
     * Time since the owner's last heartbeat.
     *
     * @param nowMs the current epoch time in ms.
     * @return ms since the last heartbeat (negative if the owner's clock is ahead).
     */
    public long heartbeatAgeMs(final long nowMs)
    {
        return nowMs - heartbeatTimestampMs();
    }

    /**
     * Whether the owner is running: it has not closed the file and its heartbeat is recent.
     *
     * @param nowMs the current epoch time in ms.
     * @return true when the owner has not closed the file and heartbeat within {@link #DEFAULT_LIVENESS_TIMEOUT_MS}.
     */
    public boolean isAlive(final long nowMs)
    {
        return isAlive(nowMs, DEFAULT_LIVENESS_TIMEOUT_MS);
    }

    /**
     * Whether the owner is running: it has not closed the file and its heartbeat is recent.
     *
     * @param nowMs     the current epoch time in ms.
     * @param timeoutMs the age beyond which a heartbeat is stale.
     * @return true when the owner has not closed the file and heartbeat within {@code timeoutMs}.
     */
    public boolean isAlive(final long nowMs, final long timeoutMs)
    {
        return !isOwnerClosed() && heartbeatAgeMs(nowMs) <= timeoutMs;
    }

    /**
     * Whether the owner closed the file.
     *
     * @return true once the owner called {@link #close()}.
     */
    public boolean isOwnerClosed()
    {
        ensureOpen();
        return OWNER_CLOSED == header.getIntVolatile(OWNER_STATE_OFFSET);
    }

    /**
     * The owner's process id.
     *
     * @return the pid of the process that created the file.
     */
    public long pid()
    {
        ensureOpen();
        return header.getLong(PID_OFFSET);
    }

    /**
     * When the owner created the file.
     *
     * @return epoch time in ms.
     */
    public long startTimestampMs()
    {
        ensureOpen();
        return header.getLong(START_TIMESTAMP_OFFSET);
    }

    /**
     * How many counters the file holds.
     *
     * @return the maximum number of counters.
     */
    public int maxCounters()
    {
        ensureOpen();
        return header.getInt(COUNTERS_VALUES_LENGTH_OFFSET) / CountersReader.COUNTER_LENGTH;
    }

    /**
     * Length of the error log section.
     *
     * @return bytes.
     */
    public int errorLogLength()
    {
        return errorLogBuffer().capacity();
    }

    /**
     * Whether {@link #close()} was called on this mapping.
     *
     * @return true once closed.
     */
    public boolean isClosed()
    {
        return closed;
    }

    /**
     * Unmap the file; the owner first marks it closed so readers can tell a clean shutdown from a crash. The file
     * stays on disk. Idempotent. Counters and buffers obtained from this mapping must not be used afterwards.
     */
    /**
     * Mark the file closed by its owner but leave it mapped until the garbage collector releases it: counters
     * still held by application threads that outlive their bus stay safe to touch. The file stays on disk so
     * {@code warpbus stat} can show the final values.
     */
    public void markClosed()
    {
        if (!closed && owner)
        {
            header.putIntRelease(OWNER_STATE_OFFSET, OWNER_CLOSED);
        }
    }

    /**
     * Close: mark the file closed by its owner and unmap it.
     */
    public void close()
    {
        if (!closed)
        {
            closed = true;
            if (owner)
            {
                header.putIntRelease(OWNER_STATE_OFFSET, OWNER_CLOSED);
            }
            IoUtil.unmap(mapped);
        }
    }

    /**
     * Owner only: {@link #close()} and delete the file.
     *
     * @throws IllegalStateException on a reader's mapping.
     * @throws UncheckedIOException  when the file cannot be deleted.
     */
    public void closeAndDelete()
    {
        if (!owner)
        {
            throw new IllegalStateException("closeAndDelete() is for the owner; " + file + " is mapped read-only");
        }
        close();
        try
        {
            Files.deleteIfExists(file);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot delete the counters file " + file + ": " + ex, ex);
        }
    }

    /**
     * Has another file replaced the mapped one at {@link #file()} (the owner restarted)? A file deleted and not yet
     * replaced does not count.
     *
     * @return true when the file now at {@link #file()} is not the one mapped.
     */
    public boolean isReplacedOnDisk()
    {
        final Object onDisk = fileKey(file);
        return null != onDisk && !onDisk.equals(fileKey);
    }

    static Object fileKey(final Path file)
    {
        try
        {
            return Files.readAttributes(file, BasicFileAttributes.class).fileKey();
        }
        catch (final IOException ex)
        {
            return null;
        }
    }

    @Override
    public String toString()
    {
        return "CountersFile{" + file + (owner ? ", owner" : ", reader") + (closed ? ", closed" : "") + '}';
    }

    /**
     * Check a header; returns the length to map.
     */
    static long validate(final Path file, final UnsafeBuffer header, final long fileLength)
    {
        final int magic = header.getInt(MAGIC_OFFSET);
        if (0 == magic)
        {
            throw invalid(file, "not initialised (magic is 0): its owner is starting or died while creating it");
        }
        if (MAGIC != magic)
        {
            throw invalid(file, "bad magic 0x" + Integer.toHexString(magic) + ", expected 0x" +
                Integer.toHexString(MAGIC) + ": not a WarpBus counters file");
        }
        final int version = header.getInt(LAYOUT_VERSION_OFFSET);
        if (LAYOUT_VERSION != version)
        {
            throw invalid(file, "layout version " + version + ", this reader understands version " + LAYOUT_VERSION);
        }
        final int headerLength = header.getInt(HEADER_LENGTH_OFFSET);
        if (HEADER_LENGTH != headerLength)
        {
            throw invalid(file, "header length " + headerLength + ", expected " + HEADER_LENGTH);
        }
        final int metadataLength = header.getInt(COUNTERS_METADATA_LENGTH_OFFSET);
        final int valuesLength = header.getInt(COUNTERS_VALUES_LENGTH_OFFSET);
        final int errorLogLength = header.getInt(ERROR_LOG_LENGTH_OFFSET);
        if (valuesLength <= 0 || 0 != valuesLength % CountersReader.COUNTER_LENGTH ||
            (long)valuesLength * METADATA_PER_VALUE != metadataLength)
        {
            throw invalid(file, "inconsistent counters lengths: metadata " + metadataLength + ", values " +
                valuesLength);
        }
        if (errorLogLength <= 0 || 0 != errorLogLength % HEADER_LENGTH)
        {
            throw invalid(file, "bad error log length " + errorLogLength);
        }
        final long expectedLength = (long)HEADER_LENGTH + metadataLength + valuesLength + errorLogLength;
        if (fileLength < expectedLength)
        {
            throw invalid(file, "truncated: " + fileLength + " bytes, the header describes " + expectedLength);
        }
        if (expectedLength > Integer.MAX_VALUE)
        {
            throw invalid(file, "too large to map: " + expectedLength + " bytes");
        }
        return expectedLength;
    }

    private static long monotonicMs()
    {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime());
    }

    private static IllegalStateException invalid(final Path file, final String problem)
    {
        return new IllegalStateException("invalid counters file " + file + ": " + problem);
    }

    private static void refuseIfInUse(final Path file)
    {
        if (!Files.exists(file))
        {
            return;
        }
        final CountersFile existing;
        try
        {
            existing = mapExisting(file.getParent());
        }
        catch (final RuntimeException ex)
        {
            return; // not a valid counters file: it will be replaced
        }
        try
        {
            final long nowMs = System.currentTimeMillis();
            final long pid = existing.pid();
            final boolean processAlive = ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
            if (!processAlive || existing.isOwnerClosed())
            {
                return;
            }
            if (existing.isAlive(nowMs))
            {
                throw new IllegalStateException("counters file " + file + " is in use by pid " + pid +
                    " (heartbeat " + existing.heartbeatAgeMs(nowMs) + " ms ago): stop it or use another directory");
            }
            // Only a file whose owner's process is alive and whose heartbeat looks stale is watched, so a normal
            // start never waits.
            if (existing.isBeating(BEATING_WATCH_MS))
            {
                // Its heartbeat reads stale against this clock but changes: the host's clock stepped (NTP).
                throw new IllegalStateException("counters file " + file + " is in use by pid " + pid +
                    " (heartbeat still changing, though its time is " + existing.heartbeatAgeMs(nowMs) +
                    " ms behind this clock): stop it or use another directory");
            }
        }
        finally
        {
            existing.close();
        }
    }

    /**
     * Whether the owner's heartbeat changes within {@code watchMs}, timed on this process's monotonic clock. The
     * heartbeat's age compares the owner's wall clock with this one's, and a step of either clock (NTP) makes a live
     * owner's heartbeat look old, or a dead owner's look recent; a heartbeat that changes is an owner running
     * whatever the clocks say. A bus beats every 100 ms while its duty cycle runs.
     *
     * @param watchMs how long to watch before answering no.
     * @return true as soon as the heartbeat changes, false if it did not within {@code watchMs}.
     */
    public boolean isBeating(final long watchMs)
    {
        final long first = heartbeatTimestampMs();
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(watchMs);
        while (System.nanoTime() - deadlineNs < 0)
        {
            if (heartbeatTimestampMs() != first)
            {
                return true;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
        return false;
    }

    private void ensureOwner(final String method)
    {
        ensureOpen();
        if (!owner)
        {
            throw new IllegalStateException(method + " is for the owner; " + file + " is mapped read-only");
        }
    }

    private void ensureOpen()
    {
        if (closed)
        {
            throw new IllegalStateException("counters file " + file + " is closed");
        }
    }
}
