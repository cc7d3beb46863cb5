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

/**
 * Layout of the events the {@link SessionCore} writes for a connection's protocol adapter to send, and journals for
 * a session's resend: one message per event in the connection's outbound ring, the ring's message type id saying
 * which, native byte order. Every event starts with the session's sequence number (0 before a session exists):
 * <pre>
 *   0  int64 seq
 *   LOGON_ACCEPTED   8 16 bytes session token, 24 int32 user index, 28 int32 heartbeat ms,
 *                    32 int64 resend from (0: nothing to resend), 40 int64 resend to, 48 uint8 resumed
 *   LOGON_REJECTED,  8 int32 code, 12 uint16 + up to 256 bytes text
 *   LOGOUT, CLOSE
 *   HEARTBEAT,       8 uint8 + 32 bytes test id
 *   TEST_REQUEST
 *   ERROR            8 int32 code, 12 uint8 + 36 bytes request id, 50 uint16 + up to 256 bytes text
 *   GAP_FILL         8 int64 new seq: the sequence numbers from seq up to it carried nothing to resend
 *   INSTRUMENTS      8 uint8 + 36 bytes request id, 48 int32 user index (whose entitlements filter the list)
 *   SUBSCRIBED,      8 int32 instrument id, 12 uint8 + 36 bytes request id
 *   UNSUBSCRIBED
 *   BOOK             8 int32 instrument id, 12 uint8 reason, 16 int64 market-data seq, 24 int32 bid levels,
 *                    28 int32 ask levels, 32 levels of 24 bytes (int64 price, int64 quantity in units, int32
 *                    orders), bids best first, then asks best first
 *   BOOK_UPDATE      8 int32 instrument id, 12 int32 levels, 16 int64 market-data seq, 24 levels of 24 bytes
 *                    (int64 price, int64 quantity in units after the change, 0 when gone, int32 orders,
 *                    uint8 side)
 *   TRADE            8 int32 instrument id, 12 uint8 aggressor side (255: none), 16 int64 market-data seq,
 *                    24 int64 trade id, 32 int64 price, 40 int64 quantity in units, 48 int64 transact time
 *   EXECUTION_REPORT 8 uint8 + 36 bytes client order id, 48 int64 order id, 56 int64 exec id, 64 int64 account,
 *                    72 int32 instrument id, 76 uint8 exec type, 77 uint8 order status, 78 uint8 side,
 *                    79 uint8 order type, 80 uint8 time in force, 81 uint8 post-only, 82 uint16 reason,
 *                    84 uint8 request only (1: a refused request that changed no order), 85 uint8 copy of
 *                    another gateway's order (1: a drop copy from the engine's drop-copy stream; its client
 *                    order id is {@code R<origin>.<sequence>}, its exec id counts on that origin's route),
 *                    86 uint16 that origin, 88 int64 price,
 *                    96 int64 quantity, 104 int64 last price, 112 int64 last quantity,
 *                    120 int64 cumulative quantity, 128 int64 leaves quantity, 136 int64 cumulative notional
 *                    (sum of fill price times quantity), 144 int64 transact time
 *   OPEN_ORDERS      8 uint8 + 36 bytes request id, 45 uint8 more to come, 48 int32 count, 56 orders of
 *                    {@value #ORDER_ENTRY_LENGTH} bytes laid out as an EXECUTION_REPORT from offset 8
 * </pre>
 * Quantities are in units (lots times the lot size), prices in the instrument's price units.
 */
public final class EventDescriptor
{
    /** The logon succeeded: the session and what will be resent. */
    public static final int LOGON_ACCEPTED = 1;
    /** The logon was refused; the connection closes. */
    public static final int LOGON_REJECTED = 2;
    /** The session ended; the connection closes. */
    public static final int LOGOUT = 3;
    /** A heartbeat, possibly answering a test request. */
    public static final int HEARTBEAT = 4;
    /** The gateway asks the client for a heartbeat. */
    public static final int TEST_REQUEST = 5;
    /** A request could not be honoured. */
    public static final int ERROR = 6;
    /** Sequence numbers that carried only market data or heartbeats, skipped by a resend. */
    public static final int GAP_FILL = 7;
    /** The instrument list. */
    public static final int INSTRUMENTS = 8;
    /** A subscription started. */
    public static final int SUBSCRIBED = 9;
    /** A subscription ended. */
    public static final int UNSUBSCRIBED = 10;
    /** A whole book. */
    public static final int BOOK = 11;
    /** Changed levels of a book. */
    public static final int BOOK_UPDATE = 12;
    /** A trade. */
    public static final int TRADE = 13;
    /** What happened to an order. */
    public static final int EXECUTION_REPORT = 14;
    /** The session's open orders. */
    public static final int OPEN_ORDERS = 15;
    /** Not sent: close the connection after what came before, with this code and reason. */
    public static final int CLOSE = 16;

    /** Book message reasons. */
    public static final byte BOOK_SUBSCRIBED = 1;
    public static final byte BOOK_CONFLATED = 2;
    public static final byte BOOK_RESYNCED = 3;
    public static final byte BOOK_RESUMED = 4;

    /** Aggressor side of a trade with none. */
    public static final byte NO_SIDE = (byte)255;

    public static final int SEQ_OFFSET = 0;

    public static final int TOKEN_OFFSET = 8;
    public static final int LOGON_USER_OFFSET = 24;
    public static final int LOGON_HEARTBEAT_OFFSET = 28;
    public static final int RESEND_FROM_OFFSET = 32;
    public static final int RESEND_TO_OFFSET = 40;
    public static final int RESUMED_OFFSET = 48;
    public static final int LOGON_ACCEPTED_LENGTH = 49;

    public static final int CODE_OFFSET = 8;
    public static final int REASON_TEXT_OFFSET = 12;
    public static final int TEXT_WIDTH = 256;
    public static final int REASON_LENGTH = 14 + TEXT_WIDTH;

    public static final int TEST_ID_OFFSET = 8;
    public static final int TEST_ID_WIDTH = 32;
    public static final int HEARTBEAT_LENGTH = 41;

    public static final int ERROR_REQUEST_ID_OFFSET = 12;
    public static final int REQUEST_ID_WIDTH = 36;
    public static final int ERROR_TEXT_OFFSET = 50;
    public static final int ERROR_LENGTH = 52 + TEXT_WIDTH;

    public static final int NEW_SEQ_OFFSET = 8;
    public static final int GAP_FILL_LENGTH = 16;

    public static final int INSTRUMENTS_REQUEST_ID_OFFSET = 8;
    public static final int INSTRUMENTS_USER_OFFSET = 48;
    public static final int INSTRUMENTS_LENGTH = 52;

    public static final int INSTRUMENT_OFFSET = 8;
    public static final int SUBSCRIPTION_REQUEST_ID_OFFSET = 12;
    public static final int SUBSCRIPTION_LENGTH = 49;

    public static final int BOOK_REASON_OFFSET = 12;
    public static final int MD_SEQ_OFFSET = 16;
    public static final int BID_COUNT_OFFSET = 24;
    public static final int ASK_COUNT_OFFSET = 28;
    public static final int BOOK_LEVELS_OFFSET = 32;
    public static final int UPDATE_COUNT_OFFSET = 12;
    public static final int UPDATE_LEVELS_OFFSET = 24;
    public static final int LEVEL_LENGTH = 24;
    public static final int LEVEL_PRICE_OFFSET = 0;
    public static final int LEVEL_QUANTITY_OFFSET = 8;
    public static final int LEVEL_ORDERS_OFFSET = 16;
    public static final int LEVEL_SIDE_OFFSET = 20;

    public static final int AGGRESSOR_OFFSET = 12;
    public static final int TRADE_ID_OFFSET = 24;
    public static final int TRADE_PRICE_OFFSET = 32;
    public static final int TRADE_QUANTITY_OFFSET = 40;
    public static final int TRADE_TIME_OFFSET = 48;
    public static final int TRADE_LENGTH = 56;

    public static final int CLIENT_ORDER_ID_OFFSET = 8;
    public static final int CLIENT_ORDER_ID_WIDTH = 36;
    public static final int ORDER_ID_OFFSET = 48;
    public static final int EXEC_ID_OFFSET = 56;
    public static final int ACCOUNT_OFFSET = 64;
    public static final int REPORT_INSTRUMENT_OFFSET = 72;
    public static final int EXEC_TYPE_OFFSET = 76;
    public static final int ORDER_STATUS_OFFSET = 77;
    public static final int SIDE_OFFSET = 78;
    public static final int ORDER_TYPE_OFFSET = 79;
    public static final int TIME_IN_FORCE_OFFSET = 80;
    public static final int POST_ONLY_OFFSET = 81;
    public static final int REASON_OFFSET = 82;
    public static final int REQUEST_ONLY_OFFSET = 84;
    public static final int FOREIGN_COPY_OFFSET = 85;
    public static final int FOREIGN_ORIGIN_OFFSET = 86;
    public static final int PRICE_OFFSET = 88;
    public static final int QUANTITY_OFFSET = 96;
    public static final int LAST_PRICE_OFFSET = 104;
    public static final int LAST_QUANTITY_OFFSET = 112;
    public static final int CUM_QUANTITY_OFFSET = 120;
    public static final int LEAVES_QUANTITY_OFFSET = 128;
    public static final int CUM_NOTIONAL_OFFSET = 136;
    public static final int TRANSACT_TIME_OFFSET = 144;
    public static final int EXECUTION_REPORT_LENGTH = 152;

    public static final int OPEN_ORDERS_REQUEST_ID_OFFSET = 8;
    public static final int OPEN_ORDERS_MORE_OFFSET = 45;
    public static final int OPEN_ORDERS_COUNT_OFFSET = 48;
    public static final int OPEN_ORDERS_ENTRIES_OFFSET = 56;
    public static final int ORDER_ENTRY_LENGTH = EXECUTION_REPORT_LENGTH - 8;
    public static final int MAX_ORDERS_PER_MESSAGE = 50;

    private EventDescriptor()
    {
    }

    /**
     * Is an event kept in the session journal and sent again on resume? Everything a session is told about its
     * requests and orders is; market data, heartbeats and the logon exchange are not (a resend fills their sequence
     * numbers with {@link #GAP_FILL}).
     *
     * @param type an event type.
     * @return true if journaled.
     */
    public static boolean isRecoverable(final int type)
    {
        switch (type)
        {
            case ERROR:
            case INSTRUMENTS:
            case SUBSCRIBED:
            case UNSUBSCRIBED:
            case EXECUTION_REPORT:
            case OPEN_ORDERS:
                return true;
            default:
                return false;
        }
    }

    /**
     * Is an event market data (counted and conflated as such)?
     *
     * @param type an event type.
     * @return true for books, book updates and trades.
     */
    public static boolean isMarketData(final int type)
    {
        return BOOK == type || BOOK_UPDATE == type || TRADE == type;
    }
}
