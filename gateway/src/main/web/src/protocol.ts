// The parts of the gateway's WebSocket JSON protocol (docs/gateway.md) the page reads. Fields the page does not use
// are left out; the gateway's JSON schema (gateway-protocol.schema.json) is the full description.

export type Side = 'buy' | 'sell';

/** A price level in a `book`: [price, quantity, orders]. */
export type Level = [string, number, number];

/** A change in a `bookUpdate`: [side, price, quantity (0 removes the level), orders]. */
export type LevelChange = [Side, string, number, number];

export interface Instrument
{
    symbol: string;
    tickSize: string;
    lotSize: number;
    priceScale: number;
    minQuantity: number;
    maxQuantity: number;
    trading: boolean;
}

export interface BookMessage
{
    type: 'book';
    instrument: string;
    mdSeq: number;
    reason?: string;
    bids: Level[];
    asks: Level[];
}

export interface BookUpdateMessage
{
    type: 'bookUpdate';
    instrument: string;
    mdSeq: number;
    changes: LevelChange[];
}

export interface TradeMessage
{
    type: 'trade';
    instrument: string;
    mdSeq: number;
    price: string;
    quantity: number;
    /** Nanoseconds since the epoch. */
    time: number;
    aggressor?: Side;
}

export interface ExecutionReport
{
    type: 'executionReport';
    seq: number;
    clOrdId: string;
    execId: number | string;
    execType: string;
    orderStatus: string;
    instrument: string;
    side: Side;
    orderType: 'limit' | 'market';
    price: string;
    quantity: number;
    cumQuantity: number;
    leavesQuantity: number;
    lastQuantity?: number;
    lastPrice?: string;
    reason: number;
    text?: string;
    requestOnly?: boolean;
}

export interface LogonReply
{
    type: 'logon';
    seq: number;
    session: string;
    user: string;
    roles: string[];
    accounts: number[];
    heartbeatMs: number;
    resumed?: boolean;
    resend?: { from: number; to: number };
}

/** Any message from the gateway: `type` and, for session messages, `seq`. */
export interface GatewayMessage
{
    type: string;
    seq?: number;
    [field: string]: unknown;
}

/** A new order as the ticket or a test gives it. */
export interface OrderRequest
{
    side: string;
    orderType: string;
    timeInForce: string;
    price?: string;
    quantity: string | number;
    postOnly?: boolean;
    account?: number;
    instrument?: string;
    clOrdId?: string;
}
