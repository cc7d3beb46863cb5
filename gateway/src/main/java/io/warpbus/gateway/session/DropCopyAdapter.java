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

import io.warpbus.bus.FragmentAssembler;
import io.warpbus.bus.Header;
import io.warpbus.bus.Subscription;
import io.warpbus.orderentry.sbe.ExecutionReportDecoder;
import io.warpbus.orderentry.sbe.MessageHeaderDecoder;
import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Polls the engine's drop-copy stream (every execution report of every route) and hands the fills of orders that
 * are <b>not</b> this gateway's to its drop-copy sessions through {@link OrderEntry#copyFill}: the same entitlement
 * check (the session's user must be entitled to the order's account), the same journaling, the same counter as the
 * copies of this gateway's own fills. Reports of this gateway's own origin are skipped: their fills are copied from
 * the gateway's own report route, so none is copied twice.
 * <p>
 * The engine's report carries account, instrument, side, price, quantities and ids, but not the order's ClOrdID,
 * type or time in force, which only the entering gateway knows. A copy therefore names the order
 * {@code R<origin>.<sequence>} (the engine's client order id: route and sequence), its exec id is the engine's on
 * that route (flagged with {@link EventDescriptor#FOREIGN_COPY_OFFSET} and the origin, so adapters make it unique
 * and the journal restore does not mistake it for one of this gateway's), and its order type is derived from its
 * price (0: market). The average price needs the order's earlier fills: the adapter keeps the cumulative notional
 * of every partly filled foreign order it has seen (a primitive map, dropped when the order is done); a fill of an
 * order whose earlier fills came before this gateway started is averaged at its own price.
 * <p>
 * Core thread, allocation free in steady state (the map grows only past its initial capacity of live foreign
 * partly filled orders).
 */
final class DropCopyAdapter implements AutoCloseable
{
    private static final int FRAGMENT_LIMIT = 64;
    private static final long ORIGIN_SHIFT = 48;
    private static final long SEQUENCE_MASK = (1L << ORIGIN_SHIFT) - 1;
    private static final long NONE = Long.MIN_VALUE;

    private final Subscription subscription;
    private final FragmentAssembler assembler;
    private final OrderEntry orders;
    private final Int2ObjectHashMap<InstrumentState> instruments;
    private final int ownOrigin;
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final ExecutionReportDecoder report = new ExecutionReportDecoder();
    private final Long2LongHashMap notionals = new Long2LongHashMap(1024, 0.65f, NONE);
    private final UnsafeBuffer event = new UnsafeBuffer(ByteBuffer.allocateDirect(
        EventDescriptor.EXECUTION_REPORT_LENGTH));

    DropCopyAdapter(final Subscription subscription, final OrderEntry orders,
        final Int2ObjectHashMap<InstrumentState> instruments, final int ownOrigin)
    {
        this.subscription = subscription;
        this.orders = orders;
        this.instruments = instruments;
        this.ownOrigin = ownOrigin;
        this.assembler = new FragmentAssembler(this::onFragment);
    }

    /**
     * Poll the drop-copy stream.
     *
     * @return fragments read.
     */
    int poll()
    {
        return subscription.poll(assembler, FRAGMENT_LIMIT);
    }

    private void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        if (length < MessageHeaderDecoder.ENCODED_LENGTH)
        {
            return;
        }
        headerDecoder.wrap(buffer, offset);
        if (MessageHeaderDecoder.SCHEMA_ID != headerDecoder.schemaId() ||
            ExecutionReportDecoder.TEMPLATE_ID != headerDecoder.templateId())
        {
            return;
        }
        report.wrapAndApplyHeader(buffer, offset, headerDecoder);
        final long clientOrderId = report.clientOrderId();
        final int origin = (int)(clientOrderId >>> ORIGIN_SHIFT);
        if (ownOrigin == origin)
        {
            return;
        }
        onForeignReport(clientOrderId, origin);
    }

    private void onForeignReport(final long clientOrderId, final int origin)
    {
        final byte execType = (byte)report.execTypeRaw();
        final boolean fill = ExecTypes.PARTIALLY_FILLED == execType || ExecTypes.FILLED == execType;
        if (!fill)
        {
            if (ExecTypes.CANCELLED == execType || ExecTypes.REJECTED == execType)
            {
                notionals.remove(clientOrderId);
            }
            return;
        }
        final InstrumentState instrument = instruments.get((int)report.instrumentId());
        final long lotSize = null == instrument ? 1 : instrument.info.lotSize();
        final long lastQuantity = report.lastQuantity() * lotSize;
        final long cumQuantity = report.cumulativeQuantity() * lotSize;
        final long earlier = cumQuantity == lastQuantity ? 0 : notionals.get(clientOrderId);
        final long notional = NONE == earlier ? report.lastPrice() * cumQuantity :
            earlier + report.lastPrice() * lastQuantity;
        if (ExecTypes.FILLED == execType)
        {
            notionals.remove(clientOrderId);
        }
        else
        {
            notionals.put(clientOrderId, notional);
        }
        if (!orders.hasDropCopies())
        {
            return;
        }
        final long account = report.accountId();
        writeCopy(clientOrderId, origin, execType, lotSize, lastQuantity, cumQuantity, notional, account);
        orders.copyFill(account, -1, event);
    }

    private void writeCopy(final long clientOrderId, final int origin, final byte execType, final long lotSize,
        final long lastQuantity, final long cumQuantity, final long notional, final long account)
    {
        final UnsafeBuffer event = this.event;
        event.setMemory(0, EventDescriptor.EXECUTION_REPORT_LENGTH, (byte)0);
        final int idStart = EventDescriptor.CLIENT_ORDER_ID_OFFSET + 1;
        int at = idStart;
        event.putByte(at++, (byte)'R');
        at += event.putNaturalIntAscii(at, origin);
        event.putByte(at++, (byte)'.');
        at += event.putNaturalLongAscii(at, clientOrderId & SEQUENCE_MASK);
        event.putByte(EventDescriptor.CLIENT_ORDER_ID_OFFSET, (byte)(at - idStart));
        event.putLong(EventDescriptor.ORDER_ID_OFFSET, report.orderId());
        event.putLong(EventDescriptor.EXEC_ID_OFFSET, report.execId());
        event.putLong(EventDescriptor.ACCOUNT_OFFSET, account);
        event.putInt(EventDescriptor.REPORT_INSTRUMENT_OFFSET, (int)report.instrumentId());
        event.putByte(EventDescriptor.EXEC_TYPE_OFFSET, execType);
        event.putByte(EventDescriptor.ORDER_STATUS_OFFSET,
            ExecTypes.FILLED == execType ? GatewayOrder.FILLED : GatewayOrder.PARTIALLY_FILLED);
        event.putByte(EventDescriptor.SIDE_OFFSET, (byte)report.sideRaw());
        final long price = report.price();
        final boolean market = 0 == price;
        event.putByte(EventDescriptor.ORDER_TYPE_OFFSET, market ? CommandDescriptor.MARKET : CommandDescriptor.LIMIT);
        event.putByte(EventDescriptor.TIME_IN_FORCE_OFFSET, market ? CommandDescriptor.IOC : CommandDescriptor.GTC);
        event.putByte(EventDescriptor.FOREIGN_COPY_OFFSET, (byte)1);
        event.putShort(EventDescriptor.FOREIGN_ORIGIN_OFFSET, (short)origin);
        event.putLong(EventDescriptor.PRICE_OFFSET, price);
        event.putLong(EventDescriptor.QUANTITY_OFFSET, report.orderQuantity() * lotSize);
        event.putLong(EventDescriptor.LAST_PRICE_OFFSET, report.lastPrice());
        event.putLong(EventDescriptor.LAST_QUANTITY_OFFSET, lastQuantity);
        event.putLong(EventDescriptor.CUM_QUANTITY_OFFSET, cumQuantity);
        event.putLong(EventDescriptor.LEAVES_QUANTITY_OFFSET, report.leavesQuantity() * lotSize);
        event.putLong(EventDescriptor.CUM_NOTIONAL_OFFSET, notional);
        event.putLong(EventDescriptor.TRANSACT_TIME_OFFSET, report.transactTime());
    }

    @Override
    public void close()
    {
        subscription.close();
    }
}
