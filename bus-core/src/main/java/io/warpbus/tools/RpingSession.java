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
package io.warpbus.tools;

import java.io.PrintStream;
import java.nio.ByteOrder;

import io.warpbus.iwarp.CompletionOpcode;
import io.warpbus.iwarp.CompletionStatus;
import io.warpbus.iwarp.QueuePair;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One rping connection, driven only by its completions and connection events, as rdma-core's rping is: every
 * completion is accounted for in the state it arrives in, whatever the order the peer and the engine produce them.
 * <pre>
 *  client, per ping                               server, per ping
 *  AWAIT_READ_GO  : sent start info;              AWAIT_START : wait for the client's start info (RECV),
 *                   wait for the first go ahead                 then RDMA Read the ping data
 *                   (RECV) and own SEND done,     READING     : wait for the Read, then send go ahead
 *                   then send sink info           AWAIT_SINK  : wait for the sink info (RECV),
 *  AWAIT_WRITE_GO : wait for the second go ahead                then RDMA Write the data back
 *                   (RECV) and own SEND done,     WRITING     : wait for the Write, then send go ahead
 *                   check the data, next ping
 * </pre>
 * A RECV may complete before this side's own SEND does (a fast peer answers a Send before its completion is
 * polled), and the client's sink info may arrive while the server's Read is still in flight: such a message is
 * held until the state that consumes it. The receive buffer is re-posted as soon as its content is read, so the
 * peer always finds one; a second message before the first was consumed is a protocol error. The send buffer is
 * reused only after its previous SEND completed.
 */
final class RpingSession
{
    static final int INFO_LENGTH = 16;
    static final long WR_RECV = 1;
    static final long WR_READ = 2;
    static final long WR_WRITE = 3;
    static final long WR_SEND = 4;

    /** Where the session's work requests go: the queue pair in the tool, a recording fake in tests. */
    interface Verbs
    {
        /**
         * Post the 16-byte receive buffer.
         *
         * @return {@link QueuePair#POSTED} or the error.
         */
        int postRecv();

        /**
         * Send the 16 bytes of the send buffer.
         *
         * @return {@link QueuePair#POSTED} or the error.
         */
        int postSend();

        /**
         * RDMA Read into the start of the RDMA buffer.
         *
         * @param length        bytes.
         * @param remoteStag    the peer's STag.
         * @param remoteAddress the peer's tagged offset.
         * @return {@link QueuePair#POSTED} or the error.
         */
        int postRead(int length, int remoteStag, long remoteAddress);

        /**
         * RDMA Write from the start of the RDMA buffer.
         *
         * @param length        bytes.
         * @param remoteStag    the peer's STag.
         * @param remoteAddress the peer's tagged offset.
         * @return {@link QueuePair#POSTED} or the error.
         */
        int postWrite(int length, int remoteStag, long remoteAddress);
    }

    /**
     * A registered buffer as the peer names it.
     *
     * @param buffer  the memory.
     * @param address its tagged offset (virtual address).
     * @param stag    its STag.
     */
    record Region(UnsafeBuffer buffer, long address, int stag)
    {
    }

    enum State
    {
        AWAIT_READ_GO, AWAIT_WRITE_GO, AWAIT_START, READING, AWAIT_SINK, WRITING, DONE, FAILED
    }

    private final boolean client;
    private final int size;
    private final int count;
    private final boolean validate;
    private final boolean verbose;
    private final PrintStream out;
    private final UnsafeBuffer recvBuffer;
    private final UnsafeBuffer sendBuffer;
    private final Region rdma;
    private final Region start;
    private final Verbs verbs;

    private State state;
    private boolean sendInFlight;
    private boolean rdmaDone;
    private int messagesHeld;
    private long heldAddress;
    private int heldStag;
    private int heldLength;
    private int pings;
    private int startCharacter = 'A';
    private String failure;

    RpingSession(
        final Rping.Options options,
        final PrintStream out,
        final UnsafeBuffer recvBuffer,
        final UnsafeBuffer sendBuffer,
        final Region rdma,
        final Region start,
        final Verbs verbs)
    {
        this.client = options.client;
        this.size = options.size;
        this.count = options.count;
        this.validate = options.validate;
        this.verbose = options.verbose;
        this.out = out;
        this.recvBuffer = recvBuffer;
        this.sendBuffer = sendBuffer;
        this.rdma = rdma;
        this.start = start;
        this.verbs = verbs;
        state = client ? State.AWAIT_READ_GO : State.AWAIT_START;
    }

    /**
     * Post the first receive (before connecting or accepting).
     */
    void postFirstRecv()
    {
        check(verbs.postRecv(), "post recv");
    }

    /**
     * The connection is established: the client sends its first start info.
     */
    void onEstablished()
    {
        if (client && State.AWAIT_READ_GO == state && 0 == pings && !sendInFlight)
        {
            sendStartInfo();
        }
    }

    /**
     * Account for one completion.
     *
     * @param wrId       the work request id.
     * @param opcode     what completed.
     * @param status     how.
     * @param byteLength bytes received, for a RECV.
     */
    void onCompletion(final long wrId, final CompletionOpcode opcode, final CompletionStatus status,
        final int byteLength)
    {
        if (finished())
        {
            return;
        }
        if (CompletionStatus.SUCCESS != status)
        {
            if (CompletionStatus.WORK_REQUEST_FLUSHED == status)
            {
                onConnectionEnded("the connection ended (work request flushed)");
            }
            else
            {
                fail("cq completion failed status " + status + " (" + opcode + ")");
            }
            return;
        }
        switch (opcode)
        {
            case RECV:
                onRecv(wrId, byteLength);
                break;
            case SEND:
                if (WR_SEND != wrId || !sendInFlight)
                {
                    fail("unexpected SEND completion in state " + state);
                    return;
                }
                sendInFlight = false;
                break;
            case RDMA_READ:
                if (WR_READ != wrId || State.READING != state || rdmaDone)
                {
                    fail("unexpected RDMA_READ completion in state " + state);
                    return;
                }
                rdmaDone = true;
                break;
            case RDMA_WRITE:
                if (WR_WRITE != wrId || State.WRITING != state || rdmaDone)
                {
                    fail("unexpected RDMA_WRITE completion in state " + state);
                    return;
                }
                rdmaDone = true;
                break;
            default:
                fail("unknown completion " + opcode);
                return;
        }
        advance();
    }

    /**
     * The connection ended (disconnected, failed, or flushed).
     *
     * @param reason why, in words.
     */
    void onConnectionEnded(final String reason)
    {
        if (finished())
        {
            return;
        }
        if (!client && State.AWAIT_START == state && 0 == messagesHeld && pings > 0)
        {
            // Between pings: the client is done. This is how an rping server run ends, possibly before the
            // completion of the last go ahead was polled: the client had it, or it would not have left.
            state = State.DONE;
            return;
        }
        if (0 == pings && State.AWAIT_START == state)
        {
            fail("the client left before its first ping: " + reason);
        }
        else
        {
            fail("the connection ended in state " + state + " after " + pings + " pings: " + reason);
        }
    }

    boolean finished()
    {
        return State.DONE == state || State.FAILED == state;
    }

    boolean succeeded()
    {
        return State.DONE == state;
    }

    String failure()
    {
        return failure;
    }

    State state()
    {
        return state;
    }

    int pings()
    {
        return pings;
    }

    /**
     * What the session waits for, for a timeout message.
     *
     * @return a description.
     */
    String waitingFor()
    {
        return state + (sendInFlight ? ", own SEND in flight" : "") + (messagesHeld > 0 ? ", message held" : "") +
            ", " + pings + " pings done";
    }

    private void onRecv(final long wrId, final int byteLength)
    {
        if (WR_RECV != wrId)
        {
            fail("RECV completion of an unknown work request " + wrId);
            return;
        }
        if (INFO_LENGTH != byteLength)
        {
            fail("Received bogus data, size " + byteLength);
            return;
        }
        if (messagesHeld > 0)
        {
            fail("the peer sent a message before this side consumed its last one (state " + state + ")");
            return;
        }
        heldAddress = recvBuffer.getLong(0, ByteOrder.BIG_ENDIAN);
        heldStag = recvBuffer.getInt(8, ByteOrder.BIG_ENDIAN);
        heldLength = recvBuffer.getInt(12, ByteOrder.BIG_ENDIAN);
        messagesHeld = 1;
        check(verbs.postRecv(), "post recv");
    }

    private void advance()
    {
        boolean progressed = true;
        while (progressed && !finished())
        {
            progressed = client ? advanceClient() : advanceServer();
        }
    }

    private boolean advanceClient()
    {
        if (0 == messagesHeld || sendInFlight)
        {
            return false;
        }
        messagesHeld = 0;
        if (State.AWAIT_READ_GO == state)
        {
            state = State.AWAIT_WRITE_GO;
            sendInfo(rdma.address(), rdma.stag(), size);
            return true;
        }
        if (validate)
        {
            for (int i = 0; i < size; i++)
            {
                if (start.buffer().getByte(i) != rdma.buffer().getByte(i))
                {
                    fail("data mismatch!");
                    return false;
                }
            }
        }
        if (verbose)
        {
            out.println("ping data: " + Rping.cString(rdma.buffer(), size));
        }
        rdma.buffer().setMemory(0, size, (byte)0);
        pings++;
        if (0 != count && pings >= count)
        {
            state = State.DONE;
            return false;
        }
        state = State.AWAIT_READ_GO;
        sendStartInfo();
        return true;
    }

    private boolean advanceServer()
    {
        switch (state)
        {
            case AWAIT_START:
                if (0 == messagesHeld)
                {
                    return false;
                }
                messagesHeld = 0;
                if (heldLength < 0 || heldLength > size)
                {
                    fail("client ping of " + heldLength + " bytes does not fit this server's " + size +
                        "-byte buffer (-S)");
                    return false;
                }
                rdmaDone = false;
                state = State.READING;
                check(verbs.postRead(heldLength, heldStag, heldAddress), "post read");
                return true;
            case READING:
                if (!rdmaDone || sendInFlight)
                {
                    return false;
                }
                if (verbose)
                {
                    out.println("server ping data: " + Rping.cString(rdma.buffer(), size));
                }
                state = State.AWAIT_SINK;
                sendInfo(0, 0, 0);
                return true;
            case AWAIT_SINK:
            {
                if (0 == messagesHeld)
                {
                    return false;
                }
                messagesHeld = 0;
                final int length = Math.min(Rping.strlen(rdma.buffer(), size) + 1, size);
                if (length > heldLength)
                {
                    fail("client sink of " + heldLength + " bytes is smaller than the " + length + "-byte ping");
                    return false;
                }
                rdmaDone = false;
                state = State.WRITING;
                check(verbs.postWrite(length, heldStag, heldAddress), "post write");
                return true;
            }
            case WRITING:
                if (!rdmaDone || sendInFlight)
                {
                    return false;
                }
                pings++;
                state = State.AWAIT_START;
                sendInfo(0, 0, 0);
                return true;
            default:
                return false;
        }
    }

    private void sendStartInfo()
    {
        Rping.fillPattern(start.buffer(), size, pings, startCharacter);
        startCharacter = startCharacter >= 'z' ? 'A' : startCharacter + 1;
        sendInfo(start.address(), start.stag(), size);
    }

    private void sendInfo(final long address, final int stag, final int length)
    {
        sendBuffer.putLong(0, address, ByteOrder.BIG_ENDIAN);
        sendBuffer.putInt(8, stag, ByteOrder.BIG_ENDIAN);
        sendBuffer.putInt(12, length, ByteOrder.BIG_ENDIAN);
        sendInFlight = true;
        check(verbs.postSend(), "post send");
    }

    private void check(final int result, final String what)
    {
        if (QueuePair.POSTED != result && !finished())
        {
            fail(what + " error " + result);
        }
    }

    private void fail(final String reason)
    {
        if (!finished())
        {
            failure = reason;
            state = State.FAILED;
        }
    }
}
