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
 *          40 resume session | 44 name length (short) | 46 name (ASCII, up to 64)
 * reply:    0 magic | 4 version | 8 session id | 12 term length | 16 initial position (long)
 *          24 initial sequence (long) | 32 credit STag | 36 credit address (long)
 *          44 gap from (long, -1 none) | 52 gap to (long)
 * </pre>
 */
public final class SubscribeHandshake
{
    /** 'WBUS'. */
    public static final int MAGIC = 0x53554257;
    /** Handshake version. */
    public static final int VERSION = 1;
    /** Longest subscriber name. */
    public static final int MAX_NAME_LENGTH = 64;
    /** Request length without the name. */
    public static final int REQUEST_HEADER_LENGTH = 62;
    /** Reply length. */
    public static final int REPLY_LENGTH = 60;

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
        String name)
    {
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
     */
    public record Reply(
        int sessionId,
        int termLength,
        long initialPosition,
        long initialSequence,
        int creditStag,
        long creditAddress,
        long gapFrom,
        long gapTo)
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
        final byte[] name = request.name().getBytes(StandardCharsets.US_ASCII);
        final int nameLength = Math.min(name.length, MAX_NAME_LENGTH);
        final byte[] bytes = new byte[REQUEST_HEADER_LENGTH + nameLength];
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
        buffer.putShort(60, (short)nameLength, ByteOrder.LITTLE_ENDIAN);
        buffer.putBytes(REQUEST_HEADER_LENGTH, name, 0, nameLength);
        return bytes;
    }

    /**
     * Decode a request, checking everything a hostile or mistaken peer could get wrong.
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
        final int nameLength = buffer.getShort(60, ByteOrder.LITTLE_ENDIAN);
        if (nameLength < 0 || nameLength > MAX_NAME_LENGTH || REQUEST_HEADER_LENGTH + nameLength != bytes.length)
        {
            throw new IllegalArgumentException("subscribe request name length " + nameLength +
                " does not match its " + bytes.length + " bytes");
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
            buffer.getStringWithoutLengthAscii(REQUEST_HEADER_LENGTH, nameLength));
    }

    /**
     * Encode a reply.
     *
     * @param reply the reply.
     * @return private data bytes.
     */
    public static byte[] encode(final Reply reply)
    {
        final byte[] bytes = new byte[REPLY_LENGTH];
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
        if (bytes.length != REPLY_LENGTH)
        {
            throw new IllegalArgumentException("subscribe reply of " + bytes.length + " bytes, expected " +
                REPLY_LENGTH + " (is the endpoint a WarpBus publisher?)");
        }
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        checkMagic(buffer, "reply");
        return new Reply(
            buffer.getInt(8, ByteOrder.LITTLE_ENDIAN),
            buffer.getInt(12, ByteOrder.LITTLE_ENDIAN),
            buffer.getLong(16, ByteOrder.LITTLE_ENDIAN),
            buffer.getLong(24, ByteOrder.LITTLE_ENDIAN),
            buffer.getInt(32, ByteOrder.LITTLE_ENDIAN),
            buffer.getLong(36, ByteOrder.LITTLE_ENDIAN),
            buffer.getLong(44, ByteOrder.LITTLE_ENDIAN),
            buffer.getLong(52, ByteOrder.LITTLE_ENDIAN));
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
