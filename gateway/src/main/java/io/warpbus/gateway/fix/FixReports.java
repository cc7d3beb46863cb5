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
package io.warpbus.gateway.fix;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

import io.warpbus.gateway.session.CommandDescriptor;
import io.warpbus.gateway.session.EventDescriptor;
import io.warpbus.gateway.session.ExecTypes;
import io.warpbus.gateway.session.InstrumentInfo;
import io.warpbus.gateway.session.InstrumentRegistry;
import io.warpbus.orderentry.RejectReason;
import org.agrona.DirectBuffer;
import quickfix.Message;
import quickfix.field.AvgPx;
import quickfix.field.ClOrdID;
import quickfix.field.CumQty;
import quickfix.field.CxlRejReason;
import quickfix.field.CxlRejResponseTo;
import quickfix.field.ExecID;
import quickfix.field.ExecType;
import quickfix.field.LastPx;
import quickfix.field.LastQty;
import quickfix.field.LeavesQty;
import quickfix.field.OrdRejReason;
import quickfix.field.OrdStatus;
import quickfix.field.OrderID;
import quickfix.field.OrigClOrdID;
import quickfix.field.Text;
import quickfix.field.TransactTime;
import quickfix.fix44.ExecutionReport;
import quickfix.fix44.OrderCancelReject;

/**
 * Turns the session core's {@code EXECUTION_REPORT} events into FIX 4.4 ExecutionReports (8), or OrderCancelRejects
 * (9) for a refused cancel or replace, as FIX 4.4 defines their fields: ExecType (150) says what happened now
 * (0 new, F trade, 4 cancelled, 5 replaced, 8 rejected), OrdStatus (39) where the order stands, CumQty (14) and
 * LeavesQty (151) its totals, AvgPx (6) the quantity-weighted average of its fills, LastPx (31) and LastQty (32) the
 * fill of a trade report. Prices go out as decimal strings at the instrument's scale, never through a double. The
 * field-by-field mapping is in docs/fix.md. Sender thread.
 */
final class FixReports
{
    private static final char[] ORD_STATUS = { OrdStatus.PENDING_NEW, OrdStatus.NEW, OrdStatus.PARTIALLY_FILLED,
        OrdStatus.FILLED, OrdStatus.CANCELED, OrdStatus.REJECTED };

    /** CopyMsgIndicator (797): Y on a drop copy's reports. */
    static final int COPY_MSG_INDICATOR = 797;

    private final InstrumentRegistry instruments;

    FixReports(final InstrumentRegistry instruments)
    {
        this.instruments = instruments;
    }

    /**
     * The FIX message for a report, with the ClOrdIDs the client knows the order by; renames the order in the
     * context when a replace is reported.
     *
     * @param buffer  the event.
     * @param offset  where it starts.
     * @param context the FIX session's context.
     * @return an 8 or a 9.
     */
    Message report(final DirectBuffer buffer, final int offset, final FixSessionContext context)
    {
        final String coreId = ascii(buffer, offset + EventDescriptor.CLIENT_ORDER_ID_OFFSET,
            EventDescriptor.CLIENT_ORDER_ID_WIDTH);
        final byte execType = buffer.getByte(offset + EventDescriptor.EXEC_TYPE_OFFSET);
        final byte status = buffer.getByte(offset + EventDescriptor.ORDER_STATUS_OFFSET);
        final int code = buffer.getShort(offset + EventDescriptor.REASON_OFFSET) & 0xFFFF;
        final String text = reasonText(code);
        if (ExecTypes.CANCEL_REJECTED == execType || ExecTypes.REPLACE_REJECTED == execType)
        {
            return cancelReject(buffer, offset, context, coreId, execType, status, code, text);
        }

        final ExecutionReport report = new ExecutionReport();
        final long orderId = buffer.getLong(offset + EventDescriptor.ORDER_ID_OFFSET);
        report.set(new OrderID(orderId > 0 ? Long.toString(orderId) : "NONE"));
        final long execId = buffer.getLong(offset + EventDescriptor.EXEC_ID_OFFSET);
        final boolean foreign = isForeignCopy(buffer, offset);
        if (foreign)
        {
            // Exec ids count per route of the engine: the origin makes another gateway's unique here.
            report.set(new ExecID((buffer.getShort(offset + EventDescriptor.FOREIGN_ORIGIN_OFFSET) & 0xFFFF) + "." +
                execId));
        }
        else
        {
            report.set(new ExecID(execId > 0 ? Long.toString(execId) : "G" + Long.toHexString(
                context.state().tokenHigh()) + "." + buffer.getLong(offset + EventDescriptor.SEQ_OFFSET)));
        }
        final String current = context.currentId(coreId);
        switch (execType)
        {
            case ExecTypes.NEW:
                report.set(new ExecType(ExecType.NEW));
                report.set(new ClOrdID(current));
                break;
            case ExecTypes.PARTIALLY_FILLED:
            case ExecTypes.FILLED:
                report.set(new ExecType(ExecType.TRADE));
                report.set(new ClOrdID(current));
                break;
            case ExecTypes.CANCELLED:
            {
                report.set(new ExecType(ExecType.CANCELED));
                final String requestId = context.answered(coreId);
                report.set(new ClOrdID(null == requestId ? current : requestId));
                if (null != requestId)
                {
                    report.set(new OrigClOrdID(current));
                }
                break;
            }
            case ExecTypes.REPLACED:
            {
                report.set(new ExecType(ExecType.REPLACED));
                final String requestId = context.answered(coreId);
                report.set(new ClOrdID(null == requestId ? current : requestId));
                report.set(new OrigClOrdID(current));
                if (null != requestId)
                {
                    context.renamed(coreId, requestId);
                }
                break;
            }
            default:
                report.set(new ExecType(ExecType.REJECTED));
                report.set(new ClOrdID(coreId));
                report.set(new OrdRejReason(ordRejReason(code)));
                break;
        }
        report.set(new OrdStatus(ordStatus(status)));
        orderFields(report, buffer, offset, execType, foreign);
        if (0 != code)
        {
            report.set(new Text(text));
        }
        if (FixSessionType.DROP_COPY == context.type())
        {
            report.setBoolean(COPY_MSG_INDICATOR, true);
        }
        if (ExecTypes.FILLED == execType || ExecTypes.CANCELLED == execType || ExecTypes.REJECTED == execType &&
            0 == buffer.getByte(offset + EventDescriptor.REQUEST_ONLY_OFFSET))
        {
            context.done(coreId);
        }
        return report;
    }

    @SuppressWarnings("checkstyle:parameternumber")
    private static Message cancelReject(final DirectBuffer buffer, final int offset, final FixSessionContext context,
        final String coreId, final byte execType, final byte status, final int code, final String text)
    {
        final String requestId = context.answered(coreId);
        final OrderCancelReject reject = new OrderCancelReject();
        final long orderId = buffer.getLong(offset + EventDescriptor.ORDER_ID_OFFSET);
        reject.set(new OrderID(orderId > 0 ? Long.toString(orderId) : "NONE"));
        reject.set(new ClOrdID(null == requestId ? coreId : requestId));
        reject.set(new OrigClOrdID(context.currentId(coreId)));
        reject.set(new OrdStatus(ordStatus(status)));
        reject.set(new CxlRejResponseTo(ExecTypes.CANCEL_REJECTED == execType ?
            CxlRejResponseTo.ORDER_CANCEL_REQUEST : CxlRejResponseTo.ORDER_CANCEL_REPLACE_REQUEST));
        reject.set(new CxlRejReason(RejectReason.UNKNOWN_ORDER.code() == code ? CxlRejReason.UNKNOWN_ORDER :
            CxlRejReason.OTHER));
        reject.set(new Text(text));
        final long account = buffer.getLong(offset + EventDescriptor.ACCOUNT_OFFSET);
        if (0 != account)
        {
            reject.setString(1, Long.toString(account));
        }
        return reject;
    }

    private void orderFields(final ExecutionReport report, final DirectBuffer buffer, final int offset,
        final byte execType, final boolean foreign)
    {
        report.setString(1, Long.toString(buffer.getLong(offset + EventDescriptor.ACCOUNT_OFFSET)));
        final InstrumentInfo info = instruments.get(buffer.getInt(offset + EventDescriptor.REPORT_INSTRUMENT_OFFSET));
        final int scale = null == info ? 0 : info.priceScale();
        report.setString(55, null == info ? "[N/A]" : info.symbol());
        report.setChar(54, CommandDescriptor.BUY == buffer.getByte(offset + EventDescriptor.SIDE_OFFSET) ? '1' : '2');
        final boolean market = CommandDescriptor.MARKET == buffer.getByte(offset + EventDescriptor.ORDER_TYPE_OFFSET);
        if (!foreign)
        {
            // Another gateway's order: the engine's report does not say its type or time in force (both optional).
            report.setChar(40, market ? '1' : '2');
            final byte tif = buffer.getByte(offset + EventDescriptor.TIME_IN_FORCE_OFFSET);
            report.setChar(59, CommandDescriptor.IOC == tif ? '3' : CommandDescriptor.FOK == tif ? '4' : '1');
        }
        if (0 != buffer.getByte(offset + EventDescriptor.POST_ONLY_OFFSET))
        {
            report.setChar(18, FixOrderMapper.POST_ONLY);
        }
        if (!market && null != info)
        {
            report.setString(44, price(buffer.getLong(offset + EventDescriptor.PRICE_OFFSET), scale));
        }
        report.setString(38, Long.toString(buffer.getLong(offset + EventDescriptor.QUANTITY_OFFSET)));
        final long cumQuantity = buffer.getLong(offset + EventDescriptor.CUM_QUANTITY_OFFSET);
        report.setString(CumQty.FIELD, Long.toString(cumQuantity));
        report.setString(LeavesQty.FIELD, Long.toString(buffer.getLong(offset +
            EventDescriptor.LEAVES_QUANTITY_OFFSET)));
        report.setString(AvgPx.FIELD, averagePrice(buffer.getLong(offset + EventDescriptor.CUM_NOTIONAL_OFFSET),
            cumQuantity, scale));
        if (ExecTypes.PARTIALLY_FILLED == execType || ExecTypes.FILLED == execType)
        {
            report.setString(LastPx.FIELD, price(buffer.getLong(offset + EventDescriptor.LAST_PRICE_OFFSET), scale));
            report.setString(LastQty.FIELD, Long.toString(buffer.getLong(offset +
                EventDescriptor.LAST_QUANTITY_OFFSET)));
        }
        final long transactNs = buffer.getLong(offset + EventDescriptor.TRANSACT_TIME_OFFSET);
        if (transactNs > 0)
        {
            report.set(new TransactTime(LocalDateTime.ofInstant(Instant.ofEpochSecond(0, transactNs),
                ZoneOffset.UTC)));
        }
    }

    /**
     * Is a report event a drop copy of another gateway's order?
     *
     * @param buffer the event.
     * @param offset where it starts.
     * @return true if so.
     */
    static boolean isForeignCopy(final DirectBuffer buffer, final int offset)
    {
        return 0 != buffer.getByte(offset + EventDescriptor.FOREIGN_COPY_OFFSET);
    }

    /**
     * The text of a core reason code.
     *
     * @param code a {@link RejectReason} code.
     * @return its text.
     */
    static String reasonText(final int code)
    {
        final RejectReason reason = RejectReason.get(code);
        return null == reason ? "reason " + code : reason.text();
    }

    static char ordStatus(final byte status)
    {
        return status >= 0 && status < ORD_STATUS.length ? ORD_STATUS[status] : OrdStatus.REJECTED;
    }

    private static int ordRejReason(final int code)
    {
        if (RejectReason.UNKNOWN_INSTRUMENT.code() == code)
        {
            return OrdRejReason.UNKNOWN_SYMBOL;
        }
        if (RejectReason.DUPLICATE_CLIENT_ORDER_ID.code() == code)
        {
            return OrdRejReason.DUPLICATE_ORDER;
        }
        if (RejectReason.UNKNOWN_ACCOUNT.code() == code)
        {
            return OrdRejReason.UNKNOWN_ACCOUNT;
        }
        return OrdRejReason.OTHER;
    }

    static String price(final long units, final int scale)
    {
        return BigDecimal.valueOf(units, scale).toPlainString();
    }

    static String averagePrice(final long notional, final long quantity, final int scale)
    {
        if (0 == quantity)
        {
            return "0";
        }
        return BigDecimal.valueOf(notional, scale).divide(BigDecimal.valueOf(quantity), scale + 4,
            RoundingMode.HALF_EVEN).stripTrailingZeros().toPlainString();
    }

    static String ascii(final DirectBuffer buffer, final int offset, final int width)
    {
        final int length = Math.min(width, buffer.getByte(offset) & 0xFF);
        return buffer.getStringWithoutLengthAscii(offset + 1, length);
    }
}
