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

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Layout of the commands protocol adapters hand to the {@link SessionCore} through its inbound ring buffer: one
 * message per client request, already parsed and checked for syntax by the adapter, with the ring's message type id
 * saying which command it is. Native byte order (the ring never leaves the process). Every command starts with:
 * <pre>
 *   0                   4                   8
 *   +-------------------+-------------------+
 *   | connection index  |     reserved      |
 *   +-------------------+-------------------+
 *   |      received ns (adapter's nanoTime)  |  16
 *   +----+----------------------------------+
 *   |len | request id, ASCII, 36 bytes ...   |  17..52, then padding to 56
 *   +----+----------------------------------+
 * </pre>
 * Bodies from offset {@value #BODY_OFFSET}:
 * <pre>
 *   LOGON        56 int32 user index, 60 int32 heartbeat ms, 64 int64 resume-from seq (-1: new session),
 *                72 16 bytes resume token, 88 uint8 + 32 bytes session name, 121 uint8 + 46 bytes remote address,
 *                168 uint8 flags ({@link #LOGON_DROP_COPY}: the session gets a copy of every fill of its user's
 *                accounts)
 *   HEARTBEAT,   56 uint8 + 32 bytes test id (0: none)
 *   TEST_REQUEST
 *   SUBSCRIBE,   56 int32 instrument id (-1: unknown symbol), 60 uint8 + 16 bytes symbol as asked
 *   UNSUBSCRIBE
 *   NEW_ORDER    56 uint8 + 36 bytes client order id, 96 int64 account, 104 int32 instrument id (-1: unknown),
 *                108 uint8 side, 109 uint8 order type, 110 uint8 time in force, 111 uint8 post-only,
 *                112 int64 price mantissa, 120 int32 price decimals (-1: no price), 128 int64 quantity in units,
 *                136 uint8 + 16 bytes symbol as asked
 *   CANCEL       56 uint8 + 36 bytes client order id
 *   REPLACE      as NEW_ORDER's client order id, price and quantity
 *   PROTOCOL_ERROR 56 int32 {@link ProtocolError} code, 60 uint16 + up to 256 bytes text
 *   LOGOUT, OPEN_ORDERS, INSTRUMENTS, CLOSED: no body
 * </pre>
 * Strings are ASCII, length-prefixed, at most the field's width: adapters refuse longer input before encoding.
 */
public final class CommandDescriptor
{
    /** Log on, credentials already verified by the adapter. */
    public static final int LOGON = 1;
    /** Log out. */
    public static final int LOGOUT = 2;
    /** A heartbeat, possibly answering a test request. */
    public static final int HEARTBEAT = 3;
    /** The client asks for a heartbeat. */
    public static final int TEST_REQUEST = 4;
    /** Subscribe to an instrument's market data. */
    public static final int SUBSCRIBE = 5;
    /** Unsubscribe. */
    public static final int UNSUBSCRIBE = 6;
    /** A new order. */
    public static final int NEW_ORDER = 7;
    /** Cancel a live order. */
    public static final int CANCEL = 8;
    /** Amend a live order's price and quantity. */
    public static final int REPLACE = 9;
    /** List the session's open orders. */
    public static final int OPEN_ORDERS = 10;
    /** List the instruments. */
    public static final int INSTRUMENTS = 11;
    /** The adapter could not turn a message into a command; the core answers with an error. */
    public static final int PROTOCOL_ERROR = 12;
    /** The connection is gone (closed by the client or the network). */
    public static final int CLOSED = 13;

    public static final int CONNECTION_OFFSET = 0;
    public static final int RECEIVED_NS_OFFSET = 8;
    public static final int REQUEST_ID_OFFSET = 16;
    public static final int REQUEST_ID_WIDTH = 36;
    public static final int BODY_OFFSET = 56;

    public static final int USER_OFFSET = 56;
    public static final int HEARTBEAT_MS_OFFSET = 60;
    public static final int RESUME_FROM_OFFSET = 64;
    public static final int RESUME_TOKEN_OFFSET = 72;
    public static final int TOKEN_LENGTH = 16;
    public static final int SESSION_NAME_OFFSET = 88;
    public static final int SESSION_NAME_WIDTH = 32;
    public static final int ADDRESS_OFFSET = 121;
    public static final int ADDRESS_WIDTH = 46;
    public static final int LOGON_FLAGS_OFFSET = 168;
    public static final int LOGON_LENGTH = 169;
    /** Logon flag: a drop-copy session. */
    public static final byte LOGON_DROP_COPY = 1;

    public static final int TEST_ID_OFFSET = 56;
    public static final int TEST_ID_WIDTH = 32;
    public static final int HEARTBEAT_LENGTH = 89;

    public static final int INSTRUMENT_OFFSET = 56;
    public static final int SUBSCRIBE_SYMBOL_OFFSET = 60;
    public static final int SYMBOL_WIDTH = 16;
    public static final int SUBSCRIBE_LENGTH = 77;

    public static final int CLIENT_ORDER_ID_OFFSET = 56;
    public static final int CLIENT_ORDER_ID_WIDTH = 36;
    public static final int ACCOUNT_OFFSET = 96;
    public static final int ORDER_INSTRUMENT_OFFSET = 104;
    public static final int SIDE_OFFSET = 108;
    public static final int ORDER_TYPE_OFFSET = 109;
    public static final int TIME_IN_FORCE_OFFSET = 110;
    public static final int POST_ONLY_OFFSET = 111;
    public static final int PRICE_OFFSET = 112;
    public static final int PRICE_DECIMALS_OFFSET = 120;
    public static final int QUANTITY_OFFSET = 128;
    public static final int ORDER_SYMBOL_OFFSET = 136;
    public static final int ORDER_LENGTH = 153;
    public static final int CANCEL_LENGTH = 93;

    public static final int ERROR_CODE_OFFSET = 56;
    public static final int ERROR_TEXT_OFFSET = 60;
    public static final int ERROR_TEXT_WIDTH = 256;
    public static final int ERROR_LENGTH = 62 + ERROR_TEXT_WIDTH;

    /** Price decimals meaning the order has no price. */
    public static final int NO_PRICE = -1;

    /** Order types. */
    public static final byte LIMIT = 0;
    public static final byte MARKET = 1;

    /** Sides. */
    public static final byte BUY = 0;
    public static final byte SELL = 1;

    /** Times in force. */
    public static final byte GTC = 0;
    public static final byte IOC = 1;
    public static final byte FOK = 2;

    /** The longest command. */
    public static final int MAX_LENGTH = ERROR_LENGTH;

    private CommandDescriptor()
    {
    }

    /**
     * Write the common header.
     *
     * @param buffer     to write to.
     * @param offset     where the command starts.
     * @param connection index of the connection it came on.
     * @param receivedNs when the adapter received it.
     * @param requestId  the client's request id, or null.
     */
    public static void putHeader(final MutableDirectBuffer buffer, final int offset, final int connection,
        final long receivedNs, final CharSequence requestId)
    {
        buffer.putInt(offset + CONNECTION_OFFSET, connection);
        buffer.putInt(offset + 4, 0);
        buffer.putLong(offset + RECEIVED_NS_OFFSET, receivedNs);
        putAscii(buffer, offset + REQUEST_ID_OFFSET, REQUEST_ID_WIDTH, requestId);
    }

    /**
     * Write a length-prefixed ASCII string: a length byte, then the characters; anything past the width or outside
     * printable ASCII is replaced, so a command is always well formed.
     *
     * @param buffer to write to.
     * @param offset of the length byte.
     * @param width  most characters.
     * @param value  the string, or null for the empty string.
     */
    public static void putAscii(final MutableDirectBuffer buffer, final int offset, final int width,
        final CharSequence value)
    {
        final int length = null == value ? 0 : Math.min(width, value.length());
        buffer.putByte(offset, (byte)length);
        for (int i = 0; i < length; i++)
        {
            final char c = value.charAt(i);
            buffer.putByte(offset + 1 + i, (byte)(c >= 0x20 && c < 0x7F ? c : '?'));
        }
    }

    /**
     * Read a length-prefixed ASCII string into a builder, allocation free.
     *
     * @param buffer to read.
     * @param offset of the length byte.
     * @param width  most characters.
     * @param into   cleared, then appended to.
     * @return the builder.
     */
    public static StringBuilder getAscii(final DirectBuffer buffer, final int offset, final int width,
        final StringBuilder into)
    {
        into.setLength(0);
        final int length = Math.min(width, buffer.getByte(offset) & 0xFF);
        for (int i = 0; i < length; i++)
        {
            into.append((char)buffer.getByte(offset + 1 + i));
        }
        return into;
    }

    /**
     * Length of a length-prefixed ASCII string.
     *
     * @param buffer to read.
     * @param offset of the length byte.
     * @param width  most characters.
     * @return its length.
     */
    public static int asciiLength(final DirectBuffer buffer, final int offset, final int width)
    {
        return Math.min(width, buffer.getByte(offset) & 0xFF);
    }
}
