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
 * What the gateway knows of one instrument: its static data from the engine's {@code InstrumentDefinition}s and
 * the gateway's own limits and trading state. Immutable; {@link InstrumentRegistry} replaces it when anything
 * changes.
 *
 * @param id          the engine's instrument id.
 * @param symbol      1 to 16 ASCII characters.
 * @param tickSize    price increment, in price units.
 * @param lotSize     units in one lot; order quantities are whole lots.
 * @param priceScale  decimal places of a price.
 * @param minQuantity smallest order quantity in units, a whole number of lots.
 * @param maxQuantity largest order quantity in units.
 * @param trading     false while halted at this gateway: orders are refused, cancels still go through.
 */
public record InstrumentInfo(
    int id,
    String symbol,
    long tickSize,
    long lotSize,
    int priceScale,
    long minQuantity,
    long maxQuantity,
    boolean trading)
{
    /**
     * The same instrument with another trading state.
     *
     * @param trading the new state.
     * @return a copy.
     */
    public InstrumentInfo withTrading(final boolean trading)
    {
        return new InstrumentInfo(id, symbol, tickSize, lotSize, priceScale, minQuantity, maxQuantity, trading);
    }

    /**
     * Is this the same static data as another definition (ignoring limits and trading state)?
     *
     * @param symbol     of the other.
     * @param tickSize   of the other.
     * @param lotSize    of the other.
     * @param priceScale of the other.
     * @return true if equal.
     */
    public boolean sameDefinition(final CharSequence symbol, final long tickSize, final long lotSize,
        final int priceScale)
    {
        return this.tickSize == tickSize && this.lotSize == lotSize && this.priceScale == priceScale &&
            this.symbol.contentEquals(symbol);
    }
}
