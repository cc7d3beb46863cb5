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

import io.warpbus.orderentry.RejectReason;
import io.warpbus.orderentry.sbe.ExecutionReportDecoder;
import io.warpbus.orderentry.sbe.OrderType;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.IntArrayList;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Order entry in the session core: checks each new, cancel and replace request against the session's rate limits,
 * the user's entitlements and the instrument's rules, gives it an engine client order id of this gateway's origin,
 * journals it, and sends it to the engine; turns the engine's execution reports into events for the owning session.
 * Every refusal, the gateway's or the engine's, reaches the client as an execution report with a reason code and the
 * client's order id. Core thread, allocation free.
 */
final class OrderEntry implements EngineLink.ReportListener
{
    private static final long ORIGIN_MASK = 0xFFFF_0000_0000_0000L;
    private static final long[] POWERS_OF_TEN = new long[19];

    static
    {
        POWERS_OF_TEN[0] = 1;
        for (int i = 1; i < POWERS_OF_TEN.length; i++)
        {
            POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
        }
    }

    private final SessionCoreContext context;
    private final Session[] sessions;
    private final OrderTable orders;
    private final Int2ObjectHashMap<InstrumentState> instruments;
    private final Outbox outbox;
    private final SessionJournal journal;
    private final GatewayCounters counters;
    private final TokenBucket[] userLimits;
    private final OrderLatencyRecorder latency;
    private final UnsafeBuffer event = new UnsafeBuffer(ByteBuffer.allocateDirect(1024));
    private final UnsafeBuffer record = new UnsafeBuffer(ByteBuffer.allocateDirect(1024));
    private final ClientOrderKey probe = new ClientOrderKey();
    /** Indices of the drop-copy sessions, which get a copy of every fill of their users' accounts. */
    private final IntArrayList dropCopies = new IntArrayList();
    private final long originBits;
    private EngineLink engine;
    private SessionLifecycle lifecycle;
    private long lastEngineSequence;

    OrderEntry(final SessionCoreContext context, final Session[] sessions, final OrderTable orders,
        final Int2ObjectHashMap<InstrumentState> instruments, final Outbox outbox, final SessionJournal journal)
    {
        this.context = context;
        this.sessions = sessions;
        this.orders = orders;
        this.instruments = instruments;
        this.outbox = outbox;
        this.journal = journal;
        this.counters = context.counters();
        this.latency = context.latency();
        this.originBits = ((long)context.origin()) << 48;
        final int userCount = context.users().all().size();
        userLimits = new TokenBucket[userCount];
        final long nowNs = context.nanoClock().nanoTime();
        for (int i = 0; i < userCount; i++)
        {
            final User user = context.users().get(i);
            userLimits[i] = new TokenBucket();
            userLimits[i].reset(user.ordersPerSecond(), user.orderBurst(), nowNs);
        }
    }

    void engine(final EngineLink engine)
    {
        this.engine = engine;
    }

    void lifecycle(final SessionLifecycle lifecycle)
    {
        this.lifecycle = lifecycle;
    }

    /**
     * The engine client order id counter restored from the journal.
     *
     * @param sequence the highest sequence part used.
     */
    void lastEngineSequence(final long sequence)
    {
        lastEngineSequence = Math.max(lastEngineSequence, sequence);
    }

    long originBits()
    {
        return originBits;
    }

    /**
     * A new order from a session.
     */
    void onNewOrder(final Session session, final DirectBuffer command, final int offset, final long nowNs)
    {
        final long receivedNs = command.getLong(offset + CommandDescriptor.RECEIVED_NS_OFFSET);
        final ClientOrderKey key = probe.set(session.index, command, offset + CommandDescriptor.CLIENT_ORDER_ID_OFFSET);
        final long account = command.getLong(offset + CommandDescriptor.ACCOUNT_OFFSET);
        final int instrumentId = command.getInt(offset + CommandDescriptor.ORDER_INSTRUMENT_OFFSET);
        final byte side = command.getByte(offset + CommandDescriptor.SIDE_OFFSET);
        final byte orderType = command.getByte(offset + CommandDescriptor.ORDER_TYPE_OFFSET);
        final byte timeInForce = command.getByte(offset + CommandDescriptor.TIME_IN_FORCE_OFFSET);
        final boolean postOnly = 0 != command.getByte(offset + CommandDescriptor.POST_ONLY_OFFSET);
        final long quantity = command.getLong(offset + CommandDescriptor.QUANTITY_OFFSET);
        final InstrumentState instrument = instrumentId < 0 ? null : instruments.get(instrumentId);

        RejectReason reason = checkMayTrade(session, nowNs);
        if (null == reason && null != orders.byClientId(key))
        {
            reason = RejectReason.DUPLICATE_CLIENT_ORDER_ID;
        }
        if (null == reason)
        {
            reason = checkInstrument(instrument, true);
        }
        if (null == reason && !session.user.isEntitled(account))
        {
            reason = RejectReason.NOT_ENTITLED;
        }
        if (null == reason)
        {
            reason = checkOrderShape(orderType, timeInForce, postOnly);
        }
        if (null == reason)
        {
            reason = checkQuantity(instrument.info, quantity);
        }
        long price = 0;
        if (null == reason && CommandDescriptor.LIMIT == orderType)
        {
            price = toPriceUnits(instrument.info, command.getLong(offset + CommandDescriptor.PRICE_OFFSET),
                command.getInt(offset + CommandDescriptor.PRICE_DECIMALS_OFFSET));
            reason = checkPrice(instrument.info, price);
        }
        if (null == reason && session.openOrders >= context.maxOpenOrdersPerSession())
        {
            reason = RejectReason.TOO_MANY_OPEN_ORDERS;
        }
        if (null == reason && !engine.isOrderEntryConnected())
        {
            reason = RejectReason.ENGINE_UNAVAILABLE;
        }
        final GatewayOrder order = null == reason ? orders.add(key, originBits | ++lastEngineSequence) : null;
        if (null == reason && null == order)
        {
            reason = RejectReason.TOO_MANY_OPEN_ORDERS;
        }
        if (null != reason)
        {
            rejectNew(session, command, offset, account, instrumentId, side, orderType, timeInForce, postOnly,
                quantity, reportedPrice(instrument, orderType, command, offset), reason, nowNs);
            rejectedAtGateway(receivedNs);
            return;
        }

        order.sessionToken = session.tokenHigh;
        order.account = account;
        order.instrumentId = instrumentId;
        order.side = side;
        order.orderType = orderType;
        order.timeInForce = timeInForce;
        order.postOnly = postOnly;
        order.price = price;
        order.quantity = quantity;
        order.leavesQuantity = quantity;
        order.status = GatewayOrder.PENDING_NEW;
        order.pendingRequestNs = receivedNs;
        session.openOrders++;
        journalOrderSent(order);

        final OrderType engineType = CommandDescriptor.MARKET == orderType ? OrderType.Market :
            postOnly ? OrderType.PostOnly : OrderType.Limit;
        final long sent = engine.newOrder(account, instrumentId, order.engineClientOrderId, side, engineType,
            timeInForce, price, quantity / instrument.info.lotSize(), receivedNs);
        if (sent < 0)
        {
            order.status = GatewayOrder.REJECTED;
            report(order, ExecTypes.REJECTED, RejectReason.ENGINE_UNAVAILABLE, 0, 0, 0, nowNs);
            counters.increment(GatewayCounterDescriptor.GATEWAY_REJECTS);
            done(order);
            rejectedAtGateway(receivedNs);
            return;
        }
        order.pendingSentNs = context.nanoClock().nanoTime();
        counters.increment(GatewayCounterDescriptor.ORDERS_SENT);
    }

    private void rejectedAtGateway(final long receivedNs)
    {
        final long spentNs = context.nanoClock().nanoTime() - receivedNs;
        latency.onRoundTrip(spentNs, spentNs);
    }

    /**
     * A cancel from a session.
     */
    void onCancel(final Session session, final DirectBuffer command, final int offset, final long nowNs)
    {
        final long receivedNs = command.getLong(offset + CommandDescriptor.RECEIVED_NS_OFFSET);
        final GatewayOrder order = orders.byClientId(
            probe.set(session.index, command, offset + CommandDescriptor.CLIENT_ORDER_ID_OFFSET));
        RejectReason reason = checkMayTrade(session, nowNs);
        if (null == reason && (null == order || !order.isLive()))
        {
            reason = RejectReason.UNKNOWN_ORDER;
        }
        if (null == reason && !engine.isOrderEntryConnected())
        {
            reason = RejectReason.ENGINE_UNAVAILABLE;
        }
        if (null == reason && engine.cancel(order.account, order.instrumentId, order.engineClientOrderId,
            receivedNs) < 0)
        {
            reason = RejectReason.ENGINE_UNAVAILABLE;
        }
        if (null != reason)
        {
            rejectRequest(session, order, command, offset, ExecTypes.CANCEL_REJECTED, reason, nowNs);
            rejectedAtGateway(receivedNs);
            return;
        }
        order.pendingRequestNs = receivedNs;
        order.pendingSentNs = context.nanoClock().nanoTime();
        counters.increment(GatewayCounterDescriptor.ORDERS_SENT);
    }

    /**
     * A replace from a session: new price and new total quantity.
     */
    void onReplace(final Session session, final DirectBuffer command, final int offset, final long nowNs)
    {
        final long receivedNs = command.getLong(offset + CommandDescriptor.RECEIVED_NS_OFFSET);
        final GatewayOrder order = orders.byClientId(
            probe.set(session.index, command, offset + CommandDescriptor.CLIENT_ORDER_ID_OFFSET));
        final long quantity = command.getLong(offset + CommandDescriptor.QUANTITY_OFFSET);
        RejectReason reason = checkMayTrade(session, nowNs);
        if (null == reason && (null == order || !order.isLive()))
        {
            reason = RejectReason.UNKNOWN_ORDER;
        }
        final InstrumentState instrument = null == order ? null : instruments.get(order.instrumentId);
        if (null == reason)
        {
            reason = checkInstrument(instrument, true);
        }
        if (null == reason && CommandDescriptor.MARKET == order.orderType)
        {
            reason = RejectReason.INVALID_ORDER_TYPE;
        }
        if (null == reason)
        {
            reason = checkQuantity(instrument.info, quantity);
        }
        long price = 0;
        if (null == reason)
        {
            price = toPriceUnits(instrument.info, command.getLong(offset + CommandDescriptor.PRICE_OFFSET),
                command.getInt(offset + CommandDescriptor.PRICE_DECIMALS_OFFSET));
            reason = checkPrice(instrument.info, price);
        }
        if (null == reason && !engine.isOrderEntryConnected())
        {
            reason = RejectReason.ENGINE_UNAVAILABLE;
        }
        if (null == reason && engine.replace(order.account, order.instrumentId, order.engineClientOrderId, price,
            quantity / instrument.info.lotSize(), receivedNs) < 0)
        {
            reason = RejectReason.ENGINE_UNAVAILABLE;
        }
        if (null != reason)
        {
            rejectRequest(session, order, command, offset, ExecTypes.REPLACE_REJECTED, reason, nowNs);
            rejectedAtGateway(receivedNs);
            return;
        }
        order.pendingRequestNs = receivedNs;
        order.pendingSentNs = context.nanoClock().nanoTime();
        counters.increment(GatewayCounterDescriptor.ORDERS_SENT);
    }

    /**
     * Cancel every live order of a session (logout, or a disconnect with cancel-on-disconnect) that has no cancel of
     * this kind on its way yet; called again until none is left unsent.
     *
     * @param session the session.
     * @return live orders whose cancel could not be sent now (the engine unreachable or back-pressured).
     */
    int cancelAll(final Session session)
    {
        if (0 == session.openOrders)
        {
            return 0;
        }
        final long nowNs = context.nanoClock().nanoTime();
        final int[] unsent = new int[1];
        orders.forEach(session.index, (order) ->
        {
            if (order.isLive() && !order.cancelSent)
            {
                if (engine.cancel(order.account, order.instrumentId, order.engineClientOrderId, nowNs) > 0)
                {
                    order.cancelSent = true;
                }
                else
                {
                    unsent[0]++;
                }
            }
        });
        return unsent[0];
    }

    /**
     * Whether the engine can take the gateway's own cancels: connected, and caught up after a restart (before
     * that, an order's state here may be behind the engine's).
     *
     * @return true when it can.
     */
    boolean isEngineReady()
    {
        return engine.isOrderEntryConnected() && engine.isCaughtUp() && !engine.isRepairing();
    }

    /**
     * Visit a session's live orders, each written as an execution report (its current state). Request path.
     *
     * @param session the session.
     * @param visitor gets each order and a buffer holding its report from offset 0.
     */
    void forEachOpen(final Session session, final java.util.function.BiConsumer<GatewayOrder, DirectBuffer> visitor)
    {
        orders.forEach(session.index, (order) ->
        {
            if (order.isLive())
            {
                writeReport(order, ExecTypes.NEW, RejectReason.NONE, 0, 0, 0, 0);
                visitor.accept(order, event);
            }
        });
    }

    @Override
    public void onReport(final ExecutionReportDecoder report, final long nowNs)
    {
        final long takenNs = context.nanoClock().nanoTime();
        final GatewayOrder order = orders.byEngineId(report.clientOrderId());
        if (null == order || (report.clientOrderId() & ORIGIN_MASK) != originBits)
        {
            counters.increment(GatewayCounterDescriptor.UNROUTABLE_REPORTS);
            return;
        }
        if (order.retired)
        {
            onLateAnswer(order, report, takenNs);
            return;
        }
        final InstrumentState instrument = instruments.get(order.instrumentId);
        final long lotSize = null == instrument ? 1 : instrument.info.lotSize();
        final byte execType = (byte)report.execTypeRaw();
        final long lastQuantity = report.lastQuantity() * lotSize;
        order.recoveredUnanswered = false;
        if (0 != report.orderId())
        {
            order.orderId = report.orderId();
        }
        applyReport(order, execType, report, lotSize, lastQuantity);
        if (ExecTypes.isRejection(execType))
        {
            counters.increment(GatewayCounterDescriptor.ENGINE_REJECTS);
        }
        report(order, execType, reasonOf(report), report.execId(), report.lastPrice(), lastQuantity,
            report.transactTime());
        if ((ExecTypes.PARTIALLY_FILLED == execType || ExecTypes.FILLED == execType) && !dropCopies.isEmpty())
        {
            copyFill(order.account, order.session(), event);
        }
        if (answersRequest(execType, report.reason()))
        {
            answered(order, takenNs);
        }
        if (!order.isLive())
        {
            done(order);
        }
    }

    /**
     * A report for a done order: the engine's answer to a cancel or replace that crossed the order's end (a fill,
     * an expiry), sent after the order's last report. The session gets it with the order as it ended, so the
     * request is answered and no exec id is skipped; the report's own quantities describe no order and are not
     * applied. An answer to the gateway's own cancel stays here; anything else, or a session that has gone since,
     * counts as unroutable.
     */
    private void onLateAnswer(final GatewayOrder order, final ExecutionReportDecoder report, final long takenNs)
    {
        final byte execType = (byte)report.execTypeRaw();
        final Session session = sessions[order.session()];
        if ((ExecTypes.CANCEL_REJECTED != execType && ExecTypes.REPLACE_REJECTED != execType) ||
            Session.FREE == session.state || session.tokenHigh != order.sessionToken)
        {
            counters.increment(GatewayCounterDescriptor.UNROUTABLE_REPORTS);
            return;
        }
        counters.increment(GatewayCounterDescriptor.ENGINE_REJECTS);
        if (order.cancelSent && 0 == order.pendingRequestNs)
        {
            // The answer to the gateway's own cancel (logout, cancel-on-disconnect): the client asked nothing.
            return;
        }
        report(order, execType, reasonOf(report), report.execId(), 0, 0, report.transactTime());
        answered(order, takenNs);
    }

    private static RejectReason reasonOf(final ExecutionReportDecoder report)
    {
        final RejectReason reason = RejectReason.get(report.reason());
        return null == reason ? RejectReason.NONE : reason;
    }

    private void answered(final GatewayOrder order, final long takenNs)
    {
        if (0 != order.pendingRequestNs)
        {
            final long answeredNs = context.nanoClock().nanoTime();
            latency.onRoundTrip(answeredNs - order.pendingRequestNs,
                order.pendingSentNs - order.pendingRequestNs + answeredNs - takenNs);
            order.pendingRequestNs = 0;
        }
    }

    @Override
    public void onCaughtUp(final long nowNs)
    {
        // Orders journaled by a gateway that died before the engine got them: nothing will ever answer them.
        orders.forEach((order) ->
        {
            if (order.recoveredUnanswered)
            {
                order.recoveredUnanswered = false;
                order.status = GatewayOrder.REJECTED;
                counters.increment(GatewayCounterDescriptor.LOST_ORDERS);
                report(order, ExecTypes.REJECTED, RejectReason.ENGINE_UNAVAILABLE, 0, 0, 0, nowNs);
                done(order);
            }
        });
    }

    /**
     * Apply a journaled event to the orders while restoring: an order sent, or a report to its session.
     */
    void restoreOrderSent(final int sessionIndex, final DirectBuffer record, final int offset)
    {
        final long engineId = record.getLong(offset + SessionJournal.ORDER_ENGINE_ID_OFFSET);
        final int fields = offset + SessionJournal.ORDER_FIELDS_OFFSET;
        lastEngineSequence(engineId & ~ORIGIN_MASK);
        final GatewayOrder order = orders.add(probe.set(sessionIndex, record,
            fields + EventDescriptor.CLIENT_ORDER_ID_OFFSET), engineId);
        if (null == order)
        {
            throw new IllegalStateException("session journal " + journal.directory() + " holds more live orders " +
                "than the gateway may track (" + orders.capacity() + "): raise max-orders");
        }
        order.sessionToken = sessions[sessionIndex].tokenHigh;
        order.account = record.getLong(fields + EventDescriptor.ACCOUNT_OFFSET);
        order.instrumentId = record.getInt(fields + EventDescriptor.REPORT_INSTRUMENT_OFFSET);
        order.side = record.getByte(fields + EventDescriptor.SIDE_OFFSET);
        order.orderType = record.getByte(fields + EventDescriptor.ORDER_TYPE_OFFSET);
        order.timeInForce = record.getByte(fields + EventDescriptor.TIME_IN_FORCE_OFFSET);
        order.postOnly = 0 != record.getByte(fields + EventDescriptor.POST_ONLY_OFFSET);
        order.price = record.getLong(fields + EventDescriptor.PRICE_OFFSET);
        order.quantity = record.getLong(fields + EventDescriptor.QUANTITY_OFFSET);
        order.leavesQuantity = order.quantity;
        order.status = GatewayOrder.PENDING_NEW;
        order.recoveredUnanswered = true;
        sessions[sessionIndex].openOrders++;
    }

    /**
     * Apply a journaled execution report to its order while restoring.
     *
     * @return the engine exec id it carried, 0 for the gateway's own rejects.
     */
    long restoreReport(final int sessionIndex, final DirectBuffer event, final int offset)
    {
        final GatewayOrder order = orders.byClientId(probe.set(sessionIndex, event,
            offset + EventDescriptor.CLIENT_ORDER_ID_OFFSET));
        if (0 != event.getByte(offset + EventDescriptor.FOREIGN_COPY_OFFSET))
        {
            // A copy of another gateway's fill: its exec id counts on that gateway's route, not this one's.
            return 0;
        }
        final long execId = event.getLong(offset + EventDescriptor.EXEC_ID_OFFSET);
        if (null == order || 0 != event.getByte(offset + EventDescriptor.REQUEST_ONLY_OFFSET))
        {
            return execId;
        }
        final byte execType = event.getByte(offset + EventDescriptor.EXEC_TYPE_OFFSET);
        if ((ExecTypes.CANCEL_REJECTED == execType || ExecTypes.REPLACE_REJECTED == execType) &&
            !GatewayOrder.isLive(event.getByte(offset + EventDescriptor.ORDER_STATUS_OFFSET)))
        {
            // A late answer (onLateAnswer) to an order already done: the live order with its id is a newer one.
            return execId;
        }
        order.recoveredUnanswered = false;
        order.orderId = event.getLong(offset + EventDescriptor.ORDER_ID_OFFSET);
        order.status = event.getByte(offset + EventDescriptor.ORDER_STATUS_OFFSET);
        order.price = event.getLong(offset + EventDescriptor.PRICE_OFFSET);
        order.quantity = event.getLong(offset + EventDescriptor.QUANTITY_OFFSET);
        order.cumulativeQuantity = event.getLong(offset + EventDescriptor.CUM_QUANTITY_OFFSET);
        order.leavesQuantity = event.getLong(offset + EventDescriptor.LEAVES_QUANTITY_OFFSET);
        order.cumulativeNotional = event.getLong(offset + EventDescriptor.CUM_NOTIONAL_OFFSET);
        if (!order.isLive())
        {
            sessions[sessionIndex].openOrders--;
            orders.retire(order);
        }
        return execId;
    }

    private void applyReport(final GatewayOrder order, final byte execType, final ExecutionReportDecoder report,
        final long lotSize, final long lastQuantity)
    {
        switch (execType)
        {
            case ExecTypes.NEW:
                order.status = GatewayOrder.NEW;
                break;
            case ExecTypes.PARTIALLY_FILLED:
            case ExecTypes.FILLED:
                order.cumulativeNotional += report.lastPrice() * lastQuantity;
                order.status = ExecTypes.FILLED == execType ? GatewayOrder.FILLED : GatewayOrder.PARTIALLY_FILLED;
                break;
            case ExecTypes.CANCELLED:
                order.status = GatewayOrder.CANCELLED;
                break;
            case ExecTypes.REPLACED:
                order.price = report.price();
                order.quantity = report.orderQuantity() * lotSize;
                break;
            case ExecTypes.REJECTED:
                order.status = GatewayOrder.REJECTED;
                break;
            default:
                break;
        }
        order.cumulativeQuantity = report.cumulativeQuantity() * lotSize;
        if (ExecTypes.CANCEL_REJECTED != execType && ExecTypes.REPLACE_REJECTED != execType)
        {
            order.leavesQuantity = order.isLive() ? report.leavesQuantity() * lotSize : 0;
        }
    }

    private static boolean answersRequest(final byte execType, final int reason)
    {
        return ExecTypes.PARTIALLY_FILLED != execType && ExecTypes.FILLED != execType &&
            !(ExecTypes.CANCELLED == execType && 0 != reason);
    }

    private void done(final GatewayOrder order)
    {
        final Session session = sessions[order.session()];
        session.openOrders--;
        orders.retire(order);
        lifecycle.onOrderDone(session);
    }

    /**
     * What every order request checks first: the session's and the user's rate limits (a request refused for its
     * role still counts against them), then the user's trader role.
     */
    private RejectReason checkMayTrade(final Session session, final long nowNs)
    {
        if (!session.orderLimit.tryAcquire(nowNs) || !userLimits[session.user.index()].tryAcquire(nowNs))
        {
            counters.increment(GatewayCounterDescriptor.RATE_LIMIT_REJECTS);
            return RejectReason.RATE_LIMITED;
        }
        return session.user.mayTrade() ? null : RejectReason.NO_TRADER_ROLE;
    }

    private static RejectReason checkInstrument(final InstrumentState instrument, final boolean mustTrade)
    {
        if (null == instrument)
        {
            return RejectReason.UNKNOWN_INSTRUMENT;
        }
        return mustTrade && !instrument.info.trading() ? RejectReason.INSTRUMENT_HALTED : null;
    }

    private static RejectReason checkOrderShape(final byte orderType, final byte timeInForce, final boolean postOnly)
    {
        if (CommandDescriptor.MARKET == orderType)
        {
            if (postOnly)
            {
                return RejectReason.INVALID_ORDER_TYPE;
            }
            return CommandDescriptor.GTC == timeInForce ? RejectReason.INVALID_TIME_IN_FORCE : null;
        }
        return postOnly && CommandDescriptor.GTC != timeInForce ? RejectReason.INVALID_TIME_IN_FORCE : null;
    }

    private static RejectReason checkQuantity(final InstrumentInfo info, final long quantity)
    {
        if (quantity <= 0)
        {
            return RejectReason.INVALID_QUANTITY;
        }
        if (0 != quantity % info.lotSize())
        {
            return RejectReason.QUANTITY_OFF_LOT_SIZE;
        }
        return quantity < info.minQuantity() || quantity > info.maxQuantity() ?
            RejectReason.QUANTITY_OUTSIDE_LIMITS : null;
    }

    private static RejectReason checkPrice(final InstrumentInfo info, final long price)
    {
        if (Long.MIN_VALUE == price)
        {
            return RejectReason.PRICE_OFF_TICK_GRID;
        }
        if (price <= 0)
        {
            return RejectReason.INVALID_PRICE;
        }
        return 0 != price % info.tickSize() ? RejectReason.PRICE_OFF_TICK_GRID : null;
    }

    /**
     * A decimal price (mantissa with so many decimals) in the instrument's price units.
     *
     * @return the price, 0 when absent, or {@link Long#MIN_VALUE} when it has more decimals than the instrument
     * (and they are not zeros) or does not fit.
     */
    static long toPriceUnits(final InstrumentInfo info, final long mantissa, final int decimals)
    {
        if (CommandDescriptor.NO_PRICE == decimals)
        {
            return 0;
        }
        final int scale = info.priceScale();
        if (decimals <= scale)
        {
            final long factor = POWERS_OF_TEN[scale - decimals];
            if (Math.abs(mantissa) > Long.MAX_VALUE / factor)
            {
                return Long.MIN_VALUE;
            }
            return mantissa * factor;
        }
        final int extra = decimals - scale;
        if (extra >= POWERS_OF_TEN.length)
        {
            return 0 == mantissa ? 0 : Long.MIN_VALUE;
        }
        final long divisor = POWERS_OF_TEN[extra];
        return 0 == mantissa % divisor ? mantissa / divisor : Long.MIN_VALUE;
    }

    /**
     * The price a rejected new order's report echoes, in the instrument's units as every report carries it: 0 when
     * the order has none or it cannot be put in those units (unknown instrument, too many decimals, too large).
     */
    private static long reportedPrice(
        final InstrumentState instrument, final byte orderType, final DirectBuffer command, final int offset)
    {
        if (null == instrument || CommandDescriptor.LIMIT != orderType)
        {
            return 0;
        }
        final long price = toPriceUnits(instrument.info, command.getLong(offset + CommandDescriptor.PRICE_OFFSET),
            command.getInt(offset + CommandDescriptor.PRICE_DECIMALS_OFFSET));
        return Long.MIN_VALUE == price ? 0 : price;
    }

    @SuppressWarnings("checkstyle:parameternumber")
    private void rejectNew(final Session session, final DirectBuffer command, final int offset, final long account,
        final int instrumentId, final byte side, final byte orderType, final byte timeInForce, final boolean postOnly,
        final long quantity, final long price, final RejectReason reason, final long nowNs)
    {
        final UnsafeBuffer event = this.event;
        event.setMemory(0, EventDescriptor.EXECUTION_REPORT_LENGTH, (byte)0);
        event.putBytes(EventDescriptor.CLIENT_ORDER_ID_OFFSET, command,
            offset + CommandDescriptor.CLIENT_ORDER_ID_OFFSET, 1 + CommandDescriptor.CLIENT_ORDER_ID_WIDTH);
        event.putLong(EventDescriptor.ACCOUNT_OFFSET, account);
        event.putInt(EventDescriptor.REPORT_INSTRUMENT_OFFSET, instrumentId);
        event.putByte(EventDescriptor.EXEC_TYPE_OFFSET, ExecTypes.REJECTED);
        event.putByte(EventDescriptor.ORDER_STATUS_OFFSET, GatewayOrder.REJECTED);
        event.putByte(EventDescriptor.SIDE_OFFSET, side);
        event.putByte(EventDescriptor.ORDER_TYPE_OFFSET, orderType);
        event.putByte(EventDescriptor.TIME_IN_FORCE_OFFSET, timeInForce);
        event.putByte(EventDescriptor.POST_ONLY_OFFSET, (byte)(postOnly ? 1 : 0));
        event.putShort(EventDescriptor.REASON_OFFSET, (short)reason.code());
        event.putByte(EventDescriptor.REQUEST_ONLY_OFFSET, (byte)1);
        event.putLong(EventDescriptor.QUANTITY_OFFSET, quantity);
        event.putLong(EventDescriptor.PRICE_OFFSET, price);
        event.putLong(EventDescriptor.TRANSACT_TIME_OFFSET, context.epochClock().nanoTime());
        counters.increment(GatewayCounterDescriptor.GATEWAY_REJECTS);
        outbox.send(session, EventDescriptor.EXECUTION_REPORT, event, 0, EventDescriptor.EXECUTION_REPORT_LENGTH,
            nowNs);
    }

    private void rejectRequest(final Session session, final GatewayOrder order, final DirectBuffer command,
        final int offset, final byte execType, final RejectReason reason, final long nowNs)
    {
        if (null != order)
        {
            writeReport(order, execType, reason, 0, 0, 0, context.epochClock().nanoTime());
            event.putByte(EventDescriptor.REQUEST_ONLY_OFFSET, (byte)1);
        }
        else
        {
            event.setMemory(0, EventDescriptor.EXECUTION_REPORT_LENGTH, (byte)0);
            event.putBytes(EventDescriptor.CLIENT_ORDER_ID_OFFSET, command,
                offset + CommandDescriptor.CLIENT_ORDER_ID_OFFSET, 1 + CommandDescriptor.CLIENT_ORDER_ID_WIDTH);
            event.putByte(EventDescriptor.EXEC_TYPE_OFFSET, execType);
            event.putByte(EventDescriptor.ORDER_STATUS_OFFSET, GatewayOrder.REJECTED);
            event.putShort(EventDescriptor.REASON_OFFSET, (short)reason.code());
            event.putByte(EventDescriptor.REQUEST_ONLY_OFFSET, (byte)1);
            event.putLong(EventDescriptor.TRANSACT_TIME_OFFSET, context.epochClock().nanoTime());
        }
        counters.increment(GatewayCounterDescriptor.GATEWAY_REJECTS);
        outbox.send(session, EventDescriptor.EXECUTION_REPORT, event, 0, EventDescriptor.EXECUTION_REPORT_LENGTH,
            nowNs);
    }

    private void report(final GatewayOrder order, final byte execType, final RejectReason reason, final long execId,
        final long lastPrice, final long lastQuantity, final long transactTime)
    {
        writeReport(order, execType, reason, execId, lastPrice, lastQuantity, transactTime);
        outbox.send(sessions[order.session()], EventDescriptor.EXECUTION_REPORT, event, 0,
            EventDescriptor.EXECUTION_REPORT_LENGTH, context.nanoClock().nanoTime());
    }

    /**
     * A fill, written as an {@code EXECUTION_REPORT} event, to every drop-copy session whose user is entitled to the
     * order's account, except the session that owns the order (it has it already). Journaled like any report, so a
     * drop copy that is away gets its fills when it resumes. Core thread.
     *
     * @param account      the order's account.
     * @param ownerSession the index of the session that owns the order, or -1 for another gateway's order.
     * @param fill         the event, from offset 0, {@link EventDescriptor#EXECUTION_REPORT_LENGTH} bytes.
     */
    void copyFill(final long account, final int ownerSession, final MutableDirectBuffer fill)
    {
        final IntArrayList dropCopies = this.dropCopies;
        final long nowNs = context.nanoClock().nanoTime();
        for (int i = 0, size = dropCopies.size(); i < size; i++)
        {
            final Session session = sessions[dropCopies.getInt(i)];
            if (session.index != ownerSession && null != session.user && session.user.isEntitled(account) &&
                (Session.CONNECTED == session.state || Session.DISCONNECTED == session.state))
            {
                outbox.send(session, EventDescriptor.EXECUTION_REPORT, fill, 0,
                    EventDescriptor.EXECUTION_REPORT_LENGTH, nowNs);
                counters.increment(GatewayCounterDescriptor.DROP_COPIES);
            }
        }
    }

    /**
     * Are there drop-copy sessions?
     *
     * @return true when at least one session is a drop copy.
     */
    boolean hasDropCopies()
    {
        return !dropCopies.isEmpty();
    }

    /**
     * A session is a drop copy from now on. Core thread.
     *
     * @param session the session.
     */
    void addDropCopy(final Session session)
    {
        if (!dropCopies.containsInt(session.index))
        {
            dropCopies.addInt(session.index);
        }
    }

    /**
     * A session is no (longer a) drop copy. Core thread.
     *
     * @param session the session.
     */
    void removeDropCopy(final Session session)
    {
        dropCopies.removeInt(session.index);
    }

    private void writeReport(final GatewayOrder order, final byte execType, final RejectReason reason,
        final long execId, final long lastPrice, final long lastQuantity, final long transactTime)
    {
        final UnsafeBuffer event = this.event;
        order.key.put(event, EventDescriptor.CLIENT_ORDER_ID_OFFSET);
        event.putLong(EventDescriptor.ORDER_ID_OFFSET, order.orderId);
        event.putLong(EventDescriptor.EXEC_ID_OFFSET, execId);
        event.putLong(EventDescriptor.ACCOUNT_OFFSET, order.account);
        event.putInt(EventDescriptor.REPORT_INSTRUMENT_OFFSET, order.instrumentId);
        event.putByte(EventDescriptor.EXEC_TYPE_OFFSET, execType);
        event.putByte(EventDescriptor.ORDER_STATUS_OFFSET, order.status);
        event.putByte(EventDescriptor.SIDE_OFFSET, order.side);
        event.putByte(EventDescriptor.ORDER_TYPE_OFFSET, order.orderType);
        event.putByte(EventDescriptor.TIME_IN_FORCE_OFFSET, order.timeInForce);
        event.putByte(EventDescriptor.POST_ONLY_OFFSET, (byte)(order.postOnly ? 1 : 0));
        event.putShort(EventDescriptor.REASON_OFFSET, (short)reason.code());
        event.putByte(EventDescriptor.REQUEST_ONLY_OFFSET, (byte)0);
        event.putLong(EventDescriptor.PRICE_OFFSET, order.price);
        event.putLong(EventDescriptor.QUANTITY_OFFSET, order.quantity);
        event.putLong(EventDescriptor.LAST_PRICE_OFFSET, lastPrice);
        event.putLong(EventDescriptor.LAST_QUANTITY_OFFSET, lastQuantity);
        event.putLong(EventDescriptor.CUM_QUANTITY_OFFSET, order.cumulativeQuantity);
        event.putLong(EventDescriptor.LEAVES_QUANTITY_OFFSET, order.leavesQuantity);
        event.putLong(EventDescriptor.CUM_NOTIONAL_OFFSET, order.cumulativeNotional);
        event.putLong(EventDescriptor.TRANSACT_TIME_OFFSET, transactTime);
    }

    private void journalOrderSent(final GatewayOrder order)
    {
        record.putLong(SessionJournal.ORDER_ENGINE_ID_OFFSET, order.engineClientOrderId);
        // The report layout, shifted: writeReport fills the event buffer, copied behind the engine id.
        writeReport(order, ExecTypes.NEW, RejectReason.NONE, 0, 0, 0, 0);
        record.putBytes(SessionJournal.ORDER_FIELDS_OFFSET, event, 0, EventDescriptor.EXECUTION_REPORT_LENGTH);
        journal.append(order.session(), SessionJournal.ORDER_SENT_RECORD, record, 0, SessionJournal.ORDER_LENGTH);
    }
}
