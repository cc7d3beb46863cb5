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

import java.util.Arrays;

import io.warpbus.matching.CommandHandler;
import io.warpbus.matching.ExecType;
import io.warpbus.matching.Instrument;
import io.warpbus.matching.MatchingEventListener;
import io.warpbus.matching.OrderType;
import io.warpbus.matching.RiskLimits;
import io.warpbus.matching.SelfTradePrevention;
import io.warpbus.matching.Side;
import io.warpbus.matching.TimeInForce;
import io.warpbus.matching.book.DirectOrderBook;
import io.warpbus.matching.book.OrderBook;
import io.warpbus.matching.book.OrderBookFactory;
import io.warpbus.matching.book.StateHash;
import io.warpbus.orderentry.RejectReason;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Int2IntHashMap;
import org.agrona.collections.Int2ObjectHashMap;

/**
 * The matching engine: one {@link OrderBook} per instrument behind validation, duplicate detection and per-account
 * pre-trade risk. Single-threaded and deterministic: the same commands in the same order give the same events and
 * the same {@link #stateHash()}, since nothing depends on the clock, on hashing of objects or on iteration order of
 * a hash map. Commands allocate nothing once the engine has warmed up.
 * <p>
 * Every command produces its events synchronously, on the calling thread, through the context's
 * {@link MatchingEventListener}; a refused command produces exactly one rejection and changes nothing.
 * <p>
 * Checks of a new order, in order: instrument, account, side, order type, time in force for the type, quantity
 * positive, whole lots, price positive and on the tick grid (not for market orders), client order id not live,
 * maximum order quantity, maximum notional, price band (not for market orders), position limit, book not full
 * (orders that may rest), post-only would not cross, fill-or-kill can fill. A market order trades no further than
 * its protection price, the edge of the price band around the last trade price.
 * <p>
 * Instruments and accounts are added before trading or between commands on the same thread; that path allocates.
 */
public final class MatchingEngine implements CommandHandler
{
    private static final int MISSING_INDEX = -1;

    private final Context context;
    private final MatchingEventListener listener;
    private final EventRouter router;
    private final Int2IntHashMap instrumentIndexById = new Int2IntHashMap(MISSING_INDEX);
    private final Int2ObjectHashMap<Account> accountsById = new Int2ObjectHashMap<>();
    private Instrument[] instruments = new Instrument[0];
    private OrderBook[] books = new OrderBook[0];
    private Account[] accounts = new Account[0];
    private long lastOrderId;

    /**
     * Make an engine with no instruments and no accounts.
     *
     * @param context configuration, concluded here.
     */
    public MatchingEngine(final Context context)
    {
        this.context = context.conclude();
        this.listener = context.listener();
        this.router = new EventRouter(accountsById, listener);
    }

    /**
     * The context the engine was made with.
     *
     * @return the concluded context.
     */
    public Context context()
    {
        return context;
    }

    /**
     * Define an instrument and make its empty book.
     *
     * @param instrument definition, with an id not yet used.
     * @throws IllegalArgumentException if the id is taken.
     */
    public void addInstrument(final Instrument instrument)
    {
        if (MISSING_INDEX != instrumentIndexById.get(instrument.id()))
        {
            throw new IllegalArgumentException("duplicate instrument id: " + instrument.id());
        }

        final int index = instruments.length;
        instruments = Arrays.copyOf(instruments, index + 1);
        books = Arrays.copyOf(books, index + 1);
        instruments[index] = instrument;
        books[index] = context.orderBookFactory().newOrderBook(
            instrument, context.bookCapacity(), context.selfTradePrevention(), router);
        instrumentIndexById.put(instrument.id(), index);
        for (final Account account : accounts)
        {
            account.instrumentCount(index + 1);
        }
    }

    /**
     * Register an account with its risk limits.
     *
     * @param accountId not yet registered.
     * @param limits    applied to every order of the account.
     * @throws IllegalArgumentException if the id is taken.
     */
    public void addAccount(final int accountId, final RiskLimits limits)
    {
        if (accountsById.containsKey(accountId))
        {
            throw new IllegalArgumentException("duplicate account id: " + accountId);
        }

        final Account account = new Account(accountId, limits, instruments.length, context.accountOrderCapacity());
        accounts = Arrays.copyOf(accounts, accounts.length + 1);
        accounts[accounts.length - 1] = account;
        accountsById.put(accountId, account);
    }

    @Override
    @SuppressWarnings("checkstyle:parameternumber")
    public void newOrder(
        final long clientOrderId,
        final int accountId,
        final int instrumentId,
        final Side side,
        final OrderType type,
        final TimeInForce timeInForce,
        final long price,
        final long quantity,
        final long timestampNs)
    {
        final int index = instrumentIndexById.get(instrumentId);
        final Account account = accountsById.get(accountId);
        final RejectReason invalid = CommandValidation.newOrder(
            MISSING_INDEX == index ? null : instruments[index], account, clientOrderId, side, type, timeInForce, price,
            quantity);
        if (RejectReason.NONE != invalid)
        {
            rejectNewOrder(instrumentId, clientOrderId, accountId, side, invalid, price, quantity, timestampNs);
            return;
        }

        final Instrument instrument = instruments[index];
        final OrderBook book = books[index];
        final long lastPrice = book.lastTradePrice();
        final boolean isMarket = OrderType.MARKET == type;
        final long limitPrice = isMarket ? PreTradeRisk.protectionPrice(instrument, lastPrice, side) : price;
        RejectReason reason = PreTradeRisk.check(
            account.limits(), account.position(index), instrument, lastPrice, side, limitPrice, quantity, quantity,
            !isMarket);
        if (RejectReason.NONE == reason)
        {
            reason = CommandValidation.book(book, accountId, side, type, timeInForce, limitPrice, quantity);
        }
        if (RejectReason.NONE != reason)
        {
            rejectNewOrder(instrumentId, clientOrderId, accountId, side, reason, price, quantity, timestampNs);
            return;
        }

        router.instrumentIndex(index);
        book.newOrder(++lastOrderId, clientOrderId, accountId, side, type, timeInForce, limitPrice, quantity,
            timestampNs);
    }

    @Override
    public void cancel(final long clientOrderId, final int accountId, final int instrumentId, final long timestampNs)
    {
        final int index = instrumentIndexById.get(instrumentId);
        final Account account = accountsById.get(accountId);
        final long orderId = null == account ? Account.NO_ORDER : account.liveOrderId(clientOrderId);
        final RejectReason reason = CommandValidation.existing(
            MISSING_INDEX == index ? null : books[index], account, orderId);
        if (RejectReason.NONE != reason)
        {
            listener.onExecution(
                instrumentId, Account.NO_ORDER, clientOrderId, accountId, null, ExecType.CANCEL_REJECTED, reason,
                0, 0, 0, 0, 0, 0, timestampNs);
            return;
        }

        router.instrumentIndex(index);
        books[index].cancel(orderId, timestampNs);
    }

    @Override
    public void replace(
        final long clientOrderId,
        final int accountId,
        final int instrumentId,
        final long newPrice,
        final long newQuantity,
        final long timestampNs)
    {
        final int index = instrumentIndexById.get(instrumentId);
        final Account account = accountsById.get(accountId);
        final long orderId = null == account ? Account.NO_ORDER : account.liveOrderId(clientOrderId);
        final OrderBook book = MISSING_INDEX == index ? null : books[index];
        RejectReason reason = CommandValidation.existing(book, account, orderId);
        if (RejectReason.NONE != reason)
        {
            listener.onExecution(
                instrumentId, Account.NO_ORDER, clientOrderId, accountId, null, ExecType.REPLACE_REJECTED, reason,
                newPrice, newQuantity, 0, 0, 0, 0, timestampNs);
            return;
        }

        reason = CommandValidation.replace(
            instruments[index], account, account.position(index), book, orderId, newPrice, newQuantity);
        if (RejectReason.NONE != reason)
        {
            final long filled = book.orderFilledQuantity(orderId);
            listener.onExecution(
                instrumentId, orderId, clientOrderId, accountId, book.orderSide(orderId), ExecType.REPLACE_REJECTED,
                reason, newPrice, newQuantity, 0, 0, filled, book.orderQuantity(orderId) - filled, timestampNs);
            return;
        }

        router.instrumentIndex(index);
        book.replace(orderId, newPrice, newQuantity, timestampNs);
    }

    /**
     * The book of an instrument, for inspection. Calling its commands directly bypasses validation, risk and the
     * engine's bookkeeping of live orders and positions.
     *
     * @param instrumentId of a defined instrument.
     * @return its book, or null if there is no such instrument.
     */
    public OrderBook book(final int instrumentId)
    {
        final int index = instrumentIndexById.get(instrumentId);
        return MISSING_INDEX == index ? null : books[index];
    }

    /**
     * Net position of an account in an instrument: bought minus sold.
     *
     * @param accountId    registered account.
     * @param instrumentId defined instrument.
     * @return the position, 0 if either is unknown.
     */
    public long position(final int accountId, final int instrumentId)
    {
        final int index = instrumentIndexById.get(instrumentId);
        final Account account = accountsById.get(accountId);
        return MISSING_INDEX == index || null == account ? 0 : account.position(index);
    }

    /**
     * Number of live orders of an account, all instruments.
     *
     * @param accountId registered account.
     * @return the count, 0 if the account is unknown.
     */
    public int liveOrderCount(final int accountId)
    {
        final Account account = accountsById.get(accountId);
        return null == account ? 0 : account.liveOrderCount();
    }

    /**
     * Id given to the last accepted order; the next one gets one more.
     *
     * @return the last order id, 0 before the first.
     */
    public long lastOrderId()
    {
        return lastOrderId;
    }

    /**
     * Hash of the engine's whole state: the last order id, every book's {@link OrderBook#stateHash()} in the order
     * instruments were added, then every account's positions in the order accounts were added.
     *
     * @return the hash.
     */
    public long stateHash()
    {
        long hash = StateHash.mix(StateHash.SEED, lastOrderId);
        hash = StateHash.mix(hash, books.length);
        for (final OrderBook book : books)
        {
            hash = StateHash.mix(hash, book.stateHash());
        }
        hash = StateHash.mix(hash, accounts.length);
        for (final Account account : accounts)
        {
            hash = StateHash.mix(hash, account.id());
            for (int i = 0; i < books.length; i++)
            {
                hash = StateHash.mix(hash, account.position(i));
            }
        }

        return hash;
    }

    /**
     * Hash of one instrument's state: its book's {@link OrderBook#stateHash()} and every account's position in it.
     *
     * @param instrumentId defined instrument.
     * @return the hash.
     * @throws IllegalArgumentException if the instrument is unknown.
     */
    public long stateHash(final int instrumentId)
    {
        final int index = instrumentIndex(instrumentId);
        long hash = books[index].stateHash();
        for (final Account account : accounts)
        {
            hash = StateHash.mix(StateHash.mix(hash, account.id()), account.position(index));
        }

        return hash;
    }

    /**
     * Bytes {@link #encodeState(MutableDirectBuffer, int)} will write now.
     *
     * @return the length of the current state, encoded.
     */
    public int encodedStateLength()
    {
        return EngineStateCodec.length(this);
    }

    /**
     * Write the whole state, definitions included, for a fast restart: instruments, accounts with limits and
     * positions, every resting order in priority order, last trade prices and ids, the last order id. Not for the
     * hot path.
     *
     * @param buffer to write to, with room for {@link #encodedStateLength()} bytes (or expandable).
     * @param offset where to start.
     * @return bytes written.
     */
    public int encodeState(final MutableDirectBuffer buffer, final int offset)
    {
        return EngineStateCodec.write(this, buffer, offset);
    }

    /**
     * Load a state written by {@link #encodeState(MutableDirectBuffer, int)} into this engine, which must have no
     * instruments and no accounts yet. Afterwards the engine continues exactly as the one that wrote the state would
     * have: same state hash, same events for the same commands. Emits no events.
     *
     * @param buffer holding an encoded state.
     * @param offset where it starts.
     * @return bytes read.
     * @throws IllegalStateException    if the engine is not empty.
     * @throws IllegalArgumentException if the encoded state is malformed or its recorded state hash does not match; the
     *                                  engine is then partly restored and must be discarded.
     */
    public int restoreState(final DirectBuffer buffer, final int offset)
    {
        if (instruments.length > 0 || accounts.length > 0)
        {
            throw new IllegalStateException("restore needs an engine with no instruments or accounts");
        }

        return EngineStateCodec.read(this, buffer, offset);
    }

    /**
     * Instruments defined, or restored from an encoded state.
     *
     * @return the count.
     */
    public int instrumentCount()
    {
        return instruments.length;
    }

    /**
     * An instrument's definition, in the order they were defined.
     *
     * @param index from 0 to {@link #instrumentCount()} - 1.
     * @return the definition.
     */
    public Instrument instrumentAt(final int index)
    {
        return instruments[index];
    }

    OrderBook bookAt(final int index)
    {
        return books[index];
    }

    /**
     * Accounts defined, or restored from an encoded state.
     *
     * @return the count.
     */
    public int accountCount()
    {
        return accounts.length;
    }

    /**
     * An account's risk limits.
     *
     * @param accountId the account.
     * @return its limits, or null if there is no such account.
     */
    public RiskLimits riskLimits(final int accountId)
    {
        final Account account = accountsById.get(accountId);
        return null == account ? null : account.limits();
    }

    Account accountAt(final int index)
    {
        return accounts[index];
    }

    Account account(final int accountId)
    {
        return accountsById.get(accountId);
    }

    void lastOrderId(final long lastOrderId)
    {
        this.lastOrderId = lastOrderId;
    }

    private int instrumentIndex(final int instrumentId)
    {
        final int index = instrumentIndexById.get(instrumentId);
        if (MISSING_INDEX == index)
        {
            throw new IllegalArgumentException("unknown instrument: " + instrumentId);
        }

        return index;
    }

    @SuppressWarnings("checkstyle:parameternumber")
    private void rejectNewOrder(
        final int instrumentId,
        final long clientOrderId,
        final int accountId,
        final Side side,
        final RejectReason reason,
        final long price,
        final long quantity,
        final long timestampNs)
    {
        listener.onExecution(
            instrumentId, Account.NO_ORDER, clientOrderId, accountId, side, ExecType.REJECTED, reason, price, quantity,
            0, 0, 0, 0, timestampNs);
    }

    /**
     * Configuration of a {@link MatchingEngine}, concluded once by its constructor.
     */
    public static final class Context
    {
        /**
         * Default {@link #bookCapacity()}: resting orders per instrument.
         */
        public static final int BOOK_CAPACITY_DEFAULT = 64 * 1024;

        /**
         * Default {@link #accountOrderCapacity()}.
         */
        public static final int ACCOUNT_ORDER_CAPACITY_DEFAULT = 1024;

        private MatchingEventListener listener;
        private OrderBookFactory orderBookFactory = DirectOrderBook::new;
        private SelfTradePrevention selfTradePrevention = SelfTradePrevention.CANCEL_RESTING;
        private int bookCapacity = BOOK_CAPACITY_DEFAULT;
        private int accountOrderCapacity = ACCOUNT_ORDER_CAPACITY_DEFAULT;
        private boolean concluded;

        /**
         * Check the configuration; called by the engine's constructor.
         *
         * @return this.
         * @throws IllegalStateException if concluded before, if there is no listener or a capacity is not positive.
         */
        public Context conclude()
        {
            if (concluded)
            {
                throw new IllegalStateException("context already concluded");
            }
            if (null == listener || null == orderBookFactory || null == selfTradePrevention)
            {
                throw new IllegalStateException("listener, orderBookFactory and selfTradePrevention are required");
            }
            if (bookCapacity < 1 || accountOrderCapacity < 1)
            {
                throw new IllegalStateException("capacities must be positive: " + bookCapacity + ", " +
                    accountOrderCapacity);
            }
            concluded = true;

            return this;
        }

        /**
         * Receives every event of the engine; required.
         *
         * @param listener called on the engine's thread.
         * @return this.
         */
        public Context listener(final MatchingEventListener listener)
        {
            this.listener = listener;
            return this;
        }

        /**
         * Receives every event of the engine.
         *
         * @return the listener.
         */
        public MatchingEventListener listener()
        {
            return listener;
        }

        /**
         * Which book implementation to use; {@code DirectOrderBook::new} by default.
         *
         * @param orderBookFactory makes one book per instrument.
         * @return this.
         */
        public Context orderBookFactory(final OrderBookFactory orderBookFactory)
        {
            this.orderBookFactory = orderBookFactory;
            return this;
        }

        /**
         * Which book implementation to use.
         *
         * @return the factory.
         */
        public OrderBookFactory orderBookFactory()
        {
            return orderBookFactory;
        }

        /**
         * What to do when an account's orders would trade with each other; {@code CANCEL_RESTING} by default.
         *
         * @param selfTradePrevention the policy, for every instrument.
         * @return this.
         */
        public Context selfTradePrevention(final SelfTradePrevention selfTradePrevention)
        {
            this.selfTradePrevention = selfTradePrevention;
            return this;
        }

        /**
         * What to do when an account's orders would trade with each other.
         *
         * @return the policy.
         */
        public SelfTradePrevention selfTradePrevention()
        {
            return selfTradePrevention;
        }

        /**
         * Most resting orders per instrument, preallocated; orders that could rest are rejected beyond it.
         *
         * @param bookCapacity in orders.
         * @return this.
         */
        public Context bookCapacity(final int bookCapacity)
        {
            this.bookCapacity = bookCapacity;
            return this;
        }

        /**
         * Most resting orders per instrument.
         *
         * @return the capacity in orders.
         */
        public int bookCapacity()
        {
            return bookCapacity;
        }

        /**
         * Initial size of each account's map of live orders; it grows (allocating) past about two thirds of it.
         *
         * @param accountOrderCapacity in orders.
         * @return this.
         */
        public Context accountOrderCapacity(final int accountOrderCapacity)
        {
            this.accountOrderCapacity = accountOrderCapacity;
            return this;
        }

        /**
         * Initial size of each account's map of live orders.
         *
         * @return the capacity in orders.
         */
        public int accountOrderCapacity()
        {
            return accountOrderCapacity;
        }
    }
}
