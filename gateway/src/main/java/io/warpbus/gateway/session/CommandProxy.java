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

import java.util.concurrent.locks.LockSupport;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;

/**
 * How protocol adapters hand commands to the {@link SessionCore}: each method encodes one command straight into
 * the core's inbound many-to-one ring buffer ({@link CommandDescriptor} layout). Safe from any number of threads;
 * never blocks: a {@code false} return means the ring is full, and the adapter decides whether to retry or to tell
 * its client the gateway is busy.
 */
public final class CommandProxy
{
    private final RingBuffer ring;
    private volatile Thread consumer;

    CommandProxy(final RingBuffer ring)
    {
        this.ring = ring;
    }

    /**
     * The thread that reads the commands, woken after each one: a core parked by its idle strategy (up to a
     * millisecond with back-off) takes a command at once instead of at its next wake-up.
     *
     * @param thread the session core's thread, or null.
     */
    void consumer(final Thread thread)
    {
        consumer = thread;
    }

    private void commit(final int index)
    {
        ring.commit(index);
        final Thread thread = consumer;
        if (null != thread)
        {
            LockSupport.unpark(thread);
        }
    }

    /**
     * A logon whose credentials were verified.
     *
     * @param connection  connection index.
     * @param receivedNs  when it arrived.
     * @param requestId   the client's request id, or null.
     * @param userIndex   the authenticated user.
     * @param heartbeatMs the interval asked for.
     * @param resumeFrom  the sequence number to resume from, or -1 for a new session.
     * @param tokenHigh   first half of the session token to resume, 0 for none.
     * @param tokenLow    second half.
     * @param name        the session name.
     * @param address     the client's address.
     * @return false when the ring is full.
     */
    @SuppressWarnings("checkstyle:parameternumber")
    public boolean logon(final int connection, final long receivedNs, final CharSequence requestId,
        final int userIndex, final int heartbeatMs, final long resumeFrom, final long tokenHigh, final long tokenLow,
        final CharSequence name, final CharSequence address)
    {
        return logon(connection, receivedNs, requestId, userIndex, heartbeatMs, resumeFrom, tokenHigh, tokenLow, name,
            address, (byte)0);
    }

    /**
     * A logon whose credentials were verified, with flags.
     *
     * @param connection  connection index.
     * @param receivedNs  when it arrived.
     * @param requestId   the client's request id, or null.
     * @param userIndex   the authenticated user.
     * @param heartbeatMs the interval asked for.
     * @param resumeFrom  the sequence number to resume from, or -1 for a new session.
     * @param tokenHigh   first half of the session token to resume, 0 for none.
     * @param tokenLow    second half.
     * @param name        the session name.
     * @param address     the client's address.
     * @param flags       {@link CommandDescriptor#LOGON_DROP_COPY} or 0.
     * @return false when the ring is full.
     */
    @SuppressWarnings("checkstyle:parameternumber")
    public boolean logon(final int connection, final long receivedNs, final CharSequence requestId,
        final int userIndex, final int heartbeatMs, final long resumeFrom, final long tokenHigh, final long tokenLow,
        final CharSequence name, final CharSequence address, final byte flags)
    {
        final int index = ring.tryClaim(CommandDescriptor.LOGON, CommandDescriptor.LOGON_LENGTH);
        if (index <= 0)
        {
            return false;
        }
        final MutableDirectBuffer buffer = ring.buffer();
        CommandDescriptor.putHeader(buffer, index, connection, receivedNs, requestId);
        buffer.putInt(index + CommandDescriptor.USER_OFFSET, userIndex);
        buffer.putInt(index + CommandDescriptor.HEARTBEAT_MS_OFFSET, heartbeatMs);
        buffer.putLong(index + CommandDescriptor.RESUME_FROM_OFFSET, resumeFrom);
        buffer.putLong(index + CommandDescriptor.RESUME_TOKEN_OFFSET, tokenHigh);
        buffer.putLong(index + CommandDescriptor.RESUME_TOKEN_OFFSET + 8, tokenLow);
        CommandDescriptor.putAscii(buffer, index + CommandDescriptor.SESSION_NAME_OFFSET,
            CommandDescriptor.SESSION_NAME_WIDTH, name);
        CommandDescriptor.putAscii(buffer, index + CommandDescriptor.ADDRESS_OFFSET, CommandDescriptor.ADDRESS_WIDTH,
            address);
        buffer.putByte(index + CommandDescriptor.LOGON_FLAGS_OFFSET, flags);
        commit(index);
        return true;
    }

    /**
     * A command with no body: {@code LOGOUT}, {@code OPEN_ORDERS}, {@code INSTRUMENTS} or {@code CLOSED}.
     *
     * @param type       the command type.
     * @param connection connection index.
     * @param receivedNs when it arrived.
     * @param requestId  the client's request id, or null.
     * @return false when the ring is full.
     */
    public boolean simple(final int type, final int connection, final long receivedNs, final CharSequence requestId)
    {
        final int index = ring.tryClaim(type, CommandDescriptor.BODY_OFFSET);
        if (index <= 0)
        {
            return false;
        }
        CommandDescriptor.putHeader(ring.buffer(), index, connection, receivedNs, requestId);
        commit(index);
        return true;
    }

    /**
     * A {@code HEARTBEAT} or {@code TEST_REQUEST}.
     *
     * @param type       which.
     * @param connection connection index.
     * @param receivedNs when it arrived.
     * @param requestId  the client's request id, or null.
     * @param testId     the test request id, or null.
     * @return false when the ring is full.
     */
    public boolean heartbeat(final int type, final int connection, final long receivedNs,
        final CharSequence requestId, final CharSequence testId)
    {
        final int index = ring.tryClaim(type, CommandDescriptor.HEARTBEAT_LENGTH);
        if (index <= 0)
        {
            return false;
        }
        final MutableDirectBuffer buffer = ring.buffer();
        CommandDescriptor.putHeader(buffer, index, connection, receivedNs, requestId);
        CommandDescriptor.putAscii(buffer, index + CommandDescriptor.TEST_ID_OFFSET, CommandDescriptor.TEST_ID_WIDTH,
            testId);
        commit(index);
        return true;
    }

    /**
     * A {@code SUBSCRIBE} or {@code UNSUBSCRIBE}.
     *
     * @param type         which.
     * @param connection   connection index.
     * @param receivedNs   when it arrived.
     * @param requestId    the client's request id, or null.
     * @param instrumentId the instrument, or -1 when the symbol is unknown.
     * @param symbol       the symbol asked for.
     * @return false when the ring is full.
     */
    public boolean subscription(final int type, final int connection, final long receivedNs,
        final CharSequence requestId, final int instrumentId, final CharSequence symbol)
    {
        final int index = ring.tryClaim(type, CommandDescriptor.SUBSCRIBE_LENGTH);
        if (index <= 0)
        {
            return false;
        }
        final MutableDirectBuffer buffer = ring.buffer();
        CommandDescriptor.putHeader(buffer, index, connection, receivedNs, requestId);
        buffer.putInt(index + CommandDescriptor.INSTRUMENT_OFFSET, instrumentId);
        CommandDescriptor.putAscii(buffer, index + CommandDescriptor.SUBSCRIBE_SYMBOL_OFFSET,
            CommandDescriptor.SYMBOL_WIDTH, symbol);
        commit(index);
        return true;
    }

    /**
     * A new order.
     *
     * @param connection    connection index.
     * @param receivedNs    when it arrived.
     * @param requestId     the client's request id, or null.
     * @param clientOrderId the client's order id.
     * @param account       the account.
     * @param instrumentId  the instrument, or -1 when the symbol is unknown.
     * @param symbol        the symbol asked for.
     * @param side          {@link CommandDescriptor#BUY} or {@link CommandDescriptor#SELL}.
     * @param orderType     {@link CommandDescriptor#LIMIT} or {@link CommandDescriptor#MARKET}.
     * @param timeInForce   {@link CommandDescriptor#GTC}, {@link CommandDescriptor#IOC} or
     *                      {@link CommandDescriptor#FOK}.
     * @param postOnly      rejected if it would trade on arrival.
     * @param priceMantissa the price's digits.
     * @param priceDecimals digits after the decimal point, or {@link CommandDescriptor#NO_PRICE}.
     * @param quantity      in units.
     * @return false when the ring is full.
     */
    @SuppressWarnings("checkstyle:parameternumber")
    public boolean newOrder(final int connection, final long receivedNs, final CharSequence requestId,
        final CharSequence clientOrderId, final long account, final int instrumentId, final CharSequence symbol,
        final byte side, final byte orderType, final byte timeInForce, final boolean postOnly,
        final long priceMantissa, final int priceDecimals, final long quantity)
    {
        final int index = ring.tryClaim(CommandDescriptor.NEW_ORDER, CommandDescriptor.ORDER_LENGTH);
        if (index <= 0)
        {
            return false;
        }
        final MutableDirectBuffer buffer = ring.buffer();
        CommandDescriptor.putHeader(buffer, index, connection, receivedNs, requestId);
        CommandDescriptor.putAscii(buffer, index + CommandDescriptor.CLIENT_ORDER_ID_OFFSET,
            CommandDescriptor.CLIENT_ORDER_ID_WIDTH, clientOrderId);
        buffer.putLong(index + CommandDescriptor.ACCOUNT_OFFSET, account);
        buffer.putInt(index + CommandDescriptor.ORDER_INSTRUMENT_OFFSET, instrumentId);
        buffer.putByte(index + CommandDescriptor.SIDE_OFFSET, side);
        buffer.putByte(index + CommandDescriptor.ORDER_TYPE_OFFSET, orderType);
        buffer.putByte(index + CommandDescriptor.TIME_IN_FORCE_OFFSET, timeInForce);
        buffer.putByte(index + CommandDescriptor.POST_ONLY_OFFSET, (byte)(postOnly ? 1 : 0));
        buffer.putLong(index + CommandDescriptor.PRICE_OFFSET, priceMantissa);
        buffer.putInt(index + CommandDescriptor.PRICE_DECIMALS_OFFSET, priceDecimals);
        buffer.putLong(index + CommandDescriptor.QUANTITY_OFFSET, quantity);
        CommandDescriptor.putAscii(buffer, index + CommandDescriptor.ORDER_SYMBOL_OFFSET,
            CommandDescriptor.SYMBOL_WIDTH, symbol);
        commit(index);
        return true;
    }

    /**
     * A cancel.
     *
     * @param connection    connection index.
     * @param receivedNs    when it arrived.
     * @param requestId     the client's request id, or null.
     * @param clientOrderId the order to cancel.
     * @return false when the ring is full.
     */
    public boolean cancel(final int connection, final long receivedNs, final CharSequence requestId,
        final CharSequence clientOrderId)
    {
        final int index = ring.tryClaim(CommandDescriptor.CANCEL, CommandDescriptor.CANCEL_LENGTH);
        if (index <= 0)
        {
            return false;
        }
        final MutableDirectBuffer buffer = ring.buffer();
        CommandDescriptor.putHeader(buffer, index, connection, receivedNs, requestId);
        CommandDescriptor.putAscii(buffer, index + CommandDescriptor.CLIENT_ORDER_ID_OFFSET,
            CommandDescriptor.CLIENT_ORDER_ID_WIDTH, clientOrderId);
        commit(index);
        return true;
    }

    /**
     * A replace: the order's new price and new total quantity.
     *
     * @param connection    connection index.
     * @param receivedNs    when it arrived.
     * @param requestId     the client's request id, or null.
     * @param clientOrderId the order to amend.
     * @param priceMantissa the new price's digits.
     * @param priceDecimals digits after the decimal point.
     * @param quantity      the new quantity in units.
     * @return false when the ring is full.
     */
    @SuppressWarnings("checkstyle:parameternumber")
    public boolean replace(final int connection, final long receivedNs, final CharSequence requestId,
        final CharSequence clientOrderId, final long priceMantissa, final int priceDecimals, final long quantity)
    {
        final int index = ring.tryClaim(CommandDescriptor.REPLACE, CommandDescriptor.ORDER_LENGTH);
        if (index <= 0)
        {
            return false;
        }
        final MutableDirectBuffer buffer = ring.buffer();
        CommandDescriptor.putHeader(buffer, index, connection, receivedNs, requestId);
        CommandDescriptor.putAscii(buffer, index + CommandDescriptor.CLIENT_ORDER_ID_OFFSET,
            CommandDescriptor.CLIENT_ORDER_ID_WIDTH, clientOrderId);
        buffer.putLong(index + CommandDescriptor.PRICE_OFFSET, priceMantissa);
        buffer.putInt(index + CommandDescriptor.PRICE_DECIMALS_OFFSET, priceDecimals);
        buffer.putLong(index + CommandDescriptor.QUANTITY_OFFSET, quantity);
        commit(index);
        return true;
    }

    /**
     * A message the adapter could not turn into a command.
     *
     * @param connection connection index.
     * @param receivedNs when it arrived.
     * @param requestId  the client's request id, if it could be read, or null.
     * @param error      what kind of error.
     * @param text       what was wrong.
     * @return false when the ring is full.
     */
    public boolean protocolError(final int connection, final long receivedNs, final CharSequence requestId,
        final ProtocolError error, final CharSequence text)
    {
        final int index = ring.tryClaim(CommandDescriptor.PROTOCOL_ERROR, CommandDescriptor.ERROR_LENGTH);
        if (index <= 0)
        {
            return false;
        }
        final MutableDirectBuffer buffer = ring.buffer();
        CommandDescriptor.putHeader(buffer, index, connection, receivedNs, requestId);
        buffer.putInt(index + CommandDescriptor.ERROR_CODE_OFFSET, error.code());
        EventText.put(buffer, index + CommandDescriptor.ERROR_TEXT_OFFSET, text);
        commit(index);
        return true;
    }
}
