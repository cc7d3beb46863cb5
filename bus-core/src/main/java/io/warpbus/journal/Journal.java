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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.agrona.collections.Int2ObjectHashMap;

/**
 * A directory of journals, one Chronicle queue per stream in {@code <dir>/stream-<id>/}, rolling to a new cycle
 * file per roll cycle (hourly, daily, ...).
 * <pre>{@code
 * try (Journal journal = Journal.open(new JournalContext().directory(dir)))
 * {
 *     JournalWriter writer = journal.writer(1001);           // resumes after writer.lastSequence()
 *     writer.append(sequence, sessionId, flags, publishedNs, receivedNs, buffer, offset, length);
 *     JournalReader reader = journal.reader(1001);
 *     reader.seekToSequence(from);
 *     reader.poll((seq, session, flags, pubNs, rcvNs, buf, off, len) -> ..., 100);
 * }
 * }</pre>
 * Opening checks every stream's cycle files before Chronicle touches them: a stream with a truncated or corrupt
 * file is reported by {@link #info(int)} and its readers' {@link JournalReader#damage()}, reads only the records
 * before that file, and refuses a writer; the other streams are unaffected. Retention (oldest cycles beyond
 * {@link JournalContext#retentionCycles()} or {@link JournalContext#retentionDays()}) runs when a writer opens,
 * when its cycle rolls, and on {@link #applyRetention()}.
 * <p>
 * The journal's methods are for control paths and are thread safe; each writer and reader is used by one thread at
 * a time. Closing the journal closes its writers and readers and releases their files.
 */
public final class Journal implements AutoCloseable
{
    private final JournalContext context;
    private final Int2ObjectHashMap<JournalStream> streams = new Int2ObjectHashMap<>();
    private boolean closed;

    private Journal(final JournalContext context)
    {
        this.context = context;
    }

    /**
     * Open a journal directory; a writable journal creates it when missing.
     *
     * @param context configuration; concluded here.
     * @return the journal.
     * @throws JournalException naming the directory when it is missing (read only), not a directory, or not writable.
     */
    public static Journal open(final JournalContext context)
    {
        context.conclude();
        final Path directory = context.directory();
        if (context.readOnly())
        {
            if (!Files.isDirectory(directory))
            {
                throw new JournalException("journal directory " + directory + (Files.exists(directory) ?
                    " is not a directory" : " does not exist"));
            }
        }
        else
        {
            try
            {
                Files.createDirectories(directory);
            }
            catch (final IOException ex)
            {
                throw new JournalException("cannot create journal directory " + directory + ": " + ex, ex);
            }
            checkWritable(directory);
        }
        return new Journal(context);
    }

    private static void checkWritable(final Path directory)
    {
        try
        {
            final Path probe = Files.createTempFile(directory, ".warpbus-write-check", ".tmp");
            Files.delete(probe);
        }
        catch (final IOException ex)
        {
            throw new JournalException("journal directory " + directory + " is read-only (" + ex + "): open it with " +
                JournalConfiguration.READ_ONLY_PROP_NAME + "=true to read, or fix its permissions", ex);
        }
    }

    /**
     * The writer of a stream, created with its directory when new. One writer per stream, across processes.
     *
     * @param streamId the stream.
     * @return the writer, positioned after the stream's last record.
     * @throws JournalException when read only, when the stream is damaged, or when it already has a writer.
     */
    public synchronized JournalWriter writer(final int streamId)
    {
        return stream(streamId, true).writer();
    }

    /**
     * A new reader of a stream, positioned at its first record.
     *
     * @param streamId the stream.
     * @return the reader.
     * @throws JournalException naming the stream and directory when the stream is unknown.
     */
    public synchronized JournalReader reader(final int streamId)
    {
        final JournalReader reader = new JournalReader(stream(streamId, false));
        reader.toStart();
        return reader;
    }

    /**
     * The streams in the directory, in increasing order.
     *
     * @return stream ids.
     */
    public int[] streams()
    {
        try (Stream<Path> entries = Files.list(context.directory()))
        {
            return entries.filter(Files::isDirectory)
                .map((p) -> p.getFileName().toString())
                .filter((n) -> n.startsWith(JournalStream.DIRECTORY_PREFIX))
                .map((n) -> n.substring(JournalStream.DIRECTORY_PREFIX.length()))
                .filter((n) -> n.matches("-?[0-9]{1,10}"))
                .mapToLong(Long::parseLong)
                .filter((id) -> id >= Integer.MIN_VALUE && id <= Integer.MAX_VALUE)
                .mapToInt((id) -> (int)id)
                .sorted()
                .toArray();
        }
        catch (final IOException ex)
        {
            throw new JournalException("cannot list journal directory " + context.directory() + ": " + ex, ex);
        }
    }

    /**
     * What a stream holds: record count, sequence and time range, cycle files, damage.
     *
     * @param streamId the stream.
     * @return the description.
     * @throws JournalException naming the stream when it is unknown.
     */
    public synchronized JournalStreamInfo info(final int streamId)
    {
        return stream(streamId, false).info();
    }

    /**
     * Delete the cycle files of every open writable stream that fall outside the retention limits.
     *
     * @return files deleted.
     */
    public synchronized int applyRetention()
    {
        int deleted = 0;
        for (final int streamId : streams())
        {
            if (!context.readOnly())
            {
                deleted += stream(streamId, false).applyRetention();
            }
        }
        return deleted;
    }

    /**
     * The configuration.
     *
     * @return the concluded context.
     */
    public JournalContext context()
    {
        return context;
    }

    /**
     * Close every stream's writer and readers and release the files.
     */
    @Override
    public synchronized void close()
    {
        if (!closed)
        {
            closed = true;
            for (final JournalStream stream : streams.values())
            {
                stream.close();
            }
            streams.clear();
        }
    }

    private JournalStream stream(final int streamId, final boolean create)
    {
        if (closed)
        {
            throw new JournalException("journal " + context.directory() + " is closed");
        }
        JournalStream stream = streams.get(streamId);
        if (null == stream)
        {
            stream = JournalStream.open(context, streamId, create && !context.readOnly());
            streams.put(streamId, stream);
        }
        return stream;
    }
}
