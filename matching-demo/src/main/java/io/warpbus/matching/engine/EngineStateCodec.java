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
package io.warpbus.matching.engine;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import io.warpbus.matching.Instrument;
import io.warpbus.matching.OrderType;
import io.warpbus.matching.RiskLimits;
import io.warpbus.matching.Side;
import io.warpbus.matching.book.OrderBook;
import io.warpbus.matching.book.OrderVisitor;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The whole state of a {@link MatchingEngine} encoded in a buffer, little-endian, for a fast restart: what the engine
 * service's checkpoints carry. Layout, in order:
 * <pre>
 *   header       int magic "WBME", int version
 *   engine       long lastOrderId
 *   instruments  int count, then per instrument:
 *                  int id, int priceScale, int priceBandBps, long tickSize, long lotSize, long referencePrice,
 *                  byte symbolLength, symbolLength ASCII bytes
 *   accounts     int count, then per account:
 *                  int id, long maxOrderQuantity, long maxNotional, long positionLimit,
 *                  long position per instrument, in instrument order
 *   books        per instrument, in instrument order:
 *                  long lastTradePrice, long lastTradeId, int orderCount, then per order in priority order:
 *                  long orderId, long clientOrderId, int accountId, byte side, byte type,
 *                  long price, long quantity, long filledQuantity
 *   trailer      long stateHash of the engine that wrote it, checked on restore
 * </pre>
 * Instruments and accounts keep the order they were added in, and orders the priority order, so the restored
 * engine hashes and behaves exactly as the original.
 */
final class EngineStateCodec
{
    static final int MAGIC = 0x454D_4257;
    static final int VERSION = 1;

    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    private static final int HEADER_LENGTH = 4 + 4 + 8;
    private static final int INSTRUMENT_FIXED_LENGTH = 4 + 4 + 4 + 8 + 8 + 8 + 1;
    private static final int ACCOUNT_FIXED_LENGTH = 4 + 8 + 8 + 8;
    private static final int BOOK_FIXED_LENGTH = 8 + 8 + 4;
    private static final int ORDER_LENGTH = 8 + 8 + 4 + 1 + 1 + 8 + 8 + 8;

    private EngineStateCodec()
    {
    }

    static int length(final MatchingEngine engine)
    {
        final int instrumentCount = engine.instrumentCount();
        int length = HEADER_LENGTH + 4 + 4 + 8;
        for (int i = 0; i < instrumentCount; i++)
        {
            length += INSTRUMENT_FIXED_LENGTH + engine.instrumentAt(i).symbol().length();
            length += BOOK_FIXED_LENGTH + engine.bookAt(i).orderCount() * ORDER_LENGTH;
        }
        length += engine.accountCount() * (ACCOUNT_FIXED_LENGTH + 8 * instrumentCount);

        return length;
    }

    static int write(final MatchingEngine engine, final MutableDirectBuffer buffer, final int offset)
    {
        final int instrumentCount = engine.instrumentCount();
        int position = offset;
        buffer.putInt(position, MAGIC, ORDER);
        buffer.putInt(position + 4, VERSION, ORDER);
        buffer.putLong(position + 8, engine.lastOrderId(), ORDER);
        position += HEADER_LENGTH;

        buffer.putInt(position, instrumentCount, ORDER);
        position += 4;
        for (int i = 0; i < instrumentCount; i++)
        {
            position = writeInstrument(engine.instrumentAt(i), buffer, position);
        }

        buffer.putInt(position, engine.accountCount(), ORDER);
        position += 4;
        for (int a = 0; a < engine.accountCount(); a++)
        {
            final Account account = engine.accountAt(a);
            final RiskLimits limits = account.limits();
            buffer.putInt(position, account.id(), ORDER);
            buffer.putLong(position + 4, limits.maxOrderQuantity(), ORDER);
            buffer.putLong(position + 12, limits.maxNotional(), ORDER);
            buffer.putLong(position + 20, limits.positionLimit(), ORDER);
            position += ACCOUNT_FIXED_LENGTH;
            for (int i = 0; i < instrumentCount; i++)
            {
                buffer.putLong(position, account.position(i), ORDER);
                position += 8;
            }
        }

        final OrderWriter writer = new OrderWriter(buffer);
        for (int i = 0; i < instrumentCount; i++)
        {
            final OrderBook book = engine.bookAt(i);
            buffer.putLong(position, book.lastTradePrice(), ORDER);
            buffer.putLong(position + 8, book.lastTradeId(), ORDER);
            buffer.putInt(position + 16, book.orderCount(), ORDER);
            writer.position = position + BOOK_FIXED_LENGTH;
            book.forEachOrder(writer);
            position = writer.position;
        }

        buffer.putLong(position, engine.stateHash(), ORDER);
        position += 8;

        return position - offset;
    }

    static int read(final MatchingEngine engine, final DirectBuffer buffer, final int offset)
    {
        int position = offset;
        if (MAGIC != buffer.getInt(position, ORDER) || VERSION != buffer.getInt(position + 4, ORDER))
        {
            throw new IllegalArgumentException("not a version " + VERSION + " matching engine state");
        }
        final long lastOrderId = buffer.getLong(position + 8, ORDER);
        position += HEADER_LENGTH;

        final int instrumentCount = buffer.getInt(position, ORDER);
        position += 4;
        for (int i = 0; i < instrumentCount; i++)
        {
            position = readInstrument(engine, buffer, position);
        }

        final int accountCount = buffer.getInt(position, ORDER);
        position += 4;
        for (int a = 0; a < accountCount; a++)
        {
            final int accountId = buffer.getInt(position, ORDER);
            engine.addAccount(accountId, new RiskLimits(
                buffer.getLong(position + 4, ORDER),
                buffer.getLong(position + 12, ORDER),
                buffer.getLong(position + 20, ORDER)));
            position += ACCOUNT_FIXED_LENGTH;
            final Account account = engine.account(accountId);
            for (int i = 0; i < instrumentCount; i++)
            {
                account.position(i, buffer.getLong(position, ORDER));
                position += 8;
            }
        }

        for (int i = 0; i < instrumentCount; i++)
        {
            position = readBook(engine, engine.bookAt(i), buffer, position);
        }
        engine.lastOrderId(lastOrderId);

        final long expectedHash = buffer.getLong(position, ORDER);
        position += 8;
        if (expectedHash != engine.stateHash())
        {
            throw new IllegalArgumentException("restored state hash " + engine.stateHash() +
                " does not match the encoded state's " + expectedHash);
        }

        return position - offset;
    }

    private static int writeInstrument(final Instrument instrument, final MutableDirectBuffer buffer, final int offset)
    {
        final byte[] symbol = instrument.symbol().getBytes(StandardCharsets.US_ASCII);
        buffer.putInt(offset, instrument.id(), ORDER);
        buffer.putInt(offset + 4, instrument.priceScale(), ORDER);
        buffer.putInt(offset + 8, instrument.priceBandBps(), ORDER);
        buffer.putLong(offset + 12, instrument.tickSize(), ORDER);
        buffer.putLong(offset + 20, instrument.lotSize(), ORDER);
        buffer.putLong(offset + 28, instrument.referencePrice(), ORDER);
        buffer.putByte(offset + 36, (byte)symbol.length);
        buffer.putBytes(offset + INSTRUMENT_FIXED_LENGTH, symbol);

        return offset + INSTRUMENT_FIXED_LENGTH + symbol.length;
    }

    private static int readInstrument(final MatchingEngine engine, final DirectBuffer buffer, final int offset)
    {
        final int symbolLength = buffer.getByte(offset + 36);
        final byte[] symbol = new byte[symbolLength];
        buffer.getBytes(offset + INSTRUMENT_FIXED_LENGTH, symbol);
        engine.addInstrument(new Instrument(
            buffer.getInt(offset, ORDER),
            new String(symbol, StandardCharsets.US_ASCII),
            buffer.getLong(offset + 12, ORDER),
            buffer.getLong(offset + 20, ORDER),
            buffer.getInt(offset + 4, ORDER),
            buffer.getInt(offset + 8, ORDER),
            buffer.getLong(offset + 28, ORDER)));

        return offset + INSTRUMENT_FIXED_LENGTH + symbolLength;
    }

    private static int readBook(
        final MatchingEngine engine, final OrderBook book, final DirectBuffer buffer, final int offset)
    {
        book.restoreLastTrade(buffer.getLong(offset, ORDER), buffer.getLong(offset + 8, ORDER));
        final int orderCount = buffer.getInt(offset + 16, ORDER);
        int position = offset + BOOK_FIXED_LENGTH;
        for (int o = 0; o < orderCount; o++)
        {
            final long orderId = buffer.getLong(position, ORDER);
            final long clientOrderId = buffer.getLong(position + 8, ORDER);
            final int accountId = buffer.getInt(position + 16, ORDER);
            final Side side = Side.get(buffer.getByte(position + 20));
            final OrderType type = OrderType.get(buffer.getByte(position + 21));
            final Account account = engine.account(accountId);
            if (null == side || null == type || null == account)
            {
                throw new IllegalArgumentException("malformed order in the encoded state at offset " + position);
            }
            book.restoreOrder(
                orderId, clientOrderId, accountId, side, type,
                buffer.getLong(position + 22, ORDER),
                buffer.getLong(position + 30, ORDER),
                buffer.getLong(position + 38, ORDER));
            account.onLive(clientOrderId, orderId);
            position += ORDER_LENGTH;
        }

        return position;
    }

    private static final class OrderWriter implements OrderVisitor
    {
        private final MutableDirectBuffer buffer;
        private int position;

        private OrderWriter(final MutableDirectBuffer buffer)
        {
            this.buffer = buffer;
        }

        @Override
        @SuppressWarnings("checkstyle:parameternumber")
        public void onOrder(
            final long orderId,
            final long clientOrderId,
            final int accountId,
            final Side side,
            final OrderType type,
            final long price,
            final long quantity,
            final long filledQuantity)
        {
            buffer.putLong(position, orderId, ORDER);
            buffer.putLong(position + 8, clientOrderId, ORDER);
            buffer.putInt(position + 16, accountId, ORDER);
            buffer.putByte(position + 20, (byte)side.code());
            buffer.putByte(position + 21, (byte)type.code());
            buffer.putLong(position + 22, price, ORDER);
            buffer.putLong(position + 30, quantity, ORDER);
            buffer.putLong(position + 38, filledQuantity, ORDER);
            position += ORDER_LENGTH;
        }
    }
}
