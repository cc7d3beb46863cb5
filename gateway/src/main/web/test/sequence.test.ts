import { describe, expect, it } from 'vitest';
import { ACCEPT, DUPLICATE, HOLE, SessionSequence } from '../src/sequence';

describe("the session's sequence numbers for resume", () =>
{
    it('takes the resend, gap fills and its own logon number in order, and drops duplicates', () =>
    {
        const sequence = new SessionSequence();
        sequence.onNewSession(1);
        expect(sequence.onMessage(2)).toBe(ACCEPT);
        expect(sequence.onMessage(3)).toBe(ACCEPT);
        expect(sequence.fromSeq()).toBe(4);
        // Reconnect: the reply is numbered 9; the gateway resends 4 to 8 (5 and 6 as a gapFill), then live from 10.
        sequence.onResumed(9);
        expect(sequence.fromSeq()).toBe(4);
        expect(sequence.onMessage(4)).toBe(ACCEPT);
        expect(sequence.onGapFill(5, 7)).toBe(ACCEPT);
        expect(sequence.onMessage(7)).toBe(ACCEPT);
        expect(sequence.onMessage(7)).toBe(DUPLICATE);
        expect(sequence.onMessage(8)).toBe(ACCEPT);
        expect(sequence.last).toBe(9);
        expect(sequence.onMessage(9)).toBe(DUPLICATE);
        expect(sequence.onMessage(10)).toBe(ACCEPT);
        expect(sequence.onMessage(12)).toBe(HOLE);
        expect(sequence.fromSeq()).toBe(11);
        expect(sequence.duplicates).toBe(2);
    });

    it('goes straight on from the reply when nothing was missed', () =>
    {
        const sequence = new SessionSequence();
        sequence.onNewSession(1);
        sequence.onMessage(2);
        sequence.onResumed(3);
        expect(sequence.last).toBe(3);
        expect(sequence.onMessage(4)).toBe(ACCEPT);
    });

    it('counts the logon reply as seen when a gap fill ends at it', () =>
    {
        const sequence = new SessionSequence();
        sequence.onNewSession(1);
        sequence.onResumed(6);
        expect(sequence.onGapFill(2, 6)).toBe(ACCEPT);
        expect(sequence.last).toBe(6);
        expect(sequence.onMessage(7)).toBe(ACCEPT);
    });

    it('sees a gap fill that starts past the next number as a hole', () =>
    {
        const sequence = new SessionSequence();
        sequence.onNewSession(1);
        expect(sequence.onGapFill(4, 6)).toBe(HOLE);
        expect(sequence.last).toBe(1);
    });
});
