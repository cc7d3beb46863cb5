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

import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The instruments the gateway knows, readable from any thread: the session core adds one when the engine's first
 * {@code InstrumentDefinition} for it arrives, and replaces it when its trading state changes; protocol adapters
 * look symbols up to turn a client's request into a command, encoders look ids up to name and scale prices.
 * <p>
 * Copy on write: every change publishes new immutable maps (changes are rare: start-up, a halt), so a read never
 * locks and never sees a half-made change. Limits come from the configuration: a per-symbol maximum quantity, or
 * the default; the minimum is one lot.
 */
public final class InstrumentRegistry
{
    private final long defaultMaxQuantity;
    private final Map<String, Long> maxQuantityBySymbol;
    private final Set<String> haltedAtStart;
    private volatile Map<Integer, InstrumentInfo> byId = Map.of();
    private volatile Map<String, InstrumentInfo> bySymbol = Map.of();

    /**
     * A registry applying the gateway's limits to what the engine defines.
     *
     * @param defaultMaxQuantity  largest order quantity in units, where no per-symbol limit is set.
     * @param maxQuantityBySymbol per-symbol largest order quantity in units.
     * @param halted              symbols that start halted.
     */
    public InstrumentRegistry(final long defaultMaxQuantity, final Map<String, Long> maxQuantityBySymbol,
        final Set<String> halted)
    {
        if (defaultMaxQuantity <= 0)
        {
            throw new IllegalArgumentException("default maximum order quantity must be above 0: " +
                defaultMaxQuantity);
        }
        this.defaultMaxQuantity = defaultMaxQuantity;
        this.maxQuantityBySymbol = Map.copyOf(maxQuantityBySymbol);
        this.haltedAtStart = Set.copyOf(halted);
    }

    /**
     * The instrument with an id.
     *
     * @param instrumentId engine id.
     * @return the instrument, or null if unknown.
     */
    public InstrumentInfo get(final int instrumentId)
    {
        return byId.get(instrumentId);
    }

    /**
     * The instrument with a symbol.
     *
     * @param symbol as the engine defines it.
     * @return the instrument, or null if unknown.
     */
    public InstrumentInfo get(final String symbol)
    {
        return bySymbol.get(symbol);
    }

    /**
     * Every instrument, in the order they became known.
     *
     * @return an unmodifiable snapshot.
     */
    public Collection<InstrumentInfo> all()
    {
        return Collections.unmodifiableCollection(byId.values());
    }

    /**
     * How many instruments are known.
     *
     * @return the count.
     */
    public int size()
    {
        return byId.size();
    }

    /**
     * Add an instrument the engine defined, or change one whose definition changed. Session core thread.
     *
     * @param id         engine id.
     * @param symbol     its symbol.
     * @param tickSize   price increment.
     * @param lotSize    units per lot.
     * @param priceScale decimals of a price.
     * @return the instrument as registered.
     */
    synchronized InstrumentInfo define(final int id, final String symbol, final long tickSize, final long lotSize,
        final int priceScale)
    {
        final InstrumentInfo existing = byId.get(id);
        final long maxQuantity = maxQuantityBySymbol.getOrDefault(symbol, defaultMaxQuantity);
        final boolean trading = null == existing ? !haltedAtStart.contains(symbol) : existing.trading();
        final InstrumentInfo info = new InstrumentInfo(id, symbol, tickSize, lotSize, priceScale, lotSize,
            Math.max(lotSize, maxQuantity - maxQuantity % lotSize), trading);
        publish(info, existing);
        return info;
    }

    /**
     * Halt or resume trading of an instrument at this gateway. The session core's thread: operators go through
     * {@link SessionCore#trading}, which also tells the core.
     *
     * @param symbol  of the instrument.
     * @param trading the new state.
     * @return the instrument as registered, or null if unknown.
     */
    synchronized InstrumentInfo trading(final String symbol, final boolean trading)
    {
        final InstrumentInfo existing = bySymbol.get(symbol);
        if (null == existing)
        {
            return null;
        }
        final InstrumentInfo info = existing.withTrading(trading);
        publish(info, existing);
        return info;
    }

    private synchronized void publish(final InstrumentInfo info, final InstrumentInfo replaced)
    {
        final Map<Integer, InstrumentInfo> ids = new LinkedHashMap<>(byId);
        final Map<String, InstrumentInfo> symbols = new HashMap<>(bySymbol);
        if (null != replaced)
        {
            symbols.remove(replaced.symbol());
        }
        ids.put(info.id(), info);
        symbols.put(info.symbol(), info);
        byId = Collections.unmodifiableMap(ids);
        bySymbol = Collections.unmodifiableMap(symbols);
    }
}
