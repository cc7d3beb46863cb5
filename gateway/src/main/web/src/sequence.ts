// The session's sequence numbers as a client must track them for "resume from N" (docs/gateway.md, "Resume"):
// `last` is the highest number seen with no hole below it. After a resumed logon reply numbered L, the gateway resends
// fromSeq..L-1 (gapFills over numbers with nothing to resend), then goes on live from L+1; the reply's own L counts as
// seen once everything below it has come.

export const ACCEPT = 'accept';
export const DUPLICATE = 'duplicate';
export const HOLE = 'hole';

export type SequenceOutcome = typeof ACCEPT | typeof DUPLICATE | typeof HOLE;

export class SessionSequence
{
    /** The highest number seen with no hole below it. */
    last = 0;
    /** A resumed logon reply's number, counted once everything below it has come; 0 for none. */
    pendingLogonSeq = 0;
    duplicates = 0;

    /** The number to ask for when resuming: the last seen + 1. */
    fromSeq(): number
    {
        return this.last + 1;
    }

    /** A new session's logon reply. */
    onNewSession(logonSeq: number): void
    {
        this.last = logonSeq;
        this.pendingLogonSeq = 0;
    }

    /** A resumed logon reply numbered `logonSeq`. */
    onResumed(logonSeq: number): void
    {
        if (logonSeq === this.last + 1)
        {
            this.last = logonSeq;
            this.pendingLogonSeq = 0;
        }
        else
        {
            this.pendingLogonSeq = logonSeq;
        }
    }

    /**
     * One numbered message other than a logon reply.
     * @returns ACCEPT (process it), DUPLICATE (seen before: drop it) or HOLE (numbers were skipped: resume)
     */
    onMessage(seq: number): SequenceOutcome
    {
        if (seq <= this.last || seq === this.pendingLogonSeq)
        {
            this.duplicates++;
            return DUPLICATE;
        }
        if (seq !== this.last + 1)
        {
            return HOLE;
        }
        this.advanceTo(seq);
        return ACCEPT;
    }

    /** A gapFill: `seq` to `newSeq - 1` carried nothing to resend. */
    onGapFill(seq: number, newSeq: number): SequenceOutcome
    {
        if (seq > this.last + 1)
        {
            return HOLE;
        }
        if (newSeq - 1 > this.last)
        {
            this.advanceTo(newSeq - 1);
        }
        return ACCEPT;
    }

    private advanceTo(seq: number): void
    {
        this.last = seq;
        if (0 !== this.pendingLogonSeq && this.last + 1 === this.pendingLogonSeq)
        {
            this.last = this.pendingLogonSeq;
            this.pendingLogonSeq = 0;
        }
    }
}
