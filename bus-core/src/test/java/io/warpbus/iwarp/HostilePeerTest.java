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
package io.warpbus.iwarp;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.warpbus.iwarp.ddp.DdpHeaderFlyweight;
import io.warpbus.iwarp.rdmap.RdmapOpcode;
import io.warpbus.iwarp.rdmap.TerminateError;
import io.warpbus.iwarp.rdmap.TerminateFlyweight;
import io.warpbus.testing.Await;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A raw socket plays a hostile or broken peer against an engine running on its own thread. Every violation must
 * end that connection with the RFC's Terminate, leave the region untouched, and report a clear reason.
 */
@Timeout(60)
class HostilePeerTest
{
    private static final int REGION_LENGTH = 4096;
    private static final int LARGE_REGION_LENGTH = 1 << 16;
    private static final int LARGE_PAYLOAD = 40_000;
    /** Bytes of a large FPDU sent before the rest: its length field, its header and a little payload. */
    private static final int FIRST_PIECE = 2_000;

    private final List<Throwable> errors = new CopyOnWriteArrayList<>();
    private final List<ConnectionEvent> events = new ArrayList<>();
    private Rnic server;
    private ProtectionDomain pd;
    private CompletionQueue cq;
    private InetSocketAddress address;
    private MemoryRegion writable;
    private MemoryRegion readable;
    private MemoryRegion receive;
    private QueuePair serverQp;

    @BeforeEach
    void setUp()
    {
        start(new RnicContext().ird(1).mpaTimeoutNs(TimeUnit.MILLISECONDS.toNanos(500)));
    }

    private void start(final RnicContext context)
    {
        server = Rnic.launch(context.name("hostile-test").threadingMode(ThreadingMode.DEDICATED)
            .idleStrategy("backoff").errorHandler(errors::add));
        pd = server.allocateProtectionDomain();
        cq = server.createCompletionQueue(256);
        writable = pd.registerMemory(EnginePair.directBuffer(REGION_LENGTH), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
        readable = pd.registerMemory(EnginePair.directBuffer(REGION_LENGTH), Access.REMOTE_READ);
        receive = pd.registerMemory(EnginePair.directBuffer(REGION_LENGTH), Access.LOCAL_WRITE);
        address = server.connectionManager().listen(EnginePair.loopback(0), 16, null).localAddress();
    }

    @AfterEach
    void tearDown()
    {
        server.close();
    }

    @Test
    void shouldTerminateWriteToUnknownStag() throws IOException
    {
        try (RawPeer peer = established(0))
        {
            final byte[] fpdu = peer.taggedFpdu(1, RdmapOpcode.control(RdmapOpcode.WRITE), 0x7ABCDE, 0, bytes(8), true);
            peer.sendRaw(fpdu);
            final TerminateFlyweight terminate = peer.readTerminate();
            assertTerminate(terminate, TerminateError.DDP_TAGGED_INVALID_STAG, true, false);
            assertEquals(fpdu.length - 4 - 2, terminate.ddpSegmentLength());
            assertArrayEquals(slice(fpdu, 2, DdpHeaderFlyweight.TAGGED_HEADER_LENGTH),
                copiedDdpHeader(peer, DdpHeaderFlyweight.TAGGED_HEADER_LENGTH));
            assertClosedWithError(peer, "unknown STag");
        }
    }

    @Test
    void shouldTerminateWriteBeyondRegionBoundsAndLeaveMemoryAlone() throws IOException
    {
        try (RawPeer peer = established(0))
        {
            peer.sendTagged(RdmapOpcode.WRITE, writable.stag(), writable.taggedOffset(REGION_LENGTH - 4), filled(8),
                true);
            assertTerminate(peer.readTerminate(), TerminateError.DDP_TAGGED_BASE_BOUNDS, true, false);
            assertClosedWithError(peer, "outside STag");
            for (int i = 0; i < REGION_LENGTH; i++)
            {
                assertEquals(0, writable.buffer().getByte(i), "byte " + i + " of the region was touched");
            }
        }
    }

    @Test
    void shouldTerminateWriteBelowRegionBase() throws IOException
    {
        try (RawPeer peer = established(0))
        {
            peer.sendTagged(RdmapOpcode.WRITE, writable.stag(), writable.address() - 1, filled(8), true);
            assertTerminate(peer.readTerminate(), TerminateError.DDP_TAGGED_BASE_BOUNDS, true, false);
            assertClosedWithError(peer, "outside STag");
        }
    }

    @Test
    void shouldTerminateWriteWhoseTaggedOffsetWraps() throws IOException
    {
        try (RawPeer peer = established(0))
        {
            peer.sendTagged(RdmapOpcode.WRITE, writable.stag(), -4L, filled(8), true);
            assertTerminate(peer.readTerminate(), TerminateError.DDP_TAGGED_TO_WRAP, true, false);
            assertClosedWithError(peer, "wraps");
        }
    }

    @Test
    void shouldTerminateWriteWithoutRemoteWriteRight() throws IOException
    {
        try (RawPeer peer = established(0))
        {
            peer.sendTagged(RdmapOpcode.WRITE, readable.stag(), readable.address(), filled(8), true);
            assertTerminate(peer.readTerminate(), TerminateError.RDMAP_ACCESS_RIGHTS, true, false);
            assertClosedWithError(peer, "grants REMOTE_READ");
        }
    }

    @Test
    void shouldTerminateWriteToRegionOfAnotherProtectionDomain() throws IOException
    {
        final MemoryRegion foreign = server.allocateProtectionDomain().registerMemory(
            EnginePair.directBuffer(64), Access.REMOTE_WRITE);
        try (RawPeer peer = established(0))
        {
            peer.sendTagged(RdmapOpcode.WRITE, foreign.stag(), foreign.address(), filled(8), true);
            assertTerminate(peer.readTerminate(), TerminateError.DDP_TAGGED_STAG_NOT_ASSOCIATED, true, false);
            assertClosedWithError(peer, "another protection domain");
        }
    }

    @Test
    void shouldTerminateWriteToInvalidatedStag() throws IOException
    {
        writable.invalidate();
        try (RawPeer peer = established(0))
        {
            peer.sendTagged(RdmapOpcode.WRITE, writable.stag(), writable.address(), filled(8), true);
            assertTerminate(peer.readTerminate(), TerminateError.DDP_TAGGED_INVALID_STAG, true, false);
            assertClosedWithError(peer, "invalidated STag");
        }
    }

    @Test
    void shouldTerminateWriteToDeregisteredStag() throws IOException
    {
        final int stag = writable.stag();
        final long address = writable.address();
        writable.close();
        try (RawPeer peer = established(0))
        {
            peer.sendTagged(RdmapOpcode.WRITE, stag, address, filled(8), true);
            assertTerminate(peer.readTerminate(), TerminateError.DDP_TAGGED_INVALID_STAG, true, false);
            assertClosedWithError(peer, "unknown STag");
        }
    }

    @Test
    void shouldTerminateBadDdpVersion() throws IOException
    {
        try (RawPeer peer = established(0))
        {
            peer.sendTagged(2, RdmapOpcode.control(RdmapOpcode.WRITE), writable.stag(), writable.address(), bytes(4),
                true);
            assertTerminate(peer.readTerminate(), TerminateError.DDP_TAGGED_INVALID_VERSION, true, false);
            assertClosedWithError(peer, "DDP version 2");
        }
    }

    @Test
    void shouldTerminateBadDdpVersionOfUntaggedSegment() throws IOException
    {
        try (RawPeer peer = established(1))
        {
            peer.sendRaw(peer.untaggedFpdu(0, RdmapOpcode.control(RdmapOpcode.SEND), 0, 0, 1, 0, bytes(4), true));
            assertTerminate(peer.readTerminate(), TerminateError.DDP_UNTAGGED_INVALID_VERSION, true, false);
            assertClosedWithError(peer, "DDP version 0");
        }
    }

    @Test
    void shouldTerminateBadRdmapVersion() throws IOException
    {
        try (RawPeer peer = established(0))
        {
            peer.sendTagged(1, 0x80 | RdmapOpcode.WRITE, writable.stag(), writable.address(), bytes(4), true);
            assertTerminate(peer.readTerminate(), TerminateError.RDMAP_INVALID_VERSION, true, false);
            assertClosedWithError(peer, "RDMAP version 2");
        }
    }

    @Test
    void shouldTerminateUnknownOpcode() throws IOException
    {
        try (RawPeer peer = established(0))
        {
            peer.sendUntagged(RdmapOpcode.control(0xC), 0, 0, 1, 0, bytes(8), true);
            assertTerminate(peer.readTerminate(), TerminateError.RDMAP_UNEXPECTED_OPCODE, true, false);
            assertClosedWithError(peer, "opcode 0xc");
        }
    }

    @Test
    void shouldTerminateOpcodeInTheWrongModel() throws IOException
    {
        try (RawPeer peer = established(1))
        {
            peer.sendTagged(RdmapOpcode.SEND, writable.stag(), writable.address(), bytes(4), true);
            assertTerminate(peer.readTerminate(), TerminateError.RDMAP_UNEXPECTED_OPCODE, true, false);
            assertClosedWithError(peer, "Send in a tagged DDP segment");
        }
    }

    @Test
    void shouldTerminateSendWithNoReceivePosted() throws IOException
    {
        try (RawPeer peer = established(0))
        {
            peer.sendSend(bytes(16));
            assertTerminate(peer.readTerminate(), TerminateError.DDP_UNTAGGED_NO_BUFFER, true, false);
            assertClosedWithError(peer, "no receive buffer posted");
        }
    }

    @Test
    void shouldTerminateSendTooLargeForReceiveBuffer() throws IOException
    {
        try (RawPeer peer = established(1))
        {
            peer.sendSend(bytes(REGION_LENGTH + 1));
            assertTerminate(peer.readTerminate(), TerminateError.DDP_UNTAGGED_TOO_LONG, true, false);
            assertClosedWithError(peer, "does not fit");
        }
    }

    @Test
    void shouldTerminateSendSegmentBeyondBufferOffset() throws IOException
    {
        try (RawPeer peer = established(1))
        {
            peer.sendUntagged(RdmapOpcode.control(RdmapOpcode.SEND), 0, 0, 1, REGION_LENGTH + 100, bytes(4), true);
            assertTerminate(peer.readTerminate(), TerminateError.DDP_UNTAGGED_INVALID_MO, true, false);
            assertClosedWithError(peer, "message offset");
        }
    }

    @Test
    void shouldTerminateMsnOutOfSequence() throws IOException
    {
        try (RawPeer peer = established(2))
        {
            peer.sendSend(bytes(4));
            peer.sendUntagged(RdmapOpcode.control(RdmapOpcode.SEND), 0, 0, 7, 0, bytes(4), true);
            assertTerminate(peer.readTerminate(), TerminateError.DDP_UNTAGGED_MSN_RANGE, true, false);
            assertClosedWithError(peer, "MSN 7, expected 2");
        }
    }

    @Test
    void shouldTerminateInvalidQueueNumber() throws IOException
    {
        try (RawPeer peer = established(1))
        {
            peer.sendUntagged(RdmapOpcode.control(RdmapOpcode.SEND), 0, 5, 1, 0, bytes(4), true);
            assertTerminate(peer.readTerminate(), TerminateError.DDP_UNTAGGED_INVALID_QN, true, false);
            assertClosedWithError(peer, "queue number 5");
        }
    }

    @Test
    void shouldTerminateReadWithoutRemoteReadRightAndCopyTheReadHeader() throws IOException
    {
        try (RawPeer peer = established(0))
        {
            final byte[] fpdu = peer.readRequestFpdu(0x1234, 0x5000, 16, writable.stag(), writable.address());
            peer.sendRaw(fpdu);
            final TerminateFlyweight terminate = peer.readTerminate();
            assertTerminate(terminate, TerminateError.RDMAP_ACCESS_RIGHTS, true, true);
            assertArrayEquals(slice(fpdu, 2, DdpHeaderFlyweight.UNTAGGED_HEADER_LENGTH + 28),
                copiedDdpHeader(peer, DdpHeaderFlyweight.UNTAGGED_HEADER_LENGTH + 28));
            assertClosedWithError(peer, "grants LOCAL_WRITE|REMOTE_WRITE");
        }
    }

    @Test
    void shouldTerminateReadBeyondRegionBounds() throws IOException
    {
        try (RawPeer peer = established(0))
        {
            peer.sendRaw(peer.readRequestFpdu(1, 0, REGION_LENGTH + 1, readable.stag(), readable.address()));
            assertTerminate(peer.readTerminate(), TerminateError.RDMAP_BASE_BOUNDS, true, true);
            assertClosedWithError(peer, "outside STag");
        }
    }

    @Test
    void shouldTerminateReadsBeyondIrd() throws IOException
    {
        try (RawPeer peer = established(0))
        {
            final byte[] first = peer.readRequestFpdu(1, 0, 64, readable.stag(), readable.address());
            final byte[] second = peer.readRequestFpdu(1, 64, 64, readable.stag(), readable.address());
            final byte[] both = new byte[first.length + second.length];
            System.arraycopy(first, 0, both, 0, first.length);
            System.arraycopy(second, 0, both, first.length, second.length);
            peer.sendRaw(both);
            assertTerminate(peer.readTerminate(), TerminateError.RDMAP_CATASTROPHIC_STREAM, true, true);
            assertClosedWithError(peer, "beyond the negotiated IRD of 1");
        }
    }

    @Test
    void shouldAnswerReadRequestWithReadResponse() throws IOException
    {
        readable.buffer().putLong(8, 0x1122_3344_5566_7788L);
        try (RawPeer peer = established(0))
        {
            peer.sendRaw(peer.readRequestFpdu(0x4321, 0x9000, 8, readable.stag(), readable.taggedOffset(8)));
            final UnsafeBuffer response = new UnsafeBuffer(peer.readFpdu());
            final DdpHeaderFlyweight ddp = new DdpHeaderFlyweight().wrap(response, 0);
            assertTrue(ddp.isTagged());
            assertTrue(ddp.isLast());
            assertEquals(RdmapOpcode.READ_RESPONSE, RdmapOpcode.opcode(ddp.rsvdUlp()));
            assertEquals(0x4321, ddp.stag());
            assertEquals(0x9000, ddp.taggedOffset());
            assertEquals(0x1122_3344_5566_7788L, response.getLong(DdpHeaderFlyweight.TAGGED_HEADER_LENGTH));
        }
    }

    @Test
    void shouldTerminateBadCrc() throws IOException
    {
        try (RawPeer peer = established(0))
        {
            final byte[] fpdu = peer.taggedFpdu(1, RdmapOpcode.control(RdmapOpcode.WRITE), writable.stag(),
                writable.address(), filled(8), true);
            fpdu[fpdu.length - 1] ^= 0x01;
            peer.sendRaw(fpdu);
            assertTerminate(peer.readTerminate(), TerminateError.MPA_CRC, false, false);
            assertClosedWithError(peer, "CRC32C mismatch");
            assertEquals(0, writable.buffer().getLong(0), "data of an FPDU with a bad CRC was placed");
            assertEquals(1, server.counters().crcErrors());
        }
    }

    @Test
    void shouldPlaceAWriteStraightFromTheSocketWhileItArrives() throws IOException
    {
        final MemoryRegion large = largeRegion();
        try (RawPeer peer = established(0))
        {
            final byte[] payload = nonZero(LARGE_PAYLOAD);
            final byte[] fpdu = peer.taggedFpdu(1, RdmapOpcode.control(RdmapOpcode.WRITE), large.stag(),
                large.taggedOffset(1000), payload, true);
            sendWithHeaderFirst(peer, fpdu, large, 1000);
            peer.sendRaw(slice(fpdu, FIRST_PIECE, 20_000));
            peer.sendRaw(slice(fpdu, FIRST_PIECE + 20_000, fpdu.length - FIRST_PIECE - 20_000));
            awaitCondition(() -> 1 == server.counters().fpdusPlacedDirectly(), "the Write to be placed directly");

            final byte[] placed = new byte[LARGE_PAYLOAD];
            large.buffer().getBytes(1000, placed);
            assertArrayEquals(payload, placed);
            assertEquals(0, large.buffer().getByte(999));
            assertEquals(0, large.buffer().getByte(1000 + LARGE_PAYLOAD));

            peer.sendTagged(RdmapOpcode.WRITE, writable.stag(), writable.address(), filled(8), true);
            awaitCondition(() -> 0x5A5A_5A5A_5A5A_5A5AL == writable.buffer().getLongVolatile(0),
                "the next FPDU, behind the directly placed one's trailer, to be placed");
            assertEquals(0, server.counters().crcErrors());
            assertEquals(0, server.counters().terminatesSent());
        }
    }

    @Test
    void shouldTerminateAWritePlacedStraightFromTheSocketWhoseCrcIsBad() throws IOException
    {
        final MemoryRegion large = largeRegion();
        try (RawPeer peer = established(0))
        {
            final byte[] fpdu = peer.taggedFpdu(1, RdmapOpcode.control(RdmapOpcode.WRITE), large.stag(),
                large.address(), nonZero(LARGE_PAYLOAD), true);
            fpdu[fpdu.length - 1] ^= 0x01;
            sendWithHeaderFirst(peer, fpdu, large, 0);
            peer.sendRaw(slice(fpdu, FIRST_PIECE, fpdu.length - FIRST_PIECE));
            assertTerminate(peer.readTerminate(), TerminateError.MPA_CRC, false, false);
            assertClosedWithError(peer, "CRC32C mismatch in an FPDU placed straight from the socket");
            assertEquals(1, server.counters().crcErrors());
            assertEquals(0, server.counters().fpdusPlacedDirectly());
        }
    }

    @Test
    void shouldTerminateAWriteWhoseRegionIsDeregisteredWhileItArrives() throws IOException
    {
        final MemoryRegion large = largeRegion();
        try (RawPeer peer = established(0))
        {
            final byte[] fpdu = peer.taggedFpdu(1, RdmapOpcode.control(RdmapOpcode.WRITE), large.stag(),
                large.address(), nonZero(LARGE_PAYLOAD), true);
            sendWithHeaderFirst(peer, fpdu, large, 0);
            large.close();
            assertTerminate(peer.readTerminate(), TerminateError.DDP_TAGGED_INVALID_STAG, false, false);
            assertClosedWithError(peer, "was deregistered while an RDMA Write was being placed into it");
        }
    }

    @Test
    void shouldTerminateAWriteWhoseRegionIsInvalidatedWhileItArrives() throws IOException
    {
        final MemoryRegion large = largeRegion();
        try (RawPeer peer = established(0))
        {
            final byte[] fpdu = peer.taggedFpdu(1, RdmapOpcode.control(RdmapOpcode.WRITE), large.stag(),
                large.address(), nonZero(LARGE_PAYLOAD), true);
            sendWithHeaderFirst(peer, fpdu, large, 0);
            large.invalidate();
            try
            {
                peer.sendRaw(slice(fpdu, FIRST_PIECE, 10_000));
            }
            catch (final IOException ex)
            {
                // The engine may have ended the connection already, as it should.
            }
            assertTerminate(peer.readTerminate(), TerminateError.DDP_TAGGED_INVALID_STAG, false, false);
            assertClosedWithError(peer, "was invalidated while an RDMA Write was being placed into it");
            assertEquals(0, large.buffer().getByte(FIRST_PIECE), "the invalidated region got more of the payload");
        }
    }

    /**
     * A large Write whose header arrives well before its payload must still pass every check before any of it is
     * placed; each refusal ends the connection as for a small Write, with the region untouched.
     */
    @ParameterizedTest
    @ValueSource(strings = { "unknown STag", "another protection domain", "no remote write", "out of bounds" })
    void shouldRefuseALargeWriteBeforePlacingAnyOfIt(final String violation) throws Exception
    {
        final MemoryRegion target;
        final int stag;
        final long taggedOffset;
        final TerminateError expected;
        final String reason;
        switch (violation)
        {
            case "unknown STag":
                target = largeRegion();
                stag = 0x7ABCDE;
                taggedOffset = target.address();
                expected = TerminateError.DDP_TAGGED_INVALID_STAG;
                reason = "unknown STag";
                break;
            case "another protection domain":
                target = server.allocateProtectionDomain().registerMemory(
                    ByteBuffer.allocateDirect(LARGE_REGION_LENGTH), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
                stag = target.stag();
                taggedOffset = target.address();
                expected = TerminateError.DDP_TAGGED_STAG_NOT_ASSOCIATED;
                reason = "another protection domain";
                break;
            case "no remote write":
                target = pd.registerMemory(ByteBuffer.allocateDirect(LARGE_REGION_LENGTH),
                    Access.LOCAL_WRITE | Access.REMOTE_READ);
                stag = target.stag();
                taggedOffset = target.address();
                expected = TerminateError.RDMAP_ACCESS_RIGHTS;
                reason = "which grants";
                break;
            default:
                target = largeRegion();
                stag = target.stag();
                taggedOffset = target.taggedOffset(LARGE_REGION_LENGTH - LARGE_PAYLOAD / 2);
                expected = TerminateError.DDP_TAGGED_BASE_BOUNDS;
                reason = "outside STag";
                break;
        }
        try (RawPeer peer = established(0))
        {
            final byte[] fpdu = peer.taggedFpdu(1, RdmapOpcode.control(RdmapOpcode.WRITE), stag, taggedOffset,
                nonZero(LARGE_PAYLOAD), true);
            peer.sendRaw(slice(fpdu, 0, FIRST_PIECE));
            // Give the engine time to read the header alone, so the refusal is the direct path's to make.
            Thread.sleep(50);
            peer.sendRaw(slice(fpdu, FIRST_PIECE, fpdu.length - FIRST_PIECE));
            assertTerminate(peer.readTerminate(), expected, true, false);
            assertClosedWithError(peer, reason);
            for (int i = 0; i < LARGE_REGION_LENGTH; i++)
            {
                assertEquals(0, target.buffer().getByte(i), "byte " + i + " of the region was touched");
            }
            assertEquals(0, server.counters().fpdusPlacedDirectly());
        }
    }

    private MemoryRegion largeRegion()
    {
        return pd.registerMemory(ByteBuffer.allocateDirect(LARGE_REGION_LENGTH),
            Access.LOCAL_WRITE | Access.REMOTE_WRITE);
    }

    /**
     * Send the start of an FPDU and wait until the engine has placed the payload that came with its header: it has
     * then chosen to read the rest straight into the region.
     */
    private void sendWithHeaderFirst(final RawPeer peer, final byte[] fpdu, final MemoryRegion region, final int index)
        throws IOException
    {
        peer.sendRaw(slice(fpdu, 0, FIRST_PIECE));
        final int lastByteOfPiece = index + FIRST_PIECE - 2 - DdpHeaderFlyweight.TAGGED_HEADER_LENGTH - 1;
        awaitCondition(() -> 0 != region.buffer().getByteVolatile(lastByteOfPiece),
            "the payload that came with the header to be placed");
    }

    private static byte[] nonZero(final int length)
    {
        final byte[] bytes = new byte[length];
        final Random random = new Random(length);
        for (int i = 0; i < length; i++)
        {
            bytes[i] = (byte)(1 + random.nextInt(255));
        }
        return bytes;
    }

    @Test
    void shouldTerminateInvalidateOfStagThatDoesNotAllowIt() throws IOException
    {
        try (RawPeer peer = established(1))
        {
            peer.sendUntagged(RdmapOpcode.control(RdmapOpcode.SEND_INVALIDATE), writable.stag(), 0, 1, 0, bytes(4),
                true);
            assertTerminate(peer.readTerminate(), TerminateError.RDMAP_OPERATION_CANNOT_INVALIDATE, true, false);
            assertClosedWithError(peer, "does not allow remote invalidation");
            assertTrue(writable.isValid());
        }
    }

    @Test
    void shouldTerminateUnsolicitedReadResponse() throws IOException
    {
        try (RawPeer peer = established(0))
        {
            peer.sendTagged(RdmapOpcode.READ_RESPONSE, writable.stag(), writable.address(), filled(8), true);
            assertTerminate(peer.readTerminate(), TerminateError.RDMAP_UNEXPECTED_OPCODE, true, false);
            assertClosedWithError(peer, "no RDMA Read outstanding");
            assertEquals(0, writable.buffer().getLong(0));
        }
    }

    @Test
    void shouldTerminateFirstFpduThatIsNotTheNegotiatedRtr() throws IOException
    {
        try (RawPeer peer = new RawPeer(address))
        {
            peer.sendRequest(16, 16, new byte[0]);
            acceptNext(0);
            peer.readReply();
            peer.sendTagged(RdmapOpcode.WRITE, writable.stag(), writable.address(), filled(8), true);
            assertTerminate(peer.readTerminate(), TerminateError.MPA_NO_MATCHING_RTR, true, false);
            assertTrue(peer.awaitClosed());
        }
    }

    @Test
    void shouldCloseConnectionWhosePeerNeverSendsAnMpaRequest() throws IOException
    {
        try (RawPeer peer = new RawPeer(address))
        {
            assertTrue(peer.awaitClosed(), "half-open connection was not dropped");
        }
        awaitCondition(() -> server.counters().mpaTimeouts() == 1, "the MPA timeout counter");
        assertErrorLogged("did not finish the MPA exchange");
    }

    @Test
    void shouldCloseConnectionWhosePeerStopsHalfwayThroughTheRequest() throws IOException
    {
        try (RawPeer peer = new RawPeer(address))
        {
            peer.sendRaw("MPA ID Req".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            assertTrue(peer.awaitClosed());
        }
        assertErrorLogged("stuck in AWAIT_REQUEST");
    }

    @Test
    void shouldCloseOnOversizedPrivateDataWithoutReplying() throws IOException
    {
        try (RawPeer peer = new RawPeer(address))
        {
            final byte[] header = new byte[20];
            System.arraycopy("MPA ID Req Frame".getBytes(java.nio.charset.StandardCharsets.US_ASCII), 0, header, 0, 16);
            header[16] = 0x40;
            header[17] = 1;
            header[18] = (byte)0xFF;
            header[19] = (byte)0xFF;
            peer.sendRaw(header);
            assertTrue(peer.awaitClosed());
        }
        assertErrorLogged("private data length 65535 exceeds the limit of 512");
    }

    @Test
    void shouldCloseOnUnknownKey() throws IOException
    {
        try (RawPeer peer = new RawPeer(address))
        {
            peer.sendRaw("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            assertTrue(peer.awaitClosed());
        }
        assertErrorLogged("unknown key");
    }

    @Test
    void shouldRejectPeerThatDemandsMarkers() throws IOException
    {
        try (RawPeer peer = new RawPeer(address))
        {
            final byte[] request = new byte[20];
            System.arraycopy("MPA ID Req Frame".getBytes(java.nio.charset.StandardCharsets.US_ASCII), 0, request, 0,
                16);
            request[16] = (byte)0xC0;
            request[17] = 1;
            peer.sendRaw(request);
            final byte[] reply = peer.readReply();
            assertEquals(0x20, reply[16] & 0x20, "the reply must carry the reject bit");
            assertEquals(0, reply[16] & 0x80, "the reply must not ask for markers");
            final String reason = new String(reply, 20, reply.length - 20, java.nio.charset.StandardCharsets.US_ASCII);
            assertTrue(reason.contains("markers are not supported"), reason);
            assertTrue(peer.awaitClosed());
        }
    }

    @Test
    void shouldReportTruncatedFpduWhenPeerClosesMidFrame() throws IOException
    {
        try (RawPeer peer = established(0))
        {
            final byte[] fpdu = peer.taggedFpdu(1, RdmapOpcode.control(RdmapOpcode.WRITE), writable.stag(),
                writable.address(), filled(64), true);
            peer.sendRaw(slice(fpdu, 0, 30));
            peer.shutdownOutput();
            assertTrue(peer.awaitClosed());
        }
        awaitCondition(() -> serverQp.state().isFinal(), "the queue pair to fail");
        assertTrue(serverQp.errorReason().contains("truncated"), serverQp.errorReason());
        assertEquals(0, writable.buffer().getLong(0));
    }

    @Test
    void shouldReportTerminateSentByPeer() throws IOException
    {
        try (RawPeer peer = established(0))
        {
            final byte[] control = { 0x11, 0x01, 0, 0 };
            peer.sendUntagged(RdmapOpcode.control(RdmapOpcode.TERMINATE), 0, DdpHeaderFlyweight.QN_TERMINATE, 1, 0,
                control, true);
            assertTrue(peer.awaitClosed());
        }
        final ConnectionEvent event = awaitEvent(ConnectionEventType.DISCONNECTED);
        assertEquals(TerminateError.DDP_TAGGED_BASE_BOUNDS, event.terminateError());
        assertTrue(event.terminateByPeer());
        assertEquals(QueuePairState.ERROR, serverQp.state());
        assertTrue(serverQp.errorReason().contains("base or bounds violation"), serverQp.errorReason());
        assertEquals(1, server.counters().terminatesReceived());
    }

    @Test
    void shouldKeepOtherConnectionsWorkingWhileOneIsTerminated() throws IOException
    {
        try (RawPeer good = established(0); RawPeer bad = established(0))
        {
            bad.sendTagged(RdmapOpcode.WRITE, 0x12345, 0, filled(8), true);
            assertTerminate(bad.readTerminate(), TerminateError.DDP_TAGGED_INVALID_STAG, true, false);
            assertTrue(bad.awaitClosed());

            good.sendTagged(RdmapOpcode.WRITE, writable.stag(), writable.taggedOffset(16), filled(8), true);
            good.sendRaw(good.readRequestFpdu(9, 0, 8, readable.stag(), readable.address()));
            final UnsafeBuffer response = new UnsafeBuffer(good.readFpdu());
            assertEquals(RdmapOpcode.READ_RESPONSE, RdmapOpcode.opcode(response.getByte(1)));
            assertEquals(0x5A5A_5A5A_5A5A_5A5AL, writable.buffer().getLong(16));
        }
    }

    // -------------------------------------------------------------------------------------------------------

    /**
     * A raw peer through the MPA exchange and its RTR, accepted by the engine with receives posted.
     */
    RawPeer established(final int receivesPosted) throws IOException
    {
        final RawPeer peer = new RawPeer(address);
        peer.sendRequest(16, 1, new byte[0]);
        acceptNext(receivesPosted);
        final byte[] reply = peer.readReply();
        assertEquals(0, reply[16] & 0x20, "connection was rejected");
        peer.sendWriteRtr();
        awaitEvent(ConnectionEventType.ESTABLISHED);
        return peer;
    }

    private void acceptNext(final int receivesPosted)
    {
        final ConnectionEvent request = awaitEvent(ConnectionEventType.CONNECT_REQUEST);
        serverQp = pd.createQueuePair(new QueuePairAttributes().completionQueue(cq));
        for (int i = 0; i < receivesPosted; i++)
        {
            assertEquals(QueuePair.POSTED, serverQp.postRecv(i, receive, 0, REGION_LENGTH));
        }
        request.request().accept(serverQp, new ConnectionParameters());
    }

    private ConnectionEvent awaitEvent(final ConnectionEventType type)
    {
        final ConnectionEvent[] found = new ConnectionEvent[1];
        Await.until(() -> "a " + type + " event; seen " + events + "; errors " + errors, 10_000, Thread::onSpinWait,
            () ->
            {
                server.connectionManager().poll(events::add, 16);
                for (final ConnectionEvent event : events)
                {
                    if (event.type() == type)
                    {
                        events.remove(event);
                        found[0] = event;
                        return true;
                    }
                }
                return false;
            });
        return found[0];
    }

    private void awaitCondition(final java.util.function.BooleanSupplier condition, final String what)
    {
        Await.until(() -> what + "; errors " + errors, 10_000, Thread::onSpinWait, condition);
    }

    private void assertTerminate(
        final TerminateFlyweight terminate,
        final TerminateError expected,
        final boolean withDdpHeader,
        final boolean withRdmaHeader)
    {
        assertNotNull(terminate);
        assertEquals(expected, terminate.error(), "terminate error");
        final int flags = terminate.headerFlags();
        assertEquals(withDdpHeader, (flags & TerminateFlyweight.FLAG_D) != 0, "D flag");
        assertEquals(withDdpHeader, (flags & TerminateFlyweight.FLAG_M) != 0, "M flag");
        assertEquals(withRdmaHeader, (flags & TerminateFlyweight.FLAG_R) != 0, "R flag");
    }

    private void assertClosedWithError(final RawPeer peer, final String reasonFragment) throws IOException
    {
        assertTrue(peer.awaitClosed(), "the engine did not close the connection");
        final ConnectionEvent event = awaitEvent(ConnectionEventType.DISCONNECTED);
        assertFalse(event.terminateByPeer());
        assertNotNull(event.terminateError());
        assertTrue(event.reason().contains(reasonFragment), "reason '" + event.reason() + "' lacks '" +
            reasonFragment + "'");
        awaitCondition(() -> QueuePairState.ERROR == serverQp.state(), "the queue pair to reach ERROR");
        assertErrorLogged(reasonFragment);
        assertEquals(1, server.counters().terminatesSent());
    }

    private void assertErrorLogged(final String fragment)
    {
        awaitCondition(() -> errors.stream().anyMatch((e) -> e.getMessage().contains(fragment)),
            "an error naming '" + fragment + "'");
    }

    private static byte[] copiedDdpHeader(final RawPeer peer, final int length)
    {
        return slice(peer.lastTerminate, DdpHeaderFlyweight.UNTAGGED_HEADER_LENGTH +
            TerminateFlyweight.CONTROL_LENGTH + TerminateFlyweight.SEGMENT_LENGTH_LENGTH, length);
    }

    private static byte[] bytes(final int length)
    {
        return new byte[length];
    }

    private static byte[] filled(final int length)
    {
        final byte[] bytes = new byte[length];
        java.util.Arrays.fill(bytes, (byte)0x5A);
        return bytes;
    }

    private static byte[] slice(final byte[] bytes, final int offset, final int length)
    {
        final byte[] slice = new byte[length];
        System.arraycopy(bytes, offset, slice, 0, length);
        return slice;
    }
}
