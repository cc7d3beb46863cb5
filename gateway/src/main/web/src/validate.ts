// Client-side order checks that mirror the gateway's (docs/gateway.md, "newOrder" and "Reason codes"): the page
// refuses what the gateway would refuse, with the same rule named, before anything is sent. The gateway still checks
// everything; its reject is shown when it refuses.

import { parseScaled } from './decimal';
import type { Instrument, OrderRequest } from './protocol';

const TIME_IN_FORCE: readonly string[] = ['gtc', 'ioc', 'fok'];

/**
 * Checks a price against the instrument's scale and tick grid.
 * @returns what is wrong, or null.
 */
export function checkPrice(price: unknown, instrument: Instrument): string | null
{
    const parsed = parseScaled(price, instrument.priceScale);
    if (!parsed.ok)
    {
        return `price: ${parsed.error}`;
    }
    if (parsed.units <= 0n)
    {
        return 'price must be above zero (108)';
    }
    const tick = parseScaled(instrument.tickSize, instrument.priceScale);
    if (tick.ok && tick.units > 0n && 0n !== parsed.units % tick.units)
    {
        return `price is not a multiple of the tick size ${instrument.tickSize} (109)`;
    }
    return null;
}

/**
 * Checks a quantity (units) against the lot size and the instrument's limits.
 * @returns what is wrong, or null.
 */
export function checkQuantity(quantity: unknown, instrument: Instrument): string | null
{
    const text = String(quantity ?? '').trim();
    if (!/^\d+$/.test(text))
    {
        return 'quantity must be a whole number of units';
    }
    const units = BigInt(text);
    if (0n === units)
    {
        return 'quantity must be above zero (106)';
    }
    if (0n !== units % BigInt(instrument.lotSize))
    {
        return `quantity is not a multiple of the lot size ${instrument.lotSize} (107)`;
    }
    if (units < BigInt(instrument.minQuantity) || units > BigInt(instrument.maxQuantity))
    {
        return `quantity outside the instrument's limits ${instrument.minQuantity} to ${instrument.maxQuantity} (504)`;
    }
    return null;
}

/**
 * Checks a new order as the gateway would, in the gateway's order of checks.
 * @param order {side, orderType, timeInForce, price, quantity, postOnly}
 * @param instrument an entry of the gateway's `instruments` reply
 * @returns the problems found; empty when the order may be sent.
 */
export function validateOrder(order: OrderRequest, instrument: Instrument | undefined): string[]
{
    const problems: string[] = [];
    if (!instrument)
    {
        return ['no instrument chosen (101)'];
    }
    if (!instrument.trading)
    {
        problems.push('instrument not trading (503)');
    }
    if ('buy' !== order.side && 'sell' !== order.side)
    {
        problems.push('side must be buy or sell (103)');
    }
    const market = 'market' === order.orderType;
    if (!market && 'limit' !== order.orderType)
    {
        problems.push('order type must be limit or market (104)');
    }
    if (!TIME_IN_FORCE.includes(order.timeInForce))
    {
        problems.push('time in force must be gtc, ioc or fok (105)');
    }
    else if (market && 'gtc' === order.timeInForce)
    {
        problems.push('a market order must be ioc or fok (105)');
    }
    if (order.postOnly && market)
    {
        problems.push('a market order cannot be post-only (104)');
    }
    else if (order.postOnly && 'gtc' !== order.timeInForce)
    {
        problems.push('a post-only order must be gtc (105)');
    }
    const quantity = checkQuantity(order.quantity, instrument);
    if (quantity)
    {
        problems.push(quantity);
    }
    if (!market)
    {
        const price = checkPrice(order.price, instrument);
        if (price)
        {
            problems.push(price);
        }
    }
    return problems;
}

/**
 * Checks an amend (new price and new total quantity of a live limit order).
 * @returns the problems found.
 */
export function validateAmend(order: { orderType: string; cumQuantity?: number }, price: string,
    quantity: string, instrument: Instrument | undefined): string[]
{
    const problems: string[] = [];
    if (!instrument)
    {
        return ['unknown instrument (101)'];
    }
    if ('market' === order.orderType)
    {
        problems.push('a market order cannot be amended (104)');
    }
    const priceProblem = checkPrice(price, instrument);
    if (priceProblem)
    {
        problems.push(priceProblem);
    }
    const quantityProblem = checkQuantity(quantity, instrument);
    if (quantityProblem)
    {
        problems.push(quantityProblem);
    }
    else if (BigInt(String(quantity).trim()) <= BigInt(order.cumQuantity ?? 0))
    {
        problems.push('new quantity not above the quantity already filled (304)');
    }
    return problems;
}
