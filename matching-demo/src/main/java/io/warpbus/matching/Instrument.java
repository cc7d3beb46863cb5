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
package io.warpbus.matching;

/**
 * Static definition of a tradable instrument.
 * <p>
 * Prices are signed fixed-point integers: the real price is {@code price * 10^-priceScale}, and every price is a
 * multiple of {@code tickSize}, expressed in the same units. Quantities are integers in the instrument's quantity
 * unit and every quantity is a multiple of {@code lotSize}, the smallest tradable increment (1 when quantities are
 * already counted in lots, as on the market-data wire).
 *
 * @param id             instrument id, unique in an engine; the conflation key on the market-data wire.
 * @param symbol         1 to 16 printable ASCII characters.
 * @param tickSize       minimum price increment in price units, positive.
 * @param lotSize        minimum quantity increment, positive.
 * @param priceScale     number of decimal places in a price, 0 to 18.
 * @param priceBandBps   half-width of the price band around the last trade price, in basis points of that price,
 *                       1 to 10,000: limit orders priced outside it are rejected and market orders never trade
 *                       outside it.
 * @param referencePrice the last trade price before the first trade, positive and on the tick grid.
 */
public record Instrument(
    int id,
    String symbol,
    long tickSize,
    long lotSize,
    int priceScale,
    int priceBandBps,
    long referencePrice)
{
    /**
     * Longest symbol, the width of the market-data wire's symbol field.
     */
    public static final int MAX_SYMBOL_LENGTH = 16;

    /**
     * Basis points in one.
     */
    public static final int BPS_PER_UNIT = 10_000;

    /**
     * Validates the definition.
     *
     * @throws IllegalArgumentException if a field is out of range.
     */
    public Instrument
    {
        if (null == symbol || symbol.isEmpty() || symbol.length() > MAX_SYMBOL_LENGTH || !isPrintableAscii(symbol))
        {
            throw new IllegalArgumentException("symbol must be 1 to 16 printable ASCII characters: " + symbol);
        }
        if (tickSize <= 0 || lotSize <= 0)
        {
            throw new IllegalArgumentException("tickSize and lotSize must be positive: " + tickSize + ", " + lotSize);
        }
        if (priceScale < 0 || priceScale > 18)
        {
            throw new IllegalArgumentException("priceScale must be 0 to 18: " + priceScale);
        }
        if (priceBandBps < 1 || priceBandBps > BPS_PER_UNIT)
        {
            throw new IllegalArgumentException("priceBandBps must be 1 to 10000: " + priceBandBps);
        }
        if (referencePrice <= 0 || 0 != referencePrice % tickSize)
        {
            throw new IllegalArgumentException(
                "referencePrice must be positive and on the tick grid: " + referencePrice);
        }
    }

    /**
     * Is the price a multiple of the tick size?
     *
     * @param price in price units.
     * @return true if it is on the tick grid.
     */
    public boolean isOnTickGrid(final long price)
    {
        return 0 == price % tickSize;
    }

    /**
     * Is the quantity a multiple of the lot size?
     *
     * @param quantity in quantity units.
     * @return true if it is a whole number of lots.
     */
    public boolean isWholeLots(final long quantity)
    {
        return 0 == quantity % lotSize;
    }

    /**
     * Half-width of the price band around a last trade price, {@code lastTradePrice * priceBandBps / 10,000}
     * rounded down, computed without overflow for any positive price.
     *
     * @param lastTradePrice the centre of the band, positive.
     * @return the largest allowed distance from it, in price units.
     */
    public long bandWidth(final long lastTradePrice)
    {
        return (lastTradePrice / BPS_PER_UNIT) * priceBandBps + (lastTradePrice % BPS_PER_UNIT) * priceBandBps /
            BPS_PER_UNIT;
    }

    private static boolean isPrintableAscii(final String symbol)
    {
        for (int i = 0; i < symbol.length(); i++)
        {
            final char c = symbol.charAt(i);
            if (c < 0x21 || c > 0x7E)
            {
                return false;
            }
        }

        return true;
    }
}
