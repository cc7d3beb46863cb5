import { describe, expect, it } from 'vitest';
import { validateAmend, validateOrder } from '../src/validate';
import { ACME } from './fixtures';

describe('the order checks mirror the gateway', () =>
{
    it('passes a valid limit order', () =>
    {
        expect(validateOrder({ side: 'buy', orderType: 'limit', timeInForce: 'gtc', price: '99.95', quantity: '20',
            postOnly: true }, ACME)).toEqual([]);
    });

    it('refuses an order off the tick grid and the lot size with the gateway reason codes', () =>
    {
        const problems = validateOrder({ side: 'sell', orderType: 'limit', timeInForce: 'gtc', price: '100.03',
            quantity: '15', postOnly: false }, ACME);
        expect(problems).toHaveLength(2);
        expect(problems[0]).toMatch(/lot size 10 \(107\)/);
        expect(problems[1]).toMatch(/tick size 0.05 \(109\)/);
    });

    it('needs ioc or fok for market orders, no post-only market order, and gtc for post-only', () =>
    {
        expect(validateOrder({ side: 'buy', orderType: 'market', timeInForce: 'gtc', quantity: '10' }, ACME)[0])
            .toMatch(/ioc or fok \(105\)/);
        expect(validateOrder({ side: 'buy', orderType: 'market', timeInForce: 'ioc', quantity: '10',
            postOnly: true }, ACME)[0]).toMatch(/post-only \(104\)/);
        expect(validateOrder({ side: 'buy', orderType: 'limit', timeInForce: 'ioc', price: '1.00', quantity: '10',
            postOnly: true }, ACME)[0]).toMatch(/must be gtc \(105\)/);
        expect(validateOrder({ side: 'buy', orderType: 'market', timeInForce: 'fok', quantity: '10' }, ACME))
            .toEqual([]);
    });

    it('refuses quantity limits, zero quantity, zero price, a halted instrument and no instrument', () =>
    {
        const order = { side: 'buy', orderType: 'limit', timeInForce: 'gtc', price: '1.00', quantity: '10' };
        expect(validateOrder({ ...order, quantity: '20000' }, ACME)[0]).toMatch(/\(504\)/);
        expect(validateOrder({ ...order, quantity: '0' }, ACME)[0]).toMatch(/\(106\)/);
        expect(validateOrder({ ...order, price: '0' }, ACME)[0]).toMatch(/\(108\)/);
        expect(validateOrder(order, { ...ACME, trading: false })[0]).toMatch(/\(503\)/);
        expect(validateOrder({ ...order, side: 'short' }, ACME)[0]).toMatch(/\(103\)/);
        expect(validateOrder(order, undefined)).toEqual(['no instrument chosen (101)']);
    });

    it('keeps an amend above the filled quantity and refuses amending a market order', () =>
    {
        const order = { orderType: 'limit', cumQuantity: 20 };
        expect(validateAmend(order, '99.00', '20', ACME)[0]).toMatch(/\(304\)/);
        expect(validateAmend(order, '99.00', '30', ACME)).toEqual([]);
        expect(validateAmend(order, '99.01', '30', ACME)[0]).toMatch(/\(109\)/);
        expect(validateAmend({ orderType: 'market', cumQuantity: 0 }, '99.00', '30', ACME)[0]).toMatch(/\(104\)/);
    });
});
