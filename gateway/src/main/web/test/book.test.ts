import { describe, expect, it } from 'vitest';
import { APPLIED, GAP, OrderBook, STALE, WAITING } from '../src/book';

describe('a book from a snapshot and increments', () =>
{
    it('waits for a snapshot before applying anything', () =>
    {
        const book = new OrderBook('ACME');
        expect(book.applyUpdate({ mdSeq: 5, changes: [['buy', '99.00', 10, 1]] })).toBe(WAITING);
        expect(book.bids.size).toBe(0);
        expect(book.valid).toBe(false);
    });

    it('applies increments in sequence: adds, changes and removes levels, best first', () =>
    {
        const book = new OrderBook('ACME');
        book.applySnapshot({ mdSeq: 40, bids: [['99.95', 30, 2], ['99.90', 10, 1]], asks: [['100.05', 20, 1]] });
        expect(book.applyUpdate({ mdSeq: 41, changes: [['buy', '100.00', 10, 1], ['buy', '99.90', 0, 0],
            ['sell', '100.10', 5, 1]] })).toBe(APPLIED);
        expect(book.bidLevels().map((level) => level.price)).toEqual(['100.00', '99.95']);
        expect(book.askLevels()).toEqual([{ price: '100.05', quantity: 20, orders: 1 },
            { price: '100.10', quantity: 5, orders: 1 }]);
        expect(book.applyUpdate({ mdSeq: 42, changes: [['buy', '99.95', 50, 3]] })).toBe(APPLIED);
        expect(book.bids.get('99.95')).toEqual({ price: '99.95', quantity: 50, orders: 3 });
        expect(book.mdSeq).toBe(42);
    });

    it('ignores an old number and counts trades in the sequence', () =>
    {
        const book = new OrderBook('ACME');
        book.applySnapshot({ mdSeq: 40, bids: [], asks: [['100.05', 20, 1]] });
        expect(book.sequence({ mdSeq: 41 })).toBe(APPLIED);
        expect(book.applyUpdate({ mdSeq: 40, changes: [['sell', '100.05', 0, 0]] })).toBe(STALE);
        expect(book.askLevels()).toHaveLength(1);
        expect(book.applyUpdate({ mdSeq: 42, changes: [['sell', '100.05', 0, 0]] })).toBe(APPLIED);
        expect(book.askLevels()).toHaveLength(0);
    });

    it('marks the book invalid at a jump and applies nothing until a fresh snapshot', () =>
    {
        const book = new OrderBook('ACME');
        book.applySnapshot({ mdSeq: 40, bids: [['99.95', 30, 2]], asks: [['100.05', 20, 1]] });
        expect(book.applyUpdate({ mdSeq: 44, changes: [['sell', '100.05', 0, 0]] })).toBe(GAP);
        expect(book.valid).toBe(false);
        expect(book.gaps).toBe(1);
        expect(book.askLevels()).toHaveLength(1);
        expect(book.applyUpdate({ mdSeq: 45, changes: [] })).toBe(WAITING);
        book.applySnapshot({ mdSeq: 50, bids: [], asks: [['100.10', 10, 1]] });
        expect(book.valid).toBe(true);
        expect(book.bids.size).toBe(0);
        expect(book.applyUpdate({ mdSeq: 51, changes: [] })).toBe(APPLIED);
        expect(book.askLevels().map((level) => level.price)).toEqual(['100.10']);
    });
});
