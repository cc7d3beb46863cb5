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
package io.warpbus.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.TailerDirection;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One stream's Chronicle queue in {@code <journal>/stream-<id>/}, shared by the stream's writer and readers in this
 * process. Checks the cycle files before Chronicle touches them (Chronicle would hang on, extend or misread a
 * damaged one), bounds reading to the records before the first damaged file, applies retention and holds the
 * stream's writer lock.
 */
final class JournalStream implements AutoCloseable
{
    static final String DIRECTORY_PREFIX = "stream-";
    static final String CYCLE_FILE_SUFFIX = ".cq4";
    static final String WRITER_LOCK_FILE = "writer.lock";
    private static final int PAGE_SIZE = 4096;
    private static final int NOT_COMPLETE = 0x80000000;
    private static final int META_DATA = 0x40000000;
    private static final int LENGTH_MASK = 0x3FFFFFFF;
    private static final long MAX_CYCLE_MILLIS = 4_102_444_800_000L;

    final int streamId;
    final Path directory;
    final SingleChronicleQueue queue;
    final RollCycle rollCycle;
    final String damage;
    final int damagedCycle;
    final long endIndex;
    private final boolean readable;
    private final JournalContext context;
    private final boolean writable;
    private final DateTimeFormatter fileNames;
    private ExcerptTailer probe;
    private FileChannel lockChannel;
    private FileLock lock;
    private JournalWriter writer;

    private JournalStream(
        final JournalContext context, final int streamId, final Path directory, final SingleChronicleQueue queue,
        final String damage, final Path damagedFile, final boolean writable)
    {
        this.context = context;
        this.streamId = streamId;
        this.directory = directory;
        this.queue = queue;
        this.damage = damage;
        this.writable = writable;
        this.rollCycle = queue.rollCycle();
        this.fileNames = DateTimeFormatter.ofPattern(rollCycle.format()).withZone(ZoneOffset.UTC);
        this.damagedCycle = null == damagedFile ? Integer.MAX_VALUE : cycleOf(damagedFile);
        this.readable = null == damagedFile || damagedCycle > queue.firstCycle();
        this.endIndex = null == damagedFile ? Long.MAX_VALUE : readableEnd();
    }

    static Path directory(final Path journalDirectory, final int streamId)
    {
        return journalDirectory.resolve(DIRECTORY_PREFIX + streamId);
    }

    /**
     * Open a stream's queue, creating its directory when {@code create}.
     */
    static JournalStream open(final JournalContext context, final int streamId, final boolean create)
    {
        final Path directory = directory(context.directory(), streamId);
        if (!Files.isDirectory(directory))
        {
            if (!create)
            {
                throw new JournalException("unknown stream " + streamId + ": no directory " + directory);
            }
            try
            {
                Files.createDirectories(directory);
            }
            catch (final IOException ex)
            {
                throw new JournalException("stream " + streamId + ": cannot create " + directory + ": " + ex, ex);
            }
        }
        if (!context.readOnly())
        {
            setAsideUnfinishedNewestCycle(directory);
        }
        Path damagedFile = null;
        String damage = null;
        for (final Path file : cycleFiles(directory))
        {
            final String problem = checkCycleFile(file);
            if (null != problem)
            {
                damagedFile = file;
                damage = "stream " + streamId + ": cycle file " + file + " " + problem;
                break;
            }
        }
        final boolean writable = !context.readOnly() && null == damage;
        final SingleChronicleQueue queue;
        try
        {
            queue = SingleChronicleQueueBuilder.single(directory.toFile())
                .rollCycle(context.rollCycle())
                .timeProvider(context.epochClock()::time)
                .readOnly(!writable)
                .build();
        }
        catch (final RuntimeException ex)
        {
            throw new JournalException("stream " + streamId + ": cannot open the queue in " + directory + ": " +
                ex.getMessage(), ex);
        }
        try
        {
            return new JournalStream(context, streamId, directory, queue, damage, damagedFile, writable);
        }
        catch (final RuntimeException ex)
        {
            queue.close();
            throw ex;
        }
    }

    /**
     * Why a cycle file cannot be trusted, or null when it looks sound: Chronicle grows a cycle file in whole pages
     * and starts it with a complete metadata header, so a file cut short or overwritten fails one of these.
     */
    static String checkCycleFile(final Path file)
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            final long size = channel.size();
            if (size < PAGE_SIZE || 0 != size % PAGE_SIZE)
            {
                return "is truncated: " + size + " bytes is not a whole number of " + PAGE_SIZE + "-byte pages";
            }
            final ByteBuffer header = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
            channel.read(header, 0);
            final int word = header.getInt(0);
            final int length = word & LENGTH_MASK;
            if (0 != (word & NOT_COMPLETE) || 0 == (word & META_DATA) || 0 == length || length >= size)
            {
                return "is corrupt: it does not start with a Chronicle queue header (first word 0x" +
                    Integer.toHexString(word) + ")";
            }
            return null;
        }
        catch (final IOException ex)
        {
            return "cannot be read: " + ex;
        }
    }

    /**
     * A process killed while Chronicle was creating a new cycle file can leave it empty or all zeros: no record is
     * in it (records follow the header, which was never written). Rather than treat the stream as damaged, which
     * would stop its writer for good, move that file aside (renamed {@code .unfinished-<millis>}) and go on. A file
     * with anything in it is left for the damage checks.
     */
    private static void setAsideUnfinishedNewestCycle(final Path directory)
    {
        final List<Path> files = cycleFiles(directory);
        if (files.isEmpty())
        {
            return;
        }
        final Path newest = files.get(files.size() - 1);
        try (FileChannel channel = FileChannel.open(newest, StandardOpenOption.READ))
        {
            // Nothing ever written: empty, or all zeros (a file Chronicle sized but never got to put a header in).
            final ByteBuffer chunk = ByteBuffer.allocate(64 * 1024);
            long position = 0;
            int read;
            while ((read = channel.read(chunk, position)) > 0)
            {
                for (int i = 0; i < read; i++)
                {
                    if (0 != chunk.get(i))
                    {
                        return;
                    }
                }
                position += read;
                chunk.clear();
            }

        }
        catch (final IOException ex)
        {
            return;
        }
        // Only when no live writer holds the stream: a writer creating that file right now is not a crash.
        final Path aside = newest.resolveSibling(newest.getFileName() + ".unfinished-" + System.currentTimeMillis());
        try (FileChannel lockChannel = FileChannel.open(directory.resolve(WRITER_LOCK_FILE), StandardOpenOption.CREATE,
            StandardOpenOption.WRITE);
            FileLock lock = lockChannel.tryLock())
        {
            if (null != lock)
            {
                Files.move(newest, aside);
            }
        }
        catch (final OverlappingFileLockException ex)
        {
            // A writer in this process: the file is its own.
        }
        catch (final IOException ex)
        {
            throw new JournalException("cycle file " + newest + " was never finished (a crash while it was created) " +
                "and cannot be moved aside to " + aside + ": " + ex, ex);
        }
    }

    static List<Path> cycleFiles(final Path directory)
    {
        try (Stream<Path> files = Files.list(directory))
        {
            return files.filter((f) -> f.getFileName().toString().endsWith(CYCLE_FILE_SUFFIX)).sorted().toList();
        }
        catch (final IOException ex)
        {
            throw new JournalException("cannot list " + directory + ": " + ex, ex);
        }
    }

    boolean writable()
    {
        return writable;
    }

    JournalContext context()
    {
        return context;
    }

    /**
     * A tailer for one reader; the reader may be used from another thread than the one that made it.
     */
    ExcerptTailer newTailer()
    {
        if (!readable)
        {
            return null;
        }
        final ExcerptTailer tailer = queue.createTailer();
        tailer.singleThreadedCheckDisabled(true);
        return tailer;
    }

    JournalWriter writer()
    {
        if (!writable)
        {
            throw new JournalException(null != damage ? damage + ": refusing to append to a damaged stream" :
                "stream " + streamId + ": the journal " + context.directory() + " is open read-only");
        }
        if (null != writer && !writer.isClosed())
        {
            throw new JournalException("stream " + streamId + " already has a writer in this process");
        }
        lockWriter();
        try
        {
            writer = new JournalWriter(this);
        }
        catch (final RuntimeException ex)
        {
            unlockWriter();
            throw ex;
        }
        return writer;
    }

    void onWriterClosed()
    {
        unlockWriter();
    }

    private void lockWriter()
    {
        final Path lockFile = directory.resolve(WRITER_LOCK_FILE);
        try
        {
            lockChannel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            lock = lockChannel.tryLock();
        }
        catch (final IOException | OverlappingFileLockException ex)
        {
            lock = null;
        }
        if (null == lock)
        {
            CloseHelper.quietClose(lockChannel);
            lockChannel = null;
            throw new JournalException("stream " + streamId + " already has a writer: another process holds " +
                lockFile);
        }
    }

    private void unlockWriter()
    {
        CloseHelper.quietClose(lock);
        CloseHelper.quietClose(lockChannel);
        lock = null;
        lockChannel = null;
    }

    /**
     * The cycles that hold readable records, oldest first (allocates: for seeks and info, not the hot path).
     */
    List<int[]> readableCycles(final ExcerptTailer tailer)
    {
        final List<int[]> cycles = new ArrayList<>();
        if (null == tailer)
        {
            return cycles;
        }
        for (final Path file : cycleFiles(directory))
        {
            final int cycle = cycleOf(file);
            if (Integer.MIN_VALUE == cycle || cycle >= damagedCycle)
            {
                continue;
            }
            final long count = tailer.excerptsInCycle(cycle);
            if (count > 0)
            {
                cycles.add(new int[] { cycle, (int)Math.min(Integer.MAX_VALUE, count) });
            }
        }
        return cycles;
    }

    Path cycleFile(final int cycle)
    {
        return directory.resolve(cycleName(cycle) + CYCLE_FILE_SUFFIX);
    }

    /**
     * The cycle a file holds, from its name: names sort in time order, so a binary search over cycle numbers finds
     * the one whose name it is (works for every roll cycle's name format). {@code Integer.MIN_VALUE} when none.
     */
    int cycleOf(final Path file)
    {
        final String name = file.getFileName().toString();
        if (!name.endsWith(CYCLE_FILE_SUFFIX))
        {
            return Integer.MIN_VALUE;
        }
        final String stem = name.substring(0, name.length() - CYCLE_FILE_SUFFIX.length());
        long lo = 0;
        long hi = Math.min(Integer.MAX_VALUE, MAX_CYCLE_MILLIS / rollCycle.lengthInMillis());
        while (lo < hi)
        {
            final long mid = (lo + hi) >>> 1;
            if (cycleName((int)mid).compareTo(stem) < 0)
            {
                lo = mid + 1;
            }
            else
            {
                hi = mid;
            }
        }
        return cycleName((int)lo).equals(stem) ? (int)lo : Integer.MIN_VALUE;
    }

    private String cycleName(final int cycle)
    {
        final long millis = (long)cycle * rollCycle.lengthInMillis() + queue.epoch();
        return fileNames.format(Instant.ofEpochMilli(millis));
    }

    /**
     * The index after the last record before the damaged cycle.
     */
    private long readableEnd()
    {
        if (!readable)
        {
            return 0;
        }
        final ExcerptTailer tailer = probe();
        final List<int[]> cycles = readableCycles(tailer);
        if (cycles.isEmpty())
        {
            return 0;
        }
        final int[] last = cycles.get(cycles.size() - 1);
        return rollCycle.toIndex(last[0], last[1]);
    }

    ExcerptTailer probe()
    {
        if (null == probe)
        {
            probe = newTailer();
        }
        return probe;
    }

    /**
     * Read the record header at {@code index} with {@code tailer} into {@code header}: sequence and publisher
     * timestamp. Returns false when there is no record there.
     */
    boolean readAt(final ExcerptTailer tailer, final long index, final long[] header)
    {
        if (null == tailer)
        {
            return false;
        }
        final UnsafeBuffer view = new UnsafeBuffer(0, 0);
        if (!tailer.moveToIndex(index))
        {
            return false;
        }
        try (DocumentContext document = tailer.readingDocument())
        {
            if (!document.isPresent())
            {
                return false;
            }
            document.rollbackOnClose();
            final net.openhft.chronicle.bytes.Bytes<?> bytes = document.wire().bytes();
            final long position = bytes.readPosition();
            final int length = (int)bytes.readRemaining();
            checkRecord(tailer.index(), length);
            view.wrap(bytes.addressForRead(position, JournalRecordDescriptor.HEADER_LENGTH), length);
            header[0] = view.getLong(JournalRecordDescriptor.SEQUENCE_OFFSET, ByteOrder.LITTLE_ENDIAN);
            header[1] = view.getLong(JournalRecordDescriptor.PUBLISHER_TIMESTAMP_OFFSET, ByteOrder.LITTLE_ENDIAN);
            return true;
        }
    }

    void checkRecord(final long index, final int documentLength)
    {
        if (documentLength < JournalRecordDescriptor.HEADER_LENGTH)
        {
            throw corrupt(index, "a document of " + documentLength + " bytes is shorter than a record header");
        }
    }

    JournalException corrupt(final long index, final String what)
    {
        return new JournalException("stream " + streamId + ": corrupt record at index 0x" + Long.toHexString(index) +
            " in " + cycleFile(rollCycle.toCycle(index)) + ": " + what);
    }

    /**
     * The last readable record's sequence and publisher timestamp, or -1s when there is none.
     */
    void last(final ExcerptTailer tailer, final long[] header)
    {
        header[0] = -1;
        header[1] = -1;
        if (Long.MAX_VALUE == endIndex)
        {
            final long lastIndex = queue.lastIndex();
            if (lastIndex < 0 || !readAt(tailer, lastIndex, header))
            {
                lastBackward(header);
            }
        }
        else if (endIndex > 0)
        {
            readAt(tailer, endIndex - 1, header);
        }
    }

    private void lastBackward(final long[] header)
    {
        final ExcerptTailer tailer = newTailer();
        try
        {
            tailer.direction(TailerDirection.BACKWARD).toEnd();
            final long index = tailer.index();
            tailer.direction(TailerDirection.FORWARD);
            if (!readAt(tailer, index, header))
            {
                header[0] = -1;
                header[1] = -1;
            }
        }
        finally
        {
            tailer.close();
        }
    }

    /**
     * The first readable record's sequence and publisher timestamp, or -1s when there is none.
     */
    void first(final ExcerptTailer tailer, final long[] header)
    {
        header[0] = -1;
        header[1] = -1;
        final List<int[]> cycles = readableCycles(tailer);
        if (!cycles.isEmpty())
        {
            readAt(tailer, rollCycle.toIndex(cycles.get(0)[0], 0), header);
        }
    }

    JournalStreamInfo info()
    {
        final ExcerptTailer tailer = probe();
        final List<JournalCycleInfo> cycles = new ArrayList<>();
        long count = 0;
        for (final Path file : cycleFiles(directory))
        {
            final int cycle = cycleOf(file);
            long size;
            try
            {
                size = Files.size(file);
            }
            catch (final IOException ex)
            {
                size = -1;
            }
            final long records = cycle >= damagedCycle || Integer.MIN_VALUE == cycle || null == tailer ? -1 :
                tailer.excerptsInCycle(cycle);
            count += Math.max(0, records);
            cycles.add(new JournalCycleInfo(cycle, file, size, records));
        }
        final long[] first = new long[2];
        final long[] last = new long[2];
        first(tailer, first);
        last(tailer, last);
        return new JournalStreamInfo(streamId, directory, ((Enum<?>)rollCycle).name(), count, first[0], last[0],
            first[1], last[1], List.copyOf(cycles), damage);
    }

    /**
     * Delete cycle files outside the retention limits: never the newest file nor the current cycle's. Readers
     * tailing a deleted file keep reading it from their mapping and then move to the next cycle.
     *
     * @return files deleted.
     */
    int applyRetention()
    {
        final int keepCycles = context.retentionCycles();
        final int keepDays = context.retentionDays();
        if (!writable || (0 == keepCycles && 0 == keepDays))
        {
            return 0;
        }
        final long nowMs = context.epochClock().time();
        final int current = rollCycle.current(queue.time(), queue.epoch());
        final List<Path> files = cycleFiles(directory);
        final long oldestEndMs = nowMs - TimeUnit.DAYS.toMillis(keepDays);
        int deleted = 0;
        for (int i = 0; i < files.size() - 1; i++)
        {
            final Path file = files.get(i);
            final int cycle = cycleOf(file);
            if (Integer.MIN_VALUE == cycle || cycle >= current)
            {
                continue;
            }
            final long endMs = ((long)cycle + 1) * rollCycle.lengthInMillis() + queue.epoch();
            final boolean tooMany = keepCycles > 0 && files.size() - i > keepCycles;
            final boolean tooOld = keepDays > 0 && endMs < oldestEndMs;
            if (tooMany || tooOld)
            {
                try
                {
                    if (Files.deleteIfExists(file))
                    {
                        deleted++;
                    }
                }
                catch (final IOException ex)
                {
                    throw new JournalException("stream " + streamId + ": retention cannot delete " + file + ": " + ex,
                        ex);
                }
            }
        }
        if (deleted > 0)
        {
            queue.refreshDirectoryListing();
        }
        return deleted;
    }

    @Override
    public void close()
    {
        if (null != writer)
        {
            writer.close();
        }
        CloseHelper.quietClose(probe);
        queue.close();
        unlockWriter();
    }
}
