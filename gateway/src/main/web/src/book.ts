// A client's L2 book of one instrument, built as docs/gateway.md "Market-data sequence" says: a `book` replaces it,
// each `bookUpdate` or `trade` must carry the last mdSeq + 1. A jump is a gap: the book is no longer trusted until a
// fresh `book` arrives (the page re-subscribes for one).

import type { BookMessage, BookUpdateMessage } from './protocol';

export const APPLIED = 'applied';
export const GAP = 'gap';
export const STALE = 'stale';
export const WAITING = 'waiting';

export type BookOutcome = typeof APPLIED | typeof GAP | typeof STALE | typeof WAITING;

export interface BookLevel
{
    price: string;
    quantity: number;
    orders: number;
}

export class OrderBook
{
    readonly symbol: string;
    readonly bids = new Map<string, BookLevel>();
    readonly asks = new Map<string, BookLevel>();
    mdSeq = -1;
    valid = false;
    gaps = 0;

    constructor(symbol: string)
    {
        this.symbol = symbol;
    }

    /** Replaces the book with a `book` message. */
    applySnapshot(message: Pick<BookMessage, 'mdSeq' | 'bids' | 'asks'>): void
    {
        this.bids.clear();
        this.asks.clear();
        for (const [price, quantity, orders] of message.bids)
        {
            this.bids.set(price, { price, quantity, orders });
        }
        for (const [price, quantity, orders] of message.asks)
        {
            this.asks.set(price, { price, quantity, orders });
        }
        this.mdSeq = message.mdSeq;
        this.valid = true;
    }

    /**
     * Checks the market-data sequence of a `bookUpdate` or `trade` and moves the book on.
     * @returns APPLIED, GAP (the book is now invalid), STALE (an old number, ignored) or WAITING (no book yet)
     */
    sequence(message: { mdSeq: number }): BookOutcome
    {
        if (!this.valid)
        {
            return WAITING;
        }
        if (message.mdSeq <= this.mdSeq)
        {
            return STALE;
        }
        if (message.mdSeq !== this.mdSeq + 1)
        {
            this.valid = false;
            this.gaps++;
            return GAP;
        }
        this.mdSeq = message.mdSeq;
        return APPLIED;
    }

    /** Applies a `bookUpdate`; returns what {@link sequence} said. */
    applyUpdate(message: Pick<BookUpdateMessage, 'mdSeq' | 'changes'>): BookOutcome
    {
        const outcome = this.sequence(message);
        if (APPLIED !== outcome)
        {
            return outcome;
        }
        for (const [side, price, quantity, orders] of message.changes)
        {
            const levels = 'buy' === side ? this.bids : this.asks;
            if (0 === quantity)
            {
                levels.delete(price);
            }
            else
            {
                levels.set(price, { price, quantity, orders });
            }
        }
        return APPLIED;
    }

    /** Bids best (highest) first. */
    bidLevels(): BookLevel[]
    {
        return [...this.bids.values()].sort((a, b) => Number(b.price) - Number(a.price));
    }

    /** Asks best (lowest) first. */
    askLevels(): BookLevel[]
    {
        return [...this.asks.values()].sort((a, b) => Number(a.price) - Number(b.price));
    }
}
