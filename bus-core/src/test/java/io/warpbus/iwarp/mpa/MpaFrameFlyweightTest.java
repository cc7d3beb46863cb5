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

import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static io.warpbus.testing.WireTestSupport.bytes;
import static io.warpbus.testing.WireTestSupport.directBuffer;
import static io.warpbus.testing.WireTestSupport.hex;
import static io.warpbus.testing.WireTestSupport.replay;
import static io.warpbus.testing.WireTestSupport.seed;
import static io.warpbus.testing.WireTestSupport.toHex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MpaFrameFlyweightTest
{
    /** "MPA ID Req Frame". */
    private static final String REQUEST_KEY = "4d 50 41 20 49 44 20 52 65 71 20 46 72 61 6d 65";
    /** "MPA ID Rep Frame": byte 10 is 'p' instead of 'q'. */
    private static final String REPLY_KEY = "4d 50 41 20 49 44 20 52 65 70 20 46 72 61 6d 65";
    private static final int ITERATIONS = 10_000;
    private static final int CAPACITY = 2048;
    private static final MpaFrameFlyweight.Kind[] EXPECTABLE = {
        MpaFrameFlyweight.Kind.REQUEST, MpaFrameFlyweight.Kind.REPLY };

    private final UnsafeBuffer buffer = directBuffer(CAPACITY);
    private final MpaFrameFlyweight frame = new MpaFrameFlyweight();

    @Test
    void shouldEncodeRequestKey()
    {
        MpaFrameFlyweight.encode(buffer, 0, MpaFrameFlyweight.Kind.REQUEST, 0, 1, false, 0, 0, new byte[0]);

        assertArrayEquals(hex(REQUEST_KEY), bytes(buffer, 0, 16));
    }

    @Test
    void shouldEncodeReplyKey()
    {
        MpaFrameFlyweight.encode(buffer, 0, MpaFrameFlyweight.Kind.REPLY, 0, 1, false, 0, 0, new byte[0]);

        assertArrayEquals(hex(REPLY_KEY), bytes(buffer, 0, 16));
    }

    @Test
    void shouldEncodeRevisionOneFrameWithoutEnhancedData()
    {
        final int length = MpaFrameFlyweight.encode(
            buffer, 3, MpaFrameFlyweight.Kind.REQUEST, MpaFrameFlyweight.FLAG_CRC, 1, false, 0xFFFF, 0xFFFF,
            hex("ab cd ef"));

        assertEquals(23, length);
        assertArrayEquals(hex(REQUEST_KEY + "40 01 00 03 ab cd ef 00"), bytes(buffer, 3, 24));
    }

    @Test
    void shouldEncodeEnhancedDataBeforeApplicationDataAndCountItInPdLength()
    {
        final int length = MpaFrameFlyweight.encode(
            buffer, 0, MpaFrameFlyweight.Kind.REPLY, MpaFrameFlyweight.FLAG_CRC, 2, true, 0xC001, 0x8002,
            hex("99"));

        assertEquals(25, length);
        assertArrayEquals(hex(REPLY_KEY + "50 02 00 05 c0 01 80 02 99"), bytes(buffer, 0, 25));
    }

    @Test
    void shouldEncodeMarkerCrcAndRejectFlagsInByteSixteen()
    {
        MpaFrameFlyweight.encode(
            buffer, 0, MpaFrameFlyweight.Kind.REPLY,
            MpaFrameFlyweight.FLAG_MARKERS | MpaFrameFlyweight.FLAG_CRC | MpaFrameFlyweight.FLAG_REJECT, 1, false,
            0, 0, new byte[0]);

        assertArrayEquals(hex("e0 01 00 00"), bytes(buffer, 16, 4));
    }

    @Test
    void shouldAcceptFiveHundredTwelveBytesOfPlainPrivateData()
    {
        final int length = MpaFrameFlyweight.encode(
            buffer, 0, MpaFrameFlyweight.Kind.REQUEST, 0, 1, false, 0, 0, new byte[512]);

        assertEquals(532, length);
        assertArrayEquals(hex("02 00"), bytes(buffer, 18, 2));
    }

    @Test
    void shouldRefuseToEncodeMoreThanFiveHundredTwelveBytesOfPrivateData()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> MpaFrameFlyweight.encode(buffer, 0, MpaFrameFlyweight.Kind.REQUEST, 0, 1, false, 0, 0,
                new byte[513]));

        assertEquals("private data of 513 bytes is too long: at most 512", ex.getMessage());
    }

    @Test
    void shouldRefuseToEncodeMoreThanFiveHundredEightApplicationBytesWithEnhancedData()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> MpaFrameFlyweight.encode(buffer, 0, MpaFrameFlyweight.Kind.REQUEST, 0, 2, true, 0, 0,
                new byte[509]));

        assertEquals("private data of 509 bytes is too long: at most 508", ex.getMessage());
    }

    @Test
    void shouldDecodeHandWrittenEnhancedRequest()
    {
        buffer.putBytes(5, hex(REQUEST_KEY + "d0 02 00 06 c0 10 40 0f 01 02"));

        frame.wrap(buffer, 5);

        assertEquals(MpaFrameFlyweight.Kind.REQUEST, frame.kind());
        assertEquals(0xD0, frame.flags());
        assertTrue(frame.hasFlag(MpaFrameFlyweight.FLAG_MARKERS), "M");
        assertTrue(frame.hasFlag(MpaFrameFlyweight.FLAG_CRC), "C");
        assertFalse(frame.hasFlag(MpaFrameFlyweight.FLAG_REJECT), "R");
        assertTrue(frame.hasFlag(MpaFrameFlyweight.FLAG_ENHANCED), "S");
        assertEquals(2, frame.revision());
        assertEquals(6, frame.privateDataLength());
        assertEquals(26, frame.frameLength());
        assertEquals(0xC010, frame.enhancedIrdWord());
        assertEquals(0x400F, frame.enhancedOrdWord());
        assertEquals(5 + 24, frame.applicationDataOffset());
        assertEquals(2, frame.applicationDataLength());
        assertArrayEquals(hex("01 02"), frame.applicationData());
    }

    @Test
    void shouldTreatWholePrivateDataAsApplicationDataWithoutSFlag()
    {
        buffer.putBytes(0, hex(REPLY_KEY + "40 01 00 04 c0 10 40 0f"));

        frame.wrap(buffer, 0);

        assertEquals(20, frame.applicationDataOffset());
        assertArrayEquals(hex("c0 10 40 0f"), frame.applicationData());
    }

    @Test
    void shouldReadRevisionAndPdLengthUnsigned()
    {
        buffer.putBytes(0, hex(REPLY_KEY + "00 ff ff ff"));

        frame.wrap(buffer, 0);

        assertEquals(255, frame.revision());
        assertEquals(65535, frame.privateDataLength());
        assertEquals(65555, frame.frameLength());
    }

    @Test
    void shouldRecogniseNeitherKeyWhenOneLetterDiffers()
    {
        // "MPA ID Req frame": lower-case f.
        buffer.putBytes(0, hex("4d 50 41 20 49 44 20 52 65 71 20 66 72 61 6d 65"));

        assertEquals(MpaFrameFlyweight.Kind.UNKNOWN, frame.wrap(buffer, 0).kind());
    }

    @Test
    void shouldRecogniseReplyKeyAtOffset()
    {
        buffer.putBytes(100, hex(REPLY_KEY));

        assertEquals(MpaFrameFlyweight.Kind.REPLY, frame.wrap(buffer, 100).kind());
    }

    @Test
    void shouldAcceptWellFormedRequest()
    {
        buffer.putBytes(0, hex(REQUEST_KEY + "50 02 00 04 80 10 40 10"));

        assertNull(frame.wrap(buffer, 0).validate(MpaFrameFlyweight.Kind.REQUEST));
    }

    @Test
    void shouldReportUnknownKey()
    {
        buffer.putBytes(0, hex("47 45 54 20 2f 20 48 54 54 50 2f 31 2e 31 0d 0a 40 01 00 00"));

        assertEquals("MPA request frame has an unknown key",
            frame.wrap(buffer, 0).validate(MpaFrameFlyweight.Kind.REQUEST));
    }

    @Test
    void shouldReportPrivateDataLengthOfFiveHundredThirteen()
    {
        buffer.putBytes(0, hex(REPLY_KEY + "40 01 02 01"));

        assertEquals("MPA reply private data length 513 exceeds the limit of 512",
            frame.wrap(buffer, 0).validate(MpaFrameFlyweight.Kind.REPLY));
    }

    @Test
    void shouldAcceptPrivateDataLengthOfFiveHundredTwelve()
    {
        buffer.putBytes(0, hex(REPLY_KEY + "40 01 02 00"));

        assertNull(frame.wrap(buffer, 0).validate(MpaFrameFlyweight.Kind.REPLY));
    }

    @ParameterizedTest(name = "PD_Length {0}")
    @ValueSource(ints = { 0, 1, 2, 3 })
    void shouldReportEnhancedFlagWithLessThanFourBytesOfPrivateData(final int pdLength)
    {
        buffer.putBytes(0, hex(REQUEST_KEY + "50 02 00 0" + pdLength));

        assertEquals("MPA request has the enhanced (S) flag but only " + pdLength + " bytes of private data",
            frame.wrap(buffer, 0).validate(MpaFrameFlyweight.Kind.REQUEST));
    }

    @Test
    void shouldAcceptEnhancedFlagWithExactlyFourBytesOfPrivateData()
    {
        buffer.putBytes(0, hex(REQUEST_KEY + "10 02 00 04 00 00 00 00"));

        assertNull(frame.wrap(buffer, 0).validate(MpaFrameFlyweight.Kind.REQUEST));
    }

    @Test
    void shouldReportRequestWhereReplyExpected()
    {
        buffer.putBytes(0, hex(REQUEST_KEY + "40 01 00 00"));

        assertEquals("MPA reply expected but an MPA request frame arrived (both sides acting as initiator)",
            frame.wrap(buffer, 0).validate(MpaFrameFlyweight.Kind.REPLY));
    }

    @Test
    void shouldReportReplyWhereRequestExpected()
    {
        buffer.putBytes(0, hex(REPLY_KEY + "40 01 00 00"));

        assertEquals("MPA request expected but an MPA reply frame arrived (both sides acting as responder)",
            frame.wrap(buffer, 0).validate(MpaFrameFlyweight.Kind.REQUEST));
    }

    @ParameterizedTest(name = "revision {0}")
    @ValueSource(ints = { 0, 3, 255 })
    void shouldReportReplyOfRevisionThisPeerDoesNotSpeak(final int revision)
    {
        // RFC 5044 section 7.1.1: a receiver that cannot interoperate with the revision MUST close the connection.
        buffer.putBytes(0, hex(REPLY_KEY + "40 00 00 00"));
        buffer.putByte(17, (byte)revision);

        assertEquals("MPA reply revision " + revision + " is not supported: this peer speaks revisions 1 and 2",
            frame.wrap(buffer, 0).validate(MpaFrameFlyweight.Kind.REPLY));
    }

    @ParameterizedTest(name = "revision {0}")
    @ValueSource(ints = { 1, 2 })
    void shouldAcceptReplyOfRevisionOneOrTwo(final int revision)
    {
        buffer.putBytes(0, hex(REPLY_KEY + "40 0" + revision + " 00 00"));

        assertNull(frame.wrap(buffer, 0).validate(MpaFrameFlyweight.Kind.REPLY));
    }

    @ParameterizedTest(name = "revision {0}")
    @ValueSource(ints = { 0, 3 })
    void shouldLeaveRequestRevisionToRefusalSoItCanBeAnswered(final int revision)
    {
        // RFC 5044 appendix C: a revision 0 Request gets a Reply in our revision rather than a silent close.
        buffer.putBytes(0, hex(REQUEST_KEY + "40 00 00 00"));
        buffer.putByte(17, (byte)revision);

        assertNull(frame.wrap(buffer, 0).validate(MpaFrameFlyweight.Kind.REQUEST));
    }

    @Test
    void shouldDecodeWhatWasEncodedForRandomFields()
    {
        final long seed = seed();
        final Random random = new Random(seed);
        for (int i = 0; i < ITERATIONS; i++)
        {
            final String at = replay(seed, i);
            final MpaFrameFlyweight.Kind kind = EXPECTABLE[random.nextInt(2)];
            final int flags = random.nextInt(8) << 5; // any of M, C and R
            final int revision = random.nextInt(256);
            // Enhanced data exists only from revision 2 (in revision 1 the S bit is reserved).
            final boolean enhanced = revision >= 2 && random.nextBoolean();
            final int irdWord = random.nextInt(0x10000);
            final int ordWord = random.nextInt(0x10000);
            final byte[] data = new byte[random.nextInt(MpaNegotiation.maxApplicationData(true) + 1)];
            random.nextBytes(data);
            final int offset = random.nextInt(CAPACITY - MpaFrameFlyweight.MAX_FRAME_LENGTH);

            final int length = MpaFrameFlyweight.encode(
                buffer, offset, kind, flags, revision, enhanced, irdWord, ordWord, data);
            frame.wrap(buffer, offset);

            final int pdLength = data.length + (enhanced ? 4 : 0);
            assertEquals(20 + pdLength, length, at);
            assertEquals(length, frame.frameLength(), at);
            assertEquals(kind, frame.kind(), at);
            assertEquals(flags | (enhanced ? MpaFrameFlyweight.FLAG_ENHANCED : 0), frame.flags(), at);
            assertEquals(revision, frame.revision(), at);
            assertEquals(pdLength, frame.privateDataLength(), at);
            if (enhanced)
            {
                assertEquals(irdWord, frame.enhancedIrdWord(), at);
                assertEquals(ordWord, frame.enhancedOrdWord(), at);
            }
            assertArrayEquals(data, frame.applicationData(), at);
            if (MpaFrameFlyweight.Kind.REQUEST == kind || 1 == revision || 2 == revision)
            {
                assertNull(frame.validate(kind), at);
            }
        }
    }

    @Test
    void shouldNeverThrowOnRandomBytes()
    {
        final long seed = seed();
        final Random random = new Random(seed);
        final byte[] request = hex(REQUEST_KEY);
        final byte[] reply = hex(REPLY_KEY);
        final byte[] garbage = new byte[CAPACITY];
        for (int i = 0; i < ITERATIONS; i++)
        {
            random.nextBytes(garbage);
            buffer.putBytes(0, garbage);
            final int offset = random.nextInt(CAPACITY - MpaFrameFlyweight.MAX_FRAME_LENGTH);
            final int choice = random.nextInt(4);
            if (choice < 2)
            {
                buffer.putBytes(offset, 0 == choice ? request : reply);
            }
            if (random.nextBoolean())
            {
                buffer.putByte(offset + 17, (byte)random.nextInt(4));
            }
            if (random.nextBoolean())
            {
                // Keep PD_Length near the limits half of the time, else it is almost always far above 512.
                buffer.putShort(offset + 18, (short)random.nextInt(520), ByteOrder.BIG_ENDIAN);
            }
            checkAgainstRawBytes(seed, i, offset);
        }
    }

    @Test
    void shouldNeverThrowOnMutatedValidFrames()
    {
        final long seed = seed();
        final Random random = new Random(seed);
        for (int i = 0; i < ITERATIONS; i++)
        {
            final int offset = random.nextInt(64);
            final byte[] data = new byte[random.nextInt(64)];
            random.nextBytes(data);
            final int length = MpaFrameFlyweight.encode(
                buffer, offset, random.nextBoolean() ? MpaFrameFlyweight.Kind.REQUEST : MpaFrameFlyweight.Kind.REPLY,
                MpaFrameFlyweight.FLAG_CRC, 2, random.nextBoolean(), random.nextInt(0x10000),
                random.nextInt(0x10000), data);
            final int mutations = 1 + random.nextInt(3);
            for (int m = 0; m < mutations; m++)
            {
                final int index = offset + random.nextInt(Math.min(length, 24));
                if (random.nextBoolean())
                {
                    buffer.putByte(index, (byte)(buffer.getByte(index) ^ (1 << random.nextInt(8))));
                }
                else
                {
                    buffer.putByte(index, (byte)random.nextInt(256));
                }
            }
            checkAgainstRawBytes(seed, i, offset);
        }
    }

    /**
     * Decode the frame at offset by hand and check every accessor and both validations against it.
     */
    private void checkAgainstRawBytes(final long seed, final int iteration, final int offset)
    {
        final byte[] raw = bytes(buffer, offset, 24);
        final String at = replay(seed, iteration) + " frame " + toHex(raw);
        final byte[] key = Arrays.copyOf(raw, 16);
        final MpaFrameFlyweight.Kind expectedKind = Arrays.equals(hex(REQUEST_KEY), key) ?
            MpaFrameFlyweight.Kind.REQUEST : Arrays.equals(hex(REPLY_KEY), key) ?
            MpaFrameFlyweight.Kind.REPLY : MpaFrameFlyweight.Kind.UNKNOWN;
        final int pdLength = (raw[18] & 0xFF) << 8 | raw[19] & 0xFF;
        final boolean enhanced = (raw[16] & 0x10) != 0 && (raw[17] & 0xFF) >= 2;

        assertDoesNotThrow(() -> frame.wrap(buffer, offset).kind(), at);
        assertEquals(expectedKind, frame.kind(), at);
        assertEquals(raw[16] & 0xFF, frame.flags(), at);
        assertEquals(raw[17] & 0xFF, frame.revision(), at);
        assertEquals(20 + pdLength, frame.frameLength(), at);
        assertTrue(frame.frameLength() <= 65555, at);
        for (final MpaFrameFlyweight.Kind expected : EXPECTABLE)
        {
            final String problem = assertDoesNotThrow(() -> frame.validate(expected), at);
            final boolean spokenRevision = MpaFrameFlyweight.Kind.REQUEST == expected || 1 == raw[17] || 2 == raw[17];
            final boolean wellFormed = expectedKind == expected && pdLength <= 512 && !(enhanced && pdLength < 4) &&
                spokenRevision;
            assertEquals(wellFormed, null == problem, () -> at + " expected " + expected + ": " + problem);
            if (null != problem)
            {
                assertTrue(problem.startsWith("MPA " + expected.name().toLowerCase() + " "), at + ": " + problem);
            }
            else
            {
                final int applicationLength = pdLength - (enhanced ? 4 : 0);
                assertEquals(applicationLength, frame.applicationDataLength(), at);
                assertArrayEquals(
                    bytes(buffer, offset + 20 + (enhanced ? 4 : 0), applicationLength), frame.applicationData(), at);
            }
        }
    }

    @Test
    void shouldIgnoreTheReservedEnhancedBitOfARevisionOneFrame()
    {
        // "MPA ID Req Frame", flags C|S, revision 1, PD_Length 2, private data "hi": in revision 1 the S bit is
        // reserved, so the two bytes are all application data and the frame is valid.
        final UnsafeBuffer buffer = directBuffer(64);
        buffer.putBytes(0, hex("4d504120494420526571204672616d65 50 01 0002 6869"));
        final MpaFrameFlyweight frame = new MpaFrameFlyweight().wrap(buffer, 0);
        assertNull(frame.validate(MpaFrameFlyweight.Kind.REQUEST));
        assertFalse(frame.isEnhanced());
        assertEquals(2, frame.applicationDataLength());
        assertArrayEquals(hex("6869"), frame.applicationData());
    }
}
