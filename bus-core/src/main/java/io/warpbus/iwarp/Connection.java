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
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;

import io.warpbus.iwarp.mpa.Fpdu;
import io.warpbus.iwarp.mpa.MpaException;
import io.warpbus.iwarp.mpa.MpaFrameFlyweight;
import io.warpbus.iwarp.mpa.MpaNegotiation;
import io.warpbus.iwarp.mpa.MpaSettings;
import io.warpbus.iwarp.mpa.NegotiatedParameters;
import io.warpbus.iwarp.rdmap.TerminateError;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One TCP connection of the engine and its iWARP stream: the MPA startup exchange, then full operation with a
 * {@link Receiver} and a {@link Transmitter}, then teardown.
 * <pre>
 *  initiator: CONNECTING -&gt; AWAIT_REPLY --------------------------&gt; RTS -&gt; CLOSING -&gt; CLOSED
 *  responder: AWAIT_REQUEST -&gt; AWAIT_DECISION -&gt; AWAIT_FIRST_FPDU -&gt; RTS -&gt; CLOSING -&gt; CLOSED
 *  any error in full operation: -&gt; TERMINATING (Terminate flushed) -&gt; CLOSED
 * </pre>
 * Each connection owns a receive buffer and a transmit buffer of fixed size; nothing read from the wire changes
 * their size. Owned by the engine's thread.
 */
final class Connection
{
    static final int CONNECTING = 0;
    static final int AWAIT_REQUEST = 1;
    static final int AWAIT_DECISION = 2;
    static final int AWAIT_REPLY = 3;
    static final int AWAIT_FIRST_FPDU = 4;
    static final int RTS = 5;
    static final int CLOSING = 6;
    static final int TERMINATING = 7;
    static final int CLOSED = 8;

    private static final String[] STATE_NAMES = {
        "CONNECTING", "AWAIT_REQUEST", "AWAIT_DECISION", "AWAIT_REPLY", "AWAIT_FIRST_FPDU", "RTS", "CLOSING",
        "TERMINATING", "CLOSED" };
    private static final int FPDU_LIMIT = 256;
    /** Empty reads in a row after which a quiet connection's socket is read only every {@link #QUIET_READ_EVERY}. */
    private static final int QUIET_AFTER_EMPTY_READS = 128;
    private static final int QUIET_READ_EVERY = 8;
    private static final long TEARDOWN_LINGER_NS = TimeUnit.SECONDS.toNanos(2);
    private static final byte[] NO_DATA = new byte[0];

    final RnicAgent agent;
    final RnicContext context;
    final RnicCounters counters;
    final boolean initiator;
    final ByteBuffer rxBytes;
    final UnsafeBuffer rx;
    final TransmitRing out;
    final CRC32C crc32c = new CRC32C();
    final Receiver receiver;
    final Transmitter transmitter;
    int rxStart;
    int rxEnd;
    boolean crcEnabled;
    int maxUlpdu;
    QueuePair qp;
    ReadQueues reads;

    private final SocketChannel channel;
    private final Object userContext;
    private final MpaFrameFlyweight frame = new MpaFrameFlyweight();
    private InetSocketAddress remoteAddress;
    private ConnectionParameters parameters;
    private UnsafeBuffer requestFrame;
    private volatile NegotiatedParameters negotiated;
    private int state;
    private long deadlineNs = Long.MAX_VALUE;
    private boolean outcomePublished;
    private boolean established;
    private boolean disconnectPublished;
    private boolean inputEnded;
    private int emptyReads;
    private int quietCycles;
    private boolean outputShutdown;
    private String closeReason;

    private Connection(
        final RnicAgent agent,
        final SocketChannel channel,
        final boolean initiator,
        final Object userContext,
        final int state,
        final long deadlineNs)
    {
        this.agent = agent;
        this.context = agent.context();
        this.counters = agent.counters();
        this.channel = channel;
        this.initiator = initiator;
        this.userContext = userContext;
        this.state = state;
        this.deadlineNs = deadlineNs;
        rxBytes = ByteBuffer.allocateDirect(context.ioBufferLength());
        rx = new UnsafeBuffer(rxBytes);
        out = new TransmitRing(context.ioBufferLength(), crc32c);
        receiver = new Receiver(this, agent.rnic().stagTable());
        transmitter = new Transmitter(this);
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
        final Connection connection = new Connection(
            agent, channel, true, userContext, CONNECTING, agent.nowNs() + agent.context().mpaTimeoutNs());
        connection.remoteAddress = remote;
        connection.parameters = parameters;
        connection.qp = qp;
        qp.connection = connection;
        return connection;
    }

    static Connection responder(
        final RnicAgent agent, final SocketChannel channel, final Object userContext, final long nowNs)
        throws IOException
    {
        final Connection connection = new Connection(
            agent, channel, false, userContext, AWAIT_REQUEST, nowNs + agent.context().mpaTimeoutNs());
        connection.remoteAddress = (InetSocketAddress)channel.getRemoteAddress();
        return connection;
    }

    int doWork(final long nowNs)
    {
        switch (state)
        {
            case CONNECTING:
                return pollConnect(nowNs);
            case AWAIT_REQUEST:
            case AWAIT_REPLY:
            {
                int work = readSocket();
                if (AWAIT_REQUEST == state || AWAIT_REPLY == state)
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
                return fullOperation(nowNs);
            case TERMINATING:
            {
                final int work = writeSocket();
                if (0 == out.pending() && TERMINATING == state)
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
    private int fullOperation(final long nowNs)
    {
        int work = transmit();
        final int received = readQuietly() + receiveFpdus();
        if (received > 0)
        {
            work += received + transmit();
        }
        if (null != qp && state <= CLOSING)
        {
            work += transmitter.retire();
        }
        if (CLOSING == state)
        {
            closeWhenDrained();
        }
        return work;
    }

    private int transmit()
    {
        int work = 0;
        if (RTS == state || CLOSING == state)
        {
            work += transmitter.assemble();
        }
        return work + writeSocket();
    }

    private int receiveFpdus()
    {
        int count = 0;
        final UnsafeBuffer rx = this.rx;
        while (count < FPDU_LIMIT && state >= AWAIT_FIRST_FPDU && state <= CLOSING)
        {
            final int available = rxEnd - rxStart;
            if (available < Fpdu.LENGTH_FIELD_LENGTH)
            {
                break;
            }
            final int offset = rxStart;
            final int ulpduLength = Fpdu.ulpduLength(rx, offset);
            final int fpduLength = Fpdu.fpduLength(ulpduLength);
            if (available < fpduLength)
            {
                break;
            }
            if (crcEnabled)
            {
                final int crcOffset = offset + fpduLength - Fpdu.CRC_LENGTH;
                final int computed = Fpdu.crc32c(crc32c, rxBytes, offset, crcOffset - offset);
                final int received = Fpdu.getCrc(rx, crcOffset);
                if (computed != received)
                {
                    counters.crcErrors.incrementOrdered();
                    fail(TerminateError.MPA_CRC, -1, 0, 0, "CRC32C mismatch in an FPDU of " + fpduLength +
                        " bytes: computed 0x" + Integer.toHexString(computed) + ", received 0x" +
                        Integer.toHexString(received));
                    break;
                }
            }
            final int result = receiver.onFpdu(offset, ulpduLength);
            if (Receiver.BLOCKED == result)
            {
                break;
            }
            rxStart += fpduLength;
            counters.fpdusReceived.incrementOrdered();
            count++;
            if (Receiver.FAILED == result)
            {
                break;
            }
        }
        if (inputEnded && rxStart != rxEnd && state >= AWAIT_FIRST_FPDU && state <= CLOSING &&
            rxEnd - rxStart < Fpdu.fpduLength(rxEnd - rxStart >= 2 ? Fpdu.ulpduLength(rx, rxStart) : 0xFFFF))
        {
            fail(TerminateError.MPA_CONNECTION_LOST, -1, 0, 0, "the peer closed the connection " +
                (rxEnd - rxStart) + " bytes into an FPDU (truncated frame)");
        }
        return count;
    }

    // ---------------------------------------------------------------------------------------------------------
    // Socket I/O

    /**
     * Read the socket, but a connection that has been quiet for a while (the publisher's side of a bus link, which
     * only gets occasional credits) only every few duty cycles: an empty read is a system call that finds
     * nothing, and on a busy sender it was a sixth of the time. The first byte back makes it eager again.
     */
    private int readQuietly()
    {
        if (emptyReads >= QUIET_AFTER_EMPTY_READS && 0 != (++quietCycles & (QUIET_READ_EVERY - 1)))
        {
            return 0;
        }
        final int work = readSocket();
        emptyReads = 0 == work && rxStart == rxEnd ? Math.min(emptyReads + 1, QUIET_AFTER_EMPTY_READS) : 0;
        return work;
    }

    private int readSocket()
    {
        if (inputEnded)
        {
            return 0;
        }
        if (rxStart == rxEnd)
        {
            rxStart = 0;
            rxEnd = 0;
        }
        else if (rx.capacity() - rxEnd < Fpdu.MAX_RECEIVE_FPDU)
        {
            final int remaining = rxEnd - rxStart;
            if (remaining >= Fpdu.MAX_RECEIVE_FPDU)
            {
                // At least one whole FPDU is waiting: process it before reading more. Moving all of it to the front
                // now would copy up to the whole buffer on every cycle while this side catches up.
                return 0;
            }
            rx.putBytes(0, rx, rxStart, remaining);
            rxStart = 0;
            rxEnd = remaining;
        }
        final int read;
        try
        {
            rxBytes.limit(rx.capacity()).position(rxEnd);
            read = channel.read(rxBytes);
        }
        catch (final IOException ex)
        {
            onIoError("read failed", ex);
            return 1;
        }
        if (read < 0)
        {
            onEndOfStream();
            return 1;
        }
        if (read > 0)
        {
            rxEnd += read;
            counters.bytesReceived.getAndAddOrdered(read);
            return 1;
        }
        return 0;
    }

    /**
     * Write what the transmit buffer holds now, from within assembly.
     */
    void flush()
    {
        writeSocket();
    }

    private int writeSocket()
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
        if (written <= 0)
        {
            return 0;
        }
        counters.bytesSent.getAndAddOrdered(written);
        return 1;
    }

    /**
     * Reserve contiguous room in the transmit ring.
     *
     * @param length  bytes needed.
     * @param reserve bytes to keep free after them (room for a Terminate).
     * @return offset to write at, or -1 when there is no room until the socket drains.
     */
    int claim(final int length, final int reserve)
    {
        return out.claim(length, reserve);
    }

    /**
     * Bytes assembled and not yet written.
     *
     * @return pending bytes.
     */
    long txPending()
    {
        return out.pending();
    }

    private void commitFrame(final int offset, final int length)
    {
        out.commitRaw(offset, length);
    }

    /**
     * Frame the ULPDU written at {@code offset + 2} into an FPDU: length, pad and CRC, and commit it.
     *
     * @param offset      where the FPDU starts, as returned by {@link #claim(int, int)}.
     * @param ulpduLength length of the ULPDU.
     */
    void commitFpdu(final int offset, final int ulpduLength)
    {
        out.commitFpdu(offset, ulpduLength);
        counters.fpdusSent.incrementOrdered();
    }

    /**
     * Commit an FPDU whose payload stays in its region; see {@link TransmitRing#commitGathered}.
     */
    void commitGathered(
        final int offset, final int headerLength, final MemoryRegion region, final int index, final int length)
    {
        out.commitGathered(offset, headerLength, region, index, length);
        counters.fpdusSent.incrementOrdered();
    }

    /**
     * A region is being deregistered: if bytes of it are still queued for the socket, the connection cannot send
     * them and is aborted rather than read memory the application may now unmap.
     */
    void onDeregistered(final MemoryRegion region)
    {
        if (CLOSED != state && out.references(region))
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
        final MpaSettings settings = settings(parameters);
        final byte[] data = parameters.privateData();
        if (data.length > MpaNegotiation.maxApplicationData(settings.revision() >= 2))
        {
            connectFailed("private data of " + data.length + " bytes is longer than the " +
                MpaNegotiation.maxApplicationData(settings.revision() >= 2) + " an MPA revision " +
                settings.revision() + " request can carry");
            return 1;
        }
        final int offset = claim(MpaFrameFlyweight.MAX_FRAME_LENGTH, 0);
        commitFrame(offset, MpaNegotiation.encodeRequest(out.buffer, offset, settings, data));
        state = AWAIT_REPLY;
        deadlineNs = nowNs + context.mpaTimeoutNs();
        return 1;
    }

    private int processMpaFrame(final long nowNs)
    {
        final int available = rxEnd - rxStart;
        if (available < MpaFrameFlyweight.HEADER_LENGTH)
        {
            return 0;
        }
        frame.wrap(rx, rxStart);
        final MpaFrameFlyweight.Kind expected =
            AWAIT_REQUEST == state ? MpaFrameFlyweight.Kind.REQUEST : MpaFrameFlyweight.Kind.REPLY;
        final String invalid = frame.validate(expected);
        if (null != invalid)
        {
            mpaExchangeFailed(invalid + " from " + remoteAddress);
            return 1;
        }
        final int frameLength = frame.frameLength();
        if (available < frameLength)
        {
            return 0;
        }
        if (AWAIT_REQUEST == state)
        {
            onRequest(frameLength, nowNs);
        }
        else
        {
            onReply(frameLength, nowNs);
        }
        return 1;
    }

    private void onRequest(final int frameLength, final long nowNs)
    {
        final String refusal = MpaNegotiation.refusal(frame);
        if (null != refusal)
        {
            agent.onError(new IwarpException("refused MPA request from " + remoteAddress + ": " + refusal));
            rejectWith(refusal.getBytes(StandardCharsets.US_ASCII), refusal);
            rxStart += frameLength;
            return;
        }
        final byte[] copy = new byte[frameLength];
        rx.getBytes(rxStart, copy);
        requestFrame = new UnsafeBuffer(copy);
        rxStart += frameLength;

        final boolean enhanced = frame.isEnhanced();
        final int peerIrd = enhanced ? frame.enhancedIrdWord() & MpaFrameFlyweight.IRD_ORD_MASK :
            MpaFrameFlyweight.IRD_ORD_NO_NEGOTIATION;
        final int peerOrd = enhanced ? frame.enhancedOrdWord() & MpaFrameFlyweight.IRD_ORD_MASK :
            MpaFrameFlyweight.IRD_ORD_NO_NEGOTIATION;
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
            frame.applicationData(), frame.revision(), peerIrd, peerOrd, enhanced);
        state = AWAIT_DECISION;
        deadlineNs = nowNs + context.mpaTimeoutNs();
        agent.publish(new ConnectionEvent(ConnectionEventType.CONNECT_REQUEST, null, request, remoteAddress,
            request.privateData(), null, null, false, userContext));
    }

    private void onReply(final int frameLength, final long nowNs)
    {
        if (frame.hasFlag(MpaFrameFlyweight.FLAG_REJECT))
        {
            final byte[] data = frame.applicationData();
            rxStart += frameLength;
            final String reason = "rejected by " + remoteAddress +
                (data.length > 0 ? ": " + printable(data) : "");
            finish(ConnectionEventType.REJECTED, QueuePairState.ERROR, reason, null, false, data);
            close();
            return;
        }
        final NegotiatedParameters result;
        try
        {
            result = MpaNegotiation.negotiateAsInitiator(frame, settings(parameters));
        }
        catch (final MpaException ex)
        {
            rxStart += frameLength;
            if (frame.hasFlag(MpaFrameFlyweight.FLAG_MARKERS))
            {
                mpaExchangeFailed(ex.getMessage());
                return;
            }
            // RFC 6581 section 9: report IRD or RTR trouble with a Terminate, then close.
            enterFullOperation(settings(parameters).crcPolicy().requestFlag() ||
                frame.hasFlag(MpaFrameFlyweight.FLAG_CRC), 1, 1);
            fail(MpaException.INSUFFICIENT_IRD == ex.mpaErrorCode() ?
                TerminateError.MPA_INSUFFICIENT_IRD : TerminateError.MPA_NO_MATCHING_RTR, -1, 0, 0, ex.getMessage());
            return;
        }
        rxStart += frameLength;
        negotiated = result;
        enterFullOperation(result.crc(), result.ird(), result.ord());
        if (result.peerToPeer())
        {
            transmitter.emitReadyToReceive(result.rtrType());
        }
        state = RTS;
        deadlineNs = Long.MAX_VALUE;
        qp.state(QueuePairState.RTS);
        counters.connectionsEstablished.incrementOrdered();
        publishOnce(ConnectionEventType.ESTABLISHED, null, null, false, result.peerPrivateData());
    }

    void accept(final QueuePair queuePair, final ConnectionParameters acceptParameters)
    {
        frame.wrap(requestFrame, 0);
        final MpaSettings settings = settings(acceptParameters);
        final NegotiatedParameters result = MpaNegotiation.negotiateAsResponder(frame, settings);
        final byte[] data = acceptParameters.privateData();
        if (data.length > MpaNegotiation.maxApplicationData(result.enhanced()))
        {
            final String reason = "accept private data of " + data.length + " bytes is longer than the " +
                MpaNegotiation.maxApplicationData(result.enhanced()) + " the reply can carry";
            queuePair.state(QueuePairState.ERROR);
            queuePair.errorReason(reason);
            agent.publish(new ConnectionEvent(ConnectionEventType.CONNECT_ERROR, queuePair, null, remoteAddress,
                NO_DATA, reason, null, false, userContext));
            agent.startFlush(queuePair);
            rejectWith(NO_DATA, reason);
            return;
        }
        qp = queuePair;
        queuePair.connection = this;
        negotiated = result;
        final int offset = claim(MpaFrameFlyweight.MAX_FRAME_LENGTH, 0);
        commitFrame(offset, MpaNegotiation.encodeReply(out.buffer, offset, result, data));
        enterFullOperation(result.crc(), result.ird(), result.ord());
        receiver.expectFirstFpdu(result.peerToPeer() ? result.rtrType() : null);
        state = AWAIT_FIRST_FPDU;
        queuePair.state(QueuePairState.RTS);
        if (result.peerToPeer())
        {
            deadlineNs = agent.nowNs() + context.mpaTimeoutNs();
        }
        else
        {
            // Without an RTR the initiator's first FPDU is application data that may come at any time: report the
            // connection now and hold this side's FPDUs until it arrives (RFC 5044 section 7.1.2, rule 4).
            deadlineNs = Long.MAX_VALUE;
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
        final MpaFrameFlyweight request = null != requestFrame ? frame.wrap(requestFrame, 0) : frame;
        final int offset = claim(MpaFrameFlyweight.MAX_FRAME_LENGTH, 0);
        commitFrame(offset, MpaNegotiation.encodeReject(out.buffer, offset, request, privateData));
        closeReason = reason;
        state = TERMINATING;
        deadlineNs = agent.nowNs() + TEARDOWN_LINGER_NS;
    }

    /**
     * The responder's first FPDU from the initiator has arrived and was valid: full operation in both directions.
     */
    void onFirstFpdu()
    {
        if (AWAIT_FIRST_FPDU == state)
        {
            state = RTS;
            deadlineNs = Long.MAX_VALUE;
            if (!established)
            {
                counters.connectionsEstablished.incrementOrdered();
                publishOnce(ConnectionEventType.ESTABLISHED, null, null, false, negotiated.peerPrivateData());
            }
        }
    }

    private void enterFullOperation(final boolean crc, final int ird, final int ord)
    {
        crcEnabled = crc;
        out.crcEnabled = crc;
        maxUlpdu = maxUlpdu();
        reads = new ReadQueues(ird, ord);
    }

    private MpaSettings settings(final ConnectionParameters overrides)
    {
        final MpaSettings defaults = context.mpaSettings();
        return new MpaSettings(
            defaults.crcPolicy(),
            defaults.revision(),
            overrides.ird() >= 0 ? overrides.ird() : defaults.ird(),
            overrides.ord() >= 0 ? overrides.ord() : defaults.ord(),
            Math.max(defaults.maxIrd(), overrides.ird()),
            defaults.rtrTypes());
    }

    private int maxUlpdu()
    {
        int emss = 1460;
        try
        {
            final InetSocketAddress local = (InetSocketAddress)channel.getLocalAddress();
            final NetworkInterface nif = NetworkInterface.getByInetAddress(local.getAddress());
            final int mtu = null != nif ? nif.getMTU() : -1;
            if (mtu > 0)
            {
                // IP header, TCP header and the 12 bytes of the TCP timestamp option.
                emss = mtu - (local.getAddress() instanceof Inet6Address ? 40 : 20) - 20 - 12;
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            agent.onError(new IwarpException("cannot read the path MTU, assuming an MSS of 1460: " + ex, ex));
        }
        int ulpdu = Fpdu.mulpdu(emss);
        final int cap = context.maxFpduLength();
        if (0 != cap)
        {
            ulpdu = Math.min(ulpdu, ((cap - Fpdu.CRC_LENGTH) & ~3) - Fpdu.LENGTH_FIELD_LENGTH);
        }
        return ulpdu;
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
        if (state >= TERMINATING)
        {
            return;
        }
        final String message = "connection with " + remoteAddress + " terminated: " + reason + " [" +
            error.describe() + "]";
        agent.onError(new IwarpException(message));
        counters.connectionFailures.incrementOrdered();
        transmitter.emitTerminate(error, fpduOffset, ddpHeaderLength, rdmaHeaderLength);
        counters.terminatesSent.incrementOrdered();
        closeReason = message;
        if (null != qp)
        {
            qp.state(QueuePairState.TERMINATE);
            qp.errorReason(message);
        }
        publishOnce(endEvent(), message, error, false, NO_DATA);
        state = TERMINATING;
        deadlineNs = agent.nowNs() + TEARDOWN_LINGER_NS;
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
        closeReason = message;
        if (null != qp)
        {
            qp.errorReason(message);
        }
        finish(endEvent(),
            QueuePairState.ERROR, message, error, true, NO_DATA);
        close();
    }

    void disconnect(final String reason)
    {
        if (state >= TERMINATING)
        {
            return;
        }
        if (state <= AWAIT_FIRST_FPDU)
        {
            finish(endEvent(), QueuePairState.CLOSED, reason, null, false, NO_DATA);
            close();
            return;
        }
        if (RTS == state)
        {
            closeReason = reason;
            state = CLOSING;
            deadlineNs = agent.nowNs() + TEARDOWN_LINGER_NS;
            if (null != qp)
            {
                qp.state(QueuePairState.CLOSING);
            }
        }
    }

    void abort(final String reason)
    {
        if (CLOSED != state)
        {
            closeReason = reason;
            finish(endEvent(),
                QueuePairState.ERROR, reason, null, false, NO_DATA);
            close();
        }
    }

    private void closeWhenDrained()
    {
        if (!transmitter.isDrained(inputEnded) || 0 != out.pending())
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
                inputEnded = true;
            }
        }
        if (inputEnded)
        {
            finish(ConnectionEventType.DISCONNECTED, QueuePairState.CLOSED, closeReason, null, false, NO_DATA);
            close();
        }
    }

    private void onEndOfStream()
    {
        inputEnded = true;
        switch (state)
        {
            case AWAIT_REQUEST:
            case AWAIT_DECISION:
                closeReason = "the peer closed the connection during the MPA exchange";
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
                closeReason = "closed by the peer";
                state = CLOSING;
                deadlineNs = agent.nowNs() + TEARDOWN_LINGER_NS;
                if (null != qp)
                {
                    qp.state(QueuePairState.CLOSING);
                }
                break;
            default:
                break;
        }
    }

    private void onIoError(final String what, final IOException ex)
    {
        final String reason = what + " on the connection with " + remoteAddress + ": " + ex.getMessage();
        if (state < TERMINATING)
        {
            agent.onError(new IwarpException(reason, ex));
            counters.connectionFailures.incrementOrdered();
        }
        closeReason = reason;
        if (null != qp)
        {
            qp.errorReason(reason);
        }
        finish(endEvent(),
            QueuePairState.ERROR, reason, null, false, NO_DATA);
        close();
    }

    /**
     * The connection could not be made: an expected outcome (a peer not up yet is refused), reported in the
     * CONNECT_ERROR event and counted, not logged as a fault.
     */
    private void connectFailed(final String reason)
    {
        counters.connectionFailures.incrementOrdered();
        closeReason = reason;
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
            closeReason = reason;
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
        if (deadlineNs - nowNs >= 0 || CLOSED == state)
        {
            return false;
        }
        switch (state)
        {
            case CONNECTING:
            case AWAIT_REQUEST:
            case AWAIT_DECISION:
            case AWAIT_REPLY:
            case AWAIT_FIRST_FPDU:
            {
                counters.mpaTimeouts.incrementOrdered();
                final String reason = "connection with " + remoteAddress + " did not finish the MPA exchange within " +
                    TimeUnit.NANOSECONDS.toMillis(context.mpaTimeoutNs()) + " ms (stuck in " + STATE_NAMES[state] +
                    ")";
                if (AWAIT_DECISION == state)
                {
                    agent.onError(new IwarpException(reason + ": the application neither accepted nor rejected"));
                    rejectWith(NO_DATA, reason);
                    return true;
                }
                if (initiator || null != qp)
                {
                    agent.onError(new IwarpException(reason));
                    connectFailed(reason);
                }
                else
                {
                    agent.onError(new IwarpException(reason));
                    closeReason = reason;
                    close();
                }
                return true;
            }
            default:
                finish(endEvent(),
                    CLOSING == state ? QueuePairState.CLOSED : QueuePairState.ERROR,
                    null != closeReason ? closeReason : "teardown timed out", null, false, NO_DATA);
                close();
                return true;
        }
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
        if (null == qp)
        {
            // A responder's request nobody accepted yet: there is no queue pair to tell.
            return;
        }
        if (ConnectionEventType.DISCONNECTED == type)
        {
            if (!established || disconnectPublished)
            {
                return;
            }
            disconnectPublished = true;
        }
        else
        {
            if (outcomePublished)
            {
                return;
            }
            outcomePublished = true;
            established = ConnectionEventType.ESTABLISHED == type;
        }
        agent.publish(new ConnectionEvent(type, qp, null, remoteAddress, privateData, reason, error, byPeer,
            userContext));
    }

    private ConnectionEventType endEvent()
    {
        return established ? ConnectionEventType.DISCONNECTED : ConnectionEventType.CONNECT_ERROR;
    }

    void close()
    {
        if (CLOSED == state)
        {
            return;
        }
        state = CLOSED;
        CloseHelper.quietClose(channel);
        if (null != qp)
        {
            transmitter.finalizeSendQueue();
            if (!qp.state().isFinal())
            {
                qp.state(QueuePairState.ERROR);
            }
            agent.startFlush(qp);
        }
    }

    boolean isClosed()
    {
        return CLOSED == state;
    }

    boolean awaitingDecision()
    {
        return AWAIT_DECISION == state;
    }

    boolean inFullOperation()
    {
        return RTS == state || CLOSING == state;
    }

    NegotiatedParameters negotiated()
    {
        return negotiated;
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
        return null != closeReason ? closeReason : STATE_NAMES[state];
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
            STATE_NAMES[state] + '}';
    }

}
