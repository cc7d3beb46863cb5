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

import io.warpbus.bus.FrameObserver;
import io.warpbus.bus.Publication;
import io.warpbus.bus.protocol.FrameDescriptor;
import org.agrona.CloseHelper;
import org.agrona.ErrorHandler;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Records every data frame a bus publishes into the journal, in process, just after the bus sends it:
 * {@code bus.addFrameObserver(new JournalRecorder(journal, errorHandler, 1001))}. It runs on the bus's thread, so it
 * never throws into the bus and never blocks: a frame it cannot record (out of sequence, or a journal fault) is
 * counted, and the first of each kind is passed to the error handler.
 * <p>
 * With stream ids given, only those streams are recorded and their writers open in the constructor; with none,
 * every stream is, and a stream's writer opens (creating files) on its first frame. A frame whose sequence is not
 * after the stream's last recorded one, as when a publication restarts its sequence at 0 over an existing journal
 * or two publications share a stream, is not recorded and counts in {@link #rejectedFrames()}. In steady state it
 * allocates nothing. Remove it from the bus before closing it.
 */
public final class JournalRecorder implements FrameObserver, AutoCloseable
{
    private final Journal journal;
    private final ErrorHandler errorHandler;
    private final int[] streamIds;
    private final Int2ObjectHashMap<JournalWriter> writers = new Int2ObjectHashMap<>();
    private long recordedFrames;
    private long rejectedFrames;
    private long failedFrames;
    private boolean reportedRejection;
    private boolean reportedFailure;
    private boolean closed;

    /**
     * Record the given streams, or every stream when none is given.
     *
     * @param journal      the journal to write to; stays owned by the caller.
     * @param errorHandler told about the first rejected frame and the first failure; null to only count them.
     * @param streamIds    streams to record; none for all.
     * @throws JournalException when a given stream's writer cannot open.
     */
    public JournalRecorder(final Journal journal, final ErrorHandler errorHandler, final int... streamIds)
    {
        this.journal = journal;
        this.errorHandler = errorHandler;
        this.streamIds = streamIds.clone();
        try
        {
            for (final int streamId : streamIds)
            {
                writers.put(streamId, journal.writer(streamId));
            }
        }
        catch (final RuntimeException ex)
        {
            close();
            throw ex;
        }
    }

    @Override
    public void onFrame(final Publication publication, final UnsafeBuffer buffer, final int offset, final int length)
    {
        if (closed)
        {
            return;
        }
        final int streamId = publication.streamId();
        try
        {
            JournalWriter writer = writers.get(streamId);
            if (null == writer)
            {
                if (streamIds.length > 0)
                {
                    return;
                }
                writer = journal.writer(streamId);
                writers.put(streamId, writer);
            }
            if (FrameDescriptor.sequence(buffer, offset) <= writer.lastSequence())
            {
                rejectedFrames++;
                if (!reportedRejection)
                {
                    reportedRejection = true;
                    report(new JournalException("stream " + streamId + ": not recording frames of session " +
                        publication.sessionId() + " from sequence " + FrameDescriptor.sequence(buffer, offset) +
                        ": the journal already holds up to sequence " + writer.lastSequence() +
                        " (further rejections are only counted)"));
                }
                return;
            }
            writer.append(buffer, offset, length);
            recordedFrames++;
            final RuntimeException retention = writer.retentionFailure();
            if (null != retention)
            {
                report(retention);
            }
        }
        catch (final RuntimeException ex)
        {
            failedFrames++;
            if (!reportedFailure)
            {
                reportedFailure = true;
                report(ex);
            }
        }
    }

    /**
     * Frames recorded.
     *
     * @return the count.
     */
    public long recordedFrames()
    {
        return recordedFrames;
    }

    /**
     * Frames not recorded because their sequence was not after the stream's last recorded one.
     *
     * @return the count.
     */
    public long rejectedFrames()
    {
        return rejectedFrames;
    }

    /**
     * Frames not recorded because of a journal fault.
     *
     * @return the count.
     */
    public long failedFrames()
    {
        return failedFrames;
    }

    /**
     * The writer of a stream this recorder writes, or null.
     *
     * @param streamId the stream.
     * @return the writer.
     */
    public JournalWriter writer(final int streamId)
    {
        return writers.get(streamId);
    }

    /**
     * Close the writers this recorder opened; the journal stays open.
     */
    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            for (final JournalWriter writer : writers.values())
            {
                CloseHelper.quietClose(writer);
            }
            writers.clear();
        }
    }

    private void report(final Throwable error)
    {
        if (null != errorHandler)
        {
            errorHandler.onError(error);
        }
    }
}
