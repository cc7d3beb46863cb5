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
package io.warpbus.demo.service;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

import io.warpbus.matching.engine.MatchingEngine;
import org.agrona.ExpandableDirectByteBuffer;

/**
 * Checkpoints of the engine service, so that a restart replays only the journal written after the newest one. Files
 * {@code snapshot-<journal sequence>.bin} in one directory, little-endian (the file names, the directory name
 * {@code engine-snapshots} and the magic predate the word "checkpoint" and stay, so that existing journal directories
 * still recover):
 * <pre>
 *   int magic "WBRS", int version
 *   long journalSequence   the last journal record applied to the state below (-1: none)
 *   int instrumentCount, then long market-data sequence per instrument, in the service's instrument order
 *   int engineLength, then the matching engine's encoded state (EngineStateCodec, which checks its state hash)
 *   int routeCount, then per report route:
 *       int origin, long lastExecId,
 *       int reportCount, then the route's reports held for resend requests, oldest first, ending at lastExecId
 *   int CRC32C of everything above
 * </pre>
 * A checkpoint is written to a temporary file, forced to disk and renamed into place, so a crash leaves either the
 * whole file or none; the newest {@value #KEEP} are kept. Loading takes the newest file that is whole (magic, length
 * and checksum) and falls back to older ones. Encoding runs on the engine's thread between two commands and takes
 * as long as serialising the books (milliseconds for tens of thousands of orders); the engine's periodic checkpoints
 * leave the file, its force to disk and the rename to a {@link CheckpointWriter}'s thread.
 */
final class CheckpointStore
{
    static final int MAGIC = 0x5352_4257;
    static final int VERSION = 3;
    static final int KEEP = 2;

    private static final String PREFIX = "snapshot-";
    private static final String SUFFIX = ".bin";
    private static final int FIXED_LENGTH = 4 + 4 + 8 + 4 + 4 + 4 + 4;
    private static final int INSTRUMENTS_OFFSET = 16;

    private final Path directory;
    private final ExpandableDirectByteBuffer buffer = new ExpandableDirectByteBuffer(64 * 1024);
    private final CRC32C crc = new CRC32C();
    private volatile long lastWrittenSequence = Long.MIN_VALUE;

    /**
     * What {@link #loadLatest} found; the engine's encoded state stays in the loader's buffer until the next call.
     */
    static final class Loaded
    {
        final Path file;
        final long journalSequence;
        final long[] marketDataSequences;
        final int engineOffset;
        final int[] origins;
        final long[] lastExecIds;
        final int[] reportsOffsets;
        final int[] reportCounts;

        @SuppressWarnings("checkstyle:parameternumber")
        Loaded(final Path file, final long journalSequence, final long[] sequences, final int engineOffset,
            final int[] origins, final long[] lastExecIds, final int[] reportsOffsets, final int[] reportCounts)
        {
            this.file = file;
            this.journalSequence = journalSequence;
            this.marketDataSequences = sequences;
            this.engineOffset = engineOffset;
            this.origins = origins;
            this.lastExecIds = lastExecIds;
            this.reportsOffsets = reportsOffsets;
            this.reportCounts = reportCounts;
        }
    }

    CheckpointStore(final Path directory)
    {
        this.directory = directory;
        try
        {
            Files.createDirectories(directory);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create the checkpoint directory " + directory, ex);
        }
    }

    /**
     * Write a checkpoint of the state after journal record {@code journalSequence}, unless one was written for it.
     *
     * @return true if a file was written.
     * @throws UncheckedIOException when it cannot be written; older checkpoints are untouched.
     */
    boolean write(
        final MatchingEngine engine,
        final long journalSequence,
        final EngineOutput output,
        final InstrumentTable instruments)
    {
        if (journalSequence == lastWrittenSequence)
        {
            return false;
        }
        writeFile(buffer, encode(buffer, engine, journalSequence, output, instruments), journalSequence);
        return true;
    }

    /**
     * Encode a checkpoint of the state after journal record {@code journalSequence}, checksum included.
     *
     * @param buffer receives it from index 0.
     * @return its length.
     */
    int encode(
        final ExpandableDirectByteBuffer buffer,
        final MatchingEngine engine,
        final long journalSequence,
        final EngineOutput output,
        final InstrumentTable instruments)
    {
        final int count = instruments.count();
        int offset = 0;
        buffer.putInt(offset, MAGIC, ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(offset + 4, VERSION, ByteOrder.LITTLE_ENDIAN);
        buffer.putLong(offset + 8, journalSequence, ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(offset + INSTRUMENTS_OFFSET, count, ByteOrder.LITTLE_ENDIAN);
        offset += INSTRUMENTS_OFFSET + 4;
        for (int i = 0; i < count; i++)
        {
            buffer.putLong(offset, instruments.sequence(i), ByteOrder.LITTLE_ENDIAN);
            offset += 8;
        }
        final int engineLength = engine.encodeState(buffer, offset + 4);
        buffer.putInt(offset, engineLength, ByteOrder.LITTLE_ENDIAN);
        offset += 4 + engineLength;
        final ReportRoute[] routes = output.routes();
        buffer.putInt(offset, routes.length, ByteOrder.LITTLE_ENDIAN);
        offset += 4;
        for (final ReportRoute route : routes)
        {
            final int reports = route.heldReports();
            buffer.putInt(offset, route.origin(), ByteOrder.LITTLE_ENDIAN);
            buffer.putLong(offset + 4, route.lastExecId(), ByteOrder.LITTLE_ENDIAN);
            buffer.putInt(offset + 12, reports, ByteOrder.LITTLE_ENDIAN);
            buffer.checkLimit(offset + 16 + reports * ReportRoute.REPORT_LENGTH + 4);
            offset += 16 + route.copyHistory(buffer, offset + 16);
        }
        buffer.putInt(offset, checksum(buffer, offset), ByteOrder.LITTLE_ENDIAN);
        return offset + 4;
    }

    /**
     * Write an encoded checkpoint to its file: a temporary file forced to disk, then renamed into place; the
     * older ones beyond {@value #KEEP} are deleted. From any one thread at a time.
     *
     * @param buffer          holds it from index 0.
     * @param length          its length.
     * @param journalSequence the journal record it follows.
     * @throws UncheckedIOException when it cannot be written; older checkpoints are untouched.
     */
    void writeFile(final ExpandableDirectByteBuffer buffer, final int length, final long journalSequence)
    {
        final Path file = directory.resolve(name(journalSequence));
        final Path temporary = directory.resolve(name(journalSequence) + ".tmp");
        try
        {
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE))
            {
                final ByteBuffer bytes = buffer.byteBuffer().duplicate();
                bytes.limit(length).position(0);
                while (bytes.hasRemaining())
                {
                    channel.write(bytes);
                }
                channel.force(true);
            }
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            lastWrittenSequence = journalSequence;
            deleteOlder();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write checkpoint " + file, ex);
        }
    }

    /**
     * The journal record the newest checkpoint written or loaded follows.
     *
     * @return the sequence, {@link Long#MIN_VALUE} before any.
     */
    long lastWrittenSequence()
    {
        return lastWrittenSequence;
    }

    /**
     * Load the newest whole checkpoint into this object's buffer.
     *
     * @return what was loaded, or null when there is no usable checkpoint.
     */
    Loaded loadLatest()
    {
        final List<Path> files = files();
        for (int i = files.size() - 1; i >= 0; i--)
        {
            final Loaded loaded = load(files.get(i));
            if (null != loaded)
            {
                lastWrittenSequence = loaded.journalSequence;
                return loaded;
            }
        }
        return null;
    }

    /**
     * The buffer {@link Loaded#engineOffset} points into.
     *
     * @return the buffer.
     */
    ExpandableDirectByteBuffer buffer()
    {
        return buffer;
    }

    /**
     * The checkpoint directory.
     *
     * @return the directory.
     */
    Path directory()
    {
        return directory;
    }

    private Loaded load(final Path file)
    {
        final int length;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            final long size = channel.size();
            if (size < FIXED_LENGTH || size > Integer.MAX_VALUE - 64)
            {
                return null;
            }
            length = (int)size;
            buffer.checkLimit(length);
            final ByteBuffer bytes = buffer.byteBuffer().duplicate();
            bytes.limit(length).position(0);
            while (bytes.hasRemaining() && channel.read(bytes) >= 0)
            {
                continue;
            }
            if (bytes.hasRemaining())
            {
                return null;
            }
        }
        catch (final IOException ex)
        {
            return null;
        }
        if (MAGIC != buffer.getInt(0, ByteOrder.LITTLE_ENDIAN) ||
            VERSION != buffer.getInt(4, ByteOrder.LITTLE_ENDIAN) ||
            checksum(buffer, length - 4) != buffer.getInt(length - 4, ByteOrder.LITTLE_ENDIAN))
        {
            return null;
        }
        final int count = buffer.getInt(INSTRUMENTS_OFFSET, ByteOrder.LITTLE_ENDIAN);
        final int sequencesOffset = INSTRUMENTS_OFFSET + 4;
        if (count < 0 || sequencesOffset + 8L * count + 4 > length - 4)
        {
            return null;
        }
        final long[] sequences = new long[count];
        for (int i = 0; i < count; i++)
        {
            sequences[i] = buffer.getLong(sequencesOffset + 8 * i, ByteOrder.LITTLE_ENDIAN);
        }
        final int engineOffset = sequencesOffset + 8 * count + 4;
        final int engineLength = buffer.getInt(engineOffset - 4, ByteOrder.LITTLE_ENDIAN);
        if (engineLength < 0 || (long)engineOffset + engineLength + 4 > length - 4)
        {
            return null;
        }
        int offset = engineOffset + engineLength;
        final int routeCount = buffer.getInt(offset, ByteOrder.LITTLE_ENDIAN);
        offset += 4;
        if (routeCount < 1 || routeCount > EngineContext.Route.MAX_ORIGIN + 1 ||
            offset + 16L * routeCount > length - 4)
        {
            return null;
        }
        final int[] origins = new int[routeCount];
        final long[] lastExecIds = new long[routeCount];
        final int[] reportsOffsets = new int[routeCount];
        final int[] reportCounts = new int[routeCount];
        for (int i = 0; i < routeCount; i++)
        {
            if ((long)offset + 16 > length - 4)
            {
                return null;
            }
            origins[i] = buffer.getInt(offset, ByteOrder.LITTLE_ENDIAN);
            lastExecIds[i] = buffer.getLong(offset + 4, ByteOrder.LITTLE_ENDIAN);
            reportCounts[i] = buffer.getInt(offset + 12, ByteOrder.LITTLE_ENDIAN);
            reportsOffsets[i] = offset + 16;
            final long end = reportsOffsets[i] + (long)reportCounts[i] * ReportRoute.REPORT_LENGTH;
            if (reportCounts[i] < 0 || end > length - 4 || lastExecIds[i] < reportCounts[i])
            {
                return null;
            }
            offset = (int)end;
        }
        if (offset != length - 4)
        {
            return null;
        }
        return new Loaded(file, buffer.getLong(8, ByteOrder.LITTLE_ENDIAN), sequences, engineOffset, origins,
            lastExecIds, reportsOffsets, reportCounts);
    }

    private int checksum(final ExpandableDirectByteBuffer buffer, final int length)
    {
        crc.reset();
        final ByteBuffer bytes = buffer.byteBuffer().duplicate();
        bytes.limit(length).position(0);
        crc.update(bytes);
        return (int)crc.getValue();
    }

    private void deleteOlder() throws IOException
    {
        final List<Path> files = files();
        for (int i = 0; i < files.size() - KEEP; i++)
        {
            Files.deleteIfExists(files.get(i));
        }
    }

    /**
     * Checkpoint files, oldest first (names sort by sequence: fixed width).
     */
    private List<Path> files()
    {
        final List<Path> files = new ArrayList<>();
        try (Stream<Path> list = Files.list(directory))
        {
            list.filter((p) ->
            {
                final String name = p.getFileName().toString();
                return name.startsWith(PREFIX) && name.endsWith(SUFFIX);
            }).sorted().forEach(files::add);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot list " + directory, ex);
        }
        return files;
    }

    private static String name(final long journalSequence)
    {
        return PREFIX + String.format(Locale.ROOT, "%020d", journalSequence + 1) + SUFFIX;
    }
}
