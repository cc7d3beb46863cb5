/*
 * Copyright 2026 the WarpBus authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.warpbus.gateway.client;

/**
 * Checks one gateway session's outbound sequence numbers as its client sees them across connections: every number
 * from 1 on exactly once and in order, whether it carries a message, is skipped by a {@code gapFill} in a resend, or
 * is a logon reply's own (docs/gateway.md, "Resume").
 * <p>
 * A fresh logon's reply is number 1. A resumed logon asks for {@link #resumeFrom()}, the next number not seen; its
 * reply takes the session's next number L, then come {@code resumeFrom()} to L - 1 (resent messages and gap fills),
 * then L + 1 on. A number below the next expected is counted as a duplicate (the client would drop it), a number
 * above it counts the numbers between as missing. Not thread safe: the owner serialises the calls.
 */
final class SequenceTracker
{
    private long next = 1;
    private long pendingLogonSeq;
    private long resendEnd;
    private long received;
    private long resent;
    private long gapFilled;
    private long missing;
    private long duplicates;

    /**
     * The number to resume from: the next one not seen.
     *
     * @return the next expected number.
     */
    long resumeFrom()
    {
        return next;
    }

    /**
     * A logon reply.
     *
     * @param seq     its number.
     * @param resumed whether it resumed the session.
     * @return null when it is as expected, else what is wrong.
     */
    String onLogon(final long seq, final boolean resumed)
    {
        received++;
        if (!resumed)
        {
            if (1 != next || 1 != seq)
            {
                final String problem = "a new session's logon reply numbered " + seq + " where " + next +
                    " was expected" + (1 != next ? " (the session was not resumed)" : "");
                missing += Math.max(0, seq - next);
                next = seq + 1;
                return problem;
            }
            next = 2;
            return null;
        }
        if (seq < next)
        {
            duplicates++;
            return "the resumed logon reply took number " + seq + ", already seen (expected " + next + " or more)";
        }
        if (seq == next)
        {
            next = seq + 1;
        }
        else
        {
            pendingLogonSeq = seq;
            resendEnd = seq;
        }
        return null;
    }

    /**
     * A numbered message other than a logon reply or a gap fill.
     *
     * @param seq its number.
     * @return null when it is the next expected, else what is wrong.
     */
    String onMessage(final long seq)
    {
        received++;
        if (seq < resendEnd && seq >= next)
        {
            resent++;
        }
        return advance(seq, seq + 1);
    }

    /**
     * A gap fill: numbers {@code seq} to {@code newSeq - 1} carried nothing to send again.
     *
     * @param seq    the first number skipped.
     * @param newSeq the next message's number.
     * @return null when it starts at the next expected number, else what is wrong.
     */
    String onGapFill(final long seq, final long newSeq)
    {
        if (newSeq <= seq)
        {
            return "a gap fill from " + seq + " to " + newSeq + " goes backwards";
        }
        if (seq >= next)
        {
            gapFilled += newSeq - seq;
        }
        return advance(seq, newSeq);
    }

    private String advance(final long seq, final long after)
    {
        if (seq < next)
        {
            duplicates++;
            return "number " + seq + " again (expected " + next + ")";
        }
        String problem = null;
        if (seq > next)
        {
            final boolean logonBetween = 0 != pendingLogonSeq && pendingLogonSeq >= next && pendingLogonSeq < seq;
            final long skipped = seq - next - (logonBetween ? 1 : 0);
            if (skipped > 0)
            {
                missing += skipped;
                problem = "numbers " + next + ".." + (seq - 1) + " never arrived (got " + seq + ")";
            }
        }
        next = after;
        if (0 != pendingLogonSeq && next >= pendingLogonSeq)
        {
            if (next == pendingLogonSeq)
            {
                next++;
            }
            pendingLogonSeq = 0;
        }
        return problem;
    }

    /**
     * Numbered messages received: logon replies and messages, not gap fills.
     *
     * @return the count.
     */
    long received()
    {
        return received;
    }

    /**
     * Of those, the messages resent after a resume (numbers below the resumed logon reply's).
     *
     * @return the count.
     */
    long resent()
    {
        return resent;
    }

    /**
     * Numbers skipped by gap fills.
     *
     * @return the count.
     */
    long gapFilled()
    {
        return gapFilled;
    }

    /**
     * Numbers that never arrived.
     *
     * @return the count.
     */
    long missing()
    {
        return missing;
    }

    /**
     * Numbers that arrived again, or after a later one.
     *
     * @return the count.
     */
    long duplicates()
    {
        return duplicates;
    }
}
