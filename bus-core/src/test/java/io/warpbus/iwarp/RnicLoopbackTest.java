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

import java.util.Random;

import io.warpbus.iwarp.mpa.CrcPolicy;
import io.warpbus.iwarp.mpa.RtrType;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class RnicLoopbackTest
{
    private EnginePair pair;

    @AfterEach
    void tearDown()
    {
        if (null != pair)
        {
            pair.close();
        }
    }

    @Test
    void shouldSendIntoPostedReceiveBuffer()
    {
        pair = new EnginePair();
        final MemoryRegion recv = pair.serverPd.registerMemory(EnginePair.directBuffer(4096), Access.LOCAL_WRITE);
        assertEquals(QueuePair.POSTED, pair.serverQp.postRecv(7, recv, 0, 4096));
        pair.connect();

        final MemoryRegion src = pair.clientPd.registerMemory(EnginePair.directBuffer(4096), 0);
        src.buffer().putStringWithoutLengthAscii(0, "hello, iwarp");
        assertEquals(QueuePair.POSTED, pair.clientQp.postSend(11, src, 0, 12, QueuePair.SIGNALED));

        final EnginePair.WorkCompletionCopy sent = pair.awaitCompletion(pair.clientCq);
        assertEquals(11, sent.wrId);
        assertEquals(CompletionOpcode.SEND, sent.opcode);
        assertEquals(CompletionStatus.SUCCESS, sent.status);

        final EnginePair.WorkCompletionCopy received = pair.awaitCompletion(pair.serverCq);
        assertEquals(7, received.wrId);
        assertEquals(CompletionOpcode.RECV, received.opcode);
        assertEquals(CompletionStatus.SUCCESS, received.status);
        assertEquals(12, received.byteLength);
        assertEquals("hello, iwarp", recv.buffer().getStringWithoutLengthAscii(0, 12));
    }

    @ParameterizedTest
    @ValueSource(ints = { 1, 64, 1024, 65_000, 200_000, 1 << 20 })
    void shouldWriteIntoRemoteRegionAtOffset(final int length)
    {
        pair = new EnginePair();
        pair.connect();
        final MemoryRegion sink = pair.serverPd.registerMemory(
            EnginePair.directBuffer(length + 4096), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
        final MemoryRegion src = pair.clientPd.registerMemory(EnginePair.directBuffer(length), 0);
        final byte[] data = randomBytes(length, length);
        src.buffer().putBytes(0, data);

        assertEquals(QueuePair.POSTED, pair.clientQp.postWrite(
            1, src, 0, length, sink.stag(), sink.taggedOffset(100), QueuePair.SIGNALED));
        final EnginePair.WorkCompletionCopy wc = pair.awaitCompletion(pair.clientCq);
        assertEquals(CompletionOpcode.RDMA_WRITE, wc.opcode);
        assertEquals(CompletionStatus.SUCCESS, wc.status);

        final byte[] placed = new byte[length];
        pair.pumpUntil(() ->
        {
            sink.buffer().getBytes(100, placed);
            return java.util.Arrays.equals(data, placed);
        }, "the written bytes to be placed");
        assertEquals(0, sink.buffer().getByte(99));
        assertEquals(0, sink.buffer().getByte(100 + length));
    }

    @Test
    void shouldWriteInlineValuesCopiedAtPostTime()
    {
        pair = new EnginePair();
        pair.connect();
        final MemoryRegion sink = pair.serverPd.registerMemory(EnginePair.directBuffer(64), Access.REMOTE_WRITE);
        assertEquals(QueuePair.POSTED, pair.clientQp.postWriteInline(
            9, 0x1111_2222_3333_4444L, 0x5555_6666_7777_8888L, 0x0102_0304_0506_0708L, 20, sink.stag(),
            sink.taggedOffset(8), QueuePair.SIGNALED));
        assertEquals(QueuePair.INVALID_ARGUMENT, pair.clientQp.postWriteInline(
            9, 0, 0, 0, 25, sink.stag(), sink.address(), 0));
        final EnginePair.WorkCompletionCopy wc = pair.awaitCompletion(pair.clientCq);
        assertEquals(CompletionOpcode.RDMA_WRITE, wc.opcode);
        assertEquals(CompletionStatus.SUCCESS, wc.status);
        pair.pumpUntil(() -> sink.buffer().getInt(24, java.nio.ByteOrder.LITTLE_ENDIAN) == 0x0506_0708,
            "the inline write to land");
        assertEquals(0x1111_2222_3333_4444L, sink.buffer().getLong(8, java.nio.ByteOrder.LITTLE_ENDIAN));
        assertEquals(0x5555_6666_7777_8888L, sink.buffer().getLong(16, java.nio.ByteOrder.LITTLE_ENDIAN));
        assertEquals(0, sink.buffer().getInt(28));
        assertEquals(0, sink.buffer().getLong(0));
    }

    @ParameterizedTest
    @ValueSource(ints = { 0, 16, 4096, 150_000 })
    void shouldReadRemoteRegion(final int length)
    {
        pair = new EnginePair();
        pair.connect();
        final MemoryRegion source = pair.serverPd.registerMemory(
            EnginePair.directBuffer(Math.max(1, length)), Access.REMOTE_READ);
        final byte[] data = randomBytes(length, 99);
        source.buffer().putBytes(0, data);
        final MemoryRegion sink = pair.clientPd.registerMemory(
            EnginePair.directBuffer(Math.max(1, length)), Access.LOCAL_WRITE);

        assertEquals(QueuePair.POSTED, pair.clientQp.postRead(
            5, sink, 0, length, source.stag(), source.address(), QueuePair.SIGNALED));
        final EnginePair.WorkCompletionCopy wc = pair.awaitCompletion(pair.clientCq);
        assertEquals(5, wc.wrId);
        assertEquals(CompletionOpcode.RDMA_READ, wc.opcode);
        assertEquals(CompletionStatus.SUCCESS, wc.status);
        final byte[] read = new byte[length];
        sink.buffer().getBytes(0, read);
        assertArrayEquals(data, read);
    }

    @Test
    void shouldCompleteSendQueueInPostingOrderBehindAnOutstandingRead()
    {
        pair = new EnginePair();
        pair.connect();
        final MemoryRegion remote = pair.serverPd.registerMemory(
            EnginePair.directBuffer(1 << 20), Access.REMOTE_READ | Access.REMOTE_WRITE);
        final MemoryRegion local = pair.clientPd.registerMemory(EnginePair.directBuffer(1 << 20), Access.LOCAL_WRITE);

        assertEquals(QueuePair.POSTED, pair.clientQp.postRead(
            1, local, 0, 1 << 19, remote.stag(), remote.address(), QueuePair.SIGNALED));
        assertEquals(QueuePair.POSTED, pair.clientQp.postWrite(
            2, local, 1 << 19, 64, remote.stag(), remote.taggedOffset(0), QueuePair.SIGNALED));
        assertEquals(1, pair.awaitCompletion(pair.clientCq).wrId);
        assertEquals(2, pair.awaitCompletion(pair.clientCq).wrId);
    }

    @Test
    void shouldSegmentLargeSendsAndReassembleThem()
    {
        pair = new EnginePair();
        final int length = 300_000;
        final MemoryRegion recv = pair.serverPd.registerMemory(EnginePair.directBuffer(length), Access.LOCAL_WRITE);
        pair.serverQp.postRecv(1, recv, 0, length);
        pair.connect();
        final MemoryRegion src = pair.clientPd.registerMemory(EnginePair.directBuffer(length), 0);
        final byte[] data = randomBytes(length, 3);
        src.buffer().putBytes(0, data);
        pair.clientQp.postSend(2, src, 0, length, 0);

        final EnginePair.WorkCompletionCopy wc = pair.awaitCompletion(pair.serverCq);
        assertEquals(length, wc.byteLength);
        final byte[] received = new byte[length];
        recv.buffer().getBytes(0, received);
        assertArrayEquals(data, received);
    }

    @Test
    void shouldInvalidateStagOnSendWithInvalidate()
    {
        pair = new EnginePair();
        final MemoryRegion recv = pair.serverPd.registerMemory(EnginePair.directBuffer(64), Access.LOCAL_WRITE);
        final MemoryRegion exposed = pair.serverPd.registerMemory(
            EnginePair.directBuffer(64), Access.REMOTE_WRITE | Access.REMOTE_INVALIDATE);
        pair.serverQp.postRecv(1, recv, 0, 64);
        pair.connect();
        final MemoryRegion src = pair.clientPd.registerMemory(EnginePair.directBuffer(64), 0);
        pair.clientQp.postSendWithInvalidate(2, src, 0, 8, exposed.stag(), QueuePair.SOLICITED);

        final EnginePair.WorkCompletionCopy wc = pair.awaitCompletion(pair.serverCq);
        assertEquals(CompletionStatus.SUCCESS, wc.status);
        assertEquals(exposed.stag(), wc.invalidatedStag);
        assertEquals(WorkCompletion.FLAG_INVALIDATED | WorkCompletion.FLAG_SOLICITED, wc.flags);
        assertTrue(!exposed.isValid());
    }

    @ParameterizedTest
    @EnumSource(RtrType.class)
    void shouldEstablishWithEachReadyToReceiveType(final RtrType rtr)
    {
        pair = new EnginePair(new RnicContext().rtrTypes(rtr.bit()), new RnicContext().rtrTypes(rtr.bit()));
        if (RtrType.SEND == rtr)
        {
            final MemoryRegion recv = pair.serverPd.registerMemory(EnginePair.directBuffer(64), Access.LOCAL_WRITE);
            pair.serverQp.postRecv(99, recv, 0, 64);
        }
        pair.connect();
        assertEquals(rtr, pair.clientQp.negotiated().rtrType());
        assertEquals(rtr, pair.serverQp.negotiated().rtrType());
        if (RtrType.SEND == rtr)
        {
            final EnginePair.WorkCompletionCopy wc = pair.awaitCompletion(pair.serverCq);
            assertEquals(99, wc.wrId);
            assertEquals(0, wc.byteLength);
        }
    }

    @ParameterizedTest
    @EnumSource(CrcPolicy.class)
    void shouldNegotiateCrcByPolicy(final CrcPolicy clientPolicy)
    {
        pair = new EnginePair(
            new RnicContext().crcPolicy(CrcPolicy.PREFERRED), new RnicContext().crcPolicy(clientPolicy));
        pair.connect();
        final boolean expected = CrcPolicy.OFF != clientPolicy;
        assertEquals(expected, pair.clientQp.negotiated().crc());
        assertEquals(expected, pair.serverQp.negotiated().crc());
        exchangeOneWrite();
    }

    @Test
    void shouldUseCrcWhenResponderRequiresItOfAnInitiatorThatAsksNone()
    {
        pair = new EnginePair(
            new RnicContext().crcPolicy(CrcPolicy.REQUIRED), new RnicContext().crcPolicy(CrcPolicy.OFF));
        pair.connect();
        assertTrue(pair.clientQp.negotiated().crc());
        assertTrue(pair.serverQp.negotiated().crc());
        exchangeOneWrite();
    }

    @Test
    void shouldConnectWithMpaRevisionOne()
    {
        pair = new EnginePair(new RnicContext(), new RnicContext().mpaRevision(1));
        pair.connect();
        assertEquals(1, pair.clientQp.negotiated().revision());
        assertEquals(1, pair.serverQp.negotiated().revision());
        exchangeOneWrite();
    }

    @Test
    void shouldNegotiateIrdAndOrd()
    {
        pair = new EnginePair(new RnicContext().ird(4).ord(2), new RnicContext().ird(8).ord(6));
        pair.connect();
        // client ORD 6 <= server IRD (grown from 4 to 6); server ORD 2 <= client IRD 8.
        assertEquals(6, pair.clientQp.negotiated().ord());
        assertEquals(6, pair.serverQp.negotiated().ird());
        assertEquals(2, pair.serverQp.negotiated().ord());
        assertEquals(8, pair.clientQp.negotiated().ird());
    }

    @Test
    void shouldCarryPrivateDataBothWaysAndRejectWithReason()
    {
        pair = new EnginePair();
        final java.net.InetSocketAddress address = pair.listen();
        pair.client.connectionManager().connect(
            pair.clientQp, address, new ConnectionParameters().privateData(new byte[] { 1, 2, 3 }), null);
        final ConnectionEvent request = pair.awaitServerEvent(ConnectionEventType.CONNECT_REQUEST);
        assertArrayEquals(new byte[] { 1, 2, 3 }, request.privateData());
        request.request().reject("no room".getBytes(java.nio.charset.StandardCharsets.US_ASCII));

        final ConnectionEvent rejected = pair.awaitClientEvent(ConnectionEventType.REJECTED);
        assertEquals("no room", new String(rejected.privateData(), java.nio.charset.StandardCharsets.US_ASCII));
        assertEquals(QueuePairState.ERROR, pair.clientQp.state());
    }

    @Test
    void shouldDisconnectGracefullyAndNotifyBothSides()
    {
        pair = new EnginePair();
        final MemoryRegion recv = pair.serverPd.registerMemory(EnginePair.directBuffer(64), Access.LOCAL_WRITE);
        pair.serverQp.postRecv(1, recv, 0, 64);
        pair.serverQp.postRecv(2, recv, 0, 64);
        pair.connect();
        final MemoryRegion src = pair.clientPd.registerMemory(EnginePair.directBuffer(64), 0);
        pair.clientQp.postSend(3, src, 0, 8, 0);
        pair.clientQp.disconnect();

        pair.awaitClientEvent(ConnectionEventType.DISCONNECTED);
        pair.awaitServerEvent(ConnectionEventType.DISCONNECTED);
        assertEquals(QueuePairState.CLOSED, pair.clientQp.state());
        final EnginePair.WorkCompletionCopy first = pair.awaitCompletion(pair.serverCq);
        assertEquals(CompletionStatus.SUCCESS, first.status);
        final EnginePair.WorkCompletionCopy flushed = pair.awaitCompletion(pair.serverCq);
        assertEquals(2, flushed.wrId);
        assertEquals(CompletionStatus.WORK_REQUEST_FLUSHED, flushed.status);
    }

    private void exchangeOneWrite()
    {
        final MemoryRegion sink = pair.serverPd.registerMemory(EnginePair.directBuffer(64), Access.REMOTE_WRITE);
        final MemoryRegion src = pair.clientPd.registerMemory(EnginePair.directBuffer(64), 0);
        src.buffer().putLong(0, 0x0123_4567_89AB_CDEFL);
        pair.clientQp.postWrite(1, src, 0, 8, sink.stag(), sink.address(), QueuePair.SIGNALED);
        assertEquals(CompletionStatus.SUCCESS, pair.awaitCompletion(pair.clientCq).status);
        final UnsafeBuffer sinkBuffer = sink.buffer();
        pair.pumpUntil(() -> sinkBuffer.getLong(0) == 0x0123_4567_89AB_CDEFL, "the write to land");
    }

    static byte[] randomBytes(final int length, final long seed)
    {
        final byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }
}
