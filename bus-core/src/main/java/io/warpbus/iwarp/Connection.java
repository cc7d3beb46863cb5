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
import java.lang.invoke.VarHandle;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;

import io.warpbus.iwarp.mpa.Fpdu;
import io.warpbus.iwarp.mpa.MpaException;
import io.warpbus.iwarp.mpa.MpaFrameFlyweight;
import io.warpbus.iwarp.mpa.NegotiatedParameters;
import io.warpbus.iwarp.rdmap.TerminateError;
import org.agrona.CloseHelper;

/**
 * One TCP connection of the engine and its iWARP stream. It coordinates the parts that do the work and decides
 * what happens next: the {@link ConnectionLifecycle} (state, deadline, events reported), the {@link MpaStartup}
 * frames, the {@link FpduReader} (socket reads, FPDUs, CRCs), the {@link SegmentPlacer} (inbound placement), the
 * {@link SegmentAssembler} (outbound FPDUs and send completions) and the {@link TransmitRing} (socket writes).
 * See {@link ConnectionState} for the states.
 * <p>
 * Each connection owns a receive buffer and a transmit buffer of fixed size; nothing read from the wire changes
 * their size. Owned by the engine's thread.
 */
final class Connection
{
    private static final int FPDU_LIMIT = 256;
    private static final long TEARDOWN_LINGER_NS = TimeUnit.SECONDS.toNanos(2);
    private static final byte[] NO_DATA = new byte[0];

    private final RnicAgent agent;
    private final RnicContext context;
    private final RnicCounters counters;
    private final boolean initiator;
    private final SocketChannel channel;
    private final Object userContext;
    private final ConnectionLifecycle lifecycle;
    private final MpaStartup mpa;
    private final FpduReader reader;
    private final TransmitRing out;
    private final SegmentAssembler assembler;
    private final SegmentPlacer placer;
    private InetSocketAddress remoteAddress;
    private QueuePair qp;
    private boolean outputShutdown;
    private long cycleNs;
    private long lastWriteBytes;
    private long cycles;
    /** The engine's duty cycle that last served this connection ahead of the others ({@link #hasPostedWork()}). */
    long servedCycle;
    private long assembledCycle = -2;
    private boolean assembledInARow;
    private long holdingSinceNs;
    private boolean holding;
    private boolean pipelined;

    private Connection(
        final RnicAgent agent,
        final SocketChannel channel,
        final boolean initiator,
        final ConnectionParameters parameters,
        final Object userContext,
        final ConnectionState state,
        final long deadlineNs)
    {
        this.agent = agent;
        this.context = agent.context();
        this.counters = agent.counters();
        this.channel = channel;
        this.initiator = initiator;
        this.userContext = userContext;
        lifecycle = new ConnectionLifecycle(state, deadlineNs);
        mpa = new MpaStartup(context.mpaSettings(), parameters);
        reader = new FpduReader(context.ioBufferLength(), context.directPlacement());
        out = new TransmitRing(context.ioBufferLength(), new CRC32C());
        assembler = new SegmentAssembler(this, out, reader.buffer(), counters.fpdusSent);
        placer = new SegmentPlacer(this, reader.buffer(), agent.rnic().stagTable(), assembler);
    }

    static void configure(final SocketChannel channel, final RnicContext context) throws IOException
    {
        channel.configureBlocking(false);
        channel.setOption(StandardSocketOptions.TCP_NODELAY, context.tcpNoDelay());
        channel.setOption(StandardSocketOptions.SO_SNDBUF, context.socketBufferLength());
        channel.setOption(StandardSocketOptions.SO_RCVBUF, context.socketBufferLength());
        channel.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
    }

    static Connection initiator(
        final RnicAgent agent,
        final SocketChannel channel,
        final QueuePair qp,
        final InetSocketAddress remote,
        final ConnectionParameters parameters,
        final Object userContext)
    {
        final Connection connection = new Connection(agent, channel, true, parameters, userContext,
            ConnectionState.CONNECTING, agent.nowNs() + agent.context().mpaTimeoutNs());
        connection.remoteAddress = remote;
        connection.bind(qp);
        return connection;
    }

    static Connection responder(
        final RnicAgent agent, final SocketChannel channel, final Object userContext, final long nowNs)
        throws IOException
    {
        final Connection connection = new Connection(agent, channel, false, null, userContext,
            ConnectionState.AWAIT_REQUEST, nowNs + agent.context().mpaTimeoutNs());
        connection.remoteAddress = (InetSocketAddress)channel.getRemoteAddress();
        return connection;
    }

    private void bind(final QueuePair queuePair)
    {
        qp = queuePair;
        queuePair.connection = this;
        placer.queuePair(queuePair);
        assembler.queuePair(queuePair);
    }

    int doWork(final long nowNs)
    {
        switch (lifecycle.state())
        {
            case CONNECTING:
                return pollConnect(nowNs);
            case AWAIT_REQUEST:
            case AWAIT_REPLY:
            {
                int work = readSocket();
                final ConnectionState state = lifecycle.state();
                if (ConnectionState.AWAIT_REQUEST == state || ConnectionState.AWAIT_REPLY == state)
                {
                    work += processMpaFrame(nowNs);
                }
                return work + writeSocket();
            }
            case AWAIT_DECISION:
                return readSocket() + writeSocket();
            case AWAIT_FIRST_FPDU:
            case RTS:
            case CLOSING:
                cycleNs = nowNs;
                return fullOperation();
            case TERMINATING:
            {
                final int work = writeSocket();
                if (0 == out.pending() && ConnectionState.TERMINATING == lifecycle.state())
                {
                    close();
                }
                return work;
            }
            default:
                return 0;
        }
    }

    /**
     * Full operation: send what is queued first (a work request posted just before this cycle goes out without
     * waiting behind a socket read), then read and place inbound FPDUs, then send what they produced (read
     * responses) and retire completions.
     */
    private int fullOperation()
    {
        cycles++;
        int work = transmit();
        final int received = readQuietly() + receiveFpdus();
        if (received > 0)
        {
            work += received + transmit();
        }
        if (null != qp && !lifecycle.state().isEnding())
        {
            work += assembler.retire();
        }
        if (ConnectionState.CLOSING == lifecycle.state())
        {
            closeWhenDrained();
        }
        return work;
    }

    private int transmit()
    {
        int work = 0;
        pipelined = false;
        if (lifecycle.state().isFullOperation())
        {
            final int assembled = assembler.assemble();
            if (assembled > 0 && assembledCycle != cycles)
            {
                assembledInARow = assembledCycle == cycles - 1;
                assembledCycle = cycles;
            }
            work += assembled;
        }
        if (holdForMore())
        {
            // Busy, not idle: the hold ends by the clock, and an idle strategy must not park through it.
            return work + 1;
        }
        return work + writeSocket();
    }

    /**
     * Transmit coalescing: should what is queued wait for the next duty cycles' FPDUs? Only while this connection
     * streams: its last socket write carried {@link RnicConfiguration#STREAMING_WRITE} bytes or more, and a hold
     * starts only in a duty cycle that assembles FPDUs right after one that did too. A message that comes after a
     * cycle with nothing to send (a ping-pong's next ping, whatever its size; the first message after a quiet
     * spell; a lone order) is written at once. A hold lasts while less than {@link RnicContext#coalesceBytes()} are
     * queued, for up to {@link RnicContext#coalesceHoldNs()} from the duty cycle that began it; the clock is read
     * once a cycle, so a hold lasts at least one cycle. The rest of a message the assembler began handing to TCP in
     * this cycle ({@link #flush()}) is never held: it is part of a message already on its way. A stream of small
     * messages then costs one TCP write per hold or per 64 KiB instead of one per duty cycle (docs/performance.md,
     * "Coalescing a stream's writes"); when the stream thins, the write that ends a hold is small and the
     * connection sends at once again.
     */
    private boolean holdForMore()
    {
        final long pending = out.pending();
        final long holdNs = context.coalesceHoldNs();
        if (0 == pending || pipelined || lastWriteBytes < RnicConfiguration.STREAMING_WRITE ||
            pending >= context.coalesceBytes() || (!holding && !assembledInARow) ||
            ConnectionState.RTS != lifecycle.state())
        {
            holding = false;
            return false;
        }
        if (!holding)
        {
            holding = true;
            holdingSinceNs = cycleNs;
        }
        if (cycleNs - holdingSinceNs < holdNs)
        {
            return true;
        }
        holding = false;
        return false;
    }

    private int receiveFpdus()
    {
        final FpduReader reader = this.reader;
        int count = 0;
        while (count < FPDU_LIMIT && lifecycle.state().receivesFpdus())
        {
            if (reader.placingDirectly())
            {
                final MemoryRegion target = reader.directRegion();
                if (!target.isValid())
                {
                    reader.stopPlacingInto(target);
                    failPlacementInto(target);
                    break;
                }
                final int placed = reader.completeDirect();
                if (FpduReader.DIRECT_PENDING == placed)
                {
                    break;
                }
                if (FpduReader.DIRECT_CRC_MISMATCH == placed)
                {
                    onCrcMismatch("an FPDU placed straight from the socket");
                    break;
                }
                // As for a buffered FPDU: its payload is visible before anything a later FPDU places.
                VarHandle.releaseFence();
                counters.fpdusReceived.incrementOrdered();
                counters.fpdusPlacedDirectly.incrementOrdered();
                count++;
                continue;
            }
            final int ulpduLength = reader.nextUlpduLength();
            if (FpduReader.INCOMPLETE == ulpduLength)
            {
                placeStraightFromSocket();
                break;
            }
            final int fpduLength = Fpdu.fpduLength(ulpduLength);
            if (!reader.crcMatches(fpduLength))
            {
                onCrcMismatch("an FPDU of " + fpduLength + " bytes");
                break;
            }
            final int result = placer.onFpdu(reader.start(), ulpduLength);
            if (SegmentPlacer.BLOCKED == result)
            {
                break;
            }
            reader.consume(fpduLength);
            counters.fpdusReceived.incrementOrdered();
            count++;
            if (SegmentPlacer.FAILED == result)
            {
                break;
            }
        }
        if (reader.endedInsideFpdu() && lifecycle.state().receivesFpdus())
        {
            fail(TerminateError.MPA_CONNECTION_LOST, -1, 0, 0, "the peer closed the connection " +
                (reader.placingDirectly() ? "inside an FPDU being placed straight from the socket" :
                reader.buffered() + " bytes into an FPDU") + " (truncated frame)");
        }
        return count;
    }

    private void placeStraightFromSocket()
    {
        final int ulpduLength = reader.directCandidate();
        if (FpduReader.INCOMPLETE != ulpduLength)
        {
            final int index = placer.directWriteIndex(reader.start(), ulpduLength);
            if (index >= 0)
            {
                reader.placeDirectly(placer.directRegion(), index, ulpduLength);
            }
        }
    }

    private void failPlacementInto(final MemoryRegion region)
    {
        fail(TerminateError.DDP_TAGGED_INVALID_STAG, -1, 0, 0, "memory region 0x" + Integer.toHexString(region.stag()) +
            " was " + (MemoryRegion.DEREGISTERED == region.state() ? "deregistered" : "invalidated") +
            " while an RDMA Write was being placed into it");
    }

    private void onCrcMismatch(final String what)
    {
        counters.crcErrors.incrementOrdered();
        fail(TerminateError.MPA_CRC, -1, 0, 0, "CRC32C mismatch in " + what + ": computed 0x" +
            Integer.toHexString(reader.computedCrc()) + ", received 0x" + Integer.toHexString(reader.receivedCrc()));
    }

    // ---------------------------------------------------------------------------------------------------------
    // Socket I/O

    private int readQuietly()
    {
        try
        {
            return onRead(reader.readQuietly(channel));
        }
        catch (final IOException ex)
        {
            onIoError("read failed", ex);
            return 1;
        }
    }

    private int readSocket()
    {
        try
        {
            return onRead(reader.read(channel));
        }
        catch (final IOException ex)
        {
            onIoError("read failed", ex);
            return 1;
        }
    }

    private int onRead(final int read)
    {
        if (read > 0)
        {
            counters.bytesReceived.getAndAddOrdered(read);
            return 1;
        }
        if (FpduReader.END_OF_STREAM == read)
        {
            onEndOfStream();
            return 1;
        }
        return 0;
    }

    /**
     * Write what the transmit buffer holds now, from within assembly. A trailer whose CRC was deferred waits for
     * the next write, with the message's next FPDU.
     */
    void flush()
    {
        pipelined = true;
        writeOnce();
    }

    /**
     * Write what the transmit buffer holds: a write that stopped before a deferred CRC's trailer is followed by one
     * for the rest, since nothing more is coming in this cycle.
     */
    private int writeSocket()
    {
        final int work = writeOnce();
        return work > 0 && out.stoppedAtDeferredCrc() ? work + writeOnce() : work;
    }

    private int writeOnce()
    {
        if (0 == out.pending())
        {
            return 0;
        }
        final long written;
        try
        {
            written = out.write(channel);
        }
        catch (final IOException ex)
        {
            onIoError("write failed", ex);
            return 1;
        }
        counters.socketWrites.incrementOrdered();
        lastWriteBytes = written;
        if (written <= 0)
        {
            return 0;
        }
        counters.bytesSent.getAndAddOrdered(written);
        return 1;
    }

    /**
     * A region is being deregistered: if an RDMA Write is being placed into it straight from the socket, the
     * connection ends with an invalid-STag Terminate; if bytes of it are still queued for the socket, the connection
     * cannot send them and is aborted rather than read memory the application may now unmap.
     */
    void onDeregistered(final MemoryRegion region)
    {
        if (reader.stopPlacingInto(region) && !lifecycle.isClosed())
        {
            failPlacementInto(region);
        }
        if (!lifecycle.isClosed() && out.references(region))
        {
            abort("memory region 0x" + Integer.toHexString(region.stag()) +
                " was deregistered while its data was still queued for sending");
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // MPA startup

    private int pollConnect(final long nowNs)
    {
        try
        {
            if (!channel.finishConnect())
            {
                return 0;
            }
        }
        catch (final IOException ex)
        {
            connectFailed("cannot connect to " + remoteAddress + ": " + ex.getMessage());
            return 1;
        }
        if (connectedToItself(channel))
        {
            // Nothing listened, and the kernel gave this socket the port it asked for (TCP simultaneous open with
            // itself, possible on loopback in the ephemeral range): a refusal, and the caller retries as after one.
            // Reset, not closed, so that no TIME_WAIT keeps a listener from that port for a minute.
            connectFailed("cannot connect to " + remoteAddress + ": connected to itself, nothing listens there");
            return 1;
        }
        final String problem = mpa.requestProblem();
        if (null != problem)
        {
            connectFailed(problem);
            return 1;
        }
        mpa.writeRequest(out);
        lifecycle.moveTo(ConnectionState.AWAIT_REPLY, nowNs + context.mpaTimeoutNs());
        return 1;
    }

    private int processMpaFrame(final long nowNs)
    {
        final boolean awaitRequest = ConnectionState.AWAIT_REQUEST == lifecycle.state();
        final int frameLength = mpa.peerFrameLength(reader.buffer(), reader.start(), reader.buffered(),
            awaitRequest ? MpaFrameFlyweight.Kind.REQUEST : MpaFrameFlyweight.Kind.REPLY);
        if (MpaStartup.INVALID == frameLength)
        {
            mpaExchangeFailed(mpa.problem() + " from " + remoteAddress);
            return 1;
        }
        if (MpaStartup.INCOMPLETE == frameLength)
        {
            return 0;
        }
        if (awaitRequest)
        {
            onRequest(frameLength, nowNs);
        }
        else
        {
            onReply(frameLength);
        }
        return 1;
    }

    private void onRequest(final int frameLength, final long nowNs)
    {
        final String refusal = mpa.refusal();
        if (null != refusal)
        {
            agent.onError(new IwarpException("refused MPA request from " + remoteAddress + ": " + refusal));
            rejectWith(refusal.getBytes(StandardCharsets.US_ASCII), refusal);
            reader.consume(frameLength);
            return;
        }
        mpa.keepRequest(reader.buffer(), reader.start(), frameLength);
        reader.consume(frameLength);

        InetSocketAddress local = null;
        try
        {
            local = (InetSocketAddress)channel.getLocalAddress();
        }
        catch (final IOException ignore)
        {
            // The address is informational; the request can still be decided.
        }
        final ConnectRequest request = new ConnectRequest(agent.rnic(), this, remoteAddress, local,
            mpa.peerApplicationData(), mpa.peerRevision(), mpa.peerIrd(), mpa.peerOrd(), mpa.peerEnhanced());
        lifecycle.moveTo(ConnectionState.AWAIT_DECISION, nowNs + context.mpaTimeoutNs());
        agent.publish(new ConnectionEvent(ConnectionEventType.CONNECT_REQUEST, null, request, remoteAddress,
            request.privateData(), null, null, false, userContext));
    }

    private void onReply(final int frameLength)
    {
        if (mpa.peerRejected())
        {
            final byte[] data = mpa.peerApplicationData();
            reader.consume(frameLength);
            final String reason = "rejected by " + remoteAddress +
                (data.length > 0 ? ": " + printable(data) : "");
            finish(ConnectionEventType.REJECTED, QueuePairState.ERROR, reason, null, false, data);
            close();
            return;
        }
        final NegotiatedParameters result;
        try
        {
            result = mpa.negotiateAsInitiator();
        }
        catch (final MpaException ex)
        {
            reader.consume(frameLength);
            if (mpa.peerWantsMarkers())
            {
                mpaExchangeFailed(ex.getMessage());
                return;
            }
            // RFC 6581 section 9: report IRD or RTR trouble with a Terminate, then close.
            enterFullOperation(mpa.crcAfterFailedNegotiation(), 1, 1);
            fail(MpaException.INSUFFICIENT_IRD == ex.mpaErrorCode() ?
                TerminateError.MPA_INSUFFICIENT_IRD : TerminateError.MPA_NO_MATCHING_RTR, -1, 0, 0, ex.getMessage());
            return;
        }
        reader.consume(frameLength);
        enterFullOperation(result.crc(), result.ird(), result.ord());
        if (result.peerToPeer())
        {
            assembler.emitReadyToReceive(result.rtrType());
        }
        lifecycle.moveTo(ConnectionState.RTS, Long.MAX_VALUE);
        qp.state(QueuePairState.RTS);
        counters.connectionsEstablished.incrementOrdered();
        publishOnce(ConnectionEventType.ESTABLISHED, null, null, false, result.peerPrivateData());
    }

    void accept(final QueuePair queuePair, final ConnectionParameters acceptParameters)
    {
        final NegotiatedParameters result = mpa.negotiateAsResponder(acceptParameters);
        final byte[] data = acceptParameters.privateData();
        final String problem = MpaStartup.replyProblem(result, data);
        if (null != problem)
        {
            queuePair.state(QueuePairState.ERROR);
            queuePair.errorReason(problem);
            agent.publish(new ConnectionEvent(ConnectionEventType.CONNECT_ERROR, queuePair, null, remoteAddress,
                NO_DATA, problem, null, false, userContext));
            agent.startFlush(queuePair);
            rejectWith(NO_DATA, problem);
            return;
        }
        bind(queuePair);
        mpa.writeReply(out, result, data);
        enterFullOperation(result.crc(), result.ird(), result.ord());
        placer.expectFirstFpdu(result.peerToPeer() ? result.rtrType() : null);
        // Without an RTR the initiator's first FPDU is application data that may come at any time: report the
        // connection now and hold this side's FPDUs until it arrives (RFC 5044 section 7.1.2, rule 4).
        lifecycle.moveTo(ConnectionState.AWAIT_FIRST_FPDU,
            result.peerToPeer() ? agent.nowNs() + context.mpaTimeoutNs() : Long.MAX_VALUE);
        queuePair.state(QueuePairState.RTS);
        if (!result.peerToPeer())
        {
            counters.connectionsEstablished.incrementOrdered();
            publishOnce(ConnectionEventType.ESTABLISHED, null, null, false, result.peerPrivateData());
        }
    }

    void reject(final byte[] privateData, final String reason)
    {
        rejectWith(privateData, reason);
    }

    private void rejectWith(final byte[] privateData, final String reason)
    {
        mpa.writeReject(out, privateData);
        lifecycle.closeReason(reason);
        lifecycle.moveTo(ConnectionState.TERMINATING, agent.nowNs() + TEARDOWN_LINGER_NS);
    }

    /**
     * The responder's first FPDU from the initiator has arrived and was valid: full operation in both directions.
     */
    void onFirstFpdu()
    {
        if (ConnectionState.AWAIT_FIRST_FPDU == lifecycle.state())
        {
            lifecycle.moveTo(ConnectionState.RTS, Long.MAX_VALUE);
            if (!lifecycle.isEstablished())
            {
                counters.connectionsEstablished.incrementOrdered();
                publishOnce(ConnectionEventType.ESTABLISHED, null, null, false, mpa.negotiated().peerPrivateData());
            }
        }
    }

    private void enterFullOperation(final boolean crc, final int ird, final int ord)
    {
        reader.crcEnabled(crc);
        out.crcEnabled = crc;
        final ReadQueues reads = new ReadQueues(ird, ord);
        placer.readQueues(reads);
        assembler.fullOperation(reads, PathMtu.maxUlpdu(channel, context.maxFpduLength(), context.errorHandler()));
    }

    // ---------------------------------------------------------------------------------------------------------
    // Teardown

    /**
     * A protocol error in full operation: send a Terminate naming it, then close.
     *
     * @param error            the RFC error.
     * @param fpduOffset       offset in the receive buffer of the offending FPDU, or -1.
     * @param ddpHeaderLength  length of its DDP header to copy, 0 for none.
     * @param rdmaHeaderLength length of its RDMA header to copy, 0 for none.
     * @param reason           what was wrong, for the log and the event.
     */
    void fail(
        final TerminateError error,
        final int fpduOffset,
        final int ddpHeaderLength,
        final int rdmaHeaderLength,
        final String reason)
    {
        if (lifecycle.state().isEnding())
        {
            return;
        }
        final String message = "connection with " + remoteAddress + " terminated: " + reason + " [" +
            error.describe() + "]";
        agent.onError(new IwarpException(message));
        counters.connectionFailures.incrementOrdered();
        assembler.emitTerminate(error, fpduOffset, ddpHeaderLength, rdmaHeaderLength);
        counters.terminatesSent.incrementOrdered();
        lifecycle.closeReason(message);
        if (null != qp)
        {
            qp.state(QueuePairState.TERMINATE);
            qp.errorReason(message);
        }
        publishOnce(lifecycle.endEvent(), message, error, false, NO_DATA);
        lifecycle.moveTo(ConnectionState.TERMINATING, agent.nowNs() + TEARDOWN_LINGER_NS);
    }

    /**
     * The peer sent a Terminate.
     *
     * @param error  the error it names, or null when it names none the RFCs define.
     * @param detail what it said, in words.
     */
    void onTerminate(final TerminateError error, final String detail)
    {
        final String message = "connection with " + remoteAddress + " terminated by the peer: " + detail;
        agent.onError(new IwarpException(message));
        counters.terminatesReceived.incrementOrdered();
        counters.connectionFailures.incrementOrdered();
        lifecycle.closeReason(message);
        if (null != qp)
        {
            qp.errorReason(message);
        }
        finish(lifecycle.endEvent(), QueuePairState.ERROR, message, error, true, NO_DATA);
        close();
    }

    void disconnect(final String reason)
    {
        final ConnectionState state = lifecycle.state();
        if (state.isEnding())
        {
            return;
        }
        if (state.isMpaExchange())
        {
            finish(lifecycle.endEvent(), QueuePairState.CLOSED, reason, null, false, NO_DATA);
            close();
            return;
        }
        if (ConnectionState.RTS == state)
        {
            startClosing(reason);
        }
    }

    private void startClosing(final String reason)
    {
        lifecycle.closeReason(reason);
        lifecycle.moveTo(ConnectionState.CLOSING, agent.nowNs() + TEARDOWN_LINGER_NS);
        if (null != qp)
        {
            qp.state(QueuePairState.CLOSING);
        }
    }

    void abort(final String reason)
    {
        if (!lifecycle.isClosed())
        {
            lifecycle.closeReason(reason);
            finish(lifecycle.endEvent(), QueuePairState.ERROR, reason, null, false, NO_DATA);
            close();
        }
    }

    private void closeWhenDrained()
    {
        if (!assembler.isDrained(reader.inputEnded()) || 0 != out.pending())
        {
            return;
        }
        if (!outputShutdown)
        {
            outputShutdown = true;
            try
            {
                channel.shutdownOutput();
            }
            catch (final IOException ex)
            {
                reader.endInput();
            }
        }
        if (reader.inputEnded())
        {
            finish(ConnectionEventType.DISCONNECTED, QueuePairState.CLOSED, lifecycle.closeReason(), null, false,
                NO_DATA);
            close();
        }
    }

    private void onEndOfStream()
    {
        switch (lifecycle.state())
        {
            case AWAIT_REQUEST:
            case AWAIT_DECISION:
                lifecycle.closeReason("the peer closed the connection during the MPA exchange");
                close();
                break;
            case AWAIT_REPLY:
                connectFailed("the peer closed the connection before sending an MPA reply");
                break;
            case AWAIT_FIRST_FPDU:
                finish(ConnectionEventType.CONNECT_ERROR, QueuePairState.ERROR,
                    "the peer closed the connection before its first FPDU", null, false, NO_DATA);
                close();
                break;
            case RTS:
                startClosing("closed by the peer");
                break;
            default:
                break;
        }
    }

    private void onIoError(final String what, final IOException ex)
    {
        final String reason = what + " on the connection with " + remoteAddress + ": " + ex.getMessage();
        if (!lifecycle.state().isEnding())
        {
            agent.onError(new IwarpException(reason, ex));
            counters.connectionFailures.incrementOrdered();
        }
        lifecycle.closeReason(reason);
        if (null != qp)
        {
            qp.errorReason(reason);
        }
        finish(lifecycle.endEvent(), QueuePairState.ERROR, reason, null, false, NO_DATA);
        close();
    }

    /**
     * The connection could not be made: an expected outcome (a peer not up yet is refused), reported in the
     * CONNECT_ERROR event and counted, not logged as a fault.
     */
    private void connectFailed(final String reason)
    {
        counters.connectionFailures.incrementOrdered();
        lifecycle.closeReason(reason);
        if (null != qp)
        {
            qp.errorReason(reason);
        }
        finish(ConnectionEventType.CONNECT_ERROR, QueuePairState.ERROR, reason, null, false, NO_DATA);
        close();
    }

    private void mpaExchangeFailed(final String reason)
    {
        if (initiator)
        {
            agent.onError(new IwarpException("MPA exchange with " + remoteAddress + " failed: " + reason));
            connectFailed("MPA exchange with " + remoteAddress + " failed: " + reason);
        }
        else
        {
            agent.onError(new IwarpException("MPA exchange failed: " + reason));
            counters.connectionFailures.incrementOrdered();
            lifecycle.closeReason(reason);
            close();
        }
    }

    /**
     * Check the deadline of the current state.
     *
     * @param nowNs the time.
     * @return true when it expired and the connection was ended.
     */
    boolean checkDeadline(final long nowNs)
    {
        if (!lifecycle.isExpired(nowNs))
        {
            return false;
        }
        final ConnectionState state = lifecycle.state();
        if (state.isMpaExchange())
        {
            counters.mpaTimeouts.incrementOrdered();
            final String reason = "connection with " + remoteAddress + " did not finish the MPA exchange within " +
                TimeUnit.NANOSECONDS.toMillis(context.mpaTimeoutNs()) + " ms (stuck in " + state + ")";
            if (ConnectionState.AWAIT_DECISION == state)
            {
                agent.onError(new IwarpException(reason + ": the application neither accepted nor rejected"));
                rejectWith(NO_DATA, reason);
                return true;
            }
            agent.onError(new IwarpException(reason));
            if (initiator || null != qp)
            {
                connectFailed(reason);
            }
            else
            {
                lifecycle.closeReason(reason);
                close();
            }
            return true;
        }
        final String closeReason = lifecycle.closeReason();
        finish(lifecycle.endEvent(), ConnectionState.CLOSING == state ? QueuePairState.CLOSED : QueuePairState.ERROR,
            null != closeReason ? closeReason : "teardown timed out", null, false, NO_DATA);
        close();
        return true;
    }

    private void finish(
        final ConnectionEventType type,
        final QueuePairState qpState,
        final String reason,
        final TerminateError error,
        final boolean byPeer,
        final byte[] privateData)
    {
        if (null != qp && !qp.state().isFinal())
        {
            if (QueuePairState.ERROR == qpState)
            {
                qp.errorReason(reason);
            }
        }
        publishOnce(type, reason, error, byPeer, privateData);
        if (null != qp)
        {
            qp.state(qp.state().isFinal() ? qp.state() : qpState);
        }
    }

    private void publishOnce(
        final ConnectionEventType type,
        final String reason,
        final TerminateError error,
        final boolean byPeer,
        final byte[] privateData)
    {
        // A responder's request nobody accepted yet has no queue pair to tell.
        if (null != qp && lifecycle.recordReport(type))
        {
            agent.publish(new ConnectionEvent(type, qp, null, remoteAddress, privateData, reason, error, byPeer,
                userContext));
        }
    }

    void close()
    {
        if (!lifecycle.close())
        {
            return;
        }
        CloseHelper.quietClose(channel);
        if (null != qp)
        {
            assembler.finalizeSendQueue();
            if (!qp.state().isFinal())
            {
                qp.state(QueuePairState.ERROR);
            }
            agent.startFlush(qp);
        }
    }

    /**
     * Is the socket connected to itself? If so, it is also set to reset when closed.
     *
     * @param channel a connected socket.
     * @return true when its local and remote addresses are one.
     */
    static boolean connectedToItself(final SocketChannel channel)
    {
        try
        {
            if (channel.getLocalAddress().equals(channel.getRemoteAddress()))
            {
                channel.setOption(StandardSocketOptions.SO_LINGER, 0);
                return true;
            }
            return false;
        }
        catch (final IOException ex)
        {
            // A socket that cannot tell is not known to be: the MPA exchange that follows reports what is wrong.
            return false;
        }
    }

    boolean isClosed()
    {
        return lifecycle.isClosed();
    }

    boolean awaitingDecision()
    {
        return ConnectionState.AWAIT_DECISION == lifecycle.state();
    }

    boolean inFullOperation()
    {
        return lifecycle.state().isFullOperation();
    }

    /**
     * Does the queue pair hold work requests or RDMA Reads to answer that the assembler has not begun?
     *
     * @return true when, in full operation, there is something new to send.
     */
    boolean hasPostedWork()
    {
        return null != qp && lifecycle.state().isFullOperation() && assembler.hasQueued();
    }

    NegotiatedParameters negotiated()
    {
        return mpa.negotiated();
    }

    InetSocketAddress remoteAddress()
    {
        return remoteAddress;
    }

    Object userContext()
    {
        return userContext;
    }

    String closeReason()
    {
        final String reason = lifecycle.closeReason();
        return null != reason ? reason : lifecycle.state().name();
    }

    static String printable(final byte[] data)
    {
        final StringBuilder sb = new StringBuilder(data.length);
        for (final byte b : data)
        {
            sb.append(b >= 0x20 && b < 0x7F ? (char)b : '.');
        }
        return sb.toString();
    }

    @Override
    public String toString()
    {
        return "Connection{" + (initiator ? "initiator" : "responder") + ", remote=" + remoteAddress + ", state=" +
            lifecycle.state() + '}';
    }
}
