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
package io.warpbus.tools;

import java.io.PrintStream;
import java.util.concurrent.TimeUnit;

import io.warpbus.bus.Publication;

/**
 * What {@code warpbus pub} tells its user while its stream is interrupted: every subscriber gone (it waits up to
 * the return timeout for one to come back, saying so once a second), a recorder lost and then back (its place in
 * the publisher's log kept meanwhile), back pressure while the log waits for that recorder, and at the end what it
 * is still waiting for. Called from the publishing loop; {@link #onAccepted} reads two volatile fields and prints
 * nothing while the stream flows.
 */
final class PublishProgress
{
    private static final long REPORT_INTERVAL_NS = TimeUnit.SECONDS.toNanos(1);

    private final Publication publication;
    private final long returnTimeoutNs;
    private final PrintStream err;
    private long waitStartNs = -1;
    private long lastReportNs;
    private int absentReported;
    private long absentSinceNs;
    private long expiredReported;
    private boolean backPressureReported;

    /**
     * Progress of one publication.
     *
     * @param publication     what the tool publishes on.
     * @param returnTimeoutNs how long to wait for a subscriber to return when all have gone.
     * @param err             where to say so.
     */
    PublishProgress(final Publication publication, final long returnTimeoutNs, final PrintStream err)
    {
        this.publication = publication;
        this.returnTimeoutNs = returnTimeoutNs;
        this.err = err;
    }

    /**
     * An offer was refused.
     *
     * @param result the negative result of the offer.
     * @param sent   messages sent so far.
     * @return false when publishing must stop (closed, or no subscriber returned in time).
     */
    boolean onRefused(final long result, final long sent)
    {
        if (Publication.CLOSED == result || Publication.MAX_POSITION_EXCEEDED == result)
        {
            err.println("warpbus pub: " + Publication.statusName(result) + " after " + sent + " messages");
            return false;
        }
        final long nowNs = System.nanoTime();
        checkDurables(sent, nowNs);
        if (Publication.NOT_CONNECTED == result)
        {
            if (waitStartNs < 0)
            {
                waitStartNs = nowNs;
                lastReportNs = nowNs;
                err.println("warpbus pub: every subscriber left after " + sent + " messages; waiting up to " +
                    seconds(returnTimeoutNs) + " s for one to return (--return-timeout)");
                err.flush();
            }
            else if (nowNs - waitStartNs > returnTimeoutNs)
            {
                err.println("warpbus pub: no subscriber returned within " + seconds(returnTimeoutNs) +
                    " s; stopping after " + sent + " messages");
                return false;
            }
            else if (nowNs - lastReportNs >= REPORT_INTERVAL_NS)
            {
                lastReportNs = nowNs;
                err.println("warpbus pub: still waiting for a subscriber to return (" +
                    seconds(returnTimeoutNs - (nowNs - waitStartNs)) + " s left)");
                err.flush();
            }
        }
        else if (Publication.BACK_PRESSURED == result && absentReported > 0 && !backPressureReported)
        {
            backPressureReported = true;
            err.println("warpbus pub: back-pressured after " + sent + " messages: the log is full up to the place " +
                "kept for the absent recorder; waiting for it to return");
            err.flush();
        }
        return true;
    }

    /**
     * An offer was accepted.
     *
     * @param sent messages sent before it.
     */
    void onAccepted(final long sent)
    {
        if (waitStartNs >= 0)
        {
            final long nowNs = System.nanoTime();
            err.println("warpbus pub: a subscriber is back after " +
                TimeUnit.NANOSECONDS.toMillis(nowNs - waitStartNs) + " ms; going on from message " + sent);
            err.flush();
            waitStartNs = -1;
        }
        if (publication.absentDurableSubscriberCount() != absentReported)
        {
            checkDurables(sent, System.nanoTime());
        }
    }

    /**
     * Has everything been consumed? Says once a second what it still waits for.
     *
     * @param sent messages sent.
     * @return true when drained.
     */
    boolean drained(final long sent)
    {
        if (publication.isDrained())
        {
            return true;
        }
        final long nowNs = System.nanoTime();
        checkDurables(sent, nowNs);
        if (absentReported > 0 && nowNs - lastReportNs >= REPORT_INTERVAL_NS)
        {
            lastReportNs = nowNs;
            err.println("warpbus pub: waiting for " + absentReported + " absent recorder(s) to return and record " +
                "the rest");
            err.flush();
        }
        return false;
    }

    private void checkDurables(final long sent, final long nowNs)
    {
        final int absent = publication.absentDurableSubscriberCount();
        if (absent == absentReported)
        {
            return;
        }
        if (absent > absentReported)
        {
            absentSinceNs = nowNs;
            err.println("warpbus pub: a recorder was lost after " + sent + " messages; publishing goes on while " +
                "it is expected back (its place in the log is kept for the durable timeout)");
        }
        else
        {
            final long expired = publication.expiredDurableSubscriberCount();
            if (expired != expiredReported)
            {
                expiredReported = expired;
                err.println("warpbus pub: a recorder did not return within the durable timeout; its journal " +
                    "will have a gap (" + sent + " messages sent)");
            }
            else
            {
                err.println("warpbus pub: the recorder is back after " +
                    TimeUnit.NANOSECONDS.toMillis(nowNs - absentSinceNs) + " ms (" + sent + " messages sent)");
            }
        }
        err.flush();
        absentReported = absent;
        backPressureReported = false;
    }

    private static long seconds(final long ns)
    {
        return TimeUnit.NANOSECONDS.toSeconds(ns + TimeUnit.MILLISECONDS.toNanos(999));
    }
}
