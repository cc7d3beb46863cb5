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
package io.warpbus.demo.service;

import java.nio.ByteBuffer;

import io.warpbus.bus.FragmentHandler;
import io.warpbus.bus.Header;
import io.warpbus.matching.ExecType;
import io.warpbus.matching.OrderType;
import io.warpbus.matching.Side;
import io.warpbus.matching.TimeInForce;
import io.warpbus.matching.engine.MatchingEngine;
import io.warpbus.orderentry.RejectReason;
import io.warpbus.orderentry.sbe.CancelOrderDecoder;
import io.warpbus.orderentry.sbe.ClientHeartbeatDecoder;
import io.warpbus.orderentry.sbe.MessageHeaderDecoder;
import io.warpbus.orderentry.sbe.MessageHeaderEncoder;
import io.warpbus.orderentry.sbe.MessageRejectEncoder;
import io.warpbus.orderentry.sbe.MessageRejectReason;
import io.warpbus.orderentry.sbe.NewOrderDecoder;
import io.warpbus.orderentry.sbe.ReplaceOrderDecoder;
import io.warpbus.orderentry.sbe.ResendRequestDecoder;
import org.HdrHistogram.Recorder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The service boundary: decodes order-entry messages and drives the matching core with them, one command at a time,
 * allocating nothing for well-formed input.
 * <p>
 * A message is checked before anything is read from its body: at least a header long, schema id 2, a version no
 * newer than this build's, a known inbound template, a block at least as long as the template's, and a length that
 * holds the block. A message that fails is answered with a {@code MessageReject} on the report stream of its route
 * naming the publisher's session and the message's bus sequence, counted, and recorded in the error log; the book
 * is not touched. Business errors (unknown instrument, bad quantity, off-tick price, duplicate id, unknown order,
 * risk) are the core's, reported as rejected execution reports with their reason code; a command whose client order
 * id is not of its stream's origin is rejected here ({@code WRONG_ORIGIN}), since reports are routed by that origin.
 * Quantities arrive in lots and enter the core in units; a quantity whose units would overflow is rejected as
 * {@code INVALID_QUANTITY}.
 * <p>
 * Every command enters the core with the engine's epoch-nanosecond time read once for it, which is what reports
 * carry as {@code transactTime}; the time from reading the message to the last message it caused being published is
 * recorded as the command's service time ("match latency").
 * <p>
 * With a {@link CommandJournal}, each message is appended to it, with that time, before anything else is done with
 * it; replay at start-up calls {@link #onMessage} with the journaled time while the output is replaying.
 */
final class OrderEntryHandler implements FragmentHandler
{
    private static final long MAX_LATENCY_NS = 60_000_000_000L;

    private final MatchingEngine engine;
    private final EngineOutput output;
    private final InstrumentTable instruments;
    private final EngineCounters counters;
    private final Recorder serviceTime;
    private final EpochNanoClock epochClock;
    private final NanoClock nanoClock;
    private final ErrorSink errors;
    private final CommandJournal journal;
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final NewOrderDecoder newOrderDecoder = new NewOrderDecoder();
    private final CancelOrderDecoder cancelDecoder = new CancelOrderDecoder();
    private final ReplaceOrderDecoder replaceDecoder = new ReplaceOrderDecoder();
    private final ResendRequestDecoder resendDecoder = new ResendRequestDecoder();
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final MessageRejectEncoder rejectEncoder = new MessageRejectEncoder();
    private final UnsafeBuffer rejectBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(128));

    /**
     * Where undecodable input is logged: the process's distinct error log.
     */
    @FunctionalInterface
    interface ErrorSink
    {
        void onError(Throwable error);
    }

    @SuppressWarnings("checkstyle:parameternumber")
    OrderEntryHandler(
        final MatchingEngine engine,
        final EngineOutput output,
        final InstrumentTable instruments,
        final EngineCounters counters,
        final Recorder serviceTime,
        final EpochNanoClock epochClock,
        final NanoClock nanoClock,
        final ErrorSink errors,
        final CommandJournal journal)
    {
        this.engine = engine;
        this.output = output;
        this.instruments = instruments;
        this.counters = counters;
        this.serviceTime = serviceTime;
        this.epochClock = epochClock;
        this.nanoClock = nanoClock;
        this.errors = errors;
        this.journal = journal;
    }

    @Override
    public void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        final long timestampNs = epochClock.nanoTime();
        if (null != journal)
        {
            journal.append(buffer, offset, length, header.sessionId(), output.currentRoute().origin(), timestampNs);
        }
        try
        {
            onMessage(buffer, offset, length, header.sessionId(), header.sequence(), timestampNs);
        }
        catch (final RuntimeException ex)
        {
            // Journaled, so consumed: thrown back into the poll it would be delivered and journaled again.
            errors.onError(ex);
        }
    }

    /**
     * Handle one whole message.
     *
     * @param buffer      holding it.
     * @param offset      where it starts.
     * @param length      its length.
     * @param sessionId   bus session of its publisher.
     * @param sequence    its bus sequence.
     * @param timestampNs the engine's time for the command.
     */
    void onMessage(
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final int sessionId,
        final long sequence,
        final long timestampNs)
    {
        final long startNs = nanoClock.nanoTime();
        if (length < MessageHeaderDecoder.ENCODED_LENGTH)
        {
            reject(sessionId, sequence, 0, 0, 0, length, MessageRejectReason.Truncated, timestampNs);
            return;
        }
        headerDecoder.wrap(buffer, offset);
        final int templateId = headerDecoder.templateId();
        final int schemaId = headerDecoder.schemaId();
        final int version = headerDecoder.version();
        final int blockLength = headerDecoder.blockLength();
        final MessageRejectReason invalid = check(templateId, schemaId, version, blockLength, length);
        if (null != invalid)
        {
            reject(sessionId, sequence, templateId, schemaId, version, length, invalid, timestampNs);
            return;
        }

        final int bodyOffset = offset + MessageHeaderDecoder.ENCODED_LENGTH;
        switch (templateId)
        {
            case NewOrderDecoder.TEMPLATE_ID:
                newOrder(buffer, bodyOffset, blockLength, version, timestampNs);
                break;
            case CancelOrderDecoder.TEMPLATE_ID:
                cancel(buffer, bodyOffset, blockLength, version, timestampNs);
                break;
            case ReplaceOrderDecoder.TEMPLATE_ID:
                replace(buffer, bodyOffset, blockLength, version, timestampNs);
                break;
            case ResendRequestDecoder.TEMPLATE_ID:
                // Changes no state: journaled with the rest, and a no-op while replaying.
                resendDecoder.wrap(buffer, bodyOffset, blockLength, version);
                counters.resendRequests.incrementRelease();
                if (!output.isReplaying() &&
                    !output.currentRoute().resend(resendDecoder.fromExecId(), resendDecoder.toExecId()))
                {
                    errors.onError(new IllegalStateException("resend request from session " + sessionId +
                        " refused: too many waiting; the client asks again"));
                }
                return;
            default:
                counters.clientHeartbeats.incrementRelease();
                return;
        }
        output.endCommand();
        if (!output.isReplaying())
        {
            recordServiceTime(nanoClock.nanoTime() - startNs);
        }
    }

    private static MessageRejectReason check(
        final int templateId, final int schemaId, final int version, final int blockLength, final int length)
    {
        if (MessageHeaderDecoder.SCHEMA_ID != schemaId)
        {
            return MessageRejectReason.UnknownSchema;
        }
        if (version > MessageHeaderDecoder.SCHEMA_VERSION)
        {
            return MessageRejectReason.UnsupportedVersion;
        }
        final int required;
        switch (templateId)
        {
            case NewOrderDecoder.TEMPLATE_ID:
                required = NewOrderDecoder.BLOCK_LENGTH;
                break;
            case CancelOrderDecoder.TEMPLATE_ID:
                required = CancelOrderDecoder.BLOCK_LENGTH;
                break;
            case ReplaceOrderDecoder.TEMPLATE_ID:
                required = ReplaceOrderDecoder.BLOCK_LENGTH;
                break;
            case ClientHeartbeatDecoder.TEMPLATE_ID:
                required = ClientHeartbeatDecoder.BLOCK_LENGTH;
                break;
            case ResendRequestDecoder.TEMPLATE_ID:
                required = ResendRequestDecoder.BLOCK_LENGTH;
                break;
            default:
                return MessageRejectReason.UnknownTemplate;
        }
        if (blockLength < required)
        {
            return MessageRejectReason.BlockTooShort;
        }
        if (length < MessageHeaderDecoder.ENCODED_LENGTH + blockLength)
        {
            return MessageRejectReason.Truncated;
        }

        return null;
    }

    private void newOrder(
        final DirectBuffer buffer, final int offset, final int blockLength, final int version, final long timestampNs)
    {
        final NewOrderDecoder decoder = newOrderDecoder.wrap(buffer, offset, blockLength, version);
        counters.newOrders.incrementRelease();
        output.beginCommand(decoder.sendingTime());
        final int instrumentId = (int)decoder.instrumentId();
        final int accountId = (int)decoder.accountId();
        final long clientOrderId = decoder.clientOrderId();
        final Side side = Side.get(decoder.sideRaw());
        final long price = decoder.price();
        final long lots = decoder.quantity();
        final long lotSize = instruments.lotSize(instrumentId);
        if (!isOwnOrigin(clientOrderId))
        {
            output.onExecution(instrumentId, 0, clientOrderId, accountId, side, ExecType.REJECTED,
                RejectReason.WRONG_ORIGIN, price, 0, 0, 0, 0, 0, timestampNs);
            return;
        }
        if (!fitsInUnits(lots, lotSize))
        {
            output.onExecution(instrumentId, 0, clientOrderId, accountId, side, ExecType.REJECTED,
                RejectReason.INVALID_QUANTITY, price, lots * lotSize, 0, 0, 0, 0, timestampNs);
            return;
        }
        engine.newOrder(clientOrderId, accountId, instrumentId, side, OrderType.get(decoder.orderTypeRaw()),
            TimeInForce.get(decoder.timeInForceRaw()), price, lots * lotSize, timestampNs);
    }

    private void cancel(
        final DirectBuffer buffer, final int offset, final int blockLength, final int version, final long timestampNs)
    {
        final CancelOrderDecoder decoder = cancelDecoder.wrap(buffer, offset, blockLength, version);
        counters.cancels.incrementRelease();
        output.beginCommand(decoder.sendingTime());
        if (!isOwnOrigin(decoder.clientOrderId()))
        {
            output.onExecution((int)decoder.instrumentId(), 0, decoder.clientOrderId(), (int)decoder.accountId(),
                null, ExecType.CANCEL_REJECTED, RejectReason.WRONG_ORIGIN, 0, 0, 0, 0, 0, 0, timestampNs);
            return;
        }
        engine.cancel(decoder.clientOrderId(), (int)decoder.accountId(), (int)decoder.instrumentId(), timestampNs);
    }

    private void replace(
        final DirectBuffer buffer, final int offset, final int blockLength, final int version, final long timestampNs)
    {
        final ReplaceOrderDecoder decoder = replaceDecoder.wrap(buffer, offset, blockLength, version);
        counters.replaces.incrementRelease();
        output.beginCommand(decoder.sendingTime());
        final int instrumentId = (int)decoder.instrumentId();
        final int accountId = (int)decoder.accountId();
        final long lots = decoder.quantity();
        final long lotSize = instruments.lotSize(instrumentId);
        if (!isOwnOrigin(decoder.clientOrderId()))
        {
            output.onExecution(instrumentId, 0, decoder.clientOrderId(), accountId, null,
                ExecType.REPLACE_REJECTED, RejectReason.WRONG_ORIGIN, decoder.price(), 0, 0, 0, 0, 0, timestampNs);
            return;
        }
        if (!fitsInUnits(lots, lotSize))
        {
            output.onExecution(instrumentId, 0, decoder.clientOrderId(), accountId, null,
                ExecType.REPLACE_REJECTED, RejectReason.INVALID_QUANTITY, decoder.price(), lots * lotSize, 0, 0, 0, 0,
                timestampNs);
            return;
        }
        engine.replace(decoder.clientOrderId(), accountId, instrumentId, decoder.price(), lots * lotSize, timestampNs);
    }

    /**
     * A stream may only name orders of its own origin: the route a report goes back on is read from the id.
     */
    private boolean isOwnOrigin(final long clientOrderId)
    {
        return (clientOrderId >>> 48) == output.currentRoute().origin();
    }

    private static boolean fitsInUnits(final long lots, final long lotSize)
    {
        return lots <= Long.MAX_VALUE / lotSize && lots >= Long.MIN_VALUE / lotSize;
    }

    @SuppressWarnings("checkstyle:parameternumber")
    private void reject(
        final int sessionId,
        final long sequence,
        final int templateId,
        final int schemaId,
        final int version,
        final int length,
        final MessageRejectReason reason,
        final long timestampNs)
    {
        counters.messageRejects.incrementRelease();
        if (output.isReplaying())
        {
            return;
        }
        // One distinct log entry per kind of bad message (the session and sequence go in the MessageReject).
        errors.onError(new IllegalArgumentException("undecodable order-entry message rejected (" + reason +
            "): template " + templateId + ", schema " + schemaId + ", version " + version));
        rejectEncoder.wrapAndApplyHeader(rejectBuffer, 0, headerEncoder)
            .sessionId(sessionId)
            .sequence(sequence)
            .templateId(templateId)
            .schemaId(schemaId)
            .version(version)
            .length(Math.min(length, 0xFFFF))
            .reason(reason)
            .transactTime(timestampNs);
        output.currentRoute().stream().publish(rejectBuffer, 0,
            MessageHeaderEncoder.ENCODED_LENGTH + rejectEncoder.encodedLength());
    }

    private void recordServiceTime(final long ns)
    {
        serviceTime.recordValue(Math.max(0, Math.min(ns, MAX_LATENCY_NS)));
    }

    static long maxLatencyNs()
    {
        return MAX_LATENCY_NS;
    }
}
