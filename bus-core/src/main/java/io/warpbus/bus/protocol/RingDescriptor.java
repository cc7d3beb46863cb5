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
package io.warpbus.bus.protocol;

import java.nio.charset.StandardCharsets;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * A subscriber's ring: {@code capacity} bytes of frames followed by a metadata block.
 * <pre>
 *   +------------------------------------------+---------------------------------------------+
 *   | frames: position p at offset p &amp; (capacity - 1)  | metadata (TRAILER_LENGTH bytes)    |
 *   +------------------------------------------+---------------------------------------------+
 *   metadata, written by the publisher (by RDMA Write, or by the publisher's process for IPC):
 *     0  commit position     (long)  frames below it are complete; FOLLOW_LOG_COMMIT (IPC, reading the log):
 *                                    the log's own commit position, for as long as this ring does not bound it
 *     8  publisher heartbeat (long)  epoch ms of the publisher's last write
 *    16  publisher session   (int)
 *    20  publisher status    (int)   0 none, 1 connected, 2 closed (end of stream), 3 rejected, 4 dropped
 *   metadata, written by the subscriber (IPC only; over iWARP it goes to the publisher's credit slot):
 *    64  consumed position   (long)
 *    72  subscriber heartbeat (long) epoch ms
 *    80  subscriber status   (int)   0 initialising, 1 ready, 2 closed
 *    84  policy              (int)
 *    88  resume sequence     (long)  -1 for live
 *    96  stream id           (int)
 *   100  capacity            (int)
 *   104  initial position    (long)  set by the publisher when it attaches
 *   112  gap from / to       (long, long) sequences the subscriber asked for but the publisher no longer holds
 *   128  drop lag            (long)  bytes behind that get a drop subscriber dropped, 0 for the default
 *   136  drop after          (long)  ns a drop subscriber may stay behind without consuming, 0 for no limit
 *   144  reject reason       (int length + ASCII, up to 108 bytes)
 *   256  replay endpoint     (int length + ASCII host:port, up to 64 bytes) written by a recorder subscribing
 *                            with its announce, overwritten by the publisher at attach with the stream's one
 *   328  log window          (int)   set at attach: 0 when frames are copied into this ring (conflate), else the
 *                                    window of the publisher's log file, which this subscriber reads in place
 *   336  log pid             (long)  set at attach: the publishing process, which with the session names the log
 *   344  log released        (int)   1 once a dropped subscriber no longer reads the log (its frames were moved)
 * </pre>
 * A subscriber that reads the publisher's log uses this file's frame area as the measure of its flow-control window,
 * and receives frames there only when it is dropped (what was committed to it is moved there).
 * The commit word is written after the frame bytes it covers, by a separate write: a reader that sees it with
 * acquire semantics sees those bytes, even if a transport placed the bytes of one write in any order.
 * <p>
 * An IPC publication's log file is its window followed by {@link #LOG_TRAILER_LENGTH} bytes whose first long is the
 * log's commit position, stored once per duty cycle for every subscriber that reads the log in place: one store
 * for all of them, where a store into each ring's line would have to take that line back from the subscriber's
 * core every cycle. Such a subscriber's limit is the lower of the two commit positions; its ring's holds
 * {@link #FOLLOW_LOG_COMMIT} except while its own window bounds it, and is stored before the log's.
 */
public final class RingDescriptor
{
    /** Bytes of metadata after the frames. */
    public static final int TRAILER_LENGTH = 384;
    /** Commit position. */
    public static final int COMMIT_POSITION_OFFSET = 0;
    /** Publisher heartbeat. */
    public static final int PUBLISHER_HEARTBEAT_OFFSET = 8;
    /** Publisher session. */
    public static final int PUBLISHER_SESSION_OFFSET = 16;
    /** Publisher status. */
    public static final int PUBLISHER_STATUS_OFFSET = 20;
    /** Consumed position (IPC). */
    public static final int CONSUMED_POSITION_OFFSET = 64;
    /** Subscriber heartbeat (IPC). */
    public static final int SUBSCRIBER_HEARTBEAT_OFFSET = 72;
    /** Subscriber status (IPC). */
    public static final int SUBSCRIBER_STATUS_OFFSET = 80;
    /** Slow-consumer policy code (IPC). */
    public static final int POLICY_OFFSET = 84;
    /** Resume sequence (IPC). */
    public static final int RESUME_SEQUENCE_OFFSET = 88;
    /** Stream id (IPC). */
    public static final int STREAM_ID_OFFSET = 96;
    /** Capacity (IPC). */
    public static final int CAPACITY_OFFSET = 100;
    /** Initial position (IPC). */
    public static final int INITIAL_POSITION_OFFSET = 104;
    /** First sequence of a gap at join (IPC). */
    public static final int GAP_FROM_OFFSET = 112;
    /** Last sequence of a gap at join (IPC). */
    public static final int GAP_TO_OFFSET = 120;
    /** Drop lag (IPC). */
    public static final int DROP_LAG_OFFSET = 128;
    /** Drop-after time (IPC). */
    public static final int DROP_AFTER_OFFSET = 136;
    /** Reject reason (IPC). */
    public static final int REASON_OFFSET = 144;
    /** Bytes of the reason field: a length and the text. */
    public static final int REASON_FIELD_LENGTH = 112;
    /** Replay endpoint (IPC): announced by a recorder, or told by the publisher. */
    public static final int REPLAY_ENDPOINT_OFFSET = 256;
    /** Length of the publisher's log when the subscriber reads it in place, else 0 (IPC). */
    public static final int LOG_WINDOW_OFFSET = 328;
    /** Process id of the publisher whose log the subscriber reads (IPC). */
    public static final int LOG_PID_OFFSET = 336;
    /** Set by a dropped subscriber that read the log in place once nothing reads it any more (IPC). */
    public static final int LOG_RELEASED_OFFSET = 344;
    /** Bytes after an IPC publication's log window: the log's commit position, then nothing yet. */
    public static final int LOG_TRAILER_LENGTH = 4096;
    /** The log's commit position, from the start of the log's trailer. */
    public static final int LOG_COMMIT_OFFSET = 0;
    /** A ring's commit position meaning "no bound of its own: read the log's" (IPC, reading the log in place). */
    public static final long FOLLOW_LOG_COMMIT = Long.MAX_VALUE;
    /** Longest replay endpoint. */
    public static final int MAX_ENDPOINT_LENGTH = 64;
    /** Longest reject reason. */
    public static final int MAX_REASON_LENGTH = REASON_FIELD_LENGTH - 4;

    /** Publisher status: none attached yet. */
    public static final int PUBLISHER_NONE = 0;
    /** Publisher status: attached and sending. */
    public static final int PUBLISHER_CONNECTED = 1;
    /** Publisher status: the publication closed; no more frames will come. */
    public static final int PUBLISHER_CLOSED = 2;
    /** Publisher status: the publisher refused this ring (reason in the metadata). */
    public static final int PUBLISHER_REJECTED = 3;
    /** Publisher status: the publisher dropped this subscriber (reason in the metadata); it may resubscribe. */
    public static final int PUBLISHER_DROPPED = 4;

    /** Subscriber status: the file is being set up. */
    public static final int SUBSCRIBER_INITIALISING = 0;
    /** Subscriber status: ready for a publisher. */
    public static final int SUBSCRIBER_READY = 1;
    /** Subscriber status: the subscriber left. */
    public static final int SUBSCRIBER_CLOSED = 2;

    private RingDescriptor()
    {
    }

    /**
     * Write a reason field (cut to {@link #MAX_REASON_LENGTH} ASCII characters).
     *
     * @param buffer holding the field.
     * @param index  of the field.
     * @param reason the text.
     */
    public static void putReason(final UnsafeBuffer buffer, final int index, final String reason)
    {
        final byte[] text = reason.getBytes(StandardCharsets.US_ASCII);
        final int length = Math.min(text.length, MAX_REASON_LENGTH);
        buffer.putInt(index, length);
        buffer.putBytes(index + 4, text, 0, length);
    }

    /**
     * Write the replay endpoint field (empty for none).
     *
     * @param buffer   holding the trailer.
     * @param trailer  index of the trailer.
     * @param endpoint host:port or empty.
     */
    public static void putReplayEndpoint(final UnsafeBuffer buffer, final int trailer, final String endpoint)
    {
        final byte[] text = endpoint.getBytes(StandardCharsets.US_ASCII);
        final int length = Math.min(text.length, MAX_ENDPOINT_LENGTH);
        buffer.putBytes(trailer + REPLAY_ENDPOINT_OFFSET + 4, text, 0, length);
        buffer.putInt(trailer + REPLAY_ENDPOINT_OFFSET, length);
    }

    /**
     * Read the replay endpoint field.
     *
     * @param buffer  holding the trailer.
     * @param trailer index of the trailer.
     * @return host:port, or empty when none or malformed.
     */
    public static String replayEndpoint(final UnsafeBuffer buffer, final int trailer)
    {
        final int length = buffer.getInt(trailer + REPLAY_ENDPOINT_OFFSET);
        return length <= 0 || length > MAX_ENDPOINT_LENGTH ? "" :
            buffer.getStringWithoutLengthAscii(trailer + REPLAY_ENDPOINT_OFFSET + 4, length);
    }

    /**
     * Read a reason field.
     *
     * @param buffer holding the field.
     * @param index  of the field.
     * @return the text, or "no reason given" when the field is empty or malformed.
     */
    public static String reason(final UnsafeBuffer buffer, final int index)
    {
        final int length = buffer.getInt(index);
        return length <= 0 || length > MAX_REASON_LENGTH ? "no reason given" :
            buffer.getStringWithoutLengthAscii(index + 4, length);
    }
}
