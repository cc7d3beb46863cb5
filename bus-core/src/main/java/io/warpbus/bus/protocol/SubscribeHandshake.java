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

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * The subscribe request a subscriber puts in its MPA Request's private data, and the publisher's reply in the MPA
 * Reply (a rejection carries its reason as ASCII text instead). All fields little-endian.
 * <pre>
 * request:  0 magic 'WBUS' | 4 version (short) | 6 reserved (short) | 8 stream id | 12 ring STag
 *          16 ring address (long) | 24 ring capacity | 28 policy | 32 resume sequence (long, -1 live)
 *          40 resume session | 44 drop lag (long) | 52 drop after ns (long) | 60 flags
 *          64 replay to (long, -1 open) | 72 replay from time ns (long, -1 none) | 80 name length (short)
 *          82 announce length (short) | 84 name (ASCII, up to 64) | announce (ASCII, up to 64)
 * reply:    0 magic | 4 version | 8 session id | 12 term length | 16 initial position (long)
 *          24 initial sequence (long) | 32 credit STag | 36 credit address (long)
 *          44 gap from (long, -1 none) | 52 gap to (long) | 60 replay endpoint length (short)
 *          62 replay endpoint (ASCII host:port, up to 64; empty when no recorder announced one)
 * </pre>
 * A request with {@link #FLAG_REPLAY} asks a replay endpoint for the recorded stream from the resume sequence (or
 * the replay time) to the replay-to sequence; an announce names the replay endpoint of a recorder subscribing.
 */
public final class SubscribeHandshake
{
    /** 'WBUS'. */
    public static final int MAGIC = 0x53554257;
    /** Handshake version. */
    public static final int VERSION = 2;
    /** Longest subscriber name. */
    public static final int MAX_NAME_LENGTH = 64;
    /** Request length without the name. */
    public static final int REQUEST_HEADER_LENGTH = 84;
    /** Reply length without the replay endpoint. */
    public static final int REPLY_HEADER_LENGTH = 62;
    /** Longest announced or replied replay endpoint. */
    public static final int MAX_ENDPOINT_LENGTH = 64;
    /** Request flag: a replay of the recorded stream, not the live one. */
    public static final int FLAG_REPLAY = 1;

    private SubscribeHandshake()
    {
    }

    /**
     * What a subscriber asks for.
     *
     * @param streamId       stream to subscribe to.
     * @param ringStag       STag of the subscriber's ring (frames and metadata).
     * @param ringAddress    tagged offset of the ring's first byte.
     * @param ringCapacity   bytes of frames in the ring, before the metadata.
     * @param policy         slow-consumer policy code.
     * @param resumeSequence first sequence wanted, or -1 to join live.
     * @param resumeSession  the publisher session the resume sequence belongs to.
     * @param dropLag        for the drop policy: bytes behind the publisher that get the subscriber dropped, or 0
     *                       for the publisher's default.
     * @param dropAfterNs    for the drop policy: how long the subscriber may stay behind without consuming
     *                       before it is dropped, or 0 for no time limit.
     * @param name           the subscriber's name, for counters and logs.
     * @param flags          {@link #FLAG_REPLAY} or 0.
     * @param replayTo       for a replay: last sequence wanted, or -1 to follow the recording without end.
     * @param replayFromNs   for a replay: start at the first record received at or after this time (epoch ns),
     *                       or -1 to start at the resume sequence.
     * @param announce       the replay endpoint (host:port) of a recorder subscribing, or empty.
     */
    public record Request(
        int streamId,
        int ringStag,
        long ringAddress,
        int ringCapacity,
        int policy,
        long resumeSequence,
        int resumeSession,
        long dropLag,
        long dropAfterNs,
        String name,
        int flags,
        long replayTo,
        long replayFromNs,
        String announce)
    {
        /**
         * Is this a replay request?
         *
         * @return true when {@link #FLAG_REPLAY} is set.
         */
        public boolean isReplay()
        {
            return (flags & FLAG_REPLAY) != 0;
        }
    }

    /**
     * What the publisher grants.
     *
     * @param sessionId       the publisher's session.
     * @param termLength      frames never cross a multiple of this.
     * @param initialPosition ring position of the first frame.
     * @param initialSequence sequence of the first frame that will arrive.
     * @param creditStag      STag of the slot the subscriber writes its consumed position to.
     * @param creditAddress   tagged offset of that slot.
     * @param gapFrom         first sequence asked for that is no longer held, or -1.
     * @param gapTo           last such sequence.
     * @param replayEndpoint  where the stream's recorder serves replays (host:port), or empty.
     */
    public record Reply(
        int sessionId,
        int termLength,
        long initialPosition,
        long initialSequence,
        int creditStag,
        long creditAddress,
        long gapFrom,
        long gapTo,
        String replayEndpoint)
    {
    }

    /**
     * Encode a request.
     *
     * @param request the request.
     * @return private data bytes.
     */
    public static byte[] encode(final Request request)
    {
        final byte[] name = ascii(request.name(), MAX_NAME_LENGTH);
        final byte[] announce = ascii(request.announce(), MAX_ENDPOINT_LENGTH);
        final byte[] bytes = new byte[REQUEST_HEADER_LENGTH + name.length + announce.length];
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        buffer.putInt(0, MAGIC, ByteOrder.LITTLE_ENDIAN);
        buffer.putShort(4, (short)VERSION, ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(8, request.streamId(), ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(12, request.ringStag(), ByteOrder.LITTLE_ENDIAN);
        buffer.putLong(16, request.ringAddress(), ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(24, request.ringCapacity(), ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(28, request.policy(), ByteOrder.LITTLE_ENDIAN);
        buffer.putLong(32, request.resumeSequence(), ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(40, request.resumeSession(), ByteOrder.LITTLE_ENDIAN);
        buffer.putLong(44, request.dropLag(), ByteOrder.LITTLE_ENDIAN);
        buffer.putLong(52, request.dropAfterNs(), ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(60, request.flags(), ByteOrder.LITTLE_ENDIAN);
        buffer.putLong(64, request.replayTo(), ByteOrder.LITTLE_ENDIAN);
        buffer.putLong(72, request.replayFromNs(), ByteOrder.LITTLE_ENDIAN);
        buffer.putShort(80, (short)name.length, ByteOrder.LITTLE_ENDIAN);
        buffer.putShort(82, (short)announce.length, ByteOrder.LITTLE_ENDIAN);
        buffer.putBytes(REQUEST_HEADER_LENGTH, name);
        buffer.putBytes(REQUEST_HEADER_LENGTH + name.length, announce);
        return bytes;
    }

    /**
     * Decode a request.
     *
     * @param bytes private data of an MPA Request.
     * @return the request.
     * @throws IllegalArgumentException naming what is malformed.
     */
    public static Request decodeRequest(final byte[] bytes)
    {
        if (bytes.length < REQUEST_HEADER_LENGTH)
        {
            throw new IllegalArgumentException("subscribe request of " + bytes.length + " bytes, need at least " +
                REQUEST_HEADER_LENGTH + " (is the peer a WarpBus subscriber?)");
        }
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        checkMagic(buffer, "request");
        final int nameLength = buffer.getShort(80, ByteOrder.LITTLE_ENDIAN);
        final int announceLength = buffer.getShort(82, ByteOrder.LITTLE_ENDIAN);
        if (nameLength < 0 || nameLength > MAX_NAME_LENGTH || announceLength < 0 ||
            announceLength > MAX_ENDPOINT_LENGTH || REQUEST_HEADER_LENGTH + nameLength + announceLength != bytes.length)
        {
            throw new IllegalArgumentException("subscribe request name length " + nameLength + " and announce " +
                "length " + announceLength + " do not match its " + bytes.length + " bytes");
        }
        return new Request(
            buffer.getInt(8, ByteOrder.LITTLE_ENDIAN),
            buffer.getInt(12, ByteOrder.LITTLE_ENDIAN),
            buffer.getLong(16, ByteOrder.LITTLE_ENDIAN),
            buffer.getInt(24, ByteOrder.LITTLE_ENDIAN),
            buffer.getInt(28, ByteOrder.LITTLE_ENDIAN),
            buffer.getLong(32, ByteOrder.LITTLE_ENDIAN),
            buffer.getInt(40, ByteOrder.LITTLE_ENDIAN),
            buffer.getLong(44, ByteOrder.LITTLE_ENDIAN),
            buffer.getLong(52, ByteOrder.LITTLE_ENDIAN),
            buffer.getStringWithoutLengthAscii(REQUEST_HEADER_LENGTH, nameLength),
            buffer.getInt(60, ByteOrder.LITTLE_ENDIAN),
            buffer.getLong(64, ByteOrder.LITTLE_ENDIAN),
            buffer.getLong(72, ByteOrder.LITTLE_ENDIAN),
            buffer.getStringWithoutLengthAscii(REQUEST_HEADER_LENGTH + nameLength, announceLength));
    }

    /**
     * Encode a reply.
     *
     * @param reply the reply.
     * @return private data bytes.
     */
    public static byte[] encode(final Reply reply)
    {
        final byte[] endpoint = ascii(reply.replayEndpoint(), MAX_ENDPOINT_LENGTH);
        final byte[] bytes = new byte[REPLY_HEADER_LENGTH + endpoint.length];
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        buffer.putInt(0, MAGIC, ByteOrder.LITTLE_ENDIAN);
        buffer.putShort(4, (short)VERSION, ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(8, reply.sessionId(), ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(12, reply.termLength(), ByteOrder.LITTLE_ENDIAN);
        buffer.putLong(16, reply.initialPosition(), ByteOrder.LITTLE_ENDIAN);
        buffer.putLong(24, reply.initialSequence(), ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(32, reply.creditStag(), ByteOrder.LITTLE_ENDIAN);
        buffer.putLong(36, reply.creditAddress(), ByteOrder.LITTLE_ENDIAN);
        buffer.putLong(44, reply.gapFrom(), ByteOrder.LITTLE_ENDIAN);
        buffer.putLong(52, reply.gapTo(), ByteOrder.LITTLE_ENDIAN);
        buffer.putShort(60, (short)endpoint.length, ByteOrder.LITTLE_ENDIAN);
        buffer.putBytes(REPLY_HEADER_LENGTH, endpoint);
        return bytes;
    }

    /**
     * Decode a reply.
     *
     * @param bytes private data of an MPA Reply.
     * @return the reply.
     * @throws IllegalArgumentException naming what is malformed.
     */
    public static Reply decodeReply(final byte[] bytes)
    {
        if (bytes.length < REPLY_HEADER_LENGTH)
        {
            throw new IllegalArgumentException("subscribe reply of " + bytes.length + " bytes, need at least " +
                REPLY_HEADER_LENGTH + " (is the endpoint a WarpBus publisher?)");
        }
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        checkMagic(buffer, "reply");
        final int endpointLength = buffer.getShort(60, ByteOrder.LITTLE_ENDIAN);
        if (endpointLength < 0 || endpointLength > MAX_ENDPOINT_LENGTH ||
            REPLY_HEADER_LENGTH + endpointLength != bytes.length)
        {
            throw new IllegalArgumentException("subscribe reply replay endpoint length " + endpointLength +
                " does not match its " + bytes.length + " bytes");
        }
        return new Reply(
            buffer.getInt(8, ByteOrder.LITTLE_ENDIAN),
            buffer.getInt(12, ByteOrder.LITTLE_ENDIAN),
            buffer.getLong(16, ByteOrder.LITTLE_ENDIAN),
            buffer.getLong(24, ByteOrder.LITTLE_ENDIAN),
            buffer.getInt(32, ByteOrder.LITTLE_ENDIAN),
            buffer.getLong(36, ByteOrder.LITTLE_ENDIAN),
            buffer.getLong(44, ByteOrder.LITTLE_ENDIAN),
            buffer.getLong(52, ByteOrder.LITTLE_ENDIAN),
            buffer.getStringWithoutLengthAscii(REPLY_HEADER_LENGTH, endpointLength));
    }

    private static byte[] ascii(final String text, final int maxLength)
    {
        final byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        return bytes.length <= maxLength ? bytes : java.util.Arrays.copyOf(bytes, maxLength);
    }

    private static void checkMagic(final UnsafeBuffer buffer, final String what)
    {
        final int magic = buffer.getInt(0, ByteOrder.LITTLE_ENDIAN);
        if (MAGIC != magic)
        {
            throw new IllegalArgumentException("subscribe " + what + " has magic 0x" + Integer.toHexString(magic) +
                ", expected 0x" + Integer.toHexString(MAGIC) + " (is the peer a WarpBus endpoint?)");
        }
        final int version = buffer.getShort(4, ByteOrder.LITTLE_ENDIAN);
        if (VERSION != version)
        {
            throw new IllegalArgumentException("subscribe " + what + " has version " + version + ", expected " +
                VERSION);
        }
    }
}
