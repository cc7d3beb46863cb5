// Shared test data: ACME as the gateway's `instruments` reply describes it in the tests.

import type { Instrument } from '../src/protocol';

export const ACME: Instrument = { symbol: 'ACME', tickSize: '0.05', lotSize: 10, priceScale: 2, minQuantity: 10,
    maxQuantity: 10000, trading: true };
