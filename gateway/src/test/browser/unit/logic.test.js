// Unit tests of the page's client-side logic, run with `node --test unit/` (WebPageBrowserTest runs them too).

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { parseScaled, formatScaled } from '../../../main/resources/static/assets/js/decimal.js';
import { validateOrder, validateAmend } from '../../../main/resources/static/assets/js/validate.js';
import { OrderBook, APPLIED, GAP, STALE, WAITING } from '../../../main/resources/static/assets/js/book.js';
import { SessionSequence, ACCEPT, DUPLICATE, HOLE } from '../../../main/resources/static/assets/js/sequence.js';

const ACME = { symbol: 'ACME', tickSize: '0.05', lotSize: 10, priceScale: 2, minQuantity: 10, maxQuantity: 10000,
    trading: true };

test('prices convert exactly to units of the scale', () =>
{
    assert.equal(parseScaled('99.50', 2).units, 9950n);
    assert.equal(parseScaled('99.5', 2).units, 9950n);
    assert.equal(parseScaled('99.500', 2).units, 9950n);
    assert.equal(parseScaled('100', 2).units, 10000n);
    assert.equal(parseScaled('-1.25', 2).units, -125n);
    assert.equal(parseScaled('99.501', 2).ok, false);
    assert.equal(parseScaled('1e3', 2).ok, false);
    assert.equal(parseScaled('1234567890123456789', 2).ok, false);
    assert.equal(formatScaled(9950n, 2), '99.50');
    assert.equal(formatScaled(5n, 2), '0.05');
});

test('a valid limit order passes', () =>
{
    assert.deepEqual(validateOrder({ side: 'buy', orderType: 'limit', timeInForce: 'gtc', price: '99.95',
        quantity: '20', postOnly: true }, ACME), []);
});

test('an order off the tick grid or lot size is refused with the gateway reason code', () =>
{
    const problems = validateOrder({ side: 'sell', orderType: 'limit', timeInForce: 'gtc', price: '100.03',
        quantity: '15', postOnly: false }, ACME);
    assert.equal(problems.length, 2);
    assert.match(problems[0], /lot size 10 \(107\)/);
    assert.match(problems[1], /tick size 0.05 \(109\)/);
});

test('market orders need ioc or fok and cannot be post-only; post-only needs gtc', () =>
{
    assert.match(validateOrder({ side: 'buy', orderType: 'market', timeInForce: 'gtc', quantity: '10' }, ACME)[0],
        /ioc or fok \(105\)/);
    assert.match(validateOrder({ side: 'buy', orderType: 'market', timeInForce: 'ioc', quantity: '10',
        postOnly: true }, ACME)[0], /post-only \(104\)/);
    assert.match(validateOrder({ side: 'buy', orderType: 'limit', timeInForce: 'ioc', price: '1.00', quantity: '10',
        postOnly: true }, ACME)[0], /must be gtc \(105\)/);
    assert.deepEqual(validateOrder({ side: 'buy', orderType: 'market', timeInForce: 'fok', quantity: '10' }, ACME),
        []);
});

test('quantity limits, zero quantity and a halted instrument are refused', () =>
{
    assert.match(validateOrder({ side: 'buy', orderType: 'limit', timeInForce: 'gtc', price: '1.00',
        quantity: '20000' }, ACME)[0], /\(504\)/);
    assert.match(validateOrder({ side: 'buy', orderType: 'limit', timeInForce: 'gtc', price: '1.00',
        quantity: '0' }, ACME)[0], /\(106\)/);
    assert.match(validateOrder({ side: 'buy', orderType: 'limit', timeInForce: 'gtc', price: '0',
        quantity: '10' }, ACME)[0], /\(108\)/);
    assert.match(validateOrder({ side: 'buy', orderType: 'limit', timeInForce: 'gtc', price: '1.00',
        quantity: '10' }, { ...ACME, trading: false })[0], /\(503\)/);
});

test('an amend must stay above the filled quantity', () =>
{
    const order = { orderType: 'limit', cumQuantity: 20 };
    assert.match(validateAmend(order, '99.00', '20', ACME)[0], /\(304\)/);
    assert.deepEqual(validateAmend(order, '99.00', '30', ACME), []);
    assert.match(validateAmend({ orderType: 'market', cumQuantity: 0 }, '99.00', '30', ACME)[0], /\(104\)/);
});

test('a book is built from a snapshot and increments, and a jump in mdSeq is a gap', () =>
{
    const book = new OrderBook('ACME');
    assert.equal(book.applyUpdate({ mdSeq: 5, changes: [] }), WAITING);
    book.applySnapshot({ mdSeq: 40, bids: [['99.95', 30, 2], ['99.90', 10, 1]], asks: [['100.05', 20, 1]] });
    assert.equal(book.applyUpdate({ mdSeq: 41, changes: [['buy', '100.00', 10, 1], ['buy', '99.90', 0, 0]] }),
        APPLIED);
    assert.deepEqual(book.bidLevels().map((level) => level.price), ['100.00', '99.95']);
    assert.equal(book.sequence({ mdSeq: 42 }), APPLIED);
    assert.equal(book.applyUpdate({ mdSeq: 40, changes: [['sell', '100.05', 0, 0]] }), STALE);
    assert.equal(book.askLevels().length, 1);
    assert.equal(book.applyUpdate({ mdSeq: 44, changes: [['sell', '100.05', 0, 0]] }), GAP);
    assert.equal(book.valid, false);
    assert.equal(book.gaps, 1);
    assert.equal(book.applyUpdate({ mdSeq: 45, changes: [] }), WAITING);
    book.applySnapshot({ mdSeq: 50, bids: [], asks: [['100.10', 10, 1]] });
    assert.equal(book.applyUpdate({ mdSeq: 51, changes: [] }), APPLIED);
    assert.deepEqual(book.askLevels().map((level) => level.price), ['100.10']);
});

test('a resumed session takes the resend, gap fills and its own logon number in order, and drops duplicates', () =>
{
    const sequence = new SessionSequence();
    sequence.onNewSession(1);
    assert.equal(sequence.onMessage(2), ACCEPT);
    assert.equal(sequence.onMessage(3), ACCEPT);
    assert.equal(sequence.fromSeq(), 4);
    // Reconnect: the reply is numbered 9; the gateway resends 4 to 8 (5 and 6 as a gapFill), then live from 10.
    sequence.onResumed(9);
    assert.equal(sequence.fromSeq(), 4);
    assert.equal(sequence.onMessage(4), ACCEPT);
    assert.equal(sequence.onGapFill(5, 7), ACCEPT);
    assert.equal(sequence.onMessage(7), ACCEPT);
    assert.equal(sequence.onMessage(7), DUPLICATE);
    assert.equal(sequence.onMessage(8), ACCEPT);
    assert.equal(sequence.last, 9);
    assert.equal(sequence.onMessage(10), ACCEPT);
    assert.equal(sequence.onMessage(12), HOLE);
    assert.equal(sequence.fromSeq(), 11);
});

test('a resume with nothing missed goes straight on from the reply', () =>
{
    const sequence = new SessionSequence();
    sequence.onNewSession(1);
    sequence.onMessage(2);
    sequence.onResumed(3);
    assert.equal(sequence.last, 3);
    assert.equal(sequence.onMessage(4), ACCEPT);
});

test('a gap fill that ends at the logon reply counts the reply as seen', () =>
{
    const sequence = new SessionSequence();
    sequence.onNewSession(1);
    sequence.onResumed(6);
    assert.equal(sequence.onGapFill(2, 6), ACCEPT);
    assert.equal(sequence.last, 6);
    assert.equal(sequence.onMessage(7), ACCEPT);
});
