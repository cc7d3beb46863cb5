// Decimal prices as the gateway sends them ("99.50"), converted exactly to integer units of the instrument's scale
// (BigInt), so the tick-grid check is integer arithmetic like the gateway's, never floating point.

const DECIMAL = /^-?\d+(\.\d+)?$/;

export type Scaled = { ok: true; units: bigint } | { ok: false; error: string };

/** Parses a decimal string into units of 10^-scale. */
export function parseScaled(text: unknown, scale: number): Scaled
{
    const value = String(text ?? '').trim();
    if (!DECIMAL.test(value))
    {
        return { ok: false, error: `'${value}' is not a decimal number` };
    }
    const negative = value.startsWith('-');
    const body = negative ? value.substring(1) : value;
    const [whole, fraction = ''] = body.split('.');
    if (whole.length + fraction.length > 18)
    {
        return { ok: false, error: 'at most 18 digits in all' };
    }
    const kept = fraction.substring(0, scale);
    const dropped = fraction.substring(scale);
    if (/[1-9]/.test(dropped))
    {
        return { ok: false, error: `more than ${scale} decimals` };
    }
    const units = BigInt(whole + kept.padEnd(scale, '0'));
    return { ok: true, units: negative ? -units : units };
}

/** Formats integer units of 10^-scale as a decimal string with exactly `scale` decimals. */
export function formatScaled(units: bigint, scale: number): string
{
    const negative = units < 0n;
    const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
    const text = 0 === scale ? digits :
        digits.substring(0, digits.length - scale) + '.' + digits.substring(digits.length - scale);
    return negative ? '-' + text : text;
}
