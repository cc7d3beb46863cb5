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
import java.util.regex.Pattern;

import io.warpbus.gateway.session.CommandDescriptor;
import io.warpbus.gateway.session.InstrumentInfo;
import io.warpbus.gateway.session.InstrumentRegistry;
import quickfix.FieldNotFound;
import quickfix.Message;
import quickfix.field.ClOrdID;
import quickfix.field.MsgType;
import quickfix.field.OrigClOrdID;

/**
 * Maps the values of NewOrderSingle (D), OrderCancelRequest (F) and OrderCancelReplaceRequest (G) onto the session
 * core's order commands. QuickFIX/J has already checked the message against the FIX 4.4 dictionary (required tags,
 * enumerations, types: what fails there is a session-level Reject (3)); this class refuses what is valid FIX but has
 * no meaning at this gateway (a side other than buy or sell, an order type other than market or limit, a fractional
 * quantity, a price of more than 18 digits), each with a {@link FixRefusal} naming the tag. What the business rules
 * decide (entitlements, tick grid, lot size, limits, duplicates, rate limits) is left to the core, which answers with
 * an execution report, exactly as for the WebSocket adapters.
 */
final class FixOrderMapper
{
    static final int ACCOUNT = 1;
    static final int EXEC_INST = 18;
    static final int ORDER_QTY = 38;
    static final int ORD_TYPE = 40;
    static final int PRICE = 44;
    static final int SIDE = 54;
    static final int SYMBOL = 55;
    static final int TIME_IN_FORCE = 59;
    /** ExecInst (18) value 6: participate, don't initiate, i.e. post only. */
    static final char POST_ONLY = '6';
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._:\\-]{1,36}");
    private static final long MAX_ACCOUNT = 0xFFFF_FFFFL;
    private static final BigDecimal MAX_QUANTITY = BigDecimal.valueOf(1_000_000_000_000_000L);
    private static final int MAX_PRICE_DIGITS = 18;

    /**
     * A new order, as the core takes it.
     *
     * @param clOrdId       ClOrdID (11).
     * @param account       Account (1).
     * @param instrumentId  the instrument, -1 when the symbol is unknown (the core refuses it).
     * @param symbol        Symbol (55).
     * @param side          {@link CommandDescriptor#BUY} or {@link CommandDescriptor#SELL}.
     * @param orderType     {@link CommandDescriptor#LIMIT} or {@link CommandDescriptor#MARKET}.
     * @param timeInForce   {@link CommandDescriptor#GTC}, {@link CommandDescriptor#IOC} or
     *                      {@link CommandDescriptor#FOK}.
     * @param postOnly      ExecInst (18) has 6.
     * @param priceMantissa the price's digits.
     * @param priceDecimals digits after the point, {@link CommandDescriptor#NO_PRICE} without a price.
     * @param quantity      OrderQty (38) in units.
     */
    record NewOrder(String clOrdId, long account, int instrumentId, String symbol, byte side, byte orderType,
        byte timeInForce, boolean postOnly, long priceMantissa, int priceDecimals, long quantity)
    {
    }

    /**
     * A cancel or replace: the order it is for and the request's own ClOrdID.
     *
     * @param clOrdId       the request's ClOrdID (11).
     * @param origClOrdId   OrigClOrdID (41), the order's ClOrdID as the client knows it now.
     * @param priceMantissa the new price's digits (replace).
     * @param priceDecimals digits after the point (replace).
     * @param quantity      the new total quantity in units (replace).
     */
    record Amend(String clOrdId, String origClOrdId, long priceMantissa, int priceDecimals, long quantity)
    {
    }

    private final InstrumentRegistry instruments;

    FixOrderMapper(final InstrumentRegistry instruments)
    {
        this.instruments = instruments;
    }

    /**
     * Map a NewOrderSingle.
     *
     * @param message a D.
     * @return the order.
     * @throws FixRefusal naming the tag whose value cannot be taken.
     * @throws FieldNotFound when a tag the dictionary requires is missing (QuickFIX/J rejects it first).
     */
    NewOrder newOrder(final Message message) throws FixRefusal, FieldNotFound
    {
        final String clOrdId = clOrdId(message, ClOrdID.FIELD);
        if (!message.isSetField(ACCOUNT))
        {
            throw new FixRefusal(FixRefusal.CONDITIONALLY_REQUIRED_FIELD_MISSING, "Account(1) is required: the " +
                "account the order is for, one the user is entitled to");
        }
        final long account = account(message.getString(ACCOUNT));
        final String symbol = message.getString(SYMBOL);
        if (symbol.isEmpty() || symbol.length() > CommandDescriptor.SYMBOL_WIDTH)
        {
            throw new FixRefusal(FixRefusal.OTHER, "Symbol(55) must be 1 to " + CommandDescriptor.SYMBOL_WIDTH +
                " characters");
        }
        final InstrumentInfo info = instruments.get(symbol);
        final byte side = side(message.getChar(SIDE));
        final char ordType = message.getChar(ORD_TYPE);
        final byte orderType;
        if ('2' == ordType)
        {
            orderType = CommandDescriptor.LIMIT;
        }
        else if ('1' == ordType)
        {
            orderType = CommandDescriptor.MARKET;
        }
        else
        {
            throw new FixRefusal(FixRefusal.OTHER, "OrdType(40) must be 1 (market) or 2 (limit), not " + ordType);
        }
        final byte timeInForce = message.isSetField(TIME_IN_FORCE) ?
            timeInForce(message.getChar(TIME_IN_FORCE)) : CommandDescriptor.GTC;
        final boolean postOnly = message.isSetField(EXEC_INST) &&
            message.getString(EXEC_INST).indexOf(POST_ONLY) >= 0;
        final long[] price;
        if (message.isSetField(PRICE))
        {
            if (CommandDescriptor.MARKET == orderType)
            {
                throw new FixRefusal(FixRefusal.OTHER, "Price(44) is not allowed on a market order (OrdType(40)=1)");
            }
            price = price(message.getString(PRICE));
        }
        else if (CommandDescriptor.LIMIT == orderType)
        {
            throw new FixRefusal(FixRefusal.CONDITIONALLY_REQUIRED_FIELD_MISSING,
                "Price(44) is required on a limit order (OrdType(40)=2)");
        }
        else
        {
            price = new long[] { 0, CommandDescriptor.NO_PRICE };
        }
        final long quantity = quantity(message);
        return new NewOrder(clOrdId, account, null == info ? -1 : info.id(), symbol, side, orderType, timeInForce,
            postOnly, price[0], (int)price[1], quantity);
    }

    /**
     * Map an OrderCancelRequest.
     *
     * @param message an F.
     * @return the cancel.
     * @throws FixRefusal naming the tag whose value cannot be taken.
     * @throws FieldNotFound when a tag the dictionary requires is missing.
     */
    Amend cancel(final Message message) throws FixRefusal, FieldNotFound
    {
        return new Amend(clOrdId(message, ClOrdID.FIELD), clOrdId(message, OrigClOrdID.FIELD), 0,
            CommandDescriptor.NO_PRICE, 0);
    }

    /**
     * Map an OrderCancelReplaceRequest: a new price and a new total quantity.
     *
     * @param message a G.
     * @return the replace.
     * @throws FixRefusal naming the tag whose value cannot be taken.
     * @throws FieldNotFound when a tag the dictionary requires is missing.
     */
    Amend replace(final Message message) throws FixRefusal, FieldNotFound
    {
        final String clOrdId = clOrdId(message, ClOrdID.FIELD);
        final String origClOrdId = clOrdId(message, OrigClOrdID.FIELD);
        if (!message.isSetField(PRICE))
        {
            throw new FixRefusal(FixRefusal.CONDITIONALLY_REQUIRED_FIELD_MISSING,
                "Price(44) is required: a replace sets the order's price and quantity");
        }
        final long[] price = price(message.getString(PRICE));
        return new Amend(clOrdId, origClOrdId, price[0], (int)price[1], quantity(message));
    }

    /**
     * The reference a refusal or an error names: the message type and its sequence number, as the core's request
     * id carries it and a BusinessMessageReject's RefMsgType (372) and RefSeqNum (45) need it.
     *
     * @param message a message from the client.
     * @return {@code <MsgType>:<MsgSeqNum>}.
     */
    static String requestId(final Message message)
    {
        try
        {
            return message.getHeader().getString(MsgType.FIELD) + ":" +
                message.getHeader().getInt(quickfix.field.MsgSeqNum.FIELD);
        }
        catch (final FieldNotFound ex)
        {
            return null;
        }
    }

    private static String clOrdId(final Message message, final int tag) throws FixRefusal, FieldNotFound
    {
        final String id = message.getString(tag);
        if (!ID.matcher(id).matches())
        {
            throw new FixRefusal(FixRefusal.OTHER, (ClOrdID.FIELD == tag ? "ClOrdID(11)" : "OrigClOrdID(41)") +
                " must be 1 to 36 of A-Z a-z 0-9 . _ : -");
        }
        return id;
    }

    private static long account(final String value) throws FixRefusal
    {
        final long account;
        try
        {
            account = Long.parseLong(value);
        }
        catch (final NumberFormatException ex)
        {
            throw new FixRefusal(FixRefusal.OTHER, "Account(1) must be a number from 0 to " + MAX_ACCOUNT + ", not '" +
                printable(value) + "'");
        }
        if (account < 0 || account > MAX_ACCOUNT)
        {
            throw new FixRefusal(FixRefusal.OTHER, "Account(1) must be a number from 0 to " + MAX_ACCOUNT + ", not " +
                account);
        }
        return account;
    }

    private static byte side(final char side) throws FixRefusal
    {
        switch (side)
        {
            case '1':
                return CommandDescriptor.BUY;
            case '2':
                return CommandDescriptor.SELL;
            default:
                throw new FixRefusal(FixRefusal.OTHER, "Side(54) must be 1 (buy) or 2 (sell), not " + side);
        }
    }

    private static byte timeInForce(final char timeInForce) throws FixRefusal
    {
        switch (timeInForce)
        {
            case '1':
                return CommandDescriptor.GTC;
            case '3':
                return CommandDescriptor.IOC;
            case '4':
                return CommandDescriptor.FOK;
            default:
                throw new FixRefusal(FixRefusal.OTHER, "TimeInForce(59) must be 1 (GTC), 3 (IOC) or 4 (FOK), not " +
                    timeInForce);
        }
    }

    /**
     * OrderQty (38) in units: a whole number of at most 10^18 in magnitude; zero and negative ones go to the core,
     * which refuses them with its reason.
     */
    private static long quantity(final Message message) throws FixRefusal, FieldNotFound
    {
        if (!message.isSetField(ORDER_QTY))
        {
            throw new FixRefusal(FixRefusal.CONDITIONALLY_REQUIRED_FIELD_MISSING, "OrderQty(38) is required");
        }
        final String value = message.getString(ORDER_QTY);
        final BigDecimal quantity;
        try
        {
            quantity = new BigDecimal(value);
        }
        catch (final NumberFormatException ex)
        {
            throw new FixRefusal(FixRefusal.OTHER, "OrderQty(38) must be a number, not '" + printable(value) + "'");
        }
        if (quantity.abs().compareTo(MAX_QUANTITY) > 0)
        {
            throw new FixRefusal(FixRefusal.OTHER, "OrderQty(38) " + printable(value) + " is out of range: at most " +
                MAX_QUANTITY);
        }
        try
        {
            return quantity.longValueExact();
        }
        catch (final ArithmeticException ex)
        {
            throw new FixRefusal(FixRefusal.OTHER, "OrderQty(38) must be a whole number of units, not " +
                printable(value));
        }
    }

    /**
     * A decimal price as {mantissa, decimals}.
     */
    static long[] price(final String value) throws FixRefusal
    {
        final BigDecimal price;
        try
        {
            price = new BigDecimal(value);
        }
        catch (final NumberFormatException ex)
        {
            throw new FixRefusal(FixRefusal.OTHER, "Price(44) must be a decimal number, not '" + printable(value) +
                "'");
        }
        final BigDecimal plain = price.scale() < 0 ? price.setScale(0) : price;
        if (plain.precision() > MAX_PRICE_DIGITS || plain.unscaledValue().bitLength() > 63)
        {
            throw new FixRefusal(FixRefusal.OTHER, "Price(44) must have at most " + MAX_PRICE_DIGITS + " digits, not " +
                printable(value));
        }
        return new long[] { plain.unscaledValue().longValueExact(), plain.scale() };
    }

    private static String printable(final String value)
    {
        final StringBuilder text = new StringBuilder(Math.min(value.length(), 40));
        for (int i = 0; i < value.length() && i < 40; i++)
        {
            final char c = value.charAt(i);
            text.append(c >= 0x20 && c < 0x7F ? c : '?');
        }
        return text.toString();
    }
}
