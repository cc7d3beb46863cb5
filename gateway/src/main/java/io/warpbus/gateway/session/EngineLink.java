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
package io.warpbus.gateway.session;

import java.nio.ByteBuffer;

import io.warpbus.bus.Bus;
import io.warpbus.bus.ExclusivePublication;
import io.warpbus.bus.FragmentAssembler;
import io.warpbus.bus.Header;
import io.warpbus.bus.Subscription;
import io.warpbus.orderentry.sbe.CancelOrderEncoder;
import io.warpbus.orderentry.sbe.ClientHeartbeatEncoder;
import io.warpbus.orderentry.sbe.EngineHeartbeatDecoder;
import io.warpbus.orderentry.sbe.ExecutionReportDecoder;
import io.warpbus.orderentry.sbe.MessageHeaderDecoder;
import io.warpbus.orderentry.sbe.MessageHeaderEncoder;
import io.warpbus.orderentry.sbe.MessageRejectDecoder;
import io.warpbus.orderentry.sbe.NewOrderEncoder;
import io.warpbus.orderentry.sbe.OrderType;
import io.warpbus.orderentry.sbe.ReplaceOrderEncoder;
import io.warpbus.orderentry.sbe.ResendRequestEncoder;
import io.warpbus.orderentry.sbe.Side;
import io.warpbus.orderentry.sbe.TimeInForce;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The gateway's side of the engine's order entry: its own order-entry publication (SBE schema 2, client order ids of
 * its origin) and the subscription to the report stream of its route, with the bookkeeping that makes that stream
 * gap-free across engine and gateway restarts.
 * <p>
 * Exec ids count per route, so the next report must carry {@code last + 1}. An older one is a duplicate (a resend
 * overlapping what arrived); a later one, or an {@code EngineHeartbeat} naming a later last exec id (the greeting of
 * a restarted engine, or this gateway after its own restart), means reports were missed: the link asks the engine
 * to resend from {@code last + 1} and drops what arrives out of order until the resend has filled the hole. A resend
 * that makes no progress is asked again every second; after three requests sent without progress the reports the
 * engine no longer holds are given up (logged) and numbering goes on from the first one it still has. Once the
 * engine's heartbeat names the last exec id received, the link is caught up ({@link ReportListener#onCaughtUp}).
 */
final class EngineLink implements AutoCloseable
{
    private static final int FRAGMENT_LIMIT = 64;
    private static final long RESEND_RETRY_NS = 1_000_000_000L;
    private static final long HEARTBEAT_INTERVAL_NS = 1_000_000_000L;
    private static final int RESEND_ATTEMPTS = 3;

    /**
     * Where the link delivers the engine's reports, in exec id order.
     */
    interface ReportListener
    {
        void onReport(ExecutionReportDecoder report, long nowNs);

        void onCaughtUp(long nowNs);
    }

    private final Bus bus;
    private final ExclusivePublication orderEntry;
    private final Subscription reports;
    private final FragmentAssembler assembler;
    private final ReportListener listener;
    private final GatewayCounters counters;
    private final UnsafeBuffer sendBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(256));
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final NewOrderEncoder newOrder = new NewOrderEncoder();
    private final CancelOrderEncoder cancelOrder = new CancelOrderEncoder();
    private final ReplaceOrderEncoder replaceOrder = new ReplaceOrderEncoder();
    private final ResendRequestEncoder resendRequest = new ResendRequestEncoder();
    private final ClientHeartbeatEncoder heartbeat = new ClientHeartbeatEncoder();
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final ExecutionReportDecoder report = new ExecutionReportDecoder();
    private final EngineHeartbeatDecoder engineHeartbeat = new EngineHeartbeatDecoder();
    private final MessageRejectDecoder messageReject = new MessageRejectDecoder();
    private long lastExecId;
    private boolean repairing;
    private long repairTarget;
    private long repairRequestedNs;
    private int repairAttempts;
    private long lowestSeenAboveGap;
    private boolean caughtUp;
    private long nextHeartbeatNs;
    private long nowNs;
    private long engineLastExecId = -1;

    EngineLink(final Bus bus, final String orderEntryChannel, final String reportChannel,
        final ReportListener listener, final GatewayCounters counters)
    {
        this.bus = bus;
        this.listener = listener;
        this.counters = counters;
        orderEntry = bus.addExclusivePublication(orderEntryChannel);
        Subscription subscription = null;
        try
        {
            subscription = bus.addSubscription(reportChannel);
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietClose(orderEntry);
            throw ex;
        }
        reports = subscription;
        assembler = new FragmentAssembler(this::onFragment);
    }

    /**
     * Numbering restored from the journal: the last exec id the gateway processed.
     *
     * @param lastExecId the exec id.
     */
    void lastExecId(final long lastExecId)
    {
        this.lastExecId = lastExecId;
    }

    long lastExecId()
    {
        return lastExecId;
    }

    boolean isCaughtUp()
    {
        return caughtUp;
    }

    boolean isRepairing()
    {
        return repairing;
    }

    /**
     * Is the engine connected both ways: it subscribes to the order entry and its reports reach the gateway?
     *
     * @return true if so.
     */
    boolean isConnected()
    {
        return orderEntry.isConnected() && reports.isConnected();
    }

    boolean isOrderEntryConnected()
    {
        return orderEntry.isConnected();
    }

    /**
     * Poll the report stream and keep the link alive.
     *
     * @param nowNs the time now.
     * @return work done.
     */
    int poll(final long nowNs)
    {
        this.nowNs = nowNs;
        int work = reports.poll(assembler, FRAGMENT_LIMIT);
        if (repairing && nowNs - repairRequestedNs >= RESEND_RETRY_NS)
        {
            retryRepair();
            work++;
        }
        if (nowNs - nextHeartbeatNs >= 0)
        {
            nextHeartbeatNs = nowNs + HEARTBEAT_INTERVAL_NS;
            if (orderEntry.isConnected())
            {
                heartbeat.wrapAndApplyHeader(sendBuffer, 0, headerEncoder).sendingTime(nowNs);
                orderEntry.offer(sendBuffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + heartbeat.encodedLength());
            }
            work++;
        }
        return work;
    }

    @SuppressWarnings("checkstyle:parameternumber")
    long newOrder(final long account, final int instrumentId, final long clientOrderId, final byte side,
        final OrderType orderType, final byte timeInForce, final long price, final long lots, final long sendingNs)
    {
        newOrder.wrapAndApplyHeader(sendBuffer, 0, headerEncoder)
            .accountId(account)
            .instrumentId(instrumentId & 0xFFFF_FFFFL)
            .clientOrderId(clientOrderId)
            .side(CommandDescriptor.BUY == side ? Side.Buy : Side.Sell)
            .orderType(orderType)
            .timeInForce(timeInForce(timeInForce))
            .price(price)
            .quantity(lots)
            .sendingTime(sendingNs);
        return orderEntry.offer(sendBuffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + newOrder.encodedLength());
    }

    long cancel(final long account, final int instrumentId, final long clientOrderId, final long sendingNs)
    {
        cancelOrder.wrapAndApplyHeader(sendBuffer, 0, headerEncoder)
            .accountId(account)
            .instrumentId(instrumentId & 0xFFFF_FFFFL)
            .clientOrderId(clientOrderId)
            .sendingTime(sendingNs);
        return orderEntry.offer(sendBuffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + cancelOrder.encodedLength());
    }

    long replace(final long account, final int instrumentId, final long clientOrderId, final long price,
        final long lots, final long sendingNs)
    {
        replaceOrder.wrapAndApplyHeader(sendBuffer, 0, headerEncoder)
            .accountId(account)
            .instrumentId(instrumentId & 0xFFFF_FFFFL)
            .clientOrderId(clientOrderId)
            .price(price)
            .quantity(lots)
            .sendingTime(sendingNs);
        return orderEntry.offer(sendBuffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + replaceOrder.encodedLength());
    }

    private static TimeInForce timeInForce(final byte code)
    {
        switch (code)
        {
            case CommandDescriptor.IOC:
                return TimeInForce.ImmediateOrCancel;
            case CommandDescriptor.FOK:
                return TimeInForce.FillOrKill;
            default:
                return TimeInForce.GoodTillCancel;
        }
    }

    private void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        if (length < MessageHeaderDecoder.ENCODED_LENGTH)
        {
            return;
        }
        headerDecoder.wrap(buffer, offset);
        if (MessageHeaderDecoder.SCHEMA_ID != headerDecoder.schemaId())
        {
            return;
        }
        switch (headerDecoder.templateId())
        {
            case ExecutionReportDecoder.TEMPLATE_ID:
                report.wrapAndApplyHeader(buffer, offset, headerDecoder);
                onReport(report.execId());
                break;
            case EngineHeartbeatDecoder.TEMPLATE_ID:
                engineHeartbeat.wrapAndApplyHeader(buffer, offset, headerDecoder);
                onEngineHeartbeat(engineHeartbeat.lastExecId());
                break;
            case MessageRejectDecoder.TEMPLATE_ID:
                messageReject.wrapAndApplyHeader(buffer, offset, headerDecoder);
                counters.onError(new IllegalStateException("the engine could not decode a message of this " +
                    "gateway: reason " + messageReject.reason() + ", template " + messageReject.templateId()));
                break;
            default:
                break;
        }
    }

    private void onReport(final long execId)
    {
        if (execId <= lastExecId)
        {
            return;
        }
        if (execId == lastExecId + 1)
        {
            lastExecId = execId;
            counters.increment(GatewayCounterDescriptor.ENGINE_REPORTS);
            listener.onReport(report, nowNs);
            if (repairing)
            {
                if (lastExecId >= repairTarget)
                {
                    endRepair();
                }
                else
                {
                    // The resend is arriving: only a resend that stops making progress counts as unanswered.
                    repairAttempts = 0;
                    repairRequestedNs = nowNs;
                }
            }
            return;
        }
        lowestSeenAboveGap = repairing ? Math.min(lowestSeenAboveGap, execId) : execId;
        startRepair(execId);
    }

    private void onEngineHeartbeat(final long engineLast)
    {
        engineLastExecId = engineLast;
        if (engineLast > lastExecId)
        {
            if (!repairing)
            {
                lowestSeenAboveGap = Long.MAX_VALUE;
            }
            startRepair(engineLast);
        }
        else if (!repairing && !caughtUp)
        {
            caughtUp = true;
            listener.onCaughtUp(nowNs);
        }
    }

    private void startRepair(final long target)
    {
        repairTarget = Math.max(repairTarget, target);
        if (!repairing)
        {
            repairing = true;
            repairAttempts = requestResend() ? 1 : 0;
        }
    }

    /**
     * Ask again. Only requests that reached the order-entry publication count towards giving up: after a restart
     * the engine may not have rejoined this gateway's publication yet, and a request that was never sent says
     * nothing about what the engine still holds.
     */
    private void retryRepair()
    {
        if (repairAttempts >= RESEND_ATTEMPTS && Long.MAX_VALUE != lowestSeenAboveGap &&
            lowestSeenAboveGap > lastExecId + 1)
        {
            counters.onError(new IllegalStateException("the engine no longer holds execution reports " +
                (lastExecId + 1) + " to " + (lowestSeenAboveGap - 1) + " of this gateway's route: given up"));
            lastExecId = lowestSeenAboveGap - 1;
            repairAttempts = 0;
        }
        if (requestResend())
        {
            repairAttempts++;
        }
    }

    private boolean requestResend()
    {
        repairRequestedNs = nowNs;
        resendRequest.wrapAndApplyHeader(sendBuffer, 0, headerEncoder)
            .fromExecId(lastExecId + 1)
            .toExecId(0)
            .sendingTime(nowNs);
        if (orderEntry.offer(sendBuffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + resendRequest.encodedLength()) > 0)
        {
            counters.increment(GatewayCounterDescriptor.ENGINE_RESEND_REQUESTS);
            return true;
        }
        return false;
    }

    private void endRepair()
    {
        repairing = false;
        repairTarget = 0;
        lowestSeenAboveGap = Long.MAX_VALUE;
        if (!caughtUp && engineLastExecId >= 0 && lastExecId >= engineLastExecId)
        {
            caughtUp = true;
            listener.onCaughtUp(nowNs);
        }
    }

    @Override
    public void close()
    {
        CloseHelper.quietCloseAll(reports, orderEntry);
    }

    Bus bus()
    {
        return bus;
    }
}
