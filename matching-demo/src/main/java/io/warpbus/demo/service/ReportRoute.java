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
package io.warpbus.demo.service;

import java.nio.ByteBuffer;

import io.warpbus.orderentry.sbe.ExecutionReportEncoder;
import io.warpbus.orderentry.sbe.MessageHeaderEncoder;
import org.agrona.BitUtil;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * One report stream of the engine and what it owes its subscriber: the next exec id, the most recent reports held
 * byte for byte for resend requests, the queue of requested ranges, and the greeting heartbeat. The engine has one
 * route per origin of client order ids ({@link EngineContext}): the default route (origin 0) and one per gateway.
 * <p>
 * Exec ids count per route (1, 2, 3...), so a subscriber of a route's stream sees every report of its orders with
 * no gap and can ask for a range again; they are unique per route, not across routes. Reports are encoded by the
 * caller straight into the slot {@link #claim()} returns, and published from there. Its {@link ReportHeartbeats}
 * name the route's last exec id.
 * <p>
 * While the service replays its journal nothing is published, but exec ids advance and the history fills, so that a
 * restarted engine numbers on where the journal left off and can resend reports that died with the old process.
 */
final class ReportRoute
{
    static final int REPORT_LENGTH = MessageHeaderEncoder.ENCODED_LENGTH + ExecutionReportEncoder.BLOCK_LENGTH;
    private static final int HISTORY_SLOT = BitUtil.findNextPositivePowerOfTwo(REPORT_LENGTH);
    private static final int RESEND_QUEUE = 64;

    private final int origin;
    private final OutboundStream stream;
    private final AtomicCounter resentCounter;
    private final UnsafeBuffer history;
    private final long historyMask;
    private final long[] resendRanges = new long[2 * RESEND_QUEUE];
    private final ReportHeartbeats heartbeats;
    private long lastExecId;
    private long firstHeldExecId;
    private long resendHead;
    private long resendTail;
    private long resendNext = 1;
    private long resendLast;

    ReportRoute(final int origin, final OutboundStream stream, final AtomicCounter resentCounter,
        final int historyCapacity)
    {
        this.origin = origin;
        this.stream = stream;
        this.heartbeats = new ReportHeartbeats(stream);
        this.resentCounter = resentCounter;
        this.history = new UnsafeBuffer(ByteBuffer.allocateDirect(historyCapacity * HISTORY_SLOT));
        this.historyMask = historyCapacity - 1;
    }

    int origin()
    {
        return origin;
    }

    OutboundStream stream()
    {
        return stream;
    }

    /**
     * Take the next exec id and the history slot its report is to be encoded into.
     *
     * @return the slot's offset in {@link #history()}.
     */
    int claim()
    {
        final long execId = ++lastExecId;
        if (0 == firstHeldExecId)
        {
            firstHeldExecId = execId;
        }
        return slotOffset(execId);
    }

    MutableDirectBuffer history()
    {
        return history;
    }

    /**
     * Publish the report encoded at a slot.
     *
     * @param slot as returned by {@link #claim()}.
     */
    void publish(final int slot)
    {
        stream.publish(history, slot, REPORT_LENGTH);
    }

    long lastExecId()
    {
        return lastExecId;
    }

    void lastExecId(final long lastExecId)
    {
        this.lastExecId = lastExecId;
    }

    /**
     * Queue a request to publish again the held reports {@code fromExecId} to {@code toExecId}, as first sent;
     * {@link #continueResend} sends them a batch per duty cycle, so that a long range neither stalls matching nor
     * floods a subscriber that has just come back. What has left the history by then (or came before this process's
     * first report) is skipped: the client sees the first resent exec id above what it asked for and knows the rest
     * is gone.
     *
     * @param fromExecId first wanted.
     * @param toExecId   last wanted; 0 or beyond the latest means through the latest.
     * @return false when {@value #RESEND_QUEUE} requests are already waiting and this one is refused.
     */
    boolean resend(final long fromExecId, final long toExecId)
    {
        final long last = 0 == toExecId || toExecId > lastExecId ? lastExecId : toExecId;
        final long first = Math.max(1, fromExecId);
        if (first > last)
        {
            return true;
        }
        if (resendTail - resendHead == RESEND_QUEUE)
        {
            return false;
        }
        final int slot = (int)(resendTail++ & (RESEND_QUEUE - 1));
        resendRanges[2 * slot] = first;
        resendRanges[2 * slot + 1] = last;
        return true;
    }

    /**
     * Send the next batch of queued resend requests.
     *
     * @param limit most reports to publish.
     * @return reports published.
     */
    int continueResend(final int limit)
    {
        int resent = 0;
        while (resent < limit)
        {
            if (resendNext > resendLast)
            {
                if (resendHead == resendTail)
                {
                    break;
                }
                final int slot = (int)(resendHead++ & (RESEND_QUEUE - 1));
                resendNext = resendRanges[2 * slot];
                resendLast = resendRanges[2 * slot + 1];
            }
            if (0 == firstHeldExecId)
            {
                resendNext = resendLast + 1;
                continue;
            }
            resendNext = Math.max(resendNext, Math.max(firstHeldExecId, lastExecId - historyMask));
            if (resendNext > resendLast)
            {
                continue;
            }
            if (stream.publish(history, slotOffset(resendNext), REPORT_LENGTH) < 0)
            {
                // No subscriber left, or closing: the rest of this range would go nowhere either.
                resendNext = resendLast + 1;
                continue;
            }
            resendNext++;
            resent++;
        }
        if (resent > 0)
        {
            resentCounter.getAndAddRelease(resent);
        }
        return resent;
    }

    /**
     * Reports held, the newest ending at {@link #lastExecId()}.
     *
     * @return the count.
     */
    int heldReports()
    {
        return 0 == firstHeldExecId ? 0 : (int)Math.min(lastExecId - firstHeldExecId + 1, historyMask + 1);
    }

    /**
     * Copy the held reports, oldest first, for a checkpoint.
     *
     * @param buffer to copy into.
     * @param offset where.
     * @return bytes written: {@link #heldReports()} reports of {@link #REPORT_LENGTH} bytes.
     */
    int copyHistory(final MutableDirectBuffer buffer, final int offset)
    {
        final int count = heldReports();
        for (int i = 0; i < count; i++)
        {
            final long execId = lastExecId - count + 1 + i;
            buffer.putBytes(offset + i * REPORT_LENGTH, history, slotOffset(execId), REPORT_LENGTH);
        }
        return count * REPORT_LENGTH;
    }

    /**
     * Take back the reports of a checkpoint, after {@link #lastExecId(long)}: they end at that exec id.
     *
     * @param buffer holding them, oldest first.
     * @param offset where they start.
     * @param count  how many; the newest {@code historyCapacity} are kept.
     */
    void restoreHistory(final DirectBuffer buffer, final int offset, final int count)
    {
        final int kept = (int)Math.min(count, historyMask + 1);
        for (int i = count - kept; i < count; i++)
        {
            final long execId = lastExecId - count + 1 + i;
            history.putBytes(slotOffset(execId), buffer, offset + i * REPORT_LENGTH, REPORT_LENGTH);
        }
        firstHeldExecId = 0 == kept ? 0 : lastExecId - kept + 1;
    }

    /**
     * Greet a subscriber that has just joined with a heartbeat naming this route's last exec id.
     *
     * @param epochNs the time to put in the greeting.
     * @return 1 if the subscriber count changed, else 0.
     */
    int greetSubscribers(final long epochNs)
    {
        return heartbeats.greetSubscribers(epochNs, lastExecId);
    }

    /**
     * Publish an {@code EngineHeartbeat} naming this route's last exec id, when a subscriber is connected.
     *
     * @param epochNs its transact time.
     */
    void heartbeat(final long epochNs)
    {
        heartbeats.heartbeat(epochNs, lastExecId);
    }

    private int slotOffset(final long execId)
    {
        return (int)((execId & historyMask) * HISTORY_SLOT);
    }
}
