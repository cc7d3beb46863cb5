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
package io.warpbus.iwarp.mpa;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.zip.CRC32C;

import io.warpbus.iwarp.ddp.DdpHeaderFlyweight;
import io.warpbus.iwarp.rdmap.RdmapOpcode;
import io.warpbus.iwarp.rdmap.ReadRequestFlyweight;
import io.warpbus.testing.WireTestSupport;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static io.warpbus.testing.WireTestSupport.bytes;
import static io.warpbus.testing.WireTestSupport.hex;
import static io.warpbus.testing.WireTestSupport.replay;
import static io.warpbus.testing.WireTestSupport.seed;
import static io.warpbus.testing.WireTestSupport.toHex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class FpduTest
{
    /** Where vectors are placed in their buffer, so offset handling is exercised too. */
    private static final int AT = 12;

    private final CRC32C crc = new CRC32C();

    @ParameterizedTest(name = "ULPDU_Length {0} -> PAD {1}, FPDU {2} bytes")
    @CsvSource({
        "0, 2, 8",
        "1, 1, 8",
        "2, 0, 8",
        "3, 3, 12",
        "4, 2, 12",
        "5, 1, 12",
        "6, 0, 12",
        "7, 3, 16",
        "8, 2, 16",
        "16, 2, 24",
        "18, 0, 24",
        "42, 0, 48",
        "46, 0, 52",
        "27, 3, 36",
        "64768, 2, 64776",
        "65535, 3, 65544" })
    void shouldPadToMultipleOfFourAndAddLengthAndCrc(final int ulpduLength, final int pad, final int fpduLength)
    {
        assertEquals(pad, Fpdu.padLength(ulpduLength), "PAD");
        assertEquals(fpduLength, Fpdu.fpduLength(ulpduLength), "FPDU length");
    }

    @Test
    void shouldAllowLongestFpduToBeReceived()
    {
        // 2 length bytes + 65535 ULPDU + 3 PAD + 4 CRC.
        assertEquals(65544, Fpdu.MAX_RECEIVE_FPDU);
    }

    @ParameterizedTest(name = "EMSS {0} -> MULPDU {1}")
    @CsvSource({
        "1460, 1454",
        "8960, 8954",
        "1461, 1454",
        "1463, 1454",
        "1464, 1458",
        "536, 530",
        "136, 130",
        "134, 128",
        "133, 128",
        "100, 128",
        "0, 128",
        "64776, 64768",
        "65495, 64768",
        "1048576, 64768" })
    void shouldSizeMulpduForEmssWithoutMarkersWithinRfcBounds(final int emss, final int mulpdu)
    {
        assertEquals(mulpdu, Fpdu.mulpdu(emss));
    }

    @Test
    void shouldComputeRfc5044Figure5CrcWithMarkerCovered()
    {
        final byte[] covered = hex(
            "00 00 00 00" + // marker
            "00 2a 41 43 00 00 00 00 00 00 00 00 00 00 00 01 00 00 00 00" +
            "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00");
        assertEquals(48, covered.length);

        assertArrayEquals(hex("52 23 99 83"), wireCrc(covered));
    }

    @Test
    void shouldComputeCrcOfRpingInfoSendAsWiresharkVerifiedIt()
    {
        final byte[] fpdu = hex(
            "00 22 41 43 00 00 00 00 00 00 00 00 00 00 00 01 00 00 00 00" +
            "00 00 7f 00 00 00 10 00 00 00 12 34 00 00 00 40");

        assertArrayEquals(hex("46 52 37 08"), wireCrc(fpdu));
    }

    @Test
    void shouldComputeCrcOfZeroLengthSend()
    {
        final byte[] fpdu = hex("00 12 41 43 00 00 00 00 00 00 00 00 00 00 00 01 00 00 00 00");

        assertArrayEquals(hex("58 7b e8 c4"), wireCrc(fpdu));
    }

    @Test
    void shouldComputeCrcOfZeroLengthReadRequest()
    {
        final byte[] fpdu = hex(
            "00 2e 41 41 00 00 00 00 00 00 00 01 00 00 00 01 00 00 00 00" +
            "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00");

        assertArrayEquals(hex("f2 c6 dd 3d"), wireCrc(fpdu));
    }

    @Test
    void shouldComputeIscsiDigestOfThirtyTwoZeroBytes()
    {
        // RFC 3720 appendix B.4.
        assertArrayEquals(hex("aa 36 91 8a"), wireCrc(new byte[32]));
    }

    @Test
    void shouldComputeStandardCrc32cCheckValue()
    {
        final byte[] check = "123456789".getBytes(StandardCharsets.US_ASCII);
        final ByteBuffer bytes = ByteBuffer.allocateDirect(AT + check.length);
        new UnsafeBuffer(bytes).putBytes(AT, check);

        assertEquals(0xE3069283, Fpdu.crc32c(crc, bytes, AT, check.length));
    }

    @Test
    void shouldWriteCrcLeastSignificantByteFirst()
    {
        final UnsafeBuffer buffer = WireTestSupport.directBuffer(16);

        Fpdu.putCrc(buffer, 3, 0x83992352);

        assertArrayEquals(hex("00 00 00 52 23 99 83 00"), bytes(buffer, 0, 8));
    }

    @Test
    void shouldReadCrcLeastSignificantByteFirst()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(8));
        buffer.putBytes(2, hex("46 52 37 08"));

        assertEquals(0x08375246, Fpdu.getCrc(buffer, 2));
    }

    @Test
    void shouldLeavePositionAndLimitOfByteBufferAsTheyWere()
    {
        final ByteBuffer bytes = ByteBuffer.allocateDirect(64);
        bytes.limit(40).position(7);

        Fpdu.crc32c(crc, bytes, 20, 36);

        assertEquals(7, bytes.position(), "position");
        assertEquals(40, bytes.limit(), "limit");
    }

    @Test
    void shouldNotCarryStateBetweenComputations()
    {
        final ByteBuffer bytes = ByteBuffer.allocateDirect(64);
        new UnsafeBuffer(bytes).putBytes(0, hex("00 12 41 43 00 00 00 00 00 00 00 00 00 00 00 01 00 00 00 00"));

        final int first = Fpdu.crc32c(crc, bytes, 0, 20);
        final int second = Fpdu.crc32c(crc, bytes, 0, 20);

        assertEquals(0xC4E87B58, first);
        assertEquals(first, second);
    }

    @Test
    void shouldWriteUlpduLengthBigEndianAndZeroThePad()
    {
        final UnsafeBuffer buffer = WireTestSupport.directBuffer(32);
        buffer.setMemory(0, 32, (byte)0xEE);

        final int crcIndex = Fpdu.frame(buffer, 4, 5);

        // 2 + 5 = 7, so one zero pad byte; the CRC field and everything after the pad is left alone.
        assertEquals(4 + 2 + 5 + 1, crcIndex);
        assertArrayEquals(hex("ee ee ee ee 00 05 ee ee ee ee ee 00 ee ee ee ee"), bytes(buffer, 0, 16));
    }

    @Test
    void shouldWriteThreePadBytesAfterTwentySevenByteUlpdu()
    {
        // A 13-byte RDMA Write payload behind a 14-byte tagged header.
        final UnsafeBuffer buffer = WireTestSupport.directBuffer(40);
        buffer.setMemory(0, 40, (byte)0xEE);

        final int crcIndex = Fpdu.frame(buffer, 0, 27);

        assertEquals(32, crcIndex);
        assertArrayEquals(hex("00 1b"), bytes(buffer, 0, 2));
        assertArrayEquals(hex("ee 00 00 00 ee"), bytes(buffer, 28, 5));
    }

    @Test
    void shouldReadUlpduLengthUnsigned()
    {
        final UnsafeBuffer buffer = WireTestSupport.directBuffer(8);
        buffer.putBytes(1, hex("ff fe"));

        assertEquals(0xFFFE, Fpdu.ulpduLength(buffer, 1));
    }

    @Test
    void shouldFrameZeroLengthSendBuiltByCodecsToNotesBytes()
    {
        final ByteBuffer bytes = ByteBuffer.allocateDirect(64);
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        final int ulpduLength = DdpHeaderFlyweight.putUntagged(
            buffer, AT + 2, true, RdmapOpcode.control(RdmapOpcode.SEND), 0, DdpHeaderFlyweight.QN_SEND, 1, 0);

        final int crcIndex = Fpdu.frame(buffer, AT, ulpduLength);
        Fpdu.putCrc(buffer, crcIndex, Fpdu.crc32c(crc, bytes, AT, crcIndex - AT));

        assertEquals(AT + 20, crcIndex);
        assertArrayEquals(
            hex("00 12 41 43 00 00 00 00 00 00 00 00 00 00 00 01 00 00 00 00 58 7b e8 c4"),
            bytes(buffer, AT, 24));
    }

    @Test
    void shouldFrameZeroLengthReadRequestBuiltByCodecsToNotesBytes()
    {
        final ByteBuffer bytes = ByteBuffer.allocateDirect(96);
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        int ulpduLength = DdpHeaderFlyweight.putUntagged(
            buffer, AT + 2, true, RdmapOpcode.control(RdmapOpcode.READ_REQUEST), 0,
            DdpHeaderFlyweight.QN_READ_REQUEST, 1, 0);
        ulpduLength += ReadRequestFlyweight.put(buffer, AT + 2 + ulpduLength, 0, 0, 0, 0, 0);

        final int crcIndex = Fpdu.frame(buffer, AT, ulpduLength);
        Fpdu.putCrc(buffer, crcIndex, Fpdu.crc32c(crc, bytes, AT, crcIndex - AT));

        assertEquals(AT + 48, crcIndex);
        assertArrayEquals(
            hex("00 2e 41 41 00 00 00 00 00 00 00 01 00 00 00 01 00 00 00 00" +
                "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00" +
                "f2 c6 dd 3d"),
            bytes(buffer, AT, 52));
    }

    @Test
    void shouldChangeCrcWhenAnySingleBitOfRandomFpduFlips()
    {
        final long seed = seed();
        final Random random = new Random(seed);
        final int capacity = 512;
        final ByteBuffer bytes = ByteBuffer.allocateDirect(capacity);
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        for (int i = 0; i < 10_000; i++)
        {
            final int iteration = i;
            final int ulpduLength = random.nextInt(capacity - 16);
            final int offset = random.nextInt(capacity - Fpdu.fpduLength(ulpduLength) + 1);
            final byte[] ulpdu = new byte[ulpduLength];
            random.nextBytes(ulpdu);
            buffer.putBytes(offset + 2, ulpdu);
            final int covered = Fpdu.frame(buffer, offset, ulpduLength) - offset;
            final int original = Fpdu.crc32c(crc, bytes, offset, covered);

            final int bit = random.nextInt(covered * 8);
            final int index = offset + bit / 8;
            final byte before = buffer.getByte(index);
            buffer.putByte(index, (byte)(before ^ (1 << (bit % 8))));
            final int flipped = Fpdu.crc32c(crc, bytes, offset, covered);
            buffer.putByte(index, before);

            assertNotEquals(original, flipped, () -> replay(seed, iteration) + ": flipping bit " + bit + " of " +
                toHex(bytes(buffer, offset, covered)) + " left the CRC unchanged");
        }
    }

    @Test
    void shouldChangeCrcForEveryBitOfRandomFpduFlippedInTurn()
    {
        final long seed = seed();
        final Random random = new Random(seed);
        final ByteBuffer bytes = ByteBuffer.allocateDirect(64);
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        final byte[] ulpdu = new byte[42];
        random.nextBytes(ulpdu);
        buffer.putBytes(2, ulpdu);
        final int covered = Fpdu.frame(buffer, 0, ulpdu.length);
        final int original = Fpdu.crc32c(crc, bytes, 0, covered);

        for (int bit = 0; bit < covered * 8; bit++)
        {
            final int flippedBit = bit;
            final byte before = buffer.getByte(bit / 8);
            buffer.putByte(bit / 8, (byte)(before ^ (1 << (bit % 8))));
            final int flipped = Fpdu.crc32c(crc, bytes, 0, covered);
            buffer.putByte(bit / 8, before);

            assertNotEquals(original, flipped, () -> replay(seed, flippedBit) + ": bit " + flippedBit);
        }
    }

    private byte[] wireCrc(final byte[] covered)
    {
        final ByteBuffer bytes = ByteBuffer.allocateDirect(AT + covered.length + Fpdu.CRC_LENGTH + 4);
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        buffer.putBytes(AT, covered);
        final int crcIndex = AT + covered.length;

        Fpdu.putCrc(buffer, crcIndex, Fpdu.crc32c(crc, bytes, AT, covered.length));

        return bytes(buffer, crcIndex, Fpdu.CRC_LENGTH);
    }
}
