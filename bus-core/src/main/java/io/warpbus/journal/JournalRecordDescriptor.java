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

/**
 * One record of the journal: the body of one Chronicle Queue document (Chronicle's own 4-byte document header,
 * which holds the length and the not-complete bit, precedes it). No Wire marshalling: a fixed header, all fields
 * little-endian, then the payload exactly as it was published.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                        Payload Length                         |  0
 *  +-------------------------------+---------------+---------------+
 *  |            Flags              |    Version    |   Reserved    |  4
 *  +-------------------------------+---------------+---------------+
 *  |                       Sequence (64 bits)                      |  8
 *  +---------------------------------------------------------------+
 *  |                          Session Id                           | 16
 *  +---------------------------------------------------------------+
 *  |                           Reserved                            | 20
 *  +---------------------------------------------------------------+
 *  |          Publisher Timestamp, epoch ns (64 bits)              | 24
 *  +---------------------------------------------------------------+
 *  |           Receive Timestamp, epoch ns (64 bits)               | 32
 *  +---------------------------------------------------------------+
 *  |                            Payload                          ...  40
 * </pre>
 * The stream id is not stored: each stream has its own queue ({@code <journal>/stream-<id>/}). A record whose
 * payload length disagrees with the document's length, or whose version is unknown, is corrupt.
 */
public final class JournalRecordDescriptor
{
    /** Length of the record header. */
    public static final int HEADER_LENGTH = 40;
    /** Record format version. */
    public static final int VERSION = 1;

    /** Offset of the payload length (int32). */
    public static final int PAYLOAD_LENGTH_OFFSET = 0;
    /** Offset of the flags (uint16). */
    public static final int FLAGS_OFFSET = 4;
    /** Offset of the version (uint8). */
    public static final int VERSION_OFFSET = 6;
    /** Offset of the sequence (int64). */
    public static final int SEQUENCE_OFFSET = 8;
    /** Offset of the session id (int32). */
    public static final int SESSION_ID_OFFSET = 16;
    /** Offset of the publisher timestamp (int64). */
    public static final int PUBLISHER_TIMESTAMP_OFFSET = 24;
    /** Offset of the receive timestamp (int64). */
    public static final int RECEIVE_TIMESTAMP_OFFSET = 32;
    /** Offset of the payload. */
    public static final int PAYLOAD_OFFSET = HEADER_LENGTH;

    /** Longest payload a record holds: Chronicle keeps a document within a mapped chunk's overlap. */
    public static final int MAX_PAYLOAD_LENGTH = 16 * 1024 * 1024;

    private JournalRecordDescriptor()
    {
    }
}
