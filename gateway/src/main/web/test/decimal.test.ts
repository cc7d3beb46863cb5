import { describe, expect, it } from 'vitest';
import { formatScaled, parseScaled } from '../src/decimal';

describe('exact decimal prices', () =>
{
    it('converts prices exactly to units of the scale', () =>
    {
        expect(parseScaled('99.50', 2)).toEqual({ ok: true, units: 9950n });
        expect(parseScaled('99.5', 2)).toEqual({ ok: true, units: 9950n });
        expect(parseScaled('99.500', 2)).toEqual({ ok: true, units: 9950n });
        expect(parseScaled('100', 2)).toEqual({ ok: true, units: 10000n });
        expect(parseScaled('-1.25', 2)).toEqual({ ok: true, units: -125n });
    });

    it('refuses extra decimals, exponents, too many digits and non-numbers with the reason', () =>
    {
        expect(parseScaled('99.501', 2)).toEqual({ ok: false, error: 'more than 2 decimals' });
        expect(parseScaled('1e3', 2)).toEqual({ ok: false, error: "'1e3' is not a decimal number" });
        expect(parseScaled('1234567890123456789', 2)).toEqual({ ok: false, error: 'at most 18 digits in all' });
        expect(parseScaled(undefined, 2).ok).toBe(false);
    });

    it('formats units with exactly the scale decimals', () =>
    {
        expect(formatScaled(9950n, 2)).toBe('99.50');
        expect(formatScaled(5n, 2)).toBe('0.05');
        expect(formatScaled(-125n, 2)).toBe('-1.25');
        expect(formatScaled(7n, 0)).toBe('7');
    });
});
